"""The Candidates sheet (issue 21 item 4, `export REPORT.xlsx --candidates`): for each
system, the misses a candidate alternative could still turn into hits, which a reviewer should
look at before trusting the number.

A row is a missed item of the Misses sheet (missed at the smallest K, by the same pass over
the runs: desktop.report.runs calls ``add``) and a passage in that system's top K, K the
largest of the report's at which the item is still missed, that is a candidate alternative of
the item's passage (desktop.gold.candidates: its similarity at least THRESHOLD) and not judged
yet: no judgement line of any kind names that question and passage, by anyone, and it is none
of the question's evidence items or their alternatives, nor a passage the gold already judged
(not evidence, a dropped item's, an imported level 0). An item given as a span has no passage
to compare and is left out.

The pass only keeps, per miss, the passages of the top K it could use (a few integers); the
similarity is computed after it, once per item over the passages of every system that missed
it (desktop.gold.candidates.candidate_scores, which skips the cosine of a passage whose share of
the item's rare pairs already keeps it below the threshold)."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from desktop.gold import candidates as rule
from desktop.report.cells import EXCERPT, excerpt, h
from desktop.report.gold_pass import ROLE_WORDS

if TYPE_CHECKING:
    from desktop.report.gold_pass import Record
    from desktop.report.sheet import Sheet
    from desktop.report.workbook import Report

CANDIDATES = "Candidates"
KOREAN_NAME = "대체 후보"
WIDTHS = [22, 12, 14, 11, 8, 14, 8, 9, 8, 60, 60]


def candidates_name(lang: str) -> str:
    """The Candidates sheet's name in ``lang`` ('ko' or 'en')."""
    return KOREAN_NAME if lang == "ko" else CANDIDATES


def candidates_head() -> list[str]:
    return [
        h("system", "시스템"),
        h("question", "질문"),
        h("item", "근거"),
        h("role", "역할"),
        "역할\nrole",
        h("candidate", "대체 후보"),
        h("rank", "순위"),
        h("score", "유사도"),
        h("hit from K", "적중 K"),
        h("item text", "근거 발췌"),
        h("candidate text", "후보 발췌"),
    ]


class CandidateList:
    """The misses of every system with the top-K passages that could turn them into hits,
    gathered during the pass over the runs, scored and written after it."""

    def __init__(self, report: Report, sheet: Sheet):
        self.report = report
        self.sheet = sheet  # made with the others (desktop.report.workbook.make_sheets)
        # (system index, question id, item passage, its id, role, top-K passages as
        # rank, passage, rank, passage, …) per miss, in the Misses sheet's order
        self.misses: list[tuple] = []
        self.systems: dict[str, int] = {s["name"]: i for i, s in enumerate(report.systems)}
        self.found = [0] * len(report.systems)  # per system: misses with a candidate

    def add(self, name: str, question: Record, first: list, ranked) -> None:
        """One system's list for one question: each item missed at the smallest K (as the
        Misses sheet has it) and the passages of the top K, K the largest at which it is
        still missed, that could be its candidates. ``first``: each item's first rank;
        ``ranked``: the system's passages, best first."""
        ks = self.report.ks
        unjudged = None
        for index, rank in enumerate(first):
            if rank and rank <= ks[0]:
                continue
            primary_pk, primary_id, role, alternatives, _, given, _ = question.items[index]
            if given:
                continue
            if unjudged is None:
                unjudged = self._unjudged(question, ranked)
                if not unjudged:
                    return
            depth = max(k for k in ks if not rank or rank > k)
            top = array("l")
            for at, passage in unjudged:
                if at > depth:
                    break
                top.extend((at, passage))
            if top:
                self.misses.append(
                    (self.systems[name], question.id, primary_pk, primary_id, role, top)
                )

    def _unjudged(self, question: Record, ranked) -> list[tuple[int, int]]:
        """(rank, passage) of the system's top K (the largest K) that are none of the
        question's evidence items, their alternatives or the passages its gold judged."""
        known = {pk for pk, *_ in question.items} | set(question.judged)
        known.update(a for item in question.items for a, _ in item[3])
        depth = self.report.ks[-1]
        return [
            (rank, passage)
            for rank, passage in enumerate(ranked[:depth], 1)
            if passage not in known
        ]

    def write(self) -> None:
        """Score every miss's passages against its item and write the rows."""
        reads = self.report.project.reads
        lines = reads.judged_pairs()
        # Per item the top-K arrays of its misses, its passages made into a set one item at a
        # time: a set of every item's passages at once, and the ids of them all, were most of
        # the report's peak memory with this sheet (issue 24: 48 MB and more at 5,000
        # questions). Only the candidates found need their ids.
        wanted: dict[int, list[array]] = {}
        for _, _, item, _, _, top in self.misses:
            wanted.setdefault(item, []).append(top)
        scores = {
            item: rule.candidate_scores(reads, item, {p for top in tops for p in top[1::2]})
            for item, tops in wanted.items()
        }
        del wanted
        ids = reads.passage_ids_of({p for found in scores.values() for p in found})
        texts = reads.passage_excerpts(
            {p for found in scores.values() for p in found} | {i for i, f in scores.items() if f},
            EXCERPT + 1,
        )
        self.sheet.header(candidates_head())
        for system, question_id, item, item_id, role, top in self.misses:
            found = scores[item]
            rows = [
                (top[i], top[i + 1])
                for i in range(0, len(top), 2)
                if top[i + 1] in found and (question_id, ids[top[i + 1]]) not in lines
            ]
            if rows:
                self.found[system] += 1
            for rank, passage in rows:
                self._row(
                    (system, question_id, item, item_id, role),
                    rank,
                    ids[passage],
                    found[passage],
                    (texts[item][1], texts[passage][1]),
                )
        self.sheet.autofilter(1, len(WIDTHS))

    def _row(self, miss: tuple, rank: int, passage_id: str, score: float, texts) -> None:
        system, question_id, _, item_id, role = miss
        role_en, role_ko = ROLE_WORDS[role]
        values = [
            self.report.systems[system]["name"],
            question_id,
            item_id,
            role_en,
            role_ko,
            passage_id,
            rank,
            score,
            min(k for k in self.report.ks if k >= rank),  # the first K it would be found at
            *map(excerpt, texts),
        ]
        styles = [None] * 7 + ["num", None, "wrap", "wrap"]
        self.sheet.append(values, styles, self.sheet.lines(values, (9, 10)))

    def setting(self) -> str:
        """What the Settings sheet says of the list."""
        return (
            f"listed (export --candidates): a passage of the system's top K whose similarity "
            f"to a missed item's passage is at least {rule.THRESHOLD:g} (desktop/gold/"
            "candidates.py) and that no judgement line names for the question"
        )

    def summary_lines(self) -> list[str]:
        """The Summary's line: how many misses per system a candidate could turn into hits."""
        counts = ", ".join(
            f"{s['name']} {n}" for s, n in zip(self.report.systems, self.found, strict=True)
        )
        return [
            f"Misses a candidate alternative in the system's top K could turn into hits, not "
            f"judged yet (similarity ≥ {rule.THRESHOLD:g}; sheet '{self.sheet.title}'): {counts} "
            "(판정 전 대체 후보가 있는 누락)."
        ]
