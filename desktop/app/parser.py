"""The command line's words: every command, its arguments and their help (design section 5).
The import kinds and formats are the readers' one list (desktop.readers.kinds)."""

from __future__ import annotations

import argparse

from desktop import __version__
from desktop.readers.kinds import FORMATS, GRAPH_FORMATS, IMPORT_KINDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="recall-reviewer",
        description="Review retrieval runs against gold evidence and report Recall@K. "
        "With no command, the window opens.",
    )
    parser.add_argument(
        "--db", metavar="FILE", help="the project database (default: the user data folder)"
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--wait",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a change waits for another program writing to the database (default 30)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("init", help="create an empty database")
    _import_parser(sub)
    _reading_parsers(sub)
    _export_parser(sub)
    _finding_parsers(sub)
    _log_parsers(sub)
    return parser


def _import_parser(sub) -> None:
    imp = sub.add_parser("import", help="import corpus, questions, gold, a run, judgements, beir")
    imp.add_argument("kind", choices=IMPORT_KINDS)
    imp.add_argument(
        "file", nargs="+", help="the file (a corpus: files or a folder of them; beir: a folder)"
    )
    imp.add_argument("--system", help="the system a run belongs to (default: the file name)")
    imp.add_argument("--format", choices=FORMATS + GRAPH_FORMATS)
    _graded_options(imp)
    imp.add_argument("--encoding", help="decode a non-UTF-8 file, for example cp949")
    imp.add_argument(
        "--replace",
        action="store_true",
        help="replace the corpus already loaded (removes gold and runs)",
    )
    imp.add_argument("--name", help="corpus name (default: the file name)")
    imp.add_argument("--chunk-size", type=int, help="corpus chunk size, recorded with it")
    imp.add_argument("--overlap", type=int, help="corpus chunk overlap, recorded with it")
    imp.add_argument("--unit", help="corpus chunk unit (for example 문단, tokens, 조)")
    imp.add_argument(
        "--chunking",
        help="corpus: add it as a chunking of this name beside the others; "
        "run: the chunking its ids name, when they are in two",
    )
    imp.add_argument(
        "--ranked",
        action="store_true",
        help="run --format graphrag|lightrag: the context's order is a ranking (default: "
        "unranked, its rank measures marked)",
    )
    imp.add_argument(
        "--machine",
        action="store_true",
        help="judgements: a machine's (an LLM judge): compared with the people's, never "
        "counted in the gold",
    )


def _reading_parsers(sub) -> None:
    """metrics and compare: what the systems score."""
    met = sub.add_parser("metrics", help="Recall@K and friends per system")
    met.add_argument("--k", default="5,10", help="comma-separated K list (default 5,10)")
    met.add_argument("--json", action="store_true")
    met.add_argument("--per-question", action="store_true")
    met.add_argument(
        "--budget",
        help="context lengths in characters, as 1000,2000: Recall, SpanRecall and "
        "SpanPrecision at each, for runs whose passages have spans",
    )
    met.add_argument(
        "--coverage",
        default="0.5",
        help="θ: the share of an evidence span a run on another chunking must cover to find "
        "it (default 0.5)",
    )

    cmp_ = sub.add_parser(
        "compare", help="win/tie/loss, corrected significance, unique hits, ties, abstention"
    )
    cmp_.add_argument("--k", default="5,10", help="comma-separated K list (default 5,10)")
    cmp_.add_argument("--json", action="store_true")


def _export_parser(sub) -> None:
    exp = sub.add_parser(
        "export",
        help="REPORT.xlsx, or: judgements FILE [--reviewer NAME], or: gold FILE [--format F]",
    )
    exp.add_argument("target", nargs="+", metavar="REPORT.xlsx | judgements FILE | gold FILE")
    exp.add_argument("--k", default="5,10")
    exp.add_argument("--reviewer")
    exp.add_argument(
        "--lang",
        choices=("ko", "en"),
        help="the report's sheet names: Korean, or English (default: English only under an "
        "English locale, as the window chooses)",
    )
    exp.add_argument(
        "--format",
        choices=("jsonl", "qrels", "beir"),
        default="jsonl",
        help="the reviewed gold's format (default jsonl)",
    )
    exp.add_argument(
        "--force", action="store_true", help="let an empty export replace a non-empty file"
    )
    exp.add_argument(
        "--chunking", help="gold: projected onto this chunking's passages (design section 10)"
    )
    exp.add_argument(
        "--coverage",
        default="0.5",
        help="gold --chunking: θ, the share of a span or of a passage that must overlap; "
        "REPORT.xlsx: θ of the span rule, as metrics --coverage (default 0.5)",
    )
    exp.add_argument(
        "--budget",
        help="REPORT.xlsx: context lengths in characters, as 1000,2000 (default "
        "500,1000,2000,4000 when the database has documents)",
    )
    exp.add_argument(
        "--candidates",
        action="store_true",
        help="REPORT.xlsx: add the misses a candidate alternative in the top K could turn "
        "into hits (slower)",
    )


def _finding_parsers(sub) -> None:
    """pool, info, search and similar: what the database holds and what is left to judge."""
    pool = sub.add_parser("pool", help="passages in some system's top D not judged yet")
    pool.add_argument("--depth", type=int, default=10, help="top D of every system (default 10)")
    pool.add_argument("--json", action="store_true")
    pool.add_argument("--shuffle-for", metavar="REVIEWER", help="a shuffled order fixed per name")
    pool.add_argument("--blind", action="store_true", help="do not say which systems")

    info = sub.add_parser("info", help="counts of what the database holds")
    info.add_argument("--json", action="store_true")

    find = sub.add_parser("search", help="passages holding every word of TEXT, one page")
    find.add_argument("text", nargs="+", metavar="TEXT")
    find.add_argument("--limit", type=int, default=20, help="passages per page (1..1000)")
    find.add_argument("--offset", type=int, default=0, help="passages to skip first")
    find.add_argument(
        "--order",
        choices=("corpus", "relevance"),
        default="corpus",
        help="corpus order (default) or by relevance (bm25)",
    )
    find.add_argument(
        "--chunking", metavar="NAME", help="only the passages of this chunking (default: all)"
    )
    find.add_argument("--json", action="store_true")

    alike = sub.add_parser("similar", help="passages most like PASSAGE_ID, best first")
    alike.add_argument("passage_id", metavar="PASSAGE_ID")
    alike.add_argument("--limit", type=int, default=10, help="passages to list (1..1000)")
    alike.add_argument(
        "--chunking", metavar="NAME", help="the chunking PASSAGE_ID is of (default: the first)"
    )
    alike.add_argument("--json", action="store_true")


def _log_parsers(sub) -> None:
    """merge, agreement, demo and restore: the judgement log and the database as a whole."""
    merge = sub.add_parser("merge", help="add another database's judgements")
    merge.add_argument("other")

    agree = sub.add_parser("agreement", help="agreement between reviewers")
    agree.add_argument("--json", action="store_true")

    demo = sub.add_parser("demo", help="import the bundled sample project into the database")
    demo.add_argument(
        "--study",
        action="store_true",
        help="the chunking study instead: documents cut three ways, a BM25 run on each",
    )

    restore = sub.add_parser(
        "restore",
        help="--list | last-import | ID: undo an import; judgements [JOURNAL]: rebuild the log",
    )
    restore.add_argument("what", nargs="*", metavar="last-import | ID | judgements [JOURNAL]")
    restore.add_argument("--list", action="store_true", help="the backups imports left")
    restore.add_argument(
        "--force", action="store_true", help="take the journal of another database (a rebuild)"
    )


def _graded_options(imp: argparse.ArgumentParser) -> None:
    """import's options for BEIR folders and graded qrels."""
    imp.add_argument("--split", default="test", help="beir: the qrels split (default test)")
    imp.add_argument(
        "--levels",
        metavar="LEVEL=MEANING,...",
        help="what graded qrels levels mean, e.g. 1=core or 2=core,1=supporting,0=not "
        "(default: 2 and up core, 1 supporting, 0 not evidence)",
    )
