"""Results of graph retrievers read from their own files (design section 11), as plain data.

GraphRAG and LightRAG cut the documents into chunks of their own and answer a query with a
context, not a ranked passage list. This module reads:
- a GraphRAG output folder (`documents.parquet`, `text_units.parquet`; v3 `document_id`, v2
  `document_ids`, the older `create_final_*.parquet` names) and a LightRAG store folder
  (`kv_store_full_docs.json`, `kv_store_text_chunks.json`) as a chunking: each unit located
  in the imported document it came from, as a span;
- the saved query contexts (GraphRAG's `context_data`, LightRAG's `aquery_data` result) as one
  list of unit ids per question, in the order given and marked unranked: neither orders its
  context by a score (GraphRAG by entity, LightRAG's mix mode interleaves three lists).

No store and no Qt: the import commands and the window wire these in. Parquet is read with
DuckDB (db/parquet.py), imported inside the one function that reads a parquet file, so that
headless commands which never read one do not pay for loading it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from db import parquet
from desktop.evaluation.spans import locate
from desktop.readers.opening import InputError, nfc


@dataclass(frozen=True)
class Document:
    """A source text: an imported document, or a graph system's copy of one."""

    id: str
    title: str | None
    text: str


@dataclass(frozen=True)
class Unit:
    """A GraphRAG text unit or a LightRAG chunk: a passage of the system's own chunking, with
    its span [start, end) in the imported document `document_id` (code points after NFC)."""

    id: str
    human_readable_id: str | None
    text: str
    document_id: str
    start: int
    end: int


@dataclass
class GraphChunking:
    system: str  # "graphrag" or "lightrag"
    documents: dict[str, str]  # the system's document id -> the imported document's id
    units: list[Unit]

    def __post_init__(self):
        # A context names a GraphRAG unit by its human_readable_id; a user may give the id.
        self._by_name = {u.human_readable_id: u for u in self.units if u.human_readable_id}
        self._by_name.update({u.id: u for u in self.units})

    def resolve(self, name: str) -> Unit | None:
        """The unit an id or a human_readable_id names, or None."""
        return self._by_name.get(name)


@dataclass
class Context:
    """One question's context: the units in the order the system gave them (each once)."""

    question_id: str
    line: int
    unit_ids: list[str]
    repeats: list[str] = field(default_factory=list)  # ids given again, counted once
    entities: list[str] = field(default_factory=list)
    relationships: list[str] = field(default_factory=list)
    reports: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    unranked: bool = True  # the order is not a score ranking (design section 11)


# -- matching a system's documents to the imported ones -----------------------------------------


def _stem(title: str) -> str:
    return PurePath(title).stem if PurePath(title).suffix else title


def _one(found: set[str]) -> str | None:
    return next(iter(found)) if len(found) == 1 else None


