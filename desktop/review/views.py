"""One question as the window shows it: its evidence items with where each system finds them,
the top K of the systems shown, open disagreements and notes."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter

from desktop.evaluation import metrics, spans
from desktop.evaluation.metrics import Item
from desktop.gold.effective import Decision, EffectiveGold, instant, line_order
from desktop.gold.pool import PoolEntry
from desktop.review import coverage
from desktop.review.reading import Reading, opening
from desktop.review.seen import QuestionRows, question_gold, question_rows
from desktop.review.suggestions import suggestions
from desktop.review.unjudged import left_unjudged, question_pool

TEXT_CHARS = 1500  # of a passage's text: enough for a row's excerpt and its tooltip


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
    # system on another chunking -> how much of the item its top K covers (section 10)
    coverage: dict[str, float] = field(default_factory=dict)
    spans: tuple = ()  # the spans the item is given as (design section 10), if any
    given_as_span: bool = False  # an item given as a span: no passage of its own

    def item(self) -> Item:
        own = () if self.given_as_span else (self.primary_pk,)
        passages = frozenset([*own, *(p for p, _ in self.alternatives)])
        return Item(self.primary_pk, self.role, passages, self.spans)


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
    # on another chunking: (item index, how much of it this passage covers), each item touched
    coverage: list[tuple[int, float]] = field(default_factory=list)


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
    pool: list[PoolEntry] = field(default_factory=list)  # unjudged, in the design's order
    # (title, start of the text) of the items' primary passages and the pool's passages:
    # the panels show these and never ask the project.
    excerpts: dict[int, tuple[str, str]] = field(default_factory=dict)
    # system shown -> its graph context's entities, relationships and report titles
    graph: dict[str, dict] = field(default_factory=dict)
    # (question id, passage id) -> a machine's verdict, from the question's visible lines
    # (in blind mode the reviewer's own alone, so none): the pool queue shows them
    suggestions: dict = field(default_factory=dict)
    # The question's rows its gold was built from (question_rows): a key builds that gold
    # again with its new lines (at_key) without reading them. Not part of what is shown.
    read: QuestionRows | None = field(default=None, repr=False, compare=False)
    # The passage the reader opens the question on, read with the view (reading.opening).
    opening: Reading | None = None

    def item_texts(self) -> dict[int, str]:
        """The start of each evidence item's primary passage text, by passage key."""
        return {
            i.primary_pk: self.excerpts[i.primary_pk][1] or ""
            for i in self.items
            if i.primary_pk in self.excerpts
        }

    def missed(self, system: str) -> list[int]:
        return [
            i.index
            for i in self.items
            if not i.found.get(system, Found(None, None, False)).at(self.k)
        ]


def _latest_by_key(rows: Iterable[dict]) -> dict[tuple[str, str, str], dict]:
    out: dict[tuple[str, str, str], dict] = {}
    for r in sorted(rows, key=line_order):
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
    pool_depth: int | None = None,
    names: dict[int, str] | None = None,
    pool_excerpts: bool = True,
    marks: list[dict] | None = None,
) -> QuestionView:
    """Everything the middle and right of the window show for one question, for the chosen
    systems (one, or two in compare mode), with its unjudged pool at pool_depth when given.
    A handful of indexed queries: cheap enough for the GUI thread on every question switch.
    names: every system's key -> name, when the caller holds them (the pool's systems).
    pool_excerpts: False leaves out the pool's excerpts (the pool queue reads them when it is
    shown; behind the rankings it shows only the pool's size). marks: the reviewer-mark lines,
    when the caller holds them (question_gold)."""
    seen, view = built_view(project, question, systems, k, reviewer, blind, reviewers, marks)
    if pool_depth is not None:
        view.pool = question_pool(project, question, seen, pool_depth, blind, reviewer, names)
    return with_excerpts(project, view, pool_excerpts)


def built_view(
    project,
    question: dict,
    systems: Sequence[dict],
    k: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    marks: list[dict] | None = None,
) -> tuple:
    """The question's gold built once from one read of its log (question_gold) and its view
    (view_of), the view holding the rows read: what a key on the question builds its gold
    again from (at_key). Returns (question_gold's result, the view)."""
    read = question_rows(project, question)
    seen = question_gold(project, question, reviewer, blind, reviewers, marks, read)
    view = view_of(project, question, seen, systems, k, reviewer)
    view.read = read
    return seen, view


def with_excerpts(project, view: QuestionView, pool: bool = True) -> QuestionView:
    """The view with its items' and pool's passage excerpts, in one query, the graph
    contexts of the systems shown (what GraphRAG's context held besides its sources) and the
    passage the reader opens on. A
    passage in a ranking shown is cut from the text its row already holds, not read again.
    pool: False leaves out the pool's passages that are not evidence items."""
    pks = {i.primary_pk for i in view.items} | {e.passage_pk for e in view.pool if pool}
    held = {
        row.passage_pk: (row.title, excerpt(row.text, TEXT_CHARS))
        for rows in view.rankings.values()
        for row in rows
        if row.passage_pk in pks
    }
    rest = pks - held.keys()
    view.excerpts = project.reads.passage_excerpts(rest, TEXT_CHARS) if rest else {}
    view.excerpts.update(held)
    shown = project.reads.graph_contexts(view.pk).items()
    view.graph = {system: parts for system, parts in shown if system in view.rankings}
    view.opening = opening(project, view)
    return view


