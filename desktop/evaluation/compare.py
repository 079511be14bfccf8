"""Comparisons between systems that say why (issue 10), for the `compare` command, the report's
Comparison sheet and the window. Qt-free; the per-question values come from evaluation.metrics
(through Project.evaluate) and the tests from evaluation.stats, so no measure is computed twice.

- **win/tie/loss** per ordered pair of systems, measure and K, over the evaluated questions (a
  tie is an equal per-question value; CoreRecall over the questions with a core item);
- **significance**: the paired randomization test of evaluation.stats for every pair, measure and
  K, with Holm–Bonferroni adjusted p-values over that whole family;
- **what one system alone finds**: per K the evidence items each system finds that no other
  does, per ordered pair the items A finds and B misses, and the union Recall@K of all systems
  and of every pair (what a perfect fusion of them could reach);
- **ties at the cutoff** (TREC runs, whose ranks come from scores): the lowest and highest
  value of every measure over all orders of the tied passages, beside the trec_eval order;
- **abstention**: how well a system's top-1 score separates answerable questions (with
  evidence) from those to abstain on: AUROC, and the best threshold with its accuracy.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations, groupby, permutations, product
from operator import gt, itemgetter, lt

from desktop.app import compact
from desktop.evaluation import metrics, scored, stats

PERMUTATIONS = 1000
ALPHA = 0.05  # ★ where the Holm-adjusted p is under this (the report and the window)
SEED = 42
# Per-question values that are not a fraction with a small denominator (MRR at large K, nDCG)
# are tested in units of 2**-24: far finer than any difference a report shows, and the
# narrower the units, the faster the packed sums of desktop.evaluation.stats.
FIXED_POINT = 1 << 24
# Beyond this many orders of the tied relevant passages of one list, only the orders that
# pack them by gain are tried, and the question is counted as inexact.
MAX_ORDERS = 40_320


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


@dataclass
class TieRange:
    """One system and measure: the mean in the stored (trec_eval) order and its lowest and
    highest value over every order of the tied passages; ``questions`` where they differ."""

    system: str
    metric: str
    value: float | None
    low: float | None
    high: float | None
    questions: int
    inexact: int = 0


@dataclass
class Abstention:
    system: str
    auroc: float
    threshold: float | None  # answer when the top-1 score >= threshold; None: never answer
    accuracy: float
    answerable: int
    abstain: int


@dataclass
class Comparison:
    ks: list[int]
    systems: list[str]
    family: int
    pairs: list[PairResult]
    unique: list[dict]  # {"system", "k", "items"}
    a_finds_b_misses: list[dict]  # {"a", "b", "k", "items"}
    union: list[dict]  # {"systems", "k", "Recall"}
    ties: list[TieRange]
    abstain: list[Abstention]
    evaluated: int = 0
    permutations: int = PERMUTATIONS
    seed: int = SEED
    # question key -> system -> per K the indexes of the evidence items only it found
    only_found: dict[Hashable, dict[str, list[list[int]]]] = field(default_factory=dict)
    _by_key: dict = field(default_factory=dict, repr=False, compare=False)

    def pair(self, a: str, b: str, metric: str) -> PairResult | None:
        if len(self._by_key) != len(self.pairs):
            self._by_key = {(r.a, r.b, r.metric): r for r in self.pairs}
        return self._by_key.get((a, b, metric))

    def as_json(self) -> dict:
        return {
            "k": self.ks,
            "family": self.family,
            "pairs": [
                {
                    "a": r.a,
                    "b": r.b,
                    "metric": r.metric,
                    "wins": r.wins,
                    "ties": r.ties,
                    "losses": r.losses,
                    "p": r.p,
                    "p_holm": r.p_holm,
                }
                for r in self.pairs
            ],
            "unique": self.unique,
            "a_finds_b_misses": self.a_finds_b_misses,
            "union": self.union,
            "ties": [
                {
                    "system": t.system,
                    "metric": t.metric,
                    "value": t.value,
                    "low": t.low,
                    "high": t.high,
                    "questions": t.questions,
                    **({"inexact": t.inexact} if t.inexact else {}),
                }
                for t in self.ties
            ],
            "abstain": [
                {
                    "system": a.system,
                    "auroc": a.auroc,
                    "threshold": a.threshold,
                    "accuracy": a.accuracy,
                    "answerable": a.answerable,
                    "abstain": a.abstain,
                }
                for a in self.abstain
            ],
        }


# -- pure pieces ------------------------------------------------------------------------------


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


def auroc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Probability that a positive scores above a negative, ties counting one half
    (Mann–Whitney), by one sort."""
    pooled = sorted([(s, 1) for s in positives] + [(s, 0) for s in negatives], key=itemgetter(0))
    below = 0  # negatives strictly below the current group
    favourable = 0.0
    for _, group in groupby(pooled, key=itemgetter(0)):
        labels = [label for _, label in group]
        pos = sum(labels)
        neg = len(labels) - pos
        favourable += pos * (below + neg / 2)
        below += neg
    return favourable / (len(positives) * len(negatives))


