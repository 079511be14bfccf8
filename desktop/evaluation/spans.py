"""Evidence as spans (design section 10): a span is (document, start, end) in code points of
the document's NFC text, half-open. This module holds the rules only, as pure code over plain
data: locating a passage's text in its document, the context U a ranked list of passage spans
gives at K or at a character budget, coverage, the span rule's measures and the projection of
an item's spans onto another chunking. No store, no Qt: the store, readers, metrics, window and
report wire it in.

Offsets are counted after NFC normalisation (the readers normalise every text on import), so
every text handed in here must already be NFC.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, order=True)
class Span:
    """Code points [start, end) of one document's text."""

    document: str
    start: int
    end: int

    def __post_init__(self):
        if not 0 <= self.start < self.end:
            raise ValueError(f"a span needs 0 <= start < end, not {self.start}..{self.end}")

    def __len__(self) -> int:
        return self.end - self.start

    def check(self, document_length: int) -> None:
        """Refuses a span that runs past its document's text (the readers turn the ValueError
        into FILE:LINE)."""
        if self.end > document_length:
            raise ValueError(
                f"span {self.start}..{self.end} runs past the end of document {self.document!r} "
                f"({document_length} characters)"
            )


def locate(passage_text: str, document_text: str, start_hint: int = 0) -> tuple[int, int] | None:
    """Where a passage's text lies in its document, as (start, end) code points of the document,
    or None when it is not there. Exact first; then ignoring whitespace differences (a run of
    whitespace matches any run, and whitespace present on one side only is ignored), the span
    then running from the first to the last non-whitespace character matched.

    The first occurrence at or after start_hint wins, exact or not (chunkings cut in order: the
    caller passes where the previous passage began, so repeated text lands on the right copy);
    when there is none after the hint, the first occurrence anywhere."""
    if not passage_text or passage_text.isspace():
        return None
    for origin in (start_hint, 0) if start_hint else (0,):
        at = document_text.find(passage_text, origin)
        if at >= 0:
            return at, at + len(passage_text)
        found = _locate_ignoring_whitespace(passage_text, document_text, origin)
        if found:
            return found
    return None


def _locate_ignoring_whitespace(
    passage_text: str, document_text: str, origin: int
) -> tuple[int, int] | None:
    needle = "".join(passage_text.split())
    squeezed, positions = _without_whitespace(document_text)
    at = squeezed.find(needle, bisect_left(positions, origin))
    if at < 0:
        return None
    return positions[at], positions[at + len(needle) - 1] + 1


@lru_cache(maxsize=4)
def _without_whitespace(text: str) -> tuple[str, list[int]]:
    """The text with whitespace removed and, per kept character, its offset in the text. Kept
    for the last few documents: an import locates many passages in one document in a row."""
    positions = [i for i, char in enumerate(text) if not char.isspace()]
    return "".join([text[i] for i in positions]), positions


# Intervals: per document, a sorted list of disjoint (start, end) pairs, touching ones joined.
Intervals = list[tuple[int, int]]
THETA = 0.5
SPAN_MEASURES = ("Recall", "CoreRecall", "Hit", "MRR", "SpanRecall", "SpanPrecision")
ID_ONLY_MEASURES = ("nDCG", "P")
ACROSS_CHUNKINGS = (
    "nDCG and P@K are not defined across chunkings: a passage of another chunking is not one "
    "judged passage, so neither its gain nor its relevance is known (design section 10)"
)


def merge(spans: Iterable[Span]) -> dict[str, Intervals]:
    """Spans as disjoint intervals per document: the characters they cover, each once."""
    by_document: dict[str, Intervals] = {}
    for span in spans:
        by_document.setdefault(span.document, []).append((span.start, span.end))
    return {document: _joined(sorted(pairs)) for document, pairs in by_document.items()}


def _joined(pairs: Iterable[tuple[int, int]]) -> Intervals:
    out: Intervals = []
    for start, end in pairs:
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def overlap(start: int, end: int, pairs: Intervals) -> int:
    """|[start, end) ∩ pairs|, pairs disjoint and sorted."""
    i = bisect_left(pairs, (start,))
    if i:
        i -= 1  # the interval before may reach into [start, end)
    total = 0
    while i < len(pairs) and pairs[i][0] < end:
        total += max(0, min(end, pairs[i][1]) - max(start, pairs[i][0]))
        i += 1
    return total


