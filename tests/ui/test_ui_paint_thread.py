"""The window paints on its own thread: Qt's raster engine would hand a large fill to a pool
of threads and wait for them, and on a laptop's cores busy with the window's workers that
wait cost more than the fill (2-5 ms of a key's paint in one scroll bar at a million
passages). desktop.ui turns the pool off with Qt's own switch, QT_NO_GUI_THREADPOOL. Checked
in a fresh interpreter, where nothing has painted before the package is imported; the
pool's threads are named "Thread (pooled)"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Fills large enough for Qt to split them between threads (a window's worth, blended),
# then the names of the process's threads.
CHILD = """
import glob, json, sys
if sys.argv[1] == "window":
    import desktop.ui
from PySide6.QtCore import QRect
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QImage, QLinearGradient, QPainter

app = QGuiApplication([])
image = QImage(1366, 768, QImage.Format.Format_ARGB32_Premultiplied)
painter = QPainter(image)
gradient = QLinearGradient(0, 0, 0, 768)
gradient.setColorAt(0, QColor("white"))
gradient.setColorAt(1, QColor("navy"))
painter.fillRect(QRect(0, 0, 1366, 768), QBrush(gradient))
painter.fillRect(QRect(0, 0, 1366, 768), QColor(10, 20, 30, 128))  # blended over it
painter.end()
print(json.dumps([open(p).read().strip() for p in glob.glob("/proc/self/task/*/comm")]))
"""


def threads_after_a_fill(mode: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "QT_NO_GUI_THREADPOOL"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="thread names from /proc")
def test_the_window_fills_without_qt_s_thread_pool():
    # Without the window's package, Qt starts its pool for this fill (so the check can fail).
    assert "Thread (pooled)" in threads_after_a_fill("bare")
    assert "Thread (pooled)" not in threads_after_a_fill("window")
