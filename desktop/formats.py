"""Readers for the files Recall Reviewer imports (design section 4).

Each reader streams a file and yields plain records with their line numbers; anything wrong
raises ``InputError`` carrying ``FILE:LINE: what is wrong``. Readers never touch the store.
"""

from __future__ import annotations

import codecs
import csv
import errno
import gzip
import io
import json
import math
import os
import re
import shlex
import stat
import sys
import unicodedata
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from desktop.terminal import printable

# progress(done, total, phase=None): bytes read of all the files while reading, then whatever
# the named phase counts ("checking ids", "building the search index").
Progress = Callable[..., None]

FORMATS = ("jsonl", "csv", "tsv", "trec", "qrels", "beir", "json-dict", "msmarco")
EXTENSIONS = {
    ".jsonl": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
    ".trec": "trec",
    ".run": "trec",
    ".qrels": "qrels",
    ".json": "json-dict",
}
ACCEPTED = {
    "corpus": ("jsonl", "csv", "tsv"),
    "questions": ("jsonl", "tsv"),
    "gold": ("jsonl", "qrels", "beir", "json-dict"),
    "run": ("trec", "jsonl", "csv", "json-dict", "msmarco"),
    "judgements": ("jsonl",),
    "documents": ("jsonl",),
}
ROLES = ("core", "supporting")

# A CSV field may be as long as a JSONL line: csv's own limit of 128 KiB is not a rule of ours
# (the C long it is stored in is 32 bits on Windows).
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


class InputError(Exception):
    def __init__(self, path: str | Path, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        # One line whatever the file's name or the values quoted: control characters escaped.
        super().__init__(printable(f"{where}: {message}"))


class Cancelled(Exception):
    """The user cancelled a long import; the transaction around it is rolled back."""


def nfc(text: str) -> str:
    """text in Unicode NFC (design section 10). Korean from macOS files often comes
    decomposed (NFD): it looks the same but matches neither typed words nor the same id
    typed elsewhere. Nearly all text is NFC already, and the check is cheaper than
    normalising, so the million-passage import barely pays for it."""
    if unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def nfc_same(path, line: int, key: str, first: str) -> InputError:
    """Two ids spelled differently that NFC normalisation makes one: refused, both lines
    (first: 'line N', or 'FILE:N' in another file)."""
    return InputError(
        path,
        line,
        f"id {key!r} is the same as {first}'s after Unicode NFC normalisation "
        "(the same characters, composed differently); nothing was imported",
    )


def pick_format(path: str | Path, kind: str, fmt: str | None) -> str:
    accepted = ACCEPTED[kind]
    if fmt is None:
        suffix = format_suffix(path)
        fmt = EXTENSIONS.get(suffix)
        if fmt is None:
            raise InputError(
                path,
                None,
                f"cannot tell the format from the extension '{suffix or '(none)'}'; name it "
                f"with --format ({', '.join(accepted)}) or use .{accepted[0]}",
            )
        if kind == "gold" and fmt == "tsv":
            fmt = "beir"  # BEIR ships its qrels as TSV
        if kind == "run" and fmt == "tsv":
            fmt = "msmarco"  # MS MARCO's runs: qid<TAB>pid<TAB>rank
        if kind in ("run", "gold") and fmt == "jsonl" and is_json_dict(path, kind):
            fmt = "json-dict"
    elif fmt == "jsonl" and kind in ("run", "gold") and is_json_dict(path, kind):
        raise InputError(
            path,
            1,
            'this is one JSON object {"question id": {"passage id": '
            + ("score" if kind == "run" else "level")
            + "}} (ranx / pytrec_eval), not JSON lines; use --format json-dict",
        )
    if fmt not in accepted:
        owner = {"trec": "run", "qrels": "gold"}.get(fmt)
        raise InputError(
            path,
            None,
            f"{kind} files can be {', '.join(accepted)}, not {fmt}"
            + (_looks_like_kind(path, owner, fmt) if owner else ""),
        )
    return fmt


def format_suffix(path: str | Path) -> str:
    """The extension that names a file's format: for a compressed file (.gz) the one under
    it, so that run.trec.gz is a TREC run."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".gz":
        suffix = Path(path.stem).suffix.lower()
    return suffix


def open_bytes(path: str | Path):
    """(stream, file): the file's bytes, decompressed as they are read when its name ends in
    .gz, and the file on disk beneath (its tell() is how far the reading is, for progress).
    Close both."""
    on_disk = open_input(path)
    if Path(path).suffix.lower() != ".gz":
        return on_disk, on_disk
    return gzip.GzipFile(fileobj=on_disk, mode="rb"), on_disk


# What reading a damaged or cut-short .gz file raises, however far into it.
GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)


def gzip_refusal(path, error: Exception) -> InputError:
    return InputError(
        path,
        None,
        f"not a readable gzip file ({str(error) or 'it ends too soon'}); nothing was read",
    )


# -- a file of another kind: say which, and how to import it --------------------------------

REQUIRED = {  # the keys without which a JSONL line is not of that kind
    "corpus": ("text",),
    "questions": ("text",),
    "gold": ("question_id", "evidence"),
    "run": ("question_id", "results"),
    "judgements": ("reviewer", "kind"),
}


def _looks_like_kind(path, kind: str, fmt: str | None = None, *, sure: bool = False) -> str:
    """'; this looks like a run file: import run FILE --system NAME' and the like (a corpus
    line may be a question too, unless sure)."""
    command = f"import {kind} {shlex.quote(str(path))}"
    try:
        automatic = pick_format(path, kind, None)
    except InputError:
        automatic = None
    if fmt and fmt != automatic:
        command += f" --format {fmt}"
    if kind == "run":
        command += " --system NAME"
    label = "corpus or questions" if kind == "corpus" and not sure else kind
    return f"; this looks like a {label} file: {command}"


def _json_kind(obj: dict) -> str | None:
    if "results" in obj:
        return "run"
    if "evidence" in obj:
        return "gold"
    if "reviewer" in obj and "kind" in obj:
        return "judgements"
    if "text" in obj and ("id" in obj or "_id" in obj):
        return "corpus"
    return None


def _check_kind(path, number, obj: dict, kind: str) -> None:
    """Refuse a line that lacks what kind needs when it has what another kind's lines have;
    a line of no known kind is left to the reader's own checks, which say what is missing."""
    if all(key in obj for key in REQUIRED[kind]) and (
        kind not in ("corpus", "questions") or "id" in obj or "_id" in obj
    ):
        return
    other = _json_kind(obj)
    if other is None or other == kind or {other, kind} <= {"corpus", "questions"}:
        return
    needed = " and ".join(f"'{key}'" for key in REQUIRED[kind])
    raise InputError(path, number, f"a {kind} line needs {needed}" + _looks_like_kind(path, other))


def _columns_kind(path, fields: list[str]) -> str:
    """The hint for a whitespace-separated line of the wrong width for its reader."""
    if len(fields) >= 6:
        return _looks_like_kind(path, "run", "trec")
    if len(fields) == 4:
        return _looks_like_kind(path, "gold", "qrels")
    if len(fields) == 3:
        return _looks_like_kind(path, "gold", "beir")
    return ""


def _header_kind(path, names: list[str], fmt: str) -> str:
    """The hint for a CSV/TSV header row (fmt: the reader's) that belongs to another kind."""
    lowered = {n.strip().lower() for n in names}
    if {"question_id", "passage_id", "rank"} <= lowered:
        return _looks_like_kind(path, "run", "csv")
    if {"query-id", "corpus-id"} <= lowered:
        return _looks_like_kind(path, "gold", "beir")
    if "text" in lowered and lowered & {"id", "_id"}:
        return _looks_like_kind(path, "corpus", "csv" if fmt == "csv" else "tsv")
    return ""


# -- text lines ---------------------------------------------------------------------------------

# The longest line (or CSV/TSV row) read, in bytes of the file: a longer one is refused with
# its FILE:LINE before more of it is read, so memory stays bounded whatever the input (a file
# with no line ending, /dev/zero behind a link). A passage is a line of its corpus file.
MAX_LINE_BYTES = 1 << 20

_NOT_A_FILE = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder (directory)"),
)


