"""The reviewer window: the only package that imports Qt."""

import os

# Qt's raster engine hands a large fill to its own pool of threads and waits for them. On a
# reviewer's laptop the window's workers (the neighbours read ahead, the metrics) keep the
# cores busy, and the wait for a pool thread to be scheduled cost more than the fill: at a
# million passages a next-question key spent 2-5 ms of its paint in one scroll bar's fill
# (QLatch::waitInternal), and painting a key took 19.6 ms with the pool, 15.0 without.
# QT_NO_GUI_THREADPOOL is Qt's own switch for this (read once, at the first fill): set here,
# where every way into the window passes before a QApplication paints; a value the user set
# is kept.
os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