def _outside(start: int, end: int, pairs: Intervals) -> Intervals:
    """The parts of [start, end) that pairs do not cover."""
    out: Intervals = []
    i = bisect_left(pairs, (start,))
    if i:
        i -= 1
    at = start
    while i < len(pairs) and pairs[i][0] < end:
        if pairs[i][0] > at:
            out.append((at, pairs[i][0]))
        at = max(at, pairs[i][1])
        i += 1
    if at < end:
        out.append((at, end))
    return out


def _add(start: int, end: int, pairs: Intervals) -> None:
    """Adds [start, end) to pairs in place, joining what it touches (no re-sort: U grows one
    passage at a time, up to the largest K)."""
    i = bisect_left(pairs, (start,))
    if i and pairs[i - 1][1] >= start:
        i -= 1
        start = pairs[i][0]
    j = i
    while j < len(pairs) and pairs[j][0] <= end:
        end = max(end, pairs[j][1])
        j += 1
    pairs[i:j] = [(start, end)]


def prefix(ranked: Sequence[Span], k: int | None = None, budget: int | None = None) -> list[Span]:
    """The passages that make the context: the first k, or for a budget the shortest prefix
    reaching budget characters, its last passage cut to its first characters so the prefix
    holds exactly budget. Every passage's full length counts towards the budget, characters
    repeated by overlapping neighbours included: the reader of the context pays for them."""
    if budget is None:
        return list(ranked[:k])
    out: list[Span] = []
    total = 0
    for span in ranked:
        if total >= budget:
            break
        take = min(len(span), budget - total)
        out.append(
            span if take == len(span) else Span(span.document, span.start, span.start + take)
        )
        total += take
    return out


def context(ranked: Sequence[Span], k: int | None = None, budget: int | None = None):
    """U: the characters of the context at k or at a budget, each counted once."""
    return merge(prefix(ranked, k, budget))


def coverage(span: Span, u: Mapping[str, Intervals]) -> float:
    """cov(s) = |s ∩ U| / |s|."""
    return overlap(span.start, span.end, u.get(span.document, [])) / len(span)


def item_coverage(spans: Iterable[Span], u: Mapping[str, Intervals]) -> float:
    """cov(e): the best of its spans (any one of them found finds the item)."""
    return max(coverage(span, u) for span in spans)


def found(spans: Iterable[Span], u: Mapping[str, Intervals], theta: float = THETA) -> bool:
    """found(e) ⇔ cov(e) >= θ."""
    return item_coverage(spans, u) >= theta


def passage_coverage(passage: Span, items: Sequence[SpanItem]) -> list[tuple[int, float]]:
    """What one passage covers on its own: (item position, cov) for each item it touches,
    the best of the item's spans (a ranking row's "핵심 1: 82%")."""
    u = {passage.document: [(passage.start, passage.end)]}
    covered = ((index, item_coverage(item.spans, u)) for index, item in enumerate(items))
    return [(index, cov) for index, cov in covered if cov]


def project_gold(spans: Sequence[Span], passages: Iterable[tuple], theta: float = THETA) -> list:
    """An item carried to another chunking: the keys of the passages (key, span) whose span
    holds at least theta of one of the item's spans, or lies at least theta inside one
    (|p ∩ s| >= theta·|p|: a small passage wholly inside a long evidence span is evidence,
    which AutoRAG's remapping drops). Ratios are compared, not products, so a boundary exactly
    at theta is decided exactly."""
    by_document: dict[str, list[Span]] = {}
    for span in spans:
        by_document.setdefault(span.document, []).append(span)
    out = []
    for key, passage in passages:
        for span in by_document.get(passage.document, ()):
            common = max(0, min(span.end, passage.end) - max(span.start, passage.start))
            if common and (common / len(span) >= theta or common / len(passage) >= theta):
                out.append(key)
                break
    return out


@dataclass(frozen=True)
class SpanItem:
    """One evidence item for the span rule: its role (None: not assigned), every span that finds
    it (its primary's and each alternative's; an alternative given as a passage id brings that
    passage's span) and, for the id rule, the keys of its passages on the chunking it was
    judged on (empty for an item given as spans)."""

    role: str | None
    spans: tuple[Span, ...]
    passages: frozenset = frozenset()


def label(measure: str, k: int | None = None, budget: int | None = None) -> str:
    """Recall@10 at K, Recall@2000ch at a budget of characters."""
    return f"{measure}@{k}" if budget is None else f"{measure}@{budget}ch"


