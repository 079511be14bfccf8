"""Take the GraphRAG screenshots: the GraphRAG/LightRAG study of the tests (documents, a
160-character chunking with a BM25 run, a GraphRAG output folder with its saved contexts and a
LightRAG store with its results, imported through the command line; tests/readers/
test_graph_import.py) open with the GraphRAG run selected, its best-covering text unit in the
reader inside its document with the context's entities, relationships and reports listed, at
1366x768 and 1440x900, Korean and English, into this folder as graphrag-WxH-LANG.png. Writing
the GraphRAG folder needs pyarrow (the test extra).

    python docs/screenshots/graph/take.py          # all four, offscreen
    python docs/screenshots/graph/take.py --one 1366x768 ko

Each shot runs in its own process on a fresh study database with its own settings folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SIZES = ("1366x768", "1440x900")
QUESTION = os.environ.get("SHOT_QUESTION", "q1")
SYSTEM = "GraphRAG"


def shoot(size: str, lang: str) -> None:
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="rr-graph-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        me = "kim" if lang == "en" else "김검수"
        (home / "settings.ini").write_text(
            f"[General]\nreviewer={me}\nlanguage={lang}\n", encoding="utf-8"
        )
        os.environ["RECALL_REVIEWER_HOME"] = str(home)
        from tests.readers.test_graph_import import build_study

        db = build_study(Path(tmp))[0]
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from desktop.ui import app as ui_app

        qapp = QApplication(["recall-reviewer"])
        ui_app.configure(qapp)
        from desktop.ui.window import MainWindow

        window = MainWindow(db, reviewer=me)
        width, height = (int(n) for n in size.split("x"))
        window.move(0, 0)
        window.resize(width, height)
        window.show()

        def arrange() -> None:
            window.show_question(QUESTION)
            window.set_system(SYSTEM)
            model = window.ranking_panels[0].model
            rows = [model.row(n) for n in range(model.rowCount())]
            best = max(
                range(len(rows)), key=lambda n: max((c for _, c in rows[n].coverage), default=0)
            )
            window.select_passage(best)
            QTimer.singleShot(1500, capture)

        def capture() -> None:
            window.grab().save(str(HERE / f"graphrag-{size}-{lang}.png"))
            window.close()
            qapp.quit()

        def wait() -> None:
            if window.metrics_busy():
                QTimer.singleShot(100, wait)
            else:
                QTimer.singleShot(300, arrange)

        QTimer.singleShot(500, wait)
        qapp.exec()


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        shoot(sys.argv[2], sys.argv[3])
        return
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    for size in SIZES:
        for lang in ("ko", "en"):
            subprocess.run([sys.executable, __file__, "--one", size, lang], check=True, env=env)
            print(HERE / f"graphrag-{size}-{lang}.png")


if __name__ == "__main__":
    main()
