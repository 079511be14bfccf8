"""Gold entries given as spans (issue 19 item 2, design section 10): imported through the
command line beside passage items, refused with FILE:LINE and the database unchanged when a
span cannot be placed, undone by `restore last-import`, and written back by `export gold`
(qrels only onto a chunking's passages)."""

from __future__ import annotations

import json
import unicodedata

import pytest

from tests.evaluation.test_span_items import db, gold_lines  # noqa: F401 (a fixture)
from tests.evaluation.test_span_scoring import DOCUMENTS
from tests.helpers import cli, cli_here, snapshot, write_jsonl


def gold_file(tmp_path, evidence, name="bad.jsonl"):
    return write_jsonl(tmp_path / name, [{"question_id": "q2", "evidence": evidence}])


def test_the_gold_round_trips_through_export_gold(db, tmp_path):  # noqa: F811
    """The exported JSONL holds every span item with its role and its alternatives, spans
    and passage ids, as it was imported."""
    out = tmp_path / "out.jsonl"
    done = cli(db, "export", "gold", str(out))
    assert done.returncode == 0, done.stderr
    got = {line["question_id"]: line["evidence"] for line in map(json.loads, out.open())}
    want = {line["question_id"]: line["evidence"] for line in gold_lines()}
    for qid, items in want.items():
        for item in items:
            item["alternatives"] = sorted(
                item["alternatives"], key=lambda a: (not isinstance(a, str), str(a))
            )
            if not item["alternatives"]:
                del item["alternatives"]
            if item["role"] is None:
                del item["role"]
        assert got[qid] == items, qid


def test_qrels_cannot_hold_a_span_unless_projected(db, tmp_path):  # noqa: F811
    out = tmp_path / "gold.qrels"
    done = cli(db, "export", "gold", str(out), "--format", "qrels")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--chunking NAME" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()
    done = cli(db, "export", "gold", str(out), "--format", "qrels", "--chunking", "c100")
    assert done.returncode == 0, done.stderr
    lines = out.read_text().split("\n")
    # q2's span d2[85:150) projected: the 100-character passages holding half of it
    assert "q2 projected:c100@0.5 c100-d2-80 2" in lines


BAD = [
    ({"span": {"document_id": "d2", "start": 10, "end": 999}}, "runs past the end"),
    ({"span": {"document_id": "d2", "start": 30, "end": 30}}, "start < end"),
    ({"span": {"document_id": "d2", "start": 40, "end": 30}}, "start < end"),
    ({"span": {"document_id": "d9", "start": 0, "end": 5}}, "unknown document id 'd9'"),
    ({"span": {"document_id": "d2", "start": "0", "end": 5}}, "whole number"),
    ({"span": {"document_id": "d2", "start": True, "end": 5}}, "whole number"),
    ({"span": {"start": 0, "end": 5}}, "document_id"),
    ({"span": [0, 5]}, "must be an object"),
    ({"span": {"document_id": "d2", "start": 0, "end": 5}, "passage_id": "c40-d2-0"}, "not both"),
    (
        {
            "span": {"document_id": "d2", "start": 0, "end": 5},
            "alternatives": [{"document_id": "d1", "start": 0, "end": 9999}],
        },
        "runs past the end",
    ),
    (
        {"span": {"document_id": "d2", "start": 0, "end": 5}, "alternatives": ["nope"]},
        "unknown passage id 'nope'",
    ),
]


@pytest.mark.parametrize("entry, words", BAD)
def test_a_span_that_cannot_be_placed_is_refused_with_its_line(db, tmp_path, entry, words):  # noqa: F811
    good = {"passage_id": "c40-d2-80"}
    path = write_jsonl(
        tmp_path / "bad.jsonl",
        [{"question_id": "q1", "evidence": [good]}, {"question_id": "q2", "evidence": [entry]}],
    )
    before = snapshot(db)
    done = cli(db, "import", "gold", str(path))
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith(f"{path}:2: ") and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert snapshot(db) == before


def test_a_span_on_a_database_with_no_documents_is_refused(tmp_path):
    path = tmp_path / "db.sqlite"
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p1", "text": "대한민국"}])
    write_jsonl(tmp_path / "q.jsonl", [{"id": "q2", "text": "질문"}])
    for step in (("init",), ("import", "corpus", str(tmp_path / "c.jsonl"))):
        assert cli(path, *step).returncode == 0
    assert cli_here(path, "import", "questions", str(tmp_path / "q.jsonl")).returncode == 0
    gold = gold_file(tmp_path, [{"span": {"document_id": "d1", "start": 0, "end": 2}}])
    before = snapshot(path)
    done = cli(path, "import", "gold", str(gold))
    assert done.returncode == 2 and done.stderr.startswith(f"{gold}:1: ")
    assert "import documents" in done.stderr and snapshot(path) == before


