"""The order of judgement lines is one rule (gold.effective.line_order): by instant, so that
lines written in two time zones order by when they happened, then by their place in the log."""

from __future__ import annotations

import json

from desktop.gold.effective import latest_values, line_order


def _line(pk: int, at: str, value: str) -> dict:
    return {
        "pk": pk,
        "at": at,
        "reviewer": "kim",
        "question_id": "q1",
        "kind": "role",
        "passage_id": "p1",
        "value": json.dumps(value),
        "settles": None,
    }


def test_lines_order_by_instant_then_by_their_place_in_the_log():
    seoul = _line(1, "2026-12-01T10:00:00+09:00", "core")  # 01:00 UTC, later as text
    utc = _line(2, "2026-12-01T02:00:00Z", "supporting")
    same_instant = _line(3, "2026-12-01T02:00:00+00:00", "core")
    assert sorted([same_instant, utc, seoul], key=line_order) == [seoul, utc, same_instant]


def test_the_latest_value_is_the_last_line_in_that_order():
    seoul = _line(1, "2026-12-01T10:00:00+09:00", "core")
    utc = _line(2, "2026-12-01T02:00:00Z", "supporting")
    votes, _, reviewers = latest_values([utc, seoul])
    assert votes[("q1", "role", "p1")] == {"kim": "supporting"} and reviewers == {"kim"}
