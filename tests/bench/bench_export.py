"""The Excel report (`write_report`) on a synthetic project of 5,000 questions x 10 systems x
100 results, against bare openpyxl in write-only mode writing the same number of rows and
columns of the two big sheets (Per question and Misses) with values of the same kinds and
sizes (the reference, measured in the same run): plain values ("ratio"), and the same values
in cells styled as the report's are ("ratio_styled"). openpyxl writes through lxml when it
is installed; OPENPYXL_LXML=False (read by each child) measures it without. Prints one JSON
object; asserts nothing about time.

    python tests/bench/bench_export.py [--questions 5000] [--systems 10] [--depth 100]
        [--passages 200000] [--sizes 1000,5000] [--keep DIR] [--rounds 3] [--also TREE]
        [--no-trace]

Every size in --sizes builds its own database (the largest first decides nothing: each is
measured alike), so that the peak memory can be compared between sizes. Each measurement is
its own child process: wall time of write_report alone and the child's peak RSS, then the bare
openpyxl script plain and styled, in turn for --rounds rounds (the fastest of each counts), then
write_report again under tracemalloc for the peak of Python allocations.
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

from tests.bench.common import (  # noqa: E402
    PY,
    ROOT,
    korean_text,
    resource_run,
    write_corpus,
    write_questions,
    write_ranked,
)

OURS = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[4])
trace = sys.argv[3] == "trace"
from desktop.project import Project
from desktop.report import write_report
from openpyxl import load_workbook
project = Project(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
if trace:
    import tracemalloc
    tracemalloc.start()
start, cpu = time.perf_counter(), time.process_time()
write_report(project, sys.argv[2], [5, 10], lang="en")  # the sheet names read below
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
peak_traced = tracemalloc.get_traced_memory()[1] / 2**20 if trace else None
if trace:
    tracemalloc.stop()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
wb = load_workbook(sys.argv[2], read_only=True)
head = next(wb["Summary"].iter_rows(min_row=1, max_row=1, values_only=True))
col = head.index("misses@5")
misses = 0
for row in wb["Summary"].iter_rows(min_row=2, values_only=True):
    if not row or row[0] is None:
        break
    misses += row[col]
per_q_cols = len(next(wb["Per question"].iter_rows(min_row=1, max_row=1, values_only=True)))
miss_cols = len(next(wb.worksheets[2].iter_rows(min_row=1, max_row=1, values_only=True)))
print(json.dumps({"s": wall, "cpu_s": cpu, "rss_before_mb": before, "peak_rss_mb": peak,
                  "peak_traced_mb": peak_traced, "misses": misses, "per_q_cols": per_q_cols,
                  "miss_cols": miss_cols}))
"""

