"""The reviewer window: the only package that imports Qt."""

from __future__ import annotations

import sys


def _guard_none_refcount() -> bool:
    """PySide6/shiboken6 6.12.0 returns None from every void method without taking a
    reference, as if None were immortal (it is from Python 3.12 on). On Python 3.11 each call
    then drops None's reference count by one; it starts near 5,000, so the process aborts
    ("none_dealloc: deallocating None") after a few thousand Qt calls — seconds of painting.
    PySide6 6.11.3 does not do this. Until the dependency is pinned away from 6.12.0, give
    None the effectively endless count Python 3.12 gives it. Returns whether it did."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    try:
        from importlib.metadata import version

        if not version("shiboken6").startswith("6.12.0"):
            return False
    except Exception:
        return False
    import ctypes

    # ob_refcnt is the first field of every object in a release build of CPython.
    count = ctypes.c_ssize_t.from_address(id(None))
    count.value += 1 << 48
    return True


NONE_GUARDED = _guard_none_refcount()
