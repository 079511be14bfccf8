"""The launch check (desktop/app/launch.py): before Qt starts, the window's command says in one line
why Qt's X11 plugin could not load (no display, a missing library) instead of letting Qt abort
with a core dump. The missing libraries are real ones: a genuine Qt plugin or library copied
with one DT_NEEDED name changed to a library that does not exist, so the check runs its real
path (ELF dynamic section, RUNPATH, the dynamic loader) on it."""

from __future__ import annotations

import ctypes
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop.app import launch

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "system-libraries.sh"
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's X11 check")

# Packages of priority "required" on Debian/Ubuntu (apt itself needs them): never missing.
ALWAYS_THERE = {"libc6", "libgcc-s1", "libstdc++6", "zlib1g", "libzstd1"}


def real_plugin() -> Path:
    plugins = launch.xcb_plugins({})
    if not plugins:
        pytest.skip("this PySide6 has no libqxcb.so")
    return plugins[-1]


def renamed(source: Path, target: Path, old: str, new: str) -> Path:
    """A copy of an ELF file with one needed library's name changed (same length, so every
    offset stays right): the loader will look for a library that does not exist."""
    assert len(old) == len(new)
    data = source.read_bytes()
    assert data.count(old.encode() + b"\0") >= 1, f"{source.name} does not name {old}"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data.replace(old.encode() + b"\0", new.encode() + b"\0"))
    return target


def fake_pyside(tmp_path: Path, broken: str) -> Path:
    """A PySide6 install whose Qt is the real one, file for file (symlinks), except `broken`
    (the plugin or one Qt library), whose libxcb-icccm.so.4 is renamed libxcb-icccX.so.4.
    Its package raises when imported: the check must stop the launch before Qt is loaded."""
    qt = real_plugin().parents[2]
    fake = tmp_path / "site" / "PySide6"
    (fake / "Qt" / "lib").mkdir(parents=True)
    (fake / "__init__.py").write_text("raise RuntimeError('PySide6 imported: Qt would start')\n")
    for library in (qt / "lib").iterdir():
        (fake / "Qt" / "lib" / library.name).symlink_to(library)
    plugin = fake / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    plugin.parent.mkdir(parents=True)
    plugin.symlink_to(qt / "plugins" / "platforms" / "libqxcb.so")
    target = plugin if broken == "plugin" else fake / "Qt" / "lib" / broken
    source = target.resolve()
    target.unlink()
    renamed(source, target, "libxcb-icccm.so.4", "libxcb-icccX.so.4")
    return fake


def window_argv() -> list[str]:
    command = Path(sys.executable).with_name("recall-reviewer")
    return [str(command)] if command.is_file() else [sys.executable, "-m", "desktop"]


def launch_window(env_changes: dict, *args: str, run_as=None) -> subprocess.CompletedProcess:
    """`recall-reviewer` (the installed command when there is one) with no command: the window.
    With run_as, that command line instead (the same environment)."""
    env = {k: v for k, v in os.environ.items() if k not in env_changes}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    return subprocess.run(
        run_as or [*window_argv(), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )


def free_display() -> int:
    """A display number no X server uses here (no socket, no lock file, abstract or not)."""
    for number in range(150, 200):
        if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
            continue
        if not launch.display_reachable(f":{number}"):
            return number
    pytest.skip("no free display number")


@pytest.fixture
def x_socket():
    """DISPLAY for the library tests: a socket listening where an X server would (Linux's
    abstract name), so that the display part of the check passes and the libraries are what
    is checked. Nothing on the file system."""
    number = free_display()
    server = socket.socket(socket.AF_UNIX)
    server.bind(f"\0/tmp/.X11-unix/X{number}")
    server.listen(4)
    yield f":{number}"
    server.close()


NO_DISPLAY = {
    "DISPLAY": None,
    "WAYLAND_DISPLAY": None,
    "XDG_SESSION_TYPE": None,
    "QT_QPA_PLATFORM": None,
    "QT_QPA_PLATFORM_PLUGIN_PATH": None,
}


# -- which platform Qt would use -------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "xcb"),
    [
        ({}, True),
        ({"DISPLAY": ":0"}, True),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "xcb:nograb", "WAYLAND_DISPLAY": "wayland-0"}, True),
        ({"QT_QPA_PLATFORM": "offscreen"}, False),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, False),
        ({"QT_QPA_PLATFORM": "xcb;wayland", "DISPLAY": ":0"}, False),
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, False),
        ({"XDG_SESSION_TYPE": "wayland"}, False),
        ({"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"}, True),
    ],
)
def test_the_check_follows_qts_choice_of_platform(environ, xcb):
    assert launch.uses_xcb(environ) is xcb


