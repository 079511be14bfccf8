"""`metrics --k 5,10 --budget 1000,2000 --json` against the same without `--budget`, whole
processes, on a generated database with documents cut into two chunkings (200 characters, and
500 with 100 of overlap), gold judged on the first and a run of depth 100 on each. CPU seconds
of the child (user + system: the machine is shared), the two commands alternated. Prints one
JSON object.

    python tests/bench/bench_span_metrics.py [--documents 2000] [--questions 3000] [--repeat 3]
        [--document-chars 2000] [--systems 2] [--keep DIR]

The issue's scale (a million passages in each chunking, 50,000 documents, 5,000 questions x 10
systems x 100): --documents 50000 --document-chars 4000 --questions 5000 --systems 10, with the
second chunking 300 characters with 100 of overlap (--scale sets all of these). --keep builds
the database in DIR (or reuses it there) instead of a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import PY, ROOT, alternated, korean_text, write_ranked  # noqa: E402

DOCUMENT_CHARS = 2000
CHUNKINGS = {"c200": (200, 200), "c500o100": (500, 400)}  # name: (size, step)
# At the scale both chunkings hold a million passages (20 per 4,000-character document).
SCALE_CHUNKINGS = {"c200": (200, 200), "c300o100": (300, 200)}


def _write(path: Path, rows) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def _cut(texts: dict[str, str], size: int, step: int, name: str) -> list[dict]:
    out = []
    for doc, text in texts.items():
        for start in range(0, len(text), step):
            end = min(start + size, len(text))
            out.append(
                {
                    "id": f"{name}-{doc}-{start}",
                    "text": text[start:end],
                    "document_id": doc,
                    "start": start,
                    "end": end,
                }
            )
            if end == len(text):
                break
    return out


def build(
    base: Path,
    documents: int,
    questions: int,
    depth: int,
    chars: int = DOCUMENT_CHARS,
    systems: int = 2,
    chunkings: dict = CHUNKINGS,
) -> Path:
    """The database: documents, two chunkings, gold on the first, `systems` runs spread over
    the chunkings (each run's first five passages near the evidence, the rest drawn at random)."""
    rng = random.Random(5)
    texts = {f"d{i}": korean_text(rng, chars * 7 // 20)[:chars] for i in range(documents)}
    _write(base / "docs.jsonl", ({"id": d, "text": t} for d, t in texts.items()))
    cuts = {name: _cut(texts, *shape, name) for name, shape in chunkings.items()}
    for name, rows in cuts.items():
        _write(base / f"{name}.jsonl", rows)
    _write(base / "q.jsonl", ({"id": f"q{q}", "text": f"질문 {q}"} for q in range(questions)))
    small = cuts["c200"]
    gold = {f"q{q}": rng.sample(small, rng.randint(1, 3)) for q in range(questions)}
    _write(
        base / "gold.jsonl",
        (
            {"question_id": q, "evidence": [{"passage_id": p["id"]} for p in items]}
            for q, items in gold.items()
        ),
    )
    db = base / "db.sqlite"
    steps = [["init"], ["import", "documents", str(base / "docs.jsonl")]]
    steps += [["import", "corpus", str(base / f"{n}.jsonl"), "--chunking", n] for n in cuts]
    steps += [
        ["import", "questions", str(base / "q.jsonl")],
        ["import", "gold", str(base / "gold.jsonl")],
    ]
    names = list(cuts)
    for n in range(systems):
        name = names[n % len(names)]
        rows = cuts[name]
        by_doc: dict[str, list[str]] = {}
        for row in rows:
            by_doc.setdefault(row["document_id"], []).append(row["id"])
        system = name if systems == len(names) else f"{name}-{n}"
        with open(base / f"{system}.trec", "w", encoding="utf-8") as handle:
            for q, items in gold.items():
                near = [pid for item in items for pid in by_doc[item["document_id"]]]
                ranked = rng.sample(near, min(len(near), 5)) + [
                    rng.choice(rows)["id"] for _ in range(depth)
                ]
                write_ranked(handle, q, ranked[:depth], system, lambda r: f"{100 - r / 1000:.4f}")
        steps.append(["import", "run", str(base / f"{system}.trec"), "--system", system])
    for step in steps:
        subprocess.run(
            [PY, "-m", "desktop", "--db", str(db), *step], check=True, cwd=ROOT, capture_output=True
        )
    return db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--document-chars", type=int, default=DOCUMENT_CHARS)
    parser.add_argument("--systems", type=int, default=2, help="runs, spread over the chunkings")
    parser.add_argument("--scale", action="store_true", help="the issue's scale (see above)")
    parser.add_argument("--keep", type=Path, help="build (or reuse) the database in this folder")
    opts = parser.parse_args()
    chunkings = CHUNKINGS
    if opts.scale:
        opts.documents, opts.document_chars, opts.questions, opts.systems = 50000, 4000, 5000, 10
        chunkings = SCALE_CHUNKINGS
    with tempfile.TemporaryDirectory() as tmp:
        # Logs and backups go into the temporary folder, never the user's data folder.
        os.environ["RECALL_REVIEWER_HOME"] = str(Path(tmp) / "home")
        base = opts.keep or Path(tmp)
        db = base / "db.sqlite"
        if not (opts.keep and db.exists()):
            base.mkdir(parents=True, exist_ok=True)
            shape = (opts.document_chars, opts.systems, chunkings)
            db = build(base, opts.documents, opts.questions, opts.depth, *shape)
        plain = [PY, "-m", "desktop", "--db", str(db), "metrics", "--k", "5,10", "--json"]
        budget = [*plain, "--budget", "1000,2000"]
        timings = alternated({"without_budget": plain, "with_budget": budget}, opts.repeat)
        medians = {name: round(t["median_cpu_s"], 3) for name, t in timings.items()}
        print(
            json.dumps(
                {
                    "documents": opts.documents,
                    "document_chars": opts.document_chars,
                    "chunkings": {name: shape[0] for name, shape in chunkings.items()},
                    "systems": opts.systems,
                    "database_mb": round(os.path.getsize(db) / 2**20),
                    "questions": opts.questions,
                    "depth": opts.depth,
                    "cpu_s_median": medians,
                    "ratio": round(medians["with_budget"] / medians["without_budget"], 2),
                    "runs": opts.repeat,
                }
            )
        )


if __name__ == "__main__":
    main()
