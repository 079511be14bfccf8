"""E / R / A on a stretch of text selected in the reader (design section 10): the selection
becomes an evidence item given as that span, core (E) or supporting (R), or an alternative
span of the selected evidence item (A). The window already gives E, R and A to the passage the
reviewer picked, so these keys take over only while the reader has the focus and a selection
(Qt's ShortcutOverride: the key goes to the reader instead of the window's shortcut)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt

from desktop.gold.span_items import span_key

KEYS = {Qt.Key.Key_E: "core", Qt.Key.Key_R: "supporting", Qt.Key.Key_A: "alternative"}


def span_label(line: dict) -> str:
    """A judgement line's span as its key 'd1:10-200' (the status bar's name for it), or ''."""
    span = line.get("span")
    return str(span_key(*span)) if span else ""


class SpanKeys(QObject):
    """Watches the reader's text for E / R / A while it has a selection and the focus."""

    def __init__(self, window, reader):
        super().__init__(reader)
        self.window, self.reader = window, reader
        reader.viewer.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if event.key() not in KEYS or event.modifiers() != Qt.KeyboardModifier.NoModifier:
            return False
        span = self.reader.selected_span()
        if span is None:
            return False  # the window's own E / R / A
        event.accept()
        if kind == QEvent.Type.KeyPress:
            self.act(KEYS[event.key()], span)
        return True

    def act(self, what: str, span: tuple[str, int, int], item=None) -> list[dict]:
        """Write the judgement lines the key asks for (one undo step); the rows written. An
        alternative is of ``item``, else of the selected evidence item."""
        commands = self.window.commands
        line = {"passage_id": "", "span": span}
        if what == "alternative":
            item = item or self.window.selected_item()
            if item is None:
                commands.say(
                    QCoreApplication.translate("MainWindow", "Select an evidence item first")
                )
                return []
            return commands.judge_lines([{**line, "kind": "alternative", "value": item.primary_id}])
        view = self.window.session.view
        known = view is not None and any(i.primary_id == span_key(*span) for i in view.items)
        role = {**line, "kind": "role", "value": what}
        lines = [role] if known else [{**line, "kind": "evidence", "value": True}, role]
        return commands.judge_lines(lines)
