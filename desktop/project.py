"""A review project: the domain layer between files, the store and whoever shows the results
(the command line, the window, the Excel report). No Qt, no SQL here."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby, islice
from operator import itemgetter
from pathlib import Path

from db import DuplicateRow, Store, StoreError, UnknownIds
from db import journal as journal_file
from db.store import WAIT
from desktop import readers, search
from desktop.app import backup, locks, scratch, targets
from desktop.evaluation import metrics
from desktop.gold import effective as gold
from desktop.gold import export as gold_export
from desktop.gold import pool as pool_module
from desktop.readers import InputError, Progress
from desktop.reads import Reads


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


def _alternative_problem(
    kind: str, question_id: str, value, primaries: dict[str, set[str]], added=None
) -> str | None:
    """An alternative stands for an evidence item: its value must be the primary passage of
    one of that question's imported items or of an item an evidence line added (or null,
    which withdraws it)."""
    if kind != "alternative" or value is None:
        return None
    these = primaries.get(question_id, set()) | (added or {}).get(question_id, set())
    if value in these:
        return None
    named = ", ".join(repr(p) for p in sorted(these)[:5]) or "none"
    return (
        f"an alternative's value must be the primary passage of one of question "
        f"{question_id!r}'s evidence items ({named}), not {value!r}"
    )


def _item_problem(
    kind: str, question_id: str, passage_id: str, primaries: dict[str, set[str]], added
) -> str | None:
    """evidence adds a passage that is not already an imported item's primary; drop names
    an item's primary, imported or added by an evidence line."""
    imported = primaries.get(question_id, set())
    if kind == "evidence" and passage_id in imported:
        return (
            f"passage {passage_id!r} is already the primary of one of question "
            f"{question_id!r}'s imported evidence items (an evidence line adds a new one)"
        )
    if kind == "drop" and passage_id not in imported | added.get(question_id, set()):
        return (
            f"passage {passage_id!r} is not the primary of an evidence item of question "
            f"{question_id!r}: nothing to drop"
        )
    return None


def _record_added(added: dict[str, set[str]], kind: str, question_id: str, passage_id: str, value):
    if kind == "evidence" and value is True:
        added.setdefault(question_id, set()).add(passage_id)