# The same cells as the two big sheets, as plain values: per question 8 descriptive columns
# and then the metrics; misses the 13 columns with an excerpt of passage text. With "styled",
# the cells also carry the report's styles as openpyxl's public API writes them (one
# WriteOnlyCell per column and style, reused row after row, sharing one font, number format
# and alignment): the same cells as the report, not only the same values.
BARE = """
import json, random, resource, sys, time
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font
out, rows_q, cols_q, rows_m, cols_m, texts = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6]
styled = sys.argv[7] == "styled"
texts = json.load(open(texts, encoding="utf-8"))
rng = random.Random(1)
font = Font(name="Malgun Gothic", sz=10, family=2, charset=129)
wrap = Alignment(wrap_text=True, vertical="top")
start, cpu = time.perf_counter(), time.process_time()
wb = Workbook(write_only=True)

def styler(ws, formats):
    if not styled:
        return lambda values: values
    pool = {}
    for column, kind in enumerate(formats):
        cell = pool[column] = WriteOnlyCell(ws)
        cell.font = font
        if kind == "wrap":
            cell.alignment = wrap
        elif kind:
            cell.number_format = kind
    def cells(values):
        row = []
        for column, value in enumerate(values):
            if value is None:
                row.append(None)
                continue
            cell = pool[column]
            cell.value = value
            row.append(cell)
        return row
    return cells

ws = wb.create_sheet("Per question")
ws.append([f"head{i}" for i in range(cols_q)])
cells = styler(ws, [None] * 8 + ["0.000"] * (cols_q - 9) + [None])
for i in range(rows_q):
    ws.append(cells([f"S{i % 10}", f"q{i:05d}", texts[i % len(texts)][:40], True, 3, 1,
                     "untouched", True] + [rng.random() for _ in range(cols_q - 8)]))
ws = wb.create_sheet("Misses")
ws.append([f"head{i}" for i in range(cols_m)])
cells = styler(ws, [None] * (cols_m - 2) + ["wrap", "wrap"])
for i in range(rows_m):
    ws.append(cells([f"S{i % 10}", f"q{i:05d}", 5, f"p{i:07d}", "core", "핵심",
                     "imported gold 가져온 정답", 17, f"p{i:07d}", "", f"권{i % 615}",
                     texts[i % len(texts)][:500], None][:cols_m]))
wb.save(out)
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"s": wall, "cpu_s": cpu,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def build(
    base: Path,
    questions: int,
    systems: int,
    depth: int,
    passages: int,
    score=lambda r: 200 - r,
    tree: Path = ROOT,
) -> Path:
    """Files in the design's formats, imported with the command line as a user would;
    ``score(rank)`` is the TREC score written at each rank; ``tree`` is the source tree
    whose command line imports them (another revision's writes its own schema)."""
    rng = random.Random(11)
    corpus = write_corpus(base / "corpus.jsonl", passages, words=40, rng=rng)
    write_questions(base / "questions.jsonl", questions, rng, lambda q: q % 40 == 0)
    gold: dict[str, list[dict]] = {}
    with open(base / "gold.jsonl", "w", encoding="utf-8") as f:
        for q in range(questions):
            qid = f"q{q:05d}"
            evidence = []
            if q % 40 != 0:  # one question in forty should be abstained on: no evidence
                for pid in rng.sample(range(passages), rng.randint(1, 5)):
                    item = {"passage_id": f"p{pid:07d}"}
                    role = rng.choice(("core", "core", "supporting", None))
                    if role:
                        item["role"] = role
                    if rng.random() < 0.15:
                        item["alternatives"] = [
                            f"p{a:07d}" for a in rng.sample(range(passages), rng.randint(1, 2))
                        ]
                    evidence.append(item)
            gold[qid] = evidence
            f.write(json.dumps({"question_id": qid, "evidence": evidence}) + "\n")
    db = base / "bench.db"
    cli = [PY, "-m", "desktop", "--db", str(db)]
    resource_run([*cli, "init"], cwd=tree)  # every command but init and demo needs the file
    resource_run(
        [*cli, "import", "corpus", str(corpus), "--chunk-size", "400", "--unit", "문단"], cwd=tree
    )
    resource_run([*cli, "import", "questions", str(base / "questions.jsonl")], cwd=tree)
    resource_run([*cli, "import", "gold", str(base / "gold.jsonl")], cwd=tree)
    for s in range(systems):
        quality = 0.7 + 0.025 * s  # systems differ, so that some comparisons are significant
        path = base / f"system{s}.trec"
        with open(path, "w") as f:
            for q in range(questions):
                if rng.random() < 0.01:
                    continue  # a few questions missing from each run
                qid = f"q{q:05d}"
                ranked = [f"p{d:07d}" for d in rng.sample(range(passages), depth)]
                for item in gold[qid]:
                    if rng.random() < quality:
                        found = item["passage_id"]
                        if item.get("alternatives") and rng.random() < 0.5:
                            found = item["alternatives"][0]
                        ranked[min(depth - 1, int(rng.expovariate(1 / 5)))] = found
                write_ranked(f, qid, ranked, f"sys{s}", score)
        resource_run([*cli, "import", "run", str(path), "--system", f"system-{s}"], cwd=tree)
        path.unlink()
    with open(base / "judgements.jsonl", "w", encoding="utf-8") as f:
        for reviewer in ("kim", "lee"):
            for q in rng.sample(range(questions), questions // 5):
                qid = f"q{q:05d}"
                for item in gold[qid]:
                    role = rng.choice(("core", "supporting"))
                    f.write(
                        json.dumps(
                            {
                                "reviewer": reviewer,
                                "at": f"2026-12-01T{10 + q % 10}:00:00+09:00",
                                "question_id": qid,
                                "kind": "role",
                                "passage_id": item["passage_id"],
                                "value": role,
                            },
                            ensure_ascii=False,
                        )
                        + "\n"
                    )
                if rng.random() < 0.3:
                    note = {
                        "reviewer": reviewer,
                        "at": "2026-12-01T12:00:00+09:00",
                        "question_id": qid,
                        "kind": "note",
                        "value": korean_text(rng, 12),
                    }
                    f.write(json.dumps(note, ensure_ascii=False) + "\n")
    resource_run([*cli, "import", "judgements", str(base / "judgements.jsonl")], cwd=tree)
    texts = [korean_text(rng, 40) for _ in range(200)]
    (base / "texts.json").write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    return db


def measure(
    base: Path,
    db: Path,
    systems: int,
    questions: int,
    rounds: int = 3,
    also: Path | None = None,
    trace: bool = True,
) -> dict:
    """``rounds`` rounds, each the report and then bare openpyxl plain and styled, one after
    the other, so that a load that comes and goes on the machine falls on both alike; each
    time is the fastest of its rounds. ``also``: another source tree (say, a checkout of the
    previous commit) whose report is timed in the same rounds, first in each. Then the
    report once more under tracemalloc (unless not ``trace``)."""
    ours_script = base / "ours.py"
    ours_script.write_text(OURS)
    report = base / "report.xlsx"
    bare_script = base / "bare.py"
    bare_script.write_text(BARE)
    runs: dict[str, list[dict]] = {"ours": [], "plain": [], "styled": [], "also": []}
    for _ in range(rounds):
        if also is not None:
            args = [PY, str(ours_script), str(db), str(report), "plain", str(also)]
            runs["also"].append(json.loads(resource_run(args)[2]))
        args = [PY, str(ours_script), str(db), str(report), "plain", str(ROOT)]
        wall, _, out = resource_run(args)
        runs["ours"].append({**json.loads(out), "wall": wall})
        ours = runs["ours"][-1]
        rows_q = systems * questions
        for variant in ("plain", "styled"):
            args = [PY, str(bare_script), str(base / "bare.xlsx"), str(rows_q)]
            args += [str(ours["per_q_cols"]), str(ours["misses"]), str(ours["miss_cols"])]
            args += [str(base / "texts.json"), variant]
            runs[variant].append(json.loads(resource_run(args)[2]))
    size = report.stat().st_size
    traced = {"peak_traced_mb": None, "s": None}
    if trace:
        args = [PY, str(ours_script), str(db), str(report), "trace", str(ROOT)]
        traced = json.loads(resource_run(args)[2])
    ours, bare, bare_styled = (
        min(runs[name], key=lambda r: r["s"]) for name in runs if runs[name] and name != "also"
    )
    extra = {}
    if also is not None:
        before = min(runs["also"], key=lambda r: r["s"])
        extra = {
            "also_tree": str(also),
            "also_s": round(before["s"], 2),
            "also_each_s": [round(r["s"], 2) for r in runs["also"]],
            "also_ratio_styled": round(before["s"] / bare_styled["s"], 2),
            "also_ratio": round(before["s"] / bare["s"], 2),
            "also_cpu_s": round(min(r["cpu_s"] for r in runs["also"]), 2),
            "also_ratio_styled_cpu": round(
                min(r["cpu_s"] for r in runs["also"]) / min(r["cpu_s"] for r in runs["styled"]), 2
            ),
            "also_peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs["also"]), 1),
        }
    return extra | {
        "questions": questions,
        "systems": systems,
        "rounds": rounds,
        "per_question_rows": systems * questions,
        "misses_rows": ours["misses"],
        "write_report_s": round(ours["s"], 2),
        "write_report_each_s": [round(r["s"], 2) for r in runs["ours"]],
        "bare_openpyxl_s": round(bare["s"], 2),
        "ratio": round(ours["s"] / bare["s"], 2),
        "bare_styled_s": round(bare_styled["s"], 2),
        "bare_styled_each_s": [round(r["s"], 2) for r in runs["styled"]],
        "ratio_styled": round(ours["s"] / bare_styled["s"], 2),
        # CPU seconds of the process: what a machine shared with other work disturbs least
        "write_report_cpu_s": round(min(r["cpu_s"] for r in runs["ours"]), 2),
        "bare_styled_cpu_s": round(min(r["cpu_s"] for r in runs["styled"]), 2),
        "ratio_styled_cpu": round(
            min(r["cpu_s"] for r in runs["ours"]) / min(r["cpu_s"] for r in runs["styled"]), 2
        ),
        "child_wall_s": round(ours["wall"], 2),
        "rss_before_mb": round(ours["rss_before_mb"], 1),
        "peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs["ours"]), 1),
        "peak_traced_mb": trace and round(traced["peak_traced_mb"], 1) or None,
        "traced_run_s": trace and round(traced["s"], 2) or None,
        "bare_peak_rss_mb": round(bare["peak_rss_mb"], 1),
        "report_mb": round(size / 2**20, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--passages", type=int, default=200_000)
    parser.add_argument(
        "--sizes", default=None, help="question counts, comma-separated (default: 1000,QUESTIONS)"
    )
    parser.add_argument("--keep", help="build (or reuse) the databases in this folder")
    parser.add_argument("--rounds", type=int, default=3, help="report and reference, in turn")
    parser.add_argument("--also", type=Path, help="another source tree timed in the same rounds")
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc run")
    args = parser.parse_args()
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else sorted({min(1000, args.questions), args.questions})
    )
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        # backups of every import go to this data folder, removed with the rest
        os.environ["RECALL_REVIEWER_HOME"] = str(Path(tmp) / "home")
        for questions in sizes:
            base = Path(args.keep or tmp) / f"q{questions}-s{args.systems}-d{args.depth}"
            base.mkdir(parents=True, exist_ok=True)
            db = base / "bench.db"
            if not db.exists() or not (base / "texts.json").exists():
                db.unlink(missing_ok=True)
                db = build(base, questions, args.systems, args.depth, args.passages)
            results.append(
                measure(
                    base, db, args.systems, questions, args.rounds, args.also, not args.no_trace
                )
            )
    largest = results[-1]
    print(
        json.dumps(
            {
                "bench": "write_report (whole workbook) vs bare openpyxl write-only, same cells",
                "depth": args.depth,
                "passages": args.passages,
                "write_report_s": largest["write_report_s"],
                "bare_openpyxl_s": largest["bare_openpyxl_s"],
                "ratio": largest["ratio"],
                "ratio_styled": largest["ratio_styled"],
                "ratio_styled_cpu": largest["ratio_styled_cpu"],
                "peak_rss_mb": largest["peak_rss_mb"],
                "peak_traced_mb": largest["peak_traced_mb"],
                "sizes": results,
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
