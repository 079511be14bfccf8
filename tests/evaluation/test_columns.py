"""Numbers kept for every question in a file, not in memory (issue 12): desktop.app.scratch.Columns
gives back what was put; scored.Found keeps masks of more than 64 items; and the statistics,
packing their columns in turns under a small budget, give exactly the numbers of one turn."""

from __future__ import annotations

import os
import random
import tempfile
from array import array
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from desktop.app import compact, scratch
from desktop.evaluation import metrics, scored, stats
from desktop.report import sheet as rs
from desktop.report import workbook as rw
from tests.report.test_report_stream import many_questions


def test_columns_give_back_what_was_put(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    rows = 2 * scratch.Columns.BLOCK + 5  # more than one block is written
    with scratch.replacing(folder / "out.xlsx") as tmp:
        tmp.write_bytes(b"done")
        store = scratch.Columns(rows)
        values, masks = store.column("d"), store.column("Q")
        short = store.column("q", 3)
        for i in range(rows):
            values.put(i, i / 7)
            if i % 3 == 0:
                masks.put(i, (1 << 64) - 1 - i)
        short.put(2, -9)
        short.put(0, 4)  # out of order: written at once
        assert values.read() == array("d", (i / 7 for i in range(rows)))
        assert values.read(5, 9) == array("d", (i / 7 for i in range(5, 9)))
        assert list(masks.read()) == [(1 << 64) - 1 - i if i % 3 == 0 else 0 for i in range(rows)]
        assert [masks[i] for i in (0, 1, rows - 2)] == [(1 << 64) - 1, 0, masks.read()[rows - 2]]
        assert list(short.read()) == [4, 0, -9] and short[2] == -9
        blocks = list(values.blocks())
        assert [len(b) for b in blocks] == [scratch.Columns.BLOCK] * 2 + [5]
        assert sum(blocks, array("d")) == values.read()
        kept = store.keep(array("q", [5, 6, 7]))
        assert kept.read() == array("q", [5, 6, 7]) and len(kept) == 3
        with pytest.raises(IndexError):
            short.put(3, 1)
        with pytest.raises(IndexError):
            short[3]
        # In the hidden folder beside the target (made for it), with no name of its own
        # where the system allows: not even a kill leaves it behind.
        assert [p.name.endswith(".rr-parts") for p in folder.iterdir()].count(True) == 1
        store.close()
    assert [p.name for p in folder.iterdir()] == ["out.xlsx"]  # nothing left behind


def test_masks_of_more_than_64_items_are_kept_whole():
    items = {
        "wide": [metrics.Item(f"p{i}", "core", frozenset([f"p{i}"])) for i in range(70)],
        "narrow": [metrics.Item("p1", "supporting", frozenset(["p1"]))],
        "none": [],
    }
    with scored.Scores([3, 100], items, {}) as scores:
        assert scores.words == 2 and scores.evaluated == 2
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
    store = scratch.Columns(len(denominators))
    try:
        turns_p = stats.randomization_p_values(
            read_once(numerators),
            denominators,
            pairs,
            permutations=60,
            seed=seed,
            budget=1,
            store=store,
        )
    finally:
        store.close()
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


def test_blobs_give_back_each_by_its_number():
    blobs = scratch.Blobs()
    try:
        many = [bytes([i % 256]) * (i * 37 % 5000) for i in range(200)]  # past the buffer
        numbers = [blobs.append(b) for b in many]
        assert numbers == list(range(200)) and len(blobs) == 200
        assert blobs._written > 0 and blobs._pending  # some in the file, some not yet
        for i in (199, 0, 57, 120, 3):
            assert blobs[i] == many[i]
        blobs.append(b"more")
        assert blobs[200] == b"more" and blobs[10] == many[10]
        for bad in (-1, 201):
            with pytest.raises(IndexError):
                blobs[bad]
    finally:
        blobs.close()


def test_ordered_keys_find_their_rows_as_a_dict_would():
    ordered = compact.Ordered([3, 8, 20])
    assert dict(ordered) == {3: 0, 8: 1, 20: 2} and ordered.index(20) == 2
    assert 8 in ordered and 9 not in ordered and "8" not in ordered and ordered.get(4) is None
    with pytest.raises(ValueError):
        ordered.add(20)  # keys must ascend
    flags = compact.Keyed("b", bool)
    flags.put(5, True)
    flags.put(7, False)
    assert dict(flags.items()) == {5: True, 7: False} and flags[5] is True
    with pytest.raises(KeyError):
        flags[6]
    assert isinstance(compact.positions([1, 4, 9]), compact.Ordered)
    assert compact.positions([1, 4, 2]) == {1: 0, 4: 1, 2: 2}  # not ascending: a dict
    assert compact.positions(["b", "a"]) == {"b": 0, "a": 1}
    assert compact.positions([]) == {}
    assert compact.keys([1, 2]) == array("q", [1, 2])
    assert compact.keys([1, "x", 3]) == [1, "x", 3] and compact.keys([1, 1 << 70]) == [1, 1 << 70]


@pytest.mark.skipif(os.name != "posix", reason="unnamed temporary files are POSIX's")
def test_scratch_files_outside_an_export_leave_no_name_in_the_temp_folder():
    before = set(os.listdir(tempfile.gettempdir()))
    made = [scratch.Spill(), scratch.Columns(10), scratch.Blobs()]
    made[0].append("가")
    made[2].append(b"x")
    assert set(os.listdir(tempfile.gettempdir())) == before
    for each in made:
        each.close()


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