class Project(Reads):
    def __init__(self, path: str | Path, *, wait: float = WAIT, on_wait=None):
        """wait and on_wait: how long a write waits for another program's write lock, and
        whom to tell that it waits (see db.Store)."""
        self.path = Path(path)
        scratch.clean_leftovers()
        locks.clear_stale_window_lock(self.path)
        backup.before_migration(self.path)
        self.store = Store(self.path, wait=wait, on_wait=on_wait)
        backup.clean_leftovers(self.store)
        self._gold_cache: tuple[int, gold.EffectiveGold] | None = None
        self._data_version = self.store.data_version()

    def changed_elsewhere(self) -> bool:
        """True once after another program (a second window, a command) committed a change to
        this database; one PRAGMA, cheap enough for a timer."""
        version = self.store.data_version()
        changed, self._data_version = version != self._data_version, version
        if changed:
            self._gold_cache = None
        return changed

    def close(self) -> None:
        self.store.close()

    def journal_problem(self) -> str | None:
        """Why the judgement journal's latest write failed (the judgements are committed, only
        their journal copy is behind), or None; see db/journal.py."""
        return self.store.journal_problem

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- facts ---------------------------------------------------------------------------------

    def info(self) -> dict:
        counts = self.store.counts()
        return {
            "database": str(self.path),
            "schema": self.store.schema_version(),
            "corpus": self.store.corpus(),
            "passages": counts["passages"],
            "questions": counts["questions"],
            "evidence_items": counts["evidence_items"],
            "alternatives": counts["alternatives"],
            "systems": [s["name"] for s in self.store.systems()],
            "results": counts["results"],
            "judgements": counts["judgements"],
            "reviewers": self.store.reviewers(),
        }

    def systems(self) -> list[dict]:
        return self.store.systems()

    def search(self, text: str, limit: int = 20, offset: int = 0) -> search.SearchPage:
        """Passages holding every word of text: the exact total and one page in corpus order
        (desktop/search.py). The window and the command line both ask here."""
        return search.search(self.store, text, limit, offset)

    def questions(self) -> list[dict]:
        return self.store.questions()

    # -- imports ---------------------------------------------------------------------------

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
        progress: Progress | None = None,
    ) -> ImportReport:
        """The one way in for a file, used by the command line and the window. kind is
        corpus, questions, gold, run, judgements or beir (a BEIR folder: corpus, questions
        and gold); paths is a path or a list of them (several, or a folder, only for a
        corpus). levels: what graded qrels levels mean (readers.parse_levels)."""
        if kind == "corpus":
            return self.import_corpus(
                paths, fmt, encoding, replace, name, chunk_size, overlap, unit, progress
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
            return self.import_run(path, system, fmt, encoding, progress)
        if kind == "judgements":
            return self.import_judgements(path, encoding, progress, fmt)
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
    ) -> ImportReport:
        """One corpus from one file, several, or a folder of them: one transaction, so a bad
        line in any file imports none. With several files each passage's metadata records its
        file's name as source_file."""
        given = _path_list(paths)
        skipped: list[str] = []
        files = readers.corpus_files(given, skipped)
        several = len(files) > 1 or any(os.path.isdir(p) for p in given)
        source, default_name = _corpus_source(given, files)
        shown = str(given[0]) if len(given) == 1 else source
        report = ImportReport("corpus", shown, 0, warnings=skipped)
        existing = self.store.corpus()
        if existing and not replace:
            raise InputError(
                shown,
                None,
                f"a corpus is already loaded ({existing['name']}, from "
                f"{existing['source_file']}); use --replace to replace it (this removes the "
                "imported gold and runs, which point at its passages; judgements stay)",
            )
        corpus = readers.CorpusFiles(files, fmt, encoding, tag=several)
        with self.store.atomic():
            if existing:
                removed = self.store.clear_corpus(source)
                report.messages.append(
                    f"replaced the corpus: removed {removed['passages']} passages, "
                    f"{removed['evidence_items']} evidence items and {removed['systems']} runs"
                )
                report.messages += _undo_note(removed["undo"])
            try:
                report.rows = self.store.insert_passages(corpus.rows(progress), progress)
            except DuplicateRow as dup:
                raise corpus.refusal(dup.line, dup.key) from None
            if report.rows == 0:
                raise InputError(
                    shown, None, "no passages in the file" + ("s" if len(files) > 1 else "")
                )
            self.store.set_corpus(name or default_name, source, chunk_size, overlap, unit, now())
            for path, count in zip(files, corpus.counts, strict=True):
                # A line per file: the import log is also what exports may never overwrite.
                self.store.log_import("corpus", os.path.abspath(path), now(), count, 0)
            _phase(progress, "saving")
        report.messages.append(
            f"imported {report.rows} passages"
            + (f" from {len(files)} files" if len(files) > 1 else "")
        )
        self._gold_cache = None
        return report

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
        items = [(e.line, r.question_id, e.passage_id, e.role) for r in records for e in r.evidence]
        alts = [
            (e.line, r.question_id, e.passage_id, a)
            for r in records
            for e in r.evidence
            for a in e.alternatives
        ]
        judged_not = [(line, r.question_id, pid) for r in records for line, pid in r.not_evidence]
        with self.store.atomic():
            _phase(progress, "checking ids")
            try:
                counts = self.store.replace_gold(
                    os.path.abspath(path), questions, items, alts, judged_not
                )
            except UnknownIds as error:
                raise _unknown_message(path, error) from None
            self.store.log_import("gold", os.path.abspath(path), now(), len(items), 0)
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
                info = self.store.replace_run(system, os.path.abspath(path), fmt, now(), rows)
            except UnknownIds as error:
                raise _unknown_message(path, error) from None
            self.store.log_import(
                "run",
                os.path.abspath(path),
                now(),
                info["results"],
                len(repeats),
                json.dumps({"system": system}),
            )
        report.rows = info["results"]
        if info["replaced"]:
            removed = info["removed"]
            report.messages.append(
                f"replaced the run of system {system!r}: {removed['results']} results for "
                f"{removed['questions']} questions removed"
            )
            report.messages += _undo_note(info["undo"])
        report.messages.append(
            f"imported {info['results']} results for {info['questions']} "
            f"questions as system {system!r}"
        )
        if repeats:
            shown = "; ".join(
                f"{path}:{ln}: {pid!r} again for {qid!r}" for ln, qid, pid in repeats[:3]
            )
            report.warnings.append(
                f"{len(repeats)} repeated passages in ranked lists were counted once, at "
                f"their first rank ({shown}{'; …' if len(repeats) > 3 else ''})"
            )
        return report

    # -- effective gold and metrics --------------------------------------------------------

    def effective_gold(self) -> gold.EffectiveGold:
        # The window asks for the gold after every judgement; rebuild only when it moved.
        stamp = self.store.change_stamp()
        if self._gold_cache and self._gold_cache[0] == stamp:
            return self._gold_cache[1]
        result = self.gold_from(self.store.judgements())
        self._gold_cache = (stamp, result)
        return result

    def gold_from(self, judgements: list[dict]) -> gold.EffectiveGold:
        """The imported gold with these judgement lines applied (blind mode passes a
        reviewer's own lines only)."""
        passage_ids = self.store.gold_passage_ids()
        passage_pks = self.store.passage_pks(gold.named_passages(judgements))
        passage_ids.update({pk: pid for pid, pk in passage_pks.items()})
        passage_pks.update({pid: pk for pk, pid in passage_ids.items()})
        return gold.build(
            self.store.questions(),
            self.store.evidence_rows(),
            self.store.alternative_rows(),
            passage_ids,
            passage_pks,
            judgements,
            self.store.not_evidence_rows(),
        )

    def runs(self, max_rank: int | None = None) -> dict[str, dict[int, list[int]]]:
        """Every system's ranked passage keys per question key, cut at max_rank."""
        names = {s["pk"]: s["name"] for s in self.store.systems()}
        runs: dict[str, dict[int, list[int]]] = {name: {} for name in names.values()}
        rows = self.store.result_rows(max_rank).fetchall()
        for (system_pk, question_pk), group in groupby(rows, key=itemgetter(0, 1)):
            runs[names[system_pk]][question_pk] = [row[2] for row in group]
        return runs

    def evaluate(self, ks, systems: list[str] | None = None, runs=None) -> Evaluation:
        """``runs``: the ranked lists of self.runs(max K), when the caller has them already."""
        ks = metrics.parse_ks(ks)
        effective = self.effective_gold()
        items = effective.metric_items()
        runs = self.runs(max(ks)) if runs is None else runs
        if systems is not None:
            runs = {name: runs[name] for name in systems if name in runs}
        judged = {q: effective.judged(q) for q, these in items.items() if these}
        scores = metrics.evaluate(items, runs, ks, judged)
        return Evaluation(ks, self.store.questions(), items, scores, effective)

    def recall_curves(self, depth: int | None = None) -> dict[str, list[float]]:
        """Mean Recall@1..depth per system over the evaluated questions."""
        depth = depth or self.store.max_rank() or 1
        return metrics.recall_curves(self.effective_gold().metric_items(), self.runs(depth), depth)

    def pool(
        self,
        depth: int = pool_module.DEFAULT_DEPTH,
        *,
        shuffle_for: str | None = None,
        blind: bool = False,
        questions: list[str] | None = None,
        effective: gold.EffectiveGold | None = None,
    ) -> list[tuple[str, list[pool_module.PoolEntry]]]:
        """The unjudged pool at depth D: (question id, unjudged passages in order) for every
        question that has evidence or a ranked list, in question order. ``questions``: only
        these (question ids; each read by its own keys, the window's path after a judgement).
        ``effective``: the gold as a reviewer sees it (blind mode), else everyone's."""
        if depth < 1:
            raise ValueError(f"the pool depth must be at least 1, not {depth}")
        effective = effective or self.effective_gold()
        names = {s["pk"]: s["name"] for s in self.store.systems()}
        if questions is None:
            asked = self.store.questions()
            candidates = self.store.pool_candidates(depth, with_systems=not blind)
            ranked = self.store.questions_with_results()
        else:
            asked = [q for q in map(self.store.question, questions) if q is not None]
            candidates = [
                row
                for q in asked
                for row in self.store.pool_candidates(depth, not blind, question_pk=q["pk"])
            ]
            ranked = {row[0] for row in candidates}  # a ranked list has a rank 1 <= D
        found = pool_module.collect(candidates, effective.judged, None if blind else names)
        return [
            (q["id"], pool_module.ordered(found.get(q["pk"], []), shuffle_for, q["id"]))
            for q in self._pool_questions(asked, ranked, effective, found)
        ]

    def unjudged_counts(self, depth: int = pool_module.DEFAULT_DEPTH) -> dict[str, int]:
        """Question id -> how many passages its pool at depth D holds, for the questions
        pool() lists; counted as the store streams the top D, without building the pool."""
        effective = self.effective_gold()
        found = pool_module.unjudged_counts(self.store.pool_passages(depth), effective.judged)
        listed = self._pool_questions(
            self.store.questions(), self.store.questions_with_results(), effective, found
        )
        return {q["id"]: found.get(q["pk"], 0) for q in listed}

    @staticmethod
    def _pool_questions(asked, ranked: set[int], effective, found) -> Iterator[dict]:
        """The questions the pool lists: those with evidence, a ranked list or a pool."""
        for question in asked:
            pk = question["pk"]
            if pool_module.listed(pk in found, bool(effective.items.get(pk)), pk in ranked):
                yield question

    # -- judgements ------------------------------------------------------------------------

    def add_judgement(
        self,
        reviewer: str,
        question_id: str,
        kind: str,
        value,
        passage_id: str = "",
        settles: str | None = None,
        system: str | None = None,
        at: str | None = None,
    ) -> dict:
        """Append one line to the log, committed before this returns."""
        checked = settles if kind == "adjudication" else kind
        primaries = self.store.evidence_primaries(question_id)
        added = self.added_evidence(question_id)
        problem = (
            readers.check_judgement_value(checked, value)
            or _alternative_problem(checked, question_id, value, primaries, added)
            or _item_problem(checked, question_id, passage_id, primaries, added)
        )
        if not problem and checked == "evidence" and not self.store.passage_pks([passage_id]):
            problem = f"unknown passage id {passage_id!r}: it is not in the corpus"
        if problem:
            raise ValueError(problem)
        row = self._judgement_row(
            reviewer, question_id, kind, value, passage_id, settles, system, at
        )
        self.store.add_judgements([tuple(row[c] for c in self.store.JUDGEMENT_COLUMNS)])
        return row

    def add_evidence(
        self,
        reviewer: str,
        question_id: str,
        passage_id: str,
        role: str,
        system=None,
        at: str | None = None,
    ) -> list[dict]:
        """Add a passage as a new evidence item with its role (the window's "add as core" /
        "add as supporting"): the evidence line and the role line in one transaction."""
        if readers.check_judgement_value("role", role) or role is None:
            raise ValueError("a role must be core or supporting")
        line = {"question_id": question_id, "passage_id": passage_id}
        return self.add_judgement_lines(
            reviewer,
            [
                {**line, "kind": "evidence", "value": True},
                {**line, "kind": "role", "value": role, "system": system},
            ],
            at,
        )

    def add_judgement_lines(
        self, reviewer: str, lines: list[dict], at: str | None = None
    ) -> list[dict]:
        """Several lines (add_judgement's arguments) written together: one transaction and
        one time, which the window's undo takes as one step (an added item, a drop and its
        reason). Nothing is written when one of them is refused."""
        at = at or now()
        with self.store.atomic():
            return [self.add_judgement(reviewer, at=at, **line) for line in lines]

    def added_evidence(self, question_id: str | None = None) -> dict[str, set[str]]:
        """Question id -> passages an evidence line (or an adjudication of one) in the log
        adds as an item, whether or not that is in force."""
        added: dict[str, set[str]] = {}
        for row in self.store.judgements(question_id=question_id):
            kind = row["settles"] if row["kind"] == "adjudication" else row["kind"]
            value = json.loads(row["value"])
            _record_added(added, kind, row["question_id"], row["passage_id"], value)
        return added

    @staticmethod
    def _judgement_row(reviewer, question_id, kind, value, passage_id, settles, system, at):
        return {
            "reviewer": reviewer,
            "at": at or now(),
            "question_id": question_id,
            "kind": kind,
            "passage_id": passage_id or "",
            "value": json.dumps(value, ensure_ascii=False),
            "settles": settles,
            "system": system,
        }

    def import_judgements(
        self, path, encoding=None, progress: Progress | None = None, fmt=None
    ) -> ImportReport:
        path = str(path)
        known = {q["id"] for q in self.store.questions()}
        primaries = self.store.evidence_primaries()
        added = self.added_evidence()
        rows = []
        for rec in readers.read_judgements(path, fmt, encoding, progress):
            if rec.question_id not in known:
                raise InputError(
                    path, rec.line, f"unknown question id {rec.question_id!r}; nothing was imported"
                )
            kind = rec.settles or rec.kind
            problem = _alternative_problem(
                kind, rec.question_id, rec.value, primaries, added
            ) or _item_problem(kind, rec.question_id, rec.passage_id, primaries, added)
            _record_added(added, kind, rec.question_id, rec.passage_id, rec.value)
            if problem:
                raise InputError(path, rec.line, f"{problem}; nothing was imported")
            try:
                datetime.fromisoformat(rec.at.replace("Z", "+00:00"))
            except ValueError:
                raise InputError(
                    path, rec.line, f"'at' is not an ISO date and time: {rec.at!r}"
                ) from None
            rows.append(
                (
                    rec.line,
                    rec.reviewer,
                    rec.at,
                    rec.question_id,
                    rec.kind,
                    rec.passage_id,
                    json.dumps(rec.value, ensure_ascii=False),
                    rec.settles,
                    rec.system,
                )
            )
        ids = {r[5] for r in rows if r[5]}
        missing = sorted(ids - set(self.store.passage_pks(ids)))
        if missing:
            line = next(r[0] for r in rows if r[5] == missing[0])
            raise InputError(
                path,
                line,
                f"unknown passage id {missing[0]!r}: {len(missing)} "
                "passage ids in this file are not in the corpus; nothing was "
                "imported",
            )
        with self.store.atomic():
            added = self.store.add_judgements(r[1:] for r in rows)
            self.store.log_import("judgements", os.path.abspath(path), now(), added, 0)
        report = ImportReport("judgements", path, added)
        report.messages.append(f"added {added} judgements ({len(rows) - added} already there)")
        self._gold_cache = None
        return report

    def judgement_lines(self, reviewer: str | None = None) -> list[dict]:
        """The log as design section 6 lines (JSON-ready), oldest first."""
        return [journal_file.judgement_line(r) for r in self.store.judgements(reviewer=reviewer)]

    def export_target(self, path) -> Path:
        """path as a Path when an export may write it; raises targets.RefusedTarget when it
        is the database, a file beside it, a backup, another database or an imported file."""
        sources = [row["source_file"] for row in self.store.import_log()]
        return targets.check(path, self.path, sources)

    def export_judgements(self, path, reviewer: str | None = None, force: bool = False) -> int:
        """Write the log (or one reviewer's lines) as judgement JSONL; returns the lines written.
        Without force, an empty result never replaces a non-empty file."""
        target = self.export_target(path)
        lines = self.judgement_lines(reviewer)
        targets.refuse_emptying(target, len(lines), "judgements", force)
        with scratch.replacing(target) as tmp:
            with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
                for line in lines:
                    handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        return len(lines)

    def export_gold(self, path, fmt: str = "jsonl", force: bool = False) -> int:
        """Write the effective gold (pending and disputed changes leave the imported state)
        as gold JSONL, TREC qrels or BEIR qrels; returns the questions written. Without force,
        an empty result never replaces a non-empty file."""
        if fmt not in gold_export.FORMATS:
            raise ValueError(f"the gold is exported as {', '.join(gold_export.FORMATS)}")
        target = self.export_target(path)
        effective = self.effective_gold()
        id_of = self.store.passage_ids_of(p for ps in effective.judged_out.values() for p in ps)
        rows = list(
            gold_export.questions(
                effective, self.store.questions(), self.store.gold_question_pks(), id_of
            )
        )
        targets.refuse_emptying(target, len(rows), "gold questions", force)
        with scratch.replacing(target) as tmp:
            with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
                handle.writelines(gold_export.lines(fmt, iter(rows)))
        return len(rows)

    def merge(self, other_path) -> ImportReport:
        """Add the other database's judgement lines this one lacks; refuse a database that
        describes a different evaluation. One transaction; running it twice adds nothing."""
        other_path = str(other_path)
        theirs, rows = self._read_other(other_path)
        mine = self.store.fingerprint()
        differ = [k for k in ("corpus", "questions", "gold") if mine[k] != theirs[k]]
        if differ:
            raise InputError(
                other_path,
                None,
                "not the same evaluation: its "
                f"{', '.join(differ)} differ from this database's; "
                "nothing was merged",
            )
        with self.store.atomic():
            added = self.store.add_judgements(rows)
            self.store.log_import("merge", os.path.abspath(other_path), now(), added, 0)
        report = ImportReport("merge", other_path, added)
        report.messages.append(f"merged {added} judgements ({len(rows) - added} already here)")
        self._gold_cache = None
        return report

    def _read_other(self, other_path: str) -> tuple[dict, list[tuple]]:
        """The fingerprint and judgement rows of the database a merge reads, opened read-only
        with nothing created beside it (Store._open_source); read again in the ordinary way
        when another program started writing it while it was read without locks."""
        for _attempt in range(3):
            other = Store(other_path, readonly=True)
            try:
                theirs = other.fingerprint()
                columns = self.store.JUDGEMENT_COLUMNS
                rows = [tuple(r[c] for c in columns) for r in other.judgements()]
            except StoreError:
                if not other.changed_since_open():
                    raise
                continue
            finally:
                other.close()
            if not other.changed_since_open():
                return theirs, rows
        raise StoreError(
            f"{other_path}: another program kept changing it while it was read; "
            "try again when it is done. Nothing was merged."
        )

    def agreement(self) -> dict:
        return gold.agreement(self.store.judgements())

    # -- restoring ------------------------------------------------------------------------------

    def backups(self) -> list[dict]:
        """The partial backups of what imports replaced, newest first."""
        return self.store.undo_entries()

    def restore_import(self, which: str | int = "last-import") -> dict:
        """Put back the gold or run that an import replaced ("last-import" or a backup id),
        in one transaction; refused when the corpus changed since. Raises StoreError."""
        if which == "last-import":
            kept = self.backups()
            if not kept:
                raise StoreError(f"{self.path}: no import has replaced anything yet")
            which = kept[0]["id"]
        with self.store.atomic():
            restored = self.store.restore_undo(int(which))
            self.store.log_import("restore", f"backup {restored['id']}", now(), 0, 0)
        self._gold_cache = None
        return restored

    def restore_judgements(self, path=None, force: bool = False) -> ImportReport:
        """Add the judgement lines of a journal (by default the one beside this database)
        that the log lacks: the way back after the database file was lost or damaged. A
        journal of another database (its header names another id; a rebuilt database has a
        new one) is refused unless force. Lines about questions this database lacks are
        taken (nothing is lost) and counted in a warning."""
        path = Path(path) if path else self.store.journal_path
        if os.path.lexists(path):  # a missing journal: journal_file.read says so
            readers.regular_file(path)
        try:
            header, lines, _torn = journal_file.read(path)
        except journal_file.JournalError as error:
            raise StoreError(str(error)) from None
        except OSError as error:
            raise StoreError(f"{path}: cannot read the journal ({error.strerror})") from None
        mine = self.store.database_id()
        if header.get("database_id") != mine and not force:
            raise StoreError(
                f"{path}: the journal of another database ({header.get('database') or '?'}, "
                f"id {str(header.get('database_id'))[:8]}), not of {self.path.name} (id "
                f"{mine[:8]}); to rebuild this database's judgements from it anyway (after "
                "the database was lost or damaged), add --force. Nothing was restored."
            )
        rows = [journal_file.row_of(line) for line in lines]
        with self.store.atomic():
            added = self.store.add_judgements(rows)
            self.store.log_import("restore", str(path.resolve()), now(), added, 0)
        report = ImportReport("judgements", str(path), added)
        report.messages.append(
            f"restored {added} judgements from {path} ({len(rows) - added} already here)"
        )
        unknown = self._unknown_questions(line["question_id"] for line in lines)
        if unknown:
            first = ", ".join(repr(q) for q in list(unknown)[:5])
            report.warnings.append(
                f"{sum(unknown.values())} of the journal's lines are about "
                f"{len(unknown)} questions this database lacks ({first}"
                f"{', …' if len(unknown) > 5 else ''}): they are in the log, and count once "
                "those questions are imported"
            )
        self._gold_cache = None
        return report

    def _unknown_questions(self, question_ids) -> dict[str, int]:
        """Question id -> lines, for the ids this database has no question for, first seen
        first."""
        known = {q["id"] for q in self.store.questions()}
        unknown: dict[str, int] = {}
        for question_id in question_ids:
            if question_id not in known:
                unknown[question_id] = unknown.get(question_id, 0) + 1
        return unknown


