#!/usr/bin/env bash
# Installs the system packages Recall Reviewer's window needs on Debian/Ubuntu when run as root
# there; does nothing otherwise (not root, or no apt-get), and nothing when all are installed.
# `--test` adds what the tests and the bundle build use. The README's first command and
# tests/run both call it:
#   bash packaging/system-libraries.sh [--test]
#
# The window's list is what Qt's X11 plugin (PySide6's libqxcb.so and the Qt libraries it
# links) needs from the system. desktop/app/launch.py derives the same list from the installed
# plugin at run time (and names what is missing before Qt can abort), and tests/app/test_launch.py
# fails when a library it derives is not covered here. Qt's offscreen platform, which the tests
# use, still loads EGL, fontconfig and xkbcommon. python3-venv: the README's `python3 -m venv`
# needs it on Debian. The bundle build (PyInstaller) copies these libraries only when the build
# machine has them.
set -euo pipefail
window=(
  python3-venv
  libgl1 libegl1 libfontconfig1 libfreetype6 libdbus-1-3 libglib2.0-0
  libxkbcommon0 libxkbcommon-x11-0 libx11-6 libx11-xcb1 libxcb1
  libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render0
  libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1 libxcb-util1 libxcb-xfixes0
  libxcb-xkb1
)
# binutils for PyInstaller; strace, Xvfb, xauth, x11-utils and desktop-file-utils for the
# packaging and window checks; nsis, osslsigncode, openssl, wine and wine64 for the Windows
# build made here and its smoke test (tests/test_windows_packaging.py); LibreOffice's Calc
# and poppler's pdftoppm to open the report as a reader would (tests/report/test_report_paper.py
# and test_report.py skip without them, as they did on a fresh machine).
tests=(binutils strace xvfb xauth x11-utils desktop-file-utils
  nsis osslsigncode openssl wine wine64 libreoffice-calc-nogui poppler-utils)
packages=("${window[@]}")
case "${1:-}" in
  --test) packages+=("${tests[@]}") ;;
  "") ;;
  *) echo "usage: bash packaging/system-libraries.sh [--test]" >&2; exit 2 ;;
esac
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  exit 0
fi
if dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  exit 0  # all installed already: no apt-get update
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" \
  >/dev/null
