"""Before the window starts: can Qt's platform plugin load here? On Linux Qt's X11 plugin
(xcb) aborts the whole process (signal 6, a core dump) when a shared library it needs is
missing or there is no display, and its own message names the wrong package. This module
asks the same questions first, without Qt, and turns a "no" into one line that says what is
missing and how to install it. No Qt here: it runs before PySide6 is imported.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import shlex
import socket
import struct
import sys
from collections.abc import Mapping
from pathlib import Path

HEADLESS = "or use the headless commands, which need none of them: recall-reviewer --help"

# Sonames whose Debian package the usual rule (libfoo.so.N -> libfooN, libfoo1.so.N ->
# libfoo1-N) does not give.
_DEBIAN_EXCEPTIONS = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libz.so.1": "zlib1g",
    "libgcc_s.so.1": "libgcc-s1",
    "libstdc++.so.6": "libstdc++6",
}
_GLIBC = ("libc.so.", "libm.so.", "libpthread.so.", "libdl.so.", "librt.so.", "ld-linux")

_PT_LOAD, _PT_DYNAMIC = 1, 2
_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_RPATH, _DT_RUNPATH = 0, 1, 5, 10, 15, 29


def window_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """One line saying why the window cannot start here, or None when it can (or when this
    platform is not one we check: anything but X11 on Linux)."""
    environ = os.environ if environ is None else environ
    if not sys.platform.startswith("linux") or not uses_xcb(environ):
        return None
    # A Wayland session (WAYLAND_DISPLAY) was left to Qt above; on X11 only DISPLAY helps.
    display = environ.get("DISPLAY", "")
    if not display or not display_reachable(display):
        why = "DISPLAY is not set" if not display else f"nothing answers at DISPLAY={display}"
        return (
            f"there is no display to open the window on ({why}): run it on the desktop, or "
            "connect with `ssh -X`, or use the headless commands (recall-reviewer --help)"
        )
    # Qt tries QT_QPA_PLATFORM_PLUGIN_PATH's plugin first and falls back to its own, so the
    # window starts when any of them loads; the last one's (PySide6's own) needs are named.
    missing: list[str] = []
    for plugin in xcb_plugins(environ):
        try:
            missing = missing_libraries(plugin)
        except (OSError, ValueError, struct.error):
            return None  # a plugin we cannot read is Qt's to report: this check never blocks
        if not missing:
            return None
    return missing_message(missing) if missing else None


def uses_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt would start on its X11 plugin and nothing else, following QGuiApplication's
    choice: QT_QPA_PLATFORM wins (a list like "wayland;xcb" is tried in order, so with more
    than one name Qt has a fallback and we leave it to Qt); without it a Wayland session
    (WAYLAND_DISPLAY, or XDG_SESSION_TYPE=wayland) is tried before X11."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return [part.split(":")[0].strip() for part in chosen.split(";")] == ["xcb"]
    wayland = environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland"
    return not wayland


def display_reachable(display: str) -> bool:
    """Whether an X server listens where DISPLAY points, tried as libxcb tries it: `:N` (or
    `unix:N`) on the local socket, Linux's abstract one first, then TCP on this machine;
    `host:N` on TCP port 6000+N. Only a connection is tried, not authorisation. A form not
    parsed here (a socket path, a protocol prefix) counts as reachable: this check must never
    refuse a display that works (a stale one, as left by an SSH session, is what it is for)."""
    host, _, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit() or "/" in host:
        return True
    attempts: list[tuple[int, object]] = []
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        attempts += [(socket.AF_UNIX, "\0" + path), (socket.AF_UNIX, path)]
    if host != "unix":
        attempts.append((socket.AF_INET, (host or "localhost", 6000 + int(number))))
    for family, address in attempts:
        try:
            if family == socket.AF_UNIX:
                with socket.socket(socket.AF_UNIX) as connection:
                    connection.settimeout(2)
                    connection.connect(address)
            else:
                socket.create_connection(address, timeout=2).close()
            return True
        except OSError:
            continue
    return False


def xcb_plugins(environ: Mapping[str, str]) -> list[Path]:
    """The libqxcb.so files Qt would try, in its order: from QT_QPA_PLATFORM_PLUGIN_PATH when
    set, then the installed PySide6's. Found without importing PySide6, whose package import
    already loads Qt. None found (an install we do not know the shape of): nothing to check,
    Qt speaks for itself."""
    folders = [Path(p) for p in environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(":") if p]
    spec = importlib.util.find_spec("PySide6")
    for location in (spec.submodule_search_locations or []) if spec else []:
        folders.append(Path(location) / "Qt" / "plugins" / "platforms")
    return [folder / "libqxcb.so" for folder in folders if (folder / "libqxcb.so").is_file()]


def missing_libraries(plugin: Path) -> list[str]:
    """The sonames the plugin needs that the dynamic loader cannot find (a library's own
    missing dependency is named instead of the library)."""
    missing = (system_library_problem(name) for name in system_libraries(plugin))
    return list(dict.fromkeys(name for name in missing if name))


def system_libraries(plugin: Path) -> list[str]:
    """The sonames the plugin needs from the system, directly or through Qt's own libraries
    beside it. Derived from the ELF files' dynamic sections at run time, so the list follows
    the installed PySide6 instead of going stale: a name found in an object's RUNPATH (Qt's
    own libraries) is followed into that file, any other name is the system's."""
    system: list[str] = []
    seen: set[str] = set()
    pending = [plugin]
    while pending:
        needed, search = dynamic_section(pending.pop())
        for name in needed:
            if name in seen:
                continue
            seen.add(name)
            beside = next((d / name for d in search if (d / name).is_file()), None)
            if beside is not None:
                pending.append(beside)
            else:
                system.append(name)
    return system


