"""Small helpers shared by the window tests."""

from __future__ import annotations

import json

from desktop.project import Project


def idle(qtbot, window, timeout: int = 20000) -> None:
    """Wait until the window's metrics workers have finished and the reader shows what was
    asked of it."""
    qtbot.waitUntil(lambda: not window.metrics_busy(), timeout=timeout)
    window.pool_panel.settle()
    window.reader.settle()


def read(window):
    """The window's reader once the passage asked of it is shown (it is read on a worker)."""
    assert window.reader.settle()
    return window.reader


def logged(db_path, **where) -> list[dict]:
    """The judgement log as another connection sees it: what was committed."""
    with Project(db_path) as project:
        rows = project.store.judgements()
    out = []
    for row in rows:
        row = dict(row, value=json.loads(row["value"]))
        if all(row.get(k) == v for k, v in where.items()):
            out.append(row)
    return out


def recall(db_path, system: str, label: str, reviewer=None, blind=False) -> float:
    """A mean measure straight from the domain layer, to check the panel against."""
    with Project(db_path) as project:
        (scores,) = project.evaluate([5, 10], systems=[system]).systems
    return scores.means[label]


def panel_value(window, system: str, label: str) -> float | None:
    model = window.metrics_model
    return model.value(system, label)
