"""The report on a gold with items given as spans (design section 10): an item given as a span
is found by coverage on every run, the gold's own chunking included, so the Misses sheet lists
exactly the items `metrics` counts as not found, per system and question."""

from __future__ import annotations

import json

from openpyxl import load_workbook

from tests.evaluation.test_span_items import build_db
from tests.helpers import cli


def test_misses_are_the_items_metrics_does_not_find(tmp_path):
    db = build_db(tmp_path)
    done = cli(db, "metrics", "--k", "1,3", "--json", "--per-question")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    gold = {
        g["question_id"]: len(g["evidence"]) for g in map(json.loads, _gold_lines(db, tmp_path))
    }
    expected = {}
    for row in data["per_question"]:
        items = gold[row["question"]]
        for k in (1, 3):
            missed = round(items * (1 - row[f"Recall@{k}"]))
            expected[(row["system"], row["question"], k)] = missed
    assert any(expected.values()) and not all(expected.values())  # some found, some missed
    target = tmp_path / "r.xlsx"
    done = cli(db, "export", str(target), "--k", "1,3", "--lang", "en")
    assert done.returncode == 0, done.stderr
    rows = list(load_workbook(target, read_only=True)["Misses"].iter_rows(values_only=True))
    head = [str(c).split("\n")[0] for c in rows[0]]
    got = dict.fromkeys(expected, 0)
    for row in rows[1:]:
        for k in (1, 3):
            if row[head.index(f"missed@{k}")]:
                got[(row[0], row[1], k)] += 1
    assert got == expected


def _gold_lines(db, tmp_path) -> list[str]:
    out = tmp_path / "gold.out.jsonl"
    done = cli(db, "export", "gold", str(out))
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8").splitlines()
