"""The reviewer window at the reference size (design section 8): 1,000,000 passages, 5,000
questions, 10 systems x 100 results. Drives the real widgets offscreen and prints one JSON
object: open-to-first-question time, question-switch latency (p50/p95/max, idle and while the
metrics worker runs), the next-question key back to back and after reading (half a second at
least, until the window's workers are idle: it reads the neighbours ahead then), the full
metrics pass, judging a pool passage until the next one is shown, and resident memory.

Beside the app, in the same run, the same screen made plainly with PySide6 and sqlite3
(bare_window.py) on a copy of the same database: each timed run of the app is followed by the
same run of the bare window, and each figure carries the bare one ("bare") and the ratio at
p95. Every clock stops only once a pass of the event loop delivered no paint, update request
or layout request (PaintWatch), so that no painting a switch causes is left out; an idle
switch also says how many paint passes it took (paint_passes, the bare window's beside).
Memory is measured per process: the app alone in a child (peak_rss_mb), the bare window
alone in another (bare_peak_rss_mb); the timing process holds both (peak_rss_with_bare_mb).

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


class PaintWatch:
    """Counts the events that are painting still to come (an update request posted to a
    window, a paint, a layout request): a run's clock stops only after a pass of the event
    loop in which none was delivered, so that no paint a switch causes is left uncounted."""

    def __init__(self, qapp):
        from PySide6.QtCore import QEvent, QObject

        kinds = {
            QEvent.Type.Paint,
            QEvent.Type.UpdateRequest,
            QEvent.Type.UpdateLater,
            QEvent.Type.LayoutRequest,
        }

        update = QEvent.Type.UpdateRequest

        class Filter(QObject):
            seen = 0
            passes = 0  # paint passes: update requests delivered to a window

            def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
                if event.type() in kinds:
                    Filter.seen += 1
                    if event.type() == update and obj.isWidgetType() and obj.isWindow():
                        Filter.passes += 1
                return False

        self.qapp = qapp
        self.filter = Filter()
        qapp.installEventFilter(self.filter)
        # Work a switch hands to a worker and shows when it arrives (the reader's passage):
        # the clock waits for it too. Set once the window exists.
        self.arriving = lambda: None

    def settle(self) -> None:
        from PySide6.QtWidgets import QApplication

        while True:
            before = self.filter.seen
            self.arriving()
            QApplication.sendPostedEvents()
            self.qapp.processEvents()
            if self.filter.seen == before:
                return

    def painted_after(self, widget, ready) -> list[float]:
        """A list that gets the time of the first paint of `widget` once ready() is true
        (the frame that shows a change), when it comes, then the time that frame was done:
        the first event after it that is no paint (a window's update request paints its
        widgets one after the other and returns before another event is delivered)."""
        from PySide6.QtCore import QEvent, QObject

        when: list[float] = []
        paint = QEvent.Type.Paint

        class First(QObject):
            def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
                if not when and obj is widget and event.type() == paint and ready():
                    when.append(time.perf_counter())
                elif len(when) == 1 and event.type() != paint:
                    when.append(time.perf_counter())
                return False

        self._first = First()  # kept alive while installed
        self.qapp.installEventFilter(self._first)
        return when

    def pass_once(self) -> None:
        from PySide6.QtWidgets import QApplication

        self.arriving()
        QApplication.sendPostedEvents()
        self.qapp.processEvents()

    def stop_painted(self) -> None:
        self.qapp.removeEventFilter(self._first)

    def timed(self, action, passes: list[int] | None = None) -> float:
        """Milliseconds from `action` until painting has settled; the paint passes it took
        are added to `passes` when given."""
        before = self.filter.passes
        t = time.perf_counter()
        action()
        self.settle()
        if passes is not None:
            passes.append(self.filter.passes - before)
        return (time.perf_counter() - t) * 1000


def _beside(app: list[float], bare: list[float]) -> dict:
    """The app's percentiles, the bare reference's, and their ratio at p95."""
    out = _percentiles(app)
    if bare:
        out["bare"] = _percentiles(bare)
        out["ratio_p95"] = round(out["p95_ms"] / max(out["bare"]["p95_ms"], 1e-6), 2)
    return out


def drive(db: Path, bare_db: Path, switches: int) -> dict:
    """Open the real window on `db` offscreen, and the bare reference on its copy `bare_db`,
    and time what a reviewer waits for: each run of the app followed by the same run of the
    reference, every clock stopped only once no paint is pending."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    t_import = time.perf_counter()
    from PySide6.QtWidgets import QApplication

    from desktop.ui import app as ui_app  # first: desktop.ui guards a PySide6 6.12.0 bug
    from desktop.ui.window import MainWindow
    from tests.bench.bare_window import BareWindow

    qt_import_s = time.perf_counter() - t_import
    qapp = QApplication.instance() or QApplication(["bench"])
    ui_app.configure(qapp)
    settings = ui_app.settings()
    # A reviewer new to the database, which already holds two: the first judgement is that
    # of a third person, which moves no other question's scores (design 6: only a second
    # person joining makes lone changes wait, and that starts a full pass).
    reviewer = f"bench-{os.getpid()}"
    settings.setValue("reviewer", reviewer)
    out: dict = {"qt_import_s": round(qt_import_s, 3)}
    watch = PaintWatch(qapp)

    t0 = time.perf_counter()
    window = MainWindow(db)
    watch.arriving = window.reader.settle
    window.resize(1366, 768)
    window.show()
    watch.settle()  # the first question's top-K and gold are on screen
    out["open_to_first_question_s"] = round(time.perf_counter() - t0, 3)
    out["first_question"] = window.current_question_id()
    t = time.perf_counter()
    bare = BareWindow(str(bare_db))
    bare.resize(1366, 768)
    bare.show()
    bare.show_question(out["first_question"])
    watch.settle()
    window.activateWindow()  # the keys go to the app's window, as a reviewer's would
    watch.settle()
    out["bare_open_to_first_question_s"] = round(time.perf_counter() - t, 3)

    rng = random.Random(5)
    _switching(out, window, bare, watch, rng, switches, t0)
    _keys_and_judgements(out, window, bare, watch, reviewer, min(100, switches))
    out["pool_judgement"] = _pool_judgements(window, qapp, min(100, switches))

    now, peak = _rss_mb()
    out["rss_with_bare_mb"] = now
    out["peak_rss_with_bare_mb"] = peak  # this process holds the bare window too
    window.close()
    bare.close()
    return out


