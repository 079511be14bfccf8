"""Importing Korean passages (JSONL) as a whole process, against a bare sqlite3 script that
parses the same file and inserts the same rows into a table plus an FTS5 trigram index with
executemany (the reference, measured in the same run), and the same script building also
the bigram index of one- and two-character terms (db/search.py) as a second reference
(`ratio_median_with_bigram`): that index is what finds two-syllable Korean words, which a
user needs. Prints one JSON object.

    python tests/bench/bench_import.py [--passages 200000] [--files 20] [--million]

--files N also imports the same passages split into N files (`import corpus F1 ... FN`, one
corpus with each passage's source file) against the bare script reading the same N files.
--million also imports 1,000,000 passages once and reports its peak memory.
RECALL_REVIEWER_HOME points into the temporary folder, which is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import PY, resource_run, write_corpus  # noqa: E402

BARE = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA journal_mode = wal")
conn.execute("CREATE TABLE passage (pk INTEGER PRIMARY KEY, id TEXT UNIQUE, text TEXT, "
             "title TEXT, meta TEXT)")
conn.execute("CREATE VIRTUAL TABLE passage_fts USING fts5(text, content='passage', "
             "content_rowid='pk', tokenize='trigram')")
batch = []
def flush():
    conn.executemany("INSERT INTO passage (id, text, title, meta) VALUES (?, ?, ?, ?)", batch)
    batch.clear()
for name in sys.argv[3:]:
    with open(name, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            pid, text, title = row.pop("id"), row.pop("text"), row.pop("title", None)
            batch.append((pid, text, title, json.dumps(row, ensure_ascii=False) if row else None))
            if len(batch) >= 20000:
                flush()
flush()
conn.execute("INSERT INTO passage_fts (rowid, text) SELECT pk, text FROM passage")
if sys.argv[2] == "bigram":  # also the bigram index of short terms, as db/search.py makes it
    sys.path.insert(0, ".")
    from db.search import BIGRAM_TABLE, bigram_text
    conn.execute(BIGRAM_TABLE)
    rows = conn.execute("SELECT pk, text FROM passage").fetchall()
    conn.executemany("INSERT INTO passage_bigram (rowid, text) VALUES (?, ?)",
                     ((pk, bigram_text(t)) for pk, t in rows))
conn.commit()
"""


def _files(corpus: Path | list[Path]) -> list[str]:
    return [str(f) for f in (corpus if isinstance(corpus, list) else [corpus])]


def once(corpus: Path | list[Path], base: Path, tag: str) -> dict:
    db = base / f"ours-{tag}.db"
    resource_run([PY, "-m", "desktop", "--db", str(db), "init"])  # the import alone is timed
    wall, peak, _ = resource_run(
        [PY, "-m", "desktop", "--db", str(db), "import", "corpus", *_files(corpus)]
    )
    size = db.stat().st_size
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    return {"s": round(wall, 3), "peak_rss_mb": round(peak, 1), "db_mb": round(size / 2**20, 1)}


def bare(corpus: Path | list[Path], base: Path, tag: str, index: str = "plain") -> dict:
    script = base / "bare.py"
    script.write_text(BARE)
    db = base / f"bare-{tag}.db"
    wall, peak, _ = resource_run([PY, str(script), str(db), index, *_files(corpus)])
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    return {"s": round(wall, 3), "peak_rss_mb": round(peak, 1)}


def split(corpus: Path, folder: Path, n: int, passages: int) -> list[Path]:
    """The corpus's lines dealt into n volume files in order, as a corpus of many volumes.
    Streamed: this process's memory is what the children's peak RSS starts from (fork)."""
    folder.mkdir()
    per = -(-passages // n)
    files = [folder / f"vol{i + 1:03d}.jsonl" for i in range(n)]
    with open(corpus, encoding="utf-8") as source:
        for path in files:
            with open(path, "w", encoding="utf-8") as out:
                for _, line in zip(range(per), source, strict=False):
                    out.write(line)
    return files


def compare(corpus: Path | list[Path], base: Path, repeat: int, tag: str) -> dict:
    ours_runs, bare_runs, bigram_runs = [], [], []
    for i in range(repeat):  # interleaved, so all see the same machine state
        ours_runs.append(once(corpus, base, f"{tag}{i}"))
        bare_runs.append(bare(corpus, base, f"{tag}{i}"))
        bigram_runs.append(bare(corpus, base, f"{tag}{i}", "bigram"))

    def median(runs: list[dict]) -> float:
        return sorted(r["s"] for r in runs)[len(runs) // 2]

    ours_s, bare_s, bigram_s = median(ours_runs), median(bare_runs), median(bigram_runs)
    return {
        "recall_reviewer": {"median_s": ours_s, "runs": ours_runs},
        "bare_sqlite3": {"median_s": bare_s, "runs": bare_runs},
        "bare_sqlite3_with_bigram": {"median_s": bigram_s, "runs": bigram_runs},
        "ratio_median": round(ours_s / bare_s, 3),
        "ratio_median_with_bigram": round(ours_s / bigram_s, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--files", type=int, default=0, help="also import it split in N files")
    parser.add_argument("--million", action="store_true")
    args = parser.parse_args()
    out: dict = {"bench": "import corpus JSONL (Korean), whole process", "passages": args.passages}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        # No backup or log of ours may land in the user's data folder.
        os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")
        corpus = write_corpus(base / "corpus.jsonl", args.passages)
        out["file_mb"] = round(corpus.stat().st_size / 2**20, 1)
        out.update(compare(corpus, base, args.repeat, "one"))
        if args.files:
            files = split(corpus, base / "volumes", args.files, args.passages)
            out["split"] = {"files": args.files, **compare(files, base, args.repeat, "split")}
        if args.million:
            corpus.unlink()
            big = write_corpus(base / "million.jsonl", 1_000_000)
            out["million"] = {
                "file_mb": round(big.stat().st_size / 2**20, 1),
                **once(big, base, "million"),
            }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
