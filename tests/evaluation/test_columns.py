"""Numbers kept for every question (issue 12; in memory since issue 24): scored.Found keeps
masks of more than 64 items; and the statistics, packing their columns in turns under a small
budget, give exactly the numbers of one turn."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from desktop.evaluation import metrics, scored, stats
from desktop.report import sheet as rs
from desktop.report import workbook as rw
from tests.report.test_report_stream import many_questions


def test_masks_of_more_than_64_items_are_kept_whole():
    items = {
        "wide": [metrics.Item(f"p{i}", "core", frozenset([f"p{i}"])) for i in range(70)],
        "narrow": [metrics.Item("p1", "supporting", frozenset(["p1"]))],
        "none": [],
    }
    scores = scored.Scores([3, 100], items, {})
    assert scores.evaluated == 2
    scores.system("S")
    first = [None] * 70
    first[0], first[65], first[69] = 1, 2, 90
    values = dict.fromkeys(scores.labels, 0.5)
    scores.add("S", "wide", values, first)
    scores.add("S", "narrow", values, [None])
    found = scores.found["S"]
    wide = [1 | 1 << 65, 1 | 1 << 65 | 1 << 69]
    assert found["wide"] == wide and found["narrow"] == [0, 0]
    assert list(found.column(1)) == [wide[1], 0]
    assert list(found.each(0)) == [wide[0], 0]
    assert found.column(0, ["narrow"]) == [0]
    assert scores.values["S"]["wide"] == values


def read_once(columns):
    """columns as a stats.Lazy that fails when a column is read a second time."""
    seen = set()

    def make(c):
        assert c not in seen, f"column {c} read twice"
        seen.add(c)
        return columns[c]

    return stats.Lazy(len(columns), make)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 40).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(1, 9), min_size=n, max_size=n),
            st.integers(1, 5),
            st.randoms(use_true_random=False),
        )
    ),
    st.integers(0, 10**6),
)
def test_turns_change_no_number(case, seed):
    denominators, n_columns, rng = case
    numerators = [[rng.randint(0, d) for d in denominators] for _ in range(n_columns)]
    if n_columns > 1:  # some columns equal somewhere, some everywhere
        numerators[-1] = list(numerators[0])
    pairs = [(a, b) for a in range(n_columns) for b in range(n_columns) if a != b]
    whole = stats.bootstrap_ci(numerators, denominators, resamples=60, seed=seed, budget=10**9)
    turns = stats.bootstrap_ci(
        read_once(numerators), denominators, resamples=60, seed=seed, budget=1
    )
    assert turns == whole
    whole_p = stats.randomization_p_values(
        numerators, denominators, pairs, permutations=60, seed=seed, budget=10**9
    )
    turns_p = stats.randomization_p_values(
        read_once(numerators), denominators, pairs, permutations=60, seed=seed, budget=1
    )
    assert turns_p == whole_p


def test_the_report_and_compare_give_the_same_numbers_in_turns(project, tmp_path, monkeypatch):
    from desktop.evaluation import compare

    many_questions(project, tmp_path)
    whole = compare.compare(project, [3, 10], permutations=100).as_json()
    monkeypatch.setattr(stats, "PACKED_BYTES", 1)
    assert compare.compare(project, [3, 10], permutations=100).as_json() == whole
    # The report likewise: every sheet the same but the time it was written.
    cells = {}
    for budget in (10**9, 1):
        monkeypatch.setattr(stats, "PACKED_BYTES", budget)
        out = rw.write_report(project, tmp_path / f"r{budget}.xlsx", [3, 10], permutations=100)
        wb = load_workbook(out, read_only=True)
        cells[budget] = {
            ws.title: [r for r in ws.iter_rows(values_only=True) if "report file" not in str(r)]
            for ws in wb.worksheets
            if ws.title != rs.sheet_names("ko")[rs.SETTINGS]
        }
        wb.close()
    assert cells[1] == cells[10**9]


def naive_p_values(numerators, denominators, pairs, permutations, seed):
    """The sign-flip test written plainly with fractions: a permutation is one integer of m
    bits from random.Random(seed), bit m-1-j flipping the j-th question that differs in some
    pair (the stream stats.randomization_p_values draws, packed or not)."""
    diffs = [
        [Fraction(x, d) - Fraction(y, d) for x, y, d in zip(a, b, denominators, strict=True)]
        for a, b in ((numerators[p], numerators[q]) for p, q in pairs)
    ]
    keep = [i for i in range(len(denominators)) if any(d[i] for d in diffs)]
    if not keep:
        return [1.0] * len(pairs)
    rng = random.Random(seed)
    m = len(keep)
    extreme = [0] * len(pairs)
    for _ in range(permutations):
        signs = rng.getrandbits(m)
        flip = {i for j, i in enumerate(keep) if signs >> (m - 1 - j) & 1}
        for p, d in enumerate(diffs):
            total = sum(-v if i in flip else v for i, v in enumerate(d))
            if abs(total) >= abs(sum(d)):
                extreme[p] += 1
    return [(1 + e) / (1 + permutations) for e in extreme]


@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(1, 7), min_size=n, max_size=n),
            st.integers(2, 4),
            st.randoms(use_true_random=False),
        )
    ),
    st.integers(0, 10**6),
)
def test_randomization_equals_the_plain_sign_flip_test(case, seed):
    denominators, n_columns, rng = case
    numerators = [[rng.randint(0, d) for d in denominators] for _ in range(n_columns)]
    pairs = [(a, b) for a in range(n_columns) for b in range(n_columns) if a != b]
    naive = naive_p_values(numerators, denominators, pairs, 40, seed)
    for budget in (None, 1):  # packed at once, and a pair a turn
        got = stats.randomization_p_values(
            numerators, denominators, pairs, permutations=40, seed=seed, budget=budget
        )
        assert got == naive
