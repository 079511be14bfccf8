"""`compare --k 5,10 --json` against `export REPORT.xlsx --k 5,10` on the same synthetic
database (3,000 questions x 10 systems x 100 by default), and that export against the export
of the code before the comparison existed (commit 1d3b193 by default, unpacked with git
archive into a temporary folder, importing the same files into a database of its own schema):
whole processes, measured in one run, their runs alternated (--repeat rounds; medians). Prints
one JSON object; asserts nothing about time.

    python tests/bench/bench_compare.py [--questions 3000] [--systems 10] [--depth 100]
        [--passages 100000] [--tie 3] [--baseline REV] [--keep DIR] [--repeat 1]

``--tie N`` writes TREC scores that tie in groups of N ranks (1..N, N+1..2N, ...), so that
tie groups straddle K = 5 and 10 in every list: the worst case for the tie ranges. ``--tie 1``
gives every rank its own score.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.bench_export import build  # noqa: E402
from tests.bench.common import PY, ROOT, alternated, resource_run  # noqa: E402

BASELINE = "1d3b193"  # the last export without the Comparison sheet


def baseline_tree(revision: str, into: Path) -> Path:
    """The source tree of `revision`, unpacked from git (nothing in the worktree changes)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True
    ).stdout
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--passages", type=int, default=100_000)
    parser.add_argument("--tie", type=int, default=3)
    parser.add_argument(
        "--baseline", default=BASELINE, help="git revision of the export before compare existed"
    )
    parser.add_argument("--keep", help="build (or reuse) the database in this folder")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, alternated")
    args = parser.parse_args()
    revision = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", args.baseline],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RECALL_REVIEWER_HOME"] = str(Path(tmp) / "home")  # never the user's folder
        name = f"q{args.questions}-s{args.systems}-d{args.depth}-t{args.tie}"
        base = Path(args.keep or tmp) / name
        base.mkdir(parents=True, exist_ok=True)
        old = baseline_tree(revision, Path(tmp) / "baseline")

        def database(folder: Path, tree: Path) -> Path:
            """The same files imported by `tree`'s own command line, built once."""
            folder.mkdir(parents=True, exist_ok=True)
            if (folder / "bench.db").exists():
                return folder / "bench.db"
            tie = args.tie
            score = lambda r: 200 - (r - 1) // tie  # noqa: E731
            return build(
                folder, args.questions, args.systems, args.depth, args.passages, score, tree
            )

        db = database(base, ROOT)
        old_db = database(base / f"baseline-{revision[:12]}", old)
        cli = [PY, "-m", "desktop", "--db", str(db)]
        compare = [*cli, "compare", "--k", "5,10", "--json"]
        export = ["export", str(Path(tmp) / "new.xlsx"), "--k", "5,10"]
        timings = alternated(  # the shared machine's load falls on each alike
            {
                "compare": compare,
                "export": [*cli, *export],
                "baseline": ([PY, "-m", "desktop", "--db", str(old_db), *export], old),
            },
            args.repeat,
        )
        data = json.loads(resource_run(compare)[2])  # what it found, untimed
    names = ("compare", "export", "baseline")
    compare_s, export_s, before_s = (timings[n]["median_s"] for n in names)
    compare_rss, export_rss, before_rss = (timings[n]["peak_rss_mb"] for n in names)
    tied = [t for t in data["ties"] if t["questions"]]
    print(
        json.dumps(
            {
                "bench": "compare --json vs export (this branch) vs export (baseline), whole "
                "processes",
                "questions": args.questions,
                "systems": args.systems,
                "depth": args.depth,
                "tie_group": args.tie,
                "baseline": revision[:12],
                "family": data["family"],
                "tie_rows_with_questions": len(tied),
                "tied_questions_max": max((t["questions"] for t in tied), default=0),
                "compare_s": round(compare_s, 2),
                "export_s": round(export_s, 2),
                "baseline_export_s": round(before_s, 2),
                "compare_over_export": round(compare_s / export_s, 2),
                "export_over_baseline": round(export_s / before_s, 2),
                "compare_peak_rss_mb": round(compare_rss, 1),
                "export_peak_rss_mb": round(export_rss, 1),
                "baseline_export_peak_rss_mb": round(before_rss, 1),
                "runs": args.repeat,
                "compare_over_export_cpu": round(
                    timings["compare"]["median_cpu_s"] / timings["export"]["median_cpu_s"], 2
                ),
                "export_over_baseline_cpu": round(
                    timings["export"]["median_cpu_s"] / timings["baseline"]["median_cpu_s"], 2
                ),
            }
        )
    )


if __name__ == "__main__":
    main()
