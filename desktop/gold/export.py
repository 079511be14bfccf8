"""The effective gold written out (issue 13 point 4) as the design's gold JSONL (with
``not_evidence``, so that J(q) survives the trip), TREC qrels or BEIR qrels.

qrels have one level per (question, passage) and cannot say "any one of these": each
alternative is written as a relevant passage of its own at its item's level, so a tool reading
qrels counts an item found through two of its passages twice. Recall agrees with ours only
where no item has alternatives; the JSONL keeps the items whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

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


def lines(fmt: str, rows: Iterator[tuple[str, list[gold.GoldItem], list[str]]]) -> Iterator[str]:
    """The file's lines, each ending in a newline."""
    if fmt == "beir":
        yield "query-id\tcorpus-id\tscore\n"
    for qid, items, not_evidence in rows:
        if fmt == "jsonl":
            evidence = []
            for item in items:
                entry: dict = {"passage_id": item.primary_id}
                if item.role:
                    entry["role"] = item.role
                if item.alternatives:
                    entry["alternatives"] = sorted(item.alternatives.values())
                evidence.append(entry)
            obj: dict = {"question_id": qid, "evidence": evidence}
            if not_evidence:
                obj["not_evidence"] = not_evidence
            yield json.dumps(obj, ensure_ascii=False) + "\n"
            continue
        for pid, level in levels(items, not_evidence):
            yield f"{qid} 0 {pid} {level}\n" if fmt == "qrels" else f"{qid}\t{pid}\t{level}\n"
