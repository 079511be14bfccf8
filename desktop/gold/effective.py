"""The effective gold: imported evidence with the reviewers' judgements applied (design 6).

For each (question, kind, passage) the log is read as every reviewer's latest line; a null
value means that reviewer withdrew their judgement. An adjudication wins; else a value every
reviewer who judged agrees on counts, but a value from one reviewer alone counts only when that
reviewer is the only one in the database (it is then marked single-reviewed); anything else
leaves the imported gold standing and, where values differ, is a disagreement.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

from desktop.evaluation.metrics import Item
from desktop.evaluation.spans import Span
from desktop.gold.span_items import SpanKey, span_key
from desktop.gold.team import TeamTally

DECIDED_KINDS = ("role", "alternative", "not_evidence", "answerable", "evidence", "drop")
# The order decisions are applied in: an added item exists before its role or alternatives
# are set, and a drop removes whatever the other kinds made of the item.
APPLY_ORDER = {"evidence": 0, "role": 1, "alternative": 2, "not_evidence": 3, "drop": 4}

ADJUDICATED, AGREED, SINGLE, PENDING, DISPUTED = (
    "adjudicated",
    "agreed",
    "single",
    "pending",
    "disputed",
)
COUNTS = (ADJUDICATED, AGREED, SINGLE)


@dataclass
class Decision:
    question_id: str
    kind: str
    passage_id: str
    votes: dict[str, object]  # reviewer -> latest non-withdrawn value
    status: str
    value: object = None  # the value in force when status counts
    adjudicator: str | None = None
    notes: dict[str, str] = field(default_factory=dict)
    span: Span | None = None  # a decision about a span: passage_id holds its key

    def __post_init__(self):
        # Keyed by a SpanKey (target_of), kept as its span and a plain str key: the report
        # marshals decisions' fields, which takes str itself only.
        if isinstance(self.passage_id, SpanKey):
            self.span = self.passage_id.span
            self.passage_id = str(self.passage_id)

    @property
    def counts(self) -> bool:
        return self.status in COUNTS


def instant(at: str) -> float:
    """Seconds since the epoch of an ISO time; times without an offset are taken as UTC, so
    that lines written in two time zones order by when they happened, not by their text."""
    moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def line_order(row: dict) -> tuple[float, int]:
    """The order of judgement lines: by when they were written, then by their place in the
    log (lines of one instant keep the order they were added in)."""
    return instant(row["at"]), row.get("pk") or 0


MARK = "machine"  # the reviewer-mark kind: its reviewer is a machine (true) or a person (false)


def machine_marks(rows: Iterable[dict]) -> dict[str, bool]:
    """Reviewer -> the value of the latest reviewer-mark line about them (a null one
    withdraws the mark), from log rows."""
    marks: dict[str, bool] = {}
    for row in sorted((r for r in rows if r["kind"] == MARK), key=line_order):
        value = json.loads(row["value"])
        if value is None:
            marks.pop(row["reviewer"], None)
        else:
            marks[row["reviewer"]] = bool(value)
    return marks


def is_machine(row: dict, marks: dict[str, bool]) -> bool:
    """The one rule of who is a machine (issue 22): the latest reviewer-mark line about the
    line's reviewer decides for all their lines, before and after it; without one, the
    line's own mark (`import judgements --machine`, "machine": true) stands."""
    return marks.get(row["reviewer"], bool(row.get("machine")))


def as_counted(rows: Iterable[dict]) -> list[dict]:
    """Log rows as the gold, agreement and status read them: the reviewer-mark lines taken
    out and every other row's `machine` set by is_machine. Reading the result again changes
    nothing (it holds no mark lines)."""
    rows = list(rows)
    marks = machine_marks(rows)
    out = []
    for row in rows:
        if row["kind"] == MARK:
            continue
        machine = is_machine(row, marks)
        out.append(row if machine == bool(row.get("machine")) else {**row, "machine": int(machine)})
    return out


