"""Smoke test of the Windows installer under Wine: install it silently, run the headless
commands with the installed python.exe and compare their output with this (Linux) Python's,
open the window offscreen on the sample and save a screenshot, then uninstall.

    python packaging/wine_smoke.py SETUP.exe WORK [--screenshot OUT.png] [--try-windows]

WORK holds the Wine prefix and a scratch HOME (Wine links Desktop and Documents into HOME, and
its menu builder writes launchers there: neither may touch the user's real folders). Prints
one line per check and exits 1 when one fails. tests/test_windows_packaging.py runs the same
functions. Needs Debian's `wine` (packaging/system-libraries.sh --test installs it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parents[1]
APP_DIR = "Recall Reviewer"
# init, demo, metrics, compare, info and the exports: a Korean folder name with spaces on the way.
COMMANDS = (
    ("init",),
    ("demo",),
    ("metrics", "--json", "--k", "5,10"),
    ("compare", "--json"),
    ("info", "--json"),
    ("export", "보고서 1.xlsx"),
    ("export", "gold", "검토 gold.jsonl"),
)


def wine_env(work: Path) -> dict[str, str]:
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WINE", "XDG_", "QT_"))}
    env.update(
        HOME=str(home),
        WINEPREFIX=str(work / "prefix"),
        WINEDEBUG="-all",
        # no menu entries or file associations on the host; no .NET/Gecko install prompts
        WINEDLLOVERRIDES="winemenubuilder.exe=d;mscoree=d;mshtml=d",
        RECALL_REVIEWER_HOME=str(work / "데이터 폴더"),
    )
    return env


def wine(env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run a Windows program. Its standard streams are pipes: Wine gives a program whose
    stdout is a regular file an invalid handle, and Python then cannot start."""
    done = subprocess.run(
        ["wine", *args], stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=timeout
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def windows_path(path: Path) -> str:
    return "Z:" + str(path).replace("/", "\\")


def install(setup: Path, env: dict) -> Path:
    """Runs the installer silently, per user; returns the install folder (a host path)."""
    done = wine(env, str(setup), "/S")
    if done.returncode != 0:
        raise AssertionError(f"installer exited {done.returncode}: {done.stderr[-2000:]}")
    prefix = Path(env["WINEPREFIX"])
    found = sorted(prefix.glob(f"drive_c/users/*/AppData/Local/Programs/{APP_DIR}"))
    if not found:
        raise AssertionError("the installer did not make AppData/Local/Programs/Recall Reviewer")
    return found[0]


def shortcuts(env: dict) -> list[str]:
    """The installed .lnk files: Start menu in the prefix, desktop in HOME (Wine links the
    Windows Desktop folder to it)."""
    found = []
    for base in (Path(env["WINEPREFIX"]) / "drive_c" / "users", Path(env["HOME"])):
        found += [p.relative_to(base.parent).as_posix() for p in base.rglob("Recall Reviewer.lnk")]
    return sorted(found)


def run_both(installed: Path, env: dict, work: Path) -> list[tuple[str, str, str]]:
    """Each command on a Windows database and on a Linux one in twin folders; returns
    (command, Windows output, Linux output) with paths and line ends made comparable."""
    python = installed / "python" / "python.exe"
    linux_env = dict(os.environ, RECALL_REVIEWER_HOME=str(work / "linux home"))
    results = []
    for side in ("windows", "linux"):
        folder = work / side / "검토 폴더"
        folder.mkdir(parents=True, exist_ok=True)
    for command in COMMANDS:
        outputs = []
        for side in ("windows", "linux"):
            folder = work / side / "검토 폴더"
            args = [a if not a.endswith((".xlsx", ".jsonl")) else str(folder / a) for a in command]
            if side == "windows":
                args = [windows_path(Path(a)) if a.startswith("/") else a for a in args]
                db = windows_path(folder / "리뷰.db")
                done = wine(env, str(python), "-X", "utf8", "-m", "desktop", "--db", db, *args)
            else:
                db = str(folder / "리뷰.db")
                done = subprocess.run(
                    [sys.executable, "-m", "desktop", "--db", db, *args],
                    capture_output=True, text=True, env=linux_env, cwd=ROOT, timeout=300,
                )  # fmt: skip
            if done.returncode != 0:
                raise AssertionError(f"{side}: {' '.join(command)} failed: {done.stderr[-2000:]}")
            output = comparable_output(done.stdout.replace("\r\n", "\n"))
            if isinstance(output, str):  # plain lines: the paths they name made alike
                output = output.replace(db, "DB").replace(windows_path(folder) + "\\", "FOLDER/")
                output = output.replace(str(folder), "FOLDER")
            outputs.append(output)
        results.append((" ".join(command), *outputs))
    return results


ABSOLUTE = re.compile(r"^(/|[A-Za-z]:\\)")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)?")


