"""The report's pass over the questions' gold, one question at a time (issue 12).

Each question's effective gold is built from its own rows (desktop.review.question_gold, the
window's keypress path, which gives what the whole build gives), read for all questions in a
few statements (desktop.review.each_question_rows) rather than five per question; its review
status, notes, pool count and evidence items go into a record, and the rows of the Reviewers
and Gold changes sheets into tables, with the evidence items compare needs, the answerable
flag in force and the item count the bootstrap needs: all held in memory (issue 24: 16 MB at
5,000 questions, measured with tracemalloc). No Qt here.
"""

from __future__ import annotations

import json
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from desktop import review
from desktop.evaluation import metrics
from desktop.evaluation.spans import Span
from desktop.gold import effective as gold
from desktop.gold import pool as pool_module
from desktop.gold.machines import MachineTally

ROLE_WORDS = {
    "core": ("core", "핵심"),
    "supporting": ("supporting", "보조"),
    None: ("unassigned", "미지정"),
}
STATUS_WORDS = {
    gold.ADJUDICATED: "adjudicated 판정",
    gold.AGREED: "agreed 합의",
    gold.SINGLE: "single-reviewed 1인 검수",
    gold.PENDING: "pending second review 검수 대기",
    gold.DISPUTED: "disputed 이견",
}
CHANGE_WORDS = {
    "evidence": "added item 근거 추가",
    "drop": "dropped item 근거 제외",
    "role": "role 역할",
    "alternative": "alternative 대체 근거",
    "not_evidence": "not evidence 근거 아님",
}
CONFLICT_WORDS = "evidence vs not evidence 근거 여부 이견"
UNTOUCHED, IN_PROGRESS, DONE = "untouched", "in progress", "done"
STATUS_OF = {review.UNTOUCHED: UNTOUCHED, review.IN_PROGRESS: IN_PROGRESS, review.DONE: DONE}
# The Reviewers sheet's decision tables and the Gold changes sheet, in question order.
TABLES = ("disputed", "single", "pending", "answerable", "decisions", "changes")
_TABLE_OF_STATUS = {gold.DISPUTED: "disputed", gold.SINGLE: "single", gold.PENDING: "pending"}


def as_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def votes_text(d: gold.Decision) -> str:
    return ", ".join(f"{r}={as_text(v)}" for r, v in sorted(d.votes.items()))


def notes_of(rows) -> list[tuple[str, str, str | None, str]]:
    """[(reviewer, passage id, system, text)] of one question's lines: each reviewer's
    latest note per passage, withdrawn (null or empty) notes left out, by passage and
    reviewer."""
    latest: dict[tuple[str, str], dict] = {}
    notes = sorted(
        (j for j in rows if j["kind"] == "note"),
        key=gold.line_order,
    )
    for row in notes:
        latest[(row["passage_id"], row["reviewer"])] = row
    out = []
    for (pid, reviewer), row in sorted(latest.items()):
        text = json.loads(row["value"])
        if text is None or text == "":
            continue
        out.append((reviewer, pid, row["system"], as_text(text)))
    return out


class Record(NamedTuple):
    """One question as the Per question and Misses rows need it."""

    pk: int
    id: str
    text: str
    answerable: bool  # in force
    # (primary_pk, primary_id, role, ((alternative pk, id), ...), role set by, given as a
    # span, ((document, start, end), ...) the item's spans given)
    items: tuple
    status: str
    unjudged: int | None  # None: the pool does not list the question
    judged: tuple  # J(q)
    notes: tuple

    def gold_items(self) -> list[gold.GoldItem]:
        return [gold.GoldItem(pk, pid, role, dict(alts)) for pk, pid, role, alts, *_ in self.items]

    def metric_items(self) -> list[metrics.Item]:
        """The scorer's items, as GoldItem.as_item makes them: an item given as a span has
        its alternative passages only, and its spans for the span rule."""
        out = []
        for pk, _, role, alts, _, given, spans in self.items:
            passages = frozenset([*([] if given else [pk]), *(a for a, _ in alts)])
            out.append(metrics.Item(pk, role, passages, tuple(Span(*s) for s in spans)))
        return out


