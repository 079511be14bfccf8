#!/usr/bin/env bash
# Install Recall Reviewer for the current user, without root: the app bundle, a launcher in the
# desktop's application menu, the icon in every hicolor size and `recall-reviewer` on the PATH.
#
#   bash install-linux.sh              beside an unpacked bundle (the archive ships this script
#                                      in recall-reviewer/), or from the source tree: installs
#                                      dist/recall-reviewer, building it first when it is missing
#   bash install-linux.sh BUNDLE_DIR   install that bundle folder
#   bash install-linux.sh --uninstall  remove all of it again (the reviews stay, see below)
#
# Where things go (XDG_DATA_HOME, default ~/.local/share):
#   ~/.local/lib/recall-reviewer/                     the bundle (replaced as a whole on update)
#   ~/.local/bin/recall-reviewer                      a symlink to its executable
#   $XDG_DATA_HOME/applications/recall-reviewer.desktop
#   $XDG_DATA_HOME/icons/hicolor/<N>x<N>/apps/recall-reviewer.png, scalable/apps/…svg
# The reviews themselves live in $XDG_DATA_HOME/recall-reviewer/ (database, backups, logs);
# neither installing nor --uninstall touches that folder.
set -euo pipefail

NAME=recall-reviewer
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
LIB_DIR="$HOME/.local/lib/$NAME"
BIN_DIR="$HOME/.local/bin"
APPS_DIR="$DATA_HOME/applications"
ICON_DIR="$DATA_HOME/icons/hicolor"
SIZES="16 24 32 48 64 128 256 512"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

refresh_menus() {
  if command -v update-desktop-database >/dev/null; then
    update-desktop-database -q "$APPS_DIR" 2>/dev/null || true
  fi
  if command -v gtk-update-icon-cache >/dev/null && [ -f "$ICON_DIR/index.theme" ]; then
    gtk-update-icon-cache -q -t "$ICON_DIR" 2>/dev/null || true
  fi
  touch "$ICON_DIR" 2>/dev/null || true # icon themes notice new files by the folder's mtime
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$LIB_DIR"
  if [ -L "$BIN_DIR/$NAME" ]; then rm -f "$BIN_DIR/$NAME"; fi
  rm -f "$APPS_DIR/$NAME.desktop"
  for size in $SIZES; do rm -f "$ICON_DIR/${size}x${size}/apps/$NAME.png"; done
  rm -f "$ICON_DIR/scalable/apps/$NAME.svg"
  refresh_menus
  echo "Recall Reviewer removed. Your reviews are still in $DATA_HOME/$NAME/"
  exit 0
fi

# -- find the bundle ---------------------------------------------------------------------------
if [ $# -ge 1 ]; then
  bundle="$(cd "$1" && pwd)"
elif [ -x "$here/$NAME" ] && [ -d "$here/_internal" ]; then
  bundle="$here" # this script inside an unpacked bundle
else
  root="$(cd "$here/.." && pwd)"
  bundle="$root/dist/$NAME"
  if [ ! -x "$bundle/$NAME" ]; then
    if [ ! -f "$root/packaging/build.py" ]; then
      echo "install-linux.sh: no bundle found; pass its folder: install-linux.sh BUNDLE_DIR" >&2
      exit 2
    fi
    python="${PYTHON:-$( [ -x "$root/.venv/bin/python" ] && echo "$root/.venv/bin/python" || echo python3)}"
    echo "No bundle yet: building it with $python packaging/build.py"
    "$python" "$root/packaging/build.py"
  fi
fi
if [ ! -x "$bundle/$NAME" ] || [ ! -d "$bundle/_internal/resources/icons" ]; then
  echo "install-linux.sh: $bundle is not a Recall Reviewer bundle" >&2
  exit 2
fi
icons="$bundle/_internal/resources/icons"

# -- the bundle: copy beside, then swap, so a failed copy never leaves half an app --------------
mkdir -p "$(dirname "$LIB_DIR")" "$BIN_DIR" "$APPS_DIR"
if [ "$bundle" != "$LIB_DIR" ]; then
  staging="$LIB_DIR.new.$$"
  rm -rf "$staging"
  cp -a "$bundle" "$staging"
  rm -rf "$LIB_DIR.old.$$"
  if [ -e "$LIB_DIR" ]; then mv "$LIB_DIR" "$LIB_DIR.old.$$"; fi
  mv "$staging" "$LIB_DIR"
  rm -rf "$LIB_DIR.old.$$"
fi
exe="$LIB_DIR/$NAME"
ln -sfn "$exe" "$BIN_DIR/$NAME"

# -- icons -----------------------------------------------------------------------------------
for size in $SIZES; do
  mkdir -p "$ICON_DIR/${size}x${size}/apps"
  cp "$icons/$NAME-$size.png" "$ICON_DIR/${size}x${size}/apps/$NAME.png"
done
mkdir -p "$ICON_DIR/scalable/apps"
cp "$icons/$NAME.svg" "$ICON_DIR/scalable/apps/$NAME.svg"

# -- the launcher: Exec and TryExec name the installed executable by its full path, so the menu
# works even when ~/.local/bin is not on the desktop session's PATH ----------------------------
desktop_src="$bundle/$NAME.desktop"
[ -f "$desktop_src" ] || desktop_src="$here/$NAME.desktop"
quoted="\"${exe//\"/\\\"}\""
sed -e "s|^Exec=.*|Exec=$quoted|" -e "s|^TryExec=.*|TryExec=$exe|" "$desktop_src" \
  >"$APPS_DIR/$NAME.desktop.tmp"
chmod 644 "$APPS_DIR/$NAME.desktop.tmp"
mv "$APPS_DIR/$NAME.desktop.tmp" "$APPS_DIR/$NAME.desktop"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$APPS_DIR/$NAME.desktop"
fi
refresh_menus

echo "Recall Reviewer installed:"
echo "  app       $LIB_DIR"
echo "  launcher  $APPS_DIR/$NAME.desktop (in the menu as Recall Reviewer)"
echo "  command   $BIN_DIR/$NAME"
case ":$PATH:" in
*":$BIN_DIR:"*) ;;
*) echo "  (add $BIN_DIR to your PATH to run '$NAME' from a terminal)" ;;
esac
echo "Your reviews will be kept in $DATA_HOME/$NAME/"
