"""The span rule in the window (design section 10): the runs whose passages have spans are
scored question by question by the command line's own step (evaluation.span_scores.rescore),
so a run on another chunking (a GraphRAG context, a 500-character chunking) shows the figures
`metrics --budget --coverage` prints, not the id rule's 0. Runs on the gold's chunking keep the
id rule's figures and gain the span measures."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from desktop.evaluation import span_scores, spans
from desktop.evaluation.metrics import Item
from desktop.review.scores import Entry, labels_for

DEFAULT_BUDGET = 2000  # characters: the study's context length (issue 26's side-by-side)
DEFAULT_THETA = spans.THETA
# Why a figure is shown greyed (the window words the reason): a run on another chunking has no
# nDCG, P or Judged; an unranked run's rank measures and cut-offs shorter than its context
# follow an order that is not a ranking (design section 11).
ACROSS, UNRANKED = "across", "unranked"
RANK_MEASURES = ("MRR", "nDCG")


@dataclass(frozen=True)
class SpanChoice:
    """What the reviewer chose for the span rule: the budgets of characters and θ."""

    budgets: tuple[int, ...] = (DEFAULT_BUDGET,)
    theta: float = spans.THETA
    # The systems the full pass scored by spans: one question's list alone cannot say (an
    # empty list has no passage to have a span), so a judged question's rescore is told.
    systems: frozenset[str] | None = None


DEFAULT_CHOICE = SpanChoice()


@dataclass
class SpanScoring:
    """The span rule's setting for one pass and the systems it scores (every passage of their
    runs has a span), with each question's items prepared once for every system."""

    setting: span_scores.SpanSetting
    systems: frozenset[str]
    ks: list[int]
    prepared: dict[Hashable, spans.SpanQuestion | None] = field(default_factory=dict)
    # unranked system -> (its longest context in passages, in characters)
    unranked: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def extra(self) -> tuple[str, ...]:
        """The labels the span rule adds after the id rule's (SpanRecall@K, budgets)."""
        return span_scores.new_labels(self.ks, self.setting.budgets)

    def across(self, system: str) -> bool:
        """The system's run is on another chunking than the one the gold was judged on."""
        return system in self.systems and system not in self.setting.own

    def why_greyed(self, system: str, label: str) -> str | None:
        """ACROSS, UNRANKED or None: why this figure of this system is not a fair one."""
        measure, at = label.split("@")
        if self.across(system) and measure in (*spans.ID_ONLY_MEASURES, "Judged"):
            return ACROSS
        if system not in self.unranked:
            return None
        passages, characters = self.unranked[system]
        if measure in RANK_MEASURES:
            return UNRANKED
        shorter = int(at[:-2]) < characters if at.endswith("ch") else int(at) < passages
        return UNRANKED if shorter else None

    def question(self, q: Hashable, items: Sequence[Item]) -> spans.SpanQuestion | None:
        if q not in self.prepared:
            these = span_scores.span_items(items, self.setting.spans) if items else None
            self.prepared[q] = spans.SpanQuestion(these, self.setting.theta) if these else None
        return self.prepared[q]

    def rescored(
        self, system: str, q: Hashable, items: Sequence[Item], entry: Entry, ranked, depth: int
    ) -> Entry:
        """One system on one question: the id rule's entry with the span rule applied, by the
        command line's step; a system not scored by spans gains None for the span labels."""
        values = dict(zip(labels_for(self.ks), entry.values, strict=True))
        if system not in self.systems:
            return Entry(entry.first, entry.values + (None,) * len(self.extra))
        known = self.setting.spans
        pairs = [(p, known[p]) for p in ranked]
        prep = self.question(q, items)
        own = system in self.setting.own
        span_scores.rescore(values, prep, pairs, self.ks, self.setting.budgets, own)
        first = entry.first
        if prep is not None and not own:
            first = tuple(prep.first_found(pairs, depth))
        names = labels_for(self.ks) + list(self.extra)
        return Entry(first, tuple(values[name] for name in names))

    def rescorer(self, items, runs, depth: int):
        """rescored() for the full pass: (system, question, id entry) -> entry."""

        def rescore(system: str, q: Hashable, entry: Entry) -> Entry:
            ranked = runs.get(system, {}).get(q, ())
            return self.rescored(system, q, items[q], entry, ranked, depth)

        return rescore


def scoring(
    project, items: Mapping[Hashable, Sequence[Item]], runs, ks, choice: SpanChoice
) -> SpanScoring | None:
    """The span rule for these runs (system -> question -> ranked passage keys, whole lists),
    or None when the store has no documents or no run has spans: then the window scores by
    ids alone, exactly as before."""
    if not project.reads.document_count():
        return None
    setting = project.span_setting(items, runs, list(choice.budgets), choice.theta)
    if choice.systems is not None:
        scored = choice.systems & runs.keys()
    else:
        scored = frozenset(name for name, lists in runs.items() if setting.spanned(lists))
    if not scored:
        return None
    return SpanScoring(setting, scored, sorted(set(ks)))


def full_pass(project, items, ks, choice: SpanChoice | None):
    """(the span rule for every run, every run's whole lists) for the window's full pass, or
    (None, {}) when nothing has spans (no list is read then: the id pass reads only hits)."""
    if choice is None or not project.reads.document_count():
        return None, {}
    runs = project.runs(None)
    found = scoring(project, items, runs, ks, choice)
    if found is not None:
        flagged = [s["name"] for s in project.reads.systems() if s.get("unranked")]
        known = found.setting.spans
        for name in flagged:
            lists = runs.get(name, {}).values()
            found.unranked[name] = (
                max(map(len, lists), default=0),
                max((sum(len(known[p]) for p in ps if p in known) for ps in lists), default=0),
            )
    return found, runs


def one_question(project, q, items, lists, ks, choice: SpanChoice | None, entries):
    """A judged question's entries (system -> Entry) with the span rule applied; lists:
    system -> the question's whole ranked list."""
    if choice is None or not items:
        return entries
    found = scoring(project, {q: items}, {s: {q: ps} for s, ps in lists.items()}, ks, choice)
    if found is None:
        return entries
    # the board's depth; read only here: max(rank) scans every result (the keypress path)
    depth = max(1, project.reads.max_rank() or max(ks))
    return {
        system: None
        if entry is None
        else found.rescored(system, q, items, entry, lists[system], depth)
        for system, entry in entries.items()
    }
