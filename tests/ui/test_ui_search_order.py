"""The corpus search dialog (issue 21 item 3): best matches first by default, corpus order on
request, each the command line's `search --order` exactly, and "more like this" on a result
listing the command line's `similar` for it."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.helpers import cli
from tests.ui.uihelpers import idle


def listed(dialog) -> list[str]:
    return [dialog.model.passage(r)["id"] for r in range(dialog.model.rowCount())]


def cli_ids(db, *args) -> list[str]:
    done = cli(db, *args, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return [p["passage_id"] for p in data.get("passages", data.get("similar", []))]


def test_search_orders_by_relevance_then_corpus_and_finds_more_like_this(
    sample_db, open_window, qtbot
):
    window = open_window(sample_db)
    window.show_question("q03")
    qtbot.keyClick(window, Qt.Key.Key_S)
    idle(qtbot, window)
    dialog = window.search
    best = cli_ids(sample_db, "search", "대통령", "--order", "relevance", "--limit", "20")
    corpus = cli_ids(sample_db, "search", "대통령", "--order", "corpus", "--limit", "20")
    assert best != corpus
    dialog.box.setText("대통령")
    dialog.box.flush()
    qtbot.waitUntil(lambda: listed(dialog)[:20] == best, timeout=10000)
    dialog.corpus_order.setChecked(True)
    qtbot.waitUntil(lambda: listed(dialog)[:20] == corpus, timeout=10000)
    dialog.table.selectRow(0)
    alike = cli_ids(sample_db, "similar", corpus[0], "--limit", "50")
    assert alike
    dialog.more_like_this()
    qtbot.waitUntil(lambda: listed(dialog) == alike, timeout=10000)
    assert corpus[0] in dialog.status.text()
    dialog.close()


def test_the_search_offers_the_chunkings_the_golds_first(sample_study, open_window, qtbot):
    """With several chunkings the same text is found once per chunking: the dialog searches
    the gold's chunking (the first) unless told otherwise, as `search --chunking` does."""
    window = open_window(sample_study)
    qtbot.keyClick(window, Qt.Key.Key_S)
    idle(qtbot, window)
    dialog = window.search
    first = window.session.chunkings[0]
    assert dialog.chunking_box.isVisibleTo(dialog) and dialog.chunking() == first
    own = cli_ids(sample_study, "search", "대통령", "--chunking", first, "--order", "relevance")
    every = cli_ids(sample_study, "search", "대통령", "--order", "relevance")
    assert own != every
    dialog.box.setText("대통령")
    dialog.box.flush()
    qtbot.waitUntil(lambda: listed(dialog)[:20] == own, timeout=10000)
    dialog.chunking_box.setCurrentIndex(0)  # all chunkings
    assert dialog.chunking() is None
    qtbot.waitUntil(lambda: listed(dialog)[:20] == every, timeout=10000)
    dialog.close()


def test_one_chunking_shows_no_choice(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    qtbot.keyClick(window, Qt.Key.Key_S)
    idle(qtbot, window)
    assert not window.search.chunking_box.isVisibleTo(window.search)
    assert window.search.chunking() is None
    window.search.close()
