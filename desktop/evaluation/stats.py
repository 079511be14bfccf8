"""Percentile bootstrap intervals and paired randomization tests for per-question scores, in
pure Python and fast enough for thousands of questions times ten systems.

Per-question Recall@K is a fraction found/total with a small total (the question's evidence
items), so every value is handed over exactly as (numerator, denominator) and turned into an
integer in units of 1/scale, where scale is the least common multiple of the denominators.
The columns being tested (one per system and K) are then packed side by side into one Python
integer per question, each in a field wide enough never to carry into the next: adding the
packed integers of the questions a resample picks adds every column at once, at C speed. The
resampled sums are exact, so the intervals and the comparisons against the observed difference
have no rounding in them. Where the packed integers of thousands of questions would take more
than PACKED_BYTES, the columns are packed in turns, each turn drawing again from the same
seed: the numbers are those of one turn, and the memory does not grow with the columns.

Both procedures draw from ``random.Random(seed)`` and are reproducible for a given seed. The
same resampled questions (bootstrap) and the same sign vectors (randomization) serve every
column and every pair: each interval and each test is valid on its own, they are just not
independent of one another.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import add, floordiv, getitem, lshift, mul, ne, sub

# Beyond this the scale is no longer the exact common denominator but a power of two, and
# values are rounded to 1/2**60: far below anything a report shows.
MAX_SCALE_BITS = 60
_HEX = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))
# What the packed integers of one turn may take together: past it, the columns (bootstrap) or
# pairs (randomization) are packed in turns, each drawing the same resamples or signs from
# the same seed, so that the results are those of packing them all at once. Each turn pays
# Python's cost per integer added once more: the report's ninety pairs of a measure (ten
# systems, two K) at 5,000 questions fit in one or two turns of 2 MB, where four to seven
# turns of 512 kB took a third longer; the randomization's peak is then about 25 MB (its
# subset tables take four times the packed integers), against 3 MB.
PACKED_BYTES = 1 << 21
_INT_OVERHEAD = 40  # bytes of a Python int's header and of the list's pointer to it

Tick = Callable[[int, int], None]


class Lazy(Sequence):
    """Columns made when asked for: ``Lazy(count, make)[c]`` is ``make(c)``, so that a test
    can read its columns from a file one at a time instead of being handed them all."""

    def __init__(self, count: int, make: Callable[[int], Sequence[int]]):
        self._count, self._make = count, make

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, c):
        if not 0 <= c < self._count:
            raise IndexError(c)
        return self._make(c)


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
    exact = all(scale % d == 0 for d in set(denominators))

    def units():
        if exact:  # the common case, every value by its whole factor at C speed
            return map(mul, numerators, map(floordiv, repeat(scale), denominators))
        return (_units(num, den, scale) for num, den in zip(numerators, denominators, strict=True))

    if len(numerators) != len(denominators):
        raise ValueError("a column and its denominators differ in length")
    try:
        return array("q", units())
    except OverflowError:
        return list(units())


def percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default), of sorted values."""
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _per_turn(rows: int, width: int, fields: int, budget: int | None) -> int:
    """How many fields of ``width`` bits to pack into each of ``rows`` integers so that they
    take about ``budget`` bytes together (PACKED_BYTES by default; at least one field, at
    most all of them)."""
    per_row = (PACKED_BYTES if budget is None else budget) // max(rows, 1) - _INT_OVERHEAD
    return max(1, min(fields, per_row * 8 // width))


def bootstrap_ci(
    numerators: Sequence[Sequence[int]],
    denominators: Sequence[int],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    tick: Tick | None = None,
    budget: int | None = None,
) -> list[tuple[float, float]]:
    """Percentile bootstrap interval of the mean of numerators[c][i] / denominators[i] over the
    questions i, for every column c: ``resamples`` times, draw as many questions as there are,
    with replacement, and take the mean; the interval is the (1-confidence)/2 and
    (1+confidence)/2 percentiles of those means. ``tick(done, total)`` is called now and
    then and may raise to stop. Each column is read (``numerators[c]``) once, so it may come
    from a file as it is asked for."""
    n = len(denominators)
    columns = len(numerators)
    if n == 0 or columns == 0:
        return [(math.nan, math.nan)] * columns
    scale = common_scale(denominators)
    width = (n * scale).bit_length() + 1
    mask = (1 << width) - 1
    sums: list[list[int]] = [[] for _ in range(columns)]
    turns = _turns(columns, _per_turn(n, width, columns, budget))
    work = resamples * len(turns)
    for t, chosen in enumerate(turns):
        packed = [0] * n
        for j, c in enumerate(chosen):
            shift = j * width
            for i, (num, den) in enumerate(zip(numerators[c], denominators, strict=True)):
                packed[i] += _units(num, den, scale) << shift
        # Which questions a resample draws depends on the seed and n alone: every turn draws
        # the same ones, so the columns are resampled together as if packed at once.
        choices = random.Random(seed).choices
        for r in range(resamples):
            total = sum(choices(packed, k=n))
            for j, c in enumerate(chosen):
                sums[c].append((total >> (j * width)) & mask)
            if tick and r % 50 == 49:
                tick(t * resamples + r + 1, work)
        del packed
    tail = (1.0 - confidence) / 2.0
    out = []
    for column in sums:
        means = sorted(s / (scale * n) for s in column)
        out.append((percentile(means, tail), percentile(means, 1.0 - tail)))
    return out


def _turns(fields: int, per_turn: int) -> list[range]:
    return [range(first, min(first + per_turn, fields)) for first in range(0, fields, per_turn)]


class _Units:
    """The columns in units of 1/scale, each converted once and handed out as often as asked."""

    def __init__(self, numerators, denominators, scale: int):
        self.numerators, self.denominators, self.scale = numerators, denominators, scale
        self.kept: dict[int, Sequence[int]] = {}

    def __getitem__(self, c: int) -> Sequence[int]:
        values = self.kept.get(c)
        if values is None:
            values = _unit_column(self.numerators[c], self.denominators, self.scale)
            self.kept[c] = values
        return values


def randomization_p_values(
    numerators: Sequence[Sequence[int]],
    denominators: Sequence[int],
    pairs: Sequence[tuple[int, int]],
    *,
    permutations: int = 1000,
    seed: int = 0,
    tick: Tick | None = None,
    budget: int | None = None,
) -> list[float]:
    """Two-sided paired randomization (sign-flip) test per pair (a, b) of columns, on the mean
    per-question difference a - b: each permutation flips the sign of every question's
    difference with probability 1/2 (that is, swaps the two systems' scores on it); the p-value
    is (1 + permutations whose |mean difference| >= the observed one) / (1 + permutations).
    Questions where every pair's difference is 0 change no statistic and are left out.
    ``numerators[c]`` is read once per column."""
    n = len(denominators)
    if not pairs:
        return []
    if n == 0:
        return [1.0] * len(pairs)
    scale = common_scale(denominators)
    units = _Units(numerators, denominators, scale)
    totals, differs = _observed(units, pairs, n)
    # Questions left out differ by 0 in every pair, so the sums over all and over keep agree.
    observed = [abs(t) for t in totals]
    keep = array("l", compress(range(n), differs))
    m = len(keep)
    if not m:
        return [1.0] * len(pairs)
    # Each field holds the sum over the flipped questions of (difference + scale) >= 0.
    width = (2 * scale * m).bit_length() + 1
    mask = (1 << width) - 1
    extreme = [0] * len(pairs)
    turns = _turns(len(pairs), _per_turn(m, width, len(pairs), budget))
    work = permutations * len(turns)
    digits = f"0{(m + 3) // 4}x"  # a sign vector in hexadecimal, a digit per four questions
    for t, chosen in enumerate(turns):
        tables = _nibble_sums(_packed(units, [pairs[p] for p in chosen], keep, width, scale))
        # The sign vectors depend on the seed and m alone: every turn flips the same ones.
        rng = random.Random(seed)
        for r in range(permutations):
            bits = rng.getrandbits(m)
            flipped = bits.bit_count()
            # Question i is flipped when bit m-1-i is set: each hexadecimal digit of the
            # vector picks the sum of its four questions' subset from their table, one
            # addition per four questions instead of one per flipped question.
            selectors = format(bits, digits).encode("ascii").translate(_HEX)
            total = sum(map(getitem, tables, selectors))
            for j, p in enumerate(chosen):
                flipped_sum = ((total >> (j * width)) & mask) - flipped * scale
                # Flipping the signs of a set F of differences gives  D - 2 * sum(F).
                if abs(totals[p] - 2 * flipped_sum) >= observed[p]:
                    extreme[p] += 1
            if tick and r % 50 == 49:
                tick(t * permutations + r + 1, work)
        del tables
    return [(1 + e) / (1 + permutations) for e in extreme]


def _observed(units, pairs, n: int) -> tuple[list[int], bytes]:
    """Each pair's observed total difference, and per question whether it differs in some
    pair, a pair at a time."""
    differs = 0  # a byte per question, 1 where some pair differs, as one integer
    totals = []
    sums: dict[int, int] = {}  # each column's sum once, not once per pair it is in
    for a, b in pairs:
        ua, ub = units[a], units[b]
        for c, values in ((a, ua), (b, ub)):
            if c not in sums:
                sums[c] = sum(values)
        totals.append(sums[a] - sums[b])
        differs |= int.from_bytes(bytes(map(ne, ua, ub)), "big")
    return totals, differs.to_bytes(n, "big")


def _nibble_sums(packed: list[int]) -> list[list[int]]:
    """Per four questions in a row (the first group short of as many as a whole number of
    hexadecimal digits leaves over, as the vector's leading digit), the sums of the packed
    integers of each of their 16 subsets, indexed by the digit whose bits (highest first)
    pick them: the same exact sums, added in fewer steps. (Tables of eight questions, 256
    entries each, add fewer still but lose more to the memory they are read from.)"""
    padded = [0] * (-len(packed) % 4) + packed
    tables = []
    for first in range(0, len(padded), 4):
        four = padded[first : first + 4]
        table = [0] * 16
        for digit in range(1, 16):
            low = digit & -digit  # the lowest bit set: question 4 - its bit_length of the four
            table[digit] = table[digit ^ low] + four[4 - low.bit_length()]
        tables.append(table)
    return tables


def _packed(units, pairs, keep, width: int, scale: int) -> list[int]:
    """Per kept question, the differences (+ scale, so never negative) of these pairs side by
    side in one integer, a field of ``width`` bits each, so one sum adds up every pair."""
    # Each pair's column of fields, then neighbours joined two by two until one is left: each
    # level handles every bit once, where adding the pairs one after the other would copy
    # the growing integers once per pair (quadratic in the pairs: at ninety pairs in one turn,
    # half as long as all the permutations' sums). The integers are the same, whatever the
    # order they are put together in.
    columns = []
    for a, b in pairs:
        ua, ub = map(units[a].__getitem__, keep), map(units[b].__getitem__, keep)
        columns.append(list(map(add, map(sub, ua, ub), repeat(scale))))
    fields = 1  # fields in each column of the level
    while len(columns) > 1:
        shift = fields * width
        joined = [
            list(map(add, low, map(lshift, high, repeat(shift))))
            for low, high in zip(columns[::2], columns[1::2], strict=False)  # odd: one over
        ]
        columns = joined + columns[len(joined) * 2 :]
        fields *= 2
    return columns[0]
