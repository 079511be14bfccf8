"""`recall-reviewer pool --json` (depth 10) against `metrics --k 5,10 --json` on the same
database: 5,000 questions x 10 systems x 100 results over a million passages, both as whole
processes, their runs alternated (issue 23 item 8: the pool no slower than the metrics, with
peak memory no higher). Prints one JSON object: per command the median wall and CPU seconds
and the largest peak RSS, and the pool/metrics ratios. RECALL_REVIEWER_HOME points into the
temporary folder, which is removed at the end.

    python tests/bench/bench_pool.py [--questions 5000] [--systems 10] [--depth 100]
        [--db FILE | --keep FILE] [--before TREE [--before-db FILE]] [--repeat 5]

--keep FILE builds the database there and keeps it; --db FILE times an existing one instead of
building it (a copy of your own: the commands migrate an older schema in place). --before TREE
times that checkout's `pool` as well, in the same rounds (e.g. `git worktree add TREE main`);
--before-db FILE gives it a copy of its own when the checkout's schema is older than this one's
(a checkout never opens a database a newer program migrated).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import (  # noqa: E402
    PY,
    ROOT,
    alternated,
    ratios,
    resource_run,
    write_ranked,
)


def build(base: Path, questions: int, systems: int, depth: int, passages: int) -> Path:
    rng = random.Random(13)
    with open(base / "corpus.jsonl", "w", encoding="utf-8") as f:
        for i in range(passages):
            f.write(f'{{"id": "p{i}", "text": "문단 {i}"}}\n')
    with open(base / "questions.tsv", "w", encoding="utf-8") as f:
        for q in range(questions):
            f.write(f"q{q}\t질문 {q}\n")
    relevant: dict[int, list[int]] = {}
    with open(base / "gold.qrels", "w") as f:
        for q in range(questions):
            docs = rng.sample(range(passages), rng.randint(1, 6))
            relevant[q] = docs
            for i, d in enumerate(docs):
                # a level-0 line now and then: judged, not evidence
                f.write(f"q{q} 0 p{d} {0 if i == 5 else rng.choice((1, 2))}\n")
    db = base / "bench.db"
    cli = [PY, "-m", "desktop", "--db", str(db)]
    resource_run([*cli, "init"])
    resource_run([*cli, "import", "corpus", str(base / "corpus.jsonl")])
    resource_run([*cli, "import", "questions", str(base / "questions.tsv")])
    resource_run([*cli, "import", "gold", str(base / "gold.qrels")])
    # Systems share part of their top results, as real systems do, so the pool overlaps.
    shared = {q: rng.sample(range(passages), 20) for q in range(questions)}
    for s in range(systems):
        path = base / f"system{s}.trec"
        with open(path, "w") as f:
            for q in range(questions):
                docs = rng.sample(shared[q], 8) + rng.sample(range(passages), depth - 8)
                for d in relevant[q]:
                    if rng.random() < 0.5:
                        docs[rng.randrange(depth)] = d
                write_ranked(
                    f, f"q{q}", [f"p{d}" for d in docs], f"s{s}", lambda r: round(100 - r * 0.7, 1)
                )
        resource_run([*cli, "import", "run", str(path), "--system", f"S{s}"])
        path.unlink()
    return db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--passages", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", type=Path, help="time this database instead of building one")
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    parser.add_argument("--before", type=Path, help="a checkout whose pool is timed too")
    parser.add_argument("--before-db", type=Path, help="the database --before's pool reads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")
        db = args.db or build(base, args.questions, args.systems, args.depth, args.passages)
        if args.keep and not args.db:
            shutil.move(db, args.keep)
            db = args.keep
        cli = [PY, "-m", "desktop", "--db", str(db)]
        pool = [*cli, "pool", "--depth", "10", "--json"]
        commands = {
            "metrics": ([*cli, "metrics", "--k", "5,10", "--json"], ROOT),
            "pool": (pool, ROOT),
        }
        if args.before:
            old = [PY, "-m", "desktop", "--db", str(args.before_db or db)]
            commands["pool_before"] = ([*old, *pool[len(old) :]], args.before.resolve())
        timings = alternated(commands, args.repeat)
        unjudged = json.loads(resource_run([*cli, "pool", "--json"])[2])["unjudged"]
    result = {
        "bench": "pool --depth 10 --json vs metrics --k 5,10 --json, whole processes, alternated",
        "questions": args.questions,
        "systems": args.systems,
        "depth": args.depth,
        "passages": args.passages,
        "unjudged": unjudged,
        **timings,
        "pool_over_metrics": ratios(timings["pool"], timings["metrics"]),
    }
    if args.before:
        result["before_over_metrics"] = ratios(timings["pool_before"], timings["metrics"])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