def people_and_machines(
    reviewer_lines: Iterable[tuple[str, bool, bool]], marks: dict[str, bool]
) -> tuple[list[str], list[str]]:
    """The people and the machines among the reviewers (Store.reviewer_lines: name, has a
    person's line, has a machine's line), by is_machine: a marked reviewer is one or the
    other; an unmarked one is a person for their person's lines and a machine for their
    machine's lines."""
    people, machines = [], []
    for name, person_lines, machine_lines in reviewer_lines:
        if name in marks:
            (machines if marks[name] else people).append(name)
            continue
        if person_lines:
            people.append(name)
        if machine_lines:
            machines.append(name)
    return people, machines


def latest_values(judgements: Iterable[dict]) -> tuple[dict, dict, set[str]]:
    """From log rows (dicts as the store returns them): latest value per (question, kind,
    passage) per reviewer, the latest adjudication per key, and every reviewer in the log;
    machines' lines (by is_machine) are left out."""
    judgements = sorted(as_counted(judgements), key=line_order)
    votes: dict[tuple[str, str, str], dict[str, object]] = {}
    adjudications: dict[tuple[str, str, str], tuple[str, object]] = {}
    reviewers: set[str] = set()
    for row in judgements:
        if row.get("machine"):
            continue  # a machine's line never counts towards the gold (design 6)
        if row["kind"] == "dismissed":
            continue  # the reviewer's own candidate list: not the gold, nor a reviewer of it
        reviewers.add(row["reviewer"])
        value = json.loads(row["value"])
        kind = row["kind"]
        target = target_of(row)
        if kind == "adjudication":
            key = (row["question_id"], row["settles"], target)
            if value is None:
                adjudications.pop(key, None)
            else:
                adjudications[key] = (row["reviewer"], value)
            continue
        if kind not in DECIDED_KINDS:
            continue
        key = (row["question_id"], kind, target)
        per_reviewer = votes.setdefault(key, {})
        if value is None:
            per_reviewer.pop(row["reviewer"], None)
        else:
            per_reviewer[row["reviewer"]] = value
    return votes, adjudications, reviewers


def target_of(row: dict) -> str:
    """What a judgement line judges: its passage id, or for a line given a span (design 10)
    the span's key as a SpanKey, so that the decisions about a span item are keyed apart from
    any passage's."""
    return SpanKey(row["span"]) if row.get("span") else row["passage_id"]


def named_passages(judgements: Iterable[dict]) -> set[str]:
    """Every passage id judgement lines name: their passage, and the item an alternative (or
    an adjudication of one) points at."""
    named = set()
    for row in judgements:
        if row["passage_id"]:
            named.add(row["passage_id"])
        if row["kind"] in ("alternative", "adjudication"):
            value = json.loads(row["value"])
            if isinstance(value, str):
                named.add(value)
    return named


def evidence_conflicts(votes: dict, adjudications: dict) -> list[Decision]:
    """A passage one reviewer adds as evidence and another judges not evidence: a
    disagreement (votes True for evidence, False for not evidence) until an adjudication
    settles either kind for it. It does not change which decision is in force."""
    out = []
    for (question_id, kind, passage_id), these in sorted(votes.items()):
        if kind != "evidence":
            continue
        against = votes.get((question_id, "not_evidence", passage_id), {})
        adders = {who for who, v in these.items() if v is True}
        deniers = {who for who, v in against.items() if v is True} - adders
        settled = any(
            (question_id, k, passage_id) in adjudications for k in ("evidence", "not_evidence")
        )
        if adders and deniers and not settled:
            both = {**dict.fromkeys(adders, True), **dict.fromkeys(deniers, False)}
            out.append(Decision(question_id, "evidence", passage_id, both, DISPUTED))
    return out


def decide(judgements: Iterable[dict]) -> list[Decision]:
    votes, adjudications, reviewers = latest_values(judgements)
    return _decide(votes, adjudications, reviewers)


