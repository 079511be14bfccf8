"""Nothing lost and nothing silently wrong at the command line: exports never overwrite what
the project uses, failures are one line with an exit status, printed text is safe, and killed
writes leave nothing behind."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from desktop import cli as cli_module
from desktop.app import paths, scratch
from desktop.app.terminal import SafeStream, printable
from tests.helpers import cli, cli_here, snapshot


@pytest.fixture
def demo_db(sample_template, tmp_path) -> Path:
    """What `demo` makes (the bundled sample, imported once per session), as y.db."""
    db = tmp_path / "y.db"
    shutil.copyfile(sample_template, db)
    return db


def _refused(db: Path, *args: str) -> subprocess.CompletedProcess:
    before = snapshot(db)
    result = cli(db, *args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(db) == before
    return result


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal", ".judgements.jsonl"])
def test_export_judgements_never_writes_onto_the_database_or_its_files(demo_db, suffix):
    target = demo_db.with_name(demo_db.name + suffix)
    existed = target.exists()
    content = target.read_bytes() if existed else None
    result = _refused(demo_db, "export", "judgements", str(target))
    assert str(target) in result.stderr
    assert target.exists() == existed
    if existed:
        assert target.read_bytes() == content


def test_report_never_replaces_the_database(demo_db):
    link = demo_db.with_name("report.xlsx")
    os.link(demo_db, link)  # the same file under an Excel name
    result = _refused(demo_db, "export", str(link))
    assert "database" in result.stderr


def test_export_refuses_another_database_a_backup_and_an_imported_file(demo_db, tmp_path):
    other = tmp_path / "other.db"
    assert cli_here(other, "init").returncode == 0
    other_bytes = other.read_bytes()
    _refused(demo_db, "export", "judgements", str(other))
    assert other.read_bytes() == other_bytes

    backups = paths.backup_dir()
    backups.mkdir(parents=True, exist_ok=True)
    _refused(demo_db, "export", "judgements", str(backups / "mine.jsonl"))
    assert not (backups / "mine.jsonl").exists()

    questions = tmp_path / "questions.jsonl"
    questions.write_text('{"id": "zz", "text": "새 질문"}\n', encoding="utf-8")
    assert cli_here(demo_db, "import", "questions", str(questions)).returncode == 0
    _refused(demo_db, "export", "judgements", str(questions))
    assert questions.read_text(encoding="utf-8") == '{"id": "zz", "text": "새 질문"}\n'


def test_export_into_a_missing_folder_names_the_target_not_a_temp_file(demo_db, tmp_path):
    target = tmp_path / "no such folder" / "report.xlsx"
    result = _refused(demo_db, "export", str(target))
    assert str(target) in result.stderr
    assert "rr-tmp" not in result.stderr and ".tmp" not in result.stderr
    result = _refused(demo_db, "export", "judgements", str(tmp_path / "missing" / "j.jsonl"))
    assert "does not exist" in result.stderr


def test_export_onto_a_folder_is_refused(demo_db, tmp_path):
    folder = tmp_path / "folder.xlsx"
    folder.mkdir()
    _refused(demo_db, "export", str(folder))


def test_a_broken_pipe_is_one_line_and_no_traceback(demo_db):
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop", "--db", str(demo_db), "metrics", "--per-question"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdout.close()  # the reader goes away before anything is written
    err = proc.stderr.read()
    assert proc.wait() == 2
    assert "Traceback" not in err and "Exception ignored" not in err
    assert err.count("\n") == 1 and "broken pipe" in err


def test_an_unexpected_error_is_one_line_with_the_log_and_exit_1(
    demo_db, monkeypatch, capsys, tmp_path
):
    def explode(args, db_path):
        raise RuntimeError("a bug")

    monkeypatch.setitem(cli_module.COMMANDS, "info", explode)
    try:
        assert cli_module.main(["--db", str(demo_db), "info"]) == 1
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        from desktop.app import logs

        logs.shutdown()
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "RuntimeError: a bug" in err
    log = paths.log_dir() / "recall-reviewer.log"
    assert str(log) in err
    assert "Traceback" in log.read_text(encoding="utf-8")


def test_control_characters_in_names_are_escaped_when_printed(demo_db, tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q01 Q0 art-070 1 2.0 x\n", encoding="utf-8")
    name = "evil\x1b[2J\x1b]0;title\x07\r\u202edone"
    assert cli_here(demo_db, "import", "run", str(run), "--system", name).returncode == 0
    for command in (["info"], ["metrics"]):
        out = cli(demo_db, *command).stdout
        assert "\x1b" not in out and "\r" not in out and "\u202e" not in out and "\x07" not in out
        assert "evil\\u001b[2J" in out
    data = json.loads(cli(demo_db, "metrics", "--json").stdout)
    assert name in [s["system"] for s in data["systems"]]  # JSON escapes mean the same text


def test_printable_and_safe_stream():
    assert printable("a\nb\tc\x1b") == "a\\u000ab\\u0009c\\u001b"
    assert printable("대한민국 ｢헌법｣") == "대한민국 ｢헌법｣"

    class Sink:
        text = ""

        def write(self, t):
            self.text += t

    sink = Sink()
    SafeStream(sink).write('{"a": "x\u202ey\x9b"}\n\tend\n')
    assert sink.text == '{"a": "x\\u202ey\\u009b"}\n\tend\n'
    assert json.loads(sink.text.splitlines()[0]) == {"a": "x\u202ey\x9b"}


def test_report_holds_its_records_in_memory_and_leaves_only_the_report(demo_db, tmp_path):
    # issue 24: nothing is spilled beside the target while the sheets are written (no
    # .rr-parts folder); the file appears once, renamed into place.
    from desktop.project import Project
    from desktop.report import write_report

    system_temp = set(Path(tempfile.gettempdir()).glob("openpyxl.*"))
    out = tmp_path / "out"
    out.mkdir()
    seen: list[str] = []

    def progress(done, total, phase=None):
        seen.extend(p.name for p in out.iterdir())

    with Project(demo_db) as project:
        write_report(project, out / "r.xlsx", [5], progress, resamples=20, permutations=20)
    # the workbook being saved, once the sheets are written, and nothing else
    assert {name.rsplit(".", 1)[-1] for name in seen} == {"rr-tmp"}
    assert sorted(p.name for p in out.iterdir()) == ["r.xlsx"]
    assert set(Path(tempfile.gettempdir()).glob("openpyxl.*")) <= system_temp
    assert not list(paths.pending_dir().glob("*.json"))


def test_the_leftovers_of_a_killed_write_are_removed_on_the_next_open(demo_db, tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    tmp = tmp_path / ".r.xlsx.deadbeef.rr-tmp"
    parts = tmp_path / ".r.xlsx.deadbeef.rr-parts"
    tmp.write_bytes(b"half a workbook")
    parts.mkdir()
    (parts / "openpyxl.abc").write_bytes(b"x" * 1000)
    keep = tmp_path / "r.xlsx"  # not a name scratch makes: never removed
    keep.write_bytes(b"the user's file")
    pending = paths.pending_dir()
    pending.mkdir(parents=True, exist_ok=True)
    record = {"pid": dead.pid, "paths": [str(tmp), str(parts), str(keep)]}
    (pending / f"{dead.pid}-deadbeef.json").write_text(json.dumps(record), encoding="utf-8")
    alive = pending / f"{os.getpid()}-cafe.json"
    alive.write_text(json.dumps({"pid": os.getpid(), "paths": []}), encoding="utf-8")

    assert cli(demo_db, "info").returncode == 0
    assert not tmp.exists() and not parts.exists()
    assert keep.read_bytes() == b"the user's file"
    assert alive.exists()  # a living process's write is left alone
    assert scratch.clean_leftovers() == 0
