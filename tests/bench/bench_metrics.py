"""`recall-reviewer metrics --k 5,10 --json` on 3,000 questions x 3 systems x 100 results, as a
whole process, against a Python script that parses the same TREC files and scores them with
pytrec_eval (the reference, measured in the same run, its runs alternated with ours). Prints
one JSON object.

    python tests/bench/bench_metrics.py [--questions 3000] [--systems 3] [--depth 100]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import PY, alternated, ratios, resource_run, write_ranked  # noqa: E402

REFERENCE = """
import sys, pytrec_eval
qrels, runs = {}, []
for line in open(sys.argv[1]):
    q, _, d, r = line.split()
    qrels.setdefault(q, {})[d] = int(r)
ev = pytrec_eval.RelevanceEvaluator(qrels, {"recall.5,10", "success.5,10", "ndcg_cut.5,10",
                                             "recip_rank"})
for path in sys.argv[2:]:
    run = {}
    for line in open(path):
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
    res = ev.evaluate(run)
    n = len(qrels)
    means = {m: sum(v.get(m, 0.0) for v in res.values()) / n
             for m in ("recall_5", "recall_10", "ndcg_cut_10", "recip_rank")}
    print(path, means)
"""


def build(base: Path, questions: int, systems: int, depth: int) -> tuple[Path, Path, list[Path]]:
    rng = random.Random(3)
    n_passages = 200_000
    with open(base / "corpus.jsonl", "w", encoding="utf-8") as f:
        for i in range(n_passages):
            f.write(json.dumps({"id": f"p{i}", "text": f"문단 {i}"}) + "\n")
    with open(base / "questions.tsv", "w", encoding="utf-8") as f:
        for q in range(questions):
            f.write(f"q{q}\t질문 {q}\n")
    with open(base / "gold.qrels", "w") as f:
        for q in range(questions):
            for d in rng.sample(range(n_passages), rng.randint(1, 5)):
                f.write(f"q{q} 0 p{d} {rng.choice((1, 2))}\n")
    gold_lines = (base / "gold.qrels").read_text().splitlines()
    relevant: dict[str, list[str]] = {}
    for line in gold_lines:
        q, _, d, _ = line.split()
        relevant.setdefault(q, []).append(d)
    runs = []
    for s in range(systems):
        path = base / f"system{s}.trec"
        with open(path, "w") as f:
            for q in range(questions):
                docs = set(rng.sample(range(n_passages), depth))
                docs = [f"p{d}" for d in docs]
                # Put some gold in, at random depths, so that the scores are not all zero.
                for d in relevant[f"q{q}"]:
                    if rng.random() < 0.6:
                        docs[rng.randrange(depth)] = d
                write_ranked(f, f"q{q}", docs, f"sys{s}", lambda r: round(100 - r * 0.7, 1))
        runs.append(path)
    db = base / "bench.db"
    cli = [PY, "-m", "desktop", "--db", str(db)]
    resource_run([*cli, "init"])
    resource_run([*cli, "import", "corpus", str(base / "corpus.jsonl")])
    resource_run([*cli, "import", "questions", str(base / "questions.tsv")])
    resource_run([*cli, "import", "gold", str(base / "gold.qrels")])
    for i, path in enumerate(runs):
        resource_run([*cli, "import", "run", str(path), "--system", f"S{i}"])
    return db, base / "gold.qrels", runs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        # backups of every import go to this data folder, removed with the rest
        os.environ["RECALL_REVIEWER_HOME"] = str(Path(tmp) / "home")
        db, qrels, runs = build(base, args.questions, args.systems, args.depth)
        script = base / "reference.py"
        script.write_text(REFERENCE)
        timings = alternated(  # the shared machine's load falls on both alike
            {
                "ours": [PY, "-m", "desktop", "--db", str(db), "metrics", "--k", "5,10", "--json"],
                "reference": [PY, str(script), str(qrels), *map(str, runs)],
            },
            args.repeat,
        )
        ours, reference = timings["ours"], timings["reference"]
    print(
        json.dumps(
            {
                "bench": "metrics --k 5,10 --json, whole process, alternated with the reference",
                "questions": args.questions,
                "systems": args.systems,
                "depth": args.depth,
                "recall_reviewer": ours,
                "pytrec_eval_script": reference,
                "ratio_median": round(ours["median_s"] / reference["median_s"], 3),
                "ratios": ratios(ours, reference),  # wall, CPU and peak RSS
            }
        )
    )


if __name__ == "__main__":
    main()
