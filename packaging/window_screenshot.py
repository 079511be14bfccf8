"""Open the window on a database, let it settle, save a screenshot, print what it drew with.

    python packaging/window_screenshot.py DB OUT.png [SECONDS [PLATFORM]]

The Wine smoke test (packaging/wine_smoke.py) runs it with the Windows folder's python.exe and
Qt's offscreen platform (named on the command line: Wine does not hand QT_QPA_PLATFORM to
Windows programs); it works with any Python that has the app installed. Prints one JSON
line: whether the PNG was saved, the font family the window draws with, and whether that font
has Hangul glyphs (under Wine, which has no Hangul font, it must be the bundled NanumGothic).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from desktop.ui.app import configure
from desktop.ui.crash import install_crash_dialog
from desktop.ui.window import MainWindow


def main(argv: list[str]) -> int:
    db, out = Path(argv[0]), Path(argv[1])
    seconds = float(argv[2]) if len(argv) > 2 else 4.0
    platform = ["-platform", argv[3]] if len(argv) > 3 else []
    app = QApplication(["recall-reviewer", *platform])
    configure(app)
    install_crash_dialog()  # as desktop.ui.app.run() does: it starts the log file too
    window = MainWindow(db, reviewer="검토자")
    window.resize(1280, 800)
    window.show()
    QTimer.singleShot(int(seconds * 1000), app.quit)
    app.exec()
    saved = window.grab().save(str(out), "PNG")
    metrics = QFontMetrics(app.font())
    report = {
        "saved": saved,
        "platform": QApplication.platformName(),
        "font": app.font().family(),
        "hangul": all(metrics.inFont(c) for c in "검토자"),
        "title": window.windowTitle(),
    }
    print(json.dumps(report, ensure_ascii=True))
    window.close()
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
