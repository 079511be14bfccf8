"""The passes over every question give way to a question switch (issue 23 item 4): the metrics
pass checks at least every few entries, a long SQLite statement on a worker pauses where it is
while the window asks, and a switch holds every such pass, not the metrics pass alone."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import Qt

from desktop import review
from desktop.project import Project
from desktop.review.overview import SLICE
from desktop.ui.worker import Worker
from tests.ui.uihelpers import idle

# Counts to a billion in SQLite: far longer than any test waits, so it is still running when
# it is held, and it ends only by being cancelled.
ENDLESS = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) "
    "SELECT count(*) FROM n"
)


def test_the_metrics_pass_gives_way_at_least_every_slice(sample_db):
    calls: list[tuple[int, int]] = []
    with Project(sample_db) as project:
        review.overview(
            project, "kim", False, [5, 10], lambda done, total: calls.append((done, total))
        )
    total = calls[-1][1]
    assert total > 2 * SLICE  # the sample has entries enough for slices to show
    done = [d for d, t in calls if t]
    assert done[0] == 0 and done[-1] == total
    assert max(b - a for a, b in zip(done[:-1], done[1:], strict=True)) <= SLICE
    # Between the reads before the first entry too (a total of 0 shows nothing).
    assert calls.index((0, total)) >= 2


def test_a_long_statement_pauses_while_the_window_asks_and_stops_when_cancelled(qtbot, sample_db):
    worker = Worker(sample_db, name="test")
    started = threading.Event()
    ended: list[str] = []

    def work(project, _progress):
        started.set()
        return project.store.conn.execute(ENDLESS).fetchone()

    op = worker.start(
        "endless",
        work,
        on_done=lambda _r: ended.append("done"),
        on_failed=lambda e: ended.append(f"failed: {e}"),
        on_cancelled=lambda: ended.append("cancelled"),
    )
    assert started.wait(10)
    worker.hold(60_000)
    qtbot.waitUntil(lambda: op.pauses >= 1, timeout=5000)
    if hasattr(time, "pthread_getcpuclockid"):  # the paused thread uses no CPU (Linux)
        clock = time.pthread_getcpuclockid(worker._thread.ident)
        before = time.clock_gettime(clock)
        time.sleep(0.3)
        assert time.clock_gettime(clock) - before < 0.05
    worker.cancel("endless")
    qtbot.waitUntil(lambda: ended == ["cancelled"], timeout=5000)
    worker.stop()


@pytest.mark.parametrize("action", ["switch", "judge"])
def test_a_switch_or_a_judgement_holds_every_pass_but_the_judged_build(
    action, qtbot, open_window, sample_db
):
    window = open_window(sample_db)
    metrics = window.metrics
    assert not any(w.give_way.is_set() for w in metrics.workers())
    if action == "switch":
        window.show_question(window.question_ids()[3])
    else:
        window.select_item(0)
        qtbot.keyClick(window, Qt.Key.Key_1)
    held = [metrics.worker, metrics.counter, metrics.comparison.worker]
    assert all(w.give_way.is_set() for w in held)
    assert not metrics.builder.give_way.is_set()
    idle(qtbot, window)
