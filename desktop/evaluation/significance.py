"""Significance between systems: win/tie/loss per ordered pair, measure and K, and the paired
randomization test of evaluation.stats with Holm–Bonferroni adjusted p-values over the family."""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from operator import gt, lt, mul

from desktop.evaluation import metrics, scored, stats

PERMUTATIONS = 1000


SEED = 42


# Per-question values that are not a fraction with a small denominator (MRR at large K, nDCG)
# are tested in units of 2**-24: far finer than any difference a report shows, and the
# narrower the units, the faster the packed sums of desktop.evaluation.stats.
FIXED_POINT = 1 << 24
# Values of one measure (of some systems and K) kept after their first read, up to this many
# (8 bytes each: 16 MB): columns past it are gathered again each time they are asked for (a
# subset of a scored.PerQuestion's, or from the dicts of metrics.evaluate).
KEPT_VALUES = 1 << 21


@dataclass
class PairResult:
    """System a against system b on one measure at one K."""

    a: str
    b: str
    metric: str
    wins: int
    ties: int
    losses: int
    p: float | None = None
    p_holm: float | None = None


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given: the i-th smallest p times
    (m - i + 1), made non-decreasing in that order and capped at 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for position, i in enumerate(order):
        running = max(running, min(1.0, (m - position) * p_values[i]))
        adjusted[i] = running
    return adjusted


def win_tie_loss(a: Sequence[float], b: Sequence[float]) -> tuple[int, int, int]:
    """Questions where a is higher, equal, lower than b (values of the same questions)."""
    wins = sum(map(gt, a, b))
    losses = sum(map(lt, a, b))
    return wins, len(a) - wins - losses, losses


def _denominator(measure: str, k: int, n_items: int, n_core: int) -> int:
    """A per-question denominator over which the measure's values are exact (or, for nDCG and
    MRR at large K, fine enough)."""
    if measure == "Recall":
        return n_items
    if measure == "CoreRecall":
        return n_core
    if measure == "Hit":
        return 1
    if measure == "MRR":
        scale = math.lcm(*range(1, k + 1))
        return scale if scale.bit_length() <= 24 else FIXED_POINT
    return FIXED_POINT


def pair_results(
    gold: dict[Hashable, Sequence[metrics.Item]],
    names: Sequence[str],
    per_question: dict[str, dict[Hashable, dict[str, float | None]]],
    ks: Sequence[int],
    permutations: int,
    seed: int,
    tick: Callable[[int, int], None] | None = None,
) -> tuple[list[PairResult], int]:
    """Win/tie/loss for every ordered pair, and the randomization test with Holm's adjustment
    over every unordered pair, measure and K. Returns the rows and the family size. Columns
    of values are read as they are needed (_Values)."""
    evaluated = [q for q, items in gold.items() if items]
    # Item and core counts by position.
    n_items, n_core = array("l"), array("l")
    for q in evaluated:
        items = gold[q]
        n_items.append(len(items))
        n_core.append(sum(i.role == "core" for i in items))
    all_pairs = list(combinations(range(len(names)), 2))
    rows: list[PairResult] = []
    tested: list[tuple[PairResult, PairResult, float]] = []
    for m_index, measure in enumerate(metrics.MEASURES):
        positions: Sequence[int] = range(len(evaluated))
        if measure == "CoreRecall":
            positions = array("l", (i for i in positions if n_core[i]))
        questions = (
            evaluated if len(positions) == len(evaluated) else [evaluated[i] for i in positions]
        )
        values = _Values(per_question, names, [metrics.label(measure, k) for k in ks], questions)
        by_pair = _counted_pairs(values, names, len(ks))
        pairs = _defined_pairs(values, all_pairs)
        if questions and pairs:
            denominators = array(
                "q",
                (
                    math.lcm(*(_denominator(measure, k, n_items[i], n_core[i]) for k in ks))
                    for i in positions
                ),
            )
            test = partial(stats.randomization_p_values, permutations=permutations, seed=seed)
            tested.extend(_tested(values, denominators, pairs, by_pair, test))
        for a, b in pairs:
            for k_index in range(len(ks)):
                rows.extend(by_pair[(a, b, k_index)])
        if tick:
            tick(m_index + 1, len(metrics.MEASURES))
    adjusted = holm([p for _, _, p in tested])
    for (forward, backward, p), p_holm in zip(tested, adjusted, strict=True):
        forward.p = backward.p = p
        forward.p_holm = backward.p_holm = p_holm
    rows.sort(key=lambda r: (names.index(r.a), names.index(r.b), _metric_order(r.metric, ks)))
    return rows, len(tested)


