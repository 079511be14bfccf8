"""The corpus: passages from JSONL, CSV or TSV files, one file or a folder of them."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from desktop.readers.kinds import (
    check_kind,
    format_suffix,
    header_kind,
    looks_like_kind,
    pick_format,
)
from desktop.readers.opening import InputError, Progress, nfc, nfc_same, regular_file
from desktop.readers.values import json_lines, record_id, spelling, table_rows, text_id


@dataclass
class PassageRecord:
    line: int
    id: str
    text: str
    title: str | None
    meta: dict
    spelled: str | None = None  # the id as the file spelled it, when NFC changed it


CORPUS_SUFFIXES = (".jsonl", ".csv", ".tsv")


def corpus_files(paths, skipped: list[str] | None = None) -> list[Path]:
    """The files one corpus import reads: those named, a folder standing for its .jsonl, .csv
    and .tsv files in name order (not its subfolders: a volume is a file). Every other entry
    of a folder is added to skipped as "FILE: why"; an entry with a corpus suffix that is not
    a readable regular file (a FIFO, a dangling link) is kept, for the read to refuse."""
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files: list[Path] = []
    for path in map(Path, given):
        if not path.is_dir():
            files.append(path)
            continue
        inside = []
        for entry in sorted(path.iterdir(), key=lambda f: f.name):
            if entry.is_dir():
                why = "a folder (a corpus folder's own files are read, not its subfolders)"
            elif format_suffix(entry) not in CORPUS_SUFFIXES:
                why = "not a .jsonl, .csv or .tsv file"
            else:
                inside.append(entry)
                continue
            if skipped is not None:
                skipped.append(f"skipped {entry}: {why}")
        if not inside:
            raise InputError(path, None, "no .jsonl, .csv or .tsv files in this folder")
        _refuse_questions_files(path, inside)
        files.extend(inside)
    if not files:
        raise InputError("import corpus", None, "name a corpus file or folder")
    return files


QUESTION_FILE_NAMES = ("queries", "questions")


def base_name(path: Path) -> str:
    """queries for queries.jsonl.gz: the name without its format and compression."""
    name = path.name.lower().removesuffix(".gz")
    return Path(name).stem


def _refuse_questions_files(folder: Path, inside: list[Path]) -> None:
    """A folder of corpus files may not hold a questions file (BEIR's queries.jsonl sits
    beside its corpus.jsonl): it would come in as passages, and search would find questions."""
    for path in inside:
        if base_name(path) in QUESTION_FILE_NAMES:
            beir = (folder / "qrels").is_dir()
            raise InputError(
                path,
                None,
                "a questions file (by its name), not passages; nothing was imported. "
                + (
                    f"This is a BEIR folder: import beir {shlex.quote(str(folder))}"
                    if beir
                    else f"Name the corpus files, or import questions {shlex.quote(str(path))}"
                ),
            )


def file_sizes(files: list[Path]) -> list[int]:
    sizes = []
    for path in files:
        sizes.append(regular_file(path).st_size)
    return sizes


def read_corpus(path, fmt=None, encoding=None, progress=None) -> Iterator[PassageRecord]:
    fmt = pick_format(path, "corpus", fmt)
    if fmt == "jsonl":
        for number, obj in json_lines(path, encoding, progress):
            raw = obj.get("id", obj.get("_id"))
            check_kind(path, number, obj, "corpus")
            if "answerable" in obj:
                raise InputError(
                    path,
                    number,
                    "passages have no 'answerable', questions do"
                    + looks_like_kind(path, "questions", "jsonl"),
                )
            pid = record_id(path, number, obj, "passage")
            if "text" not in obj or not isinstance(obj["text"], str):
                raise InputError(path, number, f"passage '{pid}' has no 'text' string")
            text = nfc(obj.pop("text"))
            title = obj.pop("title", None)
            if title is not None and not isinstance(title, str):
                title = str(title)
            spelled = spelling(raw, pid)
            yield PassageRecord(number, pid, text, nfc(title) if title else None, obj, spelled)
        return
    rows = table_rows(path, encoding, progress, "," if fmt == "csv" else "\t")
    header_line, header = next(rows, (1, []))
    names = [h.strip() for h in header]
    if "id" not in names and "_id" in names:
        names[names.index("_id")] = "id"
    if "id" not in names or "text" not in names:
        raise InputError(
            path,
            header_line,
            "the header row must name 'id' and 'text' columns" + header_kind(path, names, fmt),
        )
    for number, row in rows:
        if len(row) != len(names):
            raise InputError(path, number, f"{len(row)} fields, the header has {len(names)}")
        obj = dict(zip(names, row, strict=True))
        raw = obj.pop("id")
        pid = text_id(path, number, raw, "id")
        text = nfc(obj.pop("text"))
        title = nfc(obj.pop("title", None) or "") or None
        meta = {k: v for k, v in obj.items() if v}
        yield PassageRecord(number, pid, text, title, meta, spelling(raw, pid))


class CorpusFiles:
    """The files of one corpus import as one stream of passage rows. A row's line is
    file index << 32 | line, so that a duplicate the store finds leads back to FILE:LINE."""

    def __init__(self, files: list[Path], fmt, encoding, tag: bool):
        self.files, self.fmt, self.encoding, self.tag = files, fmt, encoding, tag
        self.sizes = file_sizes(files)
        self.counts = [0] * len(files)  # passages read from each file

    def records(self, progress: Progress | None = None):
        total, before = sum(self.sizes), 0
        for index, (path, size) in enumerate(zip(self.files, self.sizes, strict=True)):
            tick = None if progress is None else partial(_reading, progress, before, total)
            for record in read_corpus(path, self.fmt, self.encoding, tick):
                yield index, record
            before += size

    def rows(self, progress: Progress | None):
        for index, r in self.records(progress):
            self.counts[index] += 1
            meta = r.meta
            if self.tag:
                meta.setdefault("source_file", self.files[index].name)
            dumped = json.dumps(meta, ensure_ascii=False) if meta else None
            yield (index << 32 | r.line, r.id, r.text, r.title, dumped)

    def place(self, position: int) -> tuple[Path, int]:
        return self.files[position >> 32], position & 0xFFFFFFFF

    def refusal(self, position: int, passage_id: str) -> InputError:
        """The error for a passage id the store found twice (at position): where it came
        first, and whether NFC normalisation made two spellings of it one. Read again, on
        the error path only."""
        path, line = self.place(position)
        first, spellings = None, set()
        for index, record in self.records():
            if record.id != passage_id:
                continue
            spellings.add(record.spelled or record.id)
            first = first or (self.files[index], record.line)
            if (index, record.line) == (position >> 32, line):
                break
        if first is None or len(spellings) < 2:
            return InputError(
                path,
                line,
                f"passage id {passage_id!r} appears twice{self.first_place(passage_id)}; "
                "nothing was imported",
            )
        where = f"line {first[1]}" if first[0] == path else f"{first[0]}:{first[1]}"
        return nfc_same(path, line, passage_id, where)

    def first_place(self, passage_id: str) -> str:
        # Read again, on the error path only: cheaper than remembering where every id was.
        for index, record in self.records():
            if record.id == passage_id:
                return f" (first at {self.files[index]}:{record.line})"
        return ""


def _reading(progress: Progress, before: int, total: int, done: int, size: int, phase=None):
    progress(before + done, total, "reading")