def _settle_metrics(window, watch: PaintWatch) -> None:
    while window.metrics_busy():
        watch.settle()
        time.sleep(0.005)
    watch.settle()


def _switching(out: dict, window, bare, watch: PaintWatch, rng, switches: int, t0) -> None:
    """Question switches: while the metrics pass runs, idle, and at K = 100 in compare mode."""
    ids = window.question_ids()
    busy: list[float] = []
    while window.metrics_busy() and len(busy) < switches:
        qid = rng.choice(ids)
        busy.append(watch.timed(lambda q=qid: window.show_question(q)))
    _settle_metrics(window, watch)
    out["metrics_full_pass_s"] = round(time.perf_counter() - t0, 3)
    out["metrics_full_pass_note"] = "from opening; runs in a worker while the window is usable"

    idle: list[float] = []
    ref: list[float] = []
    passes: tuple[list[int], list[int]] = ([], [])
    for _ in range(switches):
        qid = rng.choice(ids)
        idle.append(watch.timed(lambda q=qid: window.show_question(q), passes[0]))
        ref.append(watch.timed(lambda q=qid: bare.show_question(q), passes[1]))
    out["switch_idle"] = _beside(idle, ref)
    # How many times a switch paints (one pass is the goal; each more repaints the window).
    out["switch_idle"]["paint_passes"] = round(statistics.mean(passes[0]), 2)
    out["switch_idle"]["bare"]["paint_passes"] = round(statistics.mean(passes[1]), 2)
    if busy:
        out["switch_while_metrics_run"] = _percentiles(busy)
        out["switch_while_metrics_run"]["first_ms"] = [round(b, 1) for b in busy[:3]]

    # K = 100 in compare mode: the most rows a switch fills (two full lists).
    window.set_k(100)
    window.set_compare(window.session.systems[1]["name"])
    bare.set_mode(100, True)
    _settle_metrics(window, watch)
    wide: list[float] = []
    ref = []
    for _ in range(min(100, switches)):
        qid = rng.choice(ids)
        wide.append(watch.timed(lambda q=qid: window.show_question(q)))
        ref.append(watch.timed(lambda q=qid: bare.show_question(q)))
    out["switch_k100_compare"] = _beside(wide, ref)
    window.set_compare(None)
    window.set_k(5)
    bare.set_mode(5, False)
    _settle_metrics(window, watch)


def _reading(window, ms: int = 500) -> None:
    """The event loop waiting for input, as while a reviewer reads a question (the window
    draws the neighbours ahead only then; processEvents never blocks): at least `ms`, and
    until the window's workers are idle. What the switch started (the selected item's
    candidate alternatives: about a second at a million passages) would otherwise run into
    the next timed key, the bare window's too, since both windows share this process."""
    from PySide6.QtCore import QEventLoop, QTimer

    start = time.perf_counter()
    while True:
        loop = QEventLoop()
        QTimer.singleShot(100, loop.quit)
        loop.exec()
        waited = (time.perf_counter() - start) * 1000
        if waited >= ms and not any(w.busy() for w in window.workers()) or waited > 30_000:
            return


