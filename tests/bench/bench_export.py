"""The Excel report on a synthetic project of 5,000 questions x 10 systems x 100 results,
timed whole as a user runs it (`recall-reviewer export`, a process from the database to the
file: its CPU and wall time and peak RSS), against bare openpyxl in write-only mode writing
exactly the report's cells (the reference, measured in the same run): the cells are read back
from the report just written (untimed) and written again through openpyxl's public write-only
API, every sheet in order, row by row, plain values ("ratio") and with the report's styles
(font, fill, alignment, number format), text cells as text and its rows' heights
("ratio_styled"), one WriteOnlyCell per column and style reused row after row. openpyxl writes
through lxml when it is installed; OPENPYXL_LXML=False (read by each child) measures it
without. Prints one JSON object; asserts nothing about time.

    python tests/bench/bench_export.py [--questions 5000] [--systems 10] [--depth 100]
        [--passages 200000] [--sizes 1000,5000] [--keep DIR] [--rounds 3] [--also TREE]
        [--no-trace]

Every size in --sizes builds its own database (the largest first decides nothing: each is
measured alike), so that the peak memory can be compared between sizes. Each measurement is
its own child process: the export command (and --also's, another source tree's), then the
bare openpyxl script plain and styled, in turn for --rounds rounds (the fastest of each
counts), then write_report again under tracemalloc for the peak of Python allocations.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
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

# write_report under tracemalloc (the peak of Python allocations), in its own process.
TRACED = """
import json, sys, time, tracemalloc
sys.path.insert(0, sys.argv[3])
from desktop.project import Project
from desktop.report import write_report
project = Project(sys.argv[1])
tracemalloc.start()
start = time.perf_counter()
write_report(project, sys.argv[2], [5, 10], lang="en")
print(json.dumps({"s": time.perf_counter() - start,
                  "peak_traced_mb": tracemalloc.get_traced_memory()[1] / 2**20}))
"""

# The report's cells as the reference writes them: per sheet its title and rows, each row
# its height (None: none set) and its cells, (value, style) or None; per style the objects
# a cell of it carries. Read with openpyxl's public read-only API (a cell's style_array
# names its style) and the rows' heights from the sheets' XML.
CELLS = """
import pickle, re, sys, zipfile
from openpyxl import load_workbook
from openpyxl.cell.read_only import EmptyCell
report, out = sys.argv[1:3]
wb = load_workbook(report, read_only=True)
styles, style_of, sheets = [], {}, []
height = re.compile(rb'<row r="([0-9]+)"[^>]*? ht="([0-9.]+)"')
with zipfile.ZipFile(report) as z:
    parts = sorted((n for n in z.namelist() if re.fullmatch(r"xl/worksheets/sheet[0-9]+\\.xml", n)),
                   key=lambda n: int(re.sub(r"[^0-9]", "", n)))
    heights = [{int(r): float(h) for r, h in height.findall(z.read(n))} for n in parts]
for ws, tall in zip(wb.worksheets, heights, strict=True):
    rows = []
    for number, row in enumerate(ws.iter_rows(), 1):
        cells = []
        for cell in row:
            if isinstance(cell, EmptyCell) or (cell.value is None and not cell.has_style):
                cells.append(None)  # no cell: the report had None there
                continue
            key = tuple(cell.style_array)
            if key not in style_of:
                style_of[key] = len(styles)
                styles.append({"font": cell.font, "fill": cell.fill, "alignment": cell.alignment,
                               "number_format": cell.number_format} if cell.has_style else None)
            # a styled cell without a value is text the report left empty ("")
            cells.append((cell.value if cell.value is not None else "", style_of[key]))
        rows.append((tall.get(number), cells))
    sheets.append((ws.title, rows))
with open(out, "wb") as f:
    pickle.dump({"styles": styles, "sheets": sheets}, f, protocol=pickle.HIGHEST_PROTOCOL)
"""

BARE = """
import json, pickle, resource, sys, time
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
out, cells, styled = sys.argv[1], sys.argv[2], sys.argv[3] == "styled"
with open(cells, "rb") as f:
    report = pickle.load(f)
styles = report["styles"]
start, cpu = time.perf_counter(), time.process_time()
wb = Workbook(write_only=True)
for title, rows in report["sheets"]:
    ws = wb.create_sheet(title)
    pool = {}
    for number, (height, values) in enumerate(rows, 1):
        if styled and height is not None:
            ws.row_dimensions[number].height = height
        row = []
        for column, value in enumerate(values):
            if value is None:
                row.append(None)
                continue
            value, style = value
            if not styled:
                row.append(value)
                continue
            cell = pool.get((column, style))
            if cell is None:
                cell = pool[(column, style)] = WriteOnlyCell(ws)
                for attribute, made in (styles[style] or {}).items():
                    setattr(cell, attribute, made)
            cell.value = value
            if type(value) is str:
                cell.data_type = "s"  # text as the report writes it, never a formula
            row.append(cell)
        ws.append(row)
