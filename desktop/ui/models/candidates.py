"""The selected evidence item's candidate alternatives (issue 21), as the worker built them
(desktop.review.candidates): one row each, in one column so that the text has the panel's
width: its score and where it comes from, which systems have it in their top K, and its text
with the phrases it shares with the item marked."""

from __future__ import annotations

import html
import textwrap

from PySide6.QtCore import QAbstractTableModel, Qt

from desktop.review.candidates import Candidate, ItemCandidates
from desktop.ui.models.base import ROOT, TOOLTIP_CHARS, USER
from desktop.ui.widgets import MARK

EXCERPT_CHARS = 300  # of a candidate's text in its row (three lines or so); all on hover


def marked_html(text: str, shared: tuple[tuple[int, int], ...]) -> str:
    """Escaped text with the shared phrases on the highlight colour, cut at EXCERPT_CHARS."""
    cut = text[:EXCERPT_CHARS]
    out, last = [], 0
    for start, end in shared:
        if start >= len(cut):
            break
        end = min(end, len(cut))
        out.append(html.escape(cut[last:start]))
        phrase = html.escape(cut[start:end])
        out.append(f'<span style="background:{MARK}; color:#000">{phrase}</span>')
        last = end
    out.append(html.escape(cut[last:]))
    return "".join(out) + ("…" if len(text) > len(cut) else "")


class CandidateModel(QAbstractTableModel):
    COL_CANDIDATE = 0
    CandidateRole = USER
    HtmlRole = USER + 1
    ROLES = frozenset(
        (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
            CandidateRole,
            HtmlRole,
        )
    )

    def __init__(self, parent=None):
        super().__init__(parent)
        self.found: ItemCandidates | None = None
        self.rows: list[Candidate] = []
        self._html: list[str] = []
        self.blind = False  # systems are counted, not named (as the pool's "Retrieved by")

    def set_candidates(self, found: ItemCandidates | None, blind: bool = False) -> None:
        self.beginResetModel()
        self.found = found
        self.blind = blind
        self.rows = list(found.candidates) if found else []
        self._html = [""] * len(self.rows)
        self.endResetModel()

    def remove(self, passage_id: str) -> None:
        """A dismissed candidate leaves the list at once (its build follows the judgement)."""
        row = next((i for i, c in enumerate(self.rows) if c.passage_id == passage_id), -1)
        if row >= 0:
            self.beginRemoveRows(ROOT, row, row)
            del self.rows[row]
            del self._html[row]
            self.endRemoveRows()

    def candidate(self, row: int) -> Candidate | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else 1

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.tr("Score · candidate · where it comes from")
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr(
                "The score: how alike the two passages are, 0 to 1 (a near copy is near 1)"
            )
        return None

    def source(self, c: Candidate) -> str:
        """Where the candidate comes from: its id, document and title."""
        return " · ".join(p for p in (c.passage_id, c.document, c.title) if p)

    def systems_note(self, c: Candidate) -> str:
        if not c.top_k:
            return self.tr("In no system's top {k}").format(k=self.found.k if self.found else "")
        if self.blind:
            return self.tr(
                "In the top {k} of {n} systems: accepting it changes their scores"
            ).format(k=self.found.k, n=len(c.top_k))
        named = ", ".join(f"{name} ({rank})" for name, rank in c.top_k)
        return self.tr("In the top {k} of {systems}: accepting it changes their scores").format(
            k=self.found.k, systems=named
        )

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in self.ROLES or not index.isValid() or index.row() >= len(self.rows):
            return None
        c = self.rows[index.row()]
        if role == self.CandidateRole:
            return c
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                f"{c.score:.2f} {self.source(c)}\n{self.systems_note(c)}\n{c.text[:EXCERPT_CHARS]}"
            )
        if role == self.HtmlRole:  # the one column
            if not self._html[index.row()]:  # kept: the delegate asks on every paint
                self._html[index.row()] = self._markup(c)
            return self._html[index.row()]
        if role == Qt.ItemDataRole.ToolTipRole:
            wrapped = "\n".join(textwrap.wrap(c.text[:TOOLTIP_CHARS], 60))
            return f"{self.source(c)}\n{self.systems_note(c)}\n\n{wrapped}"
        return None

    def _markup(self, c: Candidate) -> str:
        colour = "#b36b00" if c.top_k else "#6b6b6b"  # amber: it moves some system's score
        proposed = ""
        if c.proposed:
            proposed = (
                " <span style='color:#007a4d'>✓ "
                + html.escape(self.tr("you accepted it (A again withdraws)"))
                + "</span>"
            )
        return (
            f"<b>{c.score:.2f} · {html.escape(self.source(c))}</b>{proposed}<br>"
            f"<span style='color:{colour}'>{html.escape(self.systems_note(c))}</span><br>"
            f"{marked_html(c.text, c.shared)}"
        )
