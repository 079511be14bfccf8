"""E / R / A on text selected in the reader (issue 19 item 2): the selection becomes an
evidence item given as a span, or an alternative span of the selected item, written as the
judgement lines of design section 10; without a selection the keys stay the window's."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from desktop.ui import document_text
from tests.evaluation.test_span_items import db  # noqa: F401 (a fixture)
from tests.evaluation.test_span_scoring import DOCUMENTS
from tests.helpers import cli_here, write_jsonl
from tests.ui.uihelpers import idle


def select(window, qtbot, passage_id: str, start: int, end: int) -> None:
    """Show a passage in the reader and select its characters [start, end) with the cursor,
    the reader focused, as a reviewer's drag does."""
    pk = window.project.store.passage_pks([passage_id])[passage_id]
    reader = window.reader
    reader.show_passage(pk)
    reader.settle()
    at = document_text.passage_position(reader._window, reader._origin)  # the passage's start
    cursor = QTextCursor(reader.viewer.document())
    cursor.setPosition(at + start)
    cursor.setPosition(at + end, QTextCursor.MoveMode.KeepAnchor)
    reader.viewer.setTextCursor(cursor)
    window.activateWindow()
    reader.viewer.setFocus()
    qtbot.waitUntil(reader.viewer.hasFocus, timeout=2000)


def spans_judged(window) -> list[tuple]:
    return [
        (line["kind"], line["value"], line.get("span"), line.get("passage_id", "absent"))
        for line in window.project.judgement_lines()
    ]


def test_e_on_a_selection_adds_a_core_span_item_and_a_adds_an_alternative_span(
    open_window,
    qtbot,
    db,  # noqa: F811
):
    window = open_window(db)
    window.show_question("q1")
    idle(qtbot, window)
    # c40-d1-80 is d1[80:120), shown inside d1
    select(window, qtbot, "c40-d1-80", 5, 15)
    document, start, end = window.reader.selected_span()
    assert (document, 80 < start, end - start) == ("d1", True, 10)
    assert DOCUMENTS["d1"][start:end] == window.reader.viewer.textCursor().selectedText()
    qtbot.keyClick(window.reader.viewer, Qt.Key.Key_E)
    span = {"document_id": "d1", "start": start, "end": end}
    assert spans_judged(window) == [("evidence", True, span, None), ("role", "core", span, None)]
    assert f"d1:{start}-{end}" in window.statusBar().currentMessage()
    # undo takes back both lines, by the span; redo writes them again
    window.commands.undo()
    assert spans_judged(window)[2:] == [("role", None, span, None), ("evidence", None, span, None)]
    window.commands.redo()
    assert spans_judged(window)[4:] == [
        ("evidence", True, span, None),
        ("role", "core", span, None),
    ]
    # A: the selection an alternative span of the selected item (q1's first, c40-d1-40)
    window.select_item(0)
    item = window.selected_item()
    select(window, qtbot, "c40-d1-80", 0, 3)
    _, start, end = window.reader.selected_span()
    assert DOCUMENTS["d1"][start:end] == window.reader.viewer.textCursor().selectedText()
    qtbot.keyClick(window.reader.viewer, Qt.Key.Key_A)
    alt = {"document_id": "d1", "start": start, "end": end}
    assert spans_judged(window)[-1] == ("alternative", item.primary_id, alt, None)


def test_without_a_selection_r_is_the_windows_key(open_window, qtbot, db):  # noqa: F811
    window = open_window(db)
    window.show_question("q1")
    idle(qtbot, window)
    select(window, qtbot, "c40-d1-80", 0, 0)
    assert window.reader.selected_span() is None
    qtbot.keyClick(window.reader.viewer, Qt.Key.Key_R)
    assert all(line[2] is None for line in spans_judged(window))


