"""The reviewer's commands on the current question: judgement keys, notes, the corpus search,
adjudication, undo and redo, moving between questions. An object MainWindow owns."""

from __future__ import annotations

import sqlite3
from functools import partial

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog

from db import StoreError
from desktop.gold.effective import MARK
from desktop.ui import operations, terms
from desktop.ui.dialogs import CorpusSearchDialog, NoteDialog
from desktop.ui.models import SearchResultsModel
from desktop.ui.reviewer_marks import mark_reviewer
from desktop.ui.span_keys import span_label


class ReviewCommands:
    """Owned by MainWindow (one object per concern): uses the window's session, panels,
    status bar and workers."""

    def __init__(self, window):
        self.window = window

    def judge(
        self,
        kind: str,
        value,
        passage_id: str = "",
        settles: str | None = None,
        system: str | None = None,
        question: dict | None = None,
    ) -> dict | None:
        """Append one judgement line (committed before this returns), then show it."""
        line = {
            "kind": kind,
            "value": value,
            "passage_id": passage_id,
            "settles": settles,
            "system": system,
        }
        rows = self.judge_lines([line], question)
        return rows[0] if rows else None

    def judge_lines(self, lines: list[dict], question: dict | None = None) -> list[dict]:
        """Append lines written together (one transaction, one undo step), then show them.
        Empty when nothing was saved (and the reviewer was told why)."""
        question = question or self.window.session.question()
        if question is None or self.window.project is None:
            return []
        if self.window.read_only:  # a key or a dialog's button: say why nothing happens
            self.window.show_read_only()
            return []
        if not self.window.session.reviewer:
            self._ask_reviewer(lines, question)
            return []
        self.window.metrics.hold()  # a running pass waits while the judgement is shown
        try:
            rows, others_move = self.window.session.judge(question, lines)
        except (ValueError, StoreError, sqlite3.Error) as error:
            self.window.show_error(
                QCoreApplication.translate("MainWindow", "The judgement was not saved"), str(error)
            )
            return []
        # Shown at the key (the next pool passage, or the judged rows): the build waits for
        # that frame instead of taking the GIL from its painting.
        shown = self.window.pool_panel.moved_on or self.window.session.keyed is not None
        self.window.metrics.after_judgement(question, others_move, shown)
        self.update_undo_actions()
        saved = "; ".join(
            QCoreApplication.translate("MainWindow", "{kind} {passage} → {value}").format(
                kind=terms.kind(line.get("settles") or line["kind"]),
                passage=line.get("passage_id") or span_label(line),
                value=terms.value_text(line.get("settles") or line["kind"], line["value"]),
            )
            for line in lines
        )
        self.window.statusBar().showMessage(
            QCoreApplication.translate("MainWindow", "Saved: {lines} ({question})").format(
                lines=saved, question=question["id"]
            ),
            8000,
        )
        return rows

    def _ask_reviewer(self, lines: list[dict], question: dict) -> None:
        """No reviewer named yet: ask for the name there and then, and write the judgement
        the key asked for once it is given (nothing is written without a name)."""
        dialog = QInputDialog(self.window)
        dialog.setObjectName("reviewer-name")
        dialog.setWindowTitle(QCoreApplication.translate("MainWindow", "Reviewer"))
        dialog.setLabelText(
            QCoreApplication.translate(
                "MainWindow",
                "Your name as a reviewer, written with every judgement. This judgement is "
                "saved once you give it:",
            )
        )

        def named() -> None:
            name = dialog.textValue().strip()
            if name:
                self.window.set_reviewer(name)
                self.judge_lines(lines, question)

        dialog.accepted.connect(named)
        self.window.reviewer_dialog = dialog
        dialog.open()

    def say(self, text: str, msecs: int = 5000) -> None:
        self.window.statusBar().showMessage(text, msecs)

    def mark_role(self, role: str) -> None:
        item = self.window.selected_item()
        if item is None:
            self.say(QCoreApplication.translate("MainWindow", "Select an evidence item first"))
            return
        if self.window.session.mine("role", item.primary_id) == role:
            self.say(
                QCoreApplication.translate(
                    "MainWindow", "You already marked {passage} {role}"
                ).format(passage=item.primary_id, role=terms.role(role))
            )
            return
        self.judge("role", role, passage_id=item.primary_id, system=None)

    def accept_alternative(self) -> None:
        item, passage = self.window.selected_item(), self.window.selected_passage()
        if item is None or passage is None:
            self.say(
                QCoreApplication.translate(
                    "MainWindow", "Select an evidence item and a retrieved passage first"
                )
            )
            return
        if self.window.gold.judged_by_span(passage):
            self.window.gold.by_span(passage, "alternative")
            return
        self.add_alternative(passage.passage_id, item)

    def add_alternative(self, passage_id: str, item) -> bool:
        view = self.window.session.view
        if view is None:
            return False
        if any(i.primary_id == passage_id for i in view.items):
            self.say(
                QCoreApplication.translate(
                    "MainWindow", "{passage} is itself an evidence item"
                ).format(passage=passage_id)
            )
            return False
        if self.window.session.mine("alternative", passage_id) == item.primary_id:
            # Pressing A again on your own alternative withdraws it.
            return self.judge("alternative", None, passage_id=passage_id) is not None
        return self.judge("alternative", item.primary_id, passage_id=passage_id) is not None

    def mark_not_evidence(self) -> None:
        passage, view = self.window.selected_passage(), self.window.session.view
        if passage is None:
            return
        if self.window.gold.judged_by_span(passage):
            self.say(
                QCoreApplication.translate(
                    "MainWindow",
                    "{passage} is of another chunking: it is judged by its span (E or R adds "
                    "it as evidence, A as an alternative of the selected item)",
                ).format(passage=passage.passage_id),
                6000,
            )
            return
        if view and any(i.primary_pk == passage.passage_pk for i in view.items):
            self.say(
                QCoreApplication.translate(
                    "MainWindow",
                    "{passage} is an evidence item's primary passage and stays evidence; "
                    "mark its role instead",
                ).format(passage=passage.passage_id),
                6000,
            )
            return
        value = None if self.window.session.mine("not_evidence", passage.passage_id) else True
        self.judge("not_evidence", value, passage_id=passage.passage_id)

    def adopt_suggestion(self) -> None:
        """The selected pool passage's machine verdict written as the reviewer's own lines."""
        row = self.window.pool_panel.current() if self.window.pool_panel.active else None
        if row is None or row.suggestion is None or self.window.session.blind:
            self.say(
                QCoreApplication.translate(
                    "MainWindow", "Select a passage a machine judged in the unjudged pool first"
                )
            )
            return
        question = self.window.session.by_pk[row.question_pk]  # across questions: its own
        self.judge_lines(row.suggestion.lines(row.passage_id), question)

    def mark_answerable(self, answerable: bool) -> None:
        if self.window.session.view is None:
            return
        if self.window.session.mine("answerable", "") is answerable:
            self.say(QCoreApplication.translate("MainWindow", "Already recorded"), 4000)
            return
        self.judge("answerable", answerable)

    def write_note(self) -> None:
        view, session = self.window.session.view, self.window.session
        if view is None:
            return
        on_item = self.window.evidence_panel.table.hasFocus() or self._note_on_item()
        item = self.window.selected_item() if on_item else None
        if item is not None:
            target = QCoreApplication.translate(
                "MainWindow", "Note on evidence item {passage} of {question} ({system})"
            ).format(passage=item.primary_id, question=view.id, system=session.system_name or "–")
            passage_id, system = item.primary_id, session.system_name
        else:
            target = QCoreApplication.translate("MainWindow", "Note on question {question}").format(
                question=view.id
            )
            passage_id, system = "", None
        existing = next(
            (
                n.text
                for n in reversed(view.notes)
                if n.reviewer == session.reviewer and n.passage_id == passage_id
            ),
            "",
        )
        dialog = NoteDialog(target, existing, self.window)
        self.window.note_dialog = dialog
        dialog.accepted.connect(
            partial(self._save_note, dialog, session.question(), existing, passage_id, system)
        )
        dialog.open()  # window-modal, and the event loop keeps running

    def _save_note(self, dialog, question, existing, passage_id, system) -> None:
        text = dialog.text()
        if text != existing:
            self.judge(
                "note", text or None, passage_id=passage_id, system=system, question=question
            )

    def _note_on_item(self) -> bool:
        """A note goes on the selected item when it is missed at K (a miss note), else on
        the question."""
        item = self.window.selected_item()
        if item is None or not self.window.session.system_name:
            return False
        return not self.window.evidence_model.found(item, self.window.session.system_name).at(
            self.window.session.k
        )

    def search_dialog(self) -> None:
        if self.window.session.view is None:
            return
        dialog = CorpusSearchDialog(
            self.window.session.view.items,
            self.search_corpus,
            self.window.gold.add_found_alternative,
            max(self.window.evidence_panel.table.currentIndex().row(), 0),
            self.window,
            add_evidence=self.window.gold.add_found,
            chunkings=self.window.session.chunkings,
        )
        self.window.search = dialog
        dialog.open()

    def search_corpus(
        self, text: str, offset: int, on_done, order="relevance", like=None, chunking=None
    ):
        """One page of a corpus search from offset (of one chunking, or None: all), in the
        query worker, off the GUI thread; like (a passage key): the passages most like that
        one instead ("more like this", within its own chunking)."""
        self.window.queries.cancel("search")
        if like is not None:
            work = operations.similar_op(like, SearchResultsModel.PAGE)
        else:
            work = operations.search_op(text, offset, SearchResultsModel.PAGE, order, chunking)
        return self.window.queries.start(
            "search",
            work,
            on_done=lambda done: on_done(done.result),
            on_failed=lambda error: self.window.show_error(
                QCoreApplication.translate("MainWindow", "Search failed"), str(error)
            ),
        )

    def adjudicate(self, reviewer_index: int) -> None:
        """Settle the selected disagreement with one reviewer's value (one key: Ctrl+n)."""
        dispute = (
            None if self.window.session.blind else self.window.evidence_panel.current_dispute()
        )
        if dispute is None:
            self.say(
                QCoreApplication.translate("MainWindow", "No open disagreement on this question")
            )
            return
        reviewers = self.window.evidence_panel.dispute_model.reviewers
        if reviewer_index >= len(reviewers) or reviewers[reviewer_index] not in dispute.values:
            return
        value = dispute.values[reviewers[reviewer_index]]
        settles = dispute.kind
        if settles == "evidence" and value is False:
            settles, value = "not_evidence", True  # "not evidence" against an added item
        span = dispute.decision.span  # a disagreement about a span is settled by its span
        if span is not None:
            where = {"passage_id": "", "span": (span.document, span.start, span.end)}
            line = {"kind": "adjudication", "value": value, "settles": settles, **where}
            self.judge_lines([line])
            return
        self.judge("adjudication", value, passage_id=dispute.passage_id, settles=settles)

    def undo(self) -> None:
        self._replay(
            self.window.session.history.undo_lines(),
            QCoreApplication.translate("MainWindow", "Undone"),
            QCoreApplication.translate("MainWindow", "Nothing to undo"),
        )

    def redo(self) -> None:
        self._replay(
            self.window.session.history.redo_lines(),
            QCoreApplication.translate("MainWindow", "Redone"),
            QCoreApplication.translate("MainWindow", "Nothing to redo"),
        )

    def _replay(self, lines: list[dict], what: str, nothing: str) -> None:
        """Write the lines that undo (or redo) the latest step, together."""
        if not lines:
            self.say(nothing, 4000)
            return
        if lines[0]["kind"] == MARK:  # a reviewer mark, about no question
            name, value = lines[0]["reviewer"], lines[0]["value"]
            mark_reviewer(self.window, name, value, f"{what}: {terms.kind(MARK)} {name}")
            return
        question = self.window.session.by_id.get(lines[0]["question_id"])
        if question is None:
            return
        if question["pk"] != self.window.session.current_pk:
            self.window.show_question(question["id"])
        written = [{k: v for k, v in line.items() if k != "question_id"} for line in lines]
        if self.judge_lines(written, question):
            done = ", ".join(
                f"{terms.kind(line['settles'] or line['kind'])} "
                f"{line['passage_id'] or span_label(line)}"
                for line in lines
            )
            self.say(f"{what}: {done} ({question['id']})", 8000)

    def update_undo_actions(self) -> None:
        writable = self.window.writable() and bool(self.window.session.questions)
        self.window.act_undo.setEnabled(writable and self.window.session.history.can_undo())
        self.window.act_redo.setEnabled(writable and self.window.session.history.can_redo())

    # -- moving between questions ----------------------------------------------------------

    def step_question(self, step: int) -> None:
        order = self.window.question_panel.order()
        if not order:
            return
        current = self.window.session.current_pk
        i = order.index(current) + step if current in order else (0 if step > 0 else len(order) - 1)
        if 0 <= i < len(order):
            self.window.show_question(self.window.session.by_pk[order[i]]["id"])

    def next_miss(self) -> None:
        """The next evidence item missed at K by the chosen system: in this question after
        the selected item, else the first miss of the next question that has one."""
        session = self.window.session
        if session.view is None or not session.system_name:
            return
        missed = session.view.missed(session.system_name)
        later = [i for i in missed if i > self.window.evidence_panel.table.currentIndex().row()]
        if later:
            self.window.evidence_panel.select(later[0])
            self.window.evidence_panel.focus_item()
            return
        for pk in self.questions_after():
            found = session.found(pk)
            if found is None and session.board is None:
                found = self._found_now(pk)
            if found and found[0] < found[1]:
                self.window.show_question(session.by_pk[pk]["id"])
                # The view selected its first miss: the reader shows that, not rank 1.
                self.window.evidence_panel.focus_item()
                return
        self.say(
            QCoreApplication.translate(
                "MainWindow", "No other question has a miss at K = {k}"
            ).format(k=session.k)
        )

    def questions_after(self) -> list[int]:
        """Question pks in the list's order from the one after the current, round to the one
        before it (for "the next question that has …")."""
        order, current = self.window.question_panel.order(), self.window.session.current_pk
        start = order.index(current) + 1 if current in order else 0
        return [pk for pk in order[start:] + order[:start] if pk != current]

    def _found_now(self, pk: int):
        session = self.window.session
        view = session.view_of(session.by_pk[pk], session.shown_systems()[:1])
        if not view.items or not session.system_name:
            return None
        return len(view.items) - len(view.missed(session.system_name)), len(view.items)

    def focus_filter(self) -> None:
        self.window.question_panel.focus_filter()
