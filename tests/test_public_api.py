"""No private attribute of a third-party package anywhere in the project, and no patch of
their modules (issue 24): the report once wrote into openpyxl's private write-only stream
(``ws._rows``, ``ws._writer.xf``, ``xf._file``) and broke as soon as lxml was installed.

An AST check over every Python file of the project, tests included. A ``x._name`` access is
refused unless the receiver is ``self`` or ``cls`` or ``_name`` is a name the project defines
itself and the packages below do not; a private module of those packages is never imported;
nothing is assigned onto what they export (in tests, ``monkeypatch.setattr`` of a module)."""

from __future__ import annotations

import ast
import importlib.util
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("openpyxl", "et_xmlfile", "PySide6", "shiboken6", "sqlite_utils")
SOURCES = ("desktop", "db", "tests", "packaging", "docs", "resources")
# Underscore names the standard library documents as public.
STDLIB_PUBLIC = {"_exit", "_replace", "_asdict", "_fields", "_field_defaults", "_make"}


def project_files() -> list[Path]:
    files = []
    for folder in SOURCES:
        files += [
            p
            for p in (ROOT / folder).rglob("*.py")
            if ".venv" not in p.parts and "build" not in p.parts
        ]
    return sorted(files)


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, attributes it assigns (on any
    object), names it binds and __slots__ entries."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.isidentifier():
                names.add(node.value)  # __slots__ entries, namedtuple fields
    return {n for n in names if private(n)}


@cache
def package_private_names() -> frozenset[str]:
    """Every private name the third-party packages' Python sources define."""
    names: set[str] = set()
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            for path in Path(folder).rglob("*.py"):
                try:
                    names |= defined_names(ast.parse(path.read_bytes()))
                except (SyntaxError, ValueError):
                    continue
    return frozenset(names)


def third_party(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in PACKAGES


@cache
def is_module(dotted: str) -> bool:
    """Whether a dotted name of those packages is a module (a .py file, a package folder or a
    compiled extension), looked up on disk without importing anything."""
    top, *rest = dotted.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        return not rest and spec is not None
    for folder in map(Path, spec.submodule_search_locations):
        for part in rest[:-1]:
            folder = folder / part
        if not rest:
            return True
        last = rest[-1]
        if (folder / last).is_dir() or (folder / f"{last}.py").exists():
            return True
        if any(folder.glob(f"{last}.*.so")) or any(folder.glob(f"{last}.*.pyd")):
            return True
    return False


def problems(path: Path, tree: ast.AST, ours: set[str], theirs: frozenset[str]) -> list[str]:
    """What a module does with the packages' private parts. Code that ships may assign
    nothing onto what it imports from them; a test may stand in for a class's method (a modal
    dialog, the system locale) but patch none of their modules."""
    where = path.relative_to(ROOT)
    test = where.parts[0] == "tests"
    found = []
    imported: dict[str, str] = {}  # local name -> the third-party thing it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if third_party(alias.name):
                    imported[alias.asname or alias.name.split(".")[0]] = alias.name
                    if any(private(part) for part in alias.name.split(".")):
                        found.append(f"{where}:{node.lineno}: imports private {alias.name}")
        elif isinstance(node, ast.ImportFrom) and third_party(node.module):
            for alias in node.names:
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                parts = [*node.module.split("."), alias.name]
                if any(private(part) for part in parts):
                    found.append(f"{where}:{node.lineno}: imports private {'.'.join(parts)}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            receiver = node.value
            own = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
            if own or node.attr in STDLIB_PUBLIC:
                continue
            if node.attr not in ours or node.attr in theirs:
                found.append(f"{where}:{node.lineno}: reads ._{node.attr[1:]} of another object")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                root = target
                while isinstance(root, ast.Attribute):
                    root = root.value
                if root is not target and isinstance(root, ast.Name) and root.id in imported:
                    if not test or is_module(imported[root.id]):
                        found.append(f"{where}:{node.lineno}: assigns onto {imported[root.id]}")
        elif isinstance(node, ast.Call) and node.args:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else None
            name = name or (node.func.id if isinstance(node.func, ast.Name) else None)
            first = node.args[0]
            if name == "setattr" and isinstance(first, ast.Name) and first.id in imported:
                if not test or is_module(imported[first.id]):
                    found.append(f"{where}:{node.lineno}: patches {imported[first.id]}")
    return found


def test_no_private_attribute_of_a_dependency_and_no_patch_of_its_modules():
    files = project_files()
    trees = {path: ast.parse(path.read_bytes(), str(path)) for path in files}
    ours: set[str] = set()
    for tree in trees.values():
        ours |= defined_names(tree)
    theirs = package_private_names()
    assert "_rows" in theirs and "_fonts" in theirs  # the check sees openpyxl's sources
    found = []
    for path, tree in trees.items():
        found += problems(path, tree, ours, theirs)
    assert found == []


def test_the_check_finds_what_it_is_for():
    source = (
        "from openpyxl.worksheet import _writer\n"
        "import openpyxl\n"
        "def f(wb, ws, monkeypatch):\n"
        "    self._mine = 1\n"
        "    wb._fonts = None\n"
        "    ws._rows.close()\n"
        "    openpyxl.DEBUG = True\n"
        "    monkeypatch.setattr(openpyxl, 'DEBUG', True)\n"
        "    return self._mine, ws._mine\n"
    )
    tree = ast.parse(source)
    found = problems(ROOT / "x.py", tree, defined_names(tree), package_private_names())
    assert sorted(line.split(": ", 1)[1] for line in found) == [
        "assigns onto openpyxl",
        "imports private openpyxl.worksheet._writer",
        "patches openpyxl",
        "reads ._fonts of another object",
        "reads ._rows of another object",
    ]
    in_a_test = (
        "from PySide6.QtCore import QLocale\n"
        "from openpyxl.worksheet import worksheet\n"
        "def test(monkeypatch):\n"
        "    monkeypatch.setattr(QLocale, 'system', None)\n"
        "    monkeypatch.setattr(worksheet, 'Worksheet', None)\n"
    )
    tree = ast.parse(in_a_test)
    found = problems(ROOT / "tests" / "x.py", tree, set(), package_private_names())
    assert [line.split(": ", 1)[1] for line in found] == ["patches openpyxl.worksheet.worksheet"]