def labels(ks: Sequence[int], budgets: Sequence[int] = ()) -> list[str]:
    """Every span measure at every K, then at every budget, in the order score() gives them
    (nDCG@K and P@K, None across chunkings, left out): the order for a means' running sums."""
    at_k = [label(measure, k) for k in sorted(set(ks)) for measure in SPAN_MEASURES]
    return at_k + [label(m, budget=b) for b in sorted(set(budgets)) for m in SPAN_MEASURES]


class _Walk:
    """The measures of one ranked list as it grows passage by passage: U, how much of each
    item's spans it covers, which items are found and when the first one was."""

    def __init__(self, question: SpanQuestion, id_rule: frozenset):
        self.question, self.items, self.id_rule = question, question.items, id_rule
        self.covered = [[0] * len(item.spans) for item in self.items]
        self.found = [False] * len(self.items)
        self.first_rank: list[int | None] = [None] * len(self.items)
        self.n_found = self.n_core_found = self.first = 0
        self.u: dict[str, Intervals] = {}
        self.u_size = self.u_on_evidence = 0

    def step(self, rank: int, key: Hashable, span: Span) -> None:
        pairs = self.u.setdefault(span.document, [])
        new = _outside(span.start, span.end, pairs)
        _add(span.start, span.end, pairs)
        question = self.question
        evidence = question.evidence.get(span.document, [])
        touched = set()
        for start, end in new:
            self.u_size += end - start
            self.u_on_evidence += overlap(start, end, evidence)
            for index, j, item_start, item_end in question.spans_in.get(span.document, ()):
                common = max(0, min(end, item_end) - max(start, item_start))
                if common:
                    self.covered[index][j] += common
                    touched.add(index)
        for index in self.id_rule:
            if key in self.items[index].passages:
                self._mark(index, rank)
        for index in touched:
            if index not in self.id_rule and self.coverage(index) >= question.theta:
                self._mark(index, rank)

    def copy(self) -> _Walk:
        """The walk so far, to go on from without changing this one."""
        other = _Walk.__new__(_Walk)
        other.__dict__.update(self.__dict__)
        other.covered = [list(row) for row in self.covered]
        other.found = list(self.found)
        other.first_rank = list(self.first_rank)
        other.u = {document: list(pairs) for document, pairs in self.u.items()}
        return other

    def _mark(self, index: int, rank: int) -> None:
        if not self.found[index]:
            self.found[index] = True
            self.first_rank[index] = rank
            self.n_found += 1
            self.n_core_found += self.items[index].role == "core"
            self.first = self.first or rank

    def coverage(self, index: int) -> float:
        spans = self.items[index].spans
        return max(
            covered / len(span) for covered, span in zip(self.covered[index], spans, strict=True)
        )

    def measures(self) -> dict[str, float | None]:
        n = len(self.items)
        return {
            "Recall": self.n_found / n,
            "CoreRecall": self.n_core_found / n_core if (n_core := self.question.n_core) else None,
            "Hit": 1.0 if self.n_found else 0.0,
            "MRR": 1.0 / self.first if self.first else 0.0,
            "SpanRecall": sum(self.coverage(index) for index in range(n)) / n,
            "SpanPrecision": self.u_on_evidence / self.u_size if self.u_size else 0.0,
        }


