"""Take the span screenshots: the bundled study (the Constitution cut three ways, a BM25 run on
each; `recall-reviewer demo --study`) open on a question with the 500-character run selected,
its best-covering passage in the reader inside its document, at 1366x768 and 1440x900, Korean
and English, into this folder as study-WxH-LANG.png.

    python docs/screenshots/spans/take.py          # all four, offscreen
    python docs/screenshots/spans/take.py --one 1366x768 ko

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
QUESTION = os.environ.get("SHOT_QUESTION", "q05")
SYSTEM = "BM25-c500o100"


def study(folder: Path) -> Path:
    """The bundled chunking study in a fresh database in folder."""
    from desktop.app.sample import load_study
    from desktop.project import Project

    db = folder / "study.db"
    with Project(db) as project:
        list(load_study(project))
    return db


def shoot(size: str, lang: str, build=study, shot=None, then=None) -> None:
    """One screenshot: build(folder) makes the database; shot is (question, system, file
    name prefix, folder), this study's by default; then(window), when given, arranges more
    after the passage is selected."""
    question, system, prefix, out = shot or (QUESTION, SYSTEM, "study", HERE)
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="rr-shot-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        me = "kim" if lang == "en" else "김검수"
        (home / "settings.ini").write_text(
            f"[General]\nreviewer={me}\nlanguage={lang}\n", encoding="utf-8"
        )
        os.environ["RECALL_REVIEWER_HOME"] = str(home)
        db = build(Path(tmp))
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
            window.show_question(question)
            window.set_system(system)
            model = window.ranking_panels[0].model
            rows = [model.row(n) for n in range(model.rowCount())]
            best = max(
                range(len(rows)), key=lambda n: max((c for _, c in rows[n].coverage), default=0)
            )
            window.select_passage(best)
            if then is not None:
                then(window)
            QTimer.singleShot(1500, capture)

        def capture() -> None:
            window.grab().save(str(out / f"{prefix}-{size}-{lang}.png"))
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
            print(HERE / f"study-{size}-{lang}.png")


if __name__ == "__main__":
    main()
