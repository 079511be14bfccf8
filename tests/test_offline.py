"""Offline guarantee: a full session (import, review, metrics, export, merge and the window)
opens no network connection.

Two independent witnesses watch a session run in a fresh interpreter:

- a ``sys.addaudithook`` hook, installed before anything of the app is imported, records every
  Python-level network event (socket.connect, socket.getaddrinfo, urllib.Request, ...);
- on Linux with strace, the kernel's view: every connect()/sendto() of the process and its
  threads, Qt's C++ code included, is checked to be local (AF_UNIX: the X server, DBus) and
  never AF_INET/AF_INET6.

A control run makes sure each witness does see a network call, so the test cannot pass
because it watches nothing. And a static check: no module under desktop/ or db/ imports a
networking module.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NETWORK_EVENTS = (
    "socket.connect",
    "socket.getaddrinfo",
    "socket.gethostbyname",
    "socket.gethostbyaddr",
    "socket.getnameinfo",
    "socket.sendto",
    "urllib.Request",
    "http.client.connect",
    "ftplib.connect",
    "smtplib.connect",
    "webbrowser.open",
)

HARNESS = textwrap.dedent(
    """
    import json, socket, sys
    EVENTS = set(sys.argv[1].split(","))
    seen = []

    def hook(event, args):
        if event in EVENTS:
            seen.append([event, repr(args)[:200]])
        elif event == "socket.__new__" and len(args) > 1 and args[1] in (
            socket.AF_INET, socket.AF_INET6
        ):
            seen.append([event, repr(args)[:200]])

    sys.addaudithook(hook)
    sys.path.insert(0, sys.argv[2])
    steps = []
    try:
        exec(compile(open(sys.argv[3], encoding="utf-8").read(), sys.argv[3], "exec"))
    finally:
        print("OFFLINE-RESULT " + json.dumps({"events": seen, "steps": steps}))
    """
)

SESSION = textwrap.dedent(
    """
    import importlib.util, io, json, os, contextlib
    from pathlib import Path

    work = Path(os.environ["OFFLINE_WORK"])
    db = work / "review.db"

    from desktop.cli import main as cli
    from desktop.project import Project
    from desktop.app.sample import load_sample

    # import: the bundled sample (corpus, questions, gold, three runs)
    with Project(db) as project:
        list(load_sample(project))
        steps.append("import")
        # review: a reviewer marks misses, accepts an alternative, notes, answerability
        q = project.questions()[0]["id"]
        project.add_judgement("kim", q, "note", "checked offline")
        project.add_judgement("kim", q, "answerable", True)
        gold = project.effective_gold()
        pk = project.questions()[0]["pk"]
        first = gold.items[pk][0] if gold.items.get(pk) else None
        if first is not None:
            project.add_judgement("kim", q, "role", "core", passage_id=first.primary_id)
        steps.append("review")
        data = project.evaluate([5, 10]).as_json(per_question=True)
        assert data["systems"], data
        steps.append("metrics")
        n = project.export_judgements(work / "kim.jsonl")
        assert n >= 2, n
        steps.append("export-judgements")

    # the command line, as a reviewer would use it
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli(["--db", str(db), "metrics", "--json", "--k", "5,10"]) == 0
        assert cli(["--db", str(db), "info", "--json"]) == 0
        assert cli(["--db", str(db), "agreement", "--json"]) == 0
    steps.append("cli")

    # a second reviewer's database, merged back
    other = work / "lee.db"
    with Project(other) as p2:
        list(load_sample(p2))
        p2.import_judgements(work / "kim.jsonl")
        p2.add_judgement("lee", q, "note", "second look")
    with Project(db) as project:
        project.merge(other)
        project.agreement()
    steps.append("merge")

    if importlib.util.find_spec("desktop.report") is not None:
        with contextlib.redirect_stdout(out):
            assert cli(["--db", str(db), "export", str(work / "report.xlsx")]) == 0
        assert (work / "report.xlsx").stat().st_size > 0
        steps.append("report")

    if os.environ.get("OFFLINE_GUI") == "1":
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from desktop.ui import app as ui_app
        from desktop.ui.window import MainWindow

        qt = QApplication.instance() or QApplication(["recall-reviewer"])
        ui_app.configure(qt)
        window = MainWindow(db, reviewer="kim")
        window.show()
        QTimer.singleShot(2500, qt.quit)
        qt.exec()
        window.close()
        steps.append("window")

    if os.environ.get("OFFLINE_CONTROL") == "1":
        # the control run: a deliberate loopback attempt that both witnesses must see
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.connect(("127.0.0.1", 9))
        except OSError:
            pass
        finally:
            s.close()
        steps.append("control")
    """
)


def gui_reason() -> str | None:
    """Why the window part is left out, or None when it can run."""
    if importlib.util.find_spec("desktop.ui.app") is None:
        return "desktop/ui/app.py does not exist yet"
    if importlib.util.find_spec("desktop.ui.window") is None:
        return "desktop/ui/window.py (MainWindow) does not exist yet"
    return None


def run_session(tmp_path: Path, *, gui: bool, control: bool = False, strace: bool = False):
    harness = tmp_path / "harness.py"
    harness.write_text(HARNESS, encoding="utf-8")
    session = tmp_path / "session.py"
    session.write_text(SESSION, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        OFFLINE_WORK=str(work),
        OFFLINE_GUI="1" if gui else "0",
        OFFLINE_CONTROL="1" if control else "0",
        RECALL_REVIEWER_HOME=str(tmp_path / "home"),
    )
    command = [sys.executable, str(harness), ",".join(NETWORK_EVENTS), str(ROOT), str(session)]
    trace = tmp_path / "strace.txt"
    if strace:
        command = ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(trace)]
        command += [sys.executable, str(harness), ",".join(NETWORK_EVENTS), str(ROOT)]
        command += [str(session)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("OFFLINE-RESULT ")]
    assert done.returncode == 0 and lines, f"session failed:\n{done.stdout}\n{done.stderr}"
    result = json.loads(lines[-1].removeprefix("OFFLINE-RESULT "))
    result["inet"] = []
    if strace:
        text = trace.read_text(errors="replace")
        result["inet"] = [ln for ln in text.splitlines() if re.search(r"sa_family=AF_INET6?\b", ln)]
        result["calls"] = len(text.splitlines())
    return result


def strace_works() -> bool:
    if not sys.platform.startswith("linux") or not shutil.which("strace"):
        return False
    probe = subprocess.run(
        ["strace", "-qq", "-e", "trace=none", sys.executable, "-c", "pass"],
        capture_output=True,
    )
    return probe.returncode == 0


@pytest.mark.slow  # seconds of real waiting or an external program: CI runs it
def test_a_full_session_opens_no_network_connection(tmp_path):
    reason = gui_reason()
    use_strace = strace_works()
    result = run_session(tmp_path, gui=reason is None, strace=use_strace)
    expected = ["import", "review", "metrics", "export-judgements", "cli", "merge"]
    if importlib.util.find_spec("desktop.report") is not None:
        expected.append("report")
    if reason is None:
        expected.append("window")
    assert result["steps"] == expected
    assert result["events"] == [], f"network events during the session: {result['events']}"
    assert result["inet"] == [], f"IP connections seen by strace: {result['inet']}"
    if reason is not None:
        pytest.skip(f"window part not run: {reason} (the rest passed offline)")
    if not use_strace:
        pytest.skip("strace is not available: only the Python-level audit hook was checked")


def test_the_witnesses_do_see_a_network_call(tmp_path):
    use_strace = strace_works()
    result = run_session(tmp_path, gui=False, control=True, strace=use_strace)
    assert result["steps"][-1] == "control"
    names = {event for event, _ in result["events"]}
    assert {"socket.__new__", "socket.connect"} <= names
    if use_strace:
        assert any("127.0.0.1" in line for line in result["inet"]), result["inet"]


FORBIDDEN = {
    "socket",
    "ssl",
    "urllib",
    "urllib3",
    "http",
    "requests",
    "httpx",
    "aiohttp",
    "ftplib",
    "smtplib",
    "poplib",
    "imaplib",
    "telnetlib",
    "xmlrpc",
    "webbrowser",
    "PySide6.QtNetwork",
    "PySide6.QtWebEngineCore",
    "PySide6.QtWebEngineWidgets",
    "PySide6.QtWebSockets",
}


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            if node.args and isinstance(node.args[0], ast.Constant):
                yield node.lineno, str(node.args[0].value)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", None) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            yield node.lineno, str(node.args[0].value)


def test_no_app_module_imports_a_networking_module():
    offenders = []
    sources = sorted([*(ROOT / "desktop").rglob("*.py"), *(ROOT / "db").rglob("*.py")])
    assert len(sources) > 5
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
        for line, name in _imports(tree):
            # desktop/app/launch.py asks whether the X display named by DISPLAY answers, before Qt
            # starts, as libxcb would connect to it: the one socket the app opens is the
            # user's own display server, never a network service.
            if source.name == "launch.py" and name == "socket":
                continue
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN):
                offenders.append(f"{source.relative_to(ROOT)}:{line}: imports {name}")
    assert offenders == []
