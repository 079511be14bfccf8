"""Each table model on its own, under Qt's QAbstractItemModelTester (which checks every
index, role, reset, insert and dataChanged the model emits), fed with the sample project."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester

from desktop import review
from desktop.project import Project
from desktop.ui.models import (
    AgreementModel,
    DisputeModel,
    EvidenceModel,
    MetricsModel,
    QuestionFilter,
    QuestionListModel,
    RankingModel,
    SearchResultsModel,
)

ROLES = [
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.BackgroundRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.UserRole,
    Qt.ItemDataRole.UserRole + 1,
    Qt.ItemDataRole.UserRole + 2,
]


@pytest.fixture
def project(sample_db):
    with Project(sample_db) as opened:
        yield opened


@pytest.fixture
def overview(project):
    return review.overview(project, "kim", False, [5, 10])


@pytest.fixture
def checked(qtlog):
    """checked(model): the model under the tester; at the end no tester failure was logged."""
    testers = []

    def attach(model):
        testers.append(
            QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
        )
        return model

    yield attach
    failures = [r.message for r in qtlog.records if "FAIL" in r.message or "ASSERT" in r.message]
    assert failures == []
    assert testers


def read_all(model) -> int:
    """Ask every cell for every role, as views do; returns how many cells there were."""
    cells = 0
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            for role in ROLES:
                model.data(index, role)
            cells += 1
    for column in range(model.columnCount()):
        model.headerData(column, Qt.Orientation.Horizontal)
    return cells


def view_of(project, qid: str, k: int = 5, systems: int = 2) -> review.QuestionView:
    question = next(q for q in project.questions() if q["id"] == qid)
    shown = project.systems()[:systems]
    return review.question_view(project, question, shown, k, "kim", False, ["kim"])


def test_question_list_model(project, overview, checked):
    model = checked(QuestionListModel())
    model.set_questions(project.questions())
    assert model.rowCount() == len(project.questions())
    model.set_summaries(overview.summaries)
    model.set_found(lambda pk: overview.board.found("BM25-Kiwi", pk, 5), 5)
    assert read_all(model) == model.rowCount() * QuestionListModel.COLUMNS
    model.set_filter(QuestionFilter(misses=True))
    shown = model.rowCount()
    assert 0 < shown < len(project.questions())
    model.sort(QuestionListModel.COL_FOUND, Qt.SortOrder.DescendingOrder)
    read_all(model)
    first = model.pk_at(0)
    model.update_summary(overview.summaries[first])  # one dataChanged for the row
    model.set_filter(QuestionFilter(text="대통령"))
    assert all("대통령" in model.index(r, 1).data() for r in range(model.rowCount()))


def test_question_list_fetches_a_page_at_a_time(checked):
    model = QuestionListModel()
    model.set_questions(
        [{"pk": i, "id": f"q{i}", "text": "질문", "answerable": 1} for i in range(1, 1201)]
    )
    assert model.rowCount() == QuestionListModel.PAGE
    assert model.canFetchMore(QModelIndex())
    # The tester, attached now, fetches pages itself as a view does; each insert is checked.
    checked(model)
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
    assert model.rowCount() == 1200
    model.set_filter(QuestionFilter(text="q11"))
    assert model.row_of(1199) == model.rowCount() - 1  # q1199 is the last of q11, q110…


def test_ranking_model(project, checked):
    model = checked(RankingModel())
    view = view_of(project, "q05")
    name = project.systems()[0]["name"]
    model.set_rows(view.rankings[name], view.items, review.question_terms(view.text))
    assert model.rowCount() == 5
    read_all(model)
    assert model.row(0).rank == 1
    model.set_rows([], [], [])
    assert model.rowCount() == 0


def test_evidence_model(project, checked):
    from desktop.review.session_state import item_texts

    model = checked(EvidenceModel())
    view = view_of(project, "q05")
    names = [s["name"] for s in project.systems()[:2]]
    model.set_items(view.items, names, 5, "kim", item_texts(project, view.items))
    assert model.columnCount() == EvidenceModel.COL_FIRST_SYSTEM + 2 + 2
    read_all(model)
    text = model.index(0, model.col_text).data()
    assert text and len(text) <= 160
    full = model.index(0, model.col_text).data(Qt.ItemDataRole.ToolTipRole)
    assert full.replace("\n", " ").startswith(text[:40])
    assert model.index(0, EvidenceModel.COL_PASSAGE).data(Qt.ItemDataRole.ToolTipRole) == (
        view.items[0].primary_id
    )


def test_metrics_model(overview, checked):
    model = checked(MetricsModel())
    model.set_board(overview.board)
    assert model.rowCount() == len(overview.board.systems)
    read_all(model)
    model.refresh()
    model.set_board(None)
    assert model.rowCount() == 0


def test_agreement_and_dispute_models(project, checked):
    agreement = checked(AgreementModel())
    agreement.set_agreement(project.agreement())
    read_all(agreement)
    agreement.set_agreement(None)
    assert agreement.rowCount() == 0
    disputes = checked(DisputeModel())
    disputes.set_disputes(view_of(project, "q01").disputes)
    read_all(disputes)


def test_search_results_model(project, checked):
    model = checked(SearchResultsModel())
    from desktop.ui.operations import search_op

    def page(offset):
        return search_op("대통령", offset, 2)(project, None).result

    total, rows = page(0)
    assert total > 2 and len(rows) == 2
    asked = []  # as in the window, a page arrives later, not inside fetchMore
    model.set_page(total, rows, ["대통령"], asked.append)
    read_all(model)
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
        model.fetchMore(QModelIndex())  # asked once while a page is on its way
        assert len(asked) == 1
        model.add_page(asked[0], page(asked.pop())[1])
    assert model.rowCount() == total == project.search("대통령").total
    assert model.passage(0)["id"] == rows[0]["id"]