def best_threshold(
    positives: Sequence[float], negatives: Sequence[float]
) -> tuple[float | None, float]:
    """The threshold t for "answer when the top-1 score >= t" with the highest accuracy
    (lowest t among equals), and that accuracy; None stands for never answering."""
    n = len(positives) + len(negatives)
    pooled = sorted([(s, 1) for s in positives] + [(s, 0) for s in negatives], reverse=True)
    # Answering nothing: every abstain question right.
    best_t, best_correct = None, len(negatives)
    correct = len(negatives)
    for score, group in groupby(pooled, key=itemgetter(0)):
        for _, label in group:
            correct += 1 if label else -1
        if correct >= best_correct and not math.isinf(score):
            best_t, best_correct = score, correct
    return best_t, best_correct / n


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


# -- ties at the cutoff -----------------------------------------------------------------------


def tie_extremes(
    prep: metrics.Prepared, ranked: Sequence[tuple[Hashable, float | None]]
) -> tuple[dict[str, float | None], dict[str, float | None], bool] | None:
    """(low, high, exact) of every measure at the K values ``prep`` was made for, over every
    order of the passages that share a score in one stored ranked list of (passage, score);
    None when no order can change any of them. Computed without trying every order: passages
    no evidence item owns are interchangeable, and for a given relative order of the evidence
    passages, packing them to the front of their tie groups gives every measure its highest
    value and packing them to the back its lowest (an earlier rank only raises the discount of
    the gain a passage credits, and never changes which item it credits). So only the orders
    of the evidence passages within each tie group that starts within the top K are tried."""
    owners = prep.owners
    depth = prep.ks[-1]
    groups: list[list[Hashable]] = []
    variable: list[int] = []
    start = 0
    for score, group in groupby(ranked, key=itemgetter(1)):
        if start >= depth:
            break
        passages = [p for p, _ in group]
        start += len(passages)
        if score is None:  # no score: the order is the file's
            groups.extend([p] for p in passages)
            continue
        if len(passages) > 1 and any(p in owners for p in passages):
            variable.append(len(groups))
        groups.append(passages)
    if not variable:
        return None
    relevant = {g: [p for p in groups[g] if p in owners] for g in variable}
    others = {g: [p for p in groups[g] if p not in owners] for g in variable}
    count = math.prod(math.factorial(len(r)) for r in relevant.values())
    exact = count <= MAX_ORDERS
    if exact:
        choices = [list(permutations(relevant[g])) for g in variable]
    else:
        gains = {p: max(prep.gain[i] for i in owners[p]) for r in relevant.values() for p in r}
        choices = [
            [
                tuple(sorted(relevant[g], key=gains.get, reverse=True)),
                tuple(sorted(relevant[g], key=gains.get)),
            ]
            for g in variable
        ]
    low: dict[str, float | None] = {}
    high: dict[str, float | None] = {}
    for orders in product(*choices):
        chosen = dict(zip(variable, orders, strict=True))
        for front in (True, False):
            arranged: list[Hashable] = []
            for g, passages in enumerate(groups):
                if g in chosen:
                    rel, rest = list(chosen[g]), others[g]
                    arranged.extend(rel + rest if front else rest + rel)
                else:
                    arranged.extend(passages)
            for key, value in prep.score(arranged).items():
                if value is None:
                    low[key] = high[key] = None
                elif key not in low:
                    low[key] = high[key] = value
                elif value < low[key]:
                    low[key] = value
                elif value > high[key]:
                    high[key] = value
    if all(low[key] == high[key] for key in low):
        return None
    return low, high, exact


