"""What the review models share: roles, the root index, colours, natural sort order."""

from __future__ import annotations

import re

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor

USER = Qt.ItemDataRole.UserRole
# The roles a styled row is painted from (text, tooltip, colours, font, alignment); a model
# serves these and its own, and answers None at once for the many others a paint asks for.
PAINTED_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.BackgroundRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.TextAlignmentRole,
)
ROOT = QModelIndex()  # the invisible root: every table here is flat
GREEN = QColor("#007a4d")
RED = QColor("#c0392b")
GREY = QColor("#8a8a8a")
AMBER = QColor("#b36b00")
EXCERPT_CHARS = 160  # of an evidence item's text in its row
TOOLTIP_CHARS = 1500  # of the text on hover


def natural(text: str) -> list:
    return [int(p) if p.isdigit() else p.casefold() for p in re.split(r"(\d+)", text)]
