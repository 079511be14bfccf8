"""Bundled data: the sample project, the Hangul font, icons and translations."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent


def path(*parts: str) -> Path:
    return ROOT.joinpath(*parts)
