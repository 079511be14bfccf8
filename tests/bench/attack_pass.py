"""A careless user's and an attacker's pass over the command line (issue 18's audit, again).

Each check runs the real `recall-reviewer` command in a subprocess on a temporary folder and
asks what a user would: did it answer in one line, exit 2 on bad input, leave the database
exactly as it was, never print a traceback, never hang, never empty or replace a file it should
not? Prints one JSON object: the count of checks, the failures named. Leaves nothing behind.

    python tests/bench/attack_pass.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"
checks: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: str = "") -> None:
    checks.append((name, bool(ok), detail))


def run(db: Path, *args: str, timeout: float = 60, cwd: Path | None = None, **kw):
    command = [sys.executable, "-m", "desktop", "--db", str(db), *args]
    env = {**os.environ, "RECALL_REVIEWER_HOME": str(db.parent / "home")}
    try:
        return subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd or ROOT, **kw
        )
    except subprocess.TimeoutExpired:
        return None


def state(db: Path) -> str:
    """What a database holds, as a hash of its dump (a refused command changes nothing)."""
    if not db.exists():
        return "missing"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        digest = hashlib.sha256()
        for line in con.iterdump():
            digest.update(line.encode())
        return digest.hexdigest()
    finally:
        con.close()


def answered(name: str, done, db: Path | None = None, before: str | None = None, code=2) -> None:
    """A refusal: one line (or a few), the exit code, no traceback, the database unchanged."""
    if done is None:
        check(name, False, "hung (timeout)")
        return
    problems = []
    if done.returncode != code:
        problems.append(f"exit {done.returncode}")
    if "Traceback" in done.stderr or "Traceback" in done.stdout:
        problems.append("traceback")
    if code == 2 and not done.stderr.strip():
        problems.append("no words")
    if db is not None and before is not None and state(db) != before:
        problems.append("database changed")
    check(name, not problems, "; ".join(problems) + " " + done.stderr.strip()[:160])


def fresh(folder: Path, name: str = "d.db") -> Path:
    db = folder / name
    done = run(db, "demo")
    assert done and done.returncode == 0, done and done.stderr
    return db


def inputs_that_are_not_files(tmp: Path, db: Path) -> None:
    fifo = tmp / "fifo.jsonl"
    os.mkfifo(fifo)
    kinds = ["corpus", "questions", "gold", "judgements"]
    targets = {
        "fifo": fifo,
        "dir": tmp,
        "/dev/zero": Path("/dev/zero"),
        "/dev/null": Path("/dev/null"),
    }
    targets["/dev/urandom"] = Path("/dev/urandom")
    for label, path in targets.items():
        for kind in kinds:
            before = state(db)
            answered(
                f"import {kind} from {label}",
                run(db, "import", kind, str(path), timeout=20),
                db,
                before,
            )
        before = state(db)
        answered(
            f"import run from {label}",
            run(db, "import", "run", str(path), "--system", "x", timeout=20),
            db,
            before,
        )
        before = state(db)
        answered(f"merge from {label}", run(db, "merge", str(path), timeout=20), db, before)
        answered(
            f"restore judgements from {label}",
            run(db, "restore", "judgements", str(path), timeout=20),
            db,
            state(db),
        )
    link = tmp / "dangling.jsonl"
    link.symlink_to(tmp / "nowhere.jsonl")
    answered(
        "import corpus from a dangling symlink",
        run(db, "import", "corpus", str(link)),
        db,
        state(db),
    )


def mistyped_database(tmp: Path) -> None:
    mine = tmp / "mine.jsonl"
    mine.write_text('{"kept": 1}\n' * 30)
    content = mine.read_bytes()
    typo = tmp / "tpyo.db"
    for args in (
        ("export", "judgements", str(mine)),
        ("export", "gold", str(mine)),
        ("export", str(tmp / "r.xlsx")),
        ("metrics",),
        ("compare",),
        ("pool",),
        ("info",),
        ("agreement",),
        ("search", "헌법"),
        ("import", "corpus", str(SAMPLE / "corpus.jsonl")),
        ("restore", "--list"),
        ("merge", str(tmp / "other.db")),
    ):
        done = run(typo, *args)
        answered(f"mistyped --db: {args[0]} {args[1] if len(args) > 1 else ''}", done)
        check(f"mistyped --db creates nothing ({' '.join(args[:2])})", not typo.exists())
    check("mistyped --db leaves the user's file whole", mine.read_bytes() == content)
    folder = tmp / "afolder"
    folder.mkdir()
    answered("a folder as --db", run(folder, "info"))


def export_targets(tmp: Path, db: Path) -> None:
    fifo = tmp / "out.fifo"
    os.mkfifo(fifo)
    other = fresh(tmp, "other.db")
    journal = other.with_name(other.name + ".judgements.jsonl")
    run(other, "import", "judgements", str(judgement_file(tmp)))
    journal_before = journal.read_bytes() if journal.exists() else b""
    for label, target in {
        "a FIFO": fifo,
        "/dev/stdout": Path("/dev/stdout"),
        "/dev/null": Path("/dev/null"),
        "a folder": tmp,
        "the database itself": db,
        "its own journal": db.with_name(db.name + ".judgements.jsonl"),
        "another database's journal": journal,
        "another database": other,
        "a folder that does not exist": tmp / "nope" / "x.jsonl",
    }.items():
        for args in (("judgements", str(target)), ("gold", str(target))):
            before = state(db)
            done = run(db, "export", *args, timeout=20)
            answered(f"export {args[0]} to {label}", done, db, before)
        done = run(
            db, "export", str(target) + ("" if str(target).endswith(".xlsx") else ""), timeout=20
        )
        check(
            f"export report to {label} refused or harmless",
            done is not None and "Traceback" not in done.stderr and done.returncode in (0, 2),
        )
    check(
        "another database's journal untouched",
        (journal.read_bytes() if journal.exists() else b"") == journal_before,
    )
    check("/dev/stdout is still a link to the process's output", Path("/dev/stdout").is_symlink())
    full = tmp / "full.jsonl"
    full.write_text('{"x": 1}\n')
    empty = tmp / "empty.db"
    run(empty, "init")
    for what in ("judgements", "gold"):
        done = run(empty, "export", what, str(full))
        answered(f"an empty export of {what} over a non-empty file", done)
        check(f"the non-empty file kept ({what})", full.read_text() == '{"x": 1}\n')
    done = run(empty, "export", "judgements", str(full), "--force")
    check("--force lets an empty export replace it", done is not None and done.returncode == 0)


def judgement_file(tmp: Path) -> Path:
    """Lines a reviewer could have written about the sample's first question."""
    questions = [json.loads(line) for line in (SAMPLE / "questions.jsonl").read_text().splitlines()]
    gold = [json.loads(line) for line in (SAMPLE / "gold.jsonl").read_text().splitlines()]
    q = questions[0]["id"]
    passage = gold[0]["evidence"][0]["passage_id"] if gold[0]["evidence"] else "x"
    base = {"reviewer": "kim", "at": "2026-12-01T10:00:00+09:00", "question_id": q}
    lines = [
        {**base, "kind": "role", "passage_id": passage, "value": "core"},
        {**base, "kind": "note", "value": "same", "system": "A"},
        {**base, "kind": "note", "value": "same", "system": "B"},
    ]
    path = tmp / "lines.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return path


