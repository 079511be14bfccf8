"""Build the one-folder app bundle in one command and say how big it is.

    python packaging/build.py                 dist/recall-reviewer/ (build/ for PyInstaller's work)
    python packaging/build.py --archive       also dist/recall-reviewer-<version>-<os>.tar.gz (.zip
                                              on Windows), the file to hand to reviewers
    python packaging/build.py --distpath D --workpath W     elsewhere (tests build in a temp dir)
    python packaging/build.py --target windows      on Linux: the Windows folder, installer and zip
                                                     in dist/windows/ (packaging/windows.py)

Needs PyInstaller (`pip install -e .[test]` brings it). Works the same on Linux, Windows and
macOS; see packaging/README.md for what differs.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "recall-reviewer.spec"
NAME = "recall-reviewer"


def folder_size(path: Path) -> int:
    """Bytes of every file under path, symlinks not followed (they take no space)."""
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            full = Path(dirpath, name)
            if not full.is_symlink():
                total += full.stat().st_size
    return total


def executable(dist: Path) -> Path:
    if sys.platform == "darwin":
        return dist / "Recall Reviewer.app" / "Contents" / "MacOS" / NAME
    suffix = ".exe" if sys.platform == "win32" else ""
    return dist / NAME / f"{NAME}{suffix}"


def build(distpath: Path, workpath: Path, clean: bool = False) -> Path:
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        str(SPEC),
        "--noconfirm",
        "--distpath",
        str(distpath),
        "--workpath",
        str(workpath),
    ]
    if clean:
        command.append("--clean")
    subprocess.run(command, cwd=ROOT, check=True)
    return distpath / NAME


def archive(bundle: Path) -> Path:
    sys.path.insert(0, str(ROOT))
    from desktop import __version__

    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    base = bundle.parent / f"{NAME}-{__version__}-{system}-{platform.machine().lower()}"
    fmt = "zip" if sys.platform == "win32" else "gztar"
    return Path(shutil.make_archive(str(base), fmt, bundle.parent, bundle.name))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Recall Reviewer app bundle.")
    parser.add_argument("--distpath", type=Path, default=ROOT / "dist")
    parser.add_argument("--workpath", type=Path, default=ROOT / "build")
    parser.add_argument("--clean", action="store_true", help="empty PyInstaller's cache first")
    parser.add_argument("--archive", action="store_true", help="also pack it for handing out")
    parser.add_argument("--target", choices=["native", "windows"], default="native")
    parser.add_argument("--pyside6", help="windows: another PySide6 (PySide6-Essentials==6.6.3)")
    parser.add_argument("--fast", action="store_true", help="windows: zlib, not LZMA (tests)")
    args = parser.parse_args(argv)
    if args.target == "windows":
        return main_windows(args)

    started = time.monotonic()
    bundle = build(args.distpath.resolve(), args.workpath.resolve(), args.clean)
    seconds = time.monotonic() - started
    exe = executable(args.distpath.resolve())
    if not exe.exists():
        print(f"build.py: {exe} is missing after the build", file=sys.stderr)
        return 1
    size = folder_size(bundle)
    print(f"bundle:     {bundle}")
    print(f"executable: {exe}")
    print(f"size:       {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB) in {seconds:.0f} s")
    if args.archive:
        packed = archive(bundle)
        print(f"archive:    {packed} ({packed.stat().st_size / 1e6:.1f} MB)")
    return 0


def main_windows(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT / "packaging"))
    from windows import BuildError, build_windows

    dist = args.distpath.resolve() / "windows"
    try:
        made = build_windows(dist, args.workpath.resolve(), args.pyside6, args.fast)
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 1
    size = folder_size(made["folder"])
    print(f"folder:     {made['folder']} ({size / 1e6:.1f} MB)")
    for kind in ("installer", "zip"):
        print(f"{kind + ':':<11} {made[kind]} ({made[kind].stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