def system_library_problem(name: str) -> str | None:
    """The soname that keeps `name` from loading (itself or a library it needs), or None.

    Asked by loading it (`ctypes.CDLL`): only the dynamic loader knows exactly where it looks
    (LD_LIBRARY_PATH, ld.so.cache, hwcaps subfolders, the architecture), so any imitation
    (`find_library`, reading ld.so.cache) can disagree with it. Loading runs the library's
    initialisers and keeps it mapped, which is harmless here: these are the very libraries
    Qt loads into this process a moment later, and a failed load leaves nothing behind."""
    try:
        ctypes.CDLL(name)
    except OSError as error:
        # dlerror names the file it could not open first: `libxcb.so.1: cannot open ...`. In
        # the PyInstaller bundle ctypes raises its own error with dlerror's as the cause.
        while error is not None:
            first = os.path.basename(str(error).split(":", 1)[0].strip())
            if ".so" in first and " " not in first:
                return first
            error = error.__cause__ or error.__context__
        return name
    return None


def dynamic_section(path: Path) -> tuple[list[str], list[Path]]:
    """An ELF file's DT_NEEDED names and the folders its DT_RUNPATH (or DT_RPATH) names,
    read as the loader reads them: through the program headers, not the section table
    (which a stripped file may lack)."""
    with open(path, "rb") as file:
        ident = file.read(16)
        if ident[:4] != b"\x7fELF":
            raise ValueError(f"{path}: not an ELF file")
        wide, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
        # After e_ident: e_phoff at 16 (ELF64) or 12 (ELF32), e_phentsize and e_phnum at
        # 38 or 26.
        header = file.read(48 if wide else 36)
        phoff = struct.unpack_from(order + ("Q" if wide else "I"), header, 16 if wide else 12)[0]
        phentsize, phnum = struct.unpack_from(order + "HH", header, 38 if wide else 26)
        file.seek(phoff)
        table = file.read(phentsize * phnum)
        segments = [_segment(table[i * phentsize :], order, wide) for i in range(phnum)]
        dynamic = next((s for s in segments if s[0] == _PT_DYNAMIC), None)
        if dynamic is None:
            return [], []  # statically linked: needs nothing
        file.seek(dynamic[1])
        entries = _entries(file.read(dynamic[3]), order, wide)
        file.seek(_file_offset(segments, entries.get(_DT_STRTAB, [0])[0]))
        strings = file.read(entries.get(_DT_STRSZ, [0])[0])

    def text(offset: int) -> str:
        return strings[offset : strings.index(b"\0", offset)].decode()

    needed = [text(offset) for offset in entries.get(_DT_NEEDED, [])]
    runpath = entries.get(_DT_RUNPATH) or entries.get(_DT_RPATH) or []
    origin = str(Path(path).parent)
    folders = [f for offset in runpath for f in text(offset).split(":") if f]
    expanded = (f.replace("${ORIGIN}", origin).replace("$ORIGIN", origin) for f in folders)
    # $LIB and $PLATFORM are left out: Qt's libraries use $ORIGIN only.
    return needed, [Path(folder) for folder in expanded if "$" not in folder]