wb.save(out)
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"s": wall, "cpu_s": cpu,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def export_run(db: Path, report: Path, tree: Path) -> dict:
    """The export command of ``tree`` as a user runs it, timed whole: its wall and CPU
    seconds (user + system) and peak RSS, from the process's own resource usage."""
    args = [PY, "-m", "desktop", "--db", str(db), "export", str(report)]
    args += ["--k", "5,10", "--lang", "en", "--force"]
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tree)
    proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise RuntimeError(f"{args} failed: {err.decode()[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"s": wall, "cpu_s": cpu, "peak_rss_mb": usage.ru_maxrss / 1024}


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
    """``rounds`` rounds, each the export command and then bare openpyxl plain and styled,
    one after the other, so that a load that comes and goes on the machine falls on both
    alike; each time is the fastest of its rounds. ``also``: another source tree (say, a
    checkout of the previous commit) whose export is timed in the same rounds, first in each.
    The reference's cells are read from the first report written (untimed). Then the report
    once more under tracemalloc (unless not ``trace``)."""
    report = base / "report.xlsx"
    cells = base / "cells.pickle"
    bare_script = base / "bare.py"
    bare_script.write_text(BARE)
    runs: dict[str, list[dict]] = {"ours": [], "plain": [], "styled": [], "also": []}
    for _ in range(rounds):
        if also is not None:
            runs["also"].append(export_run(db, base / "also.xlsx", also))
        runs["ours"].append(export_run(db, report, ROOT))
        if not cells.exists() or cells.stat().st_mtime < report.stat().st_mtime:
            (base / "cells.py").write_text(CELLS)
            resource_run([PY, str(base / "cells.py"), str(report), str(cells)])
        for variant in ("plain", "styled"):
            args = [PY, str(bare_script), str(base / "bare.xlsx"), str(cells), variant]
            runs[variant].append(json.loads(resource_run(args)[2]))
    size = report.stat().st_size
    traced = {"peak_traced_mb": None, "s": None}
    if trace:
        (base / "traced.py").write_text(TRACED)
        args = [PY, str(base / "traced.py"), str(db), str(report), str(ROOT)]
        traced = json.loads(resource_run(args)[2])
    with open(cells, "rb") as f:
        written = pickle.load(f)["sheets"]
    fastest = {name: min(runs[name], key=lambda r: r["s"]) for name in runs if runs[name]}
    cpu = {name: min(r["cpu_s"] for r in runs[name]) for name in runs if runs[name]}
    extra = {}
    if also is not None:
        extra = {
            "also_tree": str(also),
            "also_s": round(fastest["also"]["s"], 2),
            "also_each_s": [round(r["s"], 2) for r in runs["also"]],
            "also_ratio_styled": round(fastest["also"]["s"] / fastest["styled"]["s"], 2),
            "also_cpu_s": round(cpu["also"], 2),
            "also_each_cpu_s": [round(r["cpu_s"], 2) for r in runs["also"]],
            "also_ratio_styled_cpu": round(cpu["also"] / cpu["styled"], 2),
            "also_peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs["also"]), 1),
        }
    return extra | {
        "questions": questions,
        "systems": systems,
        "rounds": rounds,
        "sheets": {title: len(rows) for title, rows in written},
        "cells": sum(1 for _, rows in written for _, row in rows for c in row if c is not None),
        "export_s": round(fastest["ours"]["s"], 2),
        "export_each_s": [round(r["s"], 2) for r in runs["ours"]],
        "bare_openpyxl_s": round(fastest["plain"]["s"], 2),
        "ratio": round(fastest["ours"]["s"] / fastest["plain"]["s"], 2),
        "bare_styled_s": round(fastest["styled"]["s"], 2),
        "bare_styled_each_s": [round(r["s"], 2) for r in runs["styled"]],
        "ratio_styled": round(fastest["ours"]["s"] / fastest["styled"]["s"], 2),
        # CPU seconds of the process: what a machine shared with other work disturbs least
        "export_cpu_s": round(cpu["ours"], 2),
        "export_each_cpu_s": [round(r["cpu_s"], 2) for r in runs["ours"]],
        "bare_styled_cpu_s": round(cpu["styled"], 2),
        "bare_styled_each_cpu_s": [round(r["cpu_s"], 2) for r in runs["styled"]],
        "ratio_styled_cpu": round(cpu["ours"] / cpu["styled"], 2),
        "peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs["ours"]), 1),
        "peak_traced_mb": trace and round(traced["peak_traced_mb"], 1) or None,
        "traced_run_s": trace and round(traced["s"], 2) or None,
        "bare_peak_rss_mb": round(fastest["styled"]["peak_rss_mb"], 1),
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
                "bench": "export (whole command) vs bare openpyxl write-only, same cells",
                "depth": args.depth,
                "passages": args.passages,
                "export_s": largest["export_s"],
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