def _defined_pairs(values, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs whose systems both have this measure: nDCG of a run on another chunking is
    not defined (design section 10), so it is neither counted nor tested against another."""
    undefined = {
        s
        for s in {s for pair in pairs for s in pair}
        if any(v is None or v != v for v in values(s, 0))
    }
    return [(a, b) for a, b in pairs if a not in undefined and b not in undefined]


def _counted_pairs(values, names: Sequence[str], nk: int) -> dict:
    """Win/tie/loss of one measure for every pair (a, b, K index) in both directions."""
    by_pair: dict[tuple[int, int, int], tuple[PairResult, PairResult]] = {}
    for a in range(len(names)):
        mine = [values(a, k_index) for k_index in range(nk)]  # while a's pairs are counted
        for b in range(a + 1, len(names)):
            for k_index, label in enumerate(values.labels):
                w, t, lose = win_tie_loss(mine[k_index], values(b, k_index))
                forward = PairResult(names[a], names[b], label, w, t, lose)
                backward = PairResult(names[b], names[a], label, lose, t, w)
                by_pair[(a, b, k_index)] = (forward, backward)
        del mine
    return by_pair


def _tested(values, denominators, pairs, by_pair, test) -> list[tuple]:
    """The randomization test of one measure for every pair and K: (forward, backward, p)."""
    nk = len(values.labels)
    # Columns and tested pairs in the report's order (system, then K), so that the
    # Recall@K p-values are those the report has always printed. Each column is
    # made when the test asks for it.
    columns = stats.Lazy(len(values.names) * nk, partial(values.counts, denominators))
    p_values = test(
        columns, denominators, [(a * nk + k, b * nk + k) for a, b in pairs for k in range(nk)]
    )
    tested = []
    position = 0
    for a, b in pairs:
        for k_index in range(nk):
            forward, backward = by_pair[(a, b, k_index)]
            tested.append((forward, backward, p_values[position]))
            position += 1
    return tested


class _Values:
    """One measure's columns over some questions: ``values(system index, K index)``, read
    when asked (from a scored.PerQuestion, or from the dicts per question of
    metrics.evaluate)."""

    def __init__(self, per_question, names, labels, questions):
        self.per_question, self.names, self.labels = per_question, names, labels
        self.questions = questions
        # Win/tie/loss reads system b's column once per a before it, and the test once more:
        # the measure's columns are kept after their first read, up to KEPT_VALUES values.
        self.kept: dict[tuple[int, int], Sequence[float | None]] = {}
        self.room = KEPT_VALUES

    def __call__(self, s: int, k_index: int) -> Sequence[float | None]:
        column = self.kept.get((s, k_index))
        if column is None:
            column = _column(self.per_question[self.names[s]], self.labels[k_index], self.questions)
            if len(column) <= self.room:
                self.kept[(s, k_index)] = column
                self.room -= len(column)
        return column

    def counts(self, denominators: Sequence[int], c: int) -> Sequence[int]:
        """Column c of the test (system c // K, K index c % K) as whole counts."""
        s, k_index = divmod(c, len(self.labels))
        return _counts(self(s, k_index), denominators)


def _counts(values: Sequence[float], denominators: Sequence[int]) -> Sequence[int]:
    """Each value times its question's denominator, as the whole number it is: in an array
    (8 bytes a question) where they fit, as Python ints otherwise."""
    if len(values) != len(denominators):
        raise ValueError("a column and its denominators differ in length")
    try:
        return array("q", map(round, map(mul, values, denominators)))
    except OverflowError:
        return list(map(round, map(mul, values, denominators)))


def _metric_order(label: str, ks: Sequence[int]) -> tuple[int, int]:
    measure, k = label.split("@")
    return ks.index(int(k)), metrics.MEASURES.index(measure)


def _column(per_q, label: str, questions: Sequence[Hashable]) -> Sequence[float | None]:
    """One measure's values over these questions, from a scored.PerQuestion or from the dicts
    per question of metrics.evaluate."""
    if isinstance(per_q, scored.PerQuestion):
        return per_q.column(label, questions)
    return [per_q[q][label] for q in questions]