def identity(tmp: Path) -> None:
    db = fresh(tmp, "ident.db")
    lines = judgement_file(tmp)
    done = run(db, "import", "judgements", str(lines))
    check(
        "two notes differing only in system both import",
        done is not None and done.returncode == 0,
        done.stdout if done else "",
    )
    out = tmp / "back.jsonl"
    run(db, "export", "judgements", str(out))
    systems = sorted(
        json.loads(line).get("system", "")
        for line in out.read_text().splitlines()
        if '"note"' in line
    )
    check("both notes exported", systems == ["A", "B"], str(systems))
    other = fresh(tmp, "ident2.db")
    run(other, "merge", str(db))
    out2 = tmp / "back2.jsonl"
    run(other, "export", "judgements", str(out2))
    check("both notes survive merge", out2.read_text().count('"note"') == 2)
    check(
        "merge leaves no -wal/-shm beside the source",
        not any(db.with_name(db.name + s).exists() for s in ("-wal", "-shm")),
    )


def hostile_files(tmp: Path, db: Path) -> None:
    cases = {
        "binary.jsonl": os.urandom(5000),
        "long_line.jsonl": b'{"id": "p", "text": "' + b"a" * 2_000_000 + b'"}\n',
        "nested.jsonl": b"[" * 100000 + b"]" * 100000 + b"\n",
        "nan.jsonl": b'{"question_id": "q1", "results": [{"passage_id": "p", "score": NaN}]}\n',
        "utf16.jsonl": '{"id": "p1", "text": "가"}\n'.encode("utf-16"),
        "bad_utf8.jsonl": b'{"id": "p1", "text": "\xff\xfe\xfa"}\n',
        "empty.jsonl": b"",
        "crlf_bom.jsonl": b'\xef\xbb\xbf{"id": "q1", "text": "a"}\r\n',
        "newline_id.jsonl": b'{"id": "q\\nFAKE: error", "text": "a"}\n',
        "huge_number.jsonl": b'{"question_id": "q1", "results": [{"passage_id": "p", "rank": '
        + b"9" * 5000
        + b"}]}\n",
        "gz_garbage.jsonl.gz": b"\x1f\x8b" + os.urandom(200),
        "gz_bomb.jsonl.gz": gzip.compress(b"a" * 50_000_000),
        "corpus_as_questions.jsonl": (SAMPLE / "corpus.jsonl")
        .read_bytes()[:20000]
        .rsplit(b"\n", 1)[0]
        + b"\n",
        "questions.tsv": b"id\ttext\nq1\t\xed\x95\x9c\n",
        "trec_bad.trec": b"q1 Q0 p1 1 nan run\nq1 Q0 p2 x 1 run\n",
        "qrels_fullwidth.qrels": "q1 0 p1 １２\n".encode(),
    }
    for name, content in cases.items():
        path = tmp / name
        path.write_bytes(content)
        for kind in ("corpus", "questions", "gold", "judgements", "run"):
            extra = ("--system", "x") if kind == "run" else ()
            before = state(db)
            done = run(db, "import", kind, str(path), *extra, timeout=60)
            if done is None:
                check(f"import {kind} {name}", False, "hung")
                continue
            fine = done.returncode in (0, 2) and "Traceback" not in done.stderr
            if done.returncode == 2:
                fine = fine and state(db) == before and done.stderr.strip() != ""
            fine = fine and "\nFAKE" not in done.stdout + done.stderr
            check(
                f"import {kind} {name}", fine, f"exit {done.returncode} {done.stderr.strip()[:120]}"
            )
    for encoding in ("rot13", "base64", "zlib_codec", "nope"):
        before = state(db)
        answered(
            f"--encoding {encoding}",
            run(db, "import", "corpus", str(SAMPLE / "corpus.jsonl"), "--encoding", encoding),
            db,
            before,
        )


