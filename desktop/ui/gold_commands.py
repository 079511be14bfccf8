"""Building the gold in the window (issue 13): a passage added as a core or supporting
evidence item (from the pool, a ranking, the corpus search or the reader's neighbours), an
item dropped with its reason, and moving on to the next question whose pool has unjudged
passages. An object MainWindow owns."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QCoreApplication

from db.documents import FIRST_CHUNKING
from desktop.ui import terms
from desktop.ui.dialogs import NoteDialog
from desktop.ui.picking import Picked


class GoldCommands:
    """Owned by MainWindow (one object per concern): uses the window's session, panels and
    its ReviewCommands (judge_lines)."""

    def __init__(self, window):
        self.window = window

    def add_evidence(self, role: str) -> None:
        """E / R: the passage the reviewer is looking at becomes a core / supporting item."""
        passage = self.window.selected_passage()
        if passage is None:
            self.window.commands.say(
                QCoreApplication.translate(
                    "MainWindow", "Pick a passage first: in the pool, a ranking or the reader"
                )
            )
            return
        if self.judged_by_span(passage):
            self.by_span(passage, role)
            return
        self.add_passage(passage.passage_id, role)

    def judged_by_span(self, passage) -> bool:
        """Whether a passage is of another chunking than the gold's: evidence names the gold's
        passages, so such a passage is judged by its span (design section 10: E / R add it as
        a span item, A as an alternative span), never by an id another chunking may repeat."""
        chunking = self.window.project.reads.passage_chunking(passage.passage_pk)
        return chunking not in (None, FIRST_CHUNKING)

    def by_span(self, passage, what: str, item=None) -> bool:
        """Judge a passage of another chunking by its span: what is core, supporting or
        alternative (of item, else of the selected one; SpanKeys.act writes the lines, as for
        text selected in the reader). Whether lines were written."""
        pk = passage.passage_pk
        span = self.window.project.reads.passage_spans([pk]).get(pk)
        if span is None:
            self.window.commands.say(
                QCoreApplication.translate(
                    "MainWindow",
                    "{passage} is of another chunking and has no span in a document: it "
                    "cannot be judged against this gold",
                ).format(passage=passage.passage_id),
                6000,
            )
            return False
        return bool(self.window.span_keys.act(what, span, item))

    def add_passage(self, passage_id: str, role: str) -> bool:
        """Add a passage as an evidence item with its role: the evidence line and the role
        line together (one undo step). On an item already there, this marks its role."""
        view = self.window.session.view
        if view is None:
            return False
        if any(i.primary_id == passage_id for i in view.items):
            if self.window.session.mine("role", passage_id) == role:
                self.window.commands.say(
                    QCoreApplication.translate(
                        "MainWindow", "You already marked {passage} {role}"
                    ).format(passage=passage_id, role=terms.role(role))
                )
                return False
            return self.window.commands.judge("role", role, passage_id=passage_id) is not None
        lines = [
            {"kind": "evidence", "value": True, "passage_id": passage_id},
            {"kind": "role", "value": role, "passage_id": passage_id},
        ]
        return bool(self.window.commands.judge_lines(lines))

    def add_found_alternative(self, passage: dict, item) -> bool:
        """A passage found by the corpus search becomes an alternative of item (by its span
        when it is of another chunking than the gold's)."""
        if passage.get("chunking_pk", FIRST_CHUNKING) != FIRST_CHUNKING:
            return self.by_span(Picked(passage["pk"], passage["id"]), "alternative", item)
        return self.window.commands.add_alternative(passage["id"], item)

    def add_found(self, passage: dict, role: str) -> bool:
        """A passage found by the corpus search becomes an evidence item (by its span when it
        is of another chunking than the gold's)."""
        if passage.get("chunking_pk", FIRST_CHUNKING) != FIRST_CHUNKING:
            found = Picked(passage["pk"], passage["id"])
            if not self.by_span(found, role):
                return False
        elif not self.add_passage(passage["id"], role):
            return False
        # The new item is in the question's view once its build comes back from the worker.
        dialog, session = self.window.search, self.window.session

        def shown(view, _keep: bool) -> None:
            session.viewChanged.disconnect(shown)
            if view.pk == session.current_pk:
                dialog.set_items(view.items)

        session.viewChanged.connect(shown)
        return True

    def dismiss_candidate(self) -> None:
        """H: the candidate alternative picked is dismissed for the selected item."""
        self.window.alternatives.dismiss()

    def drop_item(self) -> None:
        """D: drop the selected evidence item (too broad, not needed), with the reason as a
        note; D on an item you dropped withdraws the drop."""
        item, view = self.window.selected_item(), self.window.session.view
        if item is None or view is None:
            self.window.commands.say(
                QCoreApplication.translate("MainWindow", "Select an evidence item first")
            )
            return
        if self.window.session.mine("drop", item.primary_id):
            self.window.commands.judge("drop", None, passage_id=item.primary_id)
            return
        dialog = NoteDialog(
            QCoreApplication.translate(
                "MainWindow", "Why drop {passage} from {question}? The reason is kept as a note."
            ).format(passage=item.primary_id, question=view.id),
            "",
            self.window,
        )
        self.window.drop_dialog = dialog
        dialog.accepted.connect(
            partial(self._save_drop, dialog, self.window.session.question(), item.primary_id)
        )
        dialog.open()

    def _save_drop(self, dialog, question: dict, passage_id: str) -> None:
        lines = [{"kind": "drop", "value": True, "passage_id": passage_id}]
        if dialog.text():
            lines.append({"kind": "note", "value": dialog.text(), "passage_id": passage_id})
        self.window.commands.judge_lines(lines, question)

    def show_pool(self) -> None:
        """P: bring the pool queue forward (and back to the rankings)."""
        tabs = self.window.middle_tabs
        tabs.setCurrentIndex(0 if tabs.currentWidget() is self.window.pool_panel else 1)

    def next_pool_question(self) -> None:
        """U: the next question, in list order, whose pool has unjudged passages."""
        session = self.window.session
        summaries = session.overview.summaries if session.overview else {}
        for pk in self.window.commands.questions_after():
            summary = summaries.get(pk)
            known = summary.unjudged if summary is not None else -1
            if known > 0 or (known < 0 and session.pool_of(session.by_pk[pk])):
                self.window.middle_tabs.setCurrentWidget(self.window.pool_panel)
                self.window.show_question(session.by_pk[pk]["id"])
                return
        self.window.commands.say(
            QCoreApplication.translate(
                "MainWindow", "No other question has unjudged passages at depth {depth}"
            ).format(depth=session.pool_depth)
        )

    def pool_done(self) -> None:
        """The current question's pool has just been judged to the end: say so."""
        self.window.commands.say(
            QCoreApplication.translate(
                "MainWindow",
                "This question's pool is judged. U: next question with unjudged passages",
            ),
            8000,
        )
