"""Building the gold in the window (issue 13): the pool queue, the keys that add, accept,
strike and drop, undo of an added item, the next unjudged passage coming up by itself, the
question list's pool count and filter, evidence from the corpus search and the reader's
neighbours, blind mode, and the whole "Done when" from no gold to qrels trec_eval reads."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading

import pytest
import pytrec_eval
from PySide6.QtCore import Qt, QUrl

import resources
from desktop.app.sample import manifest
from desktop.gold import pool
from desktop.project import Project
from desktop.ui.models.pool import PoolModel, PoolRow
from tests.ui.test_ui_models import checked, read_all  # noqa: F401  (checked: a fixture)
from tests.ui.uihelpers import idle, logged, read


def pool_of(db_path, qid: str, depth: int = 10) -> list[pool.PoolEntry]:
    with Project(db_path) as project:
        ((_, entries),) = project.pool(depth, questions=[qid])
    return entries


def shown(window) -> list[tuple[str, str]]:
    return [(r.question_id, r.passage_id) for r in window.pool_panel.model.rows]


def to_pool(window, qtbot, qid: str):
    window.show_question(qid)
    if window.middle_tabs.currentWidget() is not window.pool_panel:
        qtbot.keyClick(window, Qt.Key.Key_P)
        idle(qtbot, window)
    assert window.middle_tabs.currentWidget() is window.pool_panel
    return window.pool_panel


def kinds(db_path) -> list[tuple[str, str, object]]:
    return [(r["kind"], r["passage_id"], r["value"]) for r in logged(db_path)]


def test_pool_model(sample_db, checked, qtbot):  # noqa: F811
    entries = pool_of(sample_db, "q05")
    rows = [PoolRow(5, "q05", e, "제목", "본문 " * 50) for e in entries]
    model = checked(PoolModel())
    model.set_rows(rows, False, ["본문"])
    assert read_all(model) == len(rows) * PoolModel.COLUMNS
    first = model.index(0, PoolModel.COL_BY).data()
    assert first == ", ".join(entries[0].retrieved_by) and first
    assert model.row_of(5, entries[2].passage_pk) == 2
    model.set_rows(rows, True, [])  # blind: no system named
    assert all(model.index(r, PoolModel.COL_BY).data() == "" for r in range(model.rowCount()))
    model.set_rows([], False, [])
    assert model.rowCount() == 0


def test_the_queue_reads_the_first_passage_and_each_key_writes_its_lines(
    sample_db, open_window, qtbot
):
    window = open_window(sample_db)
    entries = pool_of(sample_db, "q05")
    panel = to_pool(window, qtbot, "q05")
    # The design's order (most systems, best rank, id), the first passage in the reader.
    assert shown(window) == [("q05", e.passage_id) for e in entries]
    first, second, third, fourth, fifth = entries[:5]
    assert read(window).passage_pk == first.passage_pk
    assert window.selected_passage().passage_id == first.passage_id
    assert window.middle_tabs.tabText(1).endswith(f"({len(entries)})")

    qtbot.keyClick(window, Qt.Key.Key_E)  # add as core: two lines, one time
    idle(qtbot, window)
    lines = logged(sample_db)
    assert kinds(sample_db) == [
        ("evidence", first.passage_id, True),
        ("role", first.passage_id, "core"),
    ]
    assert lines[0]["at"] == lines[1]["at"] and lines[0]["reviewer"] == "kim"
    item = next(i for i in window.view.items if i.primary_id == first.passage_id)
    assert item.role == "core"
    # The next unjudged passage came up by itself, in the queue and the reader.
    assert panel.current().passage_id == second.passage_id
    assert read(window).passage_pk == second.passage_pk
    assert panel.left() == len(entries) - 1

    qtbot.keyClick(window, Qt.Key.Key_R)  # add as supporting
    idle(qtbot, window)
    assert kinds(sample_db)[-2:] == [
        ("evidence", second.passage_id, True),
        ("role", second.passage_id, "supporting"),
    ]
    assert panel.current().passage_id == third.passage_id
    qtbot.keyClick(window, Qt.Key.Key_X)  # not evidence
    idle(qtbot, window)
    assert kinds(sample_db)[-1] == ("not_evidence", third.passage_id, True)
    assert panel.current().passage_id == fourth.passage_id
    # A: an alternative of the item selected in the evidence panel.
    window.select_item([i.primary_id for i in window.view.items].index(first.passage_id))
    qtbot.keyClick(window, Qt.Key.Key_A)
    idle(qtbot, window)
    assert kinds(sample_db)[-1] == ("alternative", fourth.passage_id, first.passage_id)
    assert panel.current().passage_id == fifth.passage_id
    judged = {first, second, third, fourth}
    assert [p for _, p in shown(window)] == [e.passage_id for e in entries if e not in judged]

    # D: drop the selected item, the reason kept as a note; both lines at one time.
    window.select_item([i.primary_id for i in window.view.items].index(second.passage_id))
    qtbot.keyClick(window, Qt.Key.Key_D)
    idle(qtbot, window)
    window.drop_dialog.editor.setPlainText("너무 넓은 근거")
    window.drop_dialog.accept()
    idle(qtbot, window)
    drop, note = logged(sample_db)[-2:]
    assert (drop["kind"], drop["passage_id"], drop["value"]) == ("drop", second.passage_id, True)
    assert (note["kind"], note["value"]) == ("note", "너무 넓은 근거")
    assert drop["at"] == note["at"]
    assert second.passage_id not in [i.primary_id for i in window.view.items]
    assert second.passage_id not in [p for _, p in shown(window)]  # a dropped item is judged
    with Project(sample_db) as project:
        ((_, left),) = project.pool(10, questions=["q05"])
    assert [p for _, p in shown(window)] == [e.passage_id for e in left]


def test_undo_takes_back_the_whole_add(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    first = pool_of(sample_db, "q05")[0]
    panel = to_pool(window, qtbot, "q05")
    qtbot.keyClick(window, Qt.Key.Key_E)
    idle(qtbot, window)
    assert panel.current().passage_id != first.passage_id
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    assert kinds(sample_db) == [
        ("evidence", first.passage_id, True),
        ("role", first.passage_id, "core"),
        ("role", first.passage_id, None),
        ("evidence", first.passage_id, None),
    ]
    undone = logged(sample_db)[2:]
    assert undone[0]["at"] == undone[1]["at"]
    assert first.passage_id not in [i.primary_id for i in window.view.items]
    assert first.passage_id in [p for _, p in shown(window)]  # unjudged again
    with Project(sample_db) as project:
        assert first.passage_pk in {e.passage_pk for _, es in project.pool(10) for e in es}
        q05 = project.reads.question("q05")["pk"]
        items = project.effective_gold().items[q05]
        assert first.passage_id not in [i.primary_id for i in items]  # nothing half-added
    # Redo adds both again; a second undo after a restart still takes both.
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.ShiftModifier)
    idle(qtbot, window)
    assert kinds(sample_db)[-2:] == [
        ("evidence", first.passage_id, True),
        ("role", first.passage_id, "core"),
    ]
    window.close()
    again = open_window(sample_db)
    again.show_question("q05")
    qtbot.keyClick(again, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, again)
    assert kinds(sample_db)[-2:] == [
        ("role", first.passage_id, None),
        ("evidence", first.passage_id, None),
    ]


def test_an_empty_pool_says_so_and_u_goes_to_the_next_one(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.session.set_pool(depth=1)
    idle(qtbot, window)
    panel = to_pool(window, qtbot, "q05")
    entries = pool_of(sample_db, "q05", depth=1)
    assert 0 < len(entries) == panel.left()
    for _ in entries:
        qtbot.keyClick(window, Qt.Key.Key_X)
        idle(qtbot, window)
    assert panel.left() == 0 and panel.current() is None
    assert "is judged" in panel.empty.text()
    assert panel.next_button.isVisible()
    qtbot.waitUntil(lambda: "U:" in window.statusBar().currentMessage(), timeout=2000)
    idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_U)
    idle(qtbot, window)
    order = [window.session.by_pk[pk]["id"] for pk in window.question_panel.order()]
    after = order[order.index("q05") + 1 :]
    expected = next(q for q in after if pool_of(sample_db, q, depth=1))
    assert window.current_question_id() == expected
    assert window.middle_tabs.currentWidget() is panel
    assert panel.current().passage_id == pool_of(sample_db, expected, depth=1)[0].passage_id
    assert read(window).passage_pk == panel.current().passage_pk


def test_the_question_list_counts_and_filters_on_the_pool(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    model = window.question_model
    pk = window.session.by_id["q05"]["pk"]
    with Project(sample_db) as project:
        counts = {qid: len(entries) for qid, entries in project.pool(10)}
    for qid, n in counts.items():
        assert model.summary(window.session.by_id[qid]["pk"]).unjudged == n
    row = model.row_of(pk)
    assert model.index(row, model.COL_POOL).data() == str(counts["q05"])
    to_pool(window, qtbot, "q05")
    qtbot.keyClick(window, Qt.Key.Key_X)  # kim's first line: a new reviewer, a full pass
    idle(qtbot, window)
    assert model.summary(pk).unjudged == counts["q05"] - 1
    changed, resets = [], []
    model.dataChanged.connect(
        lambda top, bottom, _roles=(): changed.append((top.row(), bottom.row()))
    )
    model.modelReset.connect(lambda: resets.append(1))
    qtbot.keyClick(window, Qt.Key.Key_X)
    idle(qtbot, window)
    assert model.summary(pk).unjudged == counts["q05"] - 2
    assert model.index(row, model.COL_POOL).data() == str(counts["q05"] - 2)
    assert resets == [] and set(changed) == {(row, row)}  # that one row, never a reset

    window.question_panel.only_unjudged.setChecked(True)
    shown_ids = {window.session.by_pk[model.pk_at(r)]["id"] for r in range(model.rowCount())}
    assert shown_ids == {qid for qid, n in counts.items() if n}
    window.session.set_pool(depth=2)
    idle(qtbot, window)
    assert model.row_of(pk) >= 0
    for _ in pool_of(sample_db, "q05", depth=2):
        qtbot.keyClick(window, Qt.Key.Key_X)
    idle(qtbot, window)
    assert model.summary(pk).unjudged == 0
    # Still listed (a row does not vanish under the cursor), until the filter is applied again.
    assert model.index(model.row_of(pk), model.COL_POOL).data() == ""
    window.question_panel.only_unjudged.setChecked(False)
    window.question_panel.only_unjudged.setChecked(True)
    assert model.row_of(pk) == -1


def test_evidence_from_the_corpus_search(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q03")
    qtbot.keyClick(window, Qt.Key.Key_S)
    idle(qtbot, window)
    dialog = window.search
    dialog.box.setText("국무총리")
    dialog.box.flush()
    qtbot.waitUntil(lambda: dialog.model.rowCount() > 2, timeout=10000)
    ids = [dialog.model.passage(r)["id"] for r in range(dialog.model.rowCount())]
    items = [i.primary_id for i in window.view.items]
    found = next(i for i in ids if i not in items)
    dialog.table.selectRow(ids.index(found))
    assert dialog.add_selected_as("supporting") is True
    idle(qtbot, window)
    assert kinds(sample_db) == [("evidence", found, True), ("role", found, "supporting")]
    assert found in [i.primary_id for i in window.view.items]
    assert dialog.target.count() == len(items) + 1  # the new item takes alternatives too
    assert "Added" in dialog.status.text()
    dialog.close()


def test_evidence_from_the_readers_neighbours(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    shown_pk = panel.current().passage_pk
    neighbour = read(window).neighbour_pks[-1]
    window.reader.viewer.anchorClicked.emit(QUrl(f"passage:{neighbour}"))  # a link click
    assert read(window).passage_pk == neighbour
    with Project(sample_db) as project:
        neighbour_id = project.reads.passages_by_pk([neighbour])[neighbour]["id"]
    assert window.selected_passage().passage_id == neighbour_id
    qtbot.keyClick(window, Qt.Key.Key_E)
    idle(qtbot, window)
    assert kinds(sample_db) == [("evidence", neighbour_id, True), ("role", neighbour_id, "core")]
    assert neighbour_id in [i.primary_id for i in window.view.items]
    assert panel.current().passage_pk == shown_pk  # the queue did not move on its own
    # The rankings' passages can be added too.
    window.middle_tabs.setCurrentWidget(window.rankings)
    window.select_passage(0)
    ranked = window.selected_passage()
    qtbot.keyClick(window, Qt.Key.Key_R)
    idle(qtbot, window)
    if ranked.items:  # already an item: R marks its role
        assert kinds(sample_db)[-1] == ("role", ranked.passage_id, "supporting")
    else:
        assert kinds(sample_db)[-2:] == [
            ("evidence", ranked.passage_id, True),
            ("role", ranked.passage_id, "supporting"),
        ]


def test_blind_mode_hides_which_systems_retrieved_it(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    assert not panel.table.isColumnHidden(PoolModel.COL_BY)
    assert all(r.entry.retrieved_by for r in panel.model.rows)
    window.act_blind.trigger()
    idle(qtbot, window)
    assert panel.table.isColumnHidden(PoolModel.COL_BY)
    assert all(r.entry.retrieved_by == () for r in panel.model.rows)
    by = [panel.model.index(r, PoolModel.COL_BY).data() for r in range(panel.model.rowCount())]
    assert set(by) == {""}
    tips = {panel.model.index(0, c).data(Qt.ItemDataRole.ToolTipRole) for c in range(6)}
    assert not any(s["name"] in (t or "") for s in window.session.systems for t in tips)
    # The order is the same: it names no system.
    assert [p for _, p in shown(window)] == [e.passage_id for e in pool_of(sample_db, "q05")]


def test_a_reviewers_own_order_and_the_queue_across_questions(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    entries = pool_of(sample_db, "q05")
    panel.shuffled.setChecked(True)
    mine = pool.ordered(entries, shuffle_for="kim", question="q05")
    assert [p for _, p in shown(window)] == [e.passage_id for e in mine]
    assert mine != entries
    panel.shuffled.setChecked(False)

    panel.across.setChecked(True)
    assert panel.settle()  # the next questions' pools are read on a worker
    assert not panel.table.isColumnHidden(PoolModel.COL_QUESTION)
    questions = [q for q, _ in shown(window)]
    assert questions[: len(entries)] == ["q05"] * len(entries)
    assert questions[len(entries)] == "q06"  # the next question in list order
    row = len(entries) + 1  # q06's second passage
    picked = panel.model.row(row)
    panel.choose(row)
    assert window.current_question_id() == "q06"
    assert panel.current() == picked
    assert read(window).passage_pk == picked.passage_pk
    assert panel.settle()
    assert [q for q, _ in shown(window)][0] == "q06"


def import_without_gold(window, qtbot) -> None:
    """The sample's corpus, questions and runs, imported in the window (File menu's imports,
    without their file dialogs), and no gold."""
    spec = manifest()
    base = resources.path("sample")
    files = [("corpus", spec["corpus_file"], {}), ("questions", spec["questions"], {})]
    files += [("run", s["file"], {"system": s["name"]}) for s in spec["systems"]]
    for kind, name, options in files:
        window.files.start_import(kind, base / name, **options)
        qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=20000)
        window.message_box.close()
    idle(qtbot, window)


def judge_pool(window, qtbot, qid: str, keys) -> list[str]:
    """Press one key per pool passage of qid, in queue order; the passage ids judged."""
    window.activateWindow()  # after a dialog: offscreen, no window manager gives it back
    qtbot.waitUntil(window.isActiveWindow)
    panel = to_pool(window, qtbot, qid)
    judged = []
    for key in keys:
        judged.append(panel.current().passage_id)
        qtbot.keyClick(window, key)
        idle(qtbot, window)
    return judged


def search_and_add(window, qtbot, text: str, judged: list[str]) -> str:
    """Search the corpus for text and add its first hit not judged yet as supporting."""
    window.commands.search_dialog()
    dialog = window.search
    dialog.box.setText(text)
    dialog.box.flush()
    qtbot.waitUntil(lambda: dialog.model.rowCount() > 0, timeout=10000)
    ids = [dialog.model.passage(r)["id"] for r in range(dialog.model.rowCount())]
    found = next(i for i in ids if i not in judged)
    dialog.table.selectRow(ids.index(found))
    assert dialog.add_selected_as("supporting")
    idle(qtbot, window)
    dialog.close()
    return found


def test_done_when_two_reviewers_build_the_gold_from_the_pool_alone(tmp_path, open_window, qtbot):
    kim_db, lee_db = tmp_path / "kim.db", tmp_path / "lee.db"
    E, R, X = Qt.Key.Key_E, Qt.Key.Key_R, Qt.Key.Key_X
    # kim starts from an empty database: questions and runs, no gold at all; judges q05's
    # pool and finds one more passage by searching the corpus.
    kim = open_window(kim_db, reviewer="kim")
    import_without_gold(kim, qtbot)
    assert kim.pages.currentIndex() == kim.PAGE_REVIEW
    with Project(kim_db) as project:
        assert project.evaluate([5]).evaluated == 0  # no gold at all
    k5 = judge_pool(kim, qtbot, "q05", [E, R, X])
    searched = search_and_add(kim, qtbot, "국무총리", k5)
    k2 = judge_pool(kim, qtbot, "q02", [E, X])
    idle(qtbot, kim)
    kim.close()

    # lee, separately: agrees on q05's first two, not on the third (adds it, where kim said
    # not evidence); on q02 calls kim's core passage not evidence.
    lee = open_window(lee_db, reviewer="lee")
    import_without_gold(lee, qtbot)
    l5 = judge_pool(lee, qtbot, "q05", [E, R, R])
    assert search_and_add(lee, qtbot, "국무총리", l5) == searched  # found by both
    l2 = judge_pool(lee, qtbot, "q02", [X, X])
    assert (l5, l2) == (k5, k2)  # the same pool, the same order
    idle(qtbot, lee)
    lee.close()

    # Merged in kim's window: the disagreements are listed.
    window = open_window(kim_db, reviewer="kim")
    window.files.start_merge(lee_db)
    qtbot.waitUntil(lambda: "merged" in window.last_message, timeout=10000)
    window.message_box.close()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    idle(qtbot, window)
    window.question_panel.only_disputed.setChecked(True)
    model = window.question_model
    disputed = {window.session.by_pk[model.pk_at(r)]["id"] for r in range(model.rowCount())}
    assert disputed == {"q05", "q02"}
    window.show_question("q05")
    (dispute,) = window.view.disputes
    assert (dispute.kind, dispute.passage_id) == ("evidence", k5[2])
    assert dispute.values == {"kim": False, "lee": True}
    # Adjudicated: lee's value (an item) for q05, kim's (also an item) on q02.
    window.evidence_panel.dispute_table.selectRow(0)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    window.show_question("q02")
    (dispute,) = window.view.disputes
    assert dispute.values == {"kim": True, "lee": False}
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    assert window.view.disputes == []
    idle(qtbot, window)
    window.close()

    with Project(kim_db) as project:
        effective = project.effective_gold()
        q05 = project.reads.question("q05")["pk"]
        assert sorted(i.primary_id for i in effective.items[q05]) == sorted([*k5, searched])
        scores = project.evaluate([5]).as_json(per_question=True)

    qrels_path = tmp_path / "gold.qrels"
    out = subprocess.run(
        [sys.executable, "-m", "desktop", "--db", str(kim_db), "export", "gold", str(qrels_path)]
        + ["--format", "qrels"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    lines = [line.split() for line in qrels_path.read_text(encoding="utf-8").splitlines()]
    assert all(len(parts) == 4 and parts[1] == "0" for parts in lines)
    levels = {(q, p): int(level) for q, _, p, level in lines}
    assert levels[("q05", k5[0])] == 2  # core, agreed
    assert levels[("q05", k5[1])] == 1  # supporting, agreed
    assert levels[("q05", k5[2])] == 1  # added by adjudication, its role still pending
    assert levels[("q05", searched)] == 1  # found in the corpus by both, supporting
    assert levels[("q02", k2[0])] == 1  # kim's core is pending: the item, unassigned
    assert levels[("q02", k2[1])] == 0  # both: not evidence

    # trec_eval's reading of the file scores a run as the app does.
    with open(qrels_path, encoding="utf-8") as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    spec = manifest()
    run_file = resources.path("sample") / spec["systems"][0]["file"]
    with open(run_file, encoding="utf-8") as handle:
        run = pytrec_eval.parse_run(handle)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"P_5", "recall_5"})
    theirs = evaluator.evaluate({q: run[q] for q in qrels})
    system = spec["systems"][0]["name"]
    ours = {r["question"]: r for r in scores["per_question"] if r["system"] == system}
    for qid in ("q05", "q02"):
        assert theirs[qid]["P_5"] == pytest.approx(ours[qid]["P@5"])
        assert theirs[qid]["recall_5"] == pytest.approx(ours[qid]["Recall@5"])


def test_across_questions_the_queue_moves_on_when_a_question_is_judged(
    sample_db, open_window, qtbot
):
    window = open_window(sample_db)
    window.session.set_pool(depth=1)
    idle(qtbot, window)
    panel = to_pool(window, qtbot, "q05")
    panel.across.setChecked(True)
    assert panel.settle()
    mine = [p for q, p in shown(window) if q == "q05"]
    nxt = next(r for r in panel.model.rows if r.question_id != "q05")
    for _ in mine:
        qtbot.keyClick(window, Qt.Key.Key_X)
        idle(qtbot, window)
    # The last one judged, the next question's first passage comes up by itself.
    qtbot.waitUntil(lambda: window.current_question_id() == nxt.question_id, timeout=2000)
    assert panel.current() == nxt
    assert read(window).passage_pk == nxt.passage_pk
    assert window.selected_passage().passage_id == nxt.passage_id


def test_keys_faster_than_the_build_act_on_what_the_previous_key_left(
    sample_db, open_window, qtbot
):
    """The judged question is built on a worker: a second key pressed before that build is
    shown still acts on the passage the first key moved on to, not again on the first."""
    window = open_window(sample_db)
    entries = pool_of(sample_db, "q05")
    to_pool(window, qtbot, "q05")
    first, second = entries[:2]
    qtbot.keyClick(window, Qt.Key.Key_X)
    qtbot.keyClick(window, Qt.Key.Key_X)  # at once: no wait for the first key's build
    idle(qtbot, window)
    assert kinds(sample_db) == [
        ("not_evidence", first.passage_id, True),
        ("not_evidence", second.passage_id, True),
    ]


def test_the_queue_across_questions_reads_nothing_on_the_gui_thread(sample_db, open_window, qtbot):
    """The next questions' pools, excerpts and suggestions are read on a worker and kept: the
    GUI thread runs no statement while the queue fills across questions."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    gui = threading.main_thread()
    seen: list[str] = []
    window.project.store.trace(
        lambda sql: seen.append(sql) if threading.current_thread() is gui else None
    )
    try:
        panel.across.setChecked(True)
        assert panel.settle()
        filled = list(seen)
        others = [r for r in panel.model.rows if r.question_id != "q05"]
        assert others and others[0].question_id == "q06"
        assert any(r.title or r.text for r in others)  # the excerpts came with them
    finally:
        window.project.store.trace(None)
    assert filled == [], filled


def test_the_next_questions_pools_kept_are_read_again_after_a_merge(
    sample_db, tmp_path, open_window, qtbot
):
    """The next questions' pools are kept across keys, but lines merged from another
    reviewer's database drop them: a passage judged there leaves the queue."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    panel.across.setChecked(True)
    assert panel.settle()
    nxt = next(r for r in panel.model.rows if r.question_id != "q05")
    other = tmp_path / "lee.db"
    with sqlite3.connect(sample_db) as ours, sqlite3.connect(other) as copy:
        ours.backup(copy)
    with Project(other) as theirs:
        theirs.add_judgement("lee", nxt.question_id, "not_evidence", True, nxt.passage_id)
    window.files.start_merge(other)
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=20000)
    window.message_box.close()
    idle(qtbot, window)
    assert (nxt.question_id, nxt.passage_id) not in shown(window)
    assert any(q != "q05" for q, _ in shown(window))  # the queue still goes on across
