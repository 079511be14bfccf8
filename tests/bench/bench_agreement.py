"""`recall-reviewer agreement --json` (pairwise κ, Krippendorff's α per kind with 1,000 bootstrap
resamples, α without each reviewer, one machine against the people) as a whole process on 5,000
questions x 4 evidence items, judged by four people and one machine (role per item and
answerability per question: 125,000 lines). Prints one JSON object. RECALL_REVIEWER_HOME points
into the temporary folder, which is removed at the end.

    python tests/bench/bench_agreement.py [--questions 5000] [--repeat 3]
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

from tests.bench.common import PY, measure, resource_run  # noqa: E402

PEOPLE = ("choi", "kim", "lee", "park")
ITEMS = 4


def _jsonl(path: Path, rows) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def _judgements(base: Path, name: str, questions: int, seed: int) -> Path:
    rng = random.Random(seed)

    def lines():
        for q in range(questions):
            at = f"2026-12-01T{10 + seed:02d}:{q // 3600 % 60:02d}:{q % 60:02d}+09:00"
            for i in range(ITEMS):
                value = "core" if i == 0 else "supporting"
                if rng.random() < 0.15:
                    value = rng.choice(["core", "supporting"])
                line = {"reviewer": name, "at": at, "question_id": f"q{q}", "kind": "role"}
                yield {**line, "passage_id": f"p{q * ITEMS + i}", "value": value}
            line = {"reviewer": name, "at": at, "question_id": f"q{q}", "kind": "answerable"}
            yield {**line, "value": rng.random() < 0.9}

    return _jsonl(base / f"{name}.jsonl", lines())


def build(base: Path, questions: int) -> Path:
    db = base / "agreement.db"
    passages = ({"id": f"p{i}", "text": f"문단 {i}"} for i in range(questions * ITEMS))
    _jsonl(base / "corpus.jsonl", passages)
    asked = ({"id": f"q{q}", "text": f"질문 {q}"} for q in range(questions))
    _jsonl(base / "questions.jsonl", asked)
    gold = (
        {
            "question_id": f"q{q}",
            "evidence": [
                {"passage_id": f"p{q * ITEMS + i}", "role": "core" if i == 0 else "supporting"}
                for i in range(ITEMS)
            ],
        }
        for q in range(questions)
    )
    _jsonl(base / "gold.jsonl", gold)
    cli = [PY, "-m", "desktop", "--db", str(db)]
    resource_run([*cli, "init"])
    for kind in ("corpus", "questions", "gold"):
        resource_run([*cli, "import", kind, str(base / f"{kind}.jsonl")])
    for seed, name in enumerate((*PEOPLE, "gpt")):
        flags = ["--machine"] if name == "gpt" else []
        path = _judgements(base, name, questions, seed)
        resource_run([*cli, "import", "judgements", str(path), *flags])
    return db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")
        db = build(base, args.questions)
        command = [PY, "-m", "desktop", "--db", str(db), "agreement", "--json"]
        _, _, out = resource_run(command)
        data = json.loads(out)
        result = {
            "questions": args.questions,
            "judgement_lines": args.questions * (ITEMS + 1) * (len(PEOPLE) + 1),
            "agreement": measure(command, args.repeat),
            "role_alpha": next(e for e in data["alpha"] if e["kind"] == "role"),
            "machine_role": next(m for m in data["machines"] if m["kind"] == "role")["kappa"],
        }
        print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