def _after_reading(window, bare, watch, n: int) -> dict:
    """The next-question key pressed after reading (half a second at least, and until the
    window's workers are idle), not back to back as in
    next_question_key: what the window prepared meanwhile (the neighbour's view and cells)
    counts. The bare reference pauses the same way."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    keyed: list[float] = []
    ref: list[float] = []
    for _ in range(n):
        _reading(window)
        keyed.append(watch.timed(lambda: QTest.keyClick(window, Qt.Key.Key_J)))
        _reading(window)
        ref.append(watch.timed(bare.next_question))
    return _beside(keyed, ref)


def _keys_and_judgements(out: dict, window, bare, watch, reviewer: str, n: int) -> None:
    """Keyboard navigation through the real shortcut, as a reviewer presses it; then
    judgements: written, shown, and the metrics brought up to date by the worker. The first
    one is a new (third) reviewer's; each says whether it started a full pass."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    keyed: list[float] = []
    ref: list[float] = []
    for _ in range(n):
        keyed.append(watch.timed(lambda: QTest.keyClick(window, Qt.Key.Key_J)))
        ref.append(watch.timed(bare.next_question))
    out["next_question_key"] = _beside(keyed, ref)
    out["next_key_after_reading"] = _after_reading(window, bare, watch, min(n, 50))

    for name in ("first_judgement", "next_judgement"):
        QTest.keyClick(window, Qt.Key.Key_J)
        while not window.session.view.items:  # a question with evidence to judge
            QTest.keyClick(window, Qt.Key.Key_J)
        watch.settle()
        # The item is selected and read first, as a reviewer does before judging it: its
        # candidate alternatives are searched on their worker meanwhile (a second at a
        # million passages of this corpus's few words). The clock times the key alone, as
        # the bare window's does; the selection is timed apart.
        t = time.perf_counter()
        window.select_item(0)
        watch.settle()
        window.alternatives.worker.wait()
        watch.settle()
        selected = (time.perf_counter() - t) * 1000
        before, generation = window.session.view, window.metrics.generation
        viewport = window.evidence_panel.table.viewport()
        painted = watch.painted_after(viewport, lambda b=before: window.session.view is not b)
        t = time.perf_counter()
        QTest.keyClick(window, Qt.Key.Key_1)
        # The key writes at once and shows the judged role in a view built at the key (or,
        # for a line that changes what the systems find, in its question's build from the
        # worker): the clock stops at the evidence table's first paint of that view. The
        # rebuild follows after that frame: until_built stops when it is shown and settled.
        # One pass of the event loop at a time: the clock stops after the pass that painted
        # (shown_ms), or once that frame's painting is done (frame_ms).
        while not painted and time.perf_counter() - t < 30:
            watch.pass_once()
        shown = (time.perf_counter() - t) * 1000
        # The frame on screen: the rest of that pass (work the window holds back until the
        # frame is painted) is not in it.
        frame = (painted[1] - t) * 1000 if len(painted) > 1 else shown
        watch.stop_painted()
        while (
            window.session.view is before or window.session.keyed is not None
        ) and time.perf_counter() - t < 30:
            watch.settle()
        watch.settle()
        built = (time.perf_counter() - t) * 1000
        _settle_metrics(window, watch)
        updated = (time.perf_counter() - t) * 1000
        bare.next_question()
        watch.settle()
        t = time.perf_counter()
        bare.judge()
        watch.settle()
        bare_shown = (time.perf_counter() - t) * 1000
        bare.update_metrics(bare.questions[bare.current][0])
        watch.settle()
        bare_updated = (time.perf_counter() - t) * 1000
        out[name] = {
            "lines_by_reviewer": len(window.project.reads.judgements(reviewer=reviewer)),
            "full_pass": window.metrics.generation != generation,
            "item_selected_ms": round(selected, 2),
            "shown_ms": round(shown, 2),
            "frame_ms": round(frame, 2),
            "until_built_ms": round(built, 2),
            "metrics_updated_ms": round(updated, 2),
            "bare_shown_ms": round(bare_shown, 2),
            "bare_metrics_updated_ms": round(bare_updated, 2),
            "ratio_shown": round(shown / max(bare_shown, 1e-6), 2),
            "ratio_metrics_updated": round(updated / max(bare_updated, 1e-6), 2),
        }