def tie_ranges(
    gold: dict[Hashable, Sequence[metrics.Item]],
    scored: Mapping[str, Mapping | Iterable[tuple[Hashable, list[tuple[Hashable, float | None]]]]],
    ks: Sequence[int],
    evaluation_means: dict[str, dict[str, float | None]],
    per_question: Mapping[str, Mapping[Hashable, Mapping[str, float | None]]],
) -> list[TieRange]:
    """Per TREC system and measure at every K: the mean in the stored order and the means of
    the per-question lowest and highest values over tie orders (each question's order is free
    on its own, so these are the extremes of the mean). ``scored`` holds per system its
    (passage, score) lists by question: a mapping, or (question, list) pairs in question
    order, read once (so that the store can stream them)."""
    n_evaluated = sum(1 for items in gold.values() if items)
    n_core = sum(1 for items in gold.values() if any(i.role == "core" for i in items))
    out = []
    for system, lists in scored.items():
        shift_low: dict[str, float] = {}
        shift_high: dict[str, float] = {}
        changed: dict[str, int] = {}
        inexact: dict[str, int] = {}
        for q, ranked in lists.items() if isinstance(lists, Mapping) else lists:
            items = gold.get(q)
            found = tie_extremes(metrics.Prepared(items, ks), ranked) if items and ranked else None
            if found is None:
                continue
            low, high, exact = found
            stored = per_question[system][q]
            for key, lowest in low.items():
                if lowest is None or lowest == high[key]:
                    continue
                shift_low[key] = shift_low.get(key, 0.0) + lowest - stored[key]
                shift_high[key] = shift_high.get(key, 0.0) + high[key] - stored[key]
                changed[key] = changed.get(key, 0) + 1
                if not exact:
                    inexact[key] = inexact.get(key, 0) + 1
        for k in ks:
            for measure in metrics.MEASURES:
                key = metrics.label(measure, k)
                mean = evaluation_means[system].get(key)
                n = n_core if measure == "CoreRecall" else n_evaluated
                if mean is None or not n:
                    out.append(TieRange(system, key, None, None, None, 0))
                    continue
                out.append(
                    TieRange(
                        system,
                        key,
                        mean,
                        mean + shift_low.get(key, 0.0) / n,
                        mean + shift_high.get(key, 0.0) / n,
                        changed.get(key, 0),
                        inexact.get(key, 0),
                    )
                )
    return out


# -- what each system finds -------------------------------------------------------------------


def found_masks(
    gold: dict[Hashable, Sequence[metrics.Item]],
    lists: dict[Hashable, Sequence[Hashable]],
    ks: Sequence[int],
) -> dict[Hashable, list[int]]:
    """Per evaluated question, per K, a bit mask of the evidence items found in the top K."""
    out = {}
    empty: tuple = ()
    for q, items in gold.items():
        if not items:
            continue
        matches, _ = metrics.match(items, lists.get(q, empty))
        masks = [0] * len(ks)
        for index, m in enumerate(matches):
            if m.rank is not None:
                for k_index, k in enumerate(ks):
                    if m.rank <= k:
                        masks[k_index] |= 1 << index
        out[q] = masks
    return out


