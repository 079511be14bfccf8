"""The middle of the window above the reader: the rankings and the pool queue as two tabs, and
which passage the judgement keys act on — the one last picked in a ranking, in the pool or
among the reader's neighbours (an evidence item picked is not one: A takes both)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QTabWidget

from desktop.ui.pool_panel import PoolPanel
from desktop.ui.ranking import RankingsArea
from desktop.ui.reader import PassageReader

RANKING, POOL, READER = "ranking", "pool", "reader"


@dataclass(frozen=True)
class Picked:
    """A passage picked outside the rankings and the pool: a neighbour in the reader."""

    passage_pk: int
    passage_id: str


class PassageTabs(QTabWidget):
    def __init__(self, rankings: RankingsArea, pool: PoolPanel, reader: PassageReader, parent=None):
        super().__init__(parent)
        self.rankings, self.pool, self.reader = rankings, pool, reader
        self.picked_from, self._picked = RANKING, None
        self._laid_out: tuple | None = None  # the size hints the pages were last placed by
        self.setDocumentMode(True)
        self.addTab(rankings, self.tr("Rankings"))
        self.addTab(pool, self.tr("Unjudged pool"))
        self.currentChanged.connect(self._tab_changed)
        rankings.passageChosen.connect(self._ranked_chosen)
        pool.passageChosen.connect(self._pool_chosen)
        pool.countChanged.connect(self._pool_count)
        reader.neighbourChosen.connect(self._neighbour_chosen)

    def pool_in_front(self) -> bool:
        return self.currentWidget() is self.pool

    def show_picked(self) -> None:
        """The reader and the keys follow the tab in front (after a question switch)."""
        if self.pool_in_front():
            self.picked_from, self._picked = POOL, None
            self.pool.show_current()
        else:
            self.picked_from, self._picked = RANKING, None
            self.rankings.show_current(self.rankings.active)

    def selected(self):
        """The passage the judgement keys act on (a RankedRow, PoolRow or Picked: each has
        passage_pk and passage_id), or None."""
        if self.picked_from == POOL:
            return self.pool.current()
        if self.picked_from == READER:
            return self._picked
        return self.rankings.selected()

    def _tab_changed(self, _index: int) -> None:
        self.pool.active = self.pool.session.pool_in_front = self.pool_in_front()
        if self.pool.session.view is not None:
            self.show_picked()

    def _ranked_chosen(self, passage_pk: int) -> None:
        self.picked_from, self._picked = RANKING, None
        self.reader.show_passage(passage_pk)

    def _pool_chosen(self, row) -> None:
        self.picked_from, self._picked = POOL, None
        self.reader.show_passage(row.passage_pk)
        # The one a key on this passage moves on to, read now: shown at once after the key.
        after = self.pool.after(row)
        self.reader.read_ahead(after.passage_pk if after is not None else None)

    def _neighbour_chosen(self, passage_pk: int, passage_id: str) -> None:
        self.picked_from, self._picked = READER, Picked(passage_pk, passage_id)

    def pick(self, passage_pk: int, passage_id: str) -> None:
        """A passage picked elsewhere (a candidate alternative): the reader shows it and the
        judgement keys act on it."""
        self.picked_from, self._picked = READER, Picked(passage_pk, passage_id)
        self.reader.show_passage(passage_pk)

    def _pool_count(self, left: int) -> None:
        text = self.tr("Unjudged pool ({n})").format(n=left)
        if text != self.tabText(1):
            # On the tab bar alone: QTabWidget.setTabText repaints the whole widget, the
            # ranking or the queue under the tab with it (twice a pool key).
            self.tabBar().setTabText(1, text)

    def _hints(self) -> tuple:
        bar = self.tabBar()
        return (bar.sizeHint(), bar.minimumSizeHint(), self.sizeHint(), self.minimumSizeHint())

    def event(self, event) -> bool:
        """A layout request whose size hints are those the pages were placed by is taken
        here: QTabWidget would place the tab bar and the pages where they are and repaint
        the whole widget (a tab's new count asks for one each time)."""
        if event.type() == QEvent.Type.LayoutRequest:
            hints = self._hints()
            if hints == self._laid_out:
                return True
            self._laid_out = hints
        return super().event(event)

    def resizeEvent(self, event) -> None:
        self._laid_out = self._hints()
        super().resizeEvent(event)
