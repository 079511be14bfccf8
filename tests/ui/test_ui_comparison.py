"""The window's comparison tab (issue 10) and its only-found marks, and P@K / Judged@K in
the metrics panel (issue 13): each against the command line on the same database."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from desktop.evaluation import compare
from desktop.project import Project
from desktop.ui.metrics_dock import COMPARISON_TAB
from desktop.ui.models import EvidenceModel, PairsModel, SystemsModel, TiesModel
from desktop.ui.models.comparison import RowsModel, union_recall
from tests.helpers import cli, small_project
from tests.ui.uihelpers import idle, panel_value

VALUE = RowsModel.ValueRole


def cli_json(db, *args) -> dict:
    done = cli(db, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def column(model, header: str) -> int:
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return headers.index(header)


def rows_of(model) -> list[list]:
    return [
        [model.index(r, c).data(VALUE) for c in range(model.columnCount())]
        for r in range(model.rowCount())
    ]


def check_pairs(model: PairsModel, reference: dict, scope: list[str]) -> None:
    by_key = {(p["a"], p["b"], p["metric"]): p for p in reference["pairs"]}
    expected = [
        key
        for key in by_key
        if (key[0], key[1]) == tuple(scope)
        or len(scope) != 2
        and scope.index(key[0]) < scope.index(key[1])
    ]
    keys = [model.index(r, 0).data(RowsModel.KeyRole) for r in range(model.rowCount())]
    assert sorted(keys) == sorted(expected)
    for r, key in enumerate(keys):
        row = rows_of(model)[r]
        want = by_key[key]
        assert row[3:8] == [want["wins"], want["ties"], want["losses"], want["p"], want["p_holm"]]
        assert (row[8] == "★") == (want["p_holm"] < compare.ALPHA)


def check_systems(model: SystemsModel, reference: dict, scope: list[str]) -> None:
    unique = {(u["system"], u["k"]): u["items"] for u in reference["unique"]}
    abstain = {a["system"]: a for a in reference["abstain"]}
    for r, name in enumerate(scope):
        assert model.index(r, 0).data(VALUE) == name
        for k in reference["k"]:
            cell = model.index(r, column(model, f"Only it @{k}")).data(VALUE)
            assert cell == unique[(name, k)]
        if name in abstain:
            auroc = model.index(r, column(model, "AUROC")).data(VALUE)
            assert auroc == abstain[name]["auroc"]
            assert (
                model.index(r, column(model, "Accuracy")).data(VALUE) == (abstain[name]["accuracy"])
            )


def check_ties(model: TiesModel, reference: dict, scope: list[str]) -> None:
    expected = [
        [t["system"], t["value"], t["low"], t["high"], t["questions"]]
        for t in reference["ties"]
        if t["system"] in scope and t["questions"]
    ]
    got = [[row[0], *row[2:]] for row in rows_of(model)]
    assert got == expected


def test_comparison_models_equal_compare_json(sample_db, qtlog):
    reference = cli_json(sample_db, "compare", "--k", "5,10")
    with Project(sample_db) as project:
        comparison = compare.compare(project, [5, 10])
    assert comparison.as_json() == reference
    names = comparison.systems
    models = [PairsModel(), SystemsModel(), TiesModel()]
    testers = [
        QAbstractItemModelTester(m, QAbstractItemModelTester.FailureReportingMode.Warning)
        for m in models
    ]
    pairs, systems, ties = models
    for scope in (names[:2], names[::-1][:2], names):
        for model in models:
            model.set_comparison(comparison, scope)
        check_pairs(pairs, reference, scope)
        check_systems(systems, reference, scope)
        check_ties(ties, reference, scope)
        union = union_recall(comparison, scope)
        for u in reference["union"]:
            if u["systems"] == names:
                assert union["all"][u["k"]] == u["Recall"]
            elif len(scope) == 2 and set(u["systems"]) == set(scope):
                assert union["pair"][u["k"]] == u["Recall"]
    assert pairs.rowCount() == len(names) * (len(names) - 1) // 2 * 10
    assert reference["abstain"] and ties.rowCount()  # the sample has both to show
    for model in models:
        model.set_comparison(None, names)
        assert model.rowCount() == 0
    assert testers
    assert not [r for r in qtlog.records if "FAIL" in r.message or "ASSERT" in r.message]


def show_comparison(window, qtbot) -> None:
    window.metrics_dock.tabs.setCurrentIndex(COMPARISON_TAB)
    runner = window.metrics.comparison
    qtbot.waitUntil(lambda: not runner.busy() and not runner.stale, timeout=30000)


def test_the_comparison_tab_follows_compare_mode_and_judgements(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q05")
    qtbot.keyClick(window, Qt.Key.Key_C)
    idle(qtbot, window)
    show_comparison(window, qtbot)
    panel = window.metrics_dock.comparison
    assert panel.scope() == ["BM25-Kiwi", "BM25-Bigram"]
    reference = cli_json(sample_db, "compare", "--k", "5,10")
    check_pairs(panel.pairs_model, reference, panel.scope())
    check_systems(panel.systems_model, reference, panel.scope())
    assert f"{reference['family']} tests" in panel.state.text()
    panel.all_systems.setChecked(True)
    assert panel.scope() == window.session.system_names()
    check_pairs(panel.pairs_model, reference, panel.scope())
    # A judgement: the window shows it at once; the comparison follows after a pause.
    before = panel.comparison
    window.commands.judge("role", "supporting", passage_id="art-084")
    idle(qtbot, window)
    assert window.view.items[0].role == "supporting"
    assert window.metrics.comparison.stale
    idle(qtbot, window)
    qtbot.waitUntil(lambda: panel.comparison is not before, timeout=30000)
    show_comparison(window, qtbot)
    after = cli_json(sample_db, "compare", "--k", "5,10")
    assert panel.comparison.as_json() == after
    check_pairs(panel.pairs_model, after, panel.scope())


def test_a_superseded_comparison_is_cancelled(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.metrics_dock.tabs.setCurrentIndex(COMPARISON_TAB)
    runner = window.metrics.comparison
    runner.timer.stop()
    runner.start()
    first = runner.worker.operations[-1]
    runner.start()
    assert first.is_cancelled
    show_comparison(window, qtbot)
    assert window.metrics_dock.comparison.comparison is not None


def test_a_judgement_is_rescored_while_a_comparison_runs(sample_db, open_window, qtbot):
    """The comparison has a worker of its own: a rescore never waits behind it."""
    window = open_window(sample_db)
    idle(qtbot, window)
    release, started = threading.Event(), threading.Event()
    runner = window.metrics.comparison

    def comparing(_project, _progress) -> None:
        started.set()
        release.wait(30)

    runner.worker.start("compare", comparing)
    # Running, not waiting to start: an operation not started yet is cancelled by the
    # judgement below without ever running.
    qtbot.waitUntil(started.is_set, timeout=10000)
    try:
        window.show_question("q05")
        window.commands.judge("role", "supporting", passage_id="art-084")
        idle(qtbot, window)
        qtbot.waitUntil(lambda: not window.metrics.busy(), timeout=10000)
        assert runner.worker.busy("compare") and not release.is_set()
        reference = cli_json(sample_db, "metrics", "--k", "5,10")
        for system in reference["systems"]:
            for label in ("Recall@5", "CoreRecall@5", "P@5"):
                assert panel_value(window, system["system"], label) == pytest.approx(
                    system[label], abs=1e-12
                ), (system["system"], label)
    finally:
        release.set()
    qtbot.waitUntil(lambda: not runner.worker.busy(), timeout=10000)


@pytest.fixture
def three_runs(project, db_path, tmp_path):
    """small_project (q1: p2 core, p1 supporting; q2: p3 with alternative p4) and three runs."""
    small_project(project, tmp_path)
    for name, lines in {
        "A": ["q1 Q0 p2 1 3.0 a", "q1 Q0 p3 2 2.0 a", "q2 Q0 p3 1 3.0 a"],
        "B": ["q1 Q0 p1 1 3.0 b", "q1 Q0 p2 2 2.0 b", "q2 Q0 p4 1 3.0 b"],
        "C": ["q1 Q0 p3 1 3.0 c", "q2 Q0 p1 1 3.0 c"],
    }.items():
        run = tmp_path / f"{name}.trec"
        run.write_text("\n".join(lines) + "\n")
        project.import_run(run, name)
    project.close()
    return db_path


def marks(panel) -> dict[str, str]:
    model = panel.model
    return {
        model.row(r).passage_id: model.index(r, model.COL_MARK).data()
        for r in range(model.rowCount())
    }


def test_only_found_marks_on_a_hand_made_case(three_runs, open_window, qtbot):
    window = open_window(three_runs)
    window.set_system("A")
    window.set_compare("B")
    window.show_question("q1")
    a, b = window.ranking_panels
    # At K 5: B alone finds p1 (A and C miss it); p2 both A and B find.
    assert marks(a) == {"p2": "●", "p3": "○"}
    assert marks(b) == {"p1": "◆", "p2": "●"}
    tip = b.model.index(0, b.model.COL_MARK).data(Qt.ItemDataRole.ToolTipRole)
    assert "B" in tip and "5" in tip
    evidence = window.evidence_model
    p1 = next(i.index for i in window.view.items if i.primary_id == "p1")
    assert evidence.index(p1, EvidenceModel.COL_FIRST_SYSTEM + 1).data() == "found at 1 ◆"
    assert evidence.index(p1, EvidenceModel.COL_FIRST_SYSTEM).data().endswith("◆") is False
    # At K 1 A alone has p2 (B has it at 2): now A's row is marked too.
    window.set_k(1)
    idle(qtbot, window)
    assert marks(a) == {"p2": "◆"}
    assert marks(b) == {"p1": "◆"}
    # The same items as desktop.evaluation.compare finds (the compare command's rule).
    with Project(three_runs) as project:
        comparison = compare.compare(project, [1, 5])
        q1 = project.reads.question("q1")["pk"]
    for k_index, k in enumerate((1, 5)):
        window.set_k(k)
        idle(qtbot, window)
        expected = {
            system: set(per_k[k_index])
            for system, per_k in comparison.only_found.get(q1, {}).items()
            if per_k[k_index]
        }
        assert window.session.only_found() == expected
    # q2: A finds the item through p3, B through its alternative p4: no one alone.
    window.show_question("q2")
    assert marks(a) == {"p3": "●"} and marks(b) == {"p4": "◐"}


def test_p_and_judged_in_the_panel_equal_the_cli_and_the_note(three_runs, open_window, qtbot):
    window = open_window(three_runs)
    reference = cli_json(three_runs, "metrics", "--k", "5,10")
    for system in reference["systems"]:
        for label in ("P@5", "P@10", "Judged@5", "Judged@10"):
            assert panel_value(window, system["system"], label) == pytest.approx(
                system[label], abs=1e-12
            ), (system["system"], label)
    note = window.metrics_dock.unsettled
    assert note.isVisible()
    # The note counts them; its tooltip names them with their figures.
    assert note.text().startswith("※ 2 of 3 systems")
    assert "A (Judged@5 0.75" in note.toolTip() and "C (Judged@5 0.00" in note.toolTip()
    assert "B (" not in note.toolTip()
    # Judging the pool moves the numbers one question at a time; the note goes when done.
    q1, q2 = (window.session.by_id[q] for q in ("q1", "q2"))
    window.commands.judge("not_evidence", True, passage_id="p3", question=q1)
    idle(qtbot, window)
    assert note.text().startswith("※ 1 of 3 systems")
    assert "A (" not in note.toolTip() and "C (Judged@5 0.50" in note.toolTip()
    window.commands.judge("not_evidence", True, passage_id="p1", question=q2)
    idle(qtbot, window)
    assert not note.isVisible()
    after = cli_json(three_runs, "metrics", "--k", "5,10")
    for system in after["systems"]:
        for label in ("P@5", "Judged@5", "Recall@5"):
            assert panel_value(window, system["system"], label) == pytest.approx(
                system[label], abs=1e-12
            )


def toggle_compare(window, qtbot) -> None:
    """The C key, then lay out and paint what it changed."""
    qtbot.keyClick(window, Qt.Key.Key_C)
    idle(qtbot, window)
    window.repaint_now()


def rows_shown(table) -> int:
    """Rows whose whole height lies inside the table's viewport."""
    area = table.viewport().rect()
    model = table.model()
    return sum(
        1 for r in range(model.rowCount()) if area.contains(table.visualRect(model.index(r, 0)))
    )


