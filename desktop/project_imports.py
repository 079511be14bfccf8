"""A project's imports: corpus, questions, gold (and BEIR folders) and runs, each checked
against what the store holds and written in one transaction. Mixed into Project (desktop/
project.py), which holds the store."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from pathlib import Path

from db import DuplicateRow, UnknownIds
from db.documents import FIRST_CHUNKING, RunChunking
from db.gold import BadSpan
from desktop import readers
from desktop.gold import span_items as gold_spans
from desktop.readers import InputError, Progress
from desktop.readers.documents import PlacedCorpusFiles
from desktop.readers.kinds import GRAPH_FORMATS


def now() -> str:
    """Local time with its offset, to the millisecond, as judgement lines carry it."""
    return datetime.now().astimezone().isoformat(timespec="milliseconds")


@dataclass
class ImportReport:
    kind: str
    path: str
    rows: int
    messages: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [*self.messages, *(f"warning: {w}" for w in self.warnings)]


def _unknown_message(path: str, error: UnknownIds) -> InputError:
    first_line, first_id = error.first[0]
    more = ", ".join(repr(i) for _, i in error.first[1:])
    others = f" (also {more})" if more else ""
    what = "corpus" if error.what == "passage" else "questions"
    hint = (
        "every system must use the same chunking as the corpus"
        if error.what == "passage"
        else "import the questions first"
    )
    return InputError(
        path,
        first_line,
        f"unknown {error.what} id {first_id!r}{others}: {error.count} {error.what} id"
        f"{'s' if error.count != 1 else ''} in this file are not in the {what}; {hint}. "
        "Nothing was imported.",
    )


_NO_CORE_LEVELS = (
    "no evidence item is core: qrels level 1 means supporting (2 and up core), so "
    "CoreRecall will be '-'; if level 1 means core here, import it again with --levels 1=core"
)


def _beir_hint(path) -> str:
    """For a BEIR folder (or its qrels folder) given where a file belongs: how it comes in."""
    folder = Path(path)
    if not folder.is_dir():
        return ""
    if (folder / "qrels").is_dir() or folder.name == "qrels":
        beir = folder.parent if folder.name == "qrels" else folder
        return f" (a BEIR folder comes in whole: import beir {shlex.quote(str(beir))})"
    return ""


def _only(records, wanted: set[str], left_out: list[str]):
    """The records whose id is wanted; the others' ids go to left_out."""
    for record in records:
        if record.id in wanted:
            yield record
        else:
            left_out.append(record.id)


def _undo_note(undo_pk: int | None) -> list[str]:
    if undo_pk is None:
        return []
    return [f"kept what it replaced as backup {undo_pk} (undo: restore last-import)"]


def _path_list(paths) -> list:
    return [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)


def _phase(progress: Progress | None, phase: str) -> None:
    """Name a phase that has no count of its own (the bar waits, the text says why)."""
    if progress is not None:
        progress(0, 0, phase)


def _corpus_source(given: list, files: list[Path]) -> tuple[str, str]:
    """Where a corpus came from, as recorded with it, and its default name."""
    if len(given) == 1:
        full = Path(os.path.abspath(given[0]))
        return str(full), full.name if full.is_dir() else full.stem
    folder = Path(os.path.commonpath([os.path.abspath(f) for f in files]))
    return f"{folder} ({len(files)} files)", folder.name