def match_documents(path, theirs: list[Document], imported: Iterable[Document]) -> dict[str, str]:
    """Each of the system's documents -> the imported document it is: by id, then by title
    (with or without its file extension: GraphRAG titles a document by its file name), then by
    identical text after NFC. A step that finds two candidates defers to the next. Unmatched
    documents are refused by name."""
    imported = list(imported)
    ids = {d.id for d in imported}
    by_name: dict[str, set[str]] = {}
    by_text: dict[str, set[str]] = {}
    for doc in imported:
        for name in {doc.id, doc.title, doc.title and _stem(doc.title)} - {None, ""}:
            by_name.setdefault(name, set()).add(doc.id)
        by_text.setdefault(nfc(doc.text), set()).add(doc.id)
    matched, missing = {}, []
    for doc in theirs:
        names = {doc.title, _stem(doc.title)} if doc.title else set()
        found = doc.id if doc.id in ids else None
        found = found or _one(set().union(*(by_name.get(n, set()) for n in names)))
        found = found or _one(by_text.get(nfc(doc.text), set()))
        if found is None:
            missing.append(doc.title or doc.id)
        matched[doc.id] = found
    if missing:
        shown = ", ".join(repr(name) for name in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise InputError(
            path,
            None,
            f"{len(missing)} document(s) match no imported document by id, title or text: "
            f"{shown}{more}; import them with `import documents` first",
        )
    return matched


def place_units(path, pieces, documents: dict[str, str], texts: dict[str, str], what: str):
    """Units located in their imported documents. pieces: (id, human_readable_id, text, the
    system's document ids) in the system's order. A unit is located exactly, then ignoring
    whitespace, from where the previous unit of its document began (chunks are cut in order,
    so repeated text lands on the right copy). Units that cannot be located are refused, all
    of them named."""
    units, lost, hints, seen = [], [], {}, set()
    for unit_id, short, text, their_docs in pieces:
        for name in {unit_id, short} - {None}:
            if name in seen:  # a context could not tell the two apart
                raise InputError(path, None, f"two {what} are named {name!r}")
            seen.add(name)
        span = None
        for theirs in their_docs:
            doc = documents[theirs]
            at = locate(text, texts[doc], hints.get(doc, 0))
            if at is not None:
                span = (doc, *at)
                hints[doc] = at[0]
                break
        if span is None:
            across = f" (across documents {', '.join(their_docs)})" if len(their_docs) > 1 else ""
            lost.append(f"{short if short is not None else unit_id}{across}")
            continue
        units.append(Unit(unit_id, short, text, *span))
    if lost:
        shown = ", ".join(lost[:20]) + (f" and {len(lost) - 20} more" if len(lost) > 20 else "")
        # GraphRAG chunks documents together unless told to group by document id
        across = any("(across documents" in name for name in lost)
        hint = "; a passage lies in one document: index with `chunks.group_by_columns: [id]`"
        raise InputError(
            path,
            None,
            f"{len(lost)} {what} cannot be located in their document, even ignoring "
            f"whitespace: {shown}{hint if across else ''}",
        )
    return units


# -- GraphRAG's output folder -------------------------------------------------------------------

GRAPHRAG_FILES = {
    "documents": ("documents.parquet", "create_final_documents.parquet"),
    "text_units": ("text_units.parquet", "create_final_text_units.parquet"),
}


def graphrag_file(folder, table: str) -> Path:
    """The table's file in a GraphRAG output folder (or its `output/` inside a project)."""
    folder = Path(folder)
    for where in (folder, folder / "output"):
        for name in GRAPHRAG_FILES[table]:
            if (where / name).is_file():
                return where / name
    names = " or ".join(GRAPHRAG_FILES[table])
    raise InputError(folder, None, f"is not a GraphRAG output folder: no {names}")


def read_parquet(path: Path, wanted: list[str], optional: tuple[str, ...] = ()) -> list[dict]:
    """The wanted (and present optional) columns of a parquet file, row by row (db/parquet.py);
    a file that cannot be read so is refused with its name."""
    try:
        return parquet.read_columns(path, wanted, optional)
    except parquet.ParquetError as error:
        raise InputError(path, None, str(error)) from None


def _text(path, value, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(path, None, f"{what} has no text")
    return nfc(value)


def _short_id(value) -> str | None:
    return None if value is None else nfc(str(value).strip()) or None


def read_graphrag_documents(folder) -> tuple[Path, list[Document]]:
    path = graphrag_file(folder, "documents")
    docs = []
    # graphrag before 1.0 named the text `raw_content`
    for row in read_parquet(path, ["id"], ("title", "text", "raw_content")):
        if "text" not in row and "raw_content" not in row:
            raise InputError(path, None, "has no column 'text' (nor 'raw_content', before 1.0)")
        doc_id = nfc(str(row["id"]))
        title = row.get("title")
        text = _text(path, row.get("text", row.get("raw_content")), f"document {title or doc_id!r}")
        docs.append(Document(doc_id, nfc(title) if isinstance(title, str) else None, text))
    return path, docs


def _unit_documents(path, row, known: dict[str, str]) -> list[str]:
    """The document ids of one text unit: v3 `document_id`, v2 `document_ids` (a list)."""
    value = row.get("document_id")
    their = [value] if value is not None else list(row.get("document_ids") or [])
    their = [nfc(str(doc)) for doc in their]
    name = row.get("human_readable_id", row["id"])
    if not their:
        raise InputError(path, None, f"text unit {name} names no document")
    unknown = [doc for doc in their if doc not in known]
    if unknown:
        raise InputError(
            path, None, f"text unit {name} names document {unknown[0]!r}, not in documents"
        )
    return their


def read_graphrag_output(folder, imported: Iterable[Document]) -> GraphChunking:
    """GraphRAG's output folder as a chunking of the imported documents."""
    imported = list(imported)
    doc_path, theirs = read_graphrag_documents(folder)
    documents = match_documents(doc_path, theirs, imported)
    texts = {doc.id: nfc(doc.text) for doc in imported}
    path = graphrag_file(folder, "text_units")
    optional = ("human_readable_id", "document_id", "document_ids")
    pieces = []
    for row in read_parquet(path, ["id", "text"], optional):
        if "document_id" not in row and "document_ids" not in row:
            raise InputError(path, None, "has neither 'document_id' (v3) nor 'document_ids' (v2)")
        short = _short_id(row.get("human_readable_id"))
        text = _text(path, row["text"], f"text unit {short or row['id']}")
        pieces.append((nfc(str(row["id"])), short, text, _unit_documents(path, row, documents)))
    return GraphChunking(
        "graphrag", documents, place_units(path, pieces, documents, texts, "text units")
    )


# -- saved contexts -----------------------------------------------------------------------------


def _json_lines(path) -> Iterator[tuple[int, dict]]:
    for number, text in _text_lines(path):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise InputError(path, number, f"not valid JSON ({error})") from None
        if not isinstance(obj, dict):
            raise InputError(path, number, "each line must be a JSON object")
        yield number, obj


def _text_lines(path) -> Iterator[tuple[int, str]]:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            yield from enumerate((line.rstrip("\r\n") for line in handle), start=1)
    except UnicodeDecodeError as error:
        raise InputError(path, None, f"not UTF-8 ({error.reason})") from None
    except OSError as error:
        raise InputError(path, None, f"cannot be read ({error.strerror})") from None


def _question(path, number, obj: dict, seen: dict[str, int]) -> str:
    value = obj.get("question_id")
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise InputError(path, number, "needs a 'question_id'")
    question = nfc(str(value).strip())
    if question in seen:
        raise InputError(
            path, number, f"question {question!r} again (first on line {seen[question]})"
        )
    seen[question] = number
    return question


def _add_sources(path, number, context: Context, names, chunking: GraphChunking, what: str):
    """Sources in the order given, each unit once; an unknown id refused with its question."""
    for name in names:
        unit = chunking.resolve(name)
        if unit is None:
            raise InputError(
                path,
                number,
                f"question {context.question_id!r}: {what} {name!r} is not a unit of the "
                f"{chunking.system} chunking{_DRIFT if chunking.system == 'graphrag' else ''}",
            )
        if unit.id in context.unit_ids:
            context.repeats.append(unit.id)
        else:
            context.unit_ids.append(unit.id)


_DRIFT = " (GraphRAG's DRIFT search is known to give off-by-one source ids)"


def _records(path, number, data: dict, key: str) -> list[dict]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
        raise InputError(path, number, f"'{key}' must be a list of records")
    return value


def _names(rows: list[dict], *keys: str) -> list[str]:
    """One label per record for the window: the first of keys present, joined by ' → '."""
    labels = []
    for row in rows:
        parts = [str(row[key]) for key in keys if row.get(key) not in (None, "")]
        if parts:
            labels.append(nfc(" → ".join(parts)))
    return labels


def _source_name(path, number, row: dict) -> str:
    # local search names a source `id`, basic search `source_id`; both hold human_readable_id
    value = row.get("id", row.get("source_id"))
    if value is None or isinstance(value, bool) or not str(value).strip():
        raise InputError(path, number, "a source has no 'id'")
    return nfc(str(value).strip())


def read_graphrag_contexts(path, chunking: GraphChunking) -> list[Context]:
    """Saved GraphRAG query contexts: JSONL `{"question_id", "context_data": {...}}` with
    context_data as graphrag.api returns it, or a CSV sources table (question_id, id, text)."""
    if Path(path).suffix.lower() == ".csv":
        return _graphrag_csv(path, chunking)
    contexts, seen = [], {}
    for number, obj in _json_lines(path):
        question = _question(path, number, obj, seen)
        data = obj.get("context_data")
        if not isinstance(data, dict):
            raise InputError(path, number, "needs 'context_data' as graphrag.api returns it")
        context = Context(question, number, [])
        names = [_source_name(path, number, r) for r in _records(path, number, data, "sources")]
        _add_sources(path, number, context, names, chunking, "source id")
        context.entities = _names(_records(path, number, data, "entities"), "entity")
        context.relationships = _names(
            _records(path, number, data, "relationships"), "source", "target"
        )
        context.reports = _names(_records(path, number, data, "reports"), "title")
        context.claims = _names(_records(path, number, data, "claims"), "entity", "description")
        contexts.append(context)
    return contexts


def _graphrag_csv(path, chunking: GraphChunking) -> list[Context]:
    lines = _text_lines(path)
    rows = csv.reader((text for _, text in lines), strict=True)
    try:
        header = [name.strip() for name in next(rows, [])]
        key = "id" if "id" in header else "source_id"
        if "question_id" not in header or key not in header:
            raise InputError(path, 1, "a sources table needs columns 'question_id' and 'id'")
        at_question, at_id = header.index("question_id"), header.index(key)
        contexts: dict[str, Context] = {}
        for row in rows:
            number = rows.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) <= max(at_question, at_id):
                raise InputError(path, number, f"has {len(row)} fields, the header {len(header)}")
            question = nfc(row[at_question].strip())
            context = contexts.setdefault(question, Context(question, number, []))
            _add_sources(path, number, context, [nfc(row[at_id].strip())], chunking, "source id")
    except csv.Error as error:
        raise InputError(path, rows.line_num, f"bad CSV ({error})") from None
    return list(contexts.values())


# -- LightRAG -----------------------------------------------------------------------------------


def _kv_store(folder, name: str) -> tuple[Path, dict]:
    path = Path(folder) / name
    if not path.is_file():
        raise InputError(folder, None, f"is not a LightRAG store folder: no {name}")
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as error:
        raise InputError(path, None, f"not UTF-8 ({error.reason})") from None
    except (json.JSONDecodeError, RecursionError) as error:
        raise InputError(path, None, f"not valid JSON ({error})") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise InputError(path, None, "must be a JSON object of records, one per id")
    return path, data


def read_lightrag_store(folder, imported: Iterable[Document]) -> GraphChunking:
    """A LightRAG store folder (kv_store_full_docs.json, kv_store_text_chunks.json) as a
    chunking of the imported documents; chunks in document order, then chunk_order_index."""
    imported = list(imported)
    doc_path, docs = _kv_store(folder, "kv_store_full_docs.json")
    theirs = [
        Document(
            nfc(key),
            nfc(row["file_path"]) if isinstance(row.get("file_path"), str) else None,
            _text(doc_path, row.get("content"), f"document {key!r}"),
        )
        for key, row in docs.items()
    ]
    documents = match_documents(doc_path, theirs, imported)
    path, chunks = _kv_store(folder, "kv_store_text_chunks.json")
    pieces = []
    for key, row in chunks.items():
        their = nfc(str(row.get("full_doc_id", "")))
        if their not in documents:
            raise InputError(path, None, f"chunk {key!r} names document {their!r}, not in docs")
        order = row.get("chunk_order_index", 0)
        text = _text(path, row.get("content"), f"chunk {key!r}")
        pieces.append((their, order if isinstance(order, int) else 0, nfc(key), text))
    place = {their: number for number, their in enumerate(documents)}
    pieces.sort(key=lambda piece: (place[piece[0]], piece[1]))
    pieces = [(key, None, text, [their]) for their, _, key, text in pieces]
    texts = {doc.id: nfc(doc.text) for doc in imported}
    return GraphChunking(
        "lightrag", documents, place_units(path, pieces, documents, texts, "chunks")
    )


def read_lightrag_results(path, chunking: GraphChunking) -> list[Context]:
    """`aquery_data` results, one per line: `{"question_id", "data": {"chunks": [...]}}`."""
    by_content = {unit.text: unit.id for unit in chunking.units}
    contexts, seen = [], {}
    for number, obj in _json_lines(path):
        question = _question(path, number, obj, seen)
        data = obj.get("data")
        if not isinstance(data, dict):
            raise InputError(path, number, "needs 'data' as aquery_data returns it")
        context = Context(question, number, [])
        names = []
        for chunk in _records(path, number, data, "chunks"):
            name = chunk.get("chunk_id")
            if name is None and isinstance(chunk.get("content"), str):
                # LightRAG before chunk ids were returned: the content names the chunk
                name = by_content.get(nfc(chunk["content"]), nfc(chunk["content"])[:40])
            names.append(nfc(str(name)))
        _add_sources(path, number, context, names, chunking, "chunk id")
        context.entities = _names(_records(path, number, data, "entities"), "entity_name")
        context.relationships = _names(
            _records(path, number, data, "relationships"), "src_id", "tgt_id"
        )
        contexts.append(context)
    return contexts
