"""Shared pieces of the benchmark scripts: synthetic Korean data and child-process timing."""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
WORDS = (
    "말씀 하나님 참사랑 가정 축복 평화 통일 세계 인류 구원 섭리 역사 부모 자녀 마음 생명 창조 "
    "이상 책임 본연 심정 희생 봉사 교회 민족 미래 진리 양심 감사 기도 정성 승리 시대 천국 사명 "
    "복귀 인격 실체 조국"
).split()
ENDINGS = ("은", "는", "이", "가", "을", "를", "의", "에", "과", "")


def korean_text(rng: random.Random, words: int = 60) -> str:
    return " ".join(rng.choice(WORDS) + rng.choice(ENDINGS) for _ in range(words))


def write_corpus(
    path: Path, n: int, seed: int = 7, words: int = 60, rng: random.Random | None = None
) -> Path:
    """n passages of synthetic Korean text with a volume title, a date and a page."""
    rng = rng or random.Random(seed)
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            row = {
                "id": f"p{i:07d}",
                "text": korean_text(rng, words),
                "title": f"권{i % 615 + 1}",
                "date": f"19{60 + i % 40}-0{1 + i % 9}-1{i % 10}",
                "page": i % 400,
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def write_questions(path: Path, n: int, rng: random.Random, abstain) -> Path:
    """n questions q00000…; abstain(q) marks the ones to be abstained on."""
    with open(path, "w", encoding="utf-8") as handle:
        for q in range(n):
            row = {"id": f"q{q:05d}", "text": korean_text(rng, 8) + "?"}
            if abstain(q):
                row["answerable"] = False
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def write_ranked(handle, qid: str, ranked: list[str], tag: str, score) -> None:
    """One TREC ranked list, repeats dropped so that ranks run 1..n; score(rank) -> text."""
    seen: set[str] = set()
    rank = 0
    for pid in ranked:
        if pid in seen:
            continue
        seen.add(pid)
        rank += 1
        handle.write(f"{qid} Q0 {pid} {rank} {score(rank)} {tag}\n")


def child_run(args: list[str], cwd: Path = ROOT, output: bool = True) -> tuple:
    """Run a child: (wall seconds, its CPU seconds, user and system, its own peak RSS in MB,
    its stdout, or "" when output is False and it is dropped unread)."""
    start = time.perf_counter()
    stdout = subprocess.PIPE if output else subprocess.DEVNULL
    proc = subprocess.Popen(args, stdout=stdout, stderr=subprocess.PIPE, cwd=cwd)
    out = proc.stdout.read() if output else b""
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{args} failed: {err.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.decode()


def resource_run(args: list[str], cwd: Path = ROOT) -> tuple[float, float, str]:
    """Run a child: (wall seconds, the child's own peak RSS in MB, its stdout)."""
    wall, _, peak, out = child_run(args, cwd)
    return wall, peak, out


def alternated(commands: dict[str, list[str] | tuple[list[str], Path]], repeat: int) -> dict:
    """Each command `repeat` times, their runs alternated: each round runs every command once,
    the first of a round moving each time, so that the shared machine's load falls on all of
    them alike. A command is its arguments, or (arguments, working folder); its output is
    dropped. Per command: median and best wall seconds, median CPU seconds, the largest peak
    RSS in MB, the runs."""
    runs: dict[str, list[tuple]] = {name: [] for name in commands}
    names = list(commands)
    for n in range(repeat):
        for name in names[n % len(names) :] + names[: n % len(names)]:
            command = commands[name]
            args, cwd = command if isinstance(command, tuple) else (command, ROOT)
            runs[name].append(child_run(args, cwd, output=False))
    return {
        name: {
            "median_s": round(statistics.median(r[0] for r in rows), 4),
            "min_s": round(min(r[0] for r in rows), 4),
            "median_cpu_s": round(statistics.median(r[1] for r in rows), 4),
            "peak_rss_mb": round(max(r[2] for r in rows), 1),
            "runs": repeat,
        }
        for name, rows in runs.items()
    }


def ratios(a: dict, b: dict) -> dict:
    """a's median wall and CPU seconds and peak RSS over b's (alternated's figures)."""
    return {key: round(a[key] / b[key], 3) for key in ("median_s", "median_cpu_s", "peak_rss_mb")}


def measure(args: list[str], repeat: int = 5) -> dict:
    """One command alone (no reference to alternate with): alternated's figures."""
    return alternated({"alone": args}, repeat)["alone"]