def kills(tmp: Path) -> None:
    """SIGKILL an import at random moments: the database opens, holds the before or the after."""
    corpus = tmp / "big.jsonl"
    with corpus.open("w") as out:
        for i in range(60000):
            out.write(
                json.dumps({"id": f"k{i}", "text": f"가나다 {i} " * 20}, ensure_ascii=False) + "\n"
            )
    for n, delay in enumerate((0.3, 0.6, 0.9, 1.2, 1.6, 2.0, 2.5, 3.0)):
        db = fresh(tmp, f"kill{n}.db")
        before = state(db)
        env = {**os.environ, "RECALL_REVIEWER_HOME": str(tmp / "home")}
        process = subprocess.Popen(
            [sys.executable, "-m", "desktop", "--db", str(db), "import", "corpus", str(corpus)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        con = sqlite3.connect(db)
        ok = con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        passages = con.execute("SELECT count(*) FROM passage").fetchone()[0]
        con.close()
        after_ok = state(db) == before or passages == 60000
        check(
            f"SIGKILL at {delay}s: intact, before or after", ok and after_ok, f"{passages} passages"
        )
        done = run(db, "info")
        check(
            f"SIGKILL at {delay}s: the next command answers",
            done is not None and done.returncode == 0,
        )


def two_writers(tmp: Path) -> None:
    db = fresh(tmp, "two.db")
    lines = judgement_file(tmp)
    env = {**os.environ, "RECALL_REVIEWER_HOME": str(tmp / "home")}
    command = [sys.executable, "-m", "desktop", "--db", str(db), "--wait", "20"]
    processes = [
        subprocess.Popen(
            command + ["import", "corpus", str(SAMPLE / "corpus.jsonl")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ),
        subprocess.Popen(
            command + ["import", "judgements", str(lines)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ),
    ]
    results = [(p.wait(timeout=120), p.stderr.read()) for p in processes]
    check(
        "two writers: both finish, no traceback",
        all(code in (0, 2) and "Traceback" not in err for code, err in results),
        str(results),
    )
    con = sqlite3.connect(db)
    check(
        "two writers: database intact", con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    )
    con.close()


def full_disk(tmp: Path) -> None:
    """A small tmpfs: imports and exports that run out of room say so and lose nothing."""
    mount = tmp / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1200k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        check("full disk (needs root to mount a tmpfs)", True, "skipped: not root")
        return
    try:
        db = mount / "d.db"
        run(db, "init")
        corpus = tmp / "corpus.jsonl"  # about 3 MB of text: more than the disk holds
        with corpus.open("w") as out:
            for i in range(8000):
                text = f"대한민국 헌법 {i} " * 20
                out.write(json.dumps({"id": f"p{i}", "text": text}, ensure_ascii=False) + "\n")
        done = run(db, "import", "corpus", str(corpus))
        answered("import corpus onto a full disk", done)
        if done is not None:
            check("full disk named as such", "full" in done.stderr.lower(), done.stderr[:200])
        con = sqlite3.connect(db)
        check(
            "full disk: database intact",
            con.execute("PRAGMA integrity_check").fetchone()[0] == "ok",
        )
        con.close()
        small = tmp / "s.db"
        fresh(tmp, "s.db")
        filler = mount / "filler"
        with suppress_oserror():
            filler.write_bytes(b"x" * 1_300_000)
        done = run(small, "export", "gold", str(mount / "g.jsonl"))
        answered("export onto a full disk", done)
        if done is not None:
            check(
                "export onto a full disk names the file",
                "g.jsonl" in done.stderr,
                done.stderr[:200],
            )
        check(
            "export onto a full disk leaves no half file",
            not any(p.name.startswith(".") or p.name == "g.jsonl" for p in mount.iterdir()),
        )
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


class suppress_oserror:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is not None and issubclass(kind, OSError)


def printing(tmp: Path) -> None:
    db = fresh(tmp, "print.db")
    name = tmp / "evil\nFAKE: line.trec"
    name.write_text("q1 Q0 p1 1 2 x\n")
    done = run(db, "import", "run", str(name), "--system", "a\tb")
    text = (done.stdout + done.stderr) if done else ""
    check("a file name holding a newline is printed on one line", "\nFAKE" not in text, text[:200])
    done = run(db, "pool", "--depth", "1")
    check(
        "pool prints without raw control characters",
        done is not None and "\t" not in done.stdout.replace("\t", ""),
    )


def merge_sources(tmp: Path, db: Path) -> None:
    plain = tmp / "plain.db"
    con = sqlite3.connect(plain)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    newer = fresh(tmp, "newer.db")
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    text = tmp / "text.db"
    text.write_text("not a database")
    for label, path in {
        "a plain SQLite file": plain,
        "a newer schema": newer,
        "a text file": text,
        "a folder": tmp,
        "itself": db,
    }.items():
        before = state(db)
        answered(f"merge from {label}", run(db, "merge", str(path)), db, before)
        check(
            f"merge from {label} leaves nothing beside it",
            not any(path.with_name(path.name + s).exists() for s in ("-wal", "-shm"))
            or label == "itself",
        )


def journal_blocked(tmp: Path) -> None:
    """The journal cannot be written (a folder in its place, a read-only file): the command says
    so after the judgements are saved, exit 2."""
    for how in ("folder", "read-only"):
        db = fresh(tmp, f"j-{how}.db")
        journal = db.with_name(db.name + ".judgements.jsonl")
        if how == "folder":
            journal.unlink(missing_ok=True)
            journal.mkdir()
        else:
            journal.touch()
            journal.chmod(0o444)
        done = run(db, "import", "judgements", str(judgement_file(tmp)))
        said = done is not None and done.returncode == 2 and "journal" in done.stderr
        if how == "read-only" and os.geteuid() == 0:
            said = done is not None and done.returncode in (0, 2)  # root writes read-only files
        check(f"a journal that is a {how} is named", said, done.stderr[:200] if done else "hung")
        con = sqlite3.connect(db)
        kept = con.execute("SELECT count(*) FROM judgement").fetchone()[0]
        con.close()
        check(f"judgements saved although the journal is a {how}", kept == 3, str(kept))


def home_problems(tmp: Path) -> None:
    afile = tmp / "homefile"
    afile.write_text("x")
    env = {**os.environ, "RECALL_REVIEWER_HOME": str(afile)}
    done = subprocess.run(
        [sys.executable, "-m", "desktop", "info"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    check(
        "RECALL_REVIEWER_HOME a file: one line",
        done.returncode == 2
        and "File exists" not in done.stderr
        and "Traceback" not in done.stderr,
        done.stderr[:200],
    )


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="recall-attack-") as name:
        tmp = Path(name)
        db = fresh(tmp)
        for step in (
            lambda: inputs_that_are_not_files(tmp / "a", db),
            lambda: mistyped_database(tmp / "b"),
            lambda: export_targets(tmp / "c", db),
            lambda: identity(tmp / "d"),
            lambda: hostile_files(tmp / "e", db),
            lambda: merge_sources(tmp / "f", db),
            lambda: printing(tmp / "g"),
            lambda: home_problems(tmp / "h"),
            lambda: journal_blocked(tmp / "l"),
            lambda: two_writers(tmp / "i"),
            lambda: full_disk(tmp / "j"),
            lambda: kills(tmp / "k"),
        ):
            for sub in "abcdefghijkl":
                (tmp / sub).mkdir(exist_ok=True)
            step()
        shutil.rmtree(tmp, ignore_errors=True)
    failed = [(n, d) for n, ok, d in checks if not ok]
    print(
        json.dumps(
            {"checks": len(checks), "passed": len(checks) - len(failed), "failed": failed},
            ensure_ascii=False,
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
