"""Krippendorff's α (desktop/gold/alpha.py) against Krippendorff's worked example and the
`krippendorff` package, and its bootstrap's binomial draws against their distribution."""

from __future__ import annotations

import json
import random
from statistics import fmean, pvariance

import krippendorff
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.gold import alpha as alpha_module
from desktop.gold import effective

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
# twelve units, values 1-5, missing values (None). Nominal α = 0.743.
PAPER = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def _units(rows):
    return [[r[u] for r in rows if r[u] is not None] for u in range(len(rows[0]))]


def _reference(rows) -> float:
    data = np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=float)
    return krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")


def test_krippendorffs_worked_example():
    result = alpha_module.alpha(_units(PAPER), resamples=0)
    assert round(result.alpha, 3) == 0.743
    assert result.units == 11  # unit 12 has one value only: not pairable
    assert abs(result.alpha - _reference(PAPER)) < 1e-9


@st.composite
def reliability_data(draw):
    coders = draw(st.integers(2, 5))
    units = draw(st.integers(1, 30))
    values = st.one_of(st.none(), st.integers(0, draw(st.integers(1, 4))))
    return [draw(st.lists(values, min_size=units, max_size=units)) for _ in range(coders)]


@settings(max_examples=300, deadline=None)
@given(reliability_data())
def test_alpha_equals_the_krippendorff_package(rows):
    mine = alpha_module.alpha(_units(rows), resamples=0)
    pairable = [u for u in _units(rows) if len(u) >= 2]
    values = {v for u in pairable for v in u}
    if not pairable:
        assert mine.alpha is None and mine.reason == alpha_module.NO_PAIRS
        return
    if len(values) == 1:
        assert mine.alpha is None and mine.reason == alpha_module.ONE_VALUE
        return
    assert abs(mine.alpha - _reference(rows)) < 1e-9


def test_the_interval_is_seeded_and_holds_the_estimate():
    units = _units(PAPER) * 20
    first = alpha_module.alpha(units)
    again = alpha_module.alpha(units)
    assert first.ci95 == again.ci95
    lo, hi = first.ci95
    assert lo < first.alpha < hi
    other = alpha_module.alpha(units, seed=alpha_module.SEED + 1)
    assert other.ci95 != first.ci95


def test_the_interval_matches_resampling_units_one_by_one():
    """Drawing pattern counts (multinomial) gives the same interval, within bootstrap noise,
    as the plain bootstrap that resamples units one at a time."""
    rng = random.Random(5)
    units = [[rng.choice("abc") for _ in range(rng.randint(1, 4))] for _ in range(300)]
    fast = alpha_module.alpha(units, resamples=2000)
    pairable = [u for u in units if len(u) >= 2]
    plain = sorted(
        alpha_module.alpha([rng.choice(pairable) for _ in pairable], resamples=0).alpha
        for _ in range(2000)
    )
    assert abs(fast.ci95[0] - plain[50]) < 0.02
    assert abs(fast.ci95[1] - plain[1949]) < 0.02


def test_binomial_draws_have_the_binomial_mean_and_variance():
    rng = random.Random(1)
    for n, p in ((5, 0.3), (40, 0.1), (1000, 0.37), (20000, 0.8)):
        draws = [alpha_module.binomial(rng, n, p) for _ in range(20000)]
        assert all(0 <= d <= n for d in draws)
        assert abs(fmean(draws) - n * p) < 4 * (n * p * (1 - p) / 20000) ** 0.5
        assert abs(pvariance(draws) / (n * p * (1 - p)) - 1) < 0.05


def test_undefined_alpha_says_why():
    assert alpha_module.alpha([["a"], ["b"]]).reason == alpha_module.NO_PAIRS
    one = alpha_module.alpha([["a", "a"], ["a", "a", "a"]])
    assert one.alpha is None and one.reason == alpha_module.ONE_VALUE and one.ci95 is None


