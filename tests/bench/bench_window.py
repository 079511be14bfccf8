"""The reviewer window at the reference size (design section 8): 1,000,000 passages, 5,000
questions, 10 systems x 100 results. Drives the real widgets offscreen and prints one JSON
object: open-to-first-question time, question-switch latency (p50/p95/max, idle and while the
metrics worker runs), the full metrics pass, judging a pool passage until the next one is
shown, and resident memory.

    python tests/bench/bench_window.py [--passages 1000000] [--questions 5000] [--systems 10]
                                       [--depth 100] [--switches 300] [--build-only] [--keep]

The synthetic database is generated through the Project import methods into --cache
(/tmp/recall-reviewer-bench/; a few minutes for a million passages). A database this run built
is removed at the end unless --keep (or --build-only) is given; one found there is reused and
left. Settings and backups live in a temporary RECALL_REVIEWER_HOME, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import write_corpus, write_questions, write_ranked  # noqa: E402

CACHE = Path("/tmp/recall-reviewer-bench")


def build(base: Path, passages: int, questions: int, systems: int, depth: int) -> Path:
    """The database for these sizes, built once and cached."""
    tag = f"p{passages}-q{questions}-s{systems}-d{depth}"
    db = base / f"{tag}.db"
    if db.exists() and (base / f"{tag}.done").exists():
        return db
    from desktop.project import Project

    base.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    rng = random.Random(11)
    work = base / f"{tag}-files"
    work.mkdir(exist_ok=True)
    started = time.perf_counter()
    write_corpus(work / "corpus.jsonl", passages, words=30, rng=rng)
    write_questions(work / "questions.jsonl", questions, rng, lambda q: q % 50 == 49)
    gold: dict[str, list[str]] = {}
    with open(work / "gold.jsonl", "w", encoding="utf-8") as handle:
        for q in range(questions):
            qid = f"q{q:05d}"
            if q % 50 == 49:
                handle.write(json.dumps({"question_id": qid, "evidence": []}) + "\n")
                continue
            chosen = rng.sample(range(passages), rng.randint(1, 5) + 1)
            evidence = []
            for i, p in enumerate(chosen[:-1]):
                item = {"passage_id": f"p{p:07d}"}
                role = rng.choice(("core", "core", "supporting", None))
                if role:
                    item["role"] = role
                if i == 0 and rng.random() < 0.2:
                    item["alternatives"] = [f"p{chosen[-1]:07d}"]
                evidence.append(item)
            gold[qid] = [e["passage_id"] for e in evidence]
            handle.write(json.dumps({"question_id": qid, "evidence": evidence}) + "\n")
    for s in range(systems):
        with open(work / f"system{s}.trec", "w") as handle:
            for q in range(questions):
                qid = f"q{q:05d}"
                ranked = [f"p{p:07d}" for p in rng.sample(range(passages), depth)]
                for pid in gold.get(qid, []):
                    if rng.random() < 0.5 + s * 0.03:
                        ranked[rng.randrange(depth)] = pid
                write_ranked(handle, qid, ranked, f"sys{s}", lambda r: f"{100 - r * 0.5:.2f}")
    # Two reviewers on a few hundred questions, some of them disagreeing.
    with open(work / "judgements.jsonl", "w", encoding="utf-8") as handle:
        for n, (qid, pids) in enumerate(list(gold.items())[:400]):
            for who, role in (("kim", "core"), ("lee", "core" if n % 3 else "supporting")):
                handle.write(
                    json.dumps(
                        {
                            "reviewer": who,
                            "at": f"2026-01-01T10:{n // 60 % 60:02d}:{n % 60:02d}+09:00",
                            "question_id": qid,
                            "kind": "role",
                            "passage_id": pids[0],
                            "value": role,
                        }
                    )
                    + "\n"
                )
    files_s = time.perf_counter() - started
    with Project(db) as project:
        t = time.perf_counter()
        project.import_corpus(work / "corpus.jsonl")
        corpus_s = time.perf_counter() - t
        project.import_questions(work / "questions.jsonl")
        project.import_gold(work / "gold.jsonl")
        t = time.perf_counter()
        for s in range(systems):
            project.import_run(work / f"system{s}.trec", f"System-{s:02d}")
        runs_s = time.perf_counter() - t
        project.import_judgements(work / "judgements.jsonl")
    (base / f"{tag}.done").write_text(
        json.dumps({"files_s": files_s, "corpus_import_s": corpus_s, "runs_import_s": runs_s})
    )
    for f in work.iterdir():
        f.unlink()
    work.rmdir()
    return db


def _rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MB."""
    now = peak = 0.0
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return round(now, 1), round(peak, 1)