class ProjectImports:
    """Project's imports of files; Project sets self.store, self.path and self._gold_cache."""

    def import_file(
        self,
        kind: str,
        paths,
        *,
        fmt=None,
        encoding=None,
        system=None,
        replace=False,
        name=None,
        chunk_size=None,
        overlap=None,
        unit=None,
        split="test",
        levels=None,
        chunking=None,
        progress: Progress | None = None,
        ranked=False,
        machine=False,
    ) -> ImportReport:
        """The one way in for a file, used by the command line and the window. kind is
        corpus, questions, gold, run, judgements or beir (a BEIR folder: corpus, questions
        and gold); paths is a path or a list of them (several, or a folder, only for a
        corpus). levels: what graded qrels levels mean (readers.parse_levels). ranked: a
        graph retriever's context is a ranking after all (desktop/project_graph.py).
        machine: judgements that are a machine's (design section 6)."""
        if machine and kind != "judgements":
            raise InputError(f"import {kind}", None, "--machine marks judgements only")
        if fmt in GRAPH_FORMATS:  # a folder for a corpus, a file for a run
            return self.import_graph(kind, _path_list(paths), fmt, system, chunking, ranked)
        if kind == "corpus":
            return self.import_corpus(
                paths, fmt, encoding, replace, name, chunk_size, overlap, unit, progress, chunking
            )
        given = _path_list(paths)
        if len(given) != 1:
            raise InputError(
                f"import {kind}",
                None,
                f"name one file ({len(given)} given); only a corpus can come in several files",
            )
        path = given[0]
        if kind == "beir":
            return self.import_beir(path, split, replace=replace, levels=levels, progress=progress)
        hint = _beir_hint(path)
        if hint:
            raise InputError(path, None, f"is a folder, not a file{hint}")
        readers.regular_file(path)  # before the extension: a FIFO's name says nothing
        if kind == "questions":
            return self.import_questions(path, fmt, encoding, progress)
        if kind == "gold":
            return self.import_gold(path, fmt, encoding, progress, levels)
        if kind == "run":
            return self.import_run(path, system, fmt, encoding, progress, chunking)
        if kind == "documents":
            return self.import_documents(path, fmt, encoding, progress)
        if kind == "judgements":
            return self.import_judgements(path, encoding, progress, fmt, machine)
        raise ValueError(f"unknown import kind {kind!r}")

    def import_corpus(
        self,
        paths,
        fmt=None,
        encoding=None,
        replace=False,
        name=None,
        chunk_size=None,
        overlap=None,
        unit=None,
        progress: Progress | None = None,
        chunking: str | None = None,
    ) -> ImportReport:
        """One corpus from one file, several, or a folder of them: one transaction, so a bad
        line in any file imports none. With several files each passage's metadata records its
        file's name as source_file. chunking: a name adds the corpus as a chunking beside
        those there are (desktop/project_documents.py); the first one is the corpus."""
        given = _path_list(paths)
        skipped: list[str] = []
        files = readers.corpus_files(given, skipped)
        several = len(files) > 1 or any(os.path.isdir(p) for p in given)
        source, default_name = _corpus_source(given, files)
        shown = str(given[0]) if len(given) == 1 else source
        report = ImportReport("corpus", shown, 0, warnings=skipped)
        existing = self.store.corpus()
        if existing and chunking and not replace:
            shape = (chunk_size, overlap, unit)
            return self.import_chunking(files, fmt, encoding, chunking, source, shape, progress)
        if existing and not replace:
            raise InputError(
                shown,
                None,
                f"a corpus is already loaded ({existing['name']}, from "
                f"{existing['source_file']}); use --replace to replace it (this removes the "
                "imported gold and runs, which point at its passages; judgements stay)",
            )
        corpus = PlacedCorpusFiles(files, fmt, encoding, several, self.placement())
        shape = (chunk_size, overlap, unit)
        with self.store.atomic():
            if existing:
                self._clear_corpus(report, source)
            try:
                report.rows = self.store.insert_passages(corpus.rows(progress), progress)
            except DuplicateRow as dup:
                raise corpus.refusal(dup.line, dup.key) from None
            if report.rows == 0:
                raise InputError(
                    shown, None, "no passages in the file" + ("s" if len(files) > 1 else "")
                )
            self._record_corpus(chunking or name or default_name, source, shape, files, corpus)
            _phase(progress, "saving")
        placed = corpus.placement.placed
        report.messages.append(
            f"imported {report.rows} passages"
            + (f" from {len(files)} files" if len(files) > 1 else "")
            + (f" ({placed} placed in their documents)" if placed else "")
        )
        self._gold_cache = None
        return report

    def _clear_corpus(self, report: ImportReport, source: str) -> None:
        """--replace: the corpus goes, and the gold and runs that point at its passages."""
        removed = self.store.clear_corpus(source)
        report.messages.append(
            f"replaced the corpus: removed {removed['passages']} passages, "
            f"{removed['evidence_items']} evidence items and {removed['systems']} runs"
        )
        report.messages += _undo_note(removed["undo"])

    def _record_corpus(self, name, source, shape, files, corpus) -> None:
        """The corpus record, its chunking's shape and a log line per file (the import log is
        also what exports may never overwrite)."""
        chunk_size, overlap, unit = shape
        self.store.set_corpus(name, source, chunk_size, overlap, unit, now())
        self.record_shape(FIRST_CHUNKING, chunk_size, overlap, unit)
        for path, count in zip(files, corpus.counts, strict=True):
            self.store.log_import("corpus", os.path.abspath(path), now(), count, 0)

    def import_questions(
        self, path, fmt=None, encoding=None, progress: Progress | None = None, only=None
    ) -> ImportReport:
        """only: the question ids to take in (the others are left out), or None for all."""
        path = str(path)
        report = ImportReport("questions", path, 0)
        records = self._not_the_corpus(path, readers.read_questions(path, fmt, encoding, progress))
        left_out: list[str] = []
        if only is not None:
            records = _only(records, only, left_out)
        rows = (
            (
                r.line,
                r.id,
                r.text,
                int(r.answerable),
                json.dumps(r.meta, ensure_ascii=False) if r.meta else None,
            )
            for r in records
        )
        with self.store.atomic():
            added, updated, kept = self.store.upsert_questions(rows, os.path.abspath(path))
            if added + updated == 0:
                named = " the gold names" if left_out else ""
                raise InputError(path, None, f"no questions{named} in the file")
            report.rows = added + updated
            self.store.log_import("questions", os.path.abspath(path), now(), report.rows, 0)
        report.messages.append(
            f"imported {added} new questions" + (f", updated {updated}" if updated else "")
        )
        report.messages += _undo_note(kept)
        if left_out:
            report.messages.append(f"left out {len(left_out)} questions the gold does not name")
        self._gold_cache = None
        return report

    # The questions read first that decide whether a file is the corpus given as questions.
    CORPUS_SAMPLE = 1000

    def _not_the_corpus(self, path: str, records: Iterator) -> Iterator:
        """records, refused when the first of them are all passages of the loaded corpus
        with the same id and the same text: the corpus file given as questions."""
        head = list(islice(records, self.CORPUS_SAMPLE))
        pairs = [(r.id, r.text) for r in head]
        if pairs and self.store.same_passages(pairs) == len(pairs):
            raise InputError(
                path,
                None,
                f"every question read ({len(pairs)}) is a passage of the loaded corpus, with the "
                "same id and the same text: this looks like the corpus file, not questions; "
                "nothing was imported",
            )
        yield from head
        yield from records

    def import_gold(
        self, path, fmt=None, encoding=None, progress: Progress | None = None, levels=None
    ) -> ImportReport:
        path = str(path)
        report = ImportReport("gold", path, 0)
        records = list(readers.read_gold(path, fmt, encoding, progress, levels))
        if not records:
            raise InputError(path, None, "no gold in the file")
        questions = [(r.line, r.question_id) for r in records]
        items = [
            (e.line, r.question_id, e.passage_id, e.role)
            for r in records
            for e in r.evidence
            if e.span is None
        ]
        alts = [
            (e.line, r.question_id, e.passage_id, a)
            for r in records
            for e in r.evidence
            if e.span is None
            for a in e.alternatives
        ]
        judged_not = [(line, r.question_id, pid) for r in records for line, pid in r.not_evidence]
        span_items, span_alts = gold_spans.staged(records)
        with self.store.atomic():
            _phase(progress, "checking ids")
            try:
                counts = self.store.replace_gold(
                    os.path.abspath(path), questions, items, alts, judged_not, span_items, span_alts
                )
            except UnknownIds as error:
                raise _unknown_message(path, error) from None
            except BadSpan as error:
                raise InputError(
                    path, error.line, error.message + "; nothing was imported"
                ) from None
            self.store.log_import(
                "gold", os.path.abspath(path), now(), len(items) + len(span_items), 0
            )
        report.rows = counts["evidence_items"]
        removed = counts["removed"]
        if removed["questions"]:
            report.messages.append(
                f"replaced the gold of {removed['questions']} questions: "
                f"{removed['evidence_items']} evidence items and {removed['alternatives']} "
                f"alternatives removed, {counts['evidence_items']} evidence items and "
                f"{counts['alternatives']} alternatives added"
            )
        empty = sum(1 for r in records if not r.evidence)
        report.messages.append(
            f"imported gold for {counts['questions']} questions: {counts['evidence_items']} "
            f"evidence items, {counts['alternatives']} alternatives"
            + (f"; {empty} questions have no evidence (reported apart)" if empty else "")
        )
        report.messages += _undo_note(counts["undo"])
        graded = readers.pick_format(path, "gold", fmt) != "jsonl"
        if graded and items and not levels and all(role != "core" for *_, role in items):
            report.messages.append(_NO_CORE_LEVELS)
        self._gold_cache = None
        return report

    def import_beir(
        self, folder, split: str = "test", *, replace=False, levels=None, progress=None
    ) -> ImportReport:
        """A BEIR folder in one transaction: corpus.jsonl, queries.jsonl and qrels/SPLIT.tsv
        (each may be .gz). Only the questions the split's qrels name come in: BEIR's
        queries.jsonl holds every split's, and the others would count as questions to be
        abstained on."""
        files = readers.beir_files(folder, split)
        named = {r.question_id for r in readers.read_gold(files["gold"], "beir", None, None)}
        report = ImportReport("beir", str(folder), 0)
        with self.store.atomic():
            corpus = self.import_corpus(files["corpus"], "jsonl", None, replace, progress=progress)
            asked = self.import_questions(files["questions"], "jsonl", None, progress, named)
            gold_report = self.import_gold(files["gold"], "beir", None, progress, levels)
        report.rows = corpus.rows
        for part in (corpus, asked, gold_report):
            report.messages += part.messages
            report.warnings += part.warnings
        return report

    def import_run(
        self,
        path,
        system: str | None = None,
        fmt=None,
        encoding=None,
        progress: Progress | None = None,
        chunking: str | None = None,
    ) -> ImportReport:
        path = str(path)
        system = (system or Path(path).stem).strip()
        if not system:
            raise InputError(path, None, "the system needs a name (--system NAME)")
        fmt, lists = readers.read_run(path, fmt, encoding, progress)
        report = ImportReport("run", path, 0)
        if not lists:
            raise InputError(path, None, "no results in the file")
        rows = (
            (line, ranked.question_id, rank, pid, score)
            for ranked in lists
            for rank, (pid, score, line) in enumerate(ranked.results, 1)
        )
        repeats = [
            (line, ranked.question_id, pid) for ranked in lists for line, pid in ranked.repeats
        ]
        with self.store.atomic():
            _phase(progress, "checking ids")
            try:
                info = self.store.replace_run(
                    system, os.path.abspath(path), fmt, now(), rows, chunking
                )
            except UnknownIds as error:
                raise _unknown_message(path, error) from None
            except RunChunking as error:
                raise InputError(path, error.line or None, error.message) from None
            self.store.log_import(
                "run",
                os.path.abspath(path),
                now(),
                info["results"],
                len(repeats),
                json.dumps({"system": system}),
            )
        report.rows = info["results"]
        _run_messages(report, path, system, info, repeats)
        return report


def _run_messages(report: ImportReport, path: str, system: str, info: dict, repeats) -> None:
    """What a run import says: what it replaced, what it added, the repeats it counted once."""
    if info["replaced"]:
        removed = info["removed"]
        report.messages.append(
            f"replaced the run of system {system!r}: {removed['results']} results for "
            f"{removed['questions']} questions removed"
        )
        report.messages += _undo_note(info["undo"])
    report.messages.append(
        f"imported {info['results']} results for {info['questions']} questions as system {system!r}"
    )
    if repeats:
        shown = "; ".join(f"{path}:{ln}: {pid!r} again for {qid!r}" for ln, qid, pid in repeats[:3])
        report.warnings.append(
            f"{len(repeats)} repeated passages in ranked lists were counted once, at "
            f"their first rank ({shown}{'; …' if len(repeats) > 3 else ''})"
        )
