"""The window at a laptop's 1366x768 and 1440x900 (issue 20): every triage button's whole label,
the top K and the selected passage in view without scrolling, in Korean and English, with one
system and two."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QStyle

from desktop.ui import app as ui_app
from tests.ui.uihelpers import idle


@pytest.fixture(params=["ko", "en"])
def language(request, qapp):
    ui_app.install_translations(qapp, request.param)
    yield request.param
    ui_app.install_translations(qapp, "en")


def _settle(qtbot, window) -> None:
    idle(qtbot, window)
    for _ in range(3):
        QApplication.processEvents()
        qtbot.wait(20)


def _text_room(button) -> int:
    """The width a button's label has: its width less the style's margins and frame."""
    style = button.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, button)
    frame = style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, button)
    return button.width() - 2 * (margin + frame)


def _shown_in(widget, viewport) -> bool:
    """The whole widget lies inside the viewport (nothing to scroll to see it)."""
    top_left = widget.mapTo(viewport.window(), QPoint(0, 0))
    rect = QRect(top_left, widget.size())
    port = QRect(viewport.mapTo(viewport.window(), QPoint(0, 0)), viewport.size())
    return port.contains(rect)


@pytest.mark.parametrize("size", [(1366, 768), (1440, 900)])
@pytest.mark.parametrize("compare", [False, True], ids=["single", "compare"])
def test_every_triage_button_shows_its_whole_label(
    sample_db, open_window, qtbot, language, compare, size
):
    window = open_window(sample_db, size=size)
    if compare:
        window.set_compare("BM25-Bigram")
    window.show_question("q01")
    _settle(qtbot, window)
    buttons = window.evidence_panel.triage.buttons
    assert len(buttons) == 11
    viewport = window.evidence_panel.parentWidget()  # the evidence column's scroll viewport
    for button in buttons:
        text = button.text()
        assert button.fontMetrics().horizontalAdvance(text) <= _text_room(button), (
            language,
            text,
            button.width(),
        )
        assert _shown_in(button, viewport), (language, text)