def _percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(p95, 2),
        "max_ms": round(ordered[-1], 2),
    }


def drive(db: Path, switches: int) -> dict:
    """Open the real window on `db` offscreen and time what a reviewer waits for."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    t_import = time.perf_counter()
    from PySide6.QtWidgets import QApplication

    from desktop.ui import app as ui_app  # first: desktop.ui guards a PySide6 6.12.0 bug
    from desktop.ui.window import MainWindow

    qt_import_s = time.perf_counter() - t_import
    qapp = QApplication.instance() or QApplication(["bench"])
    ui_app.configure(qapp)
    settings = ui_app.settings()
    # A reviewer new to the database, so that the first judgement shows the full pass that
    # a new reviewer causes (single-reviewer changes stop counting alone).
    reviewer = f"bench-{os.getpid()}"
    settings.setValue("reviewer", reviewer)
    out: dict = {"qt_import_s": round(qt_import_s, 3)}

    t0 = time.perf_counter()
    window = MainWindow(db)
    window.resize(1366, 768)
    window.show()
    window.repaint_now()  # the first question's top-K and gold are on screen
    first = window.current_question_id()
    out["open_to_first_question_s"] = round(time.perf_counter() - t0, 3)
    out["first_question"] = first

    # The full metrics pass starts at open in a worker; time switching while it runs.
    ids = window.question_ids()
    rng = random.Random(5)
    busy: list[float] = []
    while window.metrics_busy() and len(busy) < switches:
        qid = rng.choice(ids)
        t = time.perf_counter()
        window.show_question(qid)
        window.repaint_now()
        busy.append((time.perf_counter() - t) * 1000)
        qapp.processEvents()
    t = time.perf_counter()
    while window.metrics_busy():
        qapp.processEvents()
        time.sleep(0.005)
    out["metrics_full_pass_s"] = round(time.perf_counter() - t0, 3)
    out["metrics_full_pass_note"] = "from opening; runs in a worker while the window is usable"

    idle: list[float] = []
    for _ in range(switches):
        qid = rng.choice(ids)
        t = time.perf_counter()
        window.show_question(qid)
        window.repaint_now()
        idle.append((time.perf_counter() - t) * 1000)
        qapp.processEvents()
    out["switch_idle"] = _percentiles(idle)
    if busy:
        out["switch_while_metrics_run"] = _percentiles(busy)
        out["switch_while_metrics_run"]["first_ms"] = [round(b, 1) for b in busy[:3]]

    # K = 100 in compare mode: the most rows a switch fills (two full lists).
    window.set_k(100)
    window.set_compare(window.session.systems[1]["name"])
    while window.metrics_busy():
        qapp.processEvents()
        time.sleep(0.005)
    wide: list[float] = []
    for _ in range(min(100, switches)):
        qid = rng.choice(ids)
        t = time.perf_counter()
        window.show_question(qid)
        window.repaint_now()
        wide.append((time.perf_counter() - t) * 1000)
        qapp.processEvents()
    out["switch_k100_compare"] = _percentiles(wide)
    window.set_compare(None)
    window.set_k(5)
    while window.metrics_busy():
        qapp.processEvents()
        time.sleep(0.005)

    # Keyboard navigation through the real shortcut, as a reviewer presses it.
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    keyed: list[float] = []
    for _ in range(min(100, switches)):
        t = time.perf_counter()
        QTest.keyClick(window, Qt.Key.Key_J)
        window.repaint_now()
        keyed.append((time.perf_counter() - t) * 1000)
    out["next_question_key"] = _percentiles(keyed)

    # Judgements: written, shown, and the metrics brought up to date by the worker. The
    # first one by a new reviewer changes what counts everywhere (a full pass); later ones
    # rescore their question only.
    for name in ("first_judgement", "next_judgement"):
        QTest.keyClick(window, Qt.Key.Key_J)
        t = time.perf_counter()
        window.select_item(0)
        QTest.keyClick(window, Qt.Key.Key_1)
        window.repaint_now()
        shown = (time.perf_counter() - t) * 1000
        while window.metrics_busy():
            qapp.processEvents()
            time.sleep(0.002)
        out[name] = {
            "lines_by_reviewer": len(window.project.store.judgements(reviewer=reviewer)),
            "shown_ms": round(shown, 2),
            "metrics_updated_ms": round((time.perf_counter() - t) * 1000, 2),
        }

    out["pool_judgement"] = _pool_judgements(window, qapp, min(100, switches))

    now, peak = _rss_mb()
    out["rss_mb"] = now
    out["peak_rss_mb"] = peak
    window.close()
    return out


def _pool_judgements(window, qapp, n: int) -> dict:
    """The pool queue (issue 13): a key judges the passage it shows (E adds it as a core
    item, X strikes it) and the next unjudged one is in the queue and the reader: timed from
    the key to that frame (target: one frame, 16 ms). U moves on when a question's pool is
    judged; the metrics worker finishes between keys, as it does while a reviewer reads."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    def settle() -> None:
        while window.metrics_busy():
            qapp.processEvents()
            time.sleep(0.002)

    panel = window.pool_panel
    window.middle_tabs.setCurrentWidget(panel)
    timed: list[float] = []
    advanced = 0
    for i in range(n):
        if not panel.left():
            QTest.keyClick(window, Qt.Key.Key_U)
            settle()
        before = panel.current()
        key = Qt.Key.Key_E if i % 4 == 0 else Qt.Key.Key_X
        t = time.perf_counter()
        QTest.keyClick(window, key)
        window.repaint_now()
        timed.append((time.perf_counter() - t) * 1000)
        after = panel.current()
        if after is None or (after != before and window.reader.passage_pk == after.passage_pk):
            advanced += 1  # the next one shown (or the question's pool is done)
        settle()
    return {
        **_percentiles(timed),
        "next_shown": advanced,
        "pool_depth": window.session.pool_depth,
        "target_ms": 16,
    }


