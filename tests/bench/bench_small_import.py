"""A one-question run import into a million-passage database, as a whole process (the command
line, from Python's start to its exit), against a bare sqlite3 script that writes the same rows
into the same database (the reference, measured in the same run, its runs alternated with the
import's). Prints one JSON object.

    python tests/bench/bench_small_import.py [--passages 1000000] [--repeat 5] [--full-copy]

Two imports are timed: a new system (nothing to back up) and the same system again (the old
run, 100 results, is kept as a partial backup). --full-copy also times the whole-file copy that
every import used to make first (SQLite's backup API), for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import (  # noqa: E402
    PY,
    alternated,
    measure,
    ratios,
    resource_run,
    write_corpus,
    write_questions,
)

BARE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
rows = [line.split() for line in open(sys.argv[2], encoding="utf-8")]
conn.execute("BEGIN IMMEDIATE")
system = conn.execute("SELECT pk FROM system WHERE name = 'bare'").fetchone()
if system is None:
    system = (conn.execute("INSERT INTO system (name, imported_at) VALUES ('bare', 'now')")
              .lastrowid,)
conn.execute("DELETE FROM result WHERE system_pk = ?", system)
question = conn.execute("SELECT pk FROM question WHERE id = ?", (rows[0][0],)).fetchone()[0]
conn.executemany(
    "INSERT INTO result (system_pk, question_pk, rank, passage_pk, score) "
    "SELECT ?, ?, ?, pk, ? FROM passage WHERE id = ?",
    [(system[0], question, int(r[3]), float(r[4]), r[2]) for r in rows],
)
conn.execute("COMMIT")
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full-copy", action="store_true")
    args = parser.parse_args()
    out: dict = {
        "bench": "one-question run import into a big database, whole process",
        "passages": args.passages,
        "results_in_file": 100,
    }
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")
        db = base / "big.db"
        rng = random.Random(11)
        corpus = write_corpus(base / "corpus.jsonl", args.passages)
        questions = write_questions(base / "q.jsonl", 1000, rng, lambda q: False)
        started = time.perf_counter()
        cli = [PY, "-m", "desktop", "--db", str(db)]
        resource_run([*cli, "init"])
        resource_run([*cli, "import", "corpus", str(corpus)])
        resource_run([*cli, "import", "questions", str(questions)])
        out["setup_s"] = round(time.perf_counter() - started, 1)
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
        corpus.unlink()
        run = base / "one.trec"
        with open(run, "w", encoding="utf-8") as handle:
            for rank, p in enumerate(rng.sample(range(args.passages), 100), 1):
                handle.write(f"q00000 Q0 p{p:07d} {rank} {100 - rank}.5 bm25\n")
        script = base / "bare.py"
        script.write_text(BARE)

        out["new_system"] = measure([*cli, "import", "run", str(run), "--system", "new"], 1)
        commands = {  # alternated: the shared machine's load falls on each alike
            "replace_system": [*cli, "import", "run", str(run), "--system", "new"],
            "bare_sqlite3": [PY, str(script), str(db), str(run)],
            "python_startup": [PY, "-c", "pass"],
        }
        out.update(alternated(commands, args.repeat))
        out["ratio_replace_to_bare"] = round(
            out["replace_system"]["median_s"] / out["bare_sqlite3"]["median_s"], 2
        )
        out["ratios_replace_to_bare"] = ratios(out["replace_system"], out["bare_sqlite3"])
        if args.full_copy:
            from db.files import backup_file

            started = time.perf_counter()
            backup_file(db, base / "copy.db")
            out["old_full_copy_s"] = round(time.perf_counter() - started, 2)
            (base / "copy.db").unlink()
        out["backups_folder_files"] = sum(1 for _ in (base / "home").rglob("*"))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