def unread_pool(view: QuestionView) -> list[int]:
    """The pool's passages whose excerpts the view was built without."""
    return [e.passage_pk for e in view.pool if e.passage_pk not in view.excerpts]


def pool_excerpts(project, passage_pks: list[int]) -> dict:
    """Passage key -> (title, excerpt) as a view holds them, for the pool's passages (the pool
    queue reads them on its worker: operations.pool_reads_op)."""
    return project.reads.passage_excerpts(passage_pks, TEXT_CHARS) if passage_pks else {}


def excerpt(text: str, length: int) -> str:
    """The start of a text as db passage_excerpts gives it: SQLite's length() and substr()
    stop at a NUL character, so a text with one at or before `length` comes whole."""
    if len(text) <= length or "\0" in text[: length + 1]:
        return text
    return text[:length]


def view_of(
    project,
    question: dict,
    seen: tuple[EffectiveGold, list[dict], list[dict]],
    systems: Sequence[dict],
    k: int,
    reviewer: str,
) -> QuestionView:
    """question_view from the question's gold as question_gold gave it (built once, shared
    with the scores on the keypress path)."""
    built, _, rows = seen
    pk = question["pk"]
    judged = _judged_parts(seen, question, reviewer)
    states, latest = judged.states, judged.latest
    items = [s.item() for s in states]
    rankings: dict[str, list[RankedRow]] = {}
    depth: dict[str, int] = {}
    lists: dict[str, list[int]] = {}
    for system in systems:
        passages = lists[system["name"]] = project.reads.ranked_passages(system["pk"], pk)
        depth[system["name"]] = len(passages)
        matches, per_rank = metrics.match(items, passages)
        _record_found(states, system["name"], matches)
        ranked = project.reads.ranking(system["pk"], pk, k)
        rankings[system["name"]] = [
            _ranked_row(row, per_rank, states, judged.not_evidence, judged.proposed_for)
            for row in ranked
        ]
    by_spans(project, states, items, rankings, lists, systems, k)
    notes, disputes = _notes_and_disputes(latest, built, question["id"])
    answer = judged.decisions.get(("answerable", ""))
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
        judged.mine,
        k,
        suggestions=suggestions(rows),
    )


@dataclass
class _Judged:
    """What a question's gold and visible lines make of its items and rows (view_of, at_key)."""

    states: list[ItemState]
    decisions: dict  # (kind, passage id) -> its Decision
    latest: dict
    mine: dict
    not_evidence: set[str]
    proposed_for: dict[str, str]


def _judged_parts(seen, question: dict, reviewer: str) -> _Judged:
    built, evidence, rows = seen
    gold_items = built.items.get(question["pk"], [])
    decisions = {(d.kind, d.passage_id): d for d in built.decisions}
    imported = {e["passage_pk"]: e["role"] for e in evidence}
    latest = _latest_by_key(rows)
    mine = {
        (kind, pid): json.loads(r["value"])
        for (who, kind, pid), r in latest.items()
        if who == reviewer and kind != "note"
    }
    proposed = _proposed(gold_items, latest)
    return _Judged(
        _item_states(gold_items, decisions, imported, proposed),
        decisions,
        latest,
        mine,
        _not_evidence(decisions, mine),
        {pid: primary for primary, pids in proposed.items() for pid in pids},
    )


def _matched_alike(state: ItemState) -> tuple:
    """What where a system finds an item depends on: its passages and spans."""
    return state.primary_pk, state.alternatives, state.spans, state.given_as_span


