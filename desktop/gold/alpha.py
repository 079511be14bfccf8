"""Krippendorff's α for nominal values, with a bootstrap interval over units.

A unit is one thing every reviewer may judge (a (question, passage) of one kind, or a
question); its values are the reviewers' latest ones, missing values allowed. Only units with
two values or more are pairable. With m_u values in unit u, n_uc of them c, n = Σ m_u and
n_c = Σ n_uc over pairable units, the coincidence matrix gives (Krippendorff 2011, "Computing
Krippendorff's Alpha-Reliability", nominal metric):

    α = 1 − (n − 1) · Σ_u (m_u² − Σ_c n_uc²) / (m_u − 1)  /  (n² − Σ_c n_c²)

α depends on the units only through those sums, so units with the same value counts (a
pattern) are kept once with how many there are. The bootstrap resamples the N pairable units
with replacement, which is drawing N units from the patterns' multinomial: one binomial draw
per pattern, so R resamples cost R × patterns, not R × N (seconds at 5,000 questions).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import floor, lgamma, log, sqrt

RESAMPLES = 1000
SEED = 22  # stated with every interval: the same log always gives the same interval
NO_PAIRS = "no item judged by two reviewers"
ONE_VALUE = "one value everywhere"
FEW_REVIEWERS = "fewer than two reviewers"

Pattern = tuple[tuple[str, int], ...]  # (value as canonical JSON, how many gave it), sorted


@dataclass
class Alpha:
    """α over some units: None with the reason when it is undefined; ci95 None likewise."""

    units: int
    alpha: float | None
    reason: str | None = None
    ci95: tuple[float, float] | None = None


def pattern_of(values: Iterable[object]) -> Pattern:
    counts = Counter(json.dumps(v, sort_keys=True) for v in values)
    return tuple(sorted(counts.items()))


def patterns(units: Iterable[Mapping[str, object] | Iterable[object]]) -> Counter:
    """Pairable units (reviewer -> value mappings, or plain value lists) as pattern counts."""
    out: Counter = Counter()
    for unit in units:
        values = unit.values() if isinstance(unit, Mapping) else unit
        pattern = pattern_of(values)
        if sum(c for _, c in pattern) >= 2:
            out[pattern] += 1
    return out


def _sums(weighted: Iterable[tuple[Pattern, int]]) -> tuple[int, float, Counter]:
    n, observed, per_value = 0, 0.0, Counter()
    for pattern, weight in weighted:
        if not weight:
            continue
        m = sum(c for _, c in pattern)
        n += weight * m
        observed += weight * (m * m - sum(c * c for _, c in pattern)) / (m - 1)
        for value, c in pattern:
            per_value[value] += weight * c
    return n, observed, per_value


def _alpha(weighted: Iterable[tuple], strata: bool = False) -> tuple[float | None, str | None]:
    """α of (pattern, weight) pairs; with strata, of ((stratum, pattern), weight) pairs, the
    observed and expected disagreement each summed over the strata, the expected one taken
    within each stratum: α = 1 − Σ_s O_s / Σ_s E_s / (n_s − 1), which is the plain α with one
    stratum (values of two kinds are never compared, nor pooled into one expectation)."""
    groups: dict[object, list] = {}
    for key, weight in weighted:
        stratum, pattern = key if strata else (None, key)
        groups.setdefault(stratum, []).append((pattern, weight))
    observed_all = expected_all = 0.0
    paired = False
    for group in groups.values():
        n, observed, per_value = _sums(group)
        if n == 0:
            continue
        paired = True
        observed_all += observed
        expected_all += (n * n - sum(c * c for c in per_value.values())) / (n - 1)
    if not paired:
        return None, NO_PAIRS
    if expected_all == 0:
        return None, ONE_VALUE
    return 1.0 - observed_all / expected_all, None


def alpha(units: Iterable, resamples: int = RESAMPLES, seed: int = SEED) -> Alpha:
    """α over units (see patterns()) with a 95% percentile bootstrap interval over the pairable
    units (resamples with this seed; resamples whose α is undefined are left out). resamples=0
    skips the interval."""
    return alpha_of(patterns(units), resamples, seed)


def alpha_of(
    counted: Counter, resamples: int = RESAMPLES, seed: int = SEED, strata: bool = False
) -> Alpha:
    """alpha() of units already counted as patterns (patterns(), or a tally's); with strata
    the keys are (stratum, pattern) and α is stratified (see _alpha)."""
    counted = Counter(
        {k: n for k, n in counted.items() if sum(c for _, c in (k[1] if strata else k)) >= 2 and n}
    )
    size = sum(counted.values())
    value, reason = _alpha(counted.items(), strata)
    result = Alpha(size, value, reason)
    if value is None or not resamples:
        return result
    rng = random.Random(seed)
    shapes = sorted(counted)  # one order whatever order the units came in: one interval
    weights = [counted[p] / size for p in shapes]
    draws = []
    for _ in range(resamples):
        drawn, _why = _alpha(zip(shapes, multinomial(rng, size, weights), strict=True), strata)
        if drawn is not None:
            draws.append(drawn)
    if draws:
        draws.sort()
        result.ci95 = (_quantile(draws, 0.025), _quantile(draws, 0.975))
    return result


def _quantile(ordered: list[float], q: float) -> float:
    """The q quantile by linear interpolation between order statistics (numpy's default)."""
    at = q * (len(ordered) - 1)
    low = floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def multinomial(rng: random.Random, n: int, probabilities: list[float]) -> list[int]:
    """Counts of n draws over the categories: conditional binomials, one per category."""
    out, left, rest = [], n, 1.0
    for i, p in enumerate(probabilities):
        if i == len(probabilities) - 1 or left == 0:
            out.append(left)
            left = 0
            continue
        k = binomial(rng, left, min(1.0, p / rest)) if rest > 0 else 0
        out.append(k)
        left -= k
        rest -= p
    return out


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A Binomial(n, p) draw: Python 3.12's random.binomialvariate algorithm (geometric method
    for n·p < 10, else Hörmann's BTRS), here because the program runs on Python 3.10 on."""
    if p <= 0.0 or n == 0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - binomial(rng, n, 1.0 - p)
    if n * p < 10.0:
        x = y = 0
        c = log(1.0 - p)
        if not c:
            return 0
        while True:
            y += floor(log(1.0 - rng.random()) / c) + 1
            if y > n:
                return x
            x += 1
    return _btrs(rng, n, p)


def _btrs(rng: random.Random, n: int, p: float) -> int:
    spq = sqrt(n * p * (1.0 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    vr = 0.92 - 4.2 / b
    alpha_ = (2.83 + 5.1 / b) * spq
    lpq = log(p / (1.0 - p))
    m = floor((n + 1) * p)
    h = lgamma(m + 1) + lgamma(n - m + 1)
    while True:
        u = rng.random() - 0.5
        us = 0.5 - abs(u)
        if us <= 0.0:
            continue
        k = floor((2.0 * a / us + b) * u + c)
        if k < 0 or k > n:
            continue
        v = rng.random()
        if us >= 0.07 and v <= vr:
            return k
        v *= alpha_ / (a / (us * us) + b)
        if v > 0 and log(v) <= h - lgamma(k + 1) - lgamma(n - k + 1) + (k - m) * lpq:
            return k
