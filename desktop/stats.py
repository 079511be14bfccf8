"""Percentile bootstrap intervals and paired randomization tests for per-question scores, in
pure Python and fast enough for thousands of questions times ten systems.

Per-question Recall@K is a fraction found/total with a small total (the question's evidence
items), so every value is handed over exactly as (numerator, denominator) and turned into an
integer in units of 1/scale, where scale is the least common multiple of the denominators.
The columns being tested (one per system and K) are then packed side by side into one Python
integer per question, each in a field wide enough never to carry into the next: adding the
packed integers of the questions a resample picks adds every column at once, at C speed. The
resampled sums are exact, so the intervals and the comparisons against the observed difference
have no rounding in them.

Both procedures draw from ``random.Random(seed)`` and are reproducible for a given seed. The
same resampled questions (bootstrap) and the same sign vectors (randomization) serve every
column and every pair: each interval and each test is valid on its own, they are just not
independent of one another.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Callable, Iterable, Sequence
from itertools import compress

# Beyond this the scale is no longer the exact common denominator but a power of two, and
# values are rounded to 1/2**60: far below anything a report shows.
MAX_SCALE_BITS = 60
_BITS = bytes.maketrans(b"01", b"\x00\x01")

Tick = Callable[[int, int], None]


def common_scale(denominators: Sequence[int]) -> int:
    scale = 1
    for d in set(denominators):
        scale = scale * d // math.gcd(scale, d)
        if scale.bit_length() > MAX_SCALE_BITS:
            return 1 << MAX_SCALE_BITS
    return scale


def _units(numerator: int, denominator: int, scale: int) -> int:
    if scale % denominator == 0:
        return numerator * (scale // denominator)
    return (2 * numerator * scale + denominator) // (2 * denominator)  # rounded


def _unit_column(numerators: Sequence[int], denominators: Sequence[int], scale: int):
    """A column in units of 1/scale: 8 bytes a question in an array where the units fit
    (every value from 0 to 1 does, scale being at most 2**60), Python ints otherwise."""
    pairs = zip(numerators, denominators, strict=True)
    try:
        return array("q", (_units(num, den, scale) for num, den in pairs))
    except OverflowError:
        pairs = zip(numerators, denominators, strict=True)
        return [_units(num, den, scale) for num, den in pairs]


def percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default), of sorted values."""
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def bootstrap_ci(
    numerators: Sequence[Sequence[int]],
    denominators: Sequence[int],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    tick: Tick | None = None,
) -> list[tuple[float, float]]:
    """Percentile bootstrap interval of the mean of numerators[c][i] / denominators[i] over the
    questions i, for every column c: ``resamples`` times, draw as many questions as there are,
    with replacement, and take the mean; the interval is the (1-confidence)/2 and
    (1+confidence)/2 percentiles of those means. ``tick(done, resamples)`` is called now and
    then and may raise to stop."""
    n = len(denominators)
    columns = len(numerators)
    if n == 0 or columns == 0:
        return [(math.nan, math.nan)] * columns
    scale = common_scale(denominators)
    width = (n * scale).bit_length() + 1
    packed = [0] * n
    for c, column in enumerate(numerators):
        shift = c * width
        for i, (num, den) in enumerate(zip(column, denominators, strict=True)):
            packed[i] += _units(num, den, scale) << shift
    rng = random.Random(seed)
    mask = (1 << width) - 1
    sums: list[list[int]] = [[] for _ in range(columns)]
    choices = rng.choices
    for r in range(resamples):
        total = sum(choices(packed, k=n))
        for c in range(columns):
            sums[c].append((total >> (c * width)) & mask)
        if tick and r % 50 == 49:
            tick(r + 1, resamples)
    tail = (1.0 - confidence) / 2.0
    out = []
    for column in sums:
        means = sorted(s / (scale * n) for s in column)
        out.append((percentile(means, tail), percentile(means, 1.0 - tail)))
    return out


def randomization_p_values(
    numerators: Iterable[Sequence[int]],
    denominators: Sequence[int],
    pairs: Sequence[tuple[int, int]],
    *,
    permutations: int = 1000,
    seed: int = 0,
    tick: Tick | None = None,
) -> list[float]:
    """Two-sided paired randomization (sign-flip) test per pair (a, b) of columns, on the mean
    per-question difference a - b: each permutation flips the sign of every question's
    difference with probability 1/2 (that is, swaps the two systems' scores on it); the p-value
    is (1 + permutations whose |mean difference| >= the observed one) / (1 + permutations).
    Questions where every pair's difference is 0 change no statistic and are left out."""
    n = len(denominators)
    if not pairs:
        return []
    if n == 0:
        return [1.0] * len(pairs)
    scale = common_scale(denominators)
    units = [_unit_column(column, denominators, scale) for column in numerators]
    # The differences are taken a question at a time rather than kept per pair: with 45
    # pairs at two K, lists of them would outweigh everything else the report holds.
    columns = [(units[a], units[b]) for a, b in pairs]
    keep = [i for i in range(n) if any(ua[i] != ub[i] for ua, ub in columns)]
    # Questions left out differ by 0 in every pair, so the sums over all and over keep agree.
    totals = [sum(ua) - sum(ub) for ua, ub in columns]
    observed = [abs(t) for t in totals]
    if not keep:
        return [1.0] * len(pairs)
    # Each field holds the sum over the flipped questions of (difference + scale) >= 0.
    width = (2 * scale * len(keep)).bit_length() + 1
    packed = []
    for i in keep:
        value = 0
        for p, (ua, ub) in enumerate(columns):
            value += (ua[i] - ub[i] + scale) << (p * width)
        packed.append(value)
    rng = random.Random(seed)
    mask = (1 << width) - 1
    m = len(keep)
    extreme = [0] * len(pairs)
    for r in range(permutations):
        bits = rng.getrandbits(m)
        flipped = bin(bits).count("1")
        selectors = format(bits, f"0{m}b").encode("ascii").translate(_BITS)
        total = sum(compress(packed, selectors))
        for p in range(len(pairs)):
            flipped_sum = ((total >> (p * width)) & mask) - flipped * scale
            # Flipping the signs of a set F of differences gives  D - 2 * sum(F).
            if abs(totals[p] - 2 * flipped_sum) >= observed[p]:
                extreme[p] += 1
        if tick and r % 50 == 49:
            tick(r + 1, permutations)
    return [(1 + e) / (1 + permutations) for e in extreme]