def test_a_disagreement_about_a_span_is_adjudicated_by_its_span(open_window, qtbot, db, tmp_path):  # noqa: F811
    """kim and lee gave the span item d1:0-30 of q3 different roles: the window lists the
    disagreement, and settling it writes an adjudication naming the span (not a passage)."""
    span = {"document_id": "d1", "start": 0, "end": 30}
    base = {"question_id": "q3", "passage_id": None, "span": span}
    lines = [
        {**base, "reviewer": who, "at": at, "kind": kind, "value": value}
        for who, at, role in (
            ("kim", "2026-12-01T10:00:00+09:00", "core"),
            ("lee", "2026-12-01T11:00:00+09:00", "supporting"),
        )
        for kind, value in (("evidence", True), ("role", role))
    ]
    done = cli_here(db, "import", "judgements", str(write_jsonl(tmp_path / "j.jsonl", lines)))
    assert done.returncode == 0, done.stderr
    window = open_window(db, reviewer="park")
    window.show_question("q3")
    idle(qtbot, window)
    dispute = window.evidence_panel.current_dispute()
    assert dispute is not None and dispute.decision.span is not None
    window.commands.adjudicate(0)
    last = window.project.judgement_lines()[-1]
    assert (last["kind"], last["settles"], last["span"], last["passage_id"]) == (
        "adjudication",
        "role",
        span,
        None,
    )
    assert last["value"] in ("core", "supporting")
    idle(qtbot, window)
    assert window.evidence_panel.current_dispute() is None


def test_a_passage_of_another_chunking_is_judged_by_its_span(open_window, qtbot, tmp_path):
    """E, A and X on a ranking row of a run on another chunking: evidence names the gold's
    passages, so the row's passage is added by its span (never by an id another chunking may
    repeat), and X says so instead of writing a line."""
    study = tmp_path / "study.db"
    assert cli_here(study, "demo", "--study").returncode == 0
    window = open_window(study)
    window.show_question("q05")
    window.set_system("BM25-c500o100")
    idle(qtbot, window)
    window.select_passage(0)
    row = window.selected_passage()
    span = window.project.reads.passage_spans([row.passage_pk])[row.passage_pk]
    where = {"document_id": span[0], "start": span[1], "end": span[2]}
    window.gold.add_evidence("supporting")
    assert spans_judged(window) == [
        ("evidence", True, where, None),
        ("role", "supporting", where, None),
    ]
    window.select_item(0)
    item = window.selected_item()
    window.select_passage(1)
    row = window.selected_passage()
    span = window.project.reads.passage_spans([row.passage_pk])[row.passage_pk]
    window.commands.accept_alternative()
    alt = {"document_id": span[0], "start": span[1], "end": span[2]}
    assert spans_judged(window)[-1] == ("alternative", item.primary_id, alt, None)
    window.commands.mark_not_evidence()
    assert len(spans_judged(window)) == 3
    assert "another chunking" in window.statusBar().currentMessage()


def test_a_search_result_of_another_chunking_is_added_by_its_span(open_window, qtbot, tmp_path):
    """The corpus search finds passages of every chunking; one of another chunking than the
    gold's becomes evidence (or an alternative) by its span, as in the rankings."""
    study = tmp_path / "study.db"
    assert cli_here(study, "demo", "--study").returncode == 0
    window = open_window(study)
    window.show_question("q05")
    idle(qtbot, window)
    window.set_system("BM25-c500o100")
    idle(qtbot, window)
    window.select_passage(0)
    pk = window.selected_passage().passage_pk  # a passage of the 500-character chunking
    window.commands.search_dialog()
    reads = window.project.reads
    found = reads.passages_by_pk([pk])[pk]  # as the search dialog has it
    assert found["chunking_pk"] != 1
    span = reads.passage_spans([pk])[pk]
    where = {"document_id": span[0], "start": span[1], "end": span[2]}
    assert window.gold.add_found(found, "core")
    assert spans_judged(window) == [("evidence", True, where, None), ("role", "core", where, None)]
    item = window.session.view.items[0]
    assert window.gold.add_found_alternative(found, item)
    assert spans_judged(window)[-1] == ("alternative", item.primary_id, where, None)
    window.search.close()
