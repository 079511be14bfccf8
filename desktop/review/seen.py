"""Which judgement lines a reviewer sees, and the effective gold built from them: over every
question, or for one question from its own rows alone (the keypress path)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from desktop.gold import effective as gold
from desktop.gold.effective import EffectiveGold


def visible(rows: Iterable[dict], reviewer: str, blind: bool) -> list[dict]:
    """Blind mode hides every other reviewer's lines, adjudications included, so that a
    second opinion is formed independently."""
    if blind:
        return [r for r in rows if r["reviewer"] == reviewer]
    return list(rows)


def reviewer_marks(reviewers: Iterable[str]) -> list[dict]:
    # gold.build learns who is in the database from the lines it is given; one empty note per
    # reviewer tells it without reading every question's log when only one question is built.
    return [
        {
            "pk": 0,
            "reviewer": name,
            "at": "1970-01-01T00:00:00+00:00",
            "question_id": "",
            "kind": "note",
            "passage_id": "",
            "value": "null",
            "settles": None,
            "system": None,
        }
        for name in reviewers
    ]


def build_gold(project, reviewer: str, blind: bool) -> EffectiveGold:
    """The effective gold over every question as this reviewer sees it (all reviewers' lines,
    or in blind mode the reviewer's own lines as if no one else had judged)."""
    if not blind:
        return project.effective_gold()
    return project.gold_from(visible(project.reads.judgements(), reviewer, blind))


def question_gold(
    project,
    question: dict,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    marks: list[dict] | None = None,
) -> tuple[EffectiveGold, list[dict], list[dict]]:
    """The effective gold of one question, exactly as build_gold would give it, from that
    question's rows alone: (gold, its imported evidence, the visible judgement lines, with the
    reviewer-mark lines that decide who is a machine on every question: marks, when the
    caller read them already, else project.reads.mark_lines())."""
    evidence = project.reads.question_evidence(question["pk"])
    lines = project.reads.judgements(question_id=question["id"])
    lines += project.reads.mark_lines() if marks is None else marks
    rows = visible(sorted(lines, key=gold.line_order), reviewer, blind)  # the log's order
    passage_ids = {e["passage_pk"]: e["passage_id"] for e in evidence}
    for e in evidence:
        passage_ids.update(dict(e["alternatives"]))
    span_alternatives = project.reads.span_alternative_rows(question["pk"])
    passage_ids.update(project.reads.passage_ids_of(r[2] for r in span_alternatives if r[2]))
    named = gold.named_passages(rows) - set(passage_ids.values())
    passage_pks = project.reads.passage_pks(named) if named else {}
    passage_ids.update({pk: pid for pid, pk in passage_pks.items()})
    passage_pks.update({pid: pk for pk, pid in passage_ids.items()})
    everyone = [reviewer] if blind else list(reviewers)
    built = gold.build(
        [question],
        [(question["pk"], e["item_pk"], e["passage_pk"], e["role"]) for e in evidence],
        [(e["item_pk"], pk) for e in evidence for pk, _ in e["alternatives"]],
        passage_ids,
        passage_pks,
        rows + reviewer_marks(everyone),
        project.reads.question_not_evidence(question["pk"]),
        project.reads.span_item_rows(question["pk"]),
        span_alternatives,
    )
    return built, evidence, rows


def reviewers(project) -> list[str]:
    """Everyone with a line in the log: with more than one, lone changes wait (design 6)."""
    return project.reviewers()
