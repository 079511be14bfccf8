"""The report's shortcuts change no number: the randomization test's subset sums per four
questions, tie ranges skipping lists that share no score, and a measure's columns kept after
their first read (issue 24, the report's speed)."""

from __future__ import annotations

import random
from itertools import compress

from desktop.evaluation import metrics, significance, stats, ties
from desktop.evaluation.metrics import Item


def test_nibble_tables_hold_every_subsets_sum_as_the_sign_vector_picks_it():
    rng = random.Random(3)
    for m in (1, 3, 4, 5, 9, 30):
        packed = [rng.getrandbits(70) for _ in range(m)]
        tables = stats._nibble_sums(packed)
        assert len(tables) == (m + 3) // 4
        for _ in range(50):
            bits = rng.getrandbits(m)
            # bit m-1-i flips question i, as stats.randomization_p_values draws them
            chosen = [bits >> (m - 1 - i) & 1 for i in range(m)]
            digits = format(bits, f"0{(m + 3) // 4}x")
            total = sum(table[int(d, 16)] for table, d in zip(tables, digits, strict=True))
            assert total == sum(compress(packed, chosen))


def test_pairs_packed_two_by_two_are_the_pairs_side_by_side():
    """Any number of pairs (odd ones leave a column over at some level) gives the integers
    of the differences + scale in fields of ``width`` bits, the first pair lowest."""
    rng = random.Random(5)
    scale, width = 6, 8
    units = [[rng.randint(0, scale) for _ in range(7)] for _ in range(14)]
    keep = [0, 2, 3, 6]
    for count in (1, 2, 3, 5, 6, 7, 13, 90):
        pairs = [(rng.randrange(14), rng.randrange(14)) for _ in range(count)]
        expected = [
            sum(
                (units[a][i] - units[b][i] + scale) << (j * width) for j, (a, b) in enumerate(pairs)
            )
            for i in keep
        ]
        assert stats._packed(units, pairs, keep, width, scale) == expected


def test_randomization_p_values_of_many_questions_equal_a_plain_compress_sum():
    """Hundreds of questions (the hypothesis test has at most 30), ones where no pair
    differs left out, against the packed sum the test used before its tables."""
    rng = random.Random(7)
    n = 403
    denominators = [rng.randint(1, 5) for _ in range(n)]
    numerators = [[rng.randint(0, d) for d in denominators] for _ in range(3)]
    numerators[1][:50] = numerators[0][:50] = numerators[2][:50]  # no difference there
    pairs = [(0, 1), (0, 2), (1, 2)]
    got = stats.randomization_p_values(numerators, denominators, pairs, permutations=60, seed=5)
    scale = stats.common_scale(denominators)
    units = [
        [stats._units(x, d, scale) for x, d in zip(c, denominators, strict=True)]
        for c in numerators
    ]
    keep = [i for i in range(n) if any(units[a][i] != units[b][i] for a, b in pairs)]
    rand = random.Random(5)
    extreme = [0] * len(pairs)
    for _ in range(60):
        bits = rand.getrandbits(len(keep))
        flips = [bits >> (len(keep) - 1 - j) & 1 for j in range(len(keep))]
        for p, (a, b) in enumerate(pairs):
            diffs = [units[a][i] - units[b][i] for i in keep]
            observed = sum(diffs)
            if abs(observed - 2 * sum(compress(diffs, flips))) >= abs(observed):
                extreme[p] += 1
    assert got == [(1 + e) / 61 for e in extreme]


def test_tie_extremes_prepare_the_items_only_for_a_list_that_shares_a_score(prepared_made):
    made = prepared_made  # one for each metrics.Prepared made
    items = [Item(1, "core", frozenset({1}))]
    assert ties.tie_extremes(items, [1], [(2, 3.0), (1, 2.0), (3, 1.0)]) is None
    assert not made
    # two passages with the same score, or both without one: the items are prepared
    assert ties.tie_extremes(items, [1], [(2, 3.0), (1, 3.0)]) is not None
    assert ties.tie_extremes(items, [1], [(2, None), (1, None)]) is None  # the file's order
    assert len(made) == 2


def test_tie_ranges_of_lists_without_a_shared_score_are_their_values():
    items = {1: [Item(10, "core", frozenset({10}))], 2: [Item(20, None, frozenset({20}))]}
    scored = {"S": {1: [(11, 2.0), (10, 1.0)], 2: [(21, 5.0), (20, 4.0)]}}
    runs = {"S": {q: [p for p, _ in lst] for q, lst in scored["S"].items()}}
    (scores,) = metrics.evaluate(items, runs, [1, 2])
    ranges = ties.tie_ranges(items, scored, [1, 2], {"S": scores.means}, {"S": scores.per_question})
    for r in ranges:
        assert r.questions == 0 and r.low == r.high == r.value


def test_pair_results_are_the_same_with_columns_kept_or_read_each_time(monkeypatch):
    rng = random.Random(2)
    passages = list(range(40))
    gold = {
        q: [Item(p, rng.choice(("core", None)), frozenset({p})) for p in rng.sample(passages, 3)]
        for q in range(60)
    }
    runs = {f"S{s}": {q: rng.sample(passages, 8) for q in gold} for s in range(4)}
    ks = [3, 5]
    scores = {s.system: s.per_question for s in metrics.evaluate(gold, runs, ks)}

    def results():
        rows, family = significance.pair_results(gold, list(runs), scores, ks, 50, 9)
        return [(r.a, r.b, r.metric, r.wins, r.ties, r.losses, r.p, r.p_holm) for r in rows]

    kept = results()
    monkeypatch.setattr(significance, "KEPT_VALUES", 0)
    assert results() == kept
    monkeypatch.setattr(significance, "KEPT_VALUES", 150)  # two columns of 60 kept, then none
    assert results() == kept
