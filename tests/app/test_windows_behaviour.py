"""What Windows users bring, checked on Linux: CSV files saved by Korean Excel (CP949, with or
without a BOM, CRLF line ends), CRLF in every kind of file, Korean folder names with spaces,
a database in a network or synced folder, output to a pipe in the ANSI code page, and the log's
first line without WMI. The Windows build itself is in test_windows_packaging.py."""

from __future__ import annotations

import codecs
import io
import json
import platform
import sys
from types import SimpleNamespace

import pytest

from desktop.app import logs
from desktop.app.paths import shared_folder
from desktop.app.terminal import SafeStream
from desktop.readers import InputError
from tests.helpers import cli, write_text

EXCEL_CSV = (
    'id,text\r\np1,대통령의 임기는 5년으로 한다.\r\np2,"국회의원의 임기는 4년, 연임 가능"\r\n'
)


@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8], ids=["cp949", "bom+cp949"])
def test_korean_excel_csv_is_named_cp949_and_imported_with_it(project, tmp_path, bom):
    path = tmp_path / "말뭉치 파일.csv"
    path.write_bytes(bom + EXCEL_CSV.encode("cp949"))
    with pytest.raises(InputError) as caught:
        project.import_corpus(path)
    assert "CP949/EUC-KR" in str(caught.value) and "--encoding cp949" in str(caught.value)
    project.import_corpus(path, encoding="cp949")
    assert project.store.passage("p1")["text"] == "대통령의 임기는 5년으로 한다."
    assert project.store.passage("p2")["text"] == "국회의원의 임기는 4년, 연임 가능"


def test_excel_utf8_csv_with_bom_needs_no_option(project, tmp_path):
    path = tmp_path / "c.csv"
    path.write_bytes(codecs.BOM_UTF8 + EXCEL_CSV.encode("utf-8"))
    project.import_corpus(path)
    assert project.store.passage("p1")["text"] == "대통령의 임기는 5년으로 한다."


def test_crlf_in_every_kind_of_file(project, tmp_path):
    def crlf(name: str, lines: list[str]):
        return write_text(tmp_path / name, "\r\n".join(lines) + "\r\n")

    rows = [{"id": "p1", "text": "대한민국은 민주공화국이다."}, {"id": "p2", "text": "주권"}]
    project.import_corpus(crlf("c.jsonl", [json.dumps(r, ensure_ascii=False) for r in rows]))
    project.import_questions(crlf("q.tsv", ["q1\t주권은 누구에게?", "q2\t국호는?"]))
    gold = [{"question_id": "q1", "evidence": [{"passage_id": "p2"}]},
            {"question_id": "q2", "evidence": [{"passage_id": "p1"}]}]  # fmt: skip
    project.import_gold(crlf("g.jsonl", [json.dumps(g) for g in gold]))
    run = ["q1 Q0 p2 1 2.5 bm25", "q1 Q0 p1 2 1.0 bm25", "q2 Q0 p1 1 3.0 bm25"]
    project.import_run(crlf("r.trec", run), system="bm25")
    assert project.store.passage("p2")["text"] == "주권"
    assert project.store.question("q2")["text"] == "국호는?"
    assert project.store.evidence_primaries() == {"q1": {"p2"}, "q2": {"p1"}}
    assert len(list(project.store.result_rows())) == 3


def test_korean_folder_and_file_names_with_spaces(tmp_path):
    db = tmp_path / "검토 폴더" / "리뷰 파일.db"
    db.parent.mkdir()
    assert cli(db, "demo").returncode == 0
    done = cli(db, "metrics", "--json", "--k", "5")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["systems"]) >= 2
    report = db.parent / "보고서 1.xlsx"
    assert cli(db, "export", str(report)).returncode == 0 and report.stat().st_size > 0


@pytest.mark.parametrize(
    "path, risk",
    [
        ("\\\\nas\\연구실\\리뷰.db", "network"),
        ("//nas/share/review.db", "network"),
        ("C:\\Users\\kim\\OneDrive - 연구소\\검토\\리뷰.db", "OneDrive - 연구소"),
        ("C:\\Users\\kim\\OneDrive\\review.db", "OneDrive"),
        ("C:\\Users\\kim\\Dropbox\\review.db", "Dropbox"),
        ("G:\\My Drive\\review.db", "My Drive"),
        ("/Users/kim/Library/Mobile Documents/com~apple~CloudDocs/r.db", "com~apple~CloudDocs"),
        ("/home/kim/Dropbox/검토 폴더/r.db", "Dropbox"),
        ("C:\\Users\\kim\\Documents\\검토 폴더\\리뷰.db", None),
        ("D:\\dropbox.db", None),  # the file's own name is not a folder
        ("/home/kim/boxes/r.db", None),
    ],
)
def test_network_and_synced_folders_are_recognised(path, risk):
    assert shared_folder(path, network_drive=False) == risk


def test_a_mapped_network_drive_is_a_network_folder():
    assert shared_folder("Z:\\검토\\리뷰.db", network_drive=True) == "network"
    assert shared_folder("/tmp/r.db") is None  # not Windows: no drive letters to ask about


@pytest.mark.parametrize("encoding", ["cp949", "cp1252"])
def test_output_in_the_ansi_code_page_never_fails(encoding):
    """Windows writes a pipe or a file in the ANSI code page; a character outside it is
    escaped, not an 'unexpected error' after the work was done."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    text = "sample project loaded into C:\\검토\\리뷰 ✓.db\n"
    assert SafeStream(stream).write(text) == len(text)
    stream.flush()
    written = raw.getvalue().decode(encoding)
    assert "\\u2713" in written and written.endswith(".db\n")
    assert ("검토" in written) == (encoding == "cp949")


def test_the_log_names_windows_without_asking_wmi(monkeypatch):
    def wmi(*args, **kwargs):
        raise AssertionError("platform.platform() asks WMI on Windows; it aborts under Wine")

    monkeypatch.setattr(sys, "platform", "win32")
    version = SimpleNamespace(major=10, minor=0, build=22631)
    monkeypatch.setattr(sys, "getwindowsversion", lambda: version, raising=False)
    monkeypatch.setattr(platform, "platform", wmi)
    assert logs.system_name() == "Windows 10.0.22631"