def _segment(data: bytes, order: str, wide: bool) -> tuple[int, int, int, int]:
    """(p_type, p_offset, p_vaddr, p_filesz) of one program header."""
    if wide:
        kind, _flags, offset, vaddr, _paddr, size = struct.unpack_from(order + "IIQQQQ", data)
    else:
        kind, offset, vaddr, _paddr, size = struct.unpack_from(order + "IIIII", data)
    return kind, offset, vaddr, size


def _entries(data: bytes, order: str, wide: bool) -> dict[int, list[int]]:
    form = order + ("qQ" if wide else "iI")
    step = struct.calcsize(form)
    entries: dict[int, list[int]] = {}
    for at in range(0, len(data) - step + 1, step):
        tag, value = struct.unpack_from(form, data, at)
        if tag == _DT_NULL:
            break
        entries.setdefault(tag, []).append(value)
    return entries


def _file_offset(segments: list, address: int) -> int:
    """Where a virtual address (DT_STRTAB is one) lies in the file, through the PT_LOAD
    segment that maps it."""
    for kind, offset, vaddr, size in segments:
        if kind == _PT_LOAD and vaddr <= address < vaddr + size:
            return address - vaddr + offset
    raise ValueError(f"address {address:#x} is in no loaded segment")


def missing_message(missing: list[str]) -> str:
    """The one line for missing libraries: what is missing and the command that installs it."""
    names = ", ".join(missing)
    return (
        f"the window cannot start: Qt's X11 plugin (xcb) needs {names}, not found on this "
        f"system; {install_command(missing)} ({HEADLESS})"
    )


def install_command(missing: list[str], manager: str | None = None) -> str:
    """`install with: sudo apt-get install ...` (or dnf), or a plain request when this is
    neither a Debian/Ubuntu nor a Fedora/RHEL system. `manager` is this system's by default."""
    manager = manager or package_manager()
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    if manager == "apt-get":
        packages = list(dict.fromkeys(debian_package(name) for name in missing))
        return f"install with: {sudo}apt-get install {' '.join(packages)}"
    if manager == "dnf":
        # dnf resolves a library by what RPM says a package provides, `libX.so.4()(64bit)` on
        # 64-bit systems: exact, no table needed.
        bits = "()(64bit)" if struct.calcsize("P") == 8 else ""
        provides = " ".join(shlex.quote(f"{name}{bits}") for name in missing)
        return f"install with: {sudo}dnf install {provides}"
    return "install the packages of your system that provide them"


def package_manager() -> str | None:
    if Path("/etc/debian_version").exists() or _on_path("apt-get"):
        return "apt-get"
    if Path("/etc/redhat-release").exists() or _on_path("dnf"):
        return "dnf"
    return None


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships a library, by Debian's naming policy:
    libxcb-icccm.so.4 -> libxcb-icccm4, libX11.so.6 -> libx11-6 (a digit before the version
    takes a hyphen)."""
    if soname in _DEBIAN_EXCEPTIONS:
        return _DEBIAN_EXCEPTIONS[soname]
    if soname.startswith(_GLIBC):
        return "libc6"
    base, _, version = soname.partition(".so")
    major = version.lstrip(".").split(".")[0]
    name = base.lower().replace("_", "-")
    if not major:
        return name
    return f"{name}-{major}" if name[-1].isdigit() else f"{name}{major}"


def _on_path(program: str) -> bool:
    return any(
        os.access(os.path.join(folder, program), os.X_OK)
        for folder in os.environ.get("PATH", "").split(os.pathsep)
        if folder
    )
