"""Take the GraphRAG screenshots: the GraphRAG/LightRAG study of the tests (documents, a
160-character chunking with a BM25 run, a GraphRAG output folder with its saved contexts and a
LightRAG store with its results, imported through the command line; tests/readers/
test_graph_import.py) open with the GraphRAG run selected, its best-covering text unit in the
reader inside its document with the context's entities, relationships and reports listed, at
1366x768 and 1440x900, Korean and English, into this folder as graphrag-WxH-LANG.png. Writing
the GraphRAG folder needs pyarrow (the test extra). The shooting is spans/take.py's.

    python docs/screenshots/graph/take.py          # all four, offscreen
    python docs/screenshots/graph/take.py --one 1366x768 ko
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parent / "spans"))

import take as spans  # noqa: E402  (docs/screenshots/spans/take.py)

QUESTION = os.environ.get("SHOT_QUESTION", "q1")


def graph_study(folder: Path) -> Path:
    from tests.readers.test_graph_import import build_study

    return build_study(folder)[0]


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        shot = (QUESTION, "GraphRAG", "graphrag", HERE)
        spans.shoot(sys.argv[2], sys.argv[3], graph_study, shot)
        return
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    for size in spans.SIZES:
        for lang in ("ko", "en"):
            subprocess.run([sys.executable, __file__, "--one", size, lang], check=True, env=env)
            print(HERE / f"graphrag-{size}-{lang}.png")


if __name__ == "__main__":
    main()
