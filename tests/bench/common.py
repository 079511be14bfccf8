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


def resource_run(args: list[str], cwd: Path = ROOT) -> tuple[float, float, str]:
    """Run a child: (wall seconds, the child's own peak RSS in MB, its stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{args} failed: {err.decode()[-2000:]}")
    return wall, usage.ru_maxrss / 1024, out.decode()


def measure(args: list[str], repeat: int = 5) -> dict:
    """Median and best wall time over `repeat` runs, and the largest peak memory."""
    walls, peaks = [], []
    for _ in range(repeat):
        wall, peak, _ = resource_run(args)
        walls.append(wall)
        peaks.append(peak)
    return {
        "median_s": round(statistics.median(walls), 4),
        "min_s": round(min(walls), 4),
        "peak_rss_mb": round(max(peaks), 1),
        "runs": repeat,
    }
