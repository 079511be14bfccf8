"""The app bundle: built with PyInstaller inside the test run (slow, but in the default run, so
packaging cannot rot unnoticed), then run the way a reviewer runs it: headless commands, the
window offscreen for a few seconds, and on X (Xvfb) with the launcher's StartupWMClass checked
against the window. Also: the launcher file, the icons, the install script, the gui-script
entry, and that the headless command line never loads Qt."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tomllib

from tests.helpers import write_text

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
ICONS = ROOT / "resources" / "icons"
NAME = "recall-reviewer"
# PySide6 (Core, Gui, Widgets) + ICU data are ~110 MB of it; DuckDB, which reads GraphRAG's
# parquet output, 66 MB more (measured on Linux: 206.1 MB with it, about 140 MB without).
SIZE_BUDGET_MB = 210
IS_LINUX = sys.platform.startswith("linux")


def gui_available() -> str | None:
    for module in ("desktop.ui.app", "desktop.ui.window"):
        if importlib.util.find_spec(module) is None:
            return f"{module.replace('.', '/')}.py does not exist yet"
    return None


# -- the build ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> dict:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.fail("PyInstaller is missing: pip install -e .[test] brings it")
    base = tmp_path_factory.mktemp("bundle")
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            str(PACKAGING / "build.py"),
            "--distpath",
            str(base / "dist"),
            "--workpath",
            str(base / "work"),
        ],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, f"build failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    match = re.search(r"size:\s+([\d.]+) MB", done.stdout)
    assert match, done.stdout
    folder = base / "dist" / NAME
    exe = folder / (f"{NAME}.exe" if sys.platform == "win32" else NAME)
    if sys.platform == "win32":
        exe = folder / f"{NAME}-cli.exe"  # the console twin runs the headless commands
    return {
        "folder": folder,
        "exe": exe,
        "gui_exe": folder / (f"{NAME}.exe" if sys.platform == "win32" else NAME),
        "size_mb": float(match.group(1)),
        "seconds": time.monotonic() - started,
        "log": done.stdout + done.stderr,
    }


def run(bundle, *args, home: Path, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, RECALL_REVIEWER_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [str(bundle["exe"]), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=home.parent,
        **kw,
    )


@pytest.mark.slow
def test_bundle_is_built_lean_and_complete(bundle):
    folder = bundle["folder"]
    assert bundle["exe"].is_file() and os.access(bundle["exe"], os.X_OK)
    print(f"\nbundle: {bundle['size_mb']:.1f} MB, built in {bundle['seconds']:.0f} s")
    assert bundle["size_mb"] < SIZE_BUDGET_MB, f"bundle grew to {bundle['size_mb']} MB"
    files = [p.relative_to(folder).as_posix() for p in folder.rglob("*")]
    internal = "_internal/"
    for data in (
        "resources/sample/sample.json",
        "resources/sample/corpus.jsonl",
        "resources/fonts/NanumGothic.ttf",
        "resources/icons/recall-reviewer-256.png",
    ):
        assert internal + data in files, f"{data} is not in the bundle"
    unwanted = re.compile(
        r"Qt6?(Qml|Quick|WebEngine|Network|Pdf|3D|Multimedia|Designer|Sql|Test)|tkinter|_tkinter"
        r"|numpy|pyarrow|pytest|hypothesis|pytrec|libssl|libcrypto|libgtk|libcairo",
        re.IGNORECASE,
    )
    assert [f for f in files if unwanted.search(f.split("/")[-1])] == []
    # GraphRAG's parquet output is read through DuckDB: in the bundle out of the box
    assert [f for f in files if f.split("/")[-1].startswith("_duckdb")], "duckdb is not bundled"
    qms = [f for f in files if f.endswith(".qm") and "/translations/" in f]
    assert all(re.search(r"_(ko|en)\.qm$", f) for f in qms), qms
    dangling = [p for p in folder.rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []
    if IS_LINUX:
        assert (folder / "install-linux.sh").is_file()
        assert (folder / f"{NAME}.desktop").is_file()
        # Qt 6's xcb plugin needs these and fresh desktops often lack them; PyInstaller bundles
        # them only when the build machine has them (tests/run installs them as root).
        needed = ("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1")
        missing = [lib for lib in needed if not (folder / "_internal" / lib).exists()]
        assert missing == [], (
            f"{missing} not bundled: install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 on "
            "the build machine"
        )


@pytest.mark.slow
def test_bundle_runs_headless_commands(bundle, tmp_path):
    home = tmp_path / "home"
    db = tmp_path / "review.db"
    done = run(bundle, "--version", home=home)
    assert done.returncode == 0 and "0.1" in done.stdout
    done = run(bundle, "--db", str(db), "demo", home=home)
    assert done.returncode == 0, done.stderr
    assert "sample project loaded" in done.stdout

    done = run(bundle, "--db", str(db), "metrics", "--json", "--k", "5,10", home=home)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["k"] == [5, 10]
    assert data["questions"]["total"] > 0 and data["questions"]["evaluated"] > 0
    assert len(data["systems"]) >= 2
    for system in data["systems"]:
        for label in ("Recall@5", "CoreRecall@5", "Hit@5", "MRR@5", "nDCG@5", "Recall@10"):
            assert 0.0 <= system[label] <= 1.0

    done = run(bundle, "--db", str(db), "info", "--json", home=home)
    info = json.loads(done.stdout)
    assert info["passages"] > 0 and info["systems"]

    # a CP949 file, decoded by --encoding: the Korean codecs are in the bundle
    questions = write_text(tmp_path / "extra.tsv", "zz1\t대통령의 임기는?\n", encoding="cp949")
    done = run(bundle, "--db", str(db), "import", "questions", str(questions), home=home)
    assert done.returncode == 2 and "cp949" in done.stderr.lower() + done.stdout.lower()
    done = run(
        bundle,
        "--db",
        str(db),
        "import",
        "questions",
        str(questions),
        "--encoding",
        "cp949",
        home=home,
    )
    assert done.returncode == 0, done.stderr

    # judgements are journaled beside the database, and the restore command runs bundled
    line = {"reviewer": "kim", "at": "2026-12-01T10:00:00+09:00", "question_id": "q01"}
    judgements = write_text(
        tmp_path / "kim.jsonl", json.dumps({**line, "kind": "note", "value": "메모"}) + "\n"
    )
    done = run(bundle, "--db", str(db), "import", "judgements", str(judgements), home=home)
    assert done.returncode == 0, done.stderr
    assert "메모" in (tmp_path / "review.db.judgements.jsonl").read_text(encoding="utf-8")
    done = run(bundle, "--db", str(db), "restore", "--list", home=home)
    assert done.returncode == 0 and "no backups" in done.stdout, done.stderr

    if importlib.util.find_spec("desktop.report") is not None:
        report = tmp_path / "report.xlsx"
        done = run(bundle, "--db", str(db), "export", str(report), home=home)
        assert done.returncode == 0, done.stderr
        assert report.read_bytes()[:2] == b"PK"

    done = run(
        bundle, "--db", str(db), "export", "judgements", str(tmp_path / "j.jsonl"), home=home
    )
    assert done.returncode == 0, done.stderr


def _start_window(bundle, home: Path, db: Path, **env_extra) -> subprocess.Popen:
    home.mkdir(parents=True, exist_ok=True)
    # The reviewer's name is asked once and kept in the settings; give it, so the main window
    # itself opens (the question dialog alone would also keep the app running).
    (home / "settings.ini").write_text("[General]\nreviewer=kim\n", encoding="utf-8")
    env = dict(os.environ, RECALL_REVIEWER_HOME=str(home), **env_extra)
    env.pop("PYTHONPATH", None)
    return subprocess.Popen(
        [str(bundle["gui_exe"]), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=home.parent,
    )


def _stop(process: subprocess.Popen) -> tuple[str, str]:
    process.terminate()
    try:
        return process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()


@pytest.mark.slow
def test_bundle_reads_a_graphrag_output_folder(bundle, tmp_path):
    from tests.readers.test_graph import IMPORTED, write_graphrag

    home, db = tmp_path / "home", tmp_path / "review.db"
    docs = "".join(
        json.dumps({"id": d.id, "text": d.text}, ensure_ascii=False) + "\n" for d in IMPORTED
    )
    write_text(tmp_path / "documents.jsonl", docs)
    corpus = "".join(
        json.dumps({"id": d.id, "text": d.text, "document_id": d.id}, ensure_ascii=False) + "\n"
        for d in IMPORTED
    )
    write_text(tmp_path / "corpus.jsonl", corpus)
    folder = write_graphrag(tmp_path / "output")
    for args in (
        ("init",),
        ("import", "documents", str(tmp_path / "documents.jsonl")),
        ("import", "corpus", str(tmp_path / "corpus.jsonl")),
        ("import", "corpus", str(folder), "--format", "graphrag", "--chunking", "graphrag"),
    ):
        done = run(bundle, "--db", str(db), *args, home=home)
        assert done.returncode == 0, done.stderr
    assert "as chunking 'graphrag'" in done.stdout


@pytest.mark.slow
def test_bundle_opens_the_window_offscreen_and_keeps_running(bundle, tmp_path):
    reason = gui_available()
    if reason:
        pytest.skip(f"window not run: {reason}")
    home = tmp_path / "home"
    db = tmp_path / "review.db"
    assert run(bundle, "--db", str(db), "demo", home=home).returncode == 0
    process = _start_window(bundle, home, db, QT_QPA_PLATFORM="offscreen")
    time.sleep(5)
    alive = process.poll() is None
    out, err = _stop(process)
    assert alive, f"the window exited early ({process.returncode}):\n{out}\n{err}"
    assert "Traceback" not in err, err
    app_source = (ROOT / "desktop" / "ui" / "app.py").read_text(encoding="utf-8")
    if "install_crash_dialog" in app_source:
        log = home / "logs" / "recall-reviewer.log"
        assert log.is_file() and "crash dialog installed" in log.read_text(encoding="utf-8")
    if IS_LINUX:
        assert process.returncode == -signal.SIGTERM or process.returncode == 0


def _xvfb(tmp_path):
    if not IS_LINUX or not shutil.which("Xvfb") or not shutil.which("xwininfo"):
        pytest.skip("Xvfb and xwininfo are needed to check the window class on X11")
    for display in range(90, 120):
        if (
            not Path(f"/tmp/.X11-unix/X{display}").exists()
            and not Path(f"/tmp/.X{display}-lock").exists()
        ):
            break
    server = subprocess.Popen(
        ["Xvfb", f":{display}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{display}").exists():
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            pytest.skip("Xvfb did not start")
        time.sleep(0.1)
    return server, f":{display}"


def desktop_entry() -> dict[str, str]:
    entry = {}
    for line in (PACKAGING / f"{NAME}.desktop").read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            entry[key] = value
    return entry


@pytest.mark.slow
def test_window_on_x11_matches_the_launchers_startup_wm_class(bundle, tmp_path):
    reason = gui_available()
    if reason:
        pytest.skip(f"window not run: {reason}")
    server, display = _xvfb(tmp_path)
    try:
        home = tmp_path / "home"
        db = tmp_path / "review.db"
        assert run(bundle, "--db", str(db), "demo", home=home).returncode == 0
        env = {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        process = _start_window(bundle, home, db, **env)
        classes: list[tuple[str, str]] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and process.poll() is None:
            tree = subprocess.run(
                ["xwininfo", "-root", "-tree"],
                capture_output=True,
                text=True,
                env=dict(os.environ, DISPLAY=display),
            ).stdout
            classes = re.findall(r'\d+x\d+\+.*?\("([^"]*)" "([^"]*)"\)', tree) or re.findall(
                r'\("([^"]*)" "([^"]*)"\)', tree
            )
            if classes:
                break
            time.sleep(0.3)
        time.sleep(1)
        alive = process.poll() is None
        out, err = _stop(process)
        assert alive, f"the window exited on X11 ({process.returncode}):\n{err}"
        assert classes, f"no top-level window with a WM_CLASS appeared:\n{err}"
        wm_class = desktop_entry()["StartupWMClass"]
        # Desktops match StartupWMClass against either part of WM_CLASS (instance, class)
        assert any(wm_class in pair for pair in classes), (wm_class, classes)
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- the launcher, icons, installer ----------------------------------------------------------


def test_desktop_file_is_valid_and_names_the_app():
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Icon"] == NAME and entry["StartupWMClass"] == NAME
    assert entry["Exec"].split()[0] == NAME and entry["Terminal"] == "false"
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip("desktop-file-validate is not installed (apt: desktop-file-utils)")
    done = subprocess.run(
        [tool, str(PACKAGING / f"{NAME}.desktop")], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def test_icons_exist_in_every_size_each_os_wants():
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        assert _png_size(ICONS / f"{NAME}-{size}.png") == (size, size)
    assert (ICONS / f"{NAME}.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")

    ico = (ICONS / f"{NAME}.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 6
    sizes = set()
    for i in range(count):
        w, h, _c, _r, _p, _b, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * i : 22 + 16 * i]
        )
        assert ico[offset : offset + 8] == b"\x89PNG\r\n\x1a\n"
        sizes.add(w or 256)
    assert {16, 32, 48, 256} <= sizes

    icns = (ICONS / f"{NAME}.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    types, at = set(), 8
    while at < len(icns):
        code, length = icns[at : at + 4], struct.unpack(">I", icns[at + 4 : at + 8])[0]
        types.add(code.decode())
        at += length
    assert {"icp4", "icp5", "ic07", "ic08", "ic09", "ic10"} <= types


@pytest.mark.slow
@pytest.mark.skipif(not IS_LINUX, reason="the install script is for Linux")
def test_install_script_puts_app_icon_and_launcher_in_the_users_home(bundle, tmp_path):
    home = tmp_path / "user"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), PATH=os.environ["PATH"])
    env.pop("XDG_DATA_HOME", None)
    done = subprocess.run(
        ["bash", str(bundle["folder"] / "install-linux.sh")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    share = home / ".local" / "share"
    launcher = share / "applications" / f"{NAME}.desktop"
    exe = home / ".local" / "lib" / NAME / NAME
    assert exe.is_file()
    text = launcher.read_text(encoding="utf-8")
    assert f'Exec="{exe}"' in text and f"TryExec={exe}" in text
    for size in (16, 32, 48, 128, 256, 512):
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png").is_file()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{NAME}.svg").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(launcher)], capture_output=True)
        assert check.returncode == 0, check.stdout
    # the command on the PATH is a symlink into the bundle, and still finds its data
    link = home / ".local" / "bin" / NAME
    db = tmp_path / "via-link.db"
    used = subprocess.run(
        [str(link), "--db", str(db), "demo"],
        capture_output=True,
        text=True,
        env=dict(env, RECALL_REVIEWER_HOME=str(tmp_path / "rr")),
        timeout=120,
    )
    assert used.returncode == 0, used.stderr

    done = subprocess.run(
        ["bash", str(exe.parent / "install-linux.sh"), "--uninstall"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not launcher.exists() and not exe.exists() and not link.exists()


# -- entry points and Qt-free headless commands ------------------------------------------------


def test_pip_install_gives_a_console_less_launcher():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["gui-scripts"]["recall-reviewer-gui"] == "desktop.cli:main"
    assert project["scripts"]["recall-reviewer"] == "desktop.cli:main"
    assert any(
        d.lower().startswith("pyinstaller") for d in project["optional-dependencies"]["test"]
    )


def test_headless_command_line_never_imports_qt(tmp_path):
    code = (
        "import sys, json\n"
        "from desktop.cli import main\n"
        f"assert main(['--db', {str(tmp_path / 'q.db')!r}, 'demo']) == 0\n"
        f"assert main(['--db', {str(tmp_path / 'q.db')!r}, 'info', '--json']) == 0\n"
        f"assert main(['--db', {str(tmp_path / 'q.db')!r}, 'metrics', '--json']) == 0\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6'))\n"
        "print('QT-MODULES', json.dumps(qt))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, RECALL_REVIEWER_HOME=str(tmp_path / "home")),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("QT-MODULES "))
    assert json.loads(line.removeprefix("QT-MODULES ")) == []
