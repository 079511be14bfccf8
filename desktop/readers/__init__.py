"""Readers of the files Recall Reviewer imports (design section 4), one module per kind of file.

Each reader streams a file and yields plain records with their line numbers; anything wrong
raises ``InputError`` carrying ``FILE:LINE: what is wrong``. Readers never touch the store and
import only the standard library and `desktop.app.terminal`. The names below are the readers'
public API, so callers write ``from desktop.readers import read_gold, InputError``."""

from desktop.readers.beir import BEIR_FILES, beir_files
from desktop.readers.corpus import (
    CORPUS_SUFFIXES,
    QUESTION_FILE_NAMES,
    CorpusFiles,
    PassageRecord,
    corpus_files,
    file_sizes,
    read_corpus,
)
from desktop.readers.gold import (
    LEVEL_MEANINGS,
    EvidenceRecord,
    GoldRecord,
    level_role,
    parse_levels,
    read_gold,
)
from desktop.readers.json_dict import JSON_DICT_LIMIT
from desktop.readers.judgements import (
    DISMISSED,
    KINDS,
    PASSAGE_KINDS,
    SPAN_KINDS,
    JudgementRecord,
    check_judgement_value,
    read_judgements,
)
from desktop.readers.kinds import (
    ACCEPTED,
    EXTENSIONS,
    FORMATS,
    REQUIRED,
    ROLES,
    format_suffix,
    is_json_dict,
    pick_format,
)
from desktop.readers.opening import (
    GZIP_ERRORS,
    MAX_LINE_BYTES,
    SHOWN,
    Cancelled,
    InputError,
    Progress,
    gzip_refusal,
    nfc,
    nfc_same,
    open_bytes,
    open_input,
    read_lines,
    regular_file,
    sniff_encoding,
)
from desktop.readers.questions import QUESTION_HEADERS, QuestionRecord, read_questions
from desktop.readers.runs import RankedList, read_run

__all__ = [
    "Progress",
    "InputError",
    "Cancelled",
    "nfc",
    "nfc_same",
    "open_bytes",
    "GZIP_ERRORS",
    "gzip_refusal",
    "MAX_LINE_BYTES",
    "regular_file",
    "open_input",
    "read_lines",
    "SHOWN",
    "sniff_encoding",
    "FORMATS",
    "EXTENSIONS",
    "ACCEPTED",
    "ROLES",
    "pick_format",
    "format_suffix",
    "REQUIRED",
    "is_json_dict",
    "PassageRecord",
    "CORPUS_SUFFIXES",
    "corpus_files",
    "QUESTION_FILE_NAMES",
    "file_sizes",
    "read_corpus",
    "CorpusFiles",
    "BEIR_FILES",
    "beir_files",
    "QuestionRecord",
    "QUESTION_HEADERS",
    "read_questions",
    "EvidenceRecord",
    "GoldRecord",
    "read_gold",
    "LEVEL_MEANINGS",
    "parse_levels",
    "level_role",
    "RankedList",
    "read_run",
    "JSON_DICT_LIMIT",
    "KINDS",
    "DISMISSED",
    "PASSAGE_KINDS",
    "SPAN_KINDS",
    "JudgementRecord",
    "check_judgement_value",
    "read_judgements",
]
