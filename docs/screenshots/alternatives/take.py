"""Take the candidate-alternative screenshots (issue 21): the bundled sample with a planted
near copy of q01's item art-128 in another place (tests/ui/planted.py), open on q01 with
BM25-Bigram shown (it ranks the copy 2nd and misses art-128 at 5), art-128 selected in the
evidence panel, its candidates listed under it and the first one picked (in the reader), at
1366x768, Korean and English, into this folder as alternatives-1366x768-LANG.png; and the
unjudged pool with the copy marked ≈ as a candidate of art-128, as pool-1366x768-LANG.png. The
shooting is spans/take.py's.

    Xvfb :61 -screen 0 1366x768x24 -nolisten tcp &
    DISPLAY=:61 QT_QPA_PLATFORM=xcb python docs/screenshots/alternatives/take.py
    python docs/screenshots/alternatives/take.py --one 1366x768 ko     # one, offscreen
    python docs/screenshots/alternatives/take.py --pool 1366x768 ko
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

from tests.ui.planted import COPY_ID, ITEM, QUESTION, SYSTEM, planted_sample  # noqa: E402

SIZES = ("1366x768",)


def pick_candidate(window) -> None:
    """Select the item, then pick its first candidate once the worker has listed it."""
    from PySide6.QtCore import QTimer

    window.select_item([i.primary_id for i in window.view.items].index(ITEM))
    panel = window.evidence_panel.candidates

    def first() -> None:
        if panel.model.rowCount():
            panel.table.selectRow(0)
        else:
            QTimer.singleShot(100, first)

    QTimer.singleShot(100, first)


def pool_in_front(window) -> None:
    """The unjudged pool brought forward, the marked copy picked."""
    window.middle_tabs.setCurrentWidget(window.pool_panel)
    window.pool_panel.settle()  # its excerpts are read on the queue's worker
    model = window.pool_panel.model
    rows = [r.passage_id for r in model.rows]
    if COPY_ID in rows:
        window.pool_panel.choose(rows.index(COPY_ID))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] in ("--one", "--pool"):
        pool = sys.argv[1] == "--pool"
        shot = (QUESTION, SYSTEM, "pool" if pool else "alternatives", HERE)
        then = pool_in_front if pool else pick_candidate
        spans.shoot(sys.argv[2], sys.argv[3], planted_sample, shot, then)
        return
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    for size in SIZES:
        for lang in ("ko", "en"):
            for view, name in (("--one", "alternatives"), ("--pool", "pool")):
                command = [sys.executable, __file__, view, size, lang]
                subprocess.run(command, check=True, env=env)
                print(HERE / f"{name}-{size}-{lang}.png")


if __name__ == "__main__":
    main()
