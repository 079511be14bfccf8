"""The design's words as the window shows them, translated in one place (context "terms")."""

from __future__ import annotations

import re
import unicodedata

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from desktop import review
from desktop.gold import effective as gold

ROLES = {
    "core": QT_TRANSLATE_NOOP("terms", "core"),
    "supporting": QT_TRANSLATE_NOOP("terms", "supporting"),
    None: QT_TRANSLATE_NOOP("terms", "unassigned"),
}
DECISIONS = {
    gold.ADJUDICATED: QT_TRANSLATE_NOOP("terms", "adjudicated"),
    gold.AGREED: QT_TRANSLATE_NOOP("terms", "agreed"),
    gold.SINGLE: QT_TRANSLATE_NOOP("terms", "single reviewer"),
    gold.PENDING: QT_TRANSLATE_NOOP("terms", "waiting for a second reviewer"),
    gold.DISPUTED: QT_TRANSLATE_NOOP("terms", "disputed"),
}
SHORT_DECISIONS = {
    gold.ADJUDICATED: QT_TRANSLATE_NOOP("terms", "adjud."),
    gold.AGREED: QT_TRANSLATE_NOOP("terms", "agreed"),
    gold.SINGLE: QT_TRANSLATE_NOOP("terms", "single"),
    gold.PENDING: QT_TRANSLATE_NOOP("terms", "pending"),
    gold.DISPUTED: QT_TRANSLATE_NOOP("terms", "disputed"),
}
STATUSES = {
    review.UNTOUCHED: QT_TRANSLATE_NOOP("terms", "untouched"),
    review.IN_PROGRESS: QT_TRANSLATE_NOOP("terms", "in progress"),
    review.DONE: QT_TRANSLATE_NOOP("terms", "done"),
}
KINDS = {
    "role": QT_TRANSLATE_NOOP("terms", "role"),
    "alternative": QT_TRANSLATE_NOOP("terms", "alternative"),
    "not_evidence": QT_TRANSLATE_NOOP("terms", "not evidence"),
    "answerable": QT_TRANSLATE_NOOP("terms", "answerability"),
    "note": QT_TRANSLATE_NOOP("terms", "note"),
    "adjudication": QT_TRANSLATE_NOOP("terms", "adjudication"),
    "evidence": QT_TRANSLATE_NOOP("terms", "new evidence item"),
    "drop": QT_TRANSLATE_NOOP("terms", "dropped item"),
    "machine": QT_TRANSLATE_NOOP("terms", "machine mark"),
    "dismissed": QT_TRANSLATE_NOOP("terms", "dismissed candidate"),
}
MEASURES = {
    "Recall": QT_TRANSLATE_NOOP("terms", "R"),
    "CoreRecall": QT_TRANSLATE_NOOP("terms", "CoreR"),
    "Hit": QT_TRANSLATE_NOOP("terms", "Hit"),
    "MRR": QT_TRANSLATE_NOOP("terms", "MRR"),
    "nDCG": QT_TRANSLATE_NOOP("terms", "nDCG"),
    "P": QT_TRANSLATE_NOOP("terms", "P"),
    "Judged": QT_TRANSLATE_NOOP("terms", "Judged"),
    "SpanRecall": QT_TRANSLATE_NOOP("terms", "SpanR"),
    "SpanPrecision": QT_TRANSLATE_NOOP("terms", "SpanP"),
}
MEASURE_NAMES = {
    "Recall": QT_TRANSLATE_NOOP("terms", "Recall: the share of evidence items found in the top K"),
    "CoreRecall": QT_TRANSLATE_NOOP(
        "terms", "CoreRecall: the share of core evidence items found in the top K"
    ),
    "Hit": QT_TRANSLATE_NOOP("terms", "Hit: 1 when any evidence item is in the top K"),
    "MRR": QT_TRANSLATE_NOOP("terms", "MRR: 1 / rank of the first evidence passage in the top K"),
    "nDCG": QT_TRANSLATE_NOOP("terms", "nDCG: rank quality, core counts twice"),
    "P": QT_TRANSLATE_NOOP("terms", "P: the share of the top K that is evidence (K divides)"),
    "Judged": QT_TRANSLATE_NOOP(
        "terms", "Judged: the share of the top K that is judged (evidence or not)"
    ),
    "SpanRecall": QT_TRANSLATE_NOOP(
        "terms", "SpanRecall: the mean share of each evidence item's text the top K covers"
    ),
    "SpanPrecision": QT_TRANSLATE_NOOP(
        "terms", "SpanPrecision: the share of the top K's text that is evidence"
    ),
}
BUDGET_NOTE = QT_TRANSLATE_NOOP(
    "terms",
    "At a budget of {n} characters: the context is the ranked passages' first {n} characters "
    "(the last passage cut), so chunkings are compared at equal context length.",
)
GREYED = {
    review.ACROSS: QT_TRANSLATE_NOOP(
        "terms",
        "Not defined across chunkings: a passage of another chunking is not one judged "
        "passage, so neither its gain nor its relevance is known (design section 10).",
    ),
    review.UNRANKED: QT_TRANSLATE_NOOP(
        "terms",
        "This run's order is not a ranking (a graph retriever's context): its fair figures are "
        "those over the whole context; rank measures and shorter cut-offs follow the given "
        "order.",
    ),
}

