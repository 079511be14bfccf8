"""What the reviewer window asks of a project, without Qt: one question's evidence beside the
systems' rankings, question summaries and review status, scores kept current question by
question, the reviewer's undo history read back from the judgement log, corpus search and a
passage's neighbours. The window's workers call the same functions on their own Project.

Words as in design section 2: passage, question, evidence item, role, alternative, system,
run, judgement, reviewer.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import groupby
from operator import itemgetter

from desktop import gold, metrics
from desktop.formats import Cancelled
from desktop.gold import DISPUTED, Decision, EffectiveGold, instant
from desktop.metrics import MEASURES, Item, Prepared
from desktop.project import now

UNTOUCHED, IN_PROGRESS, DONE = "untouched", "in_progress", "done"
STATUSES = (UNTOUCHED, IN_PROGRESS, DONE)
WINDOW_KS = (5, 10)  # the seed reports Recall@5 and Recall@10 side by side

Tick = Callable[[int, int], None]


def next_at(last: str | None) -> str:
    """The time for a new line: now, or a millisecond after the reviewer's last line when the
    clock has not moved on. Two lines with the same reviewer, time, key and value are one line
    in the log (its identity), so a quick undo-redo must not reuse a time."""
    at = now()
    if last and instant(at) <= instant(last):
        moment = datetime.fromisoformat(last.replace("Z", "+00:00"))
        at = (moment + timedelta(milliseconds=1)).isoformat(timespec="milliseconds")
    return at


def _value_key(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# -- which judgements a reviewer sees ---------------------------------------------------------


def visible(rows: Iterable[dict], reviewer: str, blind: bool) -> list[dict]:
    """Blind mode hides every other reviewer's lines, adjudications included, so that a
    second opinion is formed independently."""
    if blind:
        return [r for r in rows if r["reviewer"] == reviewer]
    return list(rows)


def _reviewer_marks(reviewers: Iterable[str]) -> list[dict]:
    # gold.build learns who is in the database from the lines it is given; one empty note per
    # reviewer tells it without reading every question's log when only one question is built.
    return [
        {
            "pk": 0,
            "reviewer": name,
            "at": "1970-01-01T00:00:00+00:00",
            "question_id": "",
            "kind": "note",
            "passage_id": "",
            "value": "null",
            "settles": None,
            "system": None,
        }
        for name in reviewers
    ]


def build_gold(project, reviewer: str, blind: bool) -> EffectiveGold:
    """The effective gold over every question as this reviewer sees it (all reviewers' lines,
    or in blind mode the reviewer's own lines as if no one else had judged)."""
    if not blind:
        return project.effective_gold()
    return project.gold_from(visible(project.store.judgements(), reviewer, blind))


def question_gold(
    project, question: dict, reviewer: str, blind: bool, reviewers: Sequence[str]
) -> tuple[EffectiveGold, list[dict], list[dict]]:
    """The effective gold of one question, exactly as build_gold would give it, from that
    question's rows alone: (gold, its imported evidence, the visible judgement lines)."""
    store = project.store
    evidence = store.question_evidence(question["pk"])
    rows = visible(store.judgements(question_id=question["id"]), reviewer, blind)
    passage_ids = {e["passage_pk"]: e["passage_id"] for e in evidence}
    for e in evidence:
        passage_ids.update(dict(e["alternatives"]))
    named = gold.named_passages(rows) - set(passage_ids.values())
    passage_pks = store.passage_pks(named) if named else {}
    passage_ids.update({pk: pid for pid, pk in passage_pks.items()})
    passage_pks.update({pid: pk for pk, pid in passage_ids.items()})
    everyone = [reviewer] if blind else list(reviewers)
    built = gold.build(
        [question],
        [(question["pk"], e["item_pk"], e["passage_pk"], e["role"]) for e in evidence],
        [(e["item_pk"], pk) for e in evidence for pk, _ in e["alternatives"]],
        passage_ids,
        passage_pks,
        rows + _reviewer_marks(everyone),
    )
    return built, evidence, rows


# -- review status ----------------------------------------------------------------------------


@dataclass
class Summary:
    """One line of the question list."""

    pk: int
    id: str
    text: str
    answerable: bool  # in force
    items: int  # evidence items
    status: str  # UNTOUCHED, IN_PROGRESS or DONE for this reviewer
    disputed: int  # open disagreements (0 in blind mode: they are not shown)
    single: int = 0  # judgements in force that one reviewer alone made


def review_status(
    rows: Iterable[dict],
    items: Sequence[gold.GoldItem],
    reviewer: str | None = None,
    open_decisions: int = 0,
) -> str:
    """The one rule for a question's review status, used by the window (one reviewer's own
    progress: pass ``reviewer``) and by the report (the team's: ``reviewer=None`` and the
    question's open, that is pending or disputed, decisions).

    Untouched until a line is written on the question; done once its answerability is settled
    (Y or B), every evidence item has a role in force and nothing is left open; else in
    progress."""
    mine = [r for r in rows if reviewer is None or r["reviewer"] == reviewer]
    if not mine:
        return UNTOUCHED
    answerable: object = None
    for r in sorted(mine, key=lambda r: (instant(r["at"]), r.get("pk") or 0)):
        if r["kind"] == "answerable" or (
            r["kind"] == "adjudication" and r.get("settles") == "answerable"
        ):
            answerable = json.loads(r["value"])
    if answerable is None or open_decisions or any(item.role is None for item in items):
        return IN_PROGRESS
    return DONE


def summarize(
    question: dict,
    built: EffectiveGold,
    rows: Sequence[dict],
    reviewer: str,
    blind: bool,
    decisions: Sequence[Decision] | None = None,
) -> Summary:
    """decisions: the question's own (all of built.decisions are searched when not given)."""
    pk = question["pk"]
    items = built.items.get(pk, [])
    if decisions is None:
        decisions = [d for d in built.decisions if d.question_id == question["id"]]
    return Summary(
        pk,
        question["id"],
        question["text"],
        built.answerable.get(pk, bool(question["answerable"])),
        len(items),
        review_status(rows, items, reviewer),
        0 if blind else sum(1 for d in decisions if d.status == DISPUTED),
        sum(1 for d in decisions if d.status == gold.SINGLE),
    )


# -- scores -----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _labels(ks: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(metrics.label(m, k) for k in ks for m in MEASURES)


def labels_for(ks: Sequence[int]) -> list[str]:
    return list(_labels(tuple(ks)))


@dataclass
class Entry:
    """One system on one question: where each evidence item is first found (None: never, in
    the whole stored list) and every measure at the board's K values (None: not defined)."""

    first: tuple[int | None, ...]
    values: tuple[float | None, ...]


def score_entry(prepared: Prepared, hits: Sequence[tuple[int, int]]) -> Entry:
    """hits: (rank, passage_pk) of the ranked passages that belong to some evidence item, in
    rank order. Every other rank is a passage no item owns, so a list of holes with the hits
    in place scores exactly as the full list does."""
    depth = prepared.ks[-1]
    sparse: list[int | None] = [None] * depth
    first: list[int | None] = [None] * prepared.n_items
    for rank, passage in hits:
        if rank <= depth:
            sparse[rank - 1] = passage
        for index in prepared.owners.get(passage, ()):
            if first[index] is None:
                first[index] = rank
    scores = prepared.score(sparse)
    return Entry(tuple(first), tuple(scores[label] for label in _labels(tuple(prepared.ks))))


class Scoreboard:
    """Every system's per-question scores at the window's K values, held as running sums, so
    that a judgement on one question moves the means and the Recall@K curve without a pass
    over every question. Questions without evidence have no entry (they are reported apart)."""

    def __init__(self, systems: Sequence[str], ks: Sequence[int], depth: int):
        self.systems = list(systems)
        self.ks = sorted(ks)
        self.labels = labels_for(self.ks)
        self.depth = max(1, depth)
        self.entries: dict[str, dict[int, Entry]] = {s: {} for s in self.systems}
        width = len(self.labels)
        self._sums = {s: array("d", [0.0] * width) for s in self.systems}
        self._counts = {s: array("l", [0] * width) for s in self.systems}
        # Per system, the Recall@d curve as increments at the rank where each item is first
        # found (1/|G| each); the curve is their running sum over the evaluated questions.
        self._steps = {s: array("d", [0.0] * self.depth) for s in self.systems}

    def _apply(self, system: str, entry: Entry, sign: int) -> None:
        sums, counts = self._sums[system], self._counts[system]
        for i, value in enumerate(entry.values):
            if value is not None:
                sums[i] += sign * value
                counts[i] += sign
        if entry.first:
            share = sign / len(entry.first)
            steps = self._steps[system]
            for rank in entry.first:
                if rank is not None and rank <= self.depth:
                    steps[rank - 1] += share

    def set(self, system: str, question_pk: int, entry: Entry | None) -> None:
        entries = self.entries[system]
        old = entries.pop(question_pk, None)
        if old is not None:
            self._apply(system, old, -1)
        if entry is not None:
            entries[question_pk] = entry
            self._apply(system, entry, +1)

    def evaluated(self, system: str | None = None) -> int:
        system = system or (self.systems[0] if self.systems else None)
        return len(self.entries.get(system, {})) if system else 0

    def means(self, system: str) -> dict[str, float | None]:
        sums, counts = self._sums[system], self._counts[system]
        return {
            label: (sums[i] / counts[i] if counts[i] else None)
            for i, label in enumerate(self.labels)
        }

    def curve(self, system: str) -> list[float]:
        n = len(self.entries[system])
        running, out = 0.0, []
        for step in self._steps[system]:
            running += step
            out.append(running / n if n else 0.0)
        return out

    def found(self, system: str, question_pk: int, k: int) -> tuple[int, int] | None:
        """(items found in the top k, items) for the question list; None without evidence."""
        entry = self.entries.get(system, {}).get(question_pk)
        if entry is None:
            return None
        return sum(1 for r in entry.first if r is not None and r <= k), len(entry.first)


def _entries_for(
    items: Sequence[Item], ks: Sequence[int], ranked: dict[str, Sequence[int]]
) -> dict[str, Entry]:
    prepared = Prepared(items, ks)
    out = {}
    for system, passages in ranked.items():
        hits = [(rank, p) for rank, p in enumerate(passages, 1) if p in prepared.owners]
        out[system] = score_entry(prepared, hits)
    return out


@dataclass
class Overview:
    """The result of a full pass: everything the window shows about all questions."""

    ks: list[int]
    board: Scoreboard
    summaries: dict[int, Summary]
    agreement: dict
    reviewers: list[str]
    evaluated: int
    without_evidence: int


def overview(
    project,
    reviewer: str,
    blind: bool,
    ks: Sequence[int] = WINDOW_KS,
    progress: Tick | None = None,
) -> Overview:
    """Scores, curves, summaries and agreement over every question, for a worker. The ranked
    lists are read only where they hit evidence (SQLite does that scan), so memory stays flat
    at ten systems of a hundred results for thousands of questions."""
    ks = sorted(set(ks))
    store = project.store
    built = build_gold(project, reviewer, blind)
    questions = store.questions()
    systems = store.systems()
    names = {s["pk"]: s["name"] for s in systems}
    board = Scoreboard([s["name"] for s in systems], ks, store.max_rank() or max(ks))
    items = built.metric_items()
    prepared = {q: Prepared(these, ks) for q, these in items.items() if these}
    pairs = sorted({(q, p) for q, prep in prepared.items() for p in prep.owners})
    total = len(systems) * len(prepared) + len(questions)
    done = 0
    if progress:
        progress(0, total)
    hits = store.evidence_hits(pairs)
    grouped = groupby(hits, key=itemgetter(0, 1))
    found: dict[int, list[tuple[int, int]]] = {}
    current = next(grouped, None)
    for system_pk, system in names.items():
        found.clear()
        while current is not None and current[0][0] == system_pk:
            found[current[0][1]] = [(r[2], r[3]) for r in current[1]]
            current = next(grouped, None)
        for q, prep in prepared.items():
            board.set(system, q, score_entry(prep, found.get(q, ())))
            done += 1
            if progress and done % 250 == 0:
                progress(done, total)  # also where the worker gives way to the GUI
    rows = visible(store.judgements(), reviewer, blind)
    by_question: dict[str, list[dict]] = {}
    for r in rows:
        by_question.setdefault(r["question_id"], []).append(r)
    decided: dict[str, list[Decision]] = {}
    for d in built.decisions:
        decided.setdefault(d.question_id, []).append(d)
    summaries = {}
    for question in questions:
        qid = question["id"]
        summaries[question["pk"]] = summarize(
            question, built, by_question.get(qid, []), reviewer, blind, decided.get(qid, [])
        )
        done += 1
        if progress and done % 250 == 0:
            progress(done, total)
    agreement = {"pairs": [], "disagreements": 0} if blind else gold.agreement(rows)
    if progress:
        progress(total, total)
    return Overview(
        ks,
        board,
        summaries,
        agreement,
        store.reviewers(),
        len(prepared),
        len(questions) - len(prepared),
    )


def refresh_question(
    project,
    question: dict,
    reviewer: str,
    blind: bool,
    ks: Sequence[int],
    reviewers: Sequence[str],
) -> tuple[Summary, dict[str, Entry | None]]:
    """After a judgement on one question: its summary and every system's entry again."""
    built, _, rows = question_gold(project, question, reviewer, blind, reviewers)
    items = built.metric_items().get(question["pk"], [])
    names = {s["pk"]: s["name"] for s in project.store.systems()}
    summary = summarize(question, built, rows, reviewer, blind)
    if not items:
        return summary, dict.fromkeys(names.values())
    ranked = project.store.ranked_pks(question["pk"])
    lists = {name: ranked.get(pk, []) for pk, name in names.items()}
    return summary, dict(_entries_for(items, sorted(set(ks)), lists))


# -- one question, as the window shows it ---------------------------------------------------


@dataclass
class Found:
    """Where one system finds one evidence item."""

    rank: int | None  # first rank in the whole stored list; None: not retrieved
    via: str | None  # the passage id found there
    through_alternative: bool

    def at(self, k: int) -> bool:
        return self.rank is not None and self.rank <= k


@dataclass
class ItemState:
    index: int
    primary_pk: int
    primary_id: str
    role: str | None  # in force
    imported_role: str | None
    role_status: str | None  # None: as imported; else a gold decision status
    votes: dict[str, object]  # reviewer -> role (visible reviewers only)
    alternatives: list[tuple[int, str]]  # in force
    proposed: list[str]  # alternatives judged but not (yet) in force
    found: dict[str, Found] = field(default_factory=dict)  # system -> where

    def item(self) -> Item:
        return Item(
            self.primary_pk,
            self.role,
            frozenset([self.primary_pk, *(p for p, _ in self.alternatives)]),
        )


@dataclass
class RankedRow:
    rank: int
    score: float | None
    passage_pk: int
    passage_id: str
    title: str | None
    meta: dict
    text: str
    items: list[int]  # indices of the evidence items this passage finds
    primary: bool  # it is the primary passage of one of them
    not_evidence: bool  # judged not evidence (in force, or by this reviewer)
    proposed_for: str | None  # primary id it was proposed as an alternative for (not in force)


@dataclass
class Dispute:
    """An open disagreement with each reviewer's latest value and note."""

    decision: Decision
    values: dict[str, object]
    notes: dict[str, str]

    @property
    def kind(self) -> str:
        return self.decision.kind

    @property
    def passage_id(self) -> str:
        return self.decision.passage_id


@dataclass
class Note:
    reviewer: str
    at: str
    passage_id: str
    system: str | None
    text: str


@dataclass
class QuestionView:
    pk: int
    id: str
    text: str
    answerable: bool  # in force
    imported_answerable: bool
    answerable_status: str | None
    answerable_votes: dict[str, object]
    items: list[ItemState]
    rankings: dict[str, list[RankedRow]]  # system -> top K rows
    depth: dict[str, int]  # system -> length of its stored list for this question
    disputes: list[Dispute]
    notes: list[Note]
    mine: dict[tuple[str, str], object]  # (kind, passage_id) -> this reviewer's latest value
    k: int

    def missed(self, system: str) -> list[int]:
        return [
            i.index
            for i in self.items
            if not i.found.get(system, Found(None, None, False)).at(self.k)
        ]


def _latest_by_key(rows: Iterable[dict]) -> dict[tuple[str, str, str], dict]:
    out: dict[tuple[str, str, str], dict] = {}
    for r in sorted(rows, key=lambda r: (instant(r["at"]), r.get("pk") or 0)):
        out[(r["reviewer"], r["kind"], r["passage_id"])] = r
    return out


def question_view(
    project,
    question: dict,
    systems: Sequence[dict],
    k: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
) -> QuestionView:
    """Everything the middle and right of the window show for one question, for the chosen
    systems (one, or two in compare mode). A handful of indexed queries: cheap enough for the
    GUI thread on every question switch."""
    store = project.store
    built, evidence, rows = question_gold(project, question, reviewer, blind, reviewers)
    pk = question["pk"]
    gold_items = built.items.get(pk, [])
    decisions = {(d.kind, d.passage_id): d for d in built.decisions}
    imported = {e["passage_pk"]: e["role"] for e in evidence}
    latest = _latest_by_key(rows)
    mine = {
        (kind, pid): json.loads(r["value"])
        for (who, kind, pid), r in latest.items()
        if who == reviewer and kind != "note"
    }
    in_force_alts = {p for it in gold_items for p in it.alternatives.values()}
    proposed: dict[str, list[str]] = {}
    for (_, kind, pid), r in latest.items():
        value = json.loads(r["value"])
        if kind == "alternative" and isinstance(value, str) and pid not in in_force_alts:
            proposed.setdefault(value, [])
            if pid not in proposed[value]:
                proposed[value].append(pid)
    states = []
    for index, it in enumerate(gold_items):
        decision = decisions.get(("role", it.primary_id))
        states.append(
            ItemState(
                index,
                it.primary_pk,
                it.primary_id,
                it.role,
                imported.get(it.primary_pk),
                decision.status if decision else None,
                dict(decision.votes) if decision else {},
                sorted(it.alternatives.items(), key=itemgetter(1)),
                proposed.get(it.primary_id, []),
            )
        )
    items = [s.item() for s in states]
    not_evidence = {
        pid
        for (kind, pid), d in decisions.items()
        if kind == "not_evidence" and d.counts and d.value is True
    }
    not_evidence.update(pid for (kind, pid), v in mine.items() if kind == "not_evidence" and v)
    proposed_for = {pid: primary for primary, pids in proposed.items() for pid in pids}
    rankings: dict[str, list[RankedRow]] = {}
    depth: dict[str, int] = {}
    for system in systems:
        passages = store.ranked_passages(system["pk"], pk)
        depth[system["name"]] = len(passages)
        matches, per_rank = metrics.match(items, passages)
        for state, m in zip(states, matches, strict=True):
            via = None
            if m.via is not None:
                via = (
                    state.primary_id
                    if m.via == state.primary_pk
                    else dict(state.alternatives).get(m.via)
                )
            state.found[system["name"]] = Found(m.rank, via, m.through_alternative)
        top = []
        for row in store.ranking(system["pk"], pk, k):
            hit = per_rank[row["rank"] - 1] if row["rank"] <= len(per_rank) else []
            top.append(
                RankedRow(
                    row["rank"],
                    row["score"],
                    row["passage_pk"],
                    row["passage_id"],
                    row["title"],
                    json.loads(row["meta"]) if row["meta"] else {},
                    row["text"],
                    list(hit),
                    any(states[i].primary_pk == row["passage_pk"] for i in hit),
                    row["passage_id"] in not_evidence,
                    proposed_for.get(row["passage_id"]),
                )
            )
        rankings[system["name"]] = top
    notes = [
        Note(r["reviewer"], r["at"], pid, r["system"], json.loads(r["value"]))
        for (who, kind, pid), r in latest.items()
        if kind == "note" and json.loads(r["value"])
    ]
    notes.sort(key=lambda n: instant(n.at))
    disputes = []
    for d in built.decisions:
        if d.status != DISPUTED:
            continue
        these = {}
        for n in notes:
            if n.passage_id in ("", d.passage_id):
                these[n.reviewer] = (
                    n.text if n.reviewer not in these else f"{these[n.reviewer]}\n{n.text}"
                )
        disputes.append(Dispute(d, dict(d.votes), these))
    answer = decisions.get(("answerable", ""))
    return QuestionView(
        pk,
        question["id"],
        question["text"],
        built.answerable.get(pk, bool(question["answerable"])),
        bool(question["answerable"]),
        answer.status if answer else None,
        dict(answer.votes) if answer else {},
        states,
        rankings,
        depth,
        disputes,
        notes,
        mine,
        k,
    )


# -- what the window reads when it opens --------------------------------------------------------


def reviewers(project) -> list[str]:
    """Everyone with a line in the log: with more than one, lone changes wait (design 6)."""
    return project.store.reviewers()


def history(project, reviewer: str) -> UndoHistory:
    """The reviewer's undo and redo stacks, from their lines in the log."""
    return UndoHistory(project.store.judgements(reviewer=reviewer))


def has_corpus(project) -> bool:
    return project.store.corpus() is not None


# -- undo and redo, read back from the log ------------------------------------------------------

Key = tuple[str, str, str, str]  # (question_id, kind, passage_id, settles or '')


@dataclass
class Step:
    """One change a reviewer made: the key, the value before (None: none, or withdrawn) and
    after, and the note's system if any."""

    key: Key
    before: object
    after: object
    system: str | None = None

    @property
    def question_id(self) -> str:
        return self.key[0]

    @property
    def kind(self) -> str:
        return self.key[1]


class UndoHistory:
    """A reviewer's undo and redo stacks, derived from their lines in the log so that they
    survive a restart. The log is append-only: an undo is a new line putting back the value
    the undone line replaced (null when there was none), and a redo appends the undone value
    again. Reading the log back, a line that restores exactly what the latest change replaced
    is its undo, and one that re-applies the latest undone change is its redo; any other line
    is a new change and clears the redo stack."""

    def __init__(self, rows: Iterable[dict] = ()):
        self.current: dict[Key, str] = {}  # value keys (JSON) as the reviewer's lines leave them
        self.done: list[Step] = []
        self.undone: list[Step] = []
        self.last_at: str | None = None
        for row in sorted(rows, key=lambda r: (instant(r["at"]), r.get("pk") or 0)):
            self.record(row)

    @staticmethod
    def key_of(row: dict) -> Key:
        return (row["question_id"], row["kind"], row["passage_id"] or "", row.get("settles") or "")

    def record(self, row: dict) -> str:
        """Read one new line of this reviewer's; returns 'undo', 'redo' or 'change'."""
        key = self.key_of(row)
        after = json.loads(row["value"]) if isinstance(row["value"], str) else row["value"]
        after_key = _value_key(after)
        before_key = self.current.get(key, _value_key(None))
        self.current[key] = after_key
        if self.last_at is None or instant(row["at"]) >= instant(self.last_at):
            self.last_at = row["at"]
        if after_key == before_key:
            return "same"
        top = self.done[-1] if self.done else None
        if (
            top is not None
            and top.key == key
            and _value_key(top.before) == after_key
            and _value_key(top.after) == before_key
        ):
            self.undone.append(self.done.pop())
            return "undo"
        redo = self.undone[-1] if self.undone else None
        if (
            redo is not None
            and redo.key == key
            and _value_key(redo.after) == after_key
            and _value_key(redo.before) == before_key
        ):
            self.done.append(self.undone.pop())
            return "redo"
        self.done.append(Step(key, json.loads(before_key), after, row.get("system")))
        self.undone.clear()
        return "change"

    def can_undo(self) -> bool:
        return bool(self.done)

    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo_line(self) -> dict | None:
        """The judgement to append to undo the latest change (Project.add_judgement args)."""
        if not self.done:
            return None
        return self._line(self.done[-1], self.done[-1].before)

    def redo_line(self) -> dict | None:
        if not self.undone:
            return None
        return self._line(self.undone[-1], self.undone[-1].after)

    @staticmethod
    def _line(step: Step, value: object) -> dict:
        question_id, kind, passage_id, settles = step.key
        return {
            "question_id": question_id,
            "kind": kind,
            "value": value,
            "passage_id": passage_id,
            "settles": settles or None,
            "system": step.system,
        }


# -- corpus search, neighbours, terms ---------------------------------------------------------

# Particles and endings trimmed from question words before they are looked for in passages:
# Korean attaches them to the noun (대통령의, 임기는), and the passage says 대통령 or 임기.
_PARTICLES = sorted(
    (
        "은 는 이 가 을 를 의 에 에서 에게 께 으로 로 과 와 도 만 까지 부터 보다 처럼 이나 나 "
        "이고 하고 이면 이란 란 인가 인가요 인지 나요 까요 가요 요 은요 는요 이요 입니까 습니까 "
        "합니까 한가요 할까요 하나요 되나요 있나요 없나요 되는 하는 하려면 되려면 려면 으면 면"
    ).split(),
    key=len,
    reverse=True,
)
_WORD = re.compile(r"\w+", re.UNICODE)


def question_terms(text: str) -> list[str]:
    """Words of a question worth highlighting in passages, longest first."""
    terms: set[str] = set()
    for word in _WORD.findall(text):
        stem = word
        for ending in _PARTICLES:
            if stem.endswith(ending) and len(stem) - len(ending) >= 2:
                stem = stem[: -len(ending)]
                break
        for candidate in (word, stem):
            if len(candidate) >= 2 and not candidate.isdigit():
                terms.add(candidate)
    return sorted(terms, key=lambda t: (-len(t), t))


def highlight_spans(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Non-overlapping (start, end) spans of the terms in text, in order."""
    if not terms or not text:
        return []
    pattern = re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE)
    return [m.span() for m in pattern.finditer(text)]


def search_terms(text: str) -> list[str]:
    return [t for t in text.split() if t]


def search_corpus(project, text: str, limit: int = 200) -> list[dict]:
    """Passages containing every word typed (FTS trigram for words of three characters or
    more, LIKE for shorter ones, as the store does)."""
    terms = search_terms(text)
    if not terms:
        return []
    return project.store.search_passages(terms, limit)


def passage_context(project, passage_pk: int, around: int = 2) -> tuple[dict | None, list, list]:
    """A passage with its neighbours in corpus order: (passage, before, after)."""
    store = project.store
    found = store.passages_by_pk([passage_pk]).get(passage_pk)
    if found is None:
        return None, [], []
    near = store.neighbours(passage_pk, around, around)
    return (
        found,
        [p for p in near if p["pk"] < passage_pk],
        [p for p in near if p["pk"] > passage_pk],
    )


def source_label(title: str | None, meta: dict, limit: int = 3) -> str:
    """Where a passage comes from, for a table cell: its title and first metadata values."""
    parts = [title] if title else []
    for value in list(meta.values())[:limit]:
        if value in (None, "") or isinstance(value, (dict, list)):
            continue
        text = str(value)
        if text not in parts:
            parts.append(text)
    return " · ".join(parts)


# -- files --------------------------------------------------------------------------------------


def sniff_encoding(path, size: int = 65536) -> str | None:
    """'utf-8' when the start of the file decodes as UTF-8 (a character cut at the end of the
    sample is fine), 'cp949' when it decodes as CP949/EUC-KR, 'utf-16' for a UTF-16 BOM, else
    None."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(size)
    except OSError:
        return None
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    try:
        raw.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as error:
        if error.start >= len(raw) - 3 and len(raw) == size:
            return "utf-8"
    try:
        raw.decode("cp949")
        return "cp949"
    except UnicodeDecodeError as error:
        if error.start >= len(raw) - 1 and len(raw) == size:
            return "cp949"
    return None


def check_cancel(flag) -> Tick:
    """A progress callback that raises Cancelled once `flag()` is true."""

    def tick(done: int, total: int) -> None:
        if flag():
            raise Cancelled()

    return tick
