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
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, groupby
from operator import itemgetter

from desktop.evaluation import metrics, scored
from desktop.evaluation.significance import PERMUTATIONS, SEED, PairResult, pair_results
from desktop.evaluation.ties import TieRange, tie_ranges

ALPHA = 0.05  # ★ where the Holm-adjusted p is under this (the report and the window)


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
    untested: list[str] = field(default_factory=list)  # unranked runs, left out of the tests
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
            "untested": self.untested,
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


# -- ties at the cutoff -----------------------------------------------------------------------


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
        first = [m.rank for m in matches]
        out[q] = [metrics.found_mask(first, k) for k in ks]
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
    questions = [q for q, items in gold.items() if items]
    sizes = array("l", (len(gold[q]) for q in questions))
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
    scores = scored.collect(project, ks)
    return compare_scores(project, scores, permutations=permutations, seed=seed, progress=progress)


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
    or the command line's); ties (the lists that have one) and top scores are read from the
    store here, a system at a time."""
    ks = scores.ks

    def step(done: int, phase: str) -> None:
        if progress is not None:
            progress(done, STEPS, phase)

    gold = scores.gold
    names = list(scores.values)
    systems = project.systems()
    # An unranked run's order is not a ranking (design section 11): no test of its rank figures
    untested = [s["name"] for s in systems if s.get("unranked") and s["name"] in names]
    step(1, "testing")
    pairs, family = pair_results(
        gold,
        [name for name in names if name not in untested],
        scores.values,
        ks,
        permutations,
        seed,
        tick=lambda d, t: step(1 + d, "testing"),
    )
    step(6, "comparing hits")
    unique, missed, union, only_found = coverage(gold, scores.found, ks)
    step(7, "checking ties")
    trec = {s["name"]: s["pk"] for s in systems if s["format"] == "trec"}
    # Only the lists with a tie near the top: the others have no order to change.
    heads = {name: project.reads.scored_heads(pk, max(ks), True) for name, pk in trec.items()}
    ties = tie_ranges(gold, heads, ks, scores.means, scores.values)
    found = _abstentions(project, systems, gold, scores.answerable)
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
        untested=untested,
    )


def _abstentions(project, systems, gold, answerable) -> dict[str, Abstention]:
    """Per system, how its top-1 score separates answerable questions from the others."""
    by_pk = {s["pk"]: s["name"] for s in systems}
    positives = [q for q, yes in answerable.items() if yes and gold.get(q)]
    negatives = [q for q, yes in answerable.items() if not yes]
    # One system's top scores at a time, merged with the questions in their order (the store
    # gives them system by system, each in question order).
    found: dict[str, Abstention] = {}
    if positives and negatives:
        for system_pk, rows in groupby(project.reads.top_scores(), key=itemgetter(0)):
            split = top_split(rows, positives, negatives)
            if split is not None:
                found[by_pk[system_pk]] = abstention(by_pk[system_pk], *split)
    return found


def _each_mask(masks, k_index: int, questions: Sequence[Hashable]) -> Iterator[int]:
    """The found masks at one K over these questions (all the evaluated ones), from a
    scored.Found or from the dict of found_masks."""
    if isinstance(masks, scored.Found):
        return masks.each(k_index)
    return (masks[q][k_index] for q in questions)