def _decide(votes: dict, adjudications: dict, reviewers: set[str]) -> list[Decision]:
    decisions = []
    for key in sorted(set(votes) | set(adjudications)):
        question_id, kind, passage_id = key
        these = votes.get(key, {})
        if key in adjudications:
            who, value = adjudications[key]
            decisions.append(
                Decision(question_id, kind, passage_id, dict(these), ADJUDICATED, value, who)
            )
            continue
        if not these:
            continue
        values = {json.dumps(v, sort_keys=True) for v in these.values()}
        if len(values) > 1:
            status, value = DISPUTED, None
        elif len(these) >= 2:
            status, value = AGREED, next(iter(these.values()))
        elif len(reviewers) == 1:
            status, value = SINGLE, next(iter(these.values()))
        else:
            status, value = PENDING, None
        decisions.append(Decision(question_id, kind, passage_id, dict(these), status, value))
    return decisions


@dataclass(slots=True)  # one per evidence item, kept by every gold the window holds
class GoldItem:
    """An evidence item in passage keys, with where its role came from."""

    primary_pk: int | str  # an item given as a span: its span key, as primary_id
    primary_id: str
    role: str | None
    alternatives: dict[int, str]  # passage_pk -> passage_id
    role_status: str | None = None  # a Decision status when a judgement changed the role
    span: Span | None = None  # an item given as a span (design section 10), no passage
    alternative_spans: list[Span] = field(default_factory=list)

    def as_item(self) -> Item:
        """The scorer's item. One given as a span has no primary passage: its passages are
        its alternative passages only, and its spans come first in Item.spans (the span
        rule scores it on every run, span_scores.span_items)."""
        spans = ((self.span,) if self.span else ()) + tuple(self.alternative_spans)
        if self.span is not None:
            return Item(self.primary_pk, self.role, frozenset(self.alternatives), spans)
        passages = frozenset([self.primary_pk, *self.alternatives])
        return Item(self.primary_pk, self.role, passages, spans)


@dataclass
class EffectiveGold:
    items: dict[int, list[GoldItem]]  # question_pk -> evidence items
    answerable: dict[int, bool]  # question_pk -> answerable in force
    decisions: list[Decision]
    conflicts: list[Decision] = field(default_factory=list)  # evidence vs not evidence
    # question_pk -> passages judged without being effective evidence: not evidence in
    # force, imported level 0, the passages of dropped items (with the items, J(q)).
    judged_out: dict[int, set[int]] = field(default_factory=dict)

    def metric_items(self) -> dict[int, list[Item]]:
        return {q: [i.as_item() for i in items] for q, items in self.items.items()}

    def disagreements(self) -> list[Decision]:
        return [d for d in self.decisions if d.status == DISPUTED] + self.conflicts

    def judged(self, question_pk: int) -> set[int]:
        """J(q): every passage of an effective item and every passage judged otherwise."""
        out = set(self.judged_out.get(question_pk, ()))
        for item in self.items.get(question_pk, ()):
            if item.span is None:  # an item given as a span has no passage of its own
                out.add(item.primary_pk)
            out.update(item.alternatives)
        return out


