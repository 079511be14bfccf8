"""desktop/review/candidates.py (issue 21), Qt-free: the phrases a candidate shares with its
item, the reviewer's dismissals, an item's candidates and the pool's marks on the sample with a
planted near copy (tests/ui/planted.py)."""

from __future__ import annotations

import pytest

from desktop.gold import candidates as rule
from desktop.project import Project
from desktop.review import candidates as found_for
from tests.ui.planted import COPY_ID, ITEM, QUESTION, planted_sample


@pytest.fixture
def planted(tmp_path):
    folder = tmp_path / "planted"
    folder.mkdir()
    with Project(planted_sample(folder)) as project:
        yield project


def test_shared_phrases_are_runs_of_shared_trigrams():
    item = "대통령의 임기는 5년으로 하며, 중임할 수 없다."
    assert found_for.shared_spans(item, item) == ((0, len(item)),)
    text = "국회의원의 임기는 4년으로 한다."
    spans = found_for.shared_spans(item, text)
    # "4년" differs from "5년": two phrases (a phrase is at least two trigrams long).
    assert [text[a:b] for a, b in spans] == ["의 임기는 ", "년으로 "]
    assert found_for.shared_spans(item, "전혀 다른 글입니다") == ()


def test_a_withdrawn_dismissal_no_longer_dismisses():
    def line(at, value, reviewer="kim"):
        return {
            "pk": 0,
            "reviewer": reviewer,
            "at": at,
            "question_id": "q1",
            "kind": "dismissed",
            "passage_id": "p9",
            "value": "null" if value is None else f'"{value}"',
        }

    rows = [line("2026-12-04T10:00:00Z", "p2"), line("2026-12-04T09:00:00Z", "p2", "lee")]
    assert found_for.dismissed_by(rows, "kim") == {"p2": {"p9"}}
    rows.append(line("2026-12-04T11:00:00Z", None))
    assert found_for.dismissed_by(rows, "kim") == {}
    assert found_for.dismissed_by(rows, "lee") == {"p2": {"p9"}}


def test_the_near_copy_is_the_items_first_candidate_and_dismissals_leave_it_out(planted):
    question = planted.store.question(QUESTION)
    item = (planted.store.passage_pks([ITEM])[ITEM], ITEM)
    systems = planted.systems()
    found = found_for.item_candidates(planted, question, item, [item[0]], systems, 5, "kim")
    assert found.candidates[0].passage_id == COPY_ID
    assert all(c.score >= rule.THRESHOLD for c in found.candidates)
    planted.add_judgement("kim", QUESTION, "dismissed", ITEM, passage_id=COPY_ID)
    again = found_for.item_candidates(planted, question, item, [item[0]], systems, 5, "kim")
    assert COPY_ID not in [c.passage_id for c in again.candidates] and again.dismissed == 1
    other = found_for.item_candidates(planted, question, item, [item[0]], systems, 5, "lee")
    assert other.candidates[0].passage_id == COPY_ID


def test_pool_marks_reuse_the_pairs_checked_before(planted, monkeypatch):
    question = planted.store.question(QUESTION)
    pks = planted.store.passage_pks([ITEM, "art-070", COPY_ID])
    items = [(pks[ITEM], ITEM), (pks["art-070"], "art-070")]
    pool = [e.passage_pk for e in planted.pool(10, questions=[QUESTION])[0][1]]
    scored: dict = {}
    marks = found_for.pool_marks(planted, question, items, pool, "kim", scored)
    assert [m[0] for m in marks[pks[COPY_ID]]] == [ITEM]
    assert set(marks) == {pks[COPY_ID]}

    def searched(*_args):
        raise AssertionError("searched again")

    monkeypatch.setattr(rule, "candidate_scores", searched)
    assert found_for.pool_marks(planted, question, items, pool[::2], "kim", scored) == {
        p: m for p, m in marks.items() if p in pool[::2]
    }