PHASES = {  # the phase names progress callbacks pass (desktop.readers.Progress)
    "reading": QT_TRANSLATE_NOOP("terms", "reading"),
    "checking ids": QT_TRANSLATE_NOOP("terms", "checking ids"),
    "building the search index": QT_TRANSLATE_NOOP("terms", "building the search index"),
    "saving": QT_TRANSLATE_NOOP("terms", "saving"),
    "backing up": QT_TRANSLATE_NOOP("terms", "backing up"),
    # desktop.evaluation.compare.compare
    "scoring": QT_TRANSLATE_NOOP("terms", "scoring"),
    "testing": QT_TRANSLATE_NOOP("terms", "testing"),
    "comparing hits": QT_TRANSLATE_NOOP("terms", "comparing hits"),
    "checking ties": QT_TRANSLATE_NOOP("terms", "checking ties"),
    "done": QT_TRANSLATE_NOOP("terms", "done"),
}


def t(text: str) -> str:
    return QCoreApplication.translate("terms", text)


def role(value: str | None) -> str:
    return t(ROLES.get(value, ROLES[None]))


def decision(status: str | None, short: bool = False) -> str:
    if status is None:
        return ""
    return t((SHORT_DECISIONS if short else DECISIONS)[status])


def status(value: str) -> str:
    return t(STATUSES[value]) if value in STATUSES else ""


def kind(value: str) -> str:
    return t(KINDS.get(value, value))


def value_text(kind_name: str, value: object) -> str:
    """A judgement's value in words."""
    if value is None:
        return t("withdrawn")
    if kind_name == "role":
        return role(value)  # type: ignore[arg-type]
    if kind_name == "answerable":
        return t("answerable") if value else t("abstain")
    if kind_name == "not_evidence":
        return t("not evidence") if value else t("evidence")
    if kind_name == "alternative":
        return t("alternative for {passage}").format(passage=value)
    if kind_name == "evidence":  # False: a vote of "not evidence" against an added item
        return t("added") if value else t("not evidence")
    if kind_name == "drop":
        return t("dropped")
    if kind_name == "dismissed":
        return t("dismissed for {passage}").format(passage=value)
    return str(value)


def phase(name: str) -> str:
    return t(PHASES[name]) if name in PHASES else name


def measure_label(label: str) -> str:
    measure, k = label.split("@")
    return f"{t(MEASURES[measure])}@{k}"


def measure_tip(label: str) -> str:
    measure, k = label.split("@")
    if k.endswith("ch"):  # a budget of characters (design section 10)
        return f"{t(MEASURE_NAMES[measure])} ({label})\n" + t(BUDGET_NOTE).format(n=k[:-2])
    return t(MEASURE_NAMES[measure]).replace("K", k, 1) + f" ({label})"


def greyed(reason: str) -> str:
    """Why a figure is greyed (review.ACROSS, review.UNRANKED), in words."""
    return t(GREYED[reason])


LEGEND = QT_TRANSLATE_NOOP(
    "terms",
    "● hit of an evidence item · ◐ hit through an alternative · ◆ ◈ found by this system "
    "alone · ○ not evidence · ◌ proposed alternative · × missed at K",
)


def legend() -> str:
    """The marks of the rankings and the evidence table, as their legends explain them. The
    space after each mark (a symbol: ● ◆ × …, not the "·" between entries) is one a wrapped
    line does not break at, so a mark stays with the words it explains (in English "◆" ended
    a line and "◈ found by …" began the next). By the character's kind, not a list of the
    marks: the models' marks and the translations' are written where they are used."""
    return re.sub(r"(\S) ", _no_break_after_symbol, t(LEGEND))


def _no_break_after_symbol(match: re.Match) -> str:
    char = match.group(1)
    return char + ("\u00a0" if unicodedata.category(char).startswith("S") else " ")


# Strings only used through t(): listed so that lupdate finds them.
_EXTRA = (
    QT_TRANSLATE_NOOP("terms", "withdrawn"),
    QT_TRANSLATE_NOOP("terms", "answerable"),
    QT_TRANSLATE_NOOP("terms", "abstain"),
    QT_TRANSLATE_NOOP("terms", "not evidence"),
    QT_TRANSLATE_NOOP("terms", "evidence"),
    QT_TRANSLATE_NOOP("terms", "alternative for {passage}"),
    QT_TRANSLATE_NOOP("terms", "dismissed for {passage}"),
    QT_TRANSLATE_NOOP("terms", "added"),
    QT_TRANSLATE_NOOP("terms", "dropped"),
)
