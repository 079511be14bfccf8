"""The import progress dialog names the phase it is in, so that a big corpus import never
sits at 99% without saying why (issue 9, point 9)."""

from __future__ import annotations

import json

from desktop.project import Project
from desktop.ui import terms


def test_the_progress_dialog_names_each_phase(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    folder = tmp_path / "volumes"
    folder.mkdir()
    for v in range(2):
        with open(folder / f"v{v}.jsonl", "w", encoding="utf-8") as handle:
            for i in range(30_000):
                handle.write(json.dumps({"id": f"p{v}-{i}", "text": "대한민국 헌법"}) + "\n")
    task = window.files.start_import("corpus", folder)
    dialog = window.progress_dialog
    labels: list[str] = []
    shown = task.on_progress

    def record(*args) -> None:
        shown(*args)
        labels.append(dialog.labelText())

    task.on_progress = record
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=120000)
    for phase in ("reading", "building the search index"):
        assert any(label.endswith(terms.phase(phase)) for label in labels), (phase, labels[-3:])
    with Project(db_path) as project:
        assert project.info()["passages"] == 60_000
