"""Every window action declared once, as data: its name, text, shortcuts, the window method it
calls, and when it is enabled. The menus, the triage buttons, the shortcut sheet and the
enabling all read this table (new judgement keys are one row each)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QAction, QKeySequence

K = QKeySequence.StandardKey

# When an action is enabled: ALWAYS; REVIEW once there are questions; JUDGE when judgements
# can also be written (a reviewer is named and the database is not read-only); ADJUDICATE
# when judging and not in blind mode.
ALWAYS, REVIEW, JUDGE, ADJUDICATE = "always", "review", "judge", "adjudicate"


@dataclass(frozen=True)
class Spec:
    name: str
    text: str  # English source text, translated in the context "actions"
    handler: str  # a method of the window or of one of the objects it owns
    keys: tuple = ()
    args: tuple = ()
    when: str = ALWAYS
    checkable: bool = False
    tip: str = ""
    short: str = ""  # the triage button's label, when it has a button
    sheet: bool = False  # listed in the keyboard shortcut sheet


ACTIONS = (
    Spec("new", QT_TRANSLATE_NOOP("actions", "&New database…"), "new_database_dialog", (K.New,)),
    Spec(
        "open", QT_TRANSLATE_NOOP("actions", "&Open database…"), "open_database_dialog", (K.Open,)
    ),
    Spec(
        "import_corpus",
        QT_TRANSLATE_NOOP("actions", "Import &corpus…"),
        "import_dialog",
        args=("corpus",),
    ),
    Spec(
        "import_graph_folder",
        QT_TRANSLATE_NOOP("actions", "Import GraphRAG/LightRAG &folder…"),
        "import_folder_dialog",
    ),
    Spec(
        "budget",
        QT_TRANSLATE_NOOP("actions", "Conte&xt budget…"),
        "budget_dialog",
        tip=QT_TRANSLATE_NOOP(
            "actions", "The characters of context runs with spans are also scored at (@2000ch)"
        ),
    ),
    Spec(
        "import_questions",
        QT_TRANSLATE_NOOP("actions", "Import &questions…"),
        "import_dialog",
        args=("questions",),
    ),
    Spec(
        "import_gold",
        QT_TRANSLATE_NOOP("actions", "Import &gold…"),
        "import_dialog",
        args=("gold",),
    ),
    Spec(
        "import_run", QT_TRANSLATE_NOOP("actions", "Import &run…"), "import_dialog", args=("run",)
    ),
    Spec(
        "import_judgements",
        QT_TRANSLATE_NOOP("actions", "Import &judgements…"),
        "import_dialog",
        args=("judgements",),
    ),
    Spec("sample", QT_TRANSLATE_NOOP("actions", "Load the &sample project"), "load_sample"),
    Spec("merge", QT_TRANSLATE_NOOP("actions", "&Merge database…"), "merge_dialog"),
    Spec(
        "export",
        QT_TRANSLATE_NOOP("actions", "&Export report…"),
        "export_dialog",
        ("Ctrl+E",),
        when=REVIEW,
        sheet=True,
    ),
    Spec(
        "export_judgements",
        QT_TRANSLATE_NOOP("actions", "Export my &judgements…"),
        "export_judgements_dialog",
    ),
    Spec("quit", QT_TRANSLATE_NOOP("actions", "&Quit"), "close", (K.Quit,)),
    Spec(
        "core",
        QT_TRANSLATE_NOOP("actions", "Mark the item core"),
        "mark_role",
        ("1",),
        ("core",),
        JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Core"),
        sheet=True,
    ),
    Spec(
        "supporting",
        QT_TRANSLATE_NOOP("actions", "Mark the item supporting"),
        "mark_role",
        ("2",),
        ("supporting",),
        JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Supporting"),
        sheet=True,
    ),
    Spec(
        "add_core",
        QT_TRANSLATE_NOOP("actions", "Add the passage as a core evidence item"),
        "add_evidence",
        ("E",),
        ("core",),
        JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "+ Core"),
        sheet=True,
    ),
    Spec(
        "add_supporting",
        QT_TRANSLATE_NOOP("actions", "Add the passage as a supporting evidence item"),
        "add_evidence",
        ("R",),
        ("supporting",),
        JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "+ Supporting"),
        sheet=True,
    ),
    Spec(
        "alternative",
        QT_TRANSLATE_NOOP("actions", "Accept the passage as an alternative"),
        "accept_alternative",
        ("A",),
        when=JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Alternative"),
        sheet=True,
    ),
    Spec(
        "not_evidence",
        QT_TRANSLATE_NOOP("actions", "Mark the passage not evidence"),
        "mark_not_evidence",
        ("X",),
        when=JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Not evidence"),
        sheet=True,
    ),
    Spec(
        "dismiss_candidate",
        QT_TRANSLATE_NOOP("actions", "Dismiss the candidate alternative"),
        "dismiss_candidate",
        ("H",),
        when=JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Dismiss"),
        sheet=True,
        tip=QT_TRANSLATE_NOOP(
            "actions", "Hide the picked candidate alternative of the selected item from your list"
        ),
    ),
    Spec(
        "adopt_suggestion",
        QT_TRANSLATE_NOOP("actions", "Adopt the machine's suggestion as your own judgement"),
        "adopt_suggestion",
        ("G",),
        when=JUDGE,
        sheet=True,
    ),
    Spec(
        "drop",
        QT_TRANSLATE_NOOP("actions", "Drop the evidence item…"),
        "drop_item",
        ("D",),
        when=JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Drop"),
        sheet=True,
    ),
    Spec(
        "answerable",
        QT_TRANSLATE_NOOP("actions", "Question answerable"),
        "mark_answerable",
        ("Y",),
        (True,),
        JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Answerable"),
        sheet=True,
    ),
    Spec(
        "abstain",
        QT_TRANSLATE_NOOP("actions", "Question to be abstained on"),
        "mark_answerable",
        ("B",),
        (False,),
        JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Abstain"),
        sheet=True,
    ),
    Spec(
        "note",
        QT_TRANSLATE_NOOP("actions", "Write a note…"),
        "write_note",
        ("N",),
        when=JUDGE,
        short=QT_TRANSLATE_NOOP("actions", "Note"),
        sheet=True,
    ),
    Spec(
        "search",
        QT_TRANSLATE_NOOP("actions", "Search the corpus…"),
        "search_dialog",
        ("S", "Ctrl+Shift+F"),
        when=REVIEW,
        short=QT_TRANSLATE_NOOP("actions", "Search"),
        sheet=True,
    ),
    Spec("undo", QT_TRANSLATE_NOOP("actions", "&Undo"), "undo", (K.Undo,), when=JUDGE, sheet=True),
    Spec(
        "redo",
        QT_TRANSLATE_NOOP("actions", "&Redo"),
        "redo",
        ("Ctrl+Shift+Z", "Ctrl+Y"),
        when=JUDGE,
        sheet=True,
    ),
    Spec(
        "next",
        QT_TRANSLATE_NOOP("actions", "Next question"),
        "step_question",
        ("J", "PgDown"),
        (1,),
        REVIEW,
        sheet=True,
    ),
    Spec(
        "previous",
        QT_TRANSLATE_NOOP("actions", "Previous question"),
        "step_question",
        ("K", "PgUp"),
        (-1,),
        REVIEW,
        sheet=True,
    ),
    Spec(
        "next_miss",
        QT_TRANSLATE_NOOP("actions", "Next miss"),
        "next_miss",
        ("M",),
        when=REVIEW,
        sheet=True,
    ),
    Spec(
        "pool",
        QT_TRANSLATE_NOOP("actions", "Unjudged &pool"),
        "show_pool",
        ("P",),
        when=REVIEW,
        sheet=True,
    ),
    Spec(
        "next_pool",
        QT_TRANSLATE_NOOP("actions", "Next question with unjudged passages"),
        "next_pool_question",
        ("U",),
        when=REVIEW,
        sheet=True,
    ),
    Spec(
        "filter",
        QT_TRANSLATE_NOOP("actions", "Filter questions"),
        "focus_filter",
        (K.Find,),
        sheet=True,
    ),
    Spec(
        "compare",
        QT_TRANSLATE_NOOP("actions", "Compare two systems"),
        "toggle_compare",
        ("C",),
        checkable=True,
        sheet=True,
    ),
    Spec(
        "metrics_tall",
        QT_TRANSLATE_NOOP("actions", "Metrics: tall view"),
        "toggle_metrics_tall",
        ("T",),
        checkable=True,
        sheet=True,
        tip=QT_TRANSLATE_NOOP(
            "actions", "Raise the metrics dock to most of the window's height, and back"
        ),
    ),
    *(
        Spec(
            f"adjudicate_{n}",
            QT_TRANSLATE_NOOP("actions", "Adjudicate: take reviewer {n}'s value"),
            "adjudicate",
            (f"Ctrl+{n}",),
            (n - 1,),
            ADJUDICATE,
            sheet=n <= 2,
        )
        for n in range(1, 5)
    ),
    Spec(
        "blind",
        QT_TRANSLATE_NOOP("actions", "&Blind mode (hide other reviewers)"),
        "toggle_blind",
        checkable=True,
        tip=QT_TRANSLATE_NOOP(
            "actions", "Hide other reviewers' judgements so that your review is independent"
        ),
    ),
    Spec("reviewer", QT_TRANSLATE_NOOP("actions", "Change &reviewer name…"), "change_reviewer"),
    Spec(
        "shortcuts",
        QT_TRANSLATE_NOOP("actions", "&Keyboard shortcuts"),
        "show_shortcuts",
        ("?", "Shift+?", "F1"),
        sheet=True,
    ),
    Spec("about", QT_TRANSLATE_NOOP("actions", "&About Recall Reviewer"), "show_about"),
)

# The menus, by action name ("-" a separator).
MENUS = (
    (
        QT_TRANSLATE_NOOP("actions", "&File"),
        (
            "new",
            "open",
            "-",
            "import_corpus",
            "import_graph_folder",
            "import_questions",
            "import_gold",
            "import_run",
            "import_judgements",
            "sample",
            "-",
            "merge",
            "export_judgements",
            "export",
            "-",
            "quit",
        ),
    ),
    (
        QT_TRANSLATE_NOOP("actions", "&View"),
        ("compare", "metrics_tall", "pool", "filter", "blind", "budget"),
    ),
    (
        QT_TRANSLATE_NOOP("actions", "&Review"),
        (
            "core",
            "supporting",
            "add_core",
            "add_supporting",
            "alternative",
            "not_evidence",
            "dismiss_candidate",
            "adopt_suggestion",
            "drop",
            "answerable",
            "abstain",
            "note",
            "search",
            "-",
            "next",
            "previous",
            "next_miss",
            "next_pool",
            "-",
            "adjudicate_1",
            "adjudicate_2",
            "-",
            "undo",
            "redo",
            "reviewer",
        ),
    ),
    (QT_TRANSLATE_NOOP("actions", "&Help"), ("shortcuts", "about")),
)


def tr(text: str) -> str:
    return QCoreApplication.translate("actions", text)


def build(window, owners: Sequence[object], before=None) -> dict[str, QAction]:
    """One QAction per row, added to the window so that its shortcut works wherever the
    focus is, and triggering the row's method (of the first of owners that has it) with its
    arguments; before() first, when given, for the actions that review or judge."""
    out = {}
    for spec in ACTIONS:
        action = QAction(
            tr(spec.text).format(n=spec.args[0] + 1) if "{n}" in spec.text else tr(spec.text),
            window,
        )
        if spec.keys:
            action.setShortcuts([QKeySequence(k) for k in spec.keys])
        action.setCheckable(spec.checkable)
        if spec.tip:
            action.setStatusTip(tr(spec.tip))
            action.setToolTip(tr(spec.tip))
        handler = next(getattr(o, spec.handler) for o in owners if hasattr(o, spec.handler))
        if before is not None and spec.when != ALWAYS:
            handler = _after(before, handler)
        args = spec.args
        if spec.checkable:
            action.triggered.connect(lambda _checked=False, h=handler: h())
        else:
            action.triggered.connect(lambda _checked=False, h=handler, a=args: h(*a))
        window.addAction(action)
        out[spec.name] = action
    return out


def _after(before, handler):
    def run(*args):
        before()
        return handler(*args)

    return run


def enable(actions: dict[str, QAction], states: set[str]) -> None:
    """Enable each action whose `when` is among the states the window is in."""
    for spec in ACTIONS:
        actions[spec.name].setEnabled(spec.when in states)


def buttons(actions: dict[str, QAction]) -> list[tuple[QAction, str]]:
    return [(actions[s.name], tr(s.short)) for s in ACTIONS if s.short]


def sheet(actions: dict[str, QAction]) -> list[QAction]:
    return [actions[s.name] for s in ACTIONS if s.sheet]
