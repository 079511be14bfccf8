"""The Windows build made on Linux (`packaging/build.py --target windows`): the folder with the
PSF-signed CPython and the Windows wheels, the NSIS installer and the zip; the signature check
refusing what does not check out; and the installer under Wine (packaging/wine_smoke.py):
installed per user, the headless commands answering exactly as on Linux, the window drawn
offscreen with Hangul, the uninstaller leaving nothing behind.

Slow (downloads are cached in pytest's cache folder, .pytest_cache/d/windows-build). Under
Wine it uses PySide6-Essentials 6.6.3: later Qt 6 (6.7 on) needs the ICU that Windows 10/11
ship (icuuc.dll) and Wine lacks; the shipped installer takes the project's normal range.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import windows  # noqa: E402
import wine_smoke  # noqa: E402

WINE_PYSIDE = "PySide6-Essentials==6.6.3"
TOOLS = ("wine", "makensis", "osslsigncode", "openssl")

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="builds for Windows from Linux"
)


def make_build(tmp_path_factory, request, *pyside: str) -> dict:
    """build.py --target windows into a temporary folder (zlib: quicker to compress)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{missing} missing: as root, bash packaging/system-libraries.sh --test")
    cache = request.config.cache.mkdir("windows-build")
    dist = tmp_path_factory.mktemp("windows-dist")
    command = [sys.executable, str(ROOT / "packaging" / "build.py"), "--target", "windows"]
    command += ["--distpath", str(dist), "--workpath", str(cache), "--fast", *pyside]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    print(f"\n{done.stdout}")
    out = dist / "windows"
    return {
        "folder": out / "recall-reviewer",
        "installer": next(out.glob("Recall-Reviewer-*-setup.exe")),
        "zip": next(out.glob("recall-reviewer-*-windows-x86_64.zip")),
    }


@pytest.fixture(scope="module")
def build(tmp_path_factory, request) -> dict:
    """With the PySide6 that runs under Wine."""
    return make_build(tmp_path_factory, request, "--pyside6", WINE_PYSIDE)


@pytest.mark.slow
def test_folder_holds_the_signed_python_the_app_and_only_the_qt_it_uses(build):
    folder = build["folder"]
    python = folder / "python"
    for name in (*windows.SIGNED, "pythonw.exe", "python313._pth", "Lib/encodings/cp949.py"):
        assert (python / name).is_file(), name
    site = python / "Lib" / "site-packages"
    for name in ("desktop/cli.py", "db/schema.py", "resources/fonts/NanumGothic.ttf",
                 "resources/sample/sample.json", "PySide6/QtWidgets.pyd",
                 "PySide6/plugins/platforms/qwindows.dll", "openpyxl", "sqlite_utils"):  # fmt: skip
        assert (site / name).exists(), name
    files = [p.relative_to(folder).as_posix() for p in folder.rglob("*")]
    unwanted = ("tkinter", "Qt6Quick", "Qt6Qml", "Qt6Network", "opengl32sw", "designer.exe",
                "libssl", "libcrypto", "/pip/", "idlelib", ".pyi")  # fmt: skip
    assert [f for f in files if any(u in f for u in unwanted)] == []
    # isolated: no PYTHONPATH, no user site-packages can change what the app imports
    assert (python / "python313._pth").read_bytes().endswith(b"import site\r\n")
    for launcher in windows.LAUNCHERS:
        text = (folder / launcher).read_bytes()
        assert text.endswith(b"\r\n") and b"\n" not in text.replace(b"\r\n", b"")
        assert b"-X utf8 -m desktop" in text
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert size < 150e6, f"the folder grew to {size / 1e6:.0f} MB"


@pytest.mark.slow
def test_installer_and_zip_are_made(build):
    with open(build["installer"], "rb") as exe:
        assert exe.read(2) == b"MZ"
    assert build["installer"].stat().st_size > 10e6
    with zipfile.ZipFile(build["zip"]) as packed:
        names = set(packed.namelist())
    assert "recall-reviewer/python/python.exe" in names
    assert "recall-reviewer/Recall Reviewer.cmd" in names


@pytest.mark.slow
def test_signature_check_refuses_a_changed_or_foreign_binary(build, tmp_path):
    signed = build["folder"] / "python" / "python.exe"
    windows.verify_signature(signed, tmp_path)  # the genuine one passes
    changed = tmp_path / "python.exe"
    data = bytearray(signed.read_bytes())
    data[4096] ^= 0xFF  # one byte of code, signature untouched
    changed.write_bytes(bytes(data))
    with pytest.raises(windows.BuildError, match="digest does not match"):
        windows.verify_signature(changed, tmp_path)
    # signed, but by The Qt Company under another root: not the Python we ship
    qt = build["folder"] / "python" / "Lib" / "site-packages" / "PySide6" / "Qt6Core.dll"
    with pytest.raises(windows.BuildError, match="pinned Microsoft root"):
        windows.verify_signature(qt, tmp_path)
    with pytest.raises(windows.BuildError):  # our own installer is not signed at all
        windows.verify_signature(build["installer"], tmp_path)


@pytest.mark.slow
def test_under_wine_installed_app_answers_as_on_linux_and_draws_hangul(build, tmp_path, capsys):
    code = wine_smoke.main([str(build["installer"]), str(tmp_path), "--screenshot",
                            str(tmp_path / "window.png")])  # fmt: skip
    out = capsys.readouterr().out
    print(out)
    assert "Start Menu/Programs/Recall Reviewer.lnk" in out and "home/Recall Reviewer.lnk" in out
    assert "DIFFERENT" not in out
    assert "\\AppData\\Local\\recall-reviewer\n" in out  # %LOCALAPPDATA%, via platformdirs
    assert "'font': 'NanumGothic'" in out and "'hangul': True" in out
    assert (tmp_path / "window.png").stat().st_size > 10_000
    assert code == 0, out
    assert not any(Path(os.environ.get("HOME", "/nonexistent")).glob("Desktop/Recall*.lnk"))


@pytest.mark.slow
def test_under_wine_the_shipped_installer_answers_as_on_linux(tmp_path_factory, request, tmp_path):
    """The installer as handed out (the project's PySide6 range): its window needs Windows' ICU,
    which Wine lacks, but the headless commands never load Qt and must answer as on Linux."""
    shipped = make_build(tmp_path_factory, request)
    env = wine_smoke.wine_env(tmp_path)
    installed = wine_smoke.install(shipped["installer"], env)
    for command, on_windows, on_linux in wine_smoke.run_both(installed, env, tmp_path):
        assert on_windows == on_linux, command
    wine_smoke.uninstall(installed, env)
    assert wine_smoke.shortcuts(env) == []
