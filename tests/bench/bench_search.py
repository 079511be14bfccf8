"""Corpus search at 1,000,000 passages: `Project.search` in process for 100 random two-character
terms and 100 random three-character terms drawn from the corpus (half at random positions of
random passages, so as common as the text makes them; half uniformly from the distinct terms of
a sample, so rarer ones too), and `search --json` as a whole process against `info --json` on
the same database (the reference, measured in the same run, the runs alternated). Also the
database size with and without the bigram index. Prints one JSON object; asserts nothing about time.

    python tests/bench/bench_search.py [--passages 1000000] [--terms 100] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import PY, alternated, ratios, resource_run, write_corpus  # noqa: E402


def draw_terms(texts: list[str], length: int, n: int, rng: random.Random) -> list[str]:
    def pieces(text: str) -> list[str]:
        return [text[i : i + length] for i in range(len(text) - length + 1)]

    common = []
    while len(common) < n // 2:
        found = [p for p in pieces(rng.choice(texts)) if not any(c.isspace() for c in p)]
        common.append(rng.choice(found))
    distinct = sorted({p for t in texts for p in pieces(t) if not any(c.isspace() for c in p)})
    return common + rng.sample(distinct, min(n - len(common), len(distinct)))


def timed_searches(project, terms: list[str]) -> dict:
    project.search("워밍업")  # the first query opens the FTS tables; not counted
    times, totals = [], []
    for term in terms:
        start = time.perf_counter()
        page = project.search(term, 20, 0)
        times.append((time.perf_counter() - start) * 1000)
        totals.append(page.total)
    ordered = sorted(times)
    return {
        "terms": len(terms),
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 2),
        "max_ms": round(ordered[-1], 2),
        "matches_min": min(totals),
        "matches_median": int(statistics.median(totals)),
        "matches_max": max(totals),
    }


def sizes(db: Path) -> dict:
    conn = sqlite3.connect(db)
    try:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        used = page * (
            conn.execute("PRAGMA page_count").fetchone()[0]
            - conn.execute("PRAGMA freelist_count").fetchone()[0]
        )
        bigram = conn.execute(
            "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'passage_bigram%'"
        ).fetchone()[0]
    finally:
        conn.close()
    return {
        "db_mb": round(used / 2**20, 1),
        "without_bigram_mb": round((used - bigram) / 2**20, 1),
        "bigram_mb": round(bigram / 2**20, 1),
        "growth": round(bigram / (used - bigram), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=1_000_000)
    parser.add_argument("--terms", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    out: dict = {"bench": "corpus search", "passages": args.passages}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")  # backups stay in here
        corpus = write_corpus(base / "corpus.jsonl", args.passages)
        db = base / "bench.db"
        cli = [PY, "-m", "desktop", "--db", str(db)]
        resource_run([*cli, "init"])
        wall, peak, _ = resource_run([*cli, "import", "corpus", str(corpus)])
        out["import"] = {"s": round(wall, 1), "peak_rss_mb": round(peak, 1)}
        rng = random.Random(5)
        with open(corpus, encoding="utf-8") as f:
            sample = [json.loads(line)["text"] for _, line in zip(range(2000), f, strict=False)]
        corpus.unlink()
        out["size"] = sizes(db)
        from desktop.project import Project

        with Project(db) as project:
            two = draw_terms(sample, 2, args.terms, rng)
            three = draw_terms(sample, 3, args.terms, rng)
            out["two_characters"] = timed_searches(project, two)
            out["three_characters"] = timed_searches(project, three)
            # not a target, for the record: a prefix query over every pair starting so
            out["one_character"] = timed_searches(project, draw_terms(sample, 1, 20, rng))
            middle = sorted(two, key=lambda t: project.search(t, 1).total)[len(two) // 2]
        timings = alternated(  # the shared machine's load falls on both alike
            {"search": [*cli, "search", middle, "--json"], "info": [*cli, "info", "--json"]},
            args.repeat,
        )
        search, info = timings["search"], timings["info"]
        out["process"] = {
            "term": middle,
            "search_json": search,
            "info_json": info,
            "ratio_median": round(search["median_s"] / info["median_s"], 3),
            "ratios": ratios(search, info),  # wall, CPU and peak RSS
        }
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