@pytest.mark.parametrize("size, least", [((1440, 900), 8), ((1366, 768), 6)])
def test_compare_mode_shows_both_top_k_lists(sample_db, open_window, qtbot, size, least):
    window = open_window(sample_db, size=size)
    window.show_question("q05")
    window.set_k(10)
    window.repaint_now()
    single = window.middle_split.sizes()
    qtbot.keyClick(window, Qt.Key.Key_C)
    idle(qtbot, window)
    for _ in range(3):
        window.repaint_now()
    shown = [rows_shown(p.table) for p in window.ranking_panels]
    assert min(shown) >= least
    # The passage is still there to read, beside the rankings (under the evidence).
    reader = window.reader
    assert reader.isVisible() and reader.height() >= 6 * reader.fontMetrics().lineSpacing()
    # Leaving compare mode puts the reader back under the one ranking, as it was.
    toggle_compare(window, qtbot)
    assert window.reader.parent() is window.middle_split
    assert window.middle_split.sizes() == single


def test_each_mode_keeps_its_split_sizes_across_a_restart(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    toggle_compare(window, qtbot)
    total = sum(window.right_split.sizes())
    window.right_split.setSizes([total // 3, total - total // 3])
    wanted = window.right_split.sizes()
    toggle_compare(window, qtbot)  # back to one system: the reader returns
    assert window.reader.parent() is window.middle_split
    toggle_compare(window, qtbot)
    assert window.right_split.sizes() == wanted
    window.close()
    again = open_window(sample_db)
    toggle_compare(again, qtbot)
    assert again.reader.parent() is again.right_split
    assert again.right_split.sizes() == wanted


def test_blind_mode_hides_the_comparison(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.set_blind(True)
    window.metrics_dock.tabs.setCurrentIndex(COMPARISON_TAB)
    runner = window.metrics.comparison
    qtbot.waitUntil(lambda: not runner.busy())
    panel = window.metrics_dock.comparison
    assert panel.comparison is None and panel.pairs_model.rowCount() == 0
    assert "Blind mode" in panel.state.text()
