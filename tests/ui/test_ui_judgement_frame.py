"""A judgement shown within a frame (issue 23): after the write, the evidence table and the
rankings show what was judged in the key's own event, before the judged question's rebuild
comes back from its worker; the rebuild then replaces it where it differs. The key's view is
built by the one build of the gold (review.at_key calls question_gold), so it is the view the
rebuild gives when nothing else was written meanwhile."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from desktop import review
from desktop.gold import effective as gold
from desktop.project import Project
from desktop.ui import terms
from tests.ui.test_ui_pool_key import built, hold_builder
from tests.ui.uihelpers import idle, logged

ITEM = "art-071"  # an item of q03, imported core


def _role_shown(window, passage_id: str = ITEM) -> tuple[str, str | None]:
    """The evidence table's role cell of the item, and the role it stands for."""
    model = window.evidence_panel.model
    row = [i.primary_id for i in model.items].index(passage_id)
    cell = model.data(model.index(row, model.COL_ROLE))
    return cell, model.items[row].role


def _on_item(window, qtbot, qid: str = "q03", passage_id: str = ITEM):
    window.show_question(qid)
    idle(qtbot, window)
    window.select_item([i.primary_id for i in window.view.items].index(passage_id))
    idle(qtbot, window)
    return window.session.view


def test_the_judged_role_is_shown_before_the_rebuild_arrives(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    view = _on_item(window, qtbot)
    assert _role_shown(window)[1] == "core"
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_2)  # supporting
        assert [r["value"] for r in logged(sample_db, kind="role")] == ["supporting"]
        # In the key's event: the rebuild is held on its worker, the table shows the role.
        assert not built(window, view)
        cell, role = _role_shown(window)
        assert role == "supporting"
        assert cell.startswith(terms.role("supporting"))
        assert window.session.mine("role", ITEM) == "supporting"
        assert window.evidence_panel.selected().primary_id == ITEM  # the selection stays
    finally:
        release.set()
    qtbot.waitUntil(lambda: built(window, view), timeout=5000)
    idle(qtbot, window)
    assert _role_shown(window)[1] == "supporting"


def test_a_ranked_passage_struck_is_marked_before_the_rebuild(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q05")
    idle(qtbot, window)
    view = window.session.view
    model = window.rankings.panels[0].model
    row = next(n for n, r in enumerate(model.rows) if not r.items)
    window.rankings.panels[0].table.selectRow(row)
    window.rankings.panels[0].table.setFocus()
    idle(qtbot, window)
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_X)
        assert not built(window, view)
        assert model.rows[row].not_evidence
        font = model.data(model.index(row, model.COL_PASSAGE), Qt.ItemDataRole.FontRole)
        assert font is not None and font.strikeOut()
    finally:
        release.set()
    qtbot.waitUntil(lambda: built(window, view), timeout=5000)
    assert model.rows[row].not_evidence


def _other_reviewer_says(db_path, role: str) -> None:
    """Another reviewer's line on the item, written by another connection (as another window
    would) before the key's time: the key does not know it, the rebuild reads it."""
    with Project(db_path) as project:
        project.add_judgement_lines(
            "lee",
            [{"question_id": "q03", "kind": "role", "value": role, "passage_id": ITEM}],
            "2020-01-01T00:00:00.000+00:00",
        )


def test_a_rebuild_that_differs_from_what_the_key_showed_is_followed(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    view = _on_item(window, qtbot)
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_2)
        keyed = window.session.view
        assert keyed is window.session.keyed
        assert keyed.items[0].role_status != gold.DISPUTED
        _other_reviewer_says(sample_db, "core")
    finally:
        release.set()
    qtbot.waitUntil(lambda: built(window, view), timeout=5000)
    idle(qtbot, window)
    item = window.evidence_panel.model.items[0]
    assert item.primary_id == ITEM
    assert item.role_status == gold.DISPUTED  # kim says supporting, lee core
    assert item.votes == {"kim": "supporting", "lee": "core"}
    assert [d.passage_id for d in window.view.disputes] == [ITEM]


