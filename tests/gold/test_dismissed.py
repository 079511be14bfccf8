"""The dismissed line (issue 21): a candidate alternative a reviewer dismissed for an item,
kept in the log like every other line (import, export, merge, journal, undo) and never part of
the gold: the effective gold, the metrics and `export gold` stay as they were."""

from __future__ import annotations

import json
import shutil

import pytest

from desktop.project import Project
from desktop.readers import InputError
from desktop.review.history import UndoHistory
from tests.helpers import small_project, snapshot, write_jsonl

DISMISS = {
    "reviewer": "lee",
    "at": "2026-12-04T10:00:00+09:00",
    "question_id": "q1",
    "kind": "dismissed",
    "passage_id": "p4",  # the candidate
    "value": "p2",  # the item's primary passage
}


def _lone_kim(project, tmp_path) -> None:
    """kim alone has judged: kim's role line counts at once (single-reviewed)."""
    small_project(project, tmp_path)
    project.add_judgement("kim", "q2", "role", "core", passage_id="p3")


def _gold_bytes(project, tmp_path, name: str) -> bytes:
    out = tmp_path / name
    project.export_gold(out, "jsonl")
    return out.read_bytes()


def test_a_dismissed_line_imports_and_leaves_the_gold_and_metrics_as_they_were(project, tmp_path):
    _lone_kim(project, tmp_path)
    gold_before = _gold_bytes(project, tmp_path, "before.jsonl")
    metrics_before = project.evaluate([1, 5])
    report = project.import_judgements(write_jsonl(tmp_path / "lee.jsonl", [DISMISS]))
    assert report.rows == 1
    (line,) = [r for r in project.judgement_lines() if r["kind"] == "dismissed"]
    assert (line["passage_id"], line["value"]) == ("p4", "p2")
    # lee only dismissed a candidate: kim is still the only reviewer, kim's line still counts.
    assert project.reviewers() == ["kim"]
    assert _gold_bytes(project, tmp_path, "after.jsonl") == gold_before
    assert project.evaluate([1, 5]) == metrics_before
    (decision,) = project.effective_gold().decisions
    assert decision.status == "single" and decision.counts


def test_a_dismissed_line_round_trips_through_export_and_the_journal(project, tmp_path):
    _lone_kim(project, tmp_path)
    project.import_judgements(write_jsonl(tmp_path / "lee.jsonl", [DISMISS]))
    out = tmp_path / "all.jsonl"
    project.export_judgements(out)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x for x in lines if x["kind"] == "dismissed"] == [{**DISMISS, "passage_id": "p4"}]
    other = Project(tmp_path / "other.db")
    try:
        small_project(other, tmp_path)
        assert other.import_judgements(out).rows == 2
        assert other.judgement_lines() == project.judgement_lines()
    finally:
        other.close()
    # The journal beside the database holds it too: restore puts it back.
    project.store.conn.execute("DELETE FROM judgement WHERE kind = 'dismissed'")
    assert project.restore_judgements().rows == 1
    assert any(r["kind"] == "dismissed" for r in project.judgement_lines())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"value": 5}, "dismissed line's value must be the primary passage id"),
        ({"value": "p3"}, "dismissed line's value must be the primary passage of one of"),
        ({"passage_id": "p99"}, "unknown passage id 'p99'"),
        ({"passage_id": None}, "a dismissed judgement needs a 'passage_id'"),
        ({"kind": "adjudication", "settles": "dismissed"}, "an adjudication needs 'settles'"),
    ],
)
def test_a_bad_dismissed_line_is_refused_with_its_line(project, tmp_path, change, message):
    small_project(project, tmp_path)
    before = snapshot(project.path)
    bad = write_jsonl(tmp_path / "bad.jsonl", [{**DISMISS, **change}])
    with pytest.raises(InputError, match=r"bad\.jsonl:1: ") as caught:
        project.import_judgements(bad)
    assert message in str(caught.value)
    assert snapshot(project.path) == before


def test_dismissed_lines_merge_both_ways_without_loss(tmp_path):
    kim = Project(tmp_path / "kim.db")
    small_project(kim, tmp_path)
    kim.close()
    shutil.copy(tmp_path / "kim.db", tmp_path / "lee.db")
    kim, lee = Project(tmp_path / "kim.db"), Project(tmp_path / "lee.db")
    try:
        kim.add_judgement("kim", "q1", "dismissed", "p2", passage_id="p3")
        lee.add_judgement("lee", "q1", "dismissed", "p2", passage_id="p4")
        lee.add_judgement("lee", "q1", "dismissed", None, passage_id="p4", at="2099-01-01T00:00Z")
        assert kim.merge(lee.path).rows == 2
        assert lee.merge(kim.path).rows == 1
        assert kim.judgement_lines() == lee.judgement_lines()
        assert len([x for x in kim.judgement_lines() if x["kind"] == "dismissed"]) == 3
    finally:
        kim.close()
        lee.close()


def test_a_dismissal_undoes_and_redoes_as_one_step(project, tmp_path):
    small_project(project, tmp_path)
    rows = project.add_judgement_lines(
        "lee", [{"question_id": "q1", "kind": "dismissed", "value": "p2", "passage_id": "p4"}]
    )
    history = UndoHistory(rows)
    (undo,) = history.undo_lines()
    assert (undo["kind"], undo["passage_id"], undo["value"]) == ("dismissed", "p4", None)
    history.record_all(project.add_judgement_lines("lee", [undo], "2099-01-01T00:00:00+00:00"))
    assert not history.can_undo() and history.can_redo()
    (redo,) = history.redo_lines()
    assert redo["value"] == "p2"


def test_the_log_takes_every_kind_the_readers_know():
    from db.judgement_kinds import STORED_KINDS as STORED
    from desktop.readers import KINDS

    assert set(KINDS) <= set(STORED)