def _not_regular(mode: int) -> str | None:
    """What a file of this mode is when it is not a regular file, else None."""
    if stat.S_ISREG(mode):
        return None
    return next((label for test, label in _NOT_A_FILE if test(mode)), "not a regular file")


def regular_file(path: str | Path) -> os.stat_result:
    """The stat of an input, refused with its kind named unless it is a regular file (links
    followed): reading a FIFO waits for a writer forever and a device never ends."""
    try:
        info = os.stat(path)
    except OSError as error:
        if os.path.islink(path) and error.errno == errno.ENOENT:
            raise InputError(path, None, "is a link to a file that does not exist") from None
        raise InputError(path, None, f"cannot read the file ({error.strerror})") from None
    kind = _not_regular(info.st_mode)
    if kind is not None:
        raise InputError(path, None, f"is {kind}, not a file")
    return info


def open_input(path: str | Path):
    """A regular file opened for reading in binary, or InputError. Opened without waiting
    (O_NONBLOCK) and checked again on the open handle, so that a file swapped for a FIFO
    between the two checks is refused too instead of hanging."""
    regular_file(path)
    nonblock = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFOs to wait on
    try:
        fd = os.open(path, os.O_RDONLY | nonblock | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise InputError(path, None, f"cannot read the file ({error.strerror})") from None
    kind = _not_regular(os.fstat(fd).st_mode)
    if kind is not None:
        os.close(fd)
        raise InputError(path, None, f"is {kind}, not a file")
    if nonblock:
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _long_line(path, number: int) -> InputError:
    return InputError(
        path,
        number,
        f"line longer than {MAX_LINE_BYTES / (1 << 20):g} MB; a line (a passage, a question, "
        "a ranked list) must be shorter, or the file is not a text file of lines",
    )


def _looks_like(raw: bytes) -> str:
    try:
        raw.decode("cp949")
        return "CP949/EUC-KR"
    except UnicodeDecodeError:
        pass
    # Any even number of bytes decodes as UTF-16: say so only when it has the NUL bytes that
    # UTF-16 puts in every ASCII character.
    if b"\x00" in raw:
        return "UTF-16"
    return "an unknown encoding"


def _codec(path, encoding: str | None) -> str:
    """The codec's canonical name ('utf-8', 'utf-16-le', 'cp949', ...) for any spelling,
    UTF16LE and utf_16_be included."""
    name = encoding or "utf-8"
    squeezed = re.sub(r"[-_\s]", "", name.lower())
    if re.fullmatch(r"utf(8|16|32)(le|be|sig)?", squeezed):
        name = re.sub(r"(utf)(\d+)(le|be|sig)?", r"\1-\2-\3", squeezed).rstrip("-")
    valid = "use a text encoding such as utf-8, cp949, euc-kr or utf-16"
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise InputError(path, None, f"unknown encoding '{_shown(encoding)}'; {valid}") from None
    try:
        # rot13, base64, zlib_codec and the like are codecs but not text encodings: encoding
        # a str with them is refused (LookupError), and "undefined" refuses everything.
        "\n".encode(codec)
    except (LookupError, UnicodeError):
        raise InputError(
            path, None, f"'{_shown(encoding)}' is not a text encoding; {valid}"
        ) from None
    return codec


def read_lines(
    path: str | Path, encoding: str | None = None, progress: Progress | None = None
) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without its line ending) for every line of a text file.

    Bytes are split on LF and decoded one line at a time, so memory stays flat on a file of a
    million passages and a bad byte is reported on its own line. An encoding in which LF is
    not the byte 0x0A (UTF-16, UTF-32) is decoded as a stream before lines are split."""
    path = Path(path)
    codec = _codec(path, encoding)
    handle, on_disk = open_bytes(path)
    size = os.fstat(on_disk.fileno()).st_size
    try:
        yield from _lines(path, handle, on_disk, codec, encoding, progress, size)
    except GZIP_ERRORS as error:
        raise gzip_refusal(path, error) from None


def _lines(path, handle, on_disk, codec, encoding, progress, size) -> Iterator[tuple[int, str]]:
    with on_disk, handle:
        if handle.read(2) in (b"\xff\xfe", b"\xfe\xff") and encoding is None:
            raise InputError(
                path, 1, "looks like UTF-16; save it as UTF-8 or use --encoding utf-16"
            )
        handle.seek(0)
        if "\n".encode(codec).removeprefix(codecs.BOM_UTF8) == b"\n":  # ASCII-compatible
            lines = _byte_lines(path, handle, codec, encoding)
        else:
            lines = _decoded_lines(path, handle, codec, encoding)
        try:
            for number, text in lines:
                if progress is not None and number % 4096 == 0:
                    progress(on_disk.tell(), size, "reading")
                yield number, text
        finally:
            lines.close()  # the decoding stream lets go of the handle before it is closed
        if progress is not None:
            progress(size, size, "reading")


def _bounded(path, handle) -> Iterator[tuple[int, bytes]]:
    """(number, raw line with its LF) of a binary file, none longer than MAX_LINE_BYTES:
    readline's limit stops reading a longer line as soon as it is too long."""
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise _long_line(path, number)
        yield number, raw