def alone_masks(masks: Sequence[int]) -> list[int]:
    """Per system, the items (bits of its found mask) no other system finds: the one rule for
    "only this system finds it", used here and by the window's marks."""
    out = []
    for s, mine in enumerate(masks):
        others = 0
        for t, m in enumerate(masks):
            if t != s:
                others |= m
        out.append(mine & ~others)
    return out


def coverage(
    gold: dict[Hashable, Sequence[metrics.Item]],
    masks: dict[str, dict[Hashable, list[int]]],
    ks: Sequence[int],
) -> tuple[list[dict], list[dict], list[dict], dict]:
    """(unique, a_finds_b_misses, union, only_found) from the found masks of every system."""
    names = list(masks)
    if not names:
        return [], [], [], {}
    questions = compact.keys(q for q, items in gold.items() if items)
    sizes = array("l", (len(gold[q]) for q in questions))  # read once: gold may decode
    n = len(questions)
    unique, missed, union = [], [], []
    only_found: dict[Hashable, dict[str, list[list[int]]]] = {}
    pairs = list(combinations(range(len(names)), 2))
    for k_index, k in enumerate(ks):
        counts = dict.fromkeys(names, 0)
        union_all = 0.0
        a_only, b_only, both = [0] * len(pairs), [0] * len(pairs), [0.0] * len(pairs)
        # Every system's mask of a question side by side, a question at a time.
        rows = zip(*(_each_mask(masks[name], k_index, questions) for name in names), strict=True)
        for position, row in enumerate(rows):
            size = sizes[position]
            everyone = 0
            for m in row:
                everyone |= m
            union_all += everyone.bit_count() / size
            for name, alone in zip(names, alone_masks(row), strict=True):
                if alone:
                    counts[name] += alone.bit_count()
                    q = questions[position]
                    per_k = only_found.setdefault(q, {}).setdefault(name, [[] for _ in ks])
                    per_k[k_index] = [i for i in range(size) if alone >> i & 1]
            for p, (a, b) in enumerate(pairs):
                ma, mb = row[a], row[b]
                a_only[p] += (ma & ~mb).bit_count()
                b_only[p] += (mb & ~ma).bit_count()
                both[p] += (ma | mb).bit_count() / size
        unique += [{"system": name, "k": k, "items": counts[name]} for name in names]
        union.append({"systems": names, "k": k, "Recall": union_all / n if n else None})
        for p, (a, b) in enumerate(pairs):
            missed.append({"a": names[a], "b": names[b], "k": k, "items": a_only[p]})
            missed.append({"a": names[b], "b": names[a], "k": k, "items": b_only[p]})
            union.append(
                {"systems": [names[a], names[b]], "k": k, "Recall": both[p] / n if n else None}
            )
    return unique, missed, union, only_found


# -- significance -----------------------------------------------------------------------------


