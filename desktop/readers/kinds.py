"""The one list of kinds and formats: which formats each kind of file accepts, the extension
that names a format, and telling a file of another kind apart (to say how to import it).
The command line, the window's import dialog and the project all read these."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from desktop.readers.opening import GZIP_ERRORS, InputError, open_bytes

FORMATS = ("jsonl", "csv", "tsv", "trec", "qrels", "beir", "json-dict", "msmarco")
# Graph retrievers' own files (design section 11): a corpus folder or a run of saved contexts,
# read by desktop/readers/graph.py and imported by desktop/project_graph.py.
GRAPH_FORMATS = ("graphrag", "lightrag")
# What the window's import dialog offers them for: a corpus as the tool's output folder, a run
# as a file of saved contexts.
GRAPH_IMPORTS = {"corpus": "folder", "run": "file"}
EXTENSIONS = {
    ".jsonl": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
    ".trec": "trec",
    ".run": "trec",
    ".qrels": "qrels",
    ".json": "json-dict",
}
ACCEPTED = {
    "corpus": ("jsonl", "csv", "tsv"),
    "questions": ("jsonl", "tsv"),
    "gold": ("jsonl", "qrels", "beir", "json-dict"),
    "run": ("trec", "jsonl", "csv", "json-dict", "msmarco"),
    "judgements": ("jsonl",),
    "documents": ("jsonl",),  # the texts chunkings cut (design section 10)
}
# The window's file dialog: the names each kind's files go by, each may also come compressed
# (.gz). Beyond EXTENSIONS: .tsv for BEIR qrels and MS MARCO runs.
FILE_PATTERNS = {
    "corpus": "*.jsonl *.csv *.tsv *.gz",
    "questions": "*.jsonl *.tsv *.gz",
    "gold": "*.jsonl *.qrels *.tsv *.json *.gz",
    "run": "*.trec *.run *.jsonl *.csv *.tsv *.json *.gz",
    "judgements": "*.jsonl *.gz",
    "documents": "*.jsonl *.gz",
}
# What `import KIND` takes: a file of each kind above, or a BEIR folder (corpus, queries, qrels).
IMPORT_KINDS = (*ACCEPTED, "beir")
ROLES = ("core", "supporting")


def pick_format(path: str | Path, kind: str, fmt: str | None) -> str:
    accepted = ACCEPTED[kind]
    if fmt is None:
        suffix = format_suffix(path)
        fmt = EXTENSIONS.get(suffix)
        if fmt is None:
            raise InputError(
                path,
                None,
                f"cannot tell the format from the extension '{suffix or '(none)'}'; name it "
                f"with --format ({', '.join(accepted)}) or use .{accepted[0]}",
            )
        if kind == "gold" and fmt == "tsv":
            fmt = "beir"  # BEIR ships its qrels as TSV
        if kind == "run" and fmt == "tsv":
            fmt = "msmarco"  # MS MARCO's runs: qid<TAB>pid<TAB>rank
        if kind in ("run", "gold") and fmt == "jsonl" and is_json_dict(path, kind):
            fmt = "json-dict"
    elif fmt == "jsonl" and kind in ("run", "gold") and is_json_dict(path, kind):
        raise InputError(
            path,
            1,
            'this is one JSON object {"question id": {"passage id": '
            + ("score" if kind == "run" else "level")
            + "}} (ranx / pytrec_eval), not JSON lines; use --format json-dict",
        )
    if fmt not in accepted:
        owner = {"trec": "run", "qrels": "gold"}.get(fmt)
        raise InputError(
            path,
            None,
            f"{kind} files can be {', '.join(accepted)}, not {fmt}"
            + (looks_like_kind(path, owner, fmt) if owner else ""),
        )
    return fmt


def format_suffix(path: str | Path) -> str:
    """The extension that names a file's format: for a compressed file (.gz) the one under
    it, so that run.trec.gz is a TREC run."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".gz":
        suffix = Path(path.stem).suffix.lower()
    return suffix


REQUIRED = {  # the keys without which a JSONL line is not of that kind
    "corpus": ("text",),
    "questions": ("text",),
    "gold": ("question_id", "evidence"),
    "run": ("question_id", "results"),
    "judgements": ("reviewer", "kind"),
}


def looks_like_kind(path, kind: str, fmt: str | None = None, *, sure: bool = False) -> str:
    """'; this looks like a run file: import run FILE --system NAME' and the like (a corpus
    line may be a question too, unless sure)."""
    command = f"import {kind} {shlex.quote(str(path))}"
    try:
        automatic = pick_format(path, kind, None)
    except InputError:
        automatic = None
    if fmt and fmt != automatic:
        command += f" --format {fmt}"
    if kind == "run":
        command += " --system NAME"
    label = "corpus or questions" if kind == "corpus" and not sure else kind
    return f"; this looks like a {label} file: {command}"


def _json_kind(obj: dict) -> str | None:
    if "results" in obj:
        return "run"
    if "evidence" in obj:
        return "gold"
    if "reviewer" in obj and "kind" in obj:
        return "judgements"
    if "text" in obj and ("id" in obj or "_id" in obj):
        return "corpus"
    return None


def check_kind(path, number, obj: dict, kind: str) -> None:
    """Refuse a line that lacks what kind needs when it has what another kind's lines have;
    a line of no known kind is left to the reader's own checks, which say what is missing."""
    if all(key in obj for key in REQUIRED[kind]) and (
        kind not in ("corpus", "questions") or "id" in obj or "_id" in obj
    ):
        return
    other = _json_kind(obj)
    if other is None or other == kind or {other, kind} <= {"corpus", "questions"}:
        return
    needed = " and ".join(f"'{key}'" for key in REQUIRED[kind])
    raise InputError(path, number, f"a {kind} line needs {needed}" + looks_like_kind(path, other))


def columns_kind(path, fields: list[str]) -> str:
    """The hint for a whitespace-separated line of the wrong width for its reader."""
    if len(fields) >= 6:
        return looks_like_kind(path, "run", "trec")
    if len(fields) == 4:
        return looks_like_kind(path, "gold", "qrels")
    if len(fields) == 3:
        return looks_like_kind(path, "gold", "beir")
    return ""


def header_kind(path, names: list[str], fmt: str) -> str:
    """The hint for a CSV/TSV header row (fmt: the reader's) that belongs to another kind."""
    lowered = {n.strip().lower() for n in names}
    if {"question_id", "passage_id", "rank"} <= lowered:
        return looks_like_kind(path, "run", "csv")
    if {"query-id", "corpus-id"} <= lowered:
        return looks_like_kind(path, "gold", "beir")
    if "text" in lowered and lowered & {"id", "_id"}:
        return looks_like_kind(path, "corpus", "csv" if fmt == "csv" else "tsv")
    return ""


_JSON_DICT_START = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')


def is_json_dict(path, kind: str) -> bool:
    """True when the file starts as {"question id": {...}} (ranx / pytrec_eval) rather than
    as a JSON line of kind (whose first key may hold an object too)."""
    try:
        handle, on_disk = open_bytes(path)
        with on_disk, handle:
            head = handle.read(65536)
    except (OSError, *GZIP_ERRORS):
        return False
    if not _JSON_DICT_START.match(head):
        return False
    try:
        first = json.loads(head.split(b"\n", 1)[0].decode("utf-8-sig"))
    except ValueError:
        return True  # one object over many lines: not JSON lines
    return not (isinstance(first, dict) and all(key in first for key in REQUIRED[kind]))