def _pool_judgements(window, qapp, n: int) -> dict:
    """The pool queue (issue 13): a key judges the passage it shows (E adds it as a core
    item, X strikes it) and the next unjudged one is in the queue and the reader: timed from
    the key to that frame (target: one frame, 16 ms); next_shown counts the keys after which
    it was (the clock used to stop before the queue moved: none were). U moves on when a
    question's pool is judged; the metrics worker finishes between keys, as it does while a
    reviewer reads. until_built: from the key until the judged question's build is shown in
    every panel too (the queue may move on before it, issue 23)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    def settle() -> None:
        while window.metrics_busy():
            qapp.processEvents()
            time.sleep(0.002)

    panel = window.pool_panel
    window.middle_tabs.setCurrentWidget(panel)
    timed: list[float] = []
    rebuilt: list[float] = []
    advanced = 0

    def next_shown(before, view) -> bool:
        # The queue moved on and the reader shows its pick (the queue holds the next passage
        # and moves at the key), or the judged question's build arrived (a new view).
        now = panel.current()
        reader = window.reader
        moved = now is not None and now != before and not reader.pending
        return (moved and reader.passage_pk == now.passage_pk) or built(view)

    def built(view) -> bool:
        # Not the view a key shows its judgement in (session.keyed): the question's build.
        return window.session.view is not view and window.session.keyed is None

    for i in range(n):
        if not panel.left():
            QTest.keyClick(window, Qt.Key.Key_U)
            settle()
        before = panel.current()
        key = Qt.Key.Key_E if i % 4 == 0 else Qt.Key.Key_X
        view = window.session.view
        t = time.perf_counter()
        QTest.keyClick(window, key)
        while not next_shown(before, view) and time.perf_counter() - t < 30:
            qapp.processEvents()
        panel.settle()
        window.reader.settle()
        window.repaint_now()
        timed.append((time.perf_counter() - t) * 1000)
        # Until the build is in every panel (what the key changed on the question).
        while not built(view) and time.perf_counter() - t < 30:
            qapp.processEvents()
        panel.settle()
        window.reader.settle()
        window.repaint_now()
        rebuilt.append((time.perf_counter() - t) * 1000)
        after = panel.current()
        if after is None or (after != before and window.reader.passage_pk == after.passage_pk):
            advanced += 1  # the next one shown (or the question's pool is done)
        settle()
    return {
        **_percentiles(timed),
        "next_shown": advanced,
        "until_built": _percentiles(rebuilt),
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
    window.reader.settle()  # the first passage, read on the reader's worker
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
    parser.add_argument("--child-memory", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_open:
        child_open(Path(args.child_open))
        return
    if args.child_memory:
        child_memory(Path(args.child_memory), args.switches)
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
    bare = base / "bare.db"  # the reference writes its own judgements on its own copy
    shutil.copyfile(db, bare)
    out["cold_start"] = cold_open(work, base)
    out["cold_open_s"] = out["cold_start"]["spawn_to_first_question_s"]
    out["bare_peak_rss_mb"] = bare_peak_rss(bare)
    out.update(app_memory(work, base, args.switches))
    out["peak_rss_ratio"] = round(out["peak_rss_mb"] / out["bare_peak_rss_mb"], 2)
    out.update(drive(work, bare, args.switches))
    return out


def app_memory(db: Path, base: Path, switches: int) -> dict:
    """The app's memory alone, in a process of its own (the timing process holds the bare
    window too): opened, its metrics pass done, `switches` question switches, a judgement."""
    import subprocess

    home = base / "memory-home"
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, RECALL_REVIEWER_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    child = subprocess.run(
        [sys.executable, __file__, "--child-memory", str(db), "--switches", str(switches)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=ROOT,
    )
    return json.loads(child.stdout.strip().splitlines()[-1])


def child_memory(db: Path, switches: int) -> None:
    from PySide6.QtWidgets import QApplication

    from desktop.ui import app as ui_app
    from desktop.ui.window import MainWindow

    qapp = QApplication(["bench"])
    ui_app.configure(qapp)
    ui_app.settings().setValue("reviewer", f"bench-memory-{os.getpid()}")
    watch = PaintWatch(qapp)
    window = MainWindow(db)
    watch.arriving = window.reader.settle
    window.resize(1366, 768)
    window.show()
    _settle_metrics(window, watch)
    ids = window.question_ids()
    rng = random.Random(5)
    for _ in range(switches):
        qid = rng.choice(ids)
        watch.timed(lambda q=qid: window.show_question(q))
    # And a judgement, as the timing run makes (a write may load what reading did not).
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    while not window.session.view.items:
        QTest.keyClick(window, Qt.Key.Key_J)
    window.select_item(0)
    QTest.keyClick(window, Qt.Key.Key_1)
    _settle_metrics(window, watch)
    now, peak = _rss_mb()
    print(json.dumps({"rss_mb": now, "peak_rss_mb": peak}))
    os._exit(0)  # as child_open: the worker is not what this measures


def bare_peak_rss(db: Path) -> float:
    """The bare reference's peak memory, in a process of its own (the bench's holds both)."""
    import subprocess

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    script = Path(__file__).with_name("bare_window.py")
    child = subprocess.run(
        [sys.executable, str(script), str(db)], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(child.stdout.strip().splitlines()[-1])["peak_rss_mb"]


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