class SpanQuestion:
    """What scoring one question by the span rule needs that does not depend on the ranked
    list (E per document, each document's item spans, the count of core items): prepared once
    per question and reused for every system, as desktop.metrics.Prepared is."""

    __slots__ = ("items", "theta", "evidence", "spans_in", "n_core")

    def __init__(self, items: Sequence[SpanItem], theta: float = THETA):
        if not items:
            raise ValueError("a question with no evidence item is reported apart, not scored")
        if not 0 < theta <= 1:
            raise ValueError(f"the coverage θ must be above 0 and at most 1, not {theta}")
        if not all(item.spans for item in items):
            raise ValueError("every evidence item needs a span for the span rule")
        self.items, self.theta = items, theta
        self.evidence = merge(span for item in items for span in item.spans)
        # document -> (item, span index, start, end): the item spans a passage there can cover
        self.spans_in: dict[str, list[tuple[int, int, int, int]]] = {}
        for index, item in enumerate(items):
            for j, span in enumerate(item.spans):
                entry = (index, j, span.start, span.end)
                self.spans_in.setdefault(span.document, []).append(entry)
        self.n_core = sum(item.role == "core" for item in items)

    def score(
        self,
        ranked: Sequence[tuple[Hashable, Span]],
        ks: Sequence[int],
        budgets: Sequence[int] = (),
        *,
        id_rule_items: Collection[int] = frozenset(),
    ) -> dict[str, float | None]:
        """SPAN_MEASURES at each K and each budget for one ranked list.

        ranked: the run's list for the question, (passage key, its span), repeats dropped.
        id_rule_items: the positions in items of those judged on this run's own chunking. At
        K they are found by the id rule (one of their passages in the top K, section 3,
        exactly as trec_eval), never by coverage; every other item by cov >= θ. SpanRecall
        and SpanPrecision are coverage for every item, and budgets are always the span rule:
        the chunkings are compared on the same footing. When some item is scored by the span
        rule, nDCG@K and P@K are None (ACROSS_CHUNKINGS says why); when none is, they are
        left out, for the id scorer (desktop.metrics) gives them."""
        id_rule = frozenset(id_rule_items)
        out: dict[str, float | None] = {}
        walk, done = _Walk(self, id_rule), 0
        for k in sorted(ks):
            while done < min(k, len(ranked)):
                done += 1
                walk.step(done, *ranked[done - 1])
            for measure, value in walk.measures().items():
                out[label(measure, k)] = value
            if len(id_rule) < len(self.items):
                for measure in ID_ONLY_MEASURES:
                    out[label(measure, k)] = None
        out.update(self._at_budgets(ranked, budgets))
        return out

    def _at_budgets(self, ranked, budgets: Sequence[int]) -> dict[str, float | None]:
        """The measures at each budget, by one walk over the whole passages the budgets share
        (ascending): a budget that cuts a passage measures a copy with the cut part added."""
        out: dict[str, float | None] = {}
        walk, done, total = _Walk(self, frozenset()), 0, 0
        for budget in sorted(budgets):
            while done < len(ranked) and total + len(ranked[done][1]) <= budget:
                walk.step(done + 1, *ranked[done])
                total += len(ranked[done][1])
                done += 1
            measured = walk
            if done < len(ranked) and total < budget:  # the passage the budget cuts
                key, span = ranked[done]
                measured = walk.copy()
                cut = Span(span.document, span.start, span.start + budget - total)
                measured.step(done + 1, key, cut)
            for measure, value in measured.measures().items():
                out[label(measure, budget=budget)] = value
        return out

    def first_found(
        self,
        ranked: Sequence[tuple[Hashable, Span]],
        depth: int,
        *,
        id_rule_items: Collection[int] = frozenset(),
    ) -> list[int | None]:
        """The rank at which each item is first found within the top depth (None: not by
        then), by the rule score() applies at K: the window's found marks and Recall curve."""
        walk = _Walk(self, frozenset(id_rule_items))
        for rank, (key, span) in enumerate(ranked[:depth], 1):
            walk.step(rank, key, span)
        return walk.first_rank

    def coverages(
        self, ranked: Sequence[Span], k: int | None = None, budget: int | None = None
    ) -> list[float]:
        """cov(e) of each item at k or at a budget: the evidence panel's figure and the
        coverage a miss reached."""
        u = context(ranked, k, budget)
        return [item_coverage(item.spans, u) for item in self.items]


def score_question(
    items: Sequence[SpanItem],
    ranked: Sequence[tuple[Hashable, Span]],
    ks: Sequence[int],
    budgets: Sequence[int] = (),
    theta: float = THETA,
    *,
    id_rule_items: Collection[int] = frozenset(),
) -> dict[str, float | None]:
    """One question's measures by the span rule (SpanQuestion.score, for a single list)."""
    return SpanQuestion(items, theta).score(ranked, ks, budgets, id_rule_items=id_rule_items)


def parse_budgets(text: str) -> list[int]:
    """--budget 1000,2000: context lengths in characters, whole and positive."""
    parts = [p for p in text.replace(" ", "").split(",") if p]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise ValueError(
            f"a budget is a number of characters, as 1000,2000, not {text!r}"
        ) from None
    if not values:
        raise ValueError("name at least one budget, for example 1000,2000")
    if min(values) < 1:
        raise ValueError(f"a budget must be at least 1 character, not {min(values)}")
    return sorted(set(values))


def parse_coverage(text: str) -> float:
    """--coverage 0.5: θ, above 0 and at most 1."""
    try:
        theta = float(text)
    except ValueError:
        theta = math.nan  # refused below with the same sentence
    if not 0 < theta <= 1:
        raise ValueError(f"--coverage must be a number above 0 and at most 1, not {text!r}")
    return theta