def cold_open(db: Path, base: Path) -> dict:
    """A whole new process: from spawning `python` to the first question painted."""
    import subprocess

    home = base / "cold-home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.ini").write_text("[General]\nreviewer=bench\n", encoding="utf-8")
    env = dict(os.environ, RECALL_REVIEWER_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    t = time.perf_counter()
    child = subprocess.run(
        [sys.executable, __file__, "--child-open", str(db)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=ROOT,
    )
    wall = time.perf_counter() - t
    shown = json.loads(child.stdout.strip().splitlines()[-1])
    at = shown.pop("at")
    return {
        "spawn_to_first_question_s": round(at - t, 3),
        "process_wall_s": round(wall, 3),
        **shown,
    }


def child_open(db: Path) -> None:
    started = time.perf_counter()
    from PySide6.QtWidgets import QApplication

    from desktop.ui import app as ui_app

    qapp = QApplication(["bench"])
    ui_app.configure(qapp)
    from desktop.ui.window import MainWindow

    t = time.perf_counter()
    window = MainWindow(db)
    window.resize(1366, 768)
    window.show()
    window.repaint_now()
    done = time.perf_counter()
    # perf_counter is the system's monotonic clock on Linux: the parent can compare.
    print(
        json.dumps(
            {
                "imports_s": round(t - started, 3),
                "window_s": round(done - t, 3),
                "at": done,
                "first_question": window.current_question_id(),
            }
        )
    )
    os._exit(0)  # the metrics worker is not what this measures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=1_000_000)
    parser.add_argument("--questions", type=int, default=5_000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--switches", type=int, default=300)
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the database built for reuse")
    parser.add_argument("--cache", default=str(CACHE))
    parser.add_argument("--child-open", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_open:
        child_open(Path(args.child_open))
        return
    import shutil
    import tempfile

    cache = Path(args.cache)
    fresh = not cache.exists()
    built_before = set(cache.iterdir()) if cache.exists() else set()
    t = time.perf_counter()
    db = build(cache, args.passages, args.questions, args.systems, args.depth)
    build_s = time.perf_counter() - t
    if args.build_only:
        print(json.dumps({"db": str(db), "build_s": round(build_s, 1)}))
        return
    try:
        with tempfile.TemporaryDirectory(prefix="rr-bench-") as base:
            os.environ["RECALL_REVIEWER_HOME"] = str(Path(base) / "home")
            out = measure(args, db, Path(base))
    finally:
        if not args.keep:
            for made in set(cache.iterdir()) - built_before:
                made.unlink()
            if fresh:
                shutil.rmtree(cache, ignore_errors=True)
    print(json.dumps(out, ensure_ascii=False))


def measure(args, db: Path, base: Path) -> dict:
    out = {
        "bench": "reviewer window, offscreen",
        "passages": args.passages,
        "questions": args.questions,
        "systems": args.systems,
        "depth": args.depth,
        "db": str(db),
        "db_mb": round(db.stat().st_size / 2**20, 1),
        "machine": f"{os.cpu_count()} CPUs, {_cpu_name()}, Python {sys.version.split()[0]}",
    }
    # Work on a copy: the bench writes judgements, and every run should start alike.
    import shutil

    work = base / "run.db"
    shutil.copyfile(db, work)
    out["cold_start"] = cold_open(work, base)
    out["cold_open_s"] = out["cold_start"]["spawn_to_first_question_s"]
    out.update(drive(work, args.switches))
    return out


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    main()