def comparable(value):
    """value with what must differ between two installs made equal: an absolute path (the
    sample's source files lie where each install put them) by its file name, a time of import
    by TIME. Everything else (every number, id, name and message) is compared as it is."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [comparable(v) for v in value]
    if isinstance(value, str):
        if ABSOLUTE.match(value):
            value = re.split(r"[\\/]", value)[-1]
        return TIMESTAMP.sub("TIME", value)
    return value


def comparable_output(text: str):
    try:
        return comparable(json.loads(text))
    except ValueError:
        return text


def workbook_values(path: Path) -> dict[str, list]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        sheets = book.worksheets
        return {s.title: comparable(list(s.iter_rows(values_only=True))) for s in sheets}
    finally:
        book.close()


def screenshot(installed: Path, env: dict, db: Path, out: Path, platform: str) -> dict:
    """The window on db with Qt's `platform` plugin for a few seconds, saved to out."""
    python = installed / "python" / "python.exe"
    script = windows_path(ROOT / "packaging" / "window_screenshot.py")
    args = [windows_path(db), windows_path(out), "5", platform]
    done = wine(env, str(python), "-X", "utf8", script, *args, timeout=180)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    report = json.loads(lines[-1]) if lines else {}
    report["returncode"] = done.returncode
    if done.returncode != 0:
        report["stderr"] = done.stderr.strip()[-600:]
    return report


def data_folder(installed: Path, env: dict) -> str:
    """Where the installed app keeps its data when RECALL_REVIEWER_HOME is not set."""
    python = str(installed / "python" / "python.exe")
    plain = {k: v for k, v in env.items() if k != "RECALL_REVIEWER_HOME"}
    code = "from desktop.app import paths; print(paths.data_dir())"
    return wine(plain, python, "-X", "utf8", "-c", code).stdout.strip()


def uninstall(installed: Path, env: dict) -> None:
    # _?= runs the uninstaller in place and waits (it would otherwise copy itself and return).
    args = [str(installed / "uninstall.exe"), "/S", f"_?={windows_path(installed)}"]
    done = wine(env, *args)
    if done.returncode != 0:
        raise AssertionError(f"uninstaller exited {done.returncode}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("setup", type=Path)
    parser.add_argument("work", type=Path)
    parser.add_argument("--screenshot", type=Path, help="where to save the window's PNG")
    parser.add_argument("--try-windows", action="store_true", help="also Qt's windows platform")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    env = wine_env(work)
    installed = install(args.setup.resolve(), env)
    print(f"installed:  {installed}")
    print(f"shortcuts:  {', '.join(shortcuts(env))}")
    folder_seen = data_folder(installed, env)
    failed = int(not folder_seen.endswith("\\AppData\\Local\\recall-reviewer"))
    print(f"data folder: {folder_seen}")
    for command, on_windows, on_linux in run_both(installed, env, work):
        same = on_windows == on_linux
        failed += not same
        print(f"{'same' if same else 'DIFFERENT'}: {command}")
    folder = "검토 폴더"
    books = [
        workbook_values(work / side / folder / "보고서 1.xlsx") for side in ("windows", "linux")
    ]
    failed += books[0] != books[1]
    print(f"{'same' if books[0] == books[1] else 'DIFFERENT'}: the report's cells")
    shot = args.screenshot or work / "window.png"
    report = screenshot(installed, env, work / "windows" / folder / "리뷰.db", shot, "offscreen")
    failed += not (report.get("saved") and report.get("hangul"))
    print(f"window (offscreen): {report} -> {shot}")
    if args.try_windows:
        report = screenshot(installed, env, work / "windows" / folder / "리뷰.db",
                            work / "window-windows.png", "windows")  # fmt: skip
        print(f"window (windows platform, DISPLAY={os.environ.get('DISPLAY')}): {report}")
    uninstall(installed, env)
    left = sorted(p.name for p in installed.iterdir()) if installed.exists() else []
    print(f"uninstalled: left {left}, shortcuts {shortcuts(env)}")
    failed += bool(shortcuts(env)) + bool(set(left) - {"uninstall.exe"})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
