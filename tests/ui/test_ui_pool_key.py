"""A pool key within a frame (issue 23): the passage after the judged one is shown in the queue
and the reader while the judged question's build still runs on its worker, and it is the one
the rebuilt queue shows; the judged passage has left the queue."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from tests.ui.test_ui_pool import pool_of, shown, to_pool
from tests.ui.uihelpers import idle, read


def hold_builder(window) -> threading.Event:
    """The builder of a judged question's view kept busy until the event is set: the key's
    build waits behind it, as a slow build would."""
    release = threading.Event()
    window.metrics.builder.start("held", lambda _project, _progress: release.wait(20))
    return release


def built(window, view) -> bool:
    """The judged question's build came back: a view other than the one before the key and
    than the one the key showed (issue 23: a judgement is shown at its key)."""
    return window.session.view is not view and window.session.keyed is None


def key_before_the_build(window, qtbot, key) -> tuple:
    panel = window.pool_panel
    judged, index, view = panel.current(), panel.table.currentIndex().row(), window.session.view
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, key)
        after = panel.current()
        # Shown from the queue it holds, with one read on the reader's worker: no build yet.
        qtbot.waitUntil(
            lambda: not window.reader.pending and window.reader.passage_pk == after.passage_pk,
            timeout=3000,
        )
        assert not built(window, view)
        assert after != judged
        assert judged.passage_id not in [p for _, p in shown(window)]
        assert window.selected_passage().passage_id == after.passage_id
        resets = []
        panel.model.modelReset.connect(lambda: resets.append(1))
    finally:
        release.set()
    qtbot.waitUntil(lambda: built(window, view), timeout=5000)
    idle(qtbot, window)
    assert not resets  # the build's queue is the one shown: not laid out and painted again
    return judged, index, after


def test_the_next_passage_is_shown_before_the_build_and_is_the_rebuilt_queues(
    sample_db, open_window, qtbot
):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    assert read(window).passage_pk == pool_of(sample_db, "q05")[0].passage_pk
    for key in (Qt.Key.Key_X, Qt.Key.Key_E, Qt.Key.Key_X):
        judged, index, after = key_before_the_build(window, qtbot, key)
        # The rebuilt queue is the pool as the store has it now, without the judged one,
        # and the passage picked at the key is the one in the judged one's row.
        rebuilt = pool_of(sample_db, "q05")
        assert shown(window) == [("q05", e.passage_id) for e in rebuilt]
        assert judged.passage_id not in [e.passage_id for e in rebuilt]
        assert rebuilt[index].passage_id == after.passage_id
        assert panel.current() == after
        assert read(window).passage_pk == after.passage_pk
        assert window.selected_passage().passage_id == after.passage_id
        assert window.middle_tabs.tabText(1).endswith(f"({len(rebuilt)})")


def test_a_queue_the_build_changed_otherwise_is_followed(sample_db, open_window, qtbot):
    """What the key foresaw is checked against the build: the passage picked at the key
    judged meanwhile (a line the key did not foresee) leaves it, and the build's next one is
    picked and read."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    entries = pool_of(sample_db, "q05")
    view = window.session.view
    release = hold_builder(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_X)
        qtbot.waitUntil(lambda: panel.current().passage_id == entries[1].passage_id, timeout=3000)
        # Written on the same question before its build ran: the build sees both lines.
        question = window.session.question()
        window.session.project.add_judgement_lines(
            window.session.reviewer,
            [
                {
                    "kind": "not_evidence",
                    "value": True,
                    "passage_id": entries[1].passage_id,
                    "question_id": question["id"],
                }
            ],
        )
    finally:
        release.set()
    qtbot.waitUntil(lambda: built(window, view), timeout=5000)
    idle(qtbot, window)
    rebuilt = pool_of(sample_db, "q05")
    assert [e.passage_id for e in rebuilt] == [e.passage_id for e in entries[2:]]
    assert panel.current().passage_id == entries[2].passage_id
    assert read(window).passage_pk == entries[2].passage_pk


def test_the_next_passage_read_ahead_is_shown_at_the_key_itself(sample_db, open_window, qtbot):
    """The passage a key moves on to was read while the judged one was shown: the key shows
    it with no worker round trip at all and its document laid out ahead, and the one after it
    is read ahead in turn; the judged question's build waits for the frame that shows it."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    entries = pool_of(sample_db, "q05")
    reader = window.reader
    for judged, after in zip(entries[:3], entries[1:4], strict=True):
        assert panel.current().passage_id == judged.passage_id
        qtbot.waitUntil(lambda: reader.laid_out_ahead, timeout=3000)
        qtbot.keyClick(window, Qt.Key.Key_X)
        assert not reader.pending and reader.passage_pk == after.passage_pk
        assert not reader.laid_out_ahead  # its document laid out ahead is the one shown
        assert panel.current().passage_id == after.passage_id
        # The judged question's build starts after this frame, not beside its painting.
        assert not window.metrics.builder.busy("judged") and window.metrics_busy()
        idle(qtbot, window)
        assert read(window).passage_pk == after.passage_pk
