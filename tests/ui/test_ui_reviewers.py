"""Two reviewers in the window: merge from the File menu's action, the disagreement filter,
both values side by side with notes, adjudication by one key moving the metrics panel, the
agreement panel, and blind mode."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt

from desktop.project import Project
from desktop.ui.models import DisputeModel, EvidenceModel
from tests.ui.uihelpers import idle, logged, panel_value


def two_reviewers(sample_template, tmp_path):
    """kim's and lee's databases: they disagree on the role of q01's art-128 (imported as
    supporting, missed at K = 5), agree on q02, and lee leaves a note on q01."""
    kim, lee = tmp_path / "kim.db", tmp_path / "lee.db"
    shutil.copy(sample_template, kim)
    shutil.copy(sample_template, lee)
    with Project(kim) as project:
        project.add_judgement("kim", "q01", "role", "core", passage_id="art-128")
        project.add_judgement("kim", "q02", "role", "core", passage_id="art-067")
    with Project(lee) as project:
        project.add_judgement("lee", "q01", "role", "supporting", passage_id="art-128")
        project.add_judgement("lee", "q01", "note", "보조 근거로 충분함", passage_id="art-128")
        project.add_judgement("lee", "q02", "role", "core", passage_id="art-067")
    return kim, lee


def core_recall(db_path, system="BM25-Kiwi"):
    with Project(db_path) as project:
        (scores,) = project.evaluate([5, 10], systems=[system]).systems
    return scores.means["CoreRecall@5"]


def test_merge_disagreement_filter_and_adjudication_by_key(
    sample_template, tmp_path, open_window, qtbot
):
    kim, lee = two_reviewers(sample_template, tmp_path)
    window = open_window(kim, reviewer="kim")
    assert window.evidence_panel.dispute_box.isHidden()
    window.files.start_merge(lee)
    qtbot.waitUntil(lambda: "merged 3 judgements" in window.last_message, timeout=10000)
    window.message_box.close()  # the report box is window-modal, as a reviewer sees it
    window.activateWindow()  # a window manager gives focus back; offscreen, we do
    qtbot.waitUntil(window.isActiveWindow)
    idle(qtbot, window)

    window.question_panel.only_disputed.setChecked(True)
    model = window.question_model
    assert [model.pk_at(r) for r in range(model.rowCount())] == [window.session.by_id["q01"]["pk"]]
    assert window.current_question_id() == "q01"
    # Both values side by side, with lee's note; the disputed role leaves the import standing.
    assert window.evidence_panel.dispute_box.isVisible()
    disputes = window.evidence_panel.dispute_model
    assert disputes.reviewers == ["kim", "lee"]
    assert disputes.index(0, DisputeModel.COL_WHAT).data() == "role · art-128"
    assert disputes.index(0, 1).data() == "core"
    assert disputes.index(0, 2).data() == "supporting\n“보조 근거로 충분함”"
    row = [i.primary_id for i in window.view.items].index("art-128")
    assert window.evidence_model.index(row, EvidenceModel.COL_ROLE).data() == (
        "supporting (disputed)"
    )
    # The agreement panel: kim and lee agree on one of the two roles both judged.
    (pair,) = window.metrics_dock.agreement_model.pairs
    assert (pair["reviewers"], pair["kind"], pair["items"], pair["agreement"]) == (
        ["kim", "lee"],
        "role",
        2,
        0.5,
    )
    assert "Open disagreements: 1" in window.metrics_dock.agreement_label.text()

    before = panel_value(window, "BM25-Kiwi", "CoreRecall@5")
    assert before == core_recall(kim)
    # The agreement reads the whole log: it follows the judgements while its tab is shown.
    window.metrics_dock.tabs.setCurrentIndex(1)
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # take kim's
    idle(qtbot, window)
    (line,) = logged(kim, kind="adjudication")
    assert (line["reviewer"], line["settles"], line["passage_id"], line["value"]) == (
        "kim",
        "role",
        "art-128",
        "core",
    )
    assert line["at"]
    assert window.evidence_model.index(row, EvidenceModel.COL_ROLE).data() == "core (adjud.)"
    assert window.evidence_panel.dispute_box.isHidden()
    idle(qtbot, window)
    after = panel_value(window, "BM25-Kiwi", "CoreRecall@5")
    assert after != before  # q01 now has a core item missed at 5
    assert abs(after - core_recall(kim)) < 1e-12
    assert "Open disagreements: 0" in window.metrics_dock.agreement_label.text()
    # The filter is applied again: no question has an open disagreement any more.
    window.question_panel.only_disputed.setChecked(False)
    window.question_panel.only_disputed.setChecked(True)
    assert model.rowCount() == 0


def test_merging_twice_adds_nothing_and_a_different_evaluation_is_refused(
    sample_template, tmp_path, open_window, qtbot
):
    kim, lee = two_reviewers(sample_template, tmp_path)
    window = open_window(kim)
    window.files.start_merge(lee)
    qtbot.waitUntil(lambda: "merged 3" in window.last_message, timeout=10000)
    window.message_box.close()
    window.files.start_merge(lee)
    qtbot.waitUntil(lambda: "merged 0" in window.last_message, timeout=10000)
    window.message_box.close()
    other = tmp_path / "other.db"
    with Project(other) as project:
        from tests.helpers import small_project

        small_project(project, tmp_path)
    window.files.start_merge(other)
    qtbot.waitUntil(lambda: "not the same evaluation" in window.last_message, timeout=10000)
    assert str(other) in window.last_message
    assert len(logged(kim)) == 5


def test_blind_mode_hides_the_other_reviewers(sample_template, tmp_path, open_window, qtbot):
    kim, lee = two_reviewers(sample_template, tmp_path)
    with Project(kim) as project:
        project.merge(lee)
    window = open_window(kim, reviewer="kim")
    window.show_question("q01")
    assert window.evidence_panel.dispute_box.isVisible()
    assert "lee" in window.evidence_panel.notes_view.text()

    window.act_blind.trigger()
    assert window.session.blind
    idle(qtbot, window)
    assert window.evidence_panel.dispute_box.isHidden()
    assert "lee" not in window.evidence_panel.notes_view.text()
    assert not window.question_panel.only_disputed.isEnabled()
    assert not window.metrics_dock.tabs.isTabEnabled(1)  # the agreement panel
    row = [i.primary_id for i in window.view.items].index("art-128")
    item = window.view.items[row]
    assert set(item.votes) == {"kim"}  # lee's vote is not shown
    assert item.role == "core"  # kim's own change, as if no one else had judged
    tip = window.evidence_model.index(row, EvidenceModel.COL_ROLE).data(Qt.ItemDataRole.ToolTipRole)
    assert "lee" not in tip
    assert window.question_model.summary(window.session.by_id["q01"]["pk"]).disputed == 0
    # Adjudication is not possible blind.
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    assert logged(kim, kind="adjudication") == []
    # The setting is kept.
    window.close()
    again = open_window(kim, reviewer="kim")
    assert again.session.blind and again.act_blind.isChecked()
    again.act_blind.trigger()
    idle(qtbot, again)
    assert not again.session.blind
    again.show_question("q01")
    assert again.evidence_panel.dispute_box.isVisible()


def test_a_second_reviewer_turns_single_into_pending(sample_db, open_window, qtbot):
    """The single-reviewer policy, visible in the window: a lone reviewer's change counts at
    once; once another reviewer is in the database it waits for agreement."""
    window = open_window(sample_db, reviewer="kim")
    window.show_question("q01")
    row = [i.primary_id for i in window.view.items].index("art-128")
    window.select_item(row)
    qtbot.keyClick(window, Qt.Key.Key_1)
    idle(qtbot, window)
    assert window.evidence_model.index(row, EvidenceModel.COL_ROLE).data() == "core (single)"
    idle(qtbot, window)
    with Project(sample_db) as project:
        project.add_judgement("lee", "q02", "note", "나중에 다시")
    window.set_reviewer("lee")  # same machine, another reviewer: reloads the gold
    idle(qtbot, window)
    assert window.evidence_model.index(row, EvidenceModel.COL_ROLE).data() == (
        "supporting (pending)"
    )


def test_only_a_second_person_joining_moves_the_other_questions(sample_db, open_window, qtbot):
    """A lone reviewer's change counts at once; the second person's first line makes it wait
    (design 6), so the scores of every question move: one full pass. A third person's first
    line moves no other question, so the window rescores only the judged one (a full pass
    there took seconds at a million passages for nothing) and the panel still equals the
    domain layer's scores."""
    with Project(sample_db) as project:
        project.add_judgement("kim", "q01", "role", "core", passage_id="art-128")
        systems = [s["name"] for s in project.reads.systems()]
    labels = ("CoreRecall@5", "Recall@5", "Recall@10")

    def domain():
        with Project(sample_db) as project:
            board = project.evaluate([5, 10]).systems
        return {(s.system, label): s.means[label] for s in board for label in labels}

    def panel(window):
        return {(s, label): panel_value(window, s, label) for s in systems for label in labels}

    def judge_first_item(window, question_id, passes):
        window.show_question(question_id)
        idle(qtbot, window)
        window.select_item(0)
        passes.clear()
        qtbot.keyClick(window, Qt.Key.Key_1)
        idle(qtbot, window)

    window = open_window(sample_db, reviewer="lee")
    alone = panel(window)
    assert alone == domain()
    passes: list[int] = []
    full_pass = window.metrics.full_pass
    window.metrics.full_pass = lambda: (passes.append(1), full_pass())[1]
    judge_first_item(window, "q02", passes)
    assert passes == [1]
    assert panel(window) == pytest.approx(domain(), abs=1e-12)
    # kim's change on q01 no longer counts alone: q01's scores moved without q01 being judged.
    assert panel(window)[("BM25-Kiwi", "CoreRecall@5")] != alone[("BM25-Kiwi", "CoreRecall@5")]

    window.set_reviewer("park")
    idle(qtbot, window)
    judge_first_item(window, "q03", passes)
    assert logged(sample_db, reviewer="park")
    assert passes == []
    assert panel(window) == pytest.approx(domain(), abs=1e-12)
