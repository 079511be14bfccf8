"""The effective gold written out (issue 13 point 4) as the design's gold JSONL (with
``not_evidence``, so that J(q) survives the trip), TREC qrels or BEIR qrels.

qrels have one level per (question, passage) and cannot say "any one of these": each
alternative is written as a relevant passage of its own at its item's level, so a tool reading
qrels counts an item found through two of its passages twice. Recall agrees with ours only
where no item has alternatives; the JSONL keeps the items whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from desktop.evaluation import spans
from desktop.gold import effective as gold

FORMATS = ("jsonl", "qrels", "beir")
LEVEL = {"core": 2, "supporting": 1, None: 1}
QRELS_CAVEAT = (
    "qrels cannot say 'any one of these': each alternative is written as a relevant passage "
    "of its own at its item's level, so trec_eval and other qrels tools count an item found "
    "through two of its passages twice; their Recall matches ours only where no item has "
    "alternatives (the jsonl format keeps items whole)"
)


def questions(
    effective: gold.EffectiveGold,
    question_rows: list[dict],
    with_gold: set[int],
    id_of: dict[int, str],
) -> Iterator[tuple[str, list[gold.GoldItem], list[str]]]:
    """(question id, effective items, passage ids judged not evidence) for every question
    that has imported gold, effective items or passages judged not evidence; id_of names the
    passages judged not evidence."""
    for question in question_rows:
        pk = question["pk"]
        items = effective.items.get(pk, [])
        judged_out = effective.judged_out.get(pk, set())
        if not (items or judged_out or pk in with_gold):
            continue
        in_items = {p for item in items for p in (item.primary_pk, *item.alternatives)}
        yield question["id"], items, sorted(id_of[p] for p in judged_out - in_items)


def levels(items: list[gold.GoldItem], not_evidence: list[str]) -> list[tuple[str, int]]:
    """(passage id, qrels level) with one level per passage: the highest its items give."""
    out: dict[str, int] = {pid: 0 for pid in not_evidence}
    for item in items:
        level = LEVEL[item.role]
        for pid in (item.primary_id, *item.alternatives.values()):
            out[pid] = max(out.get(pid, 0), level)
    return list(out.items())


def lines(
    fmt: str,
    rows: Iterator[tuple[str, list[gold.GoldItem], list[str]]],
    projection: Projection | None = None,
) -> Iterator[str]:
    """The file's lines, each ending in a newline. A projected gold says so where the format
    has room (Projection.mark)."""
    if fmt == "beir":
        tail = f"\t{projection.words()}" if projection else ""
        yield f"query-id\tcorpus-id\tscore{tail}\n"
    iteration = projection.token() if projection else "0"
    for qid, items, not_evidence in rows:
        if fmt == "jsonl":
            evidence = []
            for item in items:
                evidence.append(_entry(item))
            obj: dict = {"question_id": qid, "evidence": evidence}
            if projection:
                obj["projected"] = {"chunking": projection.chunking, "coverage": projection.theta}
            if not_evidence:
                obj["not_evidence"] = not_evidence
            yield json.dumps(obj, ensure_ascii=False) + "\n"
            continue
        for pid, level in levels(items, not_evidence):
            if fmt == "qrels":
                yield f"{qid} {iteration} {pid} {level}\n"
            else:
                yield f"{qid}\t{pid}\t{level}\n"


def _entry(item) -> dict:
    """One evidence item of a gold JSONL line: its passage or its span (design section 10),
    its role and its alternatives, passage ids then spans."""
    span = getattr(item, "span", None)
    entry: dict = {"span": span_object(span)} if span else {"passage_id": item.primary_id}
    if item.role:
        entry["role"] = item.role
    alternatives: list = sorted(item.alternatives.values())
    alternatives += [span_object(s) for s in getattr(item, "alternative_spans", ())]
    if alternatives:
        entry["alternatives"] = alternatives
    return entry


def span_object(span: spans.Span) -> dict:
    return {"document_id": span.document, "start": span.start, "end": span.end}


def spans_unsaid(rows: list) -> str | None:
    """Why qrels cannot hold these rows (an item given as a span, or an alternative given as
    one: qrels name passages only), or None when they can."""
    for qid, items, _ in rows:
        for item in items:
            if getattr(item, "span", None) or getattr(item, "alternative_spans", None):
                return (
                    f"question {qid!r} has evidence given as a span, which qrels cannot hold "
                    "(they name passages only): add --chunking NAME to write the gold projected "
                    "onto that chunking's passages, or use --format jsonl"
                )
    return None


@dataclass(frozen=True)
class Projection:
    """The gold carried onto another chunking (design section 10): where a file says so. JSONL
    lines carry a "projected" field; TREC qrels its iteration column (the second, which
    trec_eval and our reader ignore); BEIR qrels a fourth column of its header row (which BEIR
    loaders skip)."""

    chunking: str
    theta: float

    def words(self) -> str:
        return f"projected onto chunking {self.chunking} at coverage {self.theta:g}"

    def token(self) -> str:
        return "projected:" + "_".join(f"{self.chunking}@{self.theta:g}".split())


@dataclass(frozen=True)
class ProjectedItem:
    """An evidence item as passages of another chunking: any one of them finds it, as
    GoldItem's primary and alternatives do (the names lines() and levels() read)."""

    primary_id: str
    role: str | None
    alternatives: dict[int, str] = field(default_factory=dict)


def projected(
    rows: Iterator[tuple[str, list[gold.GoldItem], list[str]]],
    spans_of: Callable[[gold.GoldItem], list[spans.Span]],
    passages: Mapping[str, Sequence[tuple[str, int, int]]],
    theta: float,
    dropped: list,
) -> Iterator[tuple[str, list[ProjectedItem], list[str]]]:
    """The rows with each item's passages those of the other chunking that spans.project_gold
    finds (passages: document id -> (passage id, start, end)). An item none reaches, or with no
    span, is left out and listed in dropped as (question id, primary passage id). Passages
    judged not evidence name the gold's chunking and are left out."""
    for qid, items, _ in rows:
        out = []
        for item in items:
            these = spans_of(item)
            candidates = (
                (pid, spans.Span(document, start, end))
                for document in sorted({span.document for span in these})
                for pid, start, end in passages.get(document, ())
            )
            ids = spans.project_gold(these, candidates, theta) if these else []
            if ids:
                out.append(ProjectedItem(ids[0], item.role, dict(enumerate(ids[1:]))))
            else:
                dropped.append((qid, item.primary_id))
        yield qid, out, []


def dropped_note(dropped: list[tuple[str, str]]) -> str | None:
    """One line naming the evidence items a projection left out (the first five), or None."""
    if not dropped:
        return None
    shown = ", ".join(f"{q}/{p}" for q, p in dropped[:5]) + (", ..." if len(dropped) > 5 else "")
    return (
        f"{len(dropped)} evidence items reach no passage of that chunking (or have no span) "
        f"and are left out (question/passage: {shown})"
    )