def at_key(
    project,
    view: QuestionView,
    question: dict,
    lines: Sequence[dict],
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    marks: list[dict] | None,
) -> QuestionView | None:
    """The view with the lines a key just wrote, as the question's rebuild will show them,
    before any worker round trip. The effective role comes from question_gold, the one build
    of the gold's rules, over the rows the view was built from and the new lines (in memory;
    a passage named for the first time costs one read), so the key never shows a second
    copy of the rules. Where the systems find each item and the rankings are kept; a line
    that changes them (an item added or dropped, an alternative in force) needs the
    systems' lists again: None, and the rebuild shows it."""
    if view.read is None:
        return None
    last = max((r.get("pk") or 0 for r in view.read.lines), default=0)
    new = [{**line, "pk": last + n} for n, line in enumerate(lines, 1)]
    read = view.read._replace(lines=[*view.read.lines, *new])
    seen = question_gold(project, question, reviewer, blind, reviewers, marks, read)
    judged = _judged_parts(seen, question, reviewer)
    if [_matched_alike(s) for s in judged.states] != [_matched_alike(s) for s in view.items]:
        return None
    for state, before in zip(judged.states, view.items, strict=True):
        state.found, state.coverage = before.found, before.coverage
    built, _, rows = seen
    notes, disputes = _notes_and_disputes(judged.latest, built, question["id"])
    answer = judged.decisions.get(("answerable", ""))
    rankings = {
        name: [
            replace(
                row,
                not_evidence=row.passage_id in judged.not_evidence,
                proposed_for=judged.proposed_for.get(row.passage_id),
            )
            for row in ranked
        ]
        for name, ranked in view.rankings.items()
    }
    return replace(
        view,
        answerable=built.answerable.get(view.pk, view.imported_answerable),
        answerable_status=answer.status if answer else None,
        answerable_votes=dict(answer.votes) if answer else {},
        items=judged.states,
        rankings=rankings,
        disputes=disputes,
        notes=notes,
        mine=judged.mine,
        pool=left_unjudged(view.pool, rows, reviewer, question["id"]),
        suggestions=suggestions(rows),
        read=read,
    )


def _not_evidence(decisions: dict, mine: dict) -> set[str]:
    """Passages judged not evidence: in force, or by this reviewer."""
    out = {
        pid
        for (kind, pid), d in decisions.items()
        if kind == "not_evidence" and d.counts and d.value is True
    }
    out.update(pid for (kind, pid), v in mine.items() if kind == "not_evidence" and v)
    return out


def by_spans(project, states, items, rankings, lists, systems, k: int) -> None:
    """Systems on another chunking found and covered by the span rule, in place: each item's
    first rank by coverage and its coverage at K, each row's items covered and how much."""
    found = coverage.span_context(project, items, lists, systems)
    if found is None:
        return
    these, known, scored = found
    for name, own in scored:
        ranked = lists[name]
        firsts = coverage.first_found(these, known, ranked)
        ids = project.reads.passage_ids_of(via for _, via in firsts if via is not None)
        at_k = coverage.coverage_at(these, known, ranked, k)
        for state, (rank, via), cov in zip(states, firsts, at_k, strict=True):
            if own and not state.given_as_span:
                continue  # on the gold's chunking a passage item keeps the id rule
            state.found[name] = Found(rank, ids.get(via), False)
            state.coverage[name] = cov
        if own:
            continue  # its rows keep the id rule's marks
        for row in rankings[name]:
            row.coverage = coverage.row_coverage(these, known.get(row.passage_pk))
            row.items = [i for i, cov in row.coverage if cov >= spans.THETA]
            row.primary = False


def _proposed(gold_items, latest: dict) -> dict[str, list[str]]:
    """Primary id -> passages proposed as its alternative (judged, not in force)."""
    in_force_alts = {p for it in gold_items for p in it.alternatives.values()}
    proposed: dict[str, list[str]] = {}
    for (_, kind, pid), r in latest.items():
        value = json.loads(r["value"])
        if kind == "alternative" and isinstance(value, str) and pid not in in_force_alts:
            proposed.setdefault(value, [])
            if pid not in proposed[value]:
                proposed[value].append(pid)
    return proposed


def _item_states(gold_items, decisions: dict, imported: dict, proposed: dict) -> list[ItemState]:
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
                spans=it.as_item().spans,
                given_as_span=it.span is not None,
            )
        )
    return states


def _record_found(states: list[ItemState], system: str, matches) -> None:
    """Where one system finds each item (metrics.match's result, in item order)."""
    for state, m in zip(states, matches, strict=True):
        via = None
        if m.via is not None:
            via = (
                state.primary_id
                if m.via == state.primary_pk
                else dict(state.alternatives).get(m.via)
            )
        state.found[system] = Found(m.rank, via, m.through_alternative)


def _ranked_row(
    row: dict, per_rank, states: list[ItemState], not_evidence: set, proposed_for: dict
) -> RankedRow:
    hit = per_rank[row["rank"] - 1] if row["rank"] <= len(per_rank) else []
    return RankedRow(
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


def _notes_and_disputes(latest: dict, built: EffectiveGold, question_id: str):
    notes = [
        Note(r["reviewer"], r["at"], pid, r["system"], json.loads(r["value"]))
        for (who, kind, pid), r in latest.items()
        if kind == "note" and json.loads(r["value"])
    ]
    notes.sort(key=lambda n: instant(n.at))
    disputes = []
    # Evidence against not evidence (built.conflicts) is listed with the others.
    for d in built.disagreements():
        if d.question_id != question_id:
            continue
        these = {}
        for n in notes:
            if n.passage_id in ("", d.passage_id):
                these[n.reviewer] = (
                    n.text if n.reviewer not in these else f"{these[n.reviewer]}\n{n.text}"
                )
        disputes.append(Dispute(d, dict(d.votes), these))
    return notes, disputes