@st.composite
def judgement_logs(draw):
    """Role lines of 2-5 reviewers on up to 12 items, each reviewer's value on an item changed
    or withdrawn (null) a few times: only the latest counts."""
    reviewers = [f"r{i}" for i in range(draw(st.integers(2, 5)))]
    items = draw(st.integers(1, 12))
    rows = []
    for n, (who, item) in enumerate(
        draw(
            st.lists(st.tuples(st.sampled_from(reviewers), st.integers(0, items - 1)), max_size=60)
        )
    ):
        value = draw(st.sampled_from(["core", "supporting", None]))
        rows.append(
            {
                "pk": n + 1,
                "reviewer": who,
                "at": f"2026-12-01T10:00:{n:02d}+09:00",
                "question_id": f"q{item % 3}",
                "kind": "role",
                "passage_id": f"p{item}",
                "value": json.dumps(value),
                "settles": None,
                "system": None,
            }
        )
    return rows


@settings(max_examples=200, deadline=None)
@given(judgement_logs())
def test_the_agreement_objects_alpha_equals_the_package_on_random_logs(rows):
    """`agreement --json`'s α (effective.agreement, as the command prints it) against the
    krippendorff package over each reviewer's latest value."""
    latest: dict[tuple[str, str], dict[str, str]] = {}
    for row in rows:
        these = latest.setdefault((row["question_id"], row["passage_id"]), {})
        value = json.loads(row["value"])
        if value is None:
            these.pop(row["reviewer"], None)
        else:
            these[row["reviewer"]] = value
    names = sorted({r["reviewer"] for r in rows})
    units = sorted(latest)
    codes = {"core": 0, "supporting": 1}
    matrix = [[codes.get(latest[u].get(name), None) for u in units] for name in names]
    entry = next(e for e in effective.agreement(rows)["alpha"] if e["kind"] == "role")
    json.dumps(entry, allow_nan=False)  # never NaN
    pairable = [u for u in units if len(latest[u]) >= 2]
    if len(names) < 2 or not pairable or len({v for u in pairable for v in latest[u].values()}) < 2:
        assert entry["alpha"] is None and entry["reason"]
        return
    assert entry["units"] == len(pairable)
    assert abs(entry["alpha"] - _reference(matrix)) < 1e-9


def _coincidences(units):
    """Krippendorff's coincidence matrix of pairable units, computed pair by pair."""
    o: dict[tuple, float] = {}
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for i, a in enumerate(values):
            for j, b in enumerate(values):
                if i != j:
                    o[(a, b)] = o.get((a, b), 0.0) + 1 / (m - 1)
    return o


def test_all_kinds_is_alpha_stratified_by_kind():
    """Kind "all": observed and expected disagreement taken within each kind and summed,
    computed here from each kind's coincidence matrix; one kind alone gives that kind's α."""
    rng = random.Random(3)
    rows, n = [], 0
    for item in range(40):
        kind = "role" if item < 30 else "answerable"
        for who in ("kim", "lee", "park"):
            if rng.random() < 0.2:
                continue
            value = rng.choice(["core", "supporting"]) if kind == "role" else rng.random() < 0.7
            n += 1
            rows.append(
                {
                    "pk": n,
                    "reviewer": who,
                    "at": f"2026-12-01T10:{n // 60:02d}:{n % 60:02d}+09:00",
                    "question_id": f"q{item}",
                    "kind": kind,
                    "passage_id": f"p{item}" if kind == "role" else "",
                    "value": json.dumps(value),
                    "settles": None,
                    "system": None,
                }
            )
    observed = expected = 0.0
    for kind in ("role", "answerable"):
        units: dict[str, list] = {}
        for r in rows:
            if r["kind"] == kind:
                units.setdefault(r["question_id"], []).append(json.loads(r["value"]))
        o = _coincidences(units.values())
        totals: dict = {}
        for (a, _b), w in o.items():
            totals[a] = totals.get(a, 0.0) + w
        size = sum(totals.values())
        observed += sum(w for (a, b), w in o.items() if a != b)
        expected += (size * size - sum(t * t for t in totals.values())) / (size - 1)
    data = effective.agreement(rows)
    by_kind = {e["kind"]: e for e in data["alpha"]}
    assert abs(by_kind["all"]["alpha"] - (1 - observed / expected)) < 1e-9
    only_roles = effective.agreement([r for r in rows if r["kind"] == "role"])
    by_kind = {e["kind"]: e for e in only_roles["alpha"]}
    assert abs(by_kind["all"]["alpha"] - by_kind["role"]["alpha"]) < 1e-12
