"""The window's import goes through the same regular-file check as the command line: a named
pipe chosen in the file dialog is refused with its kind named, neither the import dialog (which
sniffs the encoding) nor the import waiting for a writer that never comes."""

from __future__ import annotations

import os

import pytest

from desktop.ui.window import MainWindow
from tests.helpers import snapshot

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def test_a_fifo_chosen_in_the_window_is_refused(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    fifo = tmp_path / "corpus.jsonl"
    os.mkfifo(fifo)
    from desktop.ui.dialogs import ImportDialog

    dialog = ImportDialog("corpus", fifo, False, window)  # sniffing the encoding: no wait
    assert dialog.options()["encoding"] in (None, "utf-8")
    before = snapshot(db_path)
    window.files.start_import("corpus", fifo)
    qtbot.waitUntil(lambda: window.message_box is not None and window.message_box.isVisible())
    assert f"{fifo}: is a named pipe (FIFO), not a file" in window.last_message
    assert snapshot(db_path) == before
    assert window.pages.currentIndex() == MainWindow.PAGE_EMPTY