def build(
    questions: Sequence[dict],
    evidence: Sequence[tuple[int, int, int, str | None]],
    alternatives: Sequence[tuple[int, int]],
    passage_ids: dict[int, str],
    passage_pks: dict[str, int],
    judgements: Sequence[dict],
    not_evidence: Sequence[tuple[int, int]] = (),
    span_items: Sequence[tuple] = (),
    span_alternatives: Sequence[tuple] = (),
) -> EffectiveGold:
    """questions: store rows (pk, id, answerable); evidence: (question_pk, item_pk, passage_pk,
    role); alternatives: (item_pk, passage_pk); passage_ids / passage_pks map keys and ids for
    every passage named by gold and judgements; not_evidence: (question_pk, passage_pk) the
    imported gold judges not evidence; span_items and span_alternatives: the items given as
    spans and the alternatives given as spans or of such items (db/gold.py's rows)."""
    by_item: dict[int, GoldItem] = {}
    items: dict[int, list[GoldItem]] = {q["pk"]: [] for q in questions}
    for question_pk, item_pk, passage_pk, role in evidence:
        item = GoldItem(passage_pk, passage_ids[passage_pk], role, {})
        by_item[item_pk] = item
        items.setdefault(question_pk, []).append(item)
    for item_pk, passage_pk in alternatives:
        by_item[item_pk].alternatives[passage_pk] = passage_ids[passage_pk]
    _imported_spans(items, by_item, span_items, span_alternatives, passage_ids)
    answerable = {q["pk"]: bool(q["answerable"]) for q in questions}
    question_pk_of = {q["id"]: q["pk"] for q in questions}

    judged_out: dict[int, set[int]] = {}
    for question_pk, passage_pk in not_evidence:
        judged_out.setdefault(question_pk, set()).add(passage_pk)

    votes, adjudications, reviewers = latest_values(judgements)
    decisions = _decide(votes, adjudications, reviewers)
    for d in sorted(decisions, key=lambda d: APPLY_ORDER.get(d.kind, -1)):
        if not d.counts:
            continue
        question_pk = question_pk_of.get(d.question_id)
        if question_pk is None:
            continue
        these = items.setdefault(question_pk, [])
        if d.kind == "answerable":
            answerable[question_pk] = bool(d.value)
            continue
        if d.span is not None:
            _apply_span(d, SpanKey(d.passage_id), these, judged_out, question_pk)
            continue
        passage_pk = passage_pks.get(d.passage_id)
        if passage_pk is None:
            continue
        _apply(d, passage_pk, these, judged_out, question_pk)
    conflicts = evidence_conflicts(votes, adjudications)
    return EffectiveGold(items, answerable, decisions, conflicts, judged_out)


def _apply(d: Decision, passage_pk: int, these: list[GoldItem], judged_out, question_pk) -> None:
    """One decision on a passage of a question whose items are these."""
    if d.kind == "evidence":
        if d.value is True and all(item.primary_pk != passage_pk for item in these):
            these.append(GoldItem(passage_pk, d.passage_id, None, {}))
    elif d.kind == "drop":
        if d.value is True:
            for item in [i for i in these if i.primary_pk == passage_pk]:
                these.remove(item)
                judged_out.setdefault(question_pk, set()).update(
                    [item.primary_pk, *item.alternatives]
                )
    elif d.kind == "role":
        for item in these:
            if item.primary_pk == passage_pk:
                item.role = d.value
                item.role_status = d.status
    elif d.kind == "alternative":
        for item in these:
            item.alternatives.pop(passage_pk, None)
        for item in these:
            if item.primary_id == d.value and item.primary_pk != passage_pk:
                item.alternatives[passage_pk] = d.passage_id
    elif d.kind == "not_evidence" and d.value is True:
        # Only an alternative can be struck this way; a primary passage stays evidence.
        for item in these:
            item.alternatives.pop(passage_pk, None)
        judged_out.setdefault(question_pk, set()).add(passage_pk)


def _imported_spans(items, by_item, span_items, span_alternatives, passage_ids) -> None:
    """The imported items given as spans, after the passage items of their question, and the
    alternatives of span items and span alternatives of passage items."""
    by_span_item: dict[int, GoldItem] = {}
    for question_pk, pk, document, start, end, role in span_items:
        key = str(span_key(document, start, end))  # plain str: the report marshals it
        item = GoldItem(key, key, role, {}, span=Span(document, start, end))
        by_span_item[pk] = item
        items.setdefault(question_pk, []).append(item)
    for item_pk, span_item_pk, passage_pk, document, start, end in span_alternatives:
        owner = by_item[item_pk] if item_pk is not None else by_span_item[span_item_pk]
        if passage_pk is not None:
            owner.alternatives[passage_pk] = passage_ids[passage_pk]
        else:
            owner.alternative_spans.append(Span(document, start, end))


def _apply_span(d: Decision, key: SpanKey, these: list[GoldItem], judged_out, question_pk):
    """One decision on a span of a question (design 10): an item given as that span added,
    dropped or given a role, or the span made an alternative of an item (d.value names it:
    a primary passage id or a span key)."""
    mine = [item for item in these if item.span is not None and item.primary_id == key]
    if d.kind == "evidence":
        if d.value is True and not mine:
            these.append(GoldItem(str(key), str(key), None, {}, span=key.span))
    elif d.kind == "drop":
        if d.value is True:
            for item in mine:
                these.remove(item)
                judged_out.setdefault(question_pk, set()).update(item.alternatives)
    elif d.kind == "role":
        for item in mine:
            item.role = d.value
            item.role_status = d.status
    elif d.kind == "alternative":
        span = key.span
        for item in these:
            if span in item.alternative_spans:
                item.alternative_spans.remove(span)
        for item in these:
            if item.primary_id == d.value and item.span != span:
                item.alternative_spans.append(span)


