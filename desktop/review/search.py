"""Corpus search and a passage's neighbours, and where a passage comes from."""

from __future__ import annotations


def has_corpus(project) -> bool:
    return project.reads.corpus() is not None


def passage_context(project, passage_pk: int, around: int = 2) -> tuple[dict | None, list, list]:
    """A passage with its neighbours in corpus order: (passage, before, after)."""
    found = project.reads.passages_by_pk([passage_pk]).get(passage_pk)
    if found is None:
        return None, [], []
    near = project.reads.neighbours(passage_pk, around, around)
    return (
        found,
        [p for p in near if p["pk"] < passage_pk],
        [p for p in near if p["pk"] > passage_pk],
    )


def source_label(title: str | None, meta: dict, limit: int = 3) -> str:
    """Where a passage comes from, for a table cell: its title and first metadata values."""
    parts = [title] if title else []
    for value in list(meta.values())[:limit]:
        if value in (None, "") or isinstance(value, (dict, list)):
            continue
        text = str(value)
        if text not in parts:
            parts.append(text)
    return " · ".join(parts)
