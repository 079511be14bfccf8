"""Take the README screenshots of the window under Xvfb at 1366x768.

    Xvfb :97 -screen 0 1366x768x24 -nolisten tcp &
    DISPLAY=:97 python docs/screenshots/take.py            # all of them
    DISPLAY=:97 python docs/screenshots/take.py compare    # one

SHOT_SIZE=1440x900 (with a screen that size) and SHOT_DIR=folder take them elsewhere, to look
at other sizes without touching the committed ones.

Each view runs in its own process on a fresh copy of the bundled sample, with its own settings
folder, and is captured with ImageMagick's `import -window root`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VIEWS = {
    "main": "main.png",  # Korean, a question with a miss, the passage viewer
    "compare": "compare.png",  # BM25-Kiwi over BM25-Bigram, the comparison tab below
    "disagreement": "disagreement.png",  # two reviewers, the queue and adjudication keys
    "english": "english.png",  # the English UI with the agreement panel
    "welcome": "welcome.png",  # the first run: the welcome panel on an empty database
    "pool": "pool.png",  # the unjudged pool queue, its passage in the reader
}
SIZE = tuple(int(n) for n in os.environ.get("SHOT_SIZE", "1366x768").split("x"))
OUT = Path(os.environ.get("SHOT_DIR", HERE))


def prepare(view: str, base: Path) -> tuple[Path, str]:
    from desktop.project import Project
    from desktop.sample import load_sample

    english = view == "english"
    me, other = ("kim", "lee") if english else ("김검수", "이검수")
    home = base / "home"
    home.mkdir()
    language = "en" if english else "ko"
    (home / "settings.ini").write_text(
        f"[General]\nreviewer={me}\nlanguage={language}\n", encoding="utf-8"
    )
    os.environ["RECALL_REVIEWER_HOME"] = str(home)
    db = base / "review.db"
    if view == "welcome":
        (home / "settings.ini").write_text(f"[General]\nlanguage={language}\n", encoding="utf-8")
        return db, ""
    with Project(db) as project:
        list(load_sample(project))
        judge = project.add_judgement
        if view in ("disagreement", "english"):
            judge(me, "q01", "role", "core", passage_id="art-128")
            judge(other, "q01", "role", "supporting", passage_id="art-128")
            judge(
                other,
                "q01",
                "note",
                "Term-extension clause: supporting is enough"
                if english
                else "임기 연장 조항은 보조 근거로 충분함",
                passage_id="art-128",
            )
            judge(
                me,
                "q01",
                "note",
                "Direct basis of the one-term rule: core"
                if english
                else "중임 금지의 직접 근거라 핵심으로 봄",
                passage_id="art-128",
            )
            judge(me, "q03", "alternative", "art-071", passage_id="art-066")
            judge(other, "q03", "alternative", "art-068", passage_id="art-066")
            for qid in ("q02", "q04", "q06"):
                judge(me, qid, "answerable", True)
                judge(other, qid, "answerable", True)
        else:
            for qid, pid, role in (
                ("q02", "art-067", "core"),
                ("q04", "art-111", "supporting"),
                ("q06", "art-041", "supporting"),
            ):
                judge(me, qid, "role", role, passage_id=pid)
                judge(me, qid, "answerable", True)
    return db, me


def shoot(view: str) -> None:
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="rr-shot-") as tmp:
        db, me = prepare(view, Path(tmp))
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from desktop.ui import app as ui_app

        qapp = QApplication(["recall-reviewer"])
        ui_app.configure(qapp)
        from desktop.ui.window import MainWindow

        window = MainWindow(db, reviewer=me or None)
        window.move(0, 0)
        window.resize(*SIZE)
        window.show()

        def arrange() -> None:
            if view == "welcome":
                pass
            elif view == "main":
                window.show_question("q03")
            elif view == "pool":
                window.question_panel.only_unjudged.setChecked(True)
                window.show_question("q05")
                window.middle_tabs.setCurrentWidget(window.pool_panel)
            elif view == "compare":
                window.show_question("q05")
                window.set_compare("BM25-Bigram")
                window.metrics_dock.tabs.setCurrentIndex(2)  # the comparison
            else:
                window.question_panel.only_disputed.setChecked(True)
                window.show_question("q01")
                if view == "english":
                    window.metrics_dock.tabs.setCurrentIndex(1)
            QTimer.singleShot(2000, capture)

        def capture() -> None:
            # The screen as shown (menus and dialogs included); no screen (offscreen): the
            # window as it paints itself.
            shot = window.screen().grabWindow(0)
            if shot.isNull() or shot.width() < SIZE[0]:
                shot = window.grab()
            shot.save(str(OUT / VIEWS[view]))
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
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        shoot(sys.argv[2])
        return
    for view in sys.argv[1:] or list(VIEWS):
        subprocess.run([sys.executable, __file__, "--one", view], check=True, cwd=ROOT)
        print(OUT / VIEWS[view])


if __name__ == "__main__":
    main()