def pair_results(
    gold: dict[Hashable, Sequence[metrics.Item]],
    names: Sequence[str],
    per_question: dict[str, dict[Hashable, dict[str, float | None]]],
    ks: Sequence[int],
    permutations: int,
    seed: int,
    tick: Callable[[int, int], None] | None = None,
    store=None,
) -> tuple[list[PairResult], int]:
    """Win/tie/loss for every ordered pair, and the randomization test with Holm's adjustment
    over every unordered pair, measure and K. Returns the rows and the family size. Columns
    of values are read as they are needed (a scored.PerQuestion keeps them in a file), and the
    test keeps its own in ``store`` (see stats.randomization_p_values)."""
    evaluated = compact.keys(q for q, items in gold.items() if items)
    # Item and core counts read once (gold may decode on each read), by position.
    n_items, n_core = array("l"), array("l")
    for q in evaluated:
        items = gold[q]
        n_items.append(len(items))
        n_core.append(sum(i.role == "core" for i in items))
    pairs = list(combinations(range(len(names)), 2))
    nk = len(ks)
    rows: list[PairResult] = []
    tested: list[tuple[PairResult, PairResult, float]] = []
    for m_index, measure in enumerate(metrics.MEASURES):
        positions: Sequence[int] = range(len(evaluated))
        if measure == "CoreRecall":
            positions = array("l", (i for i in positions if n_core[i]))
        questions = (
            evaluated
            if len(positions) == len(evaluated)
            else compact.keys(evaluated[i] for i in positions)
        )
        values = _Values(per_question, names, [metrics.label(measure, k) for k in ks], questions)
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
        if questions and pairs:
            denominators = array(
                "q",
                (
                    math.lcm(*(_denominator(measure, k, n_items[i], n_core[i]) for k in ks))
                    for i in positions
                ),
            )
            # Columns and tested pairs in the report's order (system, then K), so that the
            # Recall@K p-values are those the report has always printed. Each column is
            # made when the test asks for it.
            columns = stats.Lazy(len(names) * nk, partial(values.counts, denominators))
            p_values = stats.randomization_p_values(
                columns,
                denominators,
                [(a * nk + k, b * nk + k) for a, b in pairs for k in range(nk)],
                permutations=permutations,
                seed=seed,
                store=store,
            )
            position = 0
            for a, b in pairs:
                for k_index in range(nk):
                    forward, backward = by_pair[(a, b, k_index)]
                    tested.append((forward, backward, p_values[position]))
                    position += 1
        for a, b in pairs:
            for k_index in range(nk):
                rows.extend(by_pair[(a, b, k_index)])
        if tick:
            tick(m_index + 1, len(metrics.MEASURES))
    adjusted = holm([p for _, _, p in tested])
    for (forward, backward, p), p_holm in zip(tested, adjusted, strict=True):
        forward.p = backward.p = p
        forward.p_holm = backward.p_holm = p_holm
    rows.sort(key=lambda r: (names.index(r.a), names.index(r.b), _metric_order(r.metric, ks)))
    return rows, len(tested)


class _Values:
    """One measure's columns over some questions: ``values(system index, K index)``, read
    when asked (from a scored.PerQuestion, or from the dicts per question of
    metrics.evaluate)."""

    def __init__(self, per_question, names, labels, questions):
        self.per_question, self.names, self.labels = per_question, names, labels
        self.questions = questions

    def __call__(self, s: int, k_index: int) -> Sequence[float | None]:
        return _column(self.per_question[self.names[s]], self.labels[k_index], self.questions)

    def counts(self, denominators: Sequence[int], c: int) -> Sequence[int]:
        """Column c of the test (system c // K, K index c % K) as whole counts."""
        s, k_index = divmod(c, len(self.labels))
        return _counts(self(s, k_index), denominators)


def _counts(values: Sequence[float], denominators: Sequence[int]) -> Sequence[int]:
    """Each value times its question's denominator, as the whole number it is: in an array
    (8 bytes a question) where they fit, as Python ints otherwise."""
    counts = (round(v * d) for v, d in zip(values, denominators, strict=True))
    try:
        return array("q", counts)
    except OverflowError:
        return [round(v * d) for v, d in zip(values, denominators, strict=True)]


def _metric_order(label: str, ks: Sequence[int]) -> tuple[int, int]:
    measure, k = label.split("@")
    return ks.index(int(k)), metrics.MEASURES.index(measure)


# -- abstention -------------------------------------------------------------------------------


def abstention(name: str, positives: Sequence[float], negatives: Sequence[float]) -> Abstention:
    """One system from its top-1 scores of the answerable questions and of those to abstain
    on (both non-empty)."""
    threshold, accuracy = best_threshold(positives, negatives)
    return Abstention(
        name,
        auroc(positives, negatives),
        threshold,
        accuracy,
        len(positives),
        len(negatives),
    )


