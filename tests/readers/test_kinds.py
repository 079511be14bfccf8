"""The one list of kinds and formats (desktop/readers/kinds.py): the command line, the import
dialog and its file filters all read it, so they cannot disagree."""

from __future__ import annotations

import pytest

from desktop.app.parser import build_parser
from desktop.readers.kinds import ACCEPTED, EXTENSIONS, FILE_PATTERNS, FORMATS, IMPORT_KINDS


def test_every_kind_has_its_formats_and_its_file_patterns():
    assert set(FILE_PATTERNS) == set(ACCEPTED) and set(IMPORT_KINDS) == {*ACCEPTED, "beir"}
    for kind, formats in ACCEPTED.items():
        assert set(formats) <= set(FORMATS)
        patterns = FILE_PATTERNS[kind].split()
        assert "*.gz" in patterns
        for suffix, fmt in EXTENSIONS.items():
            if fmt in formats:
                assert f"*{suffix}" in patterns, (kind, suffix)


def test_the_command_line_offers_exactly_these_kinds_and_formats(capsys):
    parser = build_parser()
    for kind in IMPORT_KINDS:
        assert parser.parse_args(["import", kind, "f"]).kind == kind
    for fmt in FORMATS:
        assert parser.parse_args(["import", "run", "f", "--format", fmt]).format == fmt
    for wrong in (["import", "passages", "f"], ["import", "run", "f", "--format", "xml"]):
        with pytest.raises(SystemExit):
            parser.parse_args(wrong)
    assert "{" + ",".join(IMPORT_KINDS) + "}" in capsys.readouterr().err
