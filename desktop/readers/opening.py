"""Opening an input file: refusing what is not a regular file, .gz, the encodings (UTF-8,
CP949, UTF-16), one line at a time with its number, and the errors every reader raises:
``InputError`` (``FILE:LINE: what is wrong``) and ``Cancelled``."""

from __future__ import annotations

import codecs
import errno
import gzip
import io
import os
import re
import stat
import unicodedata
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from desktop.app.terminal import printable

# progress(done, total, phase=None): bytes read of all the files while reading, then whatever
# the named phase counts ("checking ids", "building the search index").
Progress = Callable[..., None]


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


def long_line(path, number: int) -> InputError:
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


def codec_for(path, encoding: str | None) -> str:
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
        raise InputError(path, None, f"unknown encoding '{shown(encoding)}'; {valid}") from None
    try:
        # rot13, base64, zlib_codec and the like are codecs but not text encodings: encoding
        # a str with them is refused (LookupError), and "undefined" refuses everything.
        "\n".encode(codec)
    except (LookupError, UnicodeError):
        raise InputError(
            path, None, f"'{shown(encoding)}' is not a text encoding; {valid}"
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
    codec = codec_for(path, encoding)
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
            raise long_line(path, number)
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
                raise long_line(path, number)
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


SHOWN = 20  # characters of a refused value echoed in a message


def shown(value: object) -> str:
    """A value as a message echoes it: its first SHOWN characters, then "…"."""
    text = str(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


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