def _utf16_order(raw: bytes) -> str | None:
    """'le' or 'be' when raw's NUL bytes fall on one side of its byte pairs, as UTF-16 puts
    them in ASCII characters (JSON's braces and quotes, TSV's tabs); None when they fall
    anywhere, as in a binary file."""
    even, odd = raw[0::2].count(0), raw[1::2].count(0)
    pairs = max(1, len(raw) // 2)
    if odd >= pairs / 4 and even <= odd / 10:
        return "le"
    if even >= pairs / 4 and odd <= even / 10:
        return "be"
    return None


def _byte_lines(path, handle, codec, encoding) -> Iterator[tuple[int, str]]:
    for number, raw in _bounded(path, handle):
        # Not only for UTF-8: tools on Windows also put a UTF-8 BOM before CP949 text, and
        # decoded as CP949 it would become two Hanja glued to the first field.
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[3:]
        if number == 1 and encoding is None and b"\x00" in raw:
            # NUL bytes are valid UTF-8 but no text file has them: UTF-16 without a BOM when
            # they fall on one side of the byte pairs, else not text at all.
            order = _utf16_order(raw)
            if order is None:
                raise InputError(path, 1, "not a text file (it holds NUL bytes)")
            raise InputError(
                path, 1, f"looks like UTF-16 without a BOM; use --encoding utf-16-{order}"
            )
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            if encoding:
                raise InputError(path, number, f"not valid {encoding}") from None
            raise InputError(
                path,
                number,
                f"not UTF-8 (looks like {_looks_like(raw)}); convert it to UTF-8 or say "
                f"which encoding it is with --encoding, for example --encoding cp949",
            ) from None
        yield number, text.rstrip("\r\n")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _decoded_lines(path, handle, codec, encoding) -> Iterator[tuple[int, str]]:
    # newline="\n": split on LF only, as the byte path does, and leave CR for rstrip. The
    # stream decodes ahead of the lines it hands out, so a lone surrogate (UTF-16's one bad
    # unit) is let through and looked for per line, to report the line it is on.
    stream = io.TextIOWrapper(handle, encoding=codec, errors="surrogatepass", newline="\n")
    number = 0
    try:
        while text := stream.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(text) > MAX_LINE_BYTES and not text.endswith("\n"):
                raise _long_line(path, number)
            if number == 1:
                text = text.removeprefix("\ufeff")  # utf-16-le/-be keep the BOM as text
            if _SURROGATE.search(text):
                raise InputError(path, number, f"not valid {encoding} (a lone surrogate)")
            yield number, text.rstrip("\r\n")
    except UnicodeDecodeError:
        # Cut short: a byte too few at the end of the file.
        raise InputError(path, number + 1, f"not valid {encoding}") from None
    finally:
        stream.detach()


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _encodable(value) -> bool:
    """False when a decoded JSON value holds a lone surrogate (SQLite cannot store it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_encodable(k) and _encodable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_encodable(v) for v in value)
    return True


class _BadNumber(ValueError):
    pass


SHOWN = 20  # characters of a refused value echoed in a message


def _shown(value: object) -> str:
    """A value as a message echoes it: its first SHOWN characters, then "…"."""
    text = str(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _whole(path, number: int, text: str, what: str) -> int:
    try:
        return int(_number_text(text))
    except ValueError:
        raise InputError(
            path, number, f"{what} must be a whole number in ASCII digits, not {_shown(text)!r}"
        ) from None


def _number_text(text: str) -> str:
    """text when float()/int() may read it: ASCII only, no "1_000" (Python's digit
    grouping) and no full-width or other script's digits, which float() also accepts."""
    if not text.isascii() or "_" in text:
        raise ValueError(text)
    return text


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(f"the number {text[:20]} is too large for a float")
    return value


def _no_constant(name: str):
    raise _BadNumber(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant)


def _json_lines(path, encoding, progress) -> Iterator[tuple[int, dict]]:
    for number, text in read_lines(path, encoding, progress):
        if not text.strip():
            continue
        try:
            obj = _DECODER.decode(text)
        except json.JSONDecodeError as error:
            raise InputError(
                path,
                number,
                f"not valid JSON ({error.msg.removesuffix(' at')} at column {error.colno})",
            ) from None
        except _BadNumber as error:
            raise InputError(path, number, f"not usable JSON ({error})") from None
        except ValueError:
            # Python's int-string limit: a whole number of thousands of digits.
            raise InputError(
                path, number, "not usable JSON (a whole number has too many digits)"
            ) from None
        except RecursionError:
            raise InputError(path, number, "not usable JSON (nested too deeply)") from None
        if not isinstance(obj, dict):
            raise InputError(path, number, "each line must be a JSON object")
        if "\\u" in text and _SURROGATE_ESCAPE.search(text) and not _encodable(obj):
            raise InputError(
                path,
                number,
                "a \\u escape stands for half of a UTF-16 pair "
                "(a lone surrogate), which is not text",
            )
        yield number, obj


def _table_rows(path, encoding, progress, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """CSV/TSV rows as (line where the row starts, fields); blank lines skipped."""
    lines = read_lines(path, encoding, progress)
    current = [0, 0]  # the line read last; the characters read since the row began

    def feed():
        # A quoted field may hold line breaks: a row is refused, like a line, once it is
        # longer than MAX_LINE_BYTES, before csv gathers more of it.
        for number, text in lines:
            current[0], current[1] = number, current[1] + len(text) + 1
            if current[1] > MAX_LINE_BYTES:
                raise _long_line(path, start)
            yield text + "\n"

    reader = csv.reader(feed(), delimiter=delimiter, strict=True)
    start = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                yield start, row
            start, current[1] = current[0] + 1, 0
    except csv.Error as error:
        raise InputError(
            path, current[0], f"bad {'TSV' if delimiter == chr(9) else 'CSV'} ({error})"
        ) from None


def _record_id(path, number, obj: dict, what: str) -> str:
    """Pop a record's id, named `id` or (BEIR) `_id`."""
    key = "id" if "id" in obj else "_id" if "_id" in obj else None
    if key is None:
        raise InputError(path, number, f"{what} has no 'id' (or BEIR '_id')")
    return _text_id(path, number, obj.pop(key), key)


def _text_id(path, number, value, name) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(path, number, f"'{name}' must be a string")
    value = str(value).strip()
    if not value:
        raise InputError(path, number, f"'{name}' is empty")
    return nfc(value)


# -- corpus -------------------------------------------------------------------------------------


@dataclass
class PassageRecord:
    line: int
    id: str
    text: str
    title: str | None
    meta: dict
    spelled: str | None = None  # the id as the file spelled it, when NFC changed it


def _spelling(raw, normalised: str) -> str | None:
    """The id as the file spelled it, when NFC normalisation changed it (else None)."""
    if raw is normalised or raw == normalised:
        return None
    spelled = str(raw).strip()
    return None if spelled == normalised else spelled


CORPUS_SUFFIXES = (".jsonl", ".csv", ".tsv")


def corpus_files(paths, skipped: list[str] | None = None) -> list[Path]:
    """The files one corpus import reads: those named, a folder standing for its .jsonl, .csv
    and .tsv files in name order (not its subfolders: a volume is a file). Every other entry
    of a folder is added to skipped as "FILE: why"; an entry with a corpus suffix that is not
    a readable regular file (a FIFO, a dangling link) is kept, for the read to refuse."""
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files: list[Path] = []
    for path in map(Path, given):
        if not path.is_dir():
            files.append(path)
            continue
        inside = []
        for entry in sorted(path.iterdir(), key=lambda f: f.name):
            if entry.is_dir():
                why = "a folder (a corpus folder's own files are read, not its subfolders)"
            elif format_suffix(entry) not in CORPUS_SUFFIXES:
                why = "not a .jsonl, .csv or .tsv file"
            else:
                inside.append(entry)
                continue
            if skipped is not None:
                skipped.append(f"skipped {entry}: {why}")
        if not inside:
            raise InputError(path, None, "no .jsonl, .csv or .tsv files in this folder")
        _refuse_questions_files(path, inside)
        files.extend(inside)
    if not files:
        raise InputError("import corpus", None, "name a corpus file or folder")
    return files


QUESTION_FILE_NAMES = ("queries", "questions")


def _base_name(path: Path) -> str:
    """queries for queries.jsonl.gz: the name without its format and compression."""
    name = path.name.lower().removesuffix(".gz")
    return Path(name).stem


def _refuse_questions_files(folder: Path, inside: list[Path]) -> None:
    """A folder of corpus files may not hold a questions file (BEIR's queries.jsonl sits
    beside its corpus.jsonl): it would come in as passages, and search would find questions."""
    for path in inside:
        if _base_name(path) in QUESTION_FILE_NAMES:
            beir = (folder / "qrels").is_dir()
            raise InputError(
                path,
                None,
                "a questions file (by its name), not passages; nothing was imported. "
                + (
                    f"This is a BEIR folder: import beir {shlex.quote(str(folder))}"
                    if beir
                    else f"Name the corpus files, or import questions {shlex.quote(str(path))}"
                ),
            )


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
            splits = sorted(_base_name(p) for p in (folder / "qrels").glob("*.tsv*") if p.is_file())
            there = f" (its splits: {', '.join(splits)}; choose with --split)" if splits else ""
            raise InputError(folder, None, f"no {name} in this BEIR folder{there}")
    return found


def file_sizes(files: list[Path]) -> list[int]:
    sizes = []
    for path in files:
        sizes.append(regular_file(path).st_size)
    return sizes


def read_corpus(path, fmt=None, encoding=None, progress=None) -> Iterator[PassageRecord]:
    fmt = pick_format(path, "corpus", fmt)
    if fmt == "jsonl":
        for number, obj in _json_lines(path, encoding, progress):
            raw = obj.get("id", obj.get("_id"))
            _check_kind(path, number, obj, "corpus")
            if "answerable" in obj:
                raise InputError(
                    path,
                    number,
                    "passages have no 'answerable', questions do"
                    + _looks_like_kind(path, "questions", "jsonl"),
                )
            pid = _record_id(path, number, obj, "passage")
            if "text" not in obj or not isinstance(obj["text"], str):
                raise InputError(path, number, f"passage '{pid}' has no 'text' string")
            text = nfc(obj.pop("text"))
            title = obj.pop("title", None)
            if title is not None and not isinstance(title, str):
                title = str(title)
            spelled = _spelling(raw, pid)
            yield PassageRecord(number, pid, text, nfc(title) if title else None, obj, spelled)
        return
    rows = _table_rows(path, encoding, progress, "," if fmt == "csv" else "\t")
    header_line, header = next(rows, (1, []))
    names = [h.strip() for h in header]
    if "id" not in names and "_id" in names:
        names[names.index("_id")] = "id"
    if "id" not in names or "text" not in names:
        raise InputError(
            path,
            header_line,
            "the header row must name 'id' and 'text' columns" + _header_kind(path, names, fmt),
        )
    for number, row in rows:
        if len(row) != len(names):
            raise InputError(path, number, f"{len(row)} fields, the header has {len(names)}")
        obj = dict(zip(names, row, strict=True))
        raw = obj.pop("id")
        pid = _text_id(path, number, raw, "id")
        text = nfc(obj.pop("text"))
        title = nfc(obj.pop("title", None) or "") or None
        meta = {k: v for k, v in obj.items() if v}
        yield PassageRecord(number, pid, text, title, meta, _spelling(raw, pid))


class CorpusFiles:
    """The files of one corpus import as one stream of passage rows. A row's line is
    file index << 32 | line, so that a duplicate the store finds leads back to FILE:LINE."""

    def __init__(self, files: list[Path], fmt, encoding, tag: bool):
        self.files, self.fmt, self.encoding, self.tag = files, fmt, encoding, tag
        self.sizes = file_sizes(files)
        self.counts = [0] * len(files)  # passages read from each file

    def records(self, progress: Progress | None = None):
        total, before = sum(self.sizes), 0
        for index, (path, size) in enumerate(zip(self.files, self.sizes, strict=True)):
            tick = None if progress is None else partial(_reading, progress, before, total)
            for record in read_corpus(path, self.fmt, self.encoding, tick):
                yield index, record
            before += size

    def rows(self, progress: Progress | None):
        for index, r in self.records(progress):
            self.counts[index] += 1
            meta = r.meta
            if self.tag:
                meta.setdefault("source_file", self.files[index].name)
            dumped = json.dumps(meta, ensure_ascii=False) if meta else None
            yield (index << 32 | r.line, r.id, r.text, r.title, dumped)

    def place(self, position: int) -> tuple[Path, int]:
        return self.files[position >> 32], position & 0xFFFFFFFF

    def refusal(self, position: int, passage_id: str) -> InputError:
        """The error for a passage id the store found twice (at position): where it came
        first, and whether NFC normalisation made two spellings of it one. Read again, on
        the error path only."""
        path, line = self.place(position)
        first, spellings = None, set()
        for index, record in self.records():
            if record.id != passage_id:
                continue
            spellings.add(record.spelled or record.id)
            first = first or (self.files[index], record.line)
            if (index, record.line) == (position >> 32, line):
                break
        if first is None or len(spellings) < 2:
            return InputError(
                path,
                line,
                f"passage id {passage_id!r} appears twice{self.first_place(passage_id)}; "
                "nothing was imported",
            )
        where = f"line {first[1]}" if first[0] == path else f"{first[0]}:{first[1]}"
        return nfc_same(path, line, passage_id, where)

    def first_place(self, passage_id: str) -> str:
        # Read again, on the error path only: cheaper than remembering where every id was.
        for index, record in self.records():
            if record.id == passage_id:
                return f" (first at {self.files[index]}:{record.line})"
        return ""


def _reading(progress: Progress, before: int, total: int, done: int, size: int, phase=None):
    progress(before + done, total, "reading")


# -- questions ----------------------------------------------------------------------------------


@dataclass
class QuestionRecord:
    line: int
    id: str
    text: str
    answerable: bool
    meta: dict
    spelled: str | None = None  # the id as the file spelled it, when NFC changed it


QUESTION_HEADERS = ("id", "_id", "query-id", "query_id", "qid")


def _a_corpus(path, number: int, what: str, fmt: str) -> InputError:
    return InputError(
        path,
        number,
        f"questions have no {what}, passages do"
        + _looks_like_kind(path, "corpus", fmt, sure=True)
        + " (if these are questions, rename 'title')",
    )


def _run_like(fields: list[str]) -> bool:
    """A TREC run line: qid Q0 passage rank score tag, rank whole and score a number."""
    if len(fields) != 6 or not (fields[3].isascii() and fields[3].isdigit()):
        return False
    try:
        float(_number_text(fields[4]))
    except ValueError:
        return False
    return True


def read_questions(path, fmt=None, encoding=None, progress=None) -> Iterator[QuestionRecord]:
    fmt = pick_format(path, "questions", fmt)
    seen: dict[str, tuple[int, str]] = {}  # id -> (line, spelling) of its first line

    def check(rec: QuestionRecord) -> QuestionRecord:
        spelled = rec.spelled or rec.id
        first = seen.setdefault(rec.id, (rec.line, spelled))
        if first[0] != rec.line:
            if first[1] != spelled:
                raise nfc_same(path, rec.line, rec.id, f"line {first[0]}")
            raise InputError(path, rec.line, f"question '{rec.id}' appears twice")
        return rec

    if fmt == "jsonl":
        for number, obj in _json_lines(path, encoding, progress):
            raw = obj.get("id", obj.get("_id"))
            _check_kind(path, number, obj, "questions")
            if "title" in obj:
                raise _a_corpus(path, number, "'title'", "jsonl")
            qid = _record_id(path, number, obj, "question")
            text = obj.pop("text", None)
            if not isinstance(text, str) or not text.strip():
                raise InputError(path, number, f"question '{qid}' has no 'text'")
            answerable = obj.pop("answerable", True)
            if not isinstance(answerable, bool):
                raise InputError(path, number, "'answerable' must be true or false")
            spelled = _spelling(raw, qid)
            yield check(QuestionRecord(number, qid, nfc(text), answerable, obj, spelled))
        return
    for number, row in _table_rows(path, encoding, progress, "\t"):
        if number == 1 and row and row[0].strip().lower() in QUESTION_HEADERS:
            hint = _header_kind(path, row, "tsv")
            if hint and "corpus" not in hint:
                raise InputError(path, number, "expected 'id<TAB>text'" + hint)
            if "title" in (cell.strip().lower() for cell in row):
                raise _a_corpus(path, number, "'title' column", "tsv")
            continue  # a header row
        if _run_like(" ".join(row).split()):
            raise InputError(
                path, number, "expected 'id<TAB>text'" + _looks_like_kind(path, "run", "trec")
            )
        if len(row) < 2:
            raise InputError(path, number, "expected 'id<TAB>text'")
        qid = _text_id(path, number, row[0], "id")
        text = "\t".join(row[1:]).strip()
        if not text:
            raise InputError(path, number, f"question '{qid}' has no text")
        yield check(QuestionRecord(number, qid, nfc(text), True, {}, _spelling(row[0], qid)))


# -- gold ---------------------------------------------------------------------------------------


@dataclass
class EvidenceRecord:
    line: int
    passage_id: str
    role: str | None
    alternatives: list[str] = field(default_factory=list)


@dataclass
class GoldRecord:
    line: int
    question_id: str
    evidence: list[EvidenceRecord]
    # Passages judged not evidence (qrels level 0, JSONL "not_evidence"): (line, passage_id).
    not_evidence: list[tuple[int, str]] = field(default_factory=list)


def read_gold(path, fmt=None, encoding=None, progress=None, levels=None) -> Iterator[GoldRecord]:
    """Gold evidence per question. Questions come out in file order, each once. levels: what
    graded levels mean (parse_levels), for qrels, BEIR and JSON qrels."""
    fmt = pick_format(path, "gold", fmt)
    _check_levels(path, fmt, levels)
    if fmt == "json-dict":
        yield from _json_dict_gold(path, encoding, progress, levels)
        return
    if fmt == "jsonl":
        seen: set[str] = set()
        for number, obj in _json_lines(path, encoding, progress):
            _check_kind(path, number, obj, "gold")
            qid = _text_id(path, number, obj.get("question_id"), "question_id")
            if qid in seen:
                raise InputError(path, number, f"gold for question '{qid}' given twice")
            seen.add(qid)
            evidence = obj.get("evidence")
            if not isinstance(evidence, list):
                raise InputError(
                    path, number, "a gold line needs 'evidence', a list (empty: no evidence)"
                )
            items: list[EvidenceRecord] = []
            primaries: set[str] = set()
            for item in evidence:
                if not isinstance(item, dict):
                    raise InputError(path, number, "each evidence item must be an object")
                pid = _text_id(path, number, item.get("passage_id"), "passage_id")
                if pid in primaries:
                    raise InputError(path, number, f"passage '{pid}' is evidence twice")
                primaries.add(pid)
                role = item.get("role")
                if role not in (None, *ROLES):
                    raise InputError(
                        path,
                        number,
                        f"role must be core or supporting (or missing), not {_shown(repr(role))}",
                    )
                alts = item.get("alternatives", [])
                if not isinstance(alts, list):
                    raise InputError(path, number, "'alternatives' must be a list of passage ids")
                alt_ids = []
                for alt in alts:
                    alt = _text_id(path, number, alt, "alternatives")
                    if alt != pid and alt not in alt_ids:
                        alt_ids.append(alt)
                items.append(EvidenceRecord(number, pid, role, alt_ids))
            judged_not = obj.get("not_evidence", [])
            if not isinstance(judged_not, list):
                raise InputError(path, number, "'not_evidence' must be a list of passage ids")
            not_ids: list[tuple[int, str]] = []
            for pid in judged_not:
                pid = _text_id(path, number, pid, "not_evidence")
                if pid in primaries:
                    raise InputError(
                        path, number, f"passage '{pid}' is both evidence and not evidence"
                    )
                not_ids.append((number, pid))
            yield GoldRecord(number, qid, items, not_ids)
        return

    # TREC and BEIR qrels: a line per (question, passage); group by question keeping file order.
    grouped: dict[str, GoldRecord] = {}
    seen_pairs: set[tuple[str, str]] = set()
    if fmt == "qrels":
        rows = ((n, t.split()) for n, t in read_lines(path, encoding, progress) if t.strip())
    else:
        rows = _table_rows(path, encoding, progress, "\t")
    for number, fields in rows:
        if fmt == "beir":
            if number == 1 and fields[0].strip().lower() in ("query-id", "query_id", "qid"):
                continue
            if len(fields) != 3:
                hint = _header_kind(path, fields, "tsv") if number == 1 else ""
                raise InputError(
                    path,
                    number,
                    "expected 'query-id<TAB>corpus-id<TAB>score'"
                    + (hint or _columns_kind(path, " ".join(fields).split())),
                )
            qid, pid, level = fields
        else:
            if len(fields) != 4:
                raise InputError(
                    path, number, "expected 'qid 0 passage_id level'" + _columns_kind(path, fields)
                )
            qid, _, pid, level = fields
        qid, pid = nfc(qid.strip()), nfc(pid.strip())
        level_value = _whole(path, number, level, "relevance level")
        if (qid, pid) in seen_pairs:
            raise InputError(path, number, f"question '{qid}' judges passage '{pid}' twice")
        seen_pairs.add((qid, pid))
        record = grouped.setdefault(qid, GoldRecord(number, qid, []))
        _add_level(record, number, pid, level_value, levels)
    yield from grouped.values()


LEVEL_MEANINGS = ("core", "supporting", "not")


def parse_levels(text: str) -> dict[int, str]:
    """--levels '2=core,1=supporting,0=not': what the graded levels of a qrels file mean.
    Raises ValueError saying what is wrong."""
    levels: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        level, sep, meaning = part.partition("=")
        meaning = meaning.strip().lower()
        try:
            number = int(level)
        except ValueError:
            number = None
        if number is None or not sep or meaning not in LEVEL_MEANINGS:
            raise ValueError(
                f"--levels: {part!r} is not LEVEL=MEANING, a whole number and core, "
                "supporting or not (for example --levels 2=core,1=supporting,0=not)"
            )
        if number in levels:
            raise ValueError(f"--levels: level {number} is given twice")
        levels[number] = meaning
    if not levels:
        raise ValueError("--levels names no level (for example --levels 1=core)")
    return levels


def _check_levels(path, fmt: str, levels) -> None:
    if levels and fmt == "jsonl":
        raise InputError(
            path,
            None,
            "--levels is for graded qrels (qrels, beir, json-dict); gold JSONL names its roles",
        )


def level_role(level: int, levels: dict[int, str] | None = None) -> str | None:
    """The role a qrels level gives a passage, None for judged not evidence. A level that
    levels does not name keeps TREC's meaning: 2 and up core, 1 supporting, 0 and below
    (as trec_eval reads it) judged and not relevant."""
    meaning = levels.get(level) if levels else None
    if meaning is None:
        meaning = "core" if level >= 2 else "supporting" if level >= 1 else "not"
    return None if meaning == "not" else meaning


def _add_level(record: GoldRecord, line: int, pid: str, level: int, levels) -> None:
    role = level_role(level, levels)
    if role is None:
        record.not_evidence.append((line, pid))
    else:
        record.evidence.append(EvidenceRecord(line, pid, role))


# -- runs ---------------------------------------------------------------------------------------


@dataclass
class RankedList:
    question_id: str
    line: int
    results: list[tuple[str, float | None, int]]  # (passage_id, score, line) in metric order
    repeats: list[tuple[int, str]] = field(default_factory=list)  # (line, passage_id) dropped


def _score(path, number, text) -> float:
    try:
        value = float(_number_text(text))
    except ValueError:
        raise InputError(
            path, number, f"score must be a number in ASCII digits, not {_shown(text)!r}"
        ) from None
    if not math.isfinite(value):
        raise InputError(
            path,
            number,
            f"score must be a finite number, not {_shown(text)!r} (it reads as {value})",
        )
    return value


def _json_score(path, number, score) -> float:
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise InputError(path, number, "'score' must be a number")
    try:
        return float(score)  # the reader refused NaN and infinities already
    except OverflowError:
        raise InputError(path, number, "'score' is a whole number too large for a float") from None


def read_run(path, fmt=None, encoding=None, progress=None) -> tuple[str, list[RankedList]]:
    """All ranked lists of one run file, each in the order the metrics use, repeats dropped.

    TREC files are ordered as trec_eval orders them: score descending, ties by passage id
    descending; the rank column is ignored. JSONL keeps its order; CSV follows its rank column.
    """
    fmt = pick_format(path, "run", fmt)
    if fmt == "json-dict":
        return fmt, _json_dict_run(path, encoding, progress)
    if fmt == "msmarco":
        return fmt, _msmarco_run(path, encoding, progress)
    lists: dict[str, RankedList] = {}
    if fmt == "trec":
        raw: dict[str, list[tuple[float, str, int]]] = {}
        first_line: dict[str, int] = {}
        for number, text in read_lines(path, encoding, progress):
            fields = text.split()
            if not fields:
                continue
            if len(fields) < 6:
                raise InputError(
                    path,
                    number,
                    "expected 'qid Q0 passage_id rank score tag'" + _columns_kind(path, fields),
                )
            qid, pid = nfc(fields[0]), nfc(fields[2])
            raw.setdefault(qid, []).append((_score(path, number, fields[4]), pid, number))
            first_line.setdefault(qid, number)
        for qid, rows in raw.items():
            lists[qid] = _dedupe(qid, first_line[qid], _trec_order(rows))
    elif fmt == "jsonl":
        for number, obj in _json_lines(path, encoding, progress):
            _check_kind(path, number, obj, "run")
            qid = _text_id(path, number, obj.get("question_id"), "question_id")
            if qid in lists:
                raise InputError(path, number, f"results for question '{qid}' given twice")
            results = obj.get("results")
            if not isinstance(results, list):
                raise InputError(
                    path, number, "a run line needs 'results', a list (empty: nothing retrieved)"
                )
            rows = []
            for entry in results:
                if isinstance(entry, str):
                    rows.append((entry, None, number))
                    continue
                if not isinstance(entry, dict):
                    raise InputError(
                        path, number, "each result must be an object with 'passage_id'"
                    )
                pid = _text_id(path, number, entry.get("passage_id"), "passage_id")
                score = entry.get("score")
                if score is not None:
                    score = _json_score(path, number, score)
                rows.append((pid, score, number))
            lists[qid] = _dedupe(qid, number, rows)
    else:
        rows_iter = _table_rows(path, encoding, progress, ",")
        header_line, header = next(rows_iter, (1, []))
        names = [h.strip() for h in header]
        for needed in ("question_id", "passage_id", "rank"):
            if needed not in names:
                raise InputError(
                    path,
                    header_line,
                    "the header row must be question_id,passage_id,rank,score"
                    + _header_kind(path, names, "csv"),
                )
        raw_csv: dict[str, list[tuple[int, str, float | None, int]]] = {}
        first_line = {}
        for number, row in rows_iter:
            if len(row) != len(names):
                raise InputError(path, number, f"{len(row)} fields, the header has {len(names)}")
            obj = dict(zip(names, row, strict=True))
            qid = _text_id(path, number, obj["question_id"], "question_id")
            pid = _text_id(path, number, obj["passage_id"], "passage_id")
            rank = _whole(path, number, obj["rank"], "rank")
            score_text = (obj.get("score") or "").strip()
            score = _score(path, number, score_text) if score_text else None
            raw_csv.setdefault(qid, []).append((rank, pid, score, number))
            first_line.setdefault(qid, number)
        for qid, rows in raw_csv.items():
            lists[qid] = _dedupe(qid, first_line[qid], _rank_order(path, qid, rows))
    return fmt, list(lists.values())


def _dedupe(qid: str, line: int, rows: list[tuple[str, float | None, int]]) -> RankedList:
    seen: set[str] = set()
    kept, repeats = [], []
    for pid, score, number in rows:
        if pid in seen:
            repeats.append((number, pid))
            continue
        seen.add(pid)
        kept.append((pid, score, number))
    return RankedList(qid, line, kept, repeats)


def _trec_order(rows: list[tuple[float, str, int]]) -> list[tuple[str, float | None, int]]:
    """(score, passage id, line) rows as (passage id, score, line) in trec_eval's order: score
    descending, ties by passage id descending (what its qsort comparator gives)."""
    rows.sort(key=lambda r: (r[0], r[1]), reverse=True)
    return [(p, s, n) for s, p, n in rows]


def _rank_order(path, qid: str, rows: list[tuple[int, str, float | None, int]]):
    """(rank, passage id, score, line) rows in rank order as (passage id, score, line); a
    rank given twice for one question is refused."""
    rows.sort(key=lambda r: (r[0], r[3]))
    for before, after in zip(rows, rows[1:], strict=False):
        if before[0] == after[0]:
            raise InputError(path, after[3], f"rank {after[0]} given twice for question '{qid}'")
    return [(p, s, n) for _, p, s, n in rows]


# -- MS MARCO runs and ranx / pytrec_eval JSON -------------------------------------------------


def _msmarco_run(path, encoding, progress) -> list[RankedList]:
    """MS MARCO's run TSV, qid<TAB>pid<TAB>rank (no score), in rank order."""
    raw: dict[str, list[tuple[int, str, float | None, int]]] = {}
    first_line: dict[str, int] = {}
    for number, text in read_lines(path, encoding, progress):
        fields = text.split()
        if not fields:
            continue
        if len(fields) != 3:
            raise InputError(
                path, number, "expected 'qid<TAB>passage_id<TAB>rank'" + _columns_kind(path, fields)
            )
        qid, pid, rank = nfc(fields[0]), nfc(fields[1]), fields[2]
        rank_value = _whole(path, number, rank, "rank")
        raw.setdefault(qid, []).append((rank_value, pid, None, number))
        first_line.setdefault(qid, number)
    return [_dedupe(q, first_line[q], _rank_order(path, q, rows)) for q, rows in raw.items()]


# The whole object is parsed at once (the standard library has no streaming JSON parser), and
# parsed JSON takes about ten times its size in memory: bigger files are refused.
JSON_DICT_LIMIT = 256 * 2**20
_JSON_DICT_START = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')


def is_json_dict(path, kind: str) -> bool:
    """True when the file starts as {"question id": {...}} (ranx / pytrec_eval) rather than
    as a JSON line of kind (whose first key may hold an object too)."""
    try:
        handle, on_disk = open_bytes(path)
        with on_disk, handle:
            head = handle.read(65536)
    except (OSError, *GZIP_ERRORS):
        return False
    if not _JSON_DICT_START.match(head):
        return False
    try:
        first = json.loads(head.split(b"\n", 1)[0].decode("utf-8-sig"))
    except ValueError:
        return True  # one object over many lines: not JSON lines
    return not (isinstance(first, dict) and all(key in first for key in REQUIRED[kind]))


class _Pairs(list):
    """A JSON object as its (key, value) pairs, so that a repeated key is seen, not dropped."""


_PAIRS_DECODER = json.JSONDecoder(
    parse_float=_finite, parse_constant=_no_constant, object_pairs_hook=_Pairs
)


def _json_dict(path, encoding, progress, what: str) -> Iterator[tuple[int, str, list]]:
    """(line, question id, [(passage id, value), ...]) for each question of a ranx /
    pytrec_eval file {"q1": {"d1": 1.2, ...}, ...}, in file order; the line is where the
    question's key is. what: 'score' or 'level', for the messages."""
    text = _json_dict_text(path, encoding, progress)
    lines = _LineCounter(text)
    shape = f'expected one JSON object {{"question id": {{"passage id": {what}}}}}'
    index = _skip(text, 0)
    if text[index : index + 1] != "{":
        raise InputError(path, lines.at(index), shape)
    index = _skip(text, index + 1)
    seen: set[str] = set()
    while text[index : index + 1] != "}":
        line = lines.at(index)
        key, index = _json_value(path, text, index, lines)
        index = _skip(text, index)
        if not isinstance(key, str) or text[index : index + 1] != ":":
            raise InputError(path, line, shape)
        value, index = _json_value(path, text, _skip(text, index + 1), lines)
        qid = _text_id(path, line, key, "question id")
        if qid in seen:
            raise InputError(path, line, f"question '{qid}' given twice")
        seen.add(qid)
        if not isinstance(value, _Pairs):
            raise InputError(path, line, f"question '{qid}': {shape}")
        yield line, qid, [(_text_id(path, line, p, "passage id"), v) for p, v in value]
        index = _skip(text, index)
        if text[index : index + 1] == ",":
            index = _skip(text, index + 1)
        elif text[index : index + 1] != "}":
            raise InputError(path, lines.at(index), f"expected ',' or '}}' after question '{qid}'")
    if _skip(text, index + 1) < len(text):
        raise InputError(path, lines.at(index + 1), "more after the JSON object ends")


def _json_dict_text(path, encoding, progress) -> str:
    try:
        size = os.path.getsize(path)
        handle, on_disk = open_bytes(path)
        with on_disk, handle:
            data = handle.read(JSON_DICT_LIMIT + 1)
    except OSError as error:
        raise InputError(path, None, f"cannot read the file ({error.strerror})") from None
    except GZIP_ERRORS as error:
        raise gzip_refusal(path, error) from None
    if len(data) > JSON_DICT_LIMIT:
        raise InputError(
            path,
            None,
            f"over {JSON_DICT_LIMIT // 2**20} MB of JSON, which is read whole: convert it to "
            "TREC (a line per result) and import that",
        )
    if progress is not None:
        progress(size, size, "reading")
    codec = _codec(path, encoding)
    try:
        return data.decode(codec).removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            path, line, f"not valid {encoding or 'UTF-8'}; say which encoding with --encoding"
        ) from None


class _LineCounter:
    """Line numbers of positions in text, asked for in increasing order (counted once)."""

    def __init__(self, text: str):
        self.text, self.index, self.line = text, 0, 1

    def at(self, index: int) -> int:
        self.line += self.text.count("\n", self.index, index)
        self.index = index
        return self.line


_SPACE = re.compile(r"[ \t\r\n]*")


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()


def _json_value(path, text: str, index: int, lines: _LineCounter) -> tuple[object, int]:
    try:
        value, end = _PAIRS_DECODER.raw_decode(text, index)
    except json.JSONDecodeError as error:
        message = f"not valid JSON ({error.msg} at column {error.colno})"
        raise InputError(path, error.lineno, message) from None
    except _BadNumber as error:
        raise InputError(path, lines.at(index), f"not usable JSON ({error})") from None
    except RecursionError:
        raise InputError(path, lines.at(index), "not usable JSON (nested too deeply)") from None
    except ValueError:
        message = "not usable JSON (a whole number has too many digits)"
        raise InputError(path, lines.at(index), message) from None
    if "\\u" in text[index:end] and not _encodable(value):
        raise InputError(
            path,
            lines.at(index),
            "a \\u escape stands for half of a UTF-16 pair (a lone surrogate), which is not text",
        )
    return value, end


def _json_dict_run(path, encoding, progress) -> list[RankedList]:
    """A ranx / pytrec_eval run, ordered as trec_eval orders a TREC run."""
    lists = []
    for line, qid, pairs in _json_dict(path, encoding, progress, "score"):
        rows = [(_json_score(path, line, score), pid, line) for pid, score in pairs]
        lists.append(_dedupe(qid, line, _trec_order(rows)))
    return lists


def _json_dict_gold(path, encoding, progress, levels) -> Iterator[GoldRecord]:
    """ranx / pytrec_eval qrels: levels as TREC qrels levels (or as --levels says)."""
    for line, qid, pairs in _json_dict(path, encoding, progress, "level"):
        record = GoldRecord(line, qid, [])
        seen: set[str] = set()
        for pid, level in pairs:
            if isinstance(level, bool) or not isinstance(level, int):
                raise InputError(
                    path, line, f"relevance level must be a whole number, not {level!r}"
                )
            if pid in seen:
                raise InputError(path, line, f"question '{qid}' judges passage '{pid}' twice")
            seen.add(pid)
            _add_level(record, line, pid, level, levels)
        yield record


# -- judgements ---------------------------------------------------------------------------------

KINDS = (
    "role",
    "alternative",
    "not_evidence",
    "answerable",
    "evidence",
    "drop",
    "note",
    "adjudication",
)
# Kinds that name a passage of the question (the others name none, or the question itself).
PASSAGE_KINDS = ("role", "alternative", "not_evidence", "evidence", "drop")


@dataclass
class JudgementRecord:
    line: int
    reviewer: str
    at: str
    question_id: str
    kind: str
    passage_id: str  # '' when the kind has none
    value: object
    settles: str | None
    system: str | None


def check_judgement_value(kind: str, value: object) -> str | None:
    """The reason a value does not fit its kind, or None when it does."""
    if kind == "role" and value not in (*ROLES, None):
        return "a role judgement's value must be core, supporting or null"
    if kind == "alternative" and value is not None and not isinstance(value, str):
        return "an alternative's value must be the primary passage id of its item, or null"
    # isinstance, not ==: 1 and 0.0 equal True and False but are not JSON booleans.
    if kind in ("not_evidence", "answerable") and value is not None and not isinstance(value, bool):
        return f"a {kind} judgement's value must be true, false or null, not {_shown(repr(value))}"
    if kind == "note" and value is not None and not isinstance(value, str):
        return "a note's value must be text"
    # Adding or dropping an item has no "false": null withdraws it.
    if kind in ("evidence", "drop") and value is not True and value is not None:
        return f"a {kind} judgement's value must be true or null, not {_shown(repr(value))}"
    return None


def read_judgements(path, fmt=None, encoding=None, progress=None) -> Iterator[JudgementRecord]:
    pick_format(path, "judgements", fmt)
    for number, obj in _json_lines(path, encoding, progress):
        _check_kind(path, number, obj, "judgements")
        for key in ("reviewer", "at", "question_id", "kind"):
            if not isinstance(obj.get(key), str) or not obj[key].strip():
                raise InputError(path, number, f"judgement needs a '{key}' string")
        kind = obj["kind"]
        if kind not in KINDS:
            raise InputError(
                path, number, f"unknown kind {_shown(repr(kind))} (one of {', '.join(KINDS)})"
            )
        if "value" not in obj:
            raise InputError(path, number, "judgement needs a 'value' (null is allowed)")
        settles = obj.get("settles")
        checked_kind = kind
        if kind == "adjudication":
            if settles not in KINDS or settles in ("adjudication", "note"):
                raise InputError(
                    path,
                    number,
                    "an adjudication needs 'settles': the kind it "
                    "settles (role, alternative, not_evidence, answerable, evidence, drop)",
                )
            checked_kind = settles
        elif settles is not None:
            raise InputError(path, number, "only an adjudication has 'settles'")
        problem = check_judgement_value(checked_kind, obj["value"])
        if problem:
            raise InputError(path, number, problem)
        passage_id = obj.get("passage_id") or ""
        if not isinstance(passage_id, str):
            raise InputError(path, number, "'passage_id' must be a string")
        if checked_kind in PASSAGE_KINDS and not passage_id:
            raise InputError(path, number, f"a {checked_kind} judgement needs a 'passage_id'")
        system = obj.get("system")
        if system is not None and not isinstance(system, str):
            raise InputError(path, number, "'system' must be a string")
        value = obj["value"]
        yield JudgementRecord(
            number,
            nfc(obj["reviewer"].strip()),
            obj["at"],
            nfc(obj["question_id"]),
            kind,
            nfc(passage_id),
            nfc(value) if isinstance(value, str) else value,
            settles,
            system,
        )


def sniff_encoding(path, size: int = 65536) -> str | None:
    """'utf-8' when the start of the file decodes as UTF-8 (a character cut at the end of the
    sample is fine), 'cp949' when it decodes as CP949/EUC-KR, 'utf-16' for a UTF-16 BOM, else
    None."""
    try:
        handle, on_disk = open_bytes(path)
        with on_disk, handle:
            raw = handle.read(size)
    except (OSError, InputError, *GZIP_ERRORS):
        return None  # the import says why
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    try:
        raw.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as error:
        if error.start >= len(raw) - 3 and len(raw) == size:
            return "utf-8"
    try:
        raw.decode("cp949")
        return "cp949"
    except UnicodeDecodeError as error:
        if error.start >= len(raw) - 1 and len(raw) == size:
            return "cp949"
    return None
