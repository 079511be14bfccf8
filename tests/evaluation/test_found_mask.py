""" "Found within the top K" is one rule (metrics.found_mask), read by compare's found masks,
the report's stored masks and the window's counts and "only it finds" marks."""

from __future__ import annotations

from desktop.evaluation import compare, metrics
from desktop.evaluation.metrics import Item, found_mask


def test_an_item_counts_from_its_first_rank_up_to_and_including_k():
    first = [3, None, 1, 5]
    assert found_mask(first, 1) == 0b0100
    assert found_mask(first, 3) == 0b0101
    assert found_mask(first, 5) == 0b1101
    assert found_mask([], 10) == 0 and found_mask([None, None], 10) == 0


def test_compare_masks_are_the_rule_applied_to_first_ranks():
    gold = {"q1": [Item(p, "core", frozenset({p})) for p in "abc"]}
    lists = {"q1": ["x", "b", "a", "y", "z"]}
    matches, _ = metrics.match(gold["q1"], lists["q1"])
    first = [m.rank for m in matches]
    assert first == [3, 2, None]
    assert compare.found_masks(gold, lists, [1, 2, 3]) == {"q1": [0, 0b010, 0b011]}