@dataclass
class Evaluation:
    ks: list[int]
    questions: list[dict]
    items: dict[int, list[metrics.Item]]
    systems: list[metrics.SystemScores]
    gold: gold.EffectiveGold

    @property
    def evaluated(self) -> int:
        return sum(1 for q in self.questions if self.items.get(q["pk"]))

    def labels(self) -> list[str]:
        return metrics.labels(self.ks, metrics.ALL_MEASURES)

    def unsettled(self) -> list[tuple[str, int, float]]:
        """(system, K, Judged@K) where Judged@K is under metrics.JUDGED_ENOUGH: too little of
        what the system retrieved is judged, so its numbers may still move."""
        return metrics.unsettled({s.system: s.means for s in self.systems if s.evaluated}, self.ks)

    def unsettled_note(self) -> str | None:
        """One line saying which systems' numbers may still move, or None."""
        shown = self.unsettled()
        if not shown:
            return None
        parts = ", ".join(f"{system} (Judged@{k} {value:.2f})" for system, k, value in shown)
        return (
            f"under {metrics.JUDGED_ENOUGH:.0%} of the top K is judged for {parts}: these "
            "numbers may still move as the pool is judged (recall-reviewer pool)"
        )

    def core_note(self) -> str | None:
        """Why CoreRecall is '-', when it is (metrics.core_note), or None."""
        core = sum(1 for these in self.items.values() if any(item.role == "core" for item in these))
        return metrics.core_note(self.evaluated, core)

    def as_json(self, per_question: bool = False) -> dict:
        total = len(self.questions)
        out: dict = {
            "k": self.ks,
            "questions": {
                "total": total,
                "evaluated": self.evaluated,
                "without_evidence": total - self.evaluated,
            },
            "systems": [
                {"system": s.system, "evaluated": s.evaluated, **s.means} for s in self.systems
            ],
            "core_note": self.core_note(),
        }
        if per_question:
            ids: dict[Hashable, str] = {q["pk"]: q["id"] for q in self.questions}
            out["per_question"] = [
                {"system": s.system, "question": ids[q], **values}
                for s in self.systems
                for q, values in s.per_question.items()
            ]
        return out
