"""Rebuild RecallReviewerSymbols.otf, the fallback for CJK punctuation and symbols.

    apt-get install fonts-noto-cjk
    python resources/fonts/build_symbols.py

A subset of Noto Sans CJK KR Regular (SIL Open Font License 1.1, see OFL-NotoSansCJK.txt) made
with fontTools' pyftsubset: the punctuation, symbol, enclosed, compatibility and full-width
blocks below, no Hangul syllables and no Hanja (the system's or NanumGothic's Hangul stays in
use). Renamed, as the OFL asks of modified versions, to "Recall Reviewer Symbols".
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
KOREAN = 1  # the face of the collection: Noto Sans CJK KR
HERE = Path(__file__).resolve().parent
TARGET = HERE / "RecallReviewerSymbols.otf"
FAMILY = "Recall Reviewer Symbols"
BLOCKS = (
    "00A0-00FF",  # Latin-1 punctuation and signs (·, ×, §)
    "02B0-02FF",  # spacing modifiers
    "0370-03FF",  # Greek
    "2000-206F",  # general punctuation (‘ ’ “ ” … ※ ‧)
    "2070-209F",  # super- and subscripts
    "20A0-20CF",  # currency
    "2100-214F",  # letterlike (℃ №)
    "2150-218F",  # number forms (Ⅰ Ⅱ)
    "2190-21FF",  # arrows
    "2200-22FF",  # mathematical operators
    "2300-23FF",  # technical
    "2460-24FF",  # enclosed alphanumerics (① ⑴ ⒜)
    "2500-259F",  # box drawing, blocks
    "25A0-25FF",  # geometric shapes (● ◐ ○ ◌ ■)
    "2600-27BF",  # symbols, dingbats
    "3000-303F",  # CJK symbols and punctuation (「」『』〈〉《》【】〔〕・)
    "3130-318F",  # Hangul compatibility jamo
    "3200-33FF",  # enclosed CJK (㈜ ㉠), CJK compatibility (㎞)
    "FE10-FE1F",  # vertical forms
    "FE30-FE4F",  # CJK compatibility forms
    "FF00-FFEF",  # half- and full-width forms (｢ ｣ ･ （ ）)
)


def main() -> None:
    unicodes = ",".join(f"U+{b}" for b in BLOCKS)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "fontTools.subset",
            str(SOURCE),
            f"--font-number={KOREAN}",
            f"--unicodes={unicodes}",
            "--layout-features=*",
            "--no-hinting",
            "--desubroutinize",
            f"--output-file={TARGET}",
        ],
        check=True,
    )
    font = TTFont(TARGET)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(FAMILY, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (3, 4):
            names.setName(
                f"{FAMILY} Regular",
                record.nameID,
                record.platformID,
                record.platEncID,
                record.langID,
            )
        elif record.nameID == 6:
            names.setName(
                "RecallReviewerSymbols-Regular",
                record.nameID,
                record.platformID,
                record.platEncID,
                record.langID,
            )
    font.save(TARGET)
    print(TARGET, TARGET.stat().st_size)


if __name__ == "__main__":
    main()
