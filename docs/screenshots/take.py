"""Take the README screenshots of the window under Xvfb at 1366x768.

    Xvfb :97 -screen 0 1366x768x24 -nolisten tcp &
    DISPLAY=:97 python docs/screenshots/take.py            # all of them
    DISPLAY=:97 python docs/screenshots/take.py compare    # one
    python docs/screenshots/take.py --sizes                # the laptop matrix, below

SHOT_SIZE=1440x900 (with a screen that size), SHOT_LANG=en|ko and SHOT_DIR=folder take them
elsewhere, to look at other sizes without touching the committed ones. `--sizes` starts its
own Xvfb for each laptop size (1366x768, 1440x900) and takes the single and compare views in
Korean and English into docs/screenshots/sizes/VIEW-WxH-LANG.png.

Each view runs in its own process on a fresh copy of the bundled sample, with its own settings
folder, and is captured from the screen by Qt (the window alone when there is no screen).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
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
    "machines": "machines.png",  # the Agreement tab's reviewers, an LLM judge marked a machine
}
SIZE = tuple(int(n) for n in os.environ.get("SHOT_SIZE", "1366x768").split("x"))
OUT = Path(os.environ.get("SHOT_DIR", HERE))
NAME = os.environ.get("SHOT_NAME", "")  # put before ".png" (the --sizes matrix)
LAPTOPS = ("1366x768", "1440x900")
MATRIX_VIEWS = ("main", "compare")


def language(view: str) -> str:
    return os.environ.get("SHOT_LANG") or ("en" if view == "english" else "ko")


def prepare(view: str, base: Path) -> tuple[Path, str]:
    from desktop.app.sample import load_sample
    from desktop.project import Project

    english = language(view) == "en"
    me, other = ("kim", "lee") if english else ("김검수", "이검수")
    home = base / "home"
    home.mkdir()
    lang = "en" if english else "ko"
    (home / "settings.ini").write_text(
        f"[General]\nreviewer={me}\nlanguage={lang}\n", encoding="utf-8"
    )
    os.environ["RECALL_REVIEWER_HOME"] = str(home)
    db = base / "review.db"
    if view == "welcome":
        (home / "settings.ini").write_text(f"[General]\nlanguage={lang}\n", encoding="utf-8")
        return db, ""
    with Project(db) as project:
        list(load_sample(project))
        judge = project.add_judgement
        if view in ("disagreement", "english", "machines"):
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
            if view == "machines":  # an LLM judge's lines, then the judge marked a machine
                judge("gpt-4o", "q01", "role", "core", passage_id="art-128")
                for qid in ("q02", "q04", "q06"):
                    judge("gpt-4o", qid, "answerable", qid != "q04")
                project.mark_reviewer("gpt-4o", True)
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
                window.pool_panel.settle()  # its excerpts are read on the queue's worker
            elif view == "compare":
                window.show_question("q05")
                window.set_compare("BM25-Bigram")
                window.metrics_dock.tabs.setCurrentIndex(2)  # the comparison
            else:
                window.question_panel.only_disputed.setChecked(True)
                window.show_question("q01")
                if view in ("english", "machines"):
                    window.metrics_dock.tabs.setCurrentIndex(1)
            QTimer.singleShot(2000, capture)

        def capture() -> None:
            # The screen as shown (menus and dialogs included); no screen (offscreen): the
            # window as it paints itself.
            shot = window.screen().grabWindow(0)
            if shot.isNull() or shot.width() < SIZE[0]:
                shot = window.grab()
            shot.save(str(OUT / VIEWS[view].replace(".png", f"{NAME}.png")))
            window.close()
            qapp.quit()

        def wait() -> None:
            if window.metrics_busy():
                QTimer.singleShot(100, wait)
            else:
                QTimer.singleShot(300, arrange)

        QTimer.singleShot(500, wait)
        qapp.exec()


def laptops() -> None:
    """The single and compare views at each laptop size, in Korean and English."""
    out = HERE / "sizes"
    out.mkdir(exist_ok=True)
    for n, size in enumerate(LAPTOPS):
        display = f":{187 + n}"
        screen = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(1)
            for lang in ("ko", "en"):
                env = dict(
                    os.environ,
                    DISPLAY=display,
                    QT_QPA_PLATFORM="xcb",
                    SHOT_SIZE=size,
                    SHOT_LANG=lang,
                    SHOT_DIR=str(out),
                    SHOT_NAME=f"-{size}-{lang}",
                )
                for view in MATRIX_VIEWS:
                    command = [sys.executable, __file__, "--one", view]
                    subprocess.run(command, check=True, cwd=ROOT, env=env)
                    print(out / f"{view}-{size}-{lang}.png")
        finally:
            screen.terminate()
            screen.wait()


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        shoot(sys.argv[2])
        return
    if sys.argv[1:] == ["--sizes"]:
        laptops()
        return
    for view in sys.argv[1:] or list(VIEWS):
        subprocess.run([sys.executable, __file__, "--one", view], check=True, cwd=ROOT)
        print(OUT / VIEWS[view])


if __name__ == "__main__":
    main()