@dataclass
class ReviewerLines:
    """One reviewer's lines: per kind, how many, on how many questions, first and last."""

    kinds: Counter = field(default_factory=Counter)
    lines: int = 0
    questions: int = 0
    first: tuple = ()  # (instant, at, pk) of the earliest line
    last: tuple = ()

    def add(self, rows: list[dict], question: bool = True) -> None:
        """question: the rows are one question's (a reviewer's marks are about none)."""
        self.questions += question
        for row in rows:
            self.kinds[row["kind"]] += 1
            self.lines += 1
            key = (gold.instant(row["at"]), row["at"], row.get("pk") or 0)
            if not self.first or key < self.first:
                self.first = key
            if not self.last or key > self.last:
                self.last = key


class QuestionPass:
    """Every question's record and the decision tables, from one pass over the store; run
    inside one read snapshot (project.reads.reading) so that the sheets agree with each other."""

    def __init__(self, project, pool_depth: int):
        self.project = project
        self.pool_depth = pool_depth
        self.reviewer_names = project.reviewers()
        # who is a machine is decided by these for every question (effective.is_machine)
        self.mark_lines = sorted(project.reads.mark_lines(), key=itemgetter("reviewer"))
        self.records: list[Record] = []
        self.tables: dict[str, list[list]] = {name: [] for name in TABLES}
        # evaluated questions only, in question order: key -> its items for the scorer
        self.gold: dict[int, list[metrics.Item]] = {}
        self.answerable: dict[int, bool] = {}  # every question, in question order
        self.denominators = array("l")  # evidence items of each evaluated question
        self.primaries = array("q")  # every evidence item's primary passage, for excerpts
        self.questions = self.core_evaluated = self.lines = 0
        self.by_reviewer = {name: ReviewerLines() for name in self.reviewer_names}
        self.agreement = gold.AgreementTally(self.reviewer_names)
        self.machines = MachineTally()  # each machine against the people's effective gold

    def __iter__(self) -> Iterator[Record]:
        """The records in question order."""
        return iter(self.records)

    @property
    def evaluated(self) -> int:
        return len(self.denominators)

    def run(self) -> None:
        pool = groupby(self.project.reads.pool_passages(self.pool_depth), key=itemgetter(0))
        pending = next(pool, None)
        for question, read in review.each_question_rows(self.project):
            while pending is not None and pending[0] < question["pk"]:
                pending = next(pool, None)
            passages: list[int] = []
            if pending is not None and pending[0] == question["pk"]:
                passages = [row[1] for row in pending[1]]
                pending = next(pool, None)
            self._question(question, read, passages, ranked=bool(passages))
        for _, rows in groupby(
            self.project.reads.orphan_judgements(), key=itemgetter("question_id")
        ):
            # Lines about a question no longer in the database: their decisions are listed.
            rows = list(rows)
            marks = review.reviewer_marks(self.reviewer_names)
            built = gold.build([], [], [], {}, {}, rows + marks + self.mark_lines)
            self._decisions(None, built, rows, ())
        for name, these in groupby(self.mark_lines, key=itemgetter("reviewer")):
            # the reviewer-mark lines, counted once (every question's rows hold them)
            these = list(these)
            self.by_reviewer.setdefault(name, ReviewerLines()).add(these, question=False)
            self.lines += len(these)

    def _question(
        self, question: dict, read: review.QuestionRows, top_passages: list[int], ranked: bool
    ) -> None:
        everyone = self.reviewer_names
        marks = self.mark_lines  # read once for every question
        built, _, rows = review.question_gold(
            self.project, question, "", False, everyone, marks, read
        )
        pk = question["pk"]
        machine_rows = [r for r in gold.as_counted(rows) if r.get("machine")]
        if machine_rows:
            named = self.project.reads.passage_pks({r["passage_id"] for r in machine_rows})
            self.machines.add(machine_rows, built, {question["id"]: pk}, named)
        self.questions += 1
        items = built.items.get(pk, [])
        answerable = built.answerable.get(pk, bool(question["answerable"]))
        self.answerable[pk] = answerable
        judged = built.judged(pk)
        if items:
            metric_items = [i.as_item() for i in items]
            self.gold[pk] = metric_items
            self.denominators.append(len(items))
            # an item given as a span has no primary passage to excerpt (design 10)
            self.primaries.extend(i.primary_pk for i in items if i.span is None)
            self.core_evaluated += any(i.role == "core" for i in items)
        count = pool_module.unjudged_in(top_passages, judged)
        listed = pool_module.listed(count, bool(items), ranked)
        decided = {(d.kind, d.passage_id): d for d in built.decisions}
        open_ = sum(1 for d in built.decisions if d.status in (gold.PENDING, gold.DISPUTED))
        notes = notes_of(rows)
        self.records.append(
            Record(
                pk,
                question["id"],
                question["text"],
                answerable,
                tuple(
                    (
                        i.primary_pk,
                        i.primary_id,
                        i.role,
                        tuple(i.alternatives.items()),
                        role_set_by(decided.get(("role", i.primary_id))),
                        i.span is not None,  # given as a span: no passage of its own
                        tuple((s.document, s.start, s.end) for s in i.as_item().spans),
                    )
                    for i in items
                ),
                STATUS_OF[review.review_status(rows, items, None, open_)],
                count if listed else None,
                tuple(judged),
                tuple(notes),
            )
        )
        self._decisions(question, built, [r for r in rows if r["kind"] != gold.MARK], notes)

    def _decisions(self, question: dict | None, built: gold.EffectiveGold, rows, notes) -> None:
        for name, these in groupby(
            sorted(rows, key=itemgetter("reviewer")), itemgetter("reviewer")
        ):
            self.by_reviewer.setdefault(name, ReviewerLines()).add(list(these))
        self.lines += len(rows)
        self.agreement.add(built.decisions, built.conflicts)
        tables = self.tables
        for d in built.decisions:
            in_force = self._in_force(d, question, built)
            row = [d.question_id, d.kind, d.passage_id, votes_text(d), in_force]
            if d.status in _TABLE_OF_STATUS:
                tables[_TABLE_OF_STATUS[d.status]].append(row)
            if d.status == gold.DISPUTED and d.kind == "answerable":
                tables["answerable"].append(
                    [
                        d.question_id,
                        question["text"] if question else "",
                        bool(question["answerable"]) if question else None,
                        votes_text(d),
                    ]
                )
            tables["decisions"].append(
                [
                    d.question_id,
                    d.kind,
                    d.passage_id,
                    d.status,
                    d.counts,
                    votes_text(d),
                    d.adjudicator,
                    as_text(d.value) if d.counts else in_force,
                ]
            )
        changes = [(d, CHANGE_WORDS[d.kind]) for d in built.decisions if d.kind in CHANGE_WORDS]
        conflicts = [(d, CONFLICT_WORDS) for d in built.conflicts]
        for d, change in sorted(changes + conflicts, key=lambda c: (c[0].question_id, c[1])):
            said = [f"{who}: {text}" for who, pid, _, text in notes if pid == d.passage_id]
            tables["changes"].append(
                [
                    d.question_id,
                    change,
                    d.passage_id,
                    votes_text(d),
                    STATUS_WORDS[d.status],
                    as_text(d.value) if d.counts else "",
                    "\n".join(said),
                ]
            )

    @staticmethod
    def _in_force(d: gold.Decision, question: dict | None, built: gold.EffectiveGold) -> str:
        """What the effective gold holds for a decision's subject."""
        if d.counts:
            return as_text(d.value)
        if question is None:
            return ""
        if d.kind == "answerable":
            return as_text(built.answerable.get(question["pk"]))
        if d.kind == "role":
            for item in built.items.get(question["pk"], ()):
                if item.primary_id == d.passage_id:
                    return ROLE_WORDS[item.role][0] + " (imported 가져온 정답)"
        return "imported gold 가져온 정답"


def role_set_by(decision: gold.Decision | None) -> str:
    """Who set an item's role: the reviewers of the decision in force, or the imported gold
    (with the votes that did not settle it)."""
    if decision is not None and decision.counts:
        votes = votes_text(decision)
        if decision.status == gold.ADJUDICATED:
            text = f"{decision.adjudicator} ({STATUS_WORDS[gold.ADJUDICATED]})"
            return f"{text}; votes: {votes}" if votes else text
        names = ", ".join(sorted(decision.votes))
        return f"{names} ({STATUS_WORDS[decision.status]})"
    text = "imported gold 가져온 정답"
    if decision is not None and decision.votes:
        text += f"; {STATUS_WORDS[decision.status]}: {votes_text(decision)}"
    return text
