"""Qt-free helpers the window's review session needs beyond desktop.review."""

from __future__ import annotations

from collections.abc import Iterable

TEXT_CHARS = 1500  # of an evidence item's passage: enough for a row's excerpt and its tooltip


def item_texts(project, items: Iterable) -> dict[int, str]:
    """The start of each evidence item's primary passage text, by passage key, in one query."""
    pks = [item.primary_pk for item in items]
    if not pks:
        return {}
    excerpts = project.reads.passage_excerpts(pks, TEXT_CHARS)
    return {pk: text or "" for pk, (_title, text) in excerpts.items()}
