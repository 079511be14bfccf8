"""One review session: who reviews, how (blind or not, K), which system(s) are shown and
which question is current. Panels listen to its signals instead of the window calling each
of them by hand; the view of the current question is built here, once per change."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, QSettings, Signal

from desktop import review
from desktop.gold.pool import DEFAULT_DEPTH, ordered
from desktop.readers.judgements import DISMISSED
from desktop.review import QuestionView, UndoHistory


class ReviewSession(QObject):
    questionChanged = Signal(int)  # pk of the question now current
    viewChanged = Signal(object, bool)  # (QuestionView, keep the panels' selections)
    judgementsChanged = Signal(int)  # pk of the question a judgement was written on
    # The current question's view with the key's lines, in the key's event (review.at_key):
    # the panels showing what was judged update their rows; its rebuild follows (viewChanged).
    judgementShown = Signal(object)
    kChanged = Signal(int)
    systemsChanged = Signal()  # the shown system or the compared one changed
    blindChanged = Signal(bool)
    reviewerChanged = Signal(str)
    dataReloaded = Signal()  # questions and systems were read again
    scoresChanged = Signal(int)  # a question's scores (its pk) or, for -1, every question's
    poolDepthChanged = Signal(int)  # every question's unjudged count changes with it
    poolCounted = Signal()  # every question's unjudged count arrived (Summary.unjudged)

    def __init__(self, settings: QSettings, reviewer: str, parent=None):
        super().__init__(parent)
        self.settings = settings
        self.reviewer = reviewer
        self.blind = settings.value("blind", False, bool)
        self.k = int(settings.value("k", 5) or 5)
        self.pool_depth = int(settings.value("pool/depth", DEFAULT_DEPTH) or DEFAULT_DEPTH)
        self.pool_shuffled = settings.value("pool/shuffled", False, bool)
        self.project = None
        self.db_key = ""
        self.questions: list[dict] = []
        self.by_id: dict[str, dict] = {}
        self.by_pk: dict[int, dict] = {}
        self.systems: list[dict] = []
        self.system_name: str | None = None
        self.compare_name: str | None = None
        self.reviewers: list[str] = []
        self.chunkings: list[str] = []
        self.machines: list[str] = []
        self.marks: list[dict] = []  # the reviewer-mark lines, which every question's gold reads
        self.history = UndoHistory()
        self.current_pk: int | None = None
        self.view: QuestionView | None = None
        self.serial = 0  # counts the views shown: a judged question's build comes later
        self._ahead: dict[int, tuple] = {}  # question pk -> a view read ahead (keep_ahead)
        self.keyed: QuestionView | None = None  # shown at a key, until its rebuild is taken
        self.terms: list[str] = []
        self.overview: review.Overview | None = None
        self.unjudged: dict[int, int] = {}  # question pk -> unjudged passages of its pool
        self._rescored: set[int] = set()  # since the pool was last counted
        self.board: review.Scoreboard | None = None
        # The pool queue's tab is in front: a switch then reads its excerpts with the view;
        # behind the rankings the queue's worker reads them when it is shown (PoolPanel._ask).
        self.pool_in_front = False

    # -- data ------------------------------------------------------------------------------

    def load(self, project, db_key: str, opened: bool = False) -> None:
        """Read questions, systems and reviewers again (after opening, an import, a merge or
        a change by another program)."""
        if opened:
            # The reviewer's earlier lines, so undo survives a restart; lines another window
            # writes later are never added, so undo only undoes what this window wrote.
            self.history = review.history(project, self.reviewer)
        self.project = project
        self.db_key = db_key
        self.questions = project.questions()
        self.by_id = {q["id"]: q for q in self.questions}
        self.by_pk = {q["pk"]: q for q in self.questions}
        self.systems = project.systems()
        # Names of the chunkings, first (the gold's) first: the corpus search offers them.
        self.chunkings = [c["name"] for c in project.reads.chunkings()]
        self.reviewers = review.reviewers(project)
        self.machines = project.machine_reviewers()  # the Agreement tab's checked reviewers
        self.marks = project.reads.mark_lines()
        names = [s["name"] for s in self.systems]
        wanted = self.system_name or str(self.settings.value(f"system/{db_key}", "") or "")
        self.system_name = wanted if wanted in names else (names[0] if names else None)
        if self.compare_name not in names or self.compare_name == self.system_name:
            self.compare_name = None
        self.board = None
        self.overview = None
        self.unjudged = {}
        if self.current_pk not in self.by_pk:
            self.current_pk = None
            self.view = None
        self.dataReloaded.emit()

    def reread_reviewers(self) -> None:
        """Lines came in beyond this window's (an import, a merge, a reviewer mark): who
        judged is read again and the current question shown anew; questions and systems
        stay as they are."""
        self.reviewers = review.reviewers(self.project)
        self.machines = self.project.machine_reviewers()
        self.marks = self.project.reads.mark_lines()
        self.board, self.overview, self.unjudged = None, None, {}  # until the full pass
        self.refresh()

    def question(self, pk: int | None = None) -> dict | None:
        return self.by_pk.get(self.current_pk if pk is None else pk)

    def current_id(self) -> str | None:
        question = self.question()
        return question["id"] if question else None

    def system_names(self) -> list[str]:
        return [s["name"] for s in self.systems]

    def shown_systems(self) -> list[dict]:
        by_name = {s["name"]: s for s in self.systems}
        shown = [by_name[self.system_name]] if self.system_name in by_name else []
        if self.compare_name in by_name and self.compare_name != self.system_name:
            shown.append(by_name[self.compare_name])
        return shown

    def system_index(self, name: str) -> int:
        return next((i for i, s in enumerate(self.systems) if s["name"] == name), 0)

    # -- the current question ----------------------------------------------------------------

    def show(self, pk: int, keep_selection: bool = False) -> bool:
        question = self.by_pk.get(pk)
        if question is None or self.project is None:
            return False
        same = pk == self.current_pk
        self.current_pk = pk
        read = self.view_reader(question, self.shown_systems())
        self.view = self._read_ahead(pk, read) or read(self.project)
        self.serial += 1
        self.keyed = None
        self.terms = review.question_terms(question["text"])
        if not same:
            self.questionChanged.emit(pk)
        self.viewChanged.emit(self.view, keep_selection and same)
        return True

    def keep_ahead(self, serial: int, mark: tuple, read: partial, view: QuestionView) -> None:
        """A neighbour's view a worker read while view `serial` was shown, with the store's
        write mark taken when the read was asked for (the rankings draw it ahead): the next
        switch to it takes it instead of building it again."""
        if serial == self.serial:
            self._ahead[view.pk] = (mark, read.keywords, view)

    def _read_ahead(self, pk: int, read: partial) -> QuestionView | None:
        """The view read ahead for pk when it is exactly what `read` would build now: read
        while this same view was shown, nothing written since (by this window or any other
        connection), and every argument equal (K, systems, reviewers, blind, marks…). Each
        view shown drops them all, so what is kept was read while the current one was."""
        ahead, self._ahead = self._ahead.get(pk), {}
        if ahead is None:
            return None
        mark, keywords, view = ahead
        if keywords != read.keywords:
            return None
        return view if mark == self.project.reads.write_mark() else None

    def view_of(self, question: dict, systems: list[dict]) -> QuestionView:
        return self.view_reader(question, systems)(self.project)

    def view_reader(self, question: dict, systems: list[dict]) -> Callable:
        """view_of as a function of a Project, all else taken now: a worker reads a view on
        its own connection with it (the rankings drawn ahead)."""
        return partial(
            review.question_view,
            question=question,
            systems=systems,
            k=self.k,
            reviewer=self.reviewer,
            blind=self.blind,
            reviewers=self.reviewers,
            pool_depth=self.pool_depth,
            names={s["pk"]: s["name"] for s in self.systems},
            pool_excerpts=self.pool_in_front,
            marks=self.marks,
        )

    def pool_of(self, question: dict) -> list:
        """The unjudged pool of a question, the current one from its view."""
        if question["pk"] == self.current_pk and self.view is not None:
            return self.view.pool
        return review.pool_of(
            self.project,
            question,
            self.reviewer,
            self.blind,
            self.reviewers,
            self.pool_depth,
            self.marks,
        )

    def pool_order(self, question_id: str, entries: list) -> list:
        """The design's order, or the reviewer's own shuffle of it (against position bias)."""
        return ordered(entries, self.reviewer if self.pool_shuffled else None, question_id)

    def refresh(self) -> None:
        """The current question again, keeping what the reviewer selected."""
        if self.current_pk is not None:
            self.show(self.current_pk, keep_selection=True)

    def found(self, pk: int):
        """(items found at K, items) of the shown system on question pk, from the board."""
        if self.board is None or self.system_name is None:
            return None
        return self.board.found(self.system_name, pk, self.k)

    def only_found(self) -> dict[str, set[int]]:
        """Per system, the current question's evidence items (by index) that it alone finds
        in its top K among all systems; empty with fewer than two systems, or while the
        board's entry is older than the view (a judgement's scores still coming)."""
        board, view = self.board, self.view
        if board is None or view is None or len(board.systems) < 2:
            return {}
        for entries in board.entries.values():
            entry = entries.get(view.pk)
            if entry is not None and len(entry.first) != len(view.items):
                return {}
        return board.only_found(view.pk, self.k)

    # -- modes -----------------------------------------------------------------------------

    def set_k(self, k: int) -> bool:
        if k == self.k or k < 1:
            return False
        self.k = k
        self.settings.setValue("k", k)
        self.kChanged.emit(k)
        self.refresh()
        return True

    def set_system(self, name: str) -> bool:
        if name not in self.system_names():
            return False
        self.system_name = name
        self.settings.setValue(f"system/{self.db_key}", name)
        if self.compare_name == name:
            self.compare_name = None
        self.systemsChanged.emit()
        self.refresh()
        return True

    def set_compare(self, name: str | None) -> None:
        names = self.system_names()
        self.compare_name = name if name in names and name != self.system_name else None
        if self.compare_name:
            self.settings.setValue("compare", self.compare_name)
        self.systemsChanged.emit()
        self.refresh()

    def compare_candidate(self) -> str | None:
        """The system to compare with when compare mode is switched on."""
        others = [n for n in self.system_names() if n != self.system_name]
        remembered = str(self.settings.value("compare", "") or "")
        return remembered if remembered in others else (others[0] if others else None)

    def set_pool(self, depth: int | None = None, shuffled: bool | None = None) -> None:
        if depth is not None and depth >= 1 and depth != self.pool_depth:
            self.pool_depth = depth
            self.settings.setValue("pool/depth", depth)
            self.poolDepthChanged.emit(depth)
        if shuffled is not None:
            self.pool_shuffled = shuffled
            self.settings.setValue("pool/shuffled", shuffled)
        self.refresh()

    def set_blind(self, blind: bool) -> None:
        self.blind = blind
        self.settings.setValue("blind", blind)
        self.blindChanged.emit(blind)
        self.refresh()

    def set_reviewer(self, name: str) -> None:
        self.reviewer = name
        self.settings.setValue("reviewer", name)
        if self.project is not None:
            self.reviewers = review.reviewers(self.project)
            self.history = review.history(self.project, name)
        self.reviewerChanged.emit(name)
        self.refresh()

    # -- judgements ------------------------------------------------------------------------

    def judge(self, question: dict, lines: list[dict]) -> tuple[list[dict], bool]:
        """Append judgement lines (add_judgement's arguments but the question: one, or
        several written together as one undo step), committed before this returns, and show
        them. Returns the rows and whether they change what counts on other questions
        (a second reviewer joining). Raises ValueError or StoreError when nothing was
        saved."""
        rows = self.project.add_judgement_lines(
            self.reviewer,
            [{**line, "question_id": question["id"]} for line in lines],
            review.next_at(self.history.last_at),
        )
        self.history.record_all(rows)
        # A dismissed candidate alone does not make its writer a reviewer of the gold.
        counted = any(line["kind"] != DISMISSED for line in lines)
        new_reviewer = counted and self.reviewer not in self.reviewers
        # A lone reviewer's changes count at once until a second person joins (design 6):
        # only that second person's first line moves other questions' scores. A first
        # reviewer, a third, or anyone in blind mode (who sees no one else) moves none.
        others_move = new_reviewer and not self.blind and len(self.reviewers) == 1
        if new_reviewer:
            self.reviewers = sorted({*self.reviewers, self.reviewer})
        if question["pk"] == self.current_pk and self.view is not None:
            self._show_at_key(question, rows)
        self.judgementsChanged.emit(question["pk"])
        return rows, others_move

    def _show_at_key(self, question: dict, rows: list[dict]) -> None:
        """The judged question as its rebuild will show it, now: the write is on disk and
        the rebuild is a worker round trip away. The effective role is built by the one
        build of the gold (review.at_key calls question_gold on this question's rows, held
        by the view, and the new lines), not by a copy of its rules here; another reviewer's
        lines written meanwhile come with the rebuild, which replaces this view."""
        view = review.at_key(
            self.project,
            self.view,
            question,
            rows,
            self.reviewer,
            self.blind,
            self.reviewers,
            self.marks,
        )
        if view is None:
            # A line the systems' lists must be matched again for (an item added or
            # dropped): until the build comes back (take_view), the keys that toggle read
            # the reviewer's own latest values from here.
            for row in rows:
                if row["kind"] != "note":
                    self.view.mine[(row["kind"], row["passage_id"])] = json.loads(row["value"])
            return
        self.view = self.keyed = view
        self.judgementShown.emit(view)

    def take_view(self, view: QuestionView, serial: int) -> bool:
        """A judged question's view, built on a worker once its line was written: shown
        unless another view was shown since the judgement (another question, K, system)."""
        if serial != self.serial or view.pk != self.current_pk:
            return False
        self.view, self.keyed = view, None
        self.viewChanged.emit(view, True)
        return True

    def mine(self, kind: str, passage_id: str):
        return self.view.mine.get((kind, passage_id)) if self.view else None

    # -- scores ----------------------------------------------------------------------------

    def set_overview(self, result: review.Overview) -> None:
        self.overview = result
        self.board = result.board
        self.reviewers = result.reviewers
        for pk, summary in result.summaries.items():  # until the pool is counted again
            summary.unjudged = self.unjudged.get(pk, -1)
        self.scoresChanged.emit(-1)

    def counting(self) -> None:
        """A pass counting every question's pool has started: questions rescored from now on
        keep their own, fresher, count."""
        self._rescored = set()

    def set_unjudged(self, counts: dict[int, int]) -> None:
        """Every question's unjudged count (a pass beside the full one)."""
        counts = dict(counts)
        counts.update({pk: self.unjudged[pk] for pk in self._rescored if pk in self.unjudged})
        self.unjudged = counts
        if self.overview is not None:
            for pk, summary in self.overview.summaries.items():
                summary.unjudged = counts.get(pk, 0)
        self.poolCounted.emit()

    def set_question_scores(self, pk: int, summary, entries: dict, agreement) -> bool:
        if self.board is None:
            return False
        for system, entry in entries.items():
            if system in self.board.entries:
                self.board.set(system, pk, entry)
        self.unjudged[pk] = summary.unjudged
        self._rescored.add(pk)
        if self.overview is not None:
            self.overview.summaries[pk] = summary
            if agreement is not None:
                self.overview.agreement = agreement
        self.scoresChanged.emit(pk)
        return True

    def span_choice(self, full: bool = False) -> review.SpanChoice:
        """The span rule's budget (characters, a setting) and θ; after a full pass, the
        systems it scored by spans (a judged question's rescore keeps to them)."""
        budget = int(self.settings.value("spans/budget", review.DEFAULT_BUDGET) or 0)
        theta = float(self.settings.value("spans/theta", review.DEFAULT_THETA) or 0)
        budgets = (budget,) if budget > 0 else ()
        theta = theta if 0 < theta <= 1 else review.DEFAULT_THETA
        span = None if full or self.overview is None else self.overview.span
        return review.SpanChoice(budgets, theta, span.systems if span else None)

    def window_ks(self) -> list[int]:
        return sorted({*review.WINDOW_KS, self.k})
