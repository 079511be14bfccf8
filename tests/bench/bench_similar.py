"""Similar passages (db/similar.py): speed and quality. Prints one JSON object; asserts nothing.

Speed: `Project.similar` for --queries random passages of a corpus of --passages, p50/p95/max
in ms, and the import's time and the bigram index's share (the index similar reads is the one
search already builds: no cost is added to an import). The corpus is drawn from the words of
real Korean text (the sample's constitution and the seed document), Zipf-weighted, so that
pairs of characters are as varied as the words make them (the synthetic vocabulary of
tests/bench/common.py has a few hundred pairs only, which no real corpus is like).

Quality (--quality): a set made from real Korean text (every passage of the sample, and the
seed document cut into paragraphs), where some passages get a near copy (a few characters
dropped, numbers changed) and others a paraphrase (clauses reordered, a third of the words
dropped, particles changed); for each, the rank of its known copy among its similar passages,
for db/similar.py and for TF-IDF cosine over every character pair and triple (brute force).

Measured on the shared 2-core machine (2026-12-04): 1,000,000 passages, import 147 s (the same
import as before: nothing is built for similar), similar p50 59 ms, p95 92 ms, max 166 ms;
100,000 passages, p95 33 ms.

    python tests/bench/bench_similar.py [--passages 200000] [--queries 100] | --quality [--pairs 40]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import PY, ROOT, resource_run  # noqa: E402

SEED_TEXT = Path("/work/shared/seed/000_7d11b39efd40ae50.txt")
SAMPLE = ROOT / "resources" / "sample" / "corpus.jsonl"
PARTICLES = {"은": "는", "는": "은", "이": "가", "가": "이", "을": "를", "를": "을", "에": "에서"}


def real_texts() -> list[str]:
    """The sample's passages and the seed document's paragraphs (when it is present)."""
    with open(SAMPLE, encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f]
    if SEED_TEXT.exists():
        paragraphs = re.split(r"\n\s*\n", SEED_TEXT.read_text(encoding="utf-8"))
        texts += [p.strip() for p in paragraphs if len(p.strip()) >= 60]
    return texts


def near_copy(text: str, rng: random.Random) -> str:
    """A few characters dropped and the digits changed: a copy set again elsewhere."""
    kept = [c for c in text if rng.random() > 0.03]
    return re.sub(r"\d", lambda m: str((int(m.group()) + 1) % 10), "".join(kept))


def paraphrase(text: str, rng: random.Random) -> str:
    """Clauses reordered, a third of the words dropped and particles changed."""
    clauses = re.split(r"(?<=[,.])\s+", text)
    rng.shuffle(clauses)
    out = []
    for word in " ".join(clauses).split():
        if rng.random() < 0.33:
            continue
        if word[-1] in PARTICLES and rng.random() < 0.5:
            word = word[:-1] + PARTICLES[word[-1]]
        out.append(word)
    return " ".join(out)


def grams(text: str) -> Counter:
    flat = re.sub(r"\s+", " ", text)
    found = Counter(flat[i : i + 2] for i in range(len(flat) - 1))
    found.update(flat[i : i + 3] for i in range(len(flat) - 2))
    return found


def tfidf_ranks(texts: list[str], pairs: list[tuple[int, int]]) -> list[int]:
    """The rank of each pair's copy among all other passages by TF-IDF cosine (brute force)."""
    counts = [grams(t) for t in texts]
    df = Counter(g for c in counts for g in c)
    vectors = []
    for c in counts:
        v = {g: (1 + math.log(n)) * math.log(len(texts) / df[g]) for g, n in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        vectors.append({g: x / norm for g, x in v.items()})
    ranks = []
    for source, copy in pairs:
        q = vectors[source]
        sims = [
            (-sum(x * q.get(g, 0.0) for g, x in v.items()), i)
            for i, v in enumerate(vectors)
            if i != source
        ]
        ranks.append(1 + [i for _, i in sorted(sims)].index(copy))
    return ranks


def quality(base: Path, pairs_wanted: int) -> dict:
    from desktop.project import Project

    rng = random.Random(21)
    texts = real_texts()
    chosen = rng.sample(range(len(texts)), min(pairs_wanted, len(texts)))
    kinds, pairs = [], []
    for n, source in enumerate(chosen):
        make = near_copy if n % 2 == 0 else paraphrase
        texts.append(make(texts[source], rng))
        kinds.append(make.__name__)
        pairs.append((source, len(texts) - 1))
    corpus = base / "quality.jsonl"
    with open(corpus, "w", encoding="utf-8") as f:
        for i, text in enumerate(texts):
            f.write(json.dumps({"id": f"q{i:04d}", "text": text}, ensure_ascii=False) + "\n")
    db = base / "quality.db"
    resource_run([PY, "-m", "desktop", "--db", str(db), "init"])
    resource_run([PY, "-m", "desktop", "--db", str(db), "import", "corpus", str(corpus)])
    ours, copy_scores, best_other = [], [], []
    with Project(db) as project:
        for source, copy in pairs:
            alike = project.similar(f"q{source:04d}", 1000).similar
            found = [a.passage_id for a in alike]
            ours.append(1 + found.index(f"q{copy:04d}") if f"q{copy:04d}" in found else None)
            scores = {a.passage_id: a.score for a in alike}
            copy_scores.append(scores.pop(f"q{copy:04d}", 0.0))
            best_other.append(max(scores.values(), default=0.0))
    theirs = tfidf_ranks(texts, pairs)
    out: dict = {"passages": len(texts)}
    for kind in ("near_copy", "paraphrase"):
        mine = [r for r, k in zip(ours, kinds, strict=True) if k == kind]
        ref = [r for r, k in zip(theirs, kinds, strict=True) if k == kind]
        out[kind] = {
            "pairs": len(mine),
            "similar_first": sum(r == 1 for r in mine),
            "similar_ranks": mine,
            "tfidf_first": sum(r == 1 for r in ref),
            "tfidf_ranks": ref,
            # The scores the candidate rule's threshold is set between (desktop/gold/candidates.py)
            "copy_scores": sorted(c for c, k in zip(copy_scores, kinds, strict=True) if k == kind),
        }
    out["best_other_scores"] = sorted(best_other, reverse=True)
    return out


def zipf_corpus(path: Path, n: int, rng: random.Random) -> Path:
    """n passages of 60 words drawn from real Korean words, the k-th most common at 1/k."""
    words = Counter(w for t in real_texts() for w in t.split())
    vocab = [w for w, _ in words.most_common()]
    weights = [1 / (k + 1) for k in range(len(vocab))]
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            text = " ".join(rng.choices(vocab, weights, k=60))
            f.write(json.dumps({"id": f"p{i:07d}", "text": text}, ensure_ascii=False) + "\n")
    return path


def speed(base: Path, passages: int, queries: int) -> dict:
    from desktop.project import Project

    rng = random.Random(7)
    corpus = zipf_corpus(base / "corpus.jsonl", passages, rng)
    db = base / "bench.db"
    resource_run([PY, "-m", "desktop", "--db", str(db), "init"])
    wall, peak, _ = resource_run(
        [PY, "-m", "desktop", "--db", str(db), "import", "corpus", str(corpus)]
    )
    out: dict = {
        "passages": passages,
        "import": {"s": round(wall, 1), "peak_rss_mb": round(peak, 1)},
    }
    corpus.unlink()
    times, found = [], []
    with Project(db) as project:
        project.similar("p0000000", 10)  # opens the tables; not counted
        for _ in range(queries):
            pid = f"p{rng.randrange(passages):07d}"
            start = time.perf_counter()
            result = project.similar(pid, 10)
            times.append((time.perf_counter() - start) * 1000)
            found.append(len(result.similar))
    ordered = sorted(times)
    out["similar"] = {
        "queries": queries,
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 2),
        "max_ms": round(ordered[-1], 2),
        "found_min": min(found),
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--quality", action="store_true")
    parser.add_argument("--pairs", type=int, default=40, help="--quality: copies made")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")  # backups stay in here
        if args.quality:
            out = {"bench": "similar quality", **quality(base, args.pairs)}
        else:
            out = {"bench": "similar speed", **speed(base, args.passages, args.queries)}
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