def top_split(
    rows: Iterable[tuple[int, int, float | None]],
    positives: Sequence[int],
    negatives: Sequence[int],
) -> tuple[array, array] | None:
    """One system's top-1 scores over the positive and the negative questions (keys in
    ascending order), from its (system, question, score) rows in question order, as the
    store streams them; a question missing from the run has no top score and counts as the
    lowest (the system abstained). None when the system has no list or one without a score."""
    split = (array("d", [-math.inf]) * len(positives), array("d", [-math.inf]) * len(negatives))
    at = [0, 0]
    listed = False
    for _, question, score in rows:
        if score is None:
            return None
        listed = True
        for side, keys in enumerate((positives, negatives)):
            i = at[side]
            while i < len(keys) and keys[i] < question:
                i += 1
            if i < len(keys) and keys[i] == question:
                split[side][i] = score
            at[side] = i
    return split if listed else None


# -- the whole comparison ---------------------------------------------------------------------


def compare(
    project,
    ks,
    *,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
    progress: Callable[..., None] | None = None,
) -> Comparison:
    """Everything above for the project's systems at the K values ``ks`` (the command line:
    its own pass over the first K of every list, then what the report calls).
    ``progress(done, total, phase)`` is called between the steps and may raise to stop."""
    ks = metrics.parse_ks(ks)
    if progress is not None:
        progress(0, STEPS, "scoring")
    with scored.collect(project, ks) as scores:
        return compare_scores(
            project, scores, permutations=permutations, seed=seed, progress=progress
        )


STEPS = 8  # progress steps of compare_scores: scoring, five measures tested, hits, ties


def compare_scores(
    project,
    scores: scored.Scores,
    *,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
    progress: Callable[..., None] | None = None,
) -> Comparison:
    """Everything above from the per-question values of one pass (scored.Scores: the report's
    or the command line's); ties and top scores are read from the store here, a system at a
    time."""
    ks = scores.ks

    def step(done: int, phase: str) -> None:
        if progress is not None:
            progress(done, STEPS, phase)

    gold = scores.gold
    names = list(scores.values)
    step(1, "testing")
    pairs, family = pair_results(
        gold,
        names,
        scores.values,
        ks,
        permutations,
        seed,
        tick=lambda d, t: step(1 + d, "testing"),
        store=scores.store,
    )
    step(6, "comparing hits")
    unique, missed, union, only_found = coverage(gold, scores.found, ks)
    step(7, "checking ties")
    systems = project.systems()
    trec = {s["name"]: s["pk"] for s in systems if s["format"] == "trec"}
    heads = {name: project.scored_heads(pk, max(ks)) for name, pk in trec.items()}
    ties = tie_ranges(gold, heads, ks, scores.means, scores.values)
    by_pk = {s["pk"]: s["name"] for s in systems}
    answerable = scores.answerable
    positives = compact.keys(q for q, yes in answerable.items() if yes and gold.get(q))
    negatives = compact.keys(q for q, yes in answerable.items() if not yes)
    # One system's top scores at a time, merged with the questions in their order (the store
    # gives them system by system, each in question order).
    found: dict[str, Abstention] = {}
    if positives and negatives:
        for system_pk, rows in groupby(project.top_scores(), key=itemgetter(0)):
            split = top_split(rows, positives, negatives)
            if split is not None:
                found[by_pk[system_pk]] = abstention(by_pk[system_pk], *split)
    abstain = [found[name] for name in names if name in found]
    step(STEPS, "done")
    return Comparison(
        ks,
        names,
        family,
        pairs,
        unique,
        missed,
        union,
        ties,
        abstain,
        evaluated=scores.evaluated,
        permutations=permutations,
        seed=seed,
        only_found=only_found,
    )


def _column(per_q, label: str, questions: Sequence[Hashable]) -> Sequence[float | None]:
    """One measure's values over these questions, from a scored.PerQuestion or from the dicts
    per question of metrics.evaluate."""
    if isinstance(per_q, scored.PerQuestion):
        return per_q.column(label, questions)
    return [per_q[q][label] for q in questions]


def _each_mask(masks, k_index: int, questions: Sequence[Hashable]) -> Iterator[int]:
    """The found masks at one K over these questions (all the evaluated ones), from a
    scored.Found (read a block at a time) or from the dict of found_masks."""
    if isinstance(masks, scored.Found):
        return masks.each(k_index)
    return (masks[q][k_index] for q in questions)
