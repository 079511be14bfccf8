"""The command line (design section 5). Headless commands never import Qt; with no command
the window opens."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from desktop import __version__

IMPORT_KINDS = ("corpus", "questions", "gold", "run", "judgements")


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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("init", help="create an empty database")

    imp = sub.add_parser("import", help="import corpus, questions, gold, a run or judgements")
    imp.add_argument("kind", choices=IMPORT_KINDS)
    imp.add_argument("file")
    imp.add_argument("--system", help="the system a run belongs to (default: the file name)")
    imp.add_argument("--format", choices=("jsonl", "csv", "tsv", "trec", "qrels", "beir"))
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

    met = sub.add_parser("metrics", help="Recall@K and friends per system")
    met.add_argument("--k", default="5,10", help="comma-separated K list (default 5,10)")
    met.add_argument("--json", action="store_true")
    met.add_argument("--per-question", action="store_true")

    exp = sub.add_parser("export", help="REPORT.xlsx, or: judgements FILE [--reviewer NAME]")
    exp.add_argument("target", nargs="+", metavar="REPORT.xlsx | judgements FILE")
    exp.add_argument("--k", default="5,10")
    exp.add_argument("--reviewer")

    info = sub.add_parser("info", help="counts of what the database holds")
    info.add_argument("--json", action="store_true")

    find = sub.add_parser("search", help="passages holding every word of TEXT, one page")
    find.add_argument("text", nargs="+", metavar="TEXT")
    find.add_argument("--limit", type=int, default=20, help="passages per page (1..1000)")
    find.add_argument("--offset", type=int, default=0, help="passages to skip first")
    find.add_argument("--json", action="store_true")

    merge = sub.add_parser("merge", help="add another database's judgements")
    merge.add_argument("other")

    agree = sub.add_parser("agreement", help="agreement between reviewers")
    agree.add_argument("--json", action="store_true")

    sub.add_parser("demo", help="import the bundled sample project into the database")
    return parser


def print_json(data) -> int:
    json.dump(data, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def fail(message: str) -> int:
    print(f"recall-reviewer: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from desktop import paths

    db_path = Path(args.db) if args.db else paths.default_db()
    if args.command is None:
        from desktop.ui.app import run  # Qt only here

        return run(db_path)

    from db import StoreError
    from desktop.formats import InputError

    try:
        return COMMANDS[args.command](args, db_path)
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    except StoreError as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"{error.filename or ''}: {error.strerror or error}")
    except KeyboardInterrupt:
        return 130


def _open(db_path: Path):
    from desktop.project import Project

    return Project(db_path)


def cmd_init(args, db_path) -> int:
    with _open(db_path) as project:
        print(f"database ready: {project.path}")
    return 0


def cmd_import(args, db_path) -> int:
    with _open(db_path) as project:
        kind = args.kind
        if kind == "corpus":
            report = project.import_corpus(
                args.file,
                args.format,
                args.encoding,
                replace=args.replace,
                name=args.name,
                chunk_size=args.chunk_size,
                overlap=args.overlap,
                unit=args.unit,
            )
        elif kind == "questions":
            report = project.import_questions(args.file, args.format, args.encoding)
        elif kind == "gold":
            report = project.import_gold(args.file, args.format, args.encoding)
        elif kind == "run":
            report = project.import_run(args.file, args.system, args.format, args.encoding)
        else:
            report = project.import_judgements(args.file, args.encoding)
    for line in report.lines():
        print(line, file=sys.stderr if line.startswith("warning:") else sys.stdout)
    return 0


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]
    lines = [
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(headers, widths, strict=True))
        )
    ]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return "\n".join(lines)


def _num(value) -> str:
    return "-" if value is None else f"{value:.4f}"


def cmd_metrics(args, db_path) -> int:
    from desktop.metrics import parse_ks

    try:
        ks = parse_ks(args.k)
    except ValueError as error:
        return fail(str(error))
    with _open(db_path) as project:
        evaluation = project.evaluate(ks)
    data = evaluation.as_json(args.per_question)
    if args.json:
        return print_json(data)
    q = data["questions"]
    print(
        f"questions: {q['total']} in all, {q['evaluated']} evaluated, "
        f"{q['without_evidence']} without evidence (not averaged in)"
    )
    if not data["systems"]:
        print("no runs imported yet")
        return 0
    labels = evaluation.labels()
    rows = [
        [s["system"], str(s["evaluated"]), *(_num(s[label]) for label in labels)]
        for s in data["systems"]
    ]
    print(format_table(["system", "n", *labels], rows))
    if args.per_question:
        print()
        rows = [
            [p["system"], p["question"], *(_num(p[label]) for label in labels)]
            for p in data["per_question"]
        ]
        print(format_table(["system", "question", *labels], rows))
    return 0


def cmd_export(args, db_path) -> int:
    target = args.target
    if target[0] == "judgements":
        if len(target) != 2:
            return fail("usage: export judgements FILE [--reviewer NAME]")
        with _open(db_path) as project:
            n = project.export_judgements(target[1], args.reviewer)
        print(f"wrote {n} judgements to {target[1]}")
        return 0
    if len(target) != 1:
        return fail("usage: export REPORT.xlsx [--k 5,10]")
    from desktop.metrics import parse_ks

    try:
        ks = parse_ks(args.k)
    except ValueError as error:
        return fail(str(error))
    if not target[0].lower().endswith(".xlsx"):
        return fail(f"{target[0]}: the report is an Excel file; name it REPORT.xlsx")
    from desktop.report import write_report

    with _open(db_path) as project:
        write_report(project, target[0], ks)
    print(f"wrote {target[0]}")
    return 0


def cmd_info(args, db_path) -> int:
    with _open(db_path) as project:
        info = project.info()
    if args.json:
        return print_json(info)
    corpus = info["corpus"]
    print(f"database:        {info['database']} (schema {info['schema']})")
    if corpus:
        chunking = ", ".join(
            f"{k} {corpus[k]}" for k in ("unit", "chunk_size", "overlap") if corpus[k] is not None
        )
        print(f"corpus:          {corpus['name']}" + (f" ({chunking})" if chunking else ""))
    for key in ("passages", "questions", "evidence_items", "alternatives", "results", "judgements"):
        print(f"{key + ':':<17}{info[key]}")
    print(f"{'systems:':<17}{', '.join(info['systems']) or '-'}")
    print(f"{'reviewers:':<17}{', '.join(info['reviewers']) or '-'}")
    return 0


def cmd_search(args, db_path) -> int:
    from desktop.search import check_page

    problem = check_page(args.limit, args.offset)
    if problem:
        return fail(problem)
    with _open(db_path) as project:
        page = project.search(" ".join(args.text), args.limit, args.offset)
    if args.json:
        return print_json(page.as_json())
    last = args.offset + len(page.passages)
    shown = f", {args.offset + 1}-{last} shown" if page.passages else ""
    print(f"{page.total} passages hold every word of {page.query!r}{shown}")
    for found in page.passages:
        print(f"{found.passage_id}  {found.excerpt}")
    return 0


def cmd_merge(args, db_path) -> int:
    with _open(db_path) as project:
        report = project.merge(args.other)
    print("\n".join(report.lines()))
    return 0


def cmd_agreement(args, db_path) -> int:
    with _open(db_path) as project:
        data = project.agreement()
    if args.json:
        return print_json(data)
    if not data["pairs"]:
        print("no item was judged by two reviewers yet")
    else:
        rows = [
            [
                " / ".join(p["reviewers"]),
                p["kind"],
                str(p["items"]),
                f"{p['agreement']:.1%}",
                "-" if p["kappa"] is None else f"{p['kappa']:.3f}",
            ]
            for p in data["pairs"]
        ]
        print(format_table(["reviewers", "kind", "items", "agreement", "kappa"], rows))
    print(f"open disagreements: {data['disagreements']}")
    return 0


def cmd_demo(args, db_path) -> int:
    from desktop.sample import load_sample

    with _open(db_path) as project:
        for line in load_sample(project):
            print(line)
    print(f"sample project loaded into {db_path}")
    return 0


COMMANDS = {
    "init": cmd_init,
    "import": cmd_import,
    "metrics": cmd_metrics,
    "export": cmd_export,
    "info": cmd_info,
    "search": cmd_search,
    "merge": cmd_merge,
    "agreement": cmd_agreement,
    "demo": cmd_demo,
}
