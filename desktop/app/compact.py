"""Per-question tables in flat arrays instead of dicts, for what a pass keeps for every
question: the store's question keys are integers and come in ascending order, so a sorted
array of them and bisection find a question's row. 8 bytes a question for the key and one
number per value, where a dict entry with its objects takes about a hundred. No Qt here."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence


class Ordered(Mapping):
    """Integer key -> its position among the keys, appended in ascending order."""

    __slots__ = ("_keys",)

    def __init__(self, keys: Iterable[int] = ()):
        self._keys = array("q")
        for key in keys:
            self.add(key)

    def add(self, key: int) -> int:
        """Append key (greater than every key so far); returns its position."""
        if self._keys and key <= self._keys[-1]:
            raise ValueError(f"key {key} after {self._keys[-1]}: keys must ascend")
        self._keys.append(key)
        return len(self._keys) - 1

    def index(self, key) -> int:
        if isinstance(key, int):
            i = bisect_left(self._keys, key)
            if i < len(self._keys) and self._keys[i] == key:
                return i
        raise KeyError(key)

    __getitem__ = index

    def __contains__(self, key) -> bool:
        try:
            self.index(key)
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class Keyed(Ordered):
    """Integer key (appended in ascending order) -> a number of array typecode ``typecode``,
    given back through ``kind`` (bool for flags kept as bytes)."""

    __slots__ = ("values", "kind")

    def __init__(self, typecode: str = "q", kind=None):
        super().__init__()
        self.values = array(typecode)
        self.kind = kind

    def put(self, key: int, value) -> None:
        self.add(key)
        self.values.append(value)

    def __getitem__(self, key):
        value = self.values[self.index(key)]
        return value if self.kind is None else self.kind(value)


def positions(keys: Iterable) -> Mapping:
    """key -> its position in keys: an Ordered where the keys are ascending integers (the
    store's), else a dict (any other keys, as tests and metrics.evaluate's callers use)."""
    keys = iter(keys)
    ordered = Ordered()
    for key in keys:
        if isinstance(key, int) and not isinstance(key, bool):
            if not ordered._keys or key > ordered._keys[-1]:
                ordered.add(key)
                continue
        # Not ascending integers: a dict of everything.
        plain = {k: i for i, k in enumerate(ordered._keys)}
        plain[key] = len(ordered)
        for i, rest in enumerate(keys, len(ordered) + 1):
            plain[rest] = i
        return plain
    return ordered


def keys(items: Iterable) -> Sequence:
    """These keys in an array where they are all integers (the store's), else a list."""
    out = array("q")
    rest = iter(items)
    for key in rest:
        if type(key) is not int or not -(1 << 63) <= key < 1 << 63:
            return [*out, key, *rest]
        out.append(key)
    return out