def test_offscreen_and_wayland_are_not_checked_even_with_a_broken_plugin(tmp_path):
    broken = fake_pyside(tmp_path, "plugin") / "Qt" / "plugins" / "platforms"
    for environ in (
        {"QT_QPA_PLATFORM": "offscreen", "QT_QPA_PLATFORM_PLUGIN_PATH": str(broken)},
        {"WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM_PLUGIN_PATH": str(broken)},
    ):
        assert launch.window_problem(environ) is None


# -- no display -------------------------------------------------------------------------------


def test_no_display_is_one_line_saying_what_to_do():
    line = launch.window_problem({})
    assert line is not None and "\n" not in line
    assert "no display" in line and "ssh -X" in line and "recall-reviewer --help" in line
    # With QT_QPA_PLATFORM=xcb a Wayland socket does not help: X11 needs DISPLAY.
    assert "no display" in launch.window_problem(
        {"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}
    )


def test_the_window_command_without_a_display_prints_one_line_and_exits_2(tmp_path):
    done = launch_window(NO_DISPLAY, "--db", str(tmp_path / "review.db"))
    assert done.returncode == 2, (done.returncode, done.stderr)  # Qt's abort was -6 (SIGABRT)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("recall-reviewer: there is no display"), lines
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not (tmp_path / "review.db").exists()


def test_a_display_nothing_answers_at_is_named(tmp_path):
    """DISPLAY left set with no X server behind it (a closed `ssh -X`, a stopped Xvfb): Qt's
    "could not connect to display" abort, now one line."""
    display = f":{free_display()}"
    line = launch.window_problem({"DISPLAY": display})
    assert line and f"nothing answers at DISPLAY={display}" in line and "ssh -X" in line
    done = launch_window(dict(NO_DISPLAY, DISPLAY=display), "--db", str(tmp_path / "review.db"))
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.splitlines() == [f"recall-reviewer: {line}"]


def test_a_real_x_server_is_reachable_and_the_window_may_start():
    """Under Xvfb (a real X server) the check lets the launch through: nothing is missing on
    this machine, so the window tests and the bundle's X11 test run the real window."""
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed")
    number = free_display()
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not launch.display_reachable(f":{number}"):
            assert server.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.1)
        assert launch.window_problem({"DISPLAY": f":{number}"}) is None
        assert launch.window_problem({"DISPLAY": f"unix:{number}.0"}) is None
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert "nothing answers" in launch.window_problem({"DISPLAY": f":{number}"})


def test_display_forms_not_understood_are_never_refused():
    for display in ("/private/tmp/com.apple.launchd.x/org.xquartz:0", "tcp/host:x", "weird"):
        assert launch.display_reachable(display)


# -- missing libraries ------------------------------------------------------------------------