def test_restore_last_import_puts_the_span_gold_back(db, tmp_path):  # noqa: F811
    """A second gold import replaces q1's span item and q3's alternative span; restoring it
    brings both back exactly (export gold before and after are the same file)."""
    before = tmp_path / "before.jsonl"
    assert cli(db, "export", "gold", str(before)).returncode == 0
    new = write_jsonl(
        tmp_path / "new.jsonl",
        [
            {"question_id": "q1", "evidence": [{"passage_id": "c40-d1-0"}]},
            {
                "question_id": "q3",
                "evidence": [{"span": {"document_id": "d1", "start": 0, "end": 3}}],
            },
        ],
    )
    done = cli(db, "import", "gold", str(new))
    assert done.returncode == 0, done.stderr
    assert "3 evidence items and 3 alternatives removed" in done.stdout, done.stdout
    during = tmp_path / "during.jsonl"
    assert cli(db, "export", "gold", str(during)).returncode == 0
    assert during.read_text() != before.read_text()
    done = cli(db, "restore", "last-import")
    assert done.returncode == 0, done.stderr
    after = tmp_path / "after.jsonl"
    assert cli(db, "export", "gold", str(after)).returncode == 0
    assert after.read_text() == before.read_text()


def test_offsets_count_nfc_code_points(tmp_path):
    """A document given in NFD is stored in NFC: a span's offsets count its composed
    syllables, so '국회' is [0, 2), not the four jamo of its NFD spelling."""
    path = tmp_path / "db.sqlite"
    text = "국회는 법률을 제정한다."
    nfd = unicodedata.normalize("NFD", text)
    assert len(nfd) > len(text)
    write_jsonl(tmp_path / "d.jsonl", [{"id": "d1", "text": nfd}])
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p1", "text": nfd, "document_id": "d1"}])
    write_jsonl(tmp_path / "q.jsonl", [{"id": "q2", "text": "질문"}])
    assert cli_here(path, "init").returncode == 0
    for kind, name in (("documents", "d"), ("corpus", "c"), ("questions", "q")):
        done = cli(path, "import", kind, str(tmp_path / f"{name}.jsonl"))
        assert done.returncode == 0, done.stderr
    whole = gold_file(tmp_path, [{"span": {"document_id": "d1", "start": 0, "end": len(text)}}])
    assert cli_here(path, "import", "gold", str(whole)).returncode == 0
    past = gold_file(tmp_path, [{"span": {"document_id": "d1", "start": 0, "end": len(nfd)}}])
    done = cli(path, "import", "gold", str(past))
    assert done.returncode == 2 and f"({len(text)} characters)" in done.stderr


def test_documents_that_span_items_count_in_keep_their_text(db, tmp_path):  # noqa: F811
    changed = {"id": "d2", "text": DOCUMENTS["d2"][::-1]}
    done = cli(db, "import", "documents", str(write_jsonl(tmp_path / "d.jsonl", [changed])))
    assert done.returncode == 2 and "evidence given as spans" in done.stderr


def test_a_backup_whose_span_document_is_gone_is_refused_not_put_back_without_it(tmp_path):
    """Span gold replaced by a second import, then its document removed (the documents
    import undone): putting the first gold back would lose its span item, so the restore is
    refused naming the document, and nothing changes."""
    path = tmp_path / "db.sqlite"
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p1", "text": "대한민국"}])
    write_jsonl(tmp_path / "q.jsonl", [{"id": "q2", "text": "질문"}])
    write_jsonl(tmp_path / "d.jsonl", [{"id": "d1", "text": "국회는 법률을 제정한다."}])
    assert cli_here(path, "init").returncode == 0
    for kind, name in (("corpus", "c"), ("questions", "q"), ("documents", "d")):
        assert cli_here(path, "import", kind, str(tmp_path / f"{name}.jsonl")).returncode == 0
    span = gold_file(tmp_path, [{"span": {"document_id": "d1", "start": 0, "end": 3}}], "s.jsonl")
    plain = gold_file(tmp_path, [{"passage_id": "p1"}], "p.jsonl")
    for gold in (span, plain):
        done = cli(path, "import", "gold", str(gold))
        assert done.returncode == 0, done.stderr
    listed = cli(path, "restore", "--list").stdout
    documents = next(line.split()[0] for line in listed.splitlines() if "documents" in line)
    done = cli(path, "restore", documents.strip("#:"))
    assert done.returncode == 0, (listed, done.stderr)
    before = snapshot(path)
    done = cli(path, "restore", "last-import")
    assert done.returncode != 0 and "document d1" in done.stderr, done.stderr
    assert snapshot(path) == before