# -- agreement ----------------------------------------------------------------------------------


def cohen_kappa(pairs: Sequence[tuple[object, object]]) -> tuple[float, float | None]:
    """(observed agreement, Cohen's kappa) over paired labels. Kappa is None when chance
    agreement is 1 (both reviewers always gave one and the same value): it is undefined."""
    tally = _PairTally()
    for a, b in pairs:
        tally.add(a, b)
    return tally.kappa()


class _PairTally:
    """Counts for Cohen's kappa, kept as pairs come: how many, how many equal, and each
    side's label counts (labels compared as canonical JSON)."""

    __slots__ = ("n", "same", "first", "second")

    def __init__(self) -> None:
        self.n = self.same = 0
        self.first: dict[str, int] = {}
        self.second: dict[str, int] = {}

    def add(self, a: object, b: object) -> None:
        a_key, b_key = json.dumps(a, sort_keys=True), json.dumps(b, sort_keys=True)
        self.n += 1
        self.same += a_key == b_key
        self.first[a_key] = self.first.get(a_key, 0) + 1
        self.second[b_key] = self.second.get(b_key, 0) + 1

    def kappa(self) -> tuple[float, float | None]:
        n = self.n
        if n == 0:
            return 0.0, None
        observed = self.same / n
        chance = sum(c * self.second.get(v, 0) for v, c in self.first.items()) / (n * n)
        if chance >= 1.0:
            return observed, None
        return observed, (observed - chance) / (1.0 - chance)


class AgreementTally:
    """Design section 6's agreement object, gathered a question at a time (the report reads
    the log question by question): ``add`` each question's latest values and decisions."""

    def __init__(self, reviewers: Iterable[str]):
        names = sorted(set(reviewers))
        self._pairs = {
            (a, b, kind): _PairTally()
            for i, a in enumerate(names)
            for b in names[i + 1 :]
            for kind in DECIDED_KINDS
        }
        self.disagreements = 0
        self.team = TeamTally(names)  # Krippendorff's α of everyone together

    def add(self, decisions: Sequence[Decision], conflicts: Sequence[Decision]) -> None:
        """Some questions' decisions (made knowing every reviewer in the database: each holds
        the latest value of every reviewer who judged its item) and evidence conflicts."""
        for d in decisions:
            these = d.votes
            self.team.add(d.kind, these)
            if d.kind not in DECIDED_KINDS or len(these) < 2:
                continue
            for a in these:
                for b in these:
                    if a < b and (a, b, d.kind) in self._pairs:
                        self._pairs[(a, b, d.kind)].add(these[a], these[b])
        self.disagreements += sum(1 for d in decisions if d.status == DISPUTED) + len(conflicts)

    def result(self) -> dict:
        pairs_out = []
        for (a, b, kind), tally in self._pairs.items():
            if not tally.n:
                continue
            observed, kappa = tally.kappa()
            pairs_out.append(
                {
                    "reviewers": [a, b],
                    "kind": kind,
                    "items": tally.n,
                    "agreement": observed,
                    "kappa": kappa,
                }
            )
        return {"pairs": pairs_out, "disagreements": self.disagreements, **self.team.result()}


def agreement(judgements: Sequence[dict]) -> dict:
    """Design section 6's agreement object: per reviewer pair and kind, over the items both
    judged (latest value each), percent agreement and Cohen's kappa; and the open
    disagreements."""
    votes, adjudications, reviewers = latest_values(judgements)
    tally = AgreementTally(reviewers)
    tally.add(_decide(votes, adjudications, reviewers), evidence_conflicts(votes, adjudications))
    return tally.result()
