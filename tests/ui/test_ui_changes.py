"""`Changes` says what an operation changed, and the window refreshes only that (issue 24):
each import kind, a merge and a reviewer mark, through the real operations with the window
open. What is read again is seen from the session's `dataReloaded` (questions, systems and
texts read again) and from the metrics runner's passes started."""

from __future__ import annotations

import sqlite3

import resources
from desktop.app.sample import manifest
from desktop.project import Project
from desktop.readers.kinds import IMPORT_KINDS
from desktop.ui.operations import IMPORT_CHANGES, Changes
from tests.ui.uihelpers import idle


def run(window, qtbot, start) -> tuple[int, int]:
    """(times everything was read again, metrics passes started) while start() runs an
    operation on the tasks worker."""
    reloads = []
    window.session.dataReloaded.connect(lambda: reloads.append(1))
    passes = window.metrics.generation
    start()
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=20000)
    if window.message_box is not None:
        window.message_box.close()
    idle(qtbot, window)
    return len(reloads), window.metrics.generation - passes


def test_every_import_kind_names_what_it_changes_and_a_score_starts_the_pass():
    for kind in IMPORT_KINDS:
        changes = Changes.of_import(kind)
        assert changes.data, kind
        assert changes.scores, kind  # every kind can move a score: never a stale number
    assert set(IMPORT_CHANGES) == set(IMPORT_KINDS)
    assert not Changes("judgement", question=1).data
    assert Changes.of_import("sample").reviewers and Changes.of_import("sample").texts


def test_each_import_refreshes_what_it_changed(tmp_path, open_window, qtbot):
    window = open_window(tmp_path / "study.db")
    spec, base = manifest(), resources.path("sample")
    files = [("corpus", spec["corpus_file"], {}), ("questions", spec["questions"], {})]
    files += [("run", s["file"], {"system": s["name"]}) for s in spec["systems"][:1]]
    for kind, name, options in files:
        reloads, passes = run(
            window,
            qtbot,
            lambda k=kind, n=name, o=options: window.files.start_import(k, base / n, **o),
        )
        assert reloads == 1, kind  # the question list and the systems are read again
    assert window.question_model.rowCount() > 0 and len(window.session.systems) == 1
    question = window.current_question_id()

    # The gold: the question list and the systems stay; the metrics pass runs, and the
    # numbers it replaces are not shown meanwhile.
    reloads, passes = run(
        window, qtbot, lambda: window.files.start_import("gold", base / spec["gold"])
    )
    assert (reloads, passes) == (0, 1)
    assert window.current_question_id() == question
    assert window.session.board is not None  # the pass landed
    found = window.session.found(window.session.question()["pk"])
    assert found is not None and found[1] > 0  # the gold's items count now

    # Another reviewer's lines, merged and then imported as judgements: the same.
    other = tmp_path / "lee.db"
    with sqlite3.connect(tmp_path / "study.db") as ours, sqlite3.connect(other) as copy:
        ours.backup(copy)  # the same evaluation, as a colleague's copy would be
    with Project(other) as theirs:
        theirs.add_judgement("lee", question, "answerable", False)
        theirs.export_judgements(tmp_path / "lee.jsonl", "lee")
    reloads, passes = run(window, qtbot, lambda: window.files.start_merge(other))
    assert (reloads, passes) == (0, 1)
    assert "lee" in window.session.reviewers
    reloads, passes = run(
        window,
        qtbot,
        lambda: window.files.start_import("judgements", tmp_path / "lee.jsonl"),
    )
    assert (reloads, passes) == (0, 1)

    # A second system: read again, with the pass.
    second = spec["systems"][1]
    reloads, passes = run(
        window,
        qtbot,
        lambda: window.files.start_import("run", base / second["file"], system=second["name"]),
    )
    assert (reloads, passes) == (1, 1)
    assert len(window.session.systems) == 2
