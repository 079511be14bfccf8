"""A BEIR folder: its corpus, queries and qrels of one split."""

from __future__ import annotations

from pathlib import Path

from desktop.readers.corpus import base_name
from desktop.readers.opening import InputError

BEIR_FILES = (("corpus", "corpus.jsonl"), ("questions", "queries.jsonl"), ("gold", "qrels"))


def beir_files(folder, split: str = "test") -> dict[str, Path]:
    """corpus.jsonl, queries.jsonl and qrels/SPLIT.tsv of a BEIR folder (each may be .gz),
    by kind; a missing one is refused, naming the splits there are."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(
            folder,
            None,
            "not a folder; a BEIR dataset is a folder of corpus.jsonl, queries.jsonl and qrels/",
        )
    found: dict[str, Path] = {}
    for kind, name in BEIR_FILES:
        name = f"qrels/{split}.tsv" if kind == "gold" else name
        for candidate in (folder / name, folder / f"{name}.gz"):
            if candidate.is_file():
                found[kind] = candidate
                break
        else:
            splits = sorted(base_name(p) for p in (folder / "qrels").glob("*.tsv*") if p.is_file())
            there = f" (its splits: {', '.join(splits)}; choose with --split)" if splits else ""
            raise InputError(folder, None, f"no {name} in this BEIR folder{there}")
    return found
