"""The disagreement queue (issue 22): with only disagreements shown and no order chosen, the
question list puts first the question whose disagreement splits more reviewers, then the one
whose disputed item moves the metrics more (a core item the systems differ on at K first)."""

from __future__ import annotations

import shutil

from desktop import review
from desktop.gold.effective import DISPUTED, Decision, GoldItem
from desktop.project import Project
from desktop.review.disputes import differ_at, dispute_rank
from tests.helpers import write_jsonl
from tests.ui.uihelpers import idle

PEOPLE = ("choi", "kim", "lee", "park")


def _item(pid, role):
    return GoldItem(0, pid, role, {})


def _dispute(pid, votes, kind="role"):
    return Decision("q", kind, pid, votes, DISPUTED)


def test_the_rank_counts_split_reviewers_then_how_the_metrics_move():
    items = [_item("a", "core"), _item("b", "supporting")]
    one_to_one = {"kim": "core", "lee": "supporting"}
    two_to_two = {**one_to_one, "park": "core", "choi": "supporting"}
    assert dispute_rank([_dispute("b", two_to_two)], [], items) == (2, 1, 1)
    assert dispute_rank([_dispute("a", one_to_one)], [], items, differ=["a"]) == (1, 3, 1)
    assert dispute_rank([_dispute("b", {"kim": True, "lee": None})], [], items, ["b"]) == (
        1,
        2,
        1,
    )
    not_core = {"kim": "supporting", "lee": None}
    assert dispute_rank([_dispute("b", not_core)], [], items) == (1, 0, 1)
    assert dispute_rank([], [], items) == (0, 0, 0)


def _pick(db):
    """From the sample's board at K = 5: a question with a supporting item the systems differ
    on, one with a core item they all agree on, and a third question."""
    with Project(db) as project:
        seen = review.overview(project, "kim", False, [5, 10])
        built = project.effective_gold()
        differ_supporting = agree_core = None
        for q in project.questions():
            items = built.items.get(q["pk"], [])
            entries = [seen.board.entries[s].get(q["pk"]) for s in seen.board.systems]
            differ = differ_at(items, entries, 5)
            for item in items:
                if item.role == "supporting" and item.primary_id in differ:
                    differ_supporting = differ_supporting or (q["id"], item.primary_id)
                if item.role == "core" and item.primary_id not in differ:
                    agree_core = agree_core or (q["id"], item.primary_id)
        assert differ_supporting and agree_core and differ_supporting[0] != agree_core[0]
        other = next(
            q["id"]
            for q in project.questions()
            if q["id"] not in (differ_supporting[0], agree_core[0]) and built.items.get(q["pk"])
        )
        return (
            differ_supporting,
            agree_core,
            (other, built.items[project.store.question(other)["pk"]][0].primary_id),
        )


def test_the_disagreement_list_is_a_queue(sample_template, tmp_path, open_window, qtbot):
    db = tmp_path / "team.db"
    shutil.copy(sample_template, db)
    differ_supporting, agree_core, other = _pick(db)
    with Project(db) as project:
        # other: a two-to-two split, first whatever it moves
        for who, role in zip(PEOPLE, ("core", "core", "supporting", "supporting"), strict=True):
            project.add_judgement(who, other[0], "role", role, passage_id=other[1])
        # a one-to-one split on a core item all systems find or all miss: last
        project.add_judgement("kim", agree_core[0], "role", "supporting", passage_id=agree_core[1])
        project.add_judgement("lee", agree_core[0], "role", "core", passage_id=agree_core[1])
        # a one-to-one split on a supporting item the systems differ on: before it
        question, passage = differ_supporting
        project.add_judgement("kim", question, "role", "supporting", passage_id=passage)
        project.add_judgement("lee", question, "role", "core", passage_id=passage)
    window = open_window(db, reviewer="kim")
    idle(qtbot, window)
    window.question_panel.only_disputed.setChecked(True)
    model = window.question_model
    ids = [model.summary(model.pk_at(r)).id for r in range(model.rowCount())]
    assert ids == [other[0], differ_supporting[0], agree_core[0]]


def test_the_agreement_tab_gives_alpha_and_names_the_machines(
    sample_template, tmp_path, open_window, qtbot
):
    db = tmp_path / "team.db"
    shutil.copy(sample_template, db)
    with Project(db) as project:
        for who, role in zip(PEOPLE, ("core", "core", "core", "supporting"), strict=True):
            project.add_judgement(who, "q01", "role", role, passage_id="art-128")
            project.add_judgement(who, "q02", "role", "core", passage_id="art-067")
        line = {"reviewer": "gpt", "at": "2026-12-01T10:00:00+09:00", "question_id": "q01"}
        line.update(kind="role", passage_id="art-128", value="supporting")
        project.import_judgements(write_jsonl(tmp_path / "gpt.jsonl", [line]), machine=True)
        expected = next(e for e in project.agreement()["alpha"] if e["kind"] == "all")
    window = open_window(db, reviewer="kim")
    window.metrics_dock.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: "gpt" in window.metrics_dock.agreement_label.text(), timeout=10000)
    text = window.metrics_dock.agreement_label.text()
    lo, hi = expected["ci95"]
    alpha = f"{expected['alpha']:.2f}"
    assert f"Krippendorff's α: {alpha} (95%: {lo:.2f}–{hi:.2f}) over 2 items" in text
    assert "Machines (compared, never counted in the gold): gpt." in text
    assert "Reviewers: choi, kim, lee, park." in text  # the machine is not a reviewer of the gold