def test_an_undo_right_after_the_key_undoes_that_judgement(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    view = _on_item(window, qtbot)
    release = hold_builder(window)
    # The undo waits for the judged build when it needs it: the held build is let go soon.
    threading.Timer(0.3, release.set).start()
    try:
        qtbot.keyClick(window, Qt.Key.Key_2)
        assert _role_shown(window)[1] == "supporting"
        assert not built(window, view)
        window.act_undo.trigger()
    finally:
        release.set()
    idle(qtbot, window)
    assert [r["value"] for r in logged(sample_db, kind="role")] == ["supporting", None]
    assert window.session.mine("role", ITEM) is None
    assert _role_shown(window)[1] == "core"
    assert window.session.keyed is None


def test_a_judgement_on_a_question_left_does_not_paint_over_the_next(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    _on_item(window, qtbot)
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_2)
        assert _role_shown(window)[1] == "supporting"
        window.show_question("q05")  # before q03's rebuild came back
        shown = [i.primary_id for i in window.evidence_panel.model.items]
    finally:
        release.set()
    idle(qtbot, window)
    qtbot.wait(50)  # the rebuild's result, queued from the worker, is delivered
    assert window.current_question_id() == "q05"
    assert window.session.view.id == "q05" and window.session.keyed is None
    assert [i.primary_id for i in window.evidence_panel.model.items] == shown
    assert ITEM not in shown


def _built(project, question, reviewers: list[str]):
    return review.question_view(
        project, question, project.systems()[:2], 5, "kim", False, reviewers, 10, marks=[]
    )


def test_the_key_view_is_the_rebuild_when_nothing_else_was_written(sample_db):
    """review.at_key gives the view question_view builds after the write: the same items,
    roles and statuses, rankings' marks, disagreements, notes and pool (what the window shows
    at the key is what its rebuild shows); a line that changes where the systems find an item
    is left to the rebuild (None)."""
    shown = ("items", "rankings", "disputes", "notes", "mine", "pool", "answerable")
    shown += ("answerable_status", "answerable_votes", "suggestions")
    with Project(sample_db) as project:
        question = project.reads.question("q05")
        view = _built(project, question, [])
        ranked = [r.passage_id for r in view.rankings[project.systems()[0]["name"]]]
        strangers = [p for p in ranked if p not in {i.primary_id for i in view.items}]
        stranger = strangers[0]
        for lines in (
            [{"kind": "role", "value": "supporting", "passage_id": view.items[0].primary_id}],
            [{"kind": "not_evidence", "value": True, "passage_id": stranger}],
            [{"kind": "note", "value": "보류", "passage_id": ""}],
            [{"kind": "answerable", "value": False, "passage_id": ""}],
        ):
            rows = project.add_judgement_lines(
                "kim", [{**line, "question_id": "q05"} for line in lines]
            )
            keyed = review.at_key(project, view, question, rows, "kim", False, ["kim"], [])
            view = _built(project, question, ["kim"])
            assert keyed is not None, lines
            for name in shown:
                assert getattr(keyed, name) == getattr(view, name), (lines, name)
        primary = view.items[0].primary_id
        alternative = {"kind": "alternative", "value": primary, "passage_id": strangers[1]}
        rows = project.add_judgement_lines("kim", [{**alternative, "question_id": "q05"}])
        assert review.at_key(project, view, question, rows, "kim", False, ["kim"], []) is None


def test_a_judgement_not_shown_at_its_key_starts_its_build_at_once(
    sample_db, open_window, qtbot, monkeypatch
):
    """Only a key whose effect is already on screen (the pool moved on, the judged view shown)
    holds its question's build until that frame is painted; another starts it in the key's
    event, since the window shows nothing until it comes (the systems shown were taken for
    that flag once, and every build was held)."""
    window = open_window(sample_db)
    window.show_question("q03")
    idle(qtbot, window)
    builder, started = window.metrics.builder, []
    start = builder.start
    monkeypatch.setattr(
        builder, "start", lambda name, *a, **k: [started.append(name), start(name, *a, **k)][1]
    )
    question = window.session.question()
    window.metrics.after_judgement(question, False, shown=False)
    assert started == ["judged"]  # in the key's event
    idle(qtbot, window)
    window.metrics.after_judgement(question, False, shown=True)
    assert started == ["judged"]  # held until the frame
    qtbot.waitUntil(lambda: started == ["judged", "judged"], timeout=2000)
    idle(qtbot, window)


def test_the_passage_read_with_the_view_is_not_shown_once_a_key_changed_its_items(
    sample_db, open_window, qtbot
):
    """The view a key shows (review.at_key) keeps the passage its question opens on, read with
    the roles before the key: the reader reads that passage again (its document marks the
    items with their roles) instead of showing the old reading; the rebuild brings a new one."""
    window = open_window(sample_db)
    view = _on_item(window, qtbot)
    opening = window.session.view.opening
    assert opening is not None and opening.items == review.reading_items(view)
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_2)  # supporting: the items' roles change
        keyed = window.session.view
        assert keyed is not view and keyed.opening is opening
        window.reader.show_passage(opening.passage_pk)
        assert window.reader.pending  # read again on the worker, with the key's items
    finally:
        release.set()
    assert window.reader.settle()
    qtbot.waitUntil(lambda: built(window, view), timeout=5000)
    idle(qtbot, window)
    rebuilt = window.session.view.opening
    assert rebuilt.items == review.reading_items(window.session.view) != opening.items
    window.reader.show_passage(rebuilt.passage_pk)
    assert not window.reader.pending  # the rebuild's own, read with its items