def test_the_plugins_needs_are_read_from_its_elf_dynamic_section():
    plugin = real_plugin()
    needed, search = launch.dynamic_section(plugin)
    assert {"libQt6XcbQpa.so.6", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"} <= set(needed)
    assert (plugin.parents[2] / "lib").resolve() in [folder.resolve() for folder in search]
    system = launch.system_libraries(plugin)
    # Qt's own libraries are followed beside the plugin, not asked of the system; what they
    # need (EGL, fontconfig through libQt6Gui; dbus through libQt6DBus) is.
    assert not any(name.startswith("libQt6") for name in system)
    assert {"libEGL.so.1", "libfontconfig.so.1", "libdbus-1.so.3"} <= set(system)


def test_nothing_is_missing_here_so_the_window_may_start(x_socket):
    """On this machine Qt's X11 plugin loads (the window tests run it under Xvfb): the check
    must not refuse a launch that works."""
    assert launch.missing_libraries(real_plugin()) == []
    assert launch.window_problem({"DISPLAY": x_socket}) is None


@pytest.mark.parametrize("broken", ["plugin", "libQt6XcbQpa.so.6"])
def test_a_missing_library_is_found_in_the_plugin_or_a_qt_library_it_links(tmp_path, broken):
    fake = fake_pyside(tmp_path, broken)
    plugin = fake / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    assert launch.missing_libraries(plugin) == ["libxcb-icccX.so.4"]


def test_a_librarys_own_missing_dependency_is_the_one_named(tmp_path):
    ctypes.CDLL("libxcb-icccm.so.4")
    maps = Path("/proc/self/maps").read_text()
    found = re.search(r"(/\S*/libxcb-icccm\.so\.4[.\d]*)$", maps, re.M)
    if not found:
        pytest.skip("libxcb-icccm.so.4 is not mapped from a file")
    copy = renamed(Path(found.group(1)), tmp_path / "libcopy.so.4", "libxcb.so.1", "libxcX.so.1")
    assert launch.system_library_problem(str(copy)) == "libxcX.so.1"
    assert launch.system_library_problem("libxcb-icccZ.so.4") == "libxcb-icccZ.so.4"
    assert launch.system_library_problem("libxcb-icccm.so.4") is None


def test_qt_falls_back_to_its_own_plugin_so_a_broken_one_on_the_plugin_path_is_not_fatal(
    tmp_path, x_socket
):
    broken = fake_pyside(tmp_path, "plugin") / "Qt" / "plugins" / "platforms"
    environ = {"DISPLAY": x_socket, "QT_QPA_PLATFORM_PLUGIN_PATH": str(broken)}
    assert launch.xcb_plugins(environ)[0] == broken / "libqxcb.so"
    assert launch.window_problem(environ) is None


def test_the_window_command_with_a_missing_library_names_it_and_the_install_command(
    tmp_path, x_socket
):
    fake = fake_pyside(tmp_path, "plugin")
    env = dict(NO_DISPLAY, DISPLAY=x_socket, PYTHONPATH=str(fake.parent))
    done = launch_window(env, "--db", str(tmp_path / "review.db"))
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("recall-reviewer: the window cannot start: Qt's X11 plugin (xcb)")
    assert "needs libxcb-icccX.so.4," in line and "recall-reviewer --help" in line
    if launch.package_manager() == "apt-get":
        assert re.search(r"(sudo )?apt-get install libxcb-icccx4 \(", line), line
    assert "PySide6 imported" not in done.stderr and not (tmp_path / "review.db").exists()


def test_a_system_library_really_missing_is_named_instead_of_qts_abort(tmp_path, x_socket):
    """The machine without libxcb-icccm4: in a private mount namespace (this process tree
    only) the real library file reads as empty, so the loader cannot load it, as on a stock
    Debian 12. Without the check Qt aborts here (signal 6)."""
    ctypes.CDLL("libxcb-icccm.so.4")
    found = re.search(
        r"(/\S*/libxcb-icccm\.so\.4[.\d]*)$", Path("/proc/self/maps").read_text(), re.M
    )
    unshare = shutil.which("unshare")
    if not (found and unshare and os.geteuid() == 0):
        pytest.skip("needs root, unshare and libxcb-icccm.so.4 mapped from a file")
    library = os.path.realpath(found.group(1))
    command = [*window_argv(), "--db", str(tmp_path / "review.db")]
    shell = f"mount --bind /dev/null {library} && exec {' '.join(map(shlex.quote, command))}"
    env = dict(NO_DISPLAY, DISPLAY=x_socket)
    done = launch_window(env, run_as=[unshare, "-m", "--propagation", "private", "sh", "-c", shell])
    if "mount" in done.stderr and done.returncode != 2:
        pytest.skip(f"cannot mount in a namespace here: {done.stderr.strip()}")
    assert done.returncode == 2, (done.returncode, done.stderr)
    line = done.stderr.strip()
    assert "\n" not in line and "needs libxcb-icccm.so.4," in line, line
    if launch.package_manager() == "apt-get":
        assert "apt-get install libxcb-icccm4 (" in line
    assert Path(library).stat().st_size > 0  # outside the namespace the library is intact


def test_debian_package_names_follow_the_soname():
    assert [
        launch.debian_package(name)
        for name in (
            "libxcb-icccm.so.4",
            "libxcb-render-util.so.0",
            "libX11.so.6",
            "libX11-xcb.so.1",
            "libxkbcommon-x11.so.0",
            "libdbus-1.so.3",
            "libGL.so.1",
            "libglib-2.0.so.0",
            "libz.so.1",
            "libpthread.so.0",
        )
    ] == [
        "libxcb-icccm4",
        "libxcb-render-util0",
        "libx11-6",
        "libx11-xcb1",
        "libxkbcommon-x11-0",
        "libdbus-1-3",
        "libgl1",
        "libglib2.0-0",
        "zlib1g",
        "libc6",
    ]
    line = launch.missing_message(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    if launch.package_manager() == "apt-get":
        assert "apt-get install libxcb-icccm4 libxcb-keysyms1 (" in line


def test_on_fedora_dnf_is_asked_for_the_library_itself():
    command = launch.install_command(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"], "dnf")
    assert command.endswith(
        "dnf install 'libxcb-icccm.so.4()(64bit)' 'libxcb-keysyms.so.1()(64bit)'"
    )
    assert command.startswith("install with: " + ("" if os.geteuid() == 0 else "sudo "))
    assert "apt-get" not in launch.install_command(["libxcb.so.1"], "zypper")


# -- the install script -----------------------------------------------------------------------


def script_packages(group: str) -> list[str]:
    text = SCRIPT.read_text(encoding="utf-8")
    found = re.search(rf"^{group}=\(([^)]*)\)", text, re.M | re.S)
    assert found, f"{group}=( ... ) not in {SCRIPT.name}"
    return found.group(1).split()


def test_the_script_installs_every_library_the_plugin_needs():
    """The script's list is written out (apt needs package names before PySide6 is there);
    the check derives the same needs from the installed plugin. They must agree."""
    derived = {launch.debian_package(name) for name in launch.system_libraries(real_plugin())}
    assert derived - ALWAYS_THERE <= set(script_packages("window"))
    assert {"xvfb", "binutils", "strace", "desktop-file-utils"} <= set(script_packages("tests"))


def test_the_script_refuses_an_unknown_flag_and_installs_nothing_twice():
    done = subprocess.run(["bash", str(SCRIPT), "--nope"], capture_output=True, text=True)
    assert done.returncode == 2 and "usage" in done.stderr
    packages = script_packages("window") + script_packages("tests")
    installed = shutil.which("dpkg") and subprocess.run(
        ["dpkg", "-s", *packages], capture_output=True
    )
    if os.geteuid() == 0 and not (installed and installed.returncode == 0):
        pytest.skip("as root with packages missing the script would install them")
    # Not root, or everything installed: done at once, nothing printed, no apt-get update.
    started = time.monotonic()
    done = subprocess.run(["bash", str(SCRIPT), "--test"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr
    assert time.monotonic() - started < 5


def test_the_readme_and_tests_run_use_the_script():
    assert "system-libraries.sh --test" in (ROOT / "tests" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "bash packaging/system-libraries.sh && python3 -m venv .venv" in readme
