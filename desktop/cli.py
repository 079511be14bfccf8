"""The command line (design section 5). Headless commands never import Qt; with no command
the window opens."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

from desktop.app import agreement_words
from desktop.app.parser import build_parser
from desktop.app.tables import COMPARE_TABLES, cell, format_table, num
from desktop.app.terminal import printable


def print_json(data) -> int:
    # dumps, not dump: dump streams through the pure-Python encoder a token per write, which
    # for the pool of thousands of questions costs more than building it.
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    return 0


def fail(message: str) -> int:
    """One line on stderr: every message is one line, so any newline or control character in
    it came from a value (a file name, an id) and is escaped."""
    print(f"recall-reviewer: {printable(message)}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from desktop.app import paths

    db_path = Path(args.db) if args.db else paths.default_db()
    if args.command is None:
        from desktop.app.launch import window_problem  # no Qt: says why Qt would abort, if it would

        problem = window_problem()
        if problem:
            return fail(problem)
        from desktop.ui.app import run  # Qt only here

        return run(db_path)
    from desktop.app import interrupt
    from desktop.app.terminal import SafeStream

    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    try:
        with interrupt.handling():
            code = _run(args, db_path)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _broken_pipe()


def _run(args, db_path: Path) -> int:
    """The command, with every failure a user can meet turned into one line and an exit
    status: 2 for what the user can mend (bad input, a busy, full or read-only place), 1 for
    anything unexpected (with the log file that holds the details)."""
    import sqlite3

    from db import StoreError
    from desktop.app import errors, interrupt
    from desktop.readers import InputError

    _wait["seconds"] = max(0.0, args.wait)
    _opened.clear()
    try:
        _check_database(args.command, db_path)
        code = COMMANDS[args.command](args, db_path)
        return _journal_checked(code)
    except interrupt.stopped_by_it():  # whatever a statement stopped by Ctrl-C raised
        return _cancelled()
    except UsageError as error:
        return fail(str(error))
    except InputError as error:
        print(printable(error), file=sys.stderr)
        return 2
    except StoreError as error:
        return fail(str(error))
    except BrokenPipeError:
        raise
    except OSError as error:
        return fail(errors.describe_os_error(error))
    except sqlite3.Error as error:
        return fail(errors.describe_sqlite_error(error, db_path))
    except KeyboardInterrupt:
        return _cancelled()
    except MemoryError:
        return fail("not enough memory for this; close other programs or ask for less")
    except Exception as error:  # noqa: BLE001 (the last line of defence: no traceback)
        return _unexpected(error)


def _journal_checked(code: int) -> int:
    """A command whose judgements reached the database but not their journal ends with the
    one line saying so, and exit status 2 (db/journal.py)."""
    from db import journal

    problems = journal.problems()
    if problems:
        sys.stdout.flush()
        return fail(problems[0])
    return code


# The commands that may create the database (design section 5); the window may too.
CREATING = ("init", "demo")


def _check_database(command: str, db_path: Path) -> None:
    """A data folder that cannot be used is said first, in its own words (not "File exists").
    Every command but init and demo refuses a database path that does not exist: a mistyped
    --db must not create an empty database and then report, export or import into it."""
    from desktop.app import paths

    problem = paths.home_problem()
    if problem:
        raise UsageError(problem)
    if db_path.is_dir():
        raise UsageError(f"{db_path}: this is a folder; name the database file inside it")
    if command not in CREATING and not db_path.exists():
        raise UsageError(f"{db_path}: no such database; run init, or check the path")


def _cancelled() -> int:
    """Ctrl-C: one line saying whether a commit happened before it, and 130 (128 + SIGINT)."""
    from desktop.app import interrupt

    saved = any(project.store.commits for project in _opened)
    print(f"recall-reviewer: {interrupt.message(saved)}", file=sys.stderr)
    return 130


def _broken_pipe() -> int:
    """The reader of our output went away (`metrics | head`): stop quietly but say so once,
    and keep Python from complaining again when it flushes at exit."""
    import os

    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
    print(
        "recall-reviewer: standard output was closed before the output ended (broken pipe); "
        "what was printed is incomplete",
        file=sys.stderr,
    )
    return 2


def _unexpected(error: Exception) -> int:
    import logging

    from desktop.app import logs

    where = "the log"
    with contextlib.suppress(Exception):
        where = str(logs.setup())
        logging.getLogger("recall_reviewer.cli").exception("unexpected error")
    fail(
        f"unexpected error ({type(error).__name__}: {error}); nothing more was done. "
        f"Details are in {where}"
    )
    return 1


_wait = {"seconds": 30.0}  # --wait, for every command's Project
_opened: list = []  # the projects this command opened, to tell what a Ctrl-C left


def _open(db_path: Path):
    from desktop.app import interrupt
    from desktop.project import Project

    def waiting(path) -> None:
        print(f"waiting for another program to release {printable(path)}…", file=sys.stderr)
        sys.stderr.flush()

    project = Project(db_path, wait=_wait["seconds"], on_wait=waiting)
    interrupt.watch(project.store.conn)
    _opened.append(project)
    return project


def cmd_init(args, db_path) -> int:
    with _open(db_path) as project:
        print(f"database ready: {printable(project.path)}")
    return 0


def cmd_import(args, db_path) -> int:
    from desktop.readers import parse_levels

    try:
        levels = parse_levels(args.levels) if args.levels is not None else None
    except ValueError as error:
        raise UsageError(str(error)) from None
    with _open(db_path) as project:
        report = project.import_file(
            args.kind,
            args.file,
            fmt=args.format,
            encoding=args.encoding,
            system=args.system,
            replace=args.replace,
            name=args.name,
            chunk_size=args.chunk_size,
            overlap=args.overlap,
            unit=args.unit,
            split=args.split,
            levels=levels,
            chunking=args.chunking,
            ranked=args.ranked,
            machine=args.machine,
        )
    for line in report.lines():
        print(printable(line), file=sys.stderr if line.startswith("warning:") else sys.stdout)
    return 0


class UsageError(Exception):
    """A command line argument that cannot be used; main() prints it and exits with 2."""


def _ks(text: str) -> list[int]:
    from desktop.evaluation.metrics import parse_ks

    try:
        return parse_ks(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _span_options(args) -> tuple[list[int], float]:
    """--budget and --coverage: the budgets in characters and θ."""
    from desktop.evaluation.spans import parse_budgets, parse_coverage

    budget = getattr(args, "budget", None)
    try:
        return (parse_budgets(budget) if budget is not None else []), parse_coverage(args.coverage)
    except ValueError as error:
        raise UsageError(str(error)) from None


def cmd_metrics(args, db_path) -> int:
    ks = _ks(args.k)
    from desktop.project_graph import mark_unranked

    budgets, theta = _span_options(args)
    with _open(db_path) as project:
        evaluation = project.evaluate(ks, budgets=budgets, theta=theta)
        systems = project.systems()
    data = mark_unranked(evaluation.as_json(args.per_question), systems)
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
        [s["system"], str(s["evaluated"]), *(num(s.get(label)) for label in labels)]
        for s in data["systems"]
    ]
    print(format_table(["system", "n", *labels], rows))
    for note in (evaluation.unsettled_note(), data["core_note"], evaluation.span_note()):
        if note:
            print(printable(note))  # one line naming systems
    if args.per_question:
        print()
        rows = [
            [p["system"], p["question"], *(num(p.get(label)) for label in labels)]
            for p in data["per_question"]
        ]
        print(format_table(["system", "question", *labels], rows))
    return 0


def cmd_compare(args, db_path) -> int:
    from desktop.evaluation.compare import compare

    ks = _ks(args.k)
    with _open(db_path) as project:
        data = compare(project, ks).as_json()
    if args.json:
        return print_json(data)
    if data["untested"]:
        names = ", ".join(data["untested"])
        print(
            f"not tested against the others (unranked runs, their order is not a ranking): {names}"
        )
        print()
    for key, title, empty, columns in COMPARE_TABLES:
        print(title.format(family=data["family"]))
        if not data[key]:
            print(f"  ({empty})")
        else:
            rows = [[cell(row[name]) for _, name in columns] for row in data[key]]
            print(format_table([header for header, _ in columns], rows))
        print()
    return 0


def cmd_export(args, db_path) -> int:
    target = args.target
    if target[0] == "judgements":
        if len(target) != 2:
            return fail("usage: export judgements FILE [--reviewer NAME]")
        with _open(db_path) as project:
            n = project.export_judgements(target[1], args.reviewer, args.force)
        print(f"wrote {n} judgements to {printable(target[1])}")
        return 0
    if target[0] == "gold":
        if len(target) != 2:
            return fail("usage: export gold FILE [--format jsonl|qrels|beir] [--chunking NAME]")
        from desktop.gold.export import QRELS_CAVEAT, Projection, dropped_note

        _, theta = _span_options(args)
        dropped: list = []  # items a projection onto --chunking cannot carry
        with _open(db_path) as project:
            try:
                n = project.export_gold(
                    target[1], args.format, args.force, args.chunking, theta, dropped
                )
            except ValueError as error:
                raise UsageError(str(error)) from None
        onto = f" {Projection(args.chunking, theta).words()}" if args.chunking else ""
        where = f"{printable(target[1])} ({args.format})"
        print(f"wrote the reviewed gold of {n} questions{onto} to {where}")
        for note in (dropped_note(dropped), args.format != "jsonl" and QRELS_CAVEAT):
            if note:
                print(printable(f"note: {note}"))
        return 0
    if len(target) != 1:
        return fail(
            "usage: export REPORT.xlsx [--k 5,10] [--budget 1000,2000] [--coverage 0.5] "
            "[--lang ko|en] [--candidates] [--force]"
        )
    ks = _ks(args.k)
    if not target[0].lower().endswith(".xlsx"):
        return fail(f"{target[0]}: the report is an Excel file; name it REPORT.xlsx")
    from desktop.report import default_language, write_report

    budgets, theta = _span_options(args)
    with _open(db_path) as project:
        from desktop.app import targets

        # A report of a database without questions is empty, whatever else it holds.
        targets.refuse_emptying(target[0], project.info()["questions"], "questions", args.force)
        write_report(
            project,
            target[0],
            ks,
            lang=args.lang or default_language(),
            budgets=budgets if args.budget is not None else None,
            theta=theta,
            candidates=args.candidates,
        )
    print(f"wrote {printable(target[0])}")
    return 0


def cmd_pool(args, db_path) -> int:
    from desktop.gold import pool

    if args.depth < 1:
        return fail(f"--depth must be at least 1, not {args.depth}")
    with _open(db_path) as project:
        if args.json:  # never names systems: straight from the store's rows to text
            sys.stdout.writelines(project.pool_json(args.depth, shuffle_for=args.shuffle_for))
            sys.stdout.write("\n")
            return 0
        found = project.pool(args.depth, shuffle_for=args.shuffle_for, blind=args.blind)
    print(
        f"{pool.unjudged(found)} passages in some system's top {args.depth} are not judged yet, "
        f"in {sum(1 for _, e in found if e)} of {len(found)} questions"
    )
    for qid, entries in found:
        for e in entries:
            # The tabs separate the fields; a tab or newline inside an id is escaped.
            by = "" if args.blind else "  " + ", ".join(map(printable, e.retrieved_by))
            print(
                f"{printable(qid)}\t{printable(e.passage_id)}\tsystems {e.systems}"
                f"\tbest rank {e.best_rank}{by}"
            )
    return 0


def cmd_info(args, db_path) -> int:
    from desktop.app.terminal import printable

    with _open(db_path) as project:
        info = project.info()
    if args.json:
        return print_json(info)
    corpus = info["corpus"]
    print(f"database:        {printable(info['database'])} (schema {info['schema']})")
    if corpus:
        chunking = ", ".join(
            f"{k} {corpus[k]}" for k in ("unit", "chunk_size", "overlap") if corpus[k] is not None
        )
        chunking = f" ({chunking})" if chunking else ""
        print(f"corpus:          {printable(corpus['name'])}{chunking}")
    # Every chunking once there are several (the first is the corpus above); documents, if any.
    for c in info["chunkings"] if len(info["chunkings"]) > 1 else []:
        shape = ", ".join(
            f"{k} {c[k]}" for k in ("unit", "chunk_size", "overlap") if c[k] is not None
        )
        print(f"chunking:        {printable(c['name'])} ({c['passages']} passages; {shape or '-'})")
    if info["documents"]:
        print(f"documents:       {info['documents']}")
    for key in ("passages", "questions", "evidence_items", "alternatives", "results", "judgements"):
        print(f"{key + ':':<17}{info[key]}")
    for key in ("systems", "reviewers", "machines"):
        print(f"{key + ':':<17}{', '.join(map(printable, info[key])) or '-'}")
    return 0


def cmd_search(args, db_path) -> int:
    from desktop.app.terminal import printable
    from desktop.search import check_page

    problem = check_page(args.limit, args.offset)
    if problem:
        return fail(problem)
    with _open(db_path) as project:
        try:
            page = project.search(
                " ".join(args.text), args.limit, args.offset, args.order, args.chunking
            )
        except ValueError as error:  # an unknown chunking, named with the ones there are
            return fail(str(error))
    if args.json:
        return print_json(page.as_json())
    last = args.offset + len(page.passages)
    shown = f", {args.offset + 1}-{last} shown" if page.passages else ""
    print(f"{page.total} passages hold every word of {printable(page.query)!r}{shown}")
    for found in page.passages:
        print(f"{printable(found.passage_id)}  {printable(found.excerpt)}")
    return 0


def cmd_similar(args, db_path) -> int:
    from desktop.app.terminal import printable
    from desktop.search import check_page

    problem = check_page(args.limit, 0)
    if problem:
        return fail(problem)
    with _open(db_path) as project:
        try:
            found = project.similar(args.passage_id, args.limit, args.chunking)
        except ValueError as error:  # an unknown chunking
            return fail(str(error))
    if found is None:
        where = f"chunking {args.chunking!r}" if args.chunking else "the corpus"
        return fail(f"no passage {args.passage_id!r} in {where}")
    if args.json:
        return print_json(found.as_json())
    if not found.similar:
        print(f"no passage is like {printable(found.passage_id)!r}")
    for alike in found.similar:
        where = " ".join(printable(w) for w in (alike.document, alike.title) if w)
        print(f"{alike.score:.3f}  {printable(alike.passage_id)}  {where}".rstrip())
    return 0


def cmd_merge(args, db_path) -> int:
    with _open(db_path) as project:
        report = project.merge(args.other)
    print("\n".join(map(printable, report.lines())))
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
    for line in agreement_words.alpha_lines(data) + agreement_words.machine_lines(data):
        print(line)
    return 0


def cmd_demo(args, db_path) -> int:
    from desktop.app.sample import load_sample, load_study

    with _open(db_path) as project:
        for line in (load_study if args.study else load_sample)(project):
            print(line)
    what = "chunking study" if args.study else "sample project"
    print(f"{what} loaded into {printable(db_path)}")
    return 0


def cmd_restore(args, db_path) -> int:
    what = args.what
    with _open(db_path) as project:
        if args.list or not what:
            kept = project.backups()
            if not kept:
                print("no backups: no import has replaced gold, a run or questions yet")
            for b in kept:
                stale = b["kind"] in ("gold", "run") and not b["same_corpus"]  # db/undo.py
                note = " (corpus replaced)" if stale else ""
                print(
                    f"{b['id']:>4}  {b['at']}  {printable(b['summary'])}, "
                    f"before {printable(b['source_file'])}{note}"
                )
            return 0
        if what[0] == "judgements":
            if len(what) > 2:
                return fail("usage: restore judgements [JOURNAL]")
            report = project.restore_judgements(what[1] if len(what) == 2 else None, args.force)
            for line in map(printable, report.lines()):
                print(line, file=sys.stderr if line.startswith("warning:") else sys.stdout)
            return 0
        if len(what) != 1 or not (what[0] == "last-import" or what[0].isdigit()):
            return fail("usage: restore --list | restore last-import | restore ID")
        restored = project.restore_import(what[0])
    print(f"restored backup {restored['id']}: {printable(restored['summary'])}")
    return 0


COMMANDS = {
    "init": cmd_init,
    "import": cmd_import,
    "metrics": cmd_metrics,
    "compare": cmd_compare,
    "pool": cmd_pool,
    "export": cmd_export,
    "info": cmd_info,
    "search": cmd_search,
    "similar": cmd_similar,
    "merge": cmd_merge,
    "agreement": cmd_agreement,
    "demo": cmd_demo,
    "restore": cmd_restore,
}
