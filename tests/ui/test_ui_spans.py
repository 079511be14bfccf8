"""The window on a study with several chunkings (issue 19 item 5, issue 26 item 5): the metrics
dock shows the command line's figures for runs on other chunkings (the span rule, θ, a budget
of characters), nDCG/P across chunkings as '–' with the reason, and an unranked GraphRAG run's
rank measures greyed with the reason."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from desktop.ui import terms
from tests.helpers import cli
from tests.readers.test_graph_import import study  # noqa: F401  (the GraphRAG study fixture)
from tests.ui.uihelpers import panel_value


def metrics_json(db) -> dict:
    done = cli(db, "metrics", "--k", "5,10", "--budget", "2000", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cell(window, system: str, label: str):
    model = window.metrics_model
    row = model.board.systems.index(system)
    return model.index(row, model.COL_FIRST_MEASURE + model.labels.index(label))


def test_the_dock_shows_metrics_json_for_every_system(sample_study, open_window):
    expected = metrics_json(sample_study)
    window = open_window(sample_study)
    labels = window.metrics_model.labels
    assert "SpanRecall@5" in labels and "SpanPrecision@2000ch" in labels
    for row in expected["systems"]:
        for label in labels:
            assert panel_value(window, row["system"], label) == row[label], label
    assert panel_value(window, "BM25-c500o100", "Recall@5") > 0.8  # not the id rule's 0
    model = window.metrics_model
    ndcg = cell(window, "BM25-c500o100", "nDCG@5")
    assert model.data(ndcg) == "–"
    assert model.data(ndcg, Qt.ItemDataRole.ToolTipRole) == terms.greyed("across")
    assert model.data(cell(window, "BM25-articles", "nDCG@5"), Qt.ItemDataRole.ToolTipRole) is None
    assert "θ = 0.5" in window.metrics_dock.state.text()
    assert "@2000ch" in window.metrics_dock.state.text()


def test_an_unranked_runs_rank_measures_are_greyed_with_the_reason(study, open_window):  # noqa: F811
    db, _, _ = study
    window = open_window(db)
    model = window.metrics_model
    mrr = cell(window, "GraphRAG", "MRR@5")
    assert model.data(mrr, Qt.ItemDataRole.ToolTipRole) == terms.greyed("unranked")
    assert model.data(mrr, Qt.ItemDataRole.ForegroundRole) is not None
    # K = 5 reaches past every GraphRAG context (3 sources at most): a fair figure
    recall = cell(window, "GraphRAG", "Recall@5")
    assert model.data(recall, Qt.ItemDataRole.ToolTipRole) is None
    # the BM25 run is ranked: nothing of it is greyed
    assert model.data(cell(window, "BM25", "MRR@5"), Qt.ItemDataRole.ToolTipRole) is None


def test_a_ranking_on_another_chunking_shows_what_each_row_covers(sample_study, open_window):
    window = open_window(sample_study)
    window.set_system("BM25-c500o100")
    panel = window.ranking_panels[0]
    rows = [panel.model.row(n) for n in range(panel.model.rowCount())]
    assert any(row.coverage for row in rows)
    shown = [panel.model.data(panel.model.index(n, panel.model.COL_TEXT)) for n in range(5)]
    assert any("%" in text for text in shown), shown
    evidence = window.evidence_model
    texts = [evidence.status_text(item, "BM25-c500o100") for item in evidence.items]
    assert texts and all("%" in text for text in texts), texts


def test_the_reader_shows_the_passage_inside_its_document(sample_study, open_window):
    from PySide6.QtGui import QTextCursor

    from desktop.project import Project

    window = open_window(sample_study)
    window.set_system("BM25-c500o100")
    panel = window.ranking_panels[0]
    row = next(
        panel.model.row(n) for n in range(panel.model.rowCount()) if panel.model.row(n).coverage
    )
    reader = window.reader
    reader.show_passage(row.passage_pk)
    reader.settle()
    shown = reader._window  # the laid-out window, to check against the store
    with Project(sample_study) as project:
        (document, start, end) = project.reads.passage_spans([row.passage_pk])[row.passage_pk]
        text = project.reads.document_text(document)[1]
    assert (shown.document_id, shown.passage) == (document, (start, end))
    assert shown.gold and shown.covered  # the gold spans marked, the covered part shaded
    plain = reader.viewer.document().toPlainText()
    assert text[start:end] in plain  # the passage among its document's text
    assert len(plain) > end - start  # with the text around it
    # a selection maps back to code points of the document
    cursor = reader.viewer.textCursor()
    origin = plain.index(text[start:end])
    cursor.setPosition(origin + 3)
    cursor.setPosition(origin + 10, QTextCursor.MoveMode.KeepAnchor)
    reader.viewer.setTextCursor(cursor)
    assert reader.selected_span() == (document, start + 3, start + 10)
    assert reader.viewer.verticalScrollBar().value() > 0 or origin < 400


def test_the_reader_lists_a_graphrag_contexts_entities_and_reports(study, open_window):  # noqa: F811
    db, _, _ = study
    window = open_window(db)
    window.show_question("q1")
    window.set_system("GraphRAG")
    label = window.reader.graph
    assert label.isVisible()
    assert "국회" in label.text() and "국회 → 예산안" in label.text()
    assert "예산 심의 공동체" in label.text()
    window.set_system("BM25")
    assert not label.isVisible()


def test_the_import_dialog_offers_the_graph_formats(study, qtbot, tmp_path):  # noqa: F811
    import shutil

    from desktop.project import Project
    from desktop.ui.dialogs import ImportDialog

    db, folder, _ = study
    run = ImportDialog("run", folder / "contexts.jsonl")
    qtbot.addWidget(run)
    offered = [run.format.itemData(n) for n in range(run.format.count())]
    assert {"graphrag", "lightrag"} <= set(offered)
    run.format.setCurrentIndex(offered.index("graphrag"))
    run.system.setText("GraphRAG")
    assert run.options() == {"fmt": "graphrag", "system": "GraphRAG"}
    # a folder: the graph formats only, imported as a chunking of the name given
    corpus = ImportDialog("corpus", folder / "graphrag" / "output")
    qtbot.addWidget(corpus)
    offered = [corpus.format.itemData(n) for n in range(corpus.format.count())]
    assert offered == ["graphrag", "lightrag"]
    corpus.corpus_name.setText("graphrag-again")
    assert corpus.options() == {"fmt": "graphrag", "chunking": "graphrag-again"}
    copy = tmp_path / "study.db"
    shutil.copy(db, copy)
    with Project(copy) as project:
        project.import_file("corpus", folder / "graphrag" / "output", **corpus.options())
        assert project.reads.chunking_named("graphrag-again") is not None


def test_the_budget_is_a_setting_the_dock_follows(sample_study, open_window, qtbot):
    from tests.ui.uihelpers import idle

    expected = json.loads(
        cli(sample_study, "metrics", "--k", "5,10", "--budget", "1000", "--json").stdout
    )
    window = open_window(sample_study)
    window.menus.set_budget(1000)
    idle(qtbot, window)
    labels = window.metrics_model.labels
    assert "SpanRecall@1000ch" in labels and "SpanRecall@2000ch" not in labels
    for row in expected["systems"]:
        assert panel_value(window, row["system"], "Recall@1000ch") == row["Recall@1000ch"]
    assert "@1000ch" in window.metrics_dock.state.text()


def test_the_document_reader_sets_the_questions_terms_in_bold(sample_study, open_window):
    from PySide6.QtGui import QFont, QTextCursor

    window = open_window(sample_study)
    window.set_system("BM25-c500o100")
    reader, terms = window.reader, window.session.terms
    assert terms  # q01's words
    panel = window.ranking_panels[0]
    reader.show_passage(panel.model.row(0).passage_pk)
    reader.settle()
    doc = reader.viewer.document()
    plain = doc.toPlainText()
    term = next(t for t in terms if t in plain)
    at = plain.index(term)
    cursor = QTextCursor(doc)
    cursor.setPosition(at + 1)
    assert cursor.charFormat().fontWeight() == QFont.Weight.Bold
