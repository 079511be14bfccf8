"""Issue 23 item 6: nothing the window does after it is shown imports a module. The first
judgement of a session used to import sqlite-utils (and, through it, numpy and pandas when
installed) on the GUI thread at its first write. Checked in a fresh interpreter: in this one
the test fixtures have imported sqlite-utils already (making the sample migrates it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("numpy", "pandas", "sqlite_utils")

# Opens the real window on the database, waits for its first metrics pass, then judges the
# first item of the first question with key 1 and waits for the second metrics pass; prints
# the modules imported between the window being shown and the end.
CHILD = """
import json, sys
import desktop.ui
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from desktop.ui.window import MainWindow

app = QApplication([])
window = MainWindow(sys.argv[1], reviewer="kim")
window.resize(1366, 768)
window.show()

def settle():
    for _ in range(2000):
        app.processEvents()
        if not window.metrics_busy():
            break
        QTest.qWait(10)
    app.processEvents()

settle()
before = set(sys.modules)
window.show_question("q03")
window.select_item(0)
QTest.keyClick(window, Qt.Key.Key_1)
settle()
written = window.project.reads.judgements(question_id="q03")
print(json.dumps({"gained": sorted(set(sys.modules) - before), "lines": len(written)}))
window.close()
"""


def test_a_judgement_imports_nothing_heavy(sample_db):
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(sample_db)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["lines"] == 1  # the key wrote its line, so the write path really ran
    heavy = [m for m in found["gained"] if m.split(".")[0] in HEAVY]
    assert heavy == []
    assert found["gained"] == []  # nor anything else: every import is paid before it shows
