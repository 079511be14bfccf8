"""The Recall@K curve in a short metrics dock (a 1366×768 laptop's desktop leaves the window
about 700 pixels): its y labels stand apart and its legend stays inside the plot or out."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from desktop.ui.widgets import RecallCurve


def _curve(qtbot) -> RecallCurve:
    curve = RecallCurve()
    qtbot.addWidget(curve)
    names = ("BM25-Kiwi", "BM25-Bigram", "RRF")
    curve.set_curves(
        {n: [min(1.0, 0.3 + 0.03 * k) for k in range(20)] for n in names},
        {n: QColor(c) for n, c in zip(names, ("#0072B2", "#D55E00", "#009E73"), strict=True)},
        [5, 10],
    )
    return curve


def test_labels_every_fifth_line_while_their_digits_stand_apart(qtbot):
    curve = _curve(qtbot)
    room = curve.fontMetrics().capHeight() + 4  # a digit's height and a gap
    assert curve.label_step(5 * room) == 2  # 0.0, 0.2 … 1.0
    assert curve.label_step(5 * room - 1) == 5  # 0.0, 0.5, 1.0
    assert curve.label_step(2 * room - 1) == 10  # 0.0 and 1.0
    for height in range(5, 200):  # never two labels closer than that, but 0 and 1
        step = curve.label_step(height)
        assert step == 10 or step / 10 * height >= room


def test_the_legend_is_drawn_only_inside_a_plot_it_fits(qtbot):
    curve = _curve(qtbot)
    line = curve.fontMetrics().lineSpacing()
    assert curve.legend_fits(line * 3.3)
    assert not curve.legend_fits(line * 3.3 - 1)
    curve.resize(400, line * 3)  # painted anyway, legend and labels left out
    curve.show()
    curve.grab()


def test_the_dock_at_1366_by_768_keeps_every_label_and_the_legend(sample_db, open_window):
    window = open_window(sample_db)
    curve = window.metrics_dock.curve
    plot = curve.height() - 3.5 * curve.fontMetrics().lineSpacing()  # as _plot_rect leaves it
    assert curve.label_step(plot) == 2 and curve.legend_fits(plot)


def test_a_curve_without_room_never_says_there_are_no_runs(qtbot):
    """Squeezed by a dock of eight systems, the curve said "No runs yet" over its runs."""

    def drawn(empty_text: str) -> QImage:
        curve = _curve(qtbot)
        curve.title, curve.empty_text = "Recall@K", empty_text
        curve.resize(curve.minimumSize())  # with its title, no room left for the plot
        image = QImage(curve.size(), QImage.Format.Format_ARGB32)
        image.fill(0)
        curve.render(image)
        return image

    assert drawn("No runs yet") == drawn("")
