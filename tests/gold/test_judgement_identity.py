"""A judgement's identity is every field of its line: two lines that differ in any one field
(a note's system, an adjudication's settles, ...) are two judgements for import, merge, export
and the journal alike, and the same line twice is one."""

from __future__ import annotations

import json
import shutil
import sqlite3
import unicodedata
from datetime import datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db import SCHEMA_VERSION, Store, journal
from desktop.project import Project
from tests.helpers import cli, small_project, write_jsonl

FIELDS = ("reviewer", "at", "question_id", "kind", "passage_id", "value", "settles", "system")


def in_nfc(text: str) -> bool:
    return unicodedata.normalize("NFC", text) == text


# Text already in NFC: imports normalise every text (design section 10), which is another
# test's subject; here two lines must differ after import as they did before it. Names too:
# 豈 (U+F900) and 豈 (U+8C48) are one reviewer once imported.
names = st.text(min_size=1, max_size=12).map(str.strip).filter(bool).filter(in_nfc)
texts = st.text(min_size=1, max_size=20).filter(in_nfc)
times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31)).map(
    lambda moment: moment.isoformat(timespec="milliseconds") + "+09:00"
)


@st.composite
def two_lines(draw) -> tuple[dict, dict]:
    """Two valid judgement lines of the small project that differ in exactly one field."""
    field = draw(st.sampled_from(FIELDS))
    line = {"reviewer": draw(names), "at": draw(times), "question_id": "q1"}
    if field == "kind":  # q1's gold has p1 and p2: p3 may be judged or added as an item
        line |= {"passage_id": "p3", "value": True}
        kinds = ("not_evidence", "evidence")
        return {**line, "kind": kinds[0]}, {**line, "kind": kinds[1]}
    if field == "settles":
        line |= {"kind": "adjudication", "passage_id": "p3", "value": True}
        return {**line, "settles": "not_evidence"}, {**line, "settles": "evidence"}
    line |= {"kind": "note", "value": draw(texts)}
    passage = draw(st.sampled_from([None, "p1", "p4"]))
    if passage:
        line["passage_id"] = passage
    system = draw(st.one_of(st.none(), texts))
    if system:
        line["system"] = system
    other = dict(line)
    if field == "reviewer":
        other["reviewer"] = draw(names.filter(lambda name: name != line["reviewer"]))
    elif field == "at":
        other["at"] = draw(times.filter(lambda at: at != line["at"]))
    elif field == "question_id":
        other["question_id"] = "q2"
    elif field == "value":
        other["value"] = draw(texts.filter(lambda text: text != line["value"]))
    elif field == "passage_id":
        other.pop("passage_id", None)
        if passage != "p4":
            other["passage_id"] = "p4"
    else:  # system: another one, or none at all
        other.pop("system", None)
        if not system or draw(st.booleans()):
            other["system"] = draw(texts.filter(lambda text: text != system))
    return line, other


def _as_set(lines: list[dict]) -> set[str]:
    return {json.dumps(line, sort_keys=True, ensure_ascii=False) for line in lines}


def _copy(template, tmp_path, name: str):
    target = tmp_path / name
    for suffix in ("-wal", "-shm", journal.SUFFIX):
        target.with_name(target.name + suffix).unlink(missing_ok=True)
    shutil.copy(template, target)
    return target


def test_two_lines_differing_in_any_one_field_both_survive_import_merge_export_and_restore(
    tmp_path_factory,
):
    base = tmp_path_factory.mktemp("template")
    with Project(base / "template.db") as made:
        small_project(made, base)
    template = base / "template.db"
    work = tmp_path_factory.mktemp("work")

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(two_lines())
    def check(pair):
        first, second = pair
        both = _as_set([first, second])
        assert len(both) == 2
        whole = write_jsonl(work / "both.jsonl", [first, second])
        with Project(_copy(template, work, "a.db")) as a:
            assert a.import_judgements(whole).rows == 2
            assert a.import_judgements(whole).rows == 0, "the same file again adds nothing"
            assert _as_set(a.judgement_lines()) == both
            a.export_judgements(work / "export.jsonl")
            text = (work / "export.jsonl").read_text(encoding="utf-8")
            exported = [json.loads(t) for t in text.split("\n") if t]
            assert _as_set(exported) == both
            assert _as_set(journal.read(a.store.journal_path)[1]) == both
        b, c = Project(_copy(template, work, "b.db")), Project(_copy(template, work, "c.db"))
        with b, c:
            b.import_judgements(write_jsonl(work / "first.jsonl", [first]))
            c.import_judgements(write_jsonl(work / "second.jsonl", [second]))
            assert b.merge(c.path).rows == 1 and c.merge(b.path).rows == 1
            assert _as_set(b.judgement_lines()) == _as_set(c.judgement_lines()) == both
            assert b.merge(c.path).rows == 0, "merging again adds nothing"
        with Project(_copy(template, work, "d.db")) as d:
            report = d.restore_judgements(work / f"a.db{journal.SUFFIX}", force=True)
            assert report.rows == 2 and _as_set(d.judgement_lines()) == both

    check()


def _before_identity(path) -> None:
    """Put the judgement table of a database made by this version back as it was before the
    judgement_identity migration (identity: reviewer, at, question, kind, passage, value), as
    an older program left it."""
    conn = sqlite3.connect(path)
    conn.executescript(
        f"""
        DROP TABLE judgement;
        CREATE TABLE judgement (
            pk INTEGER PRIMARY KEY, reviewer TEXT NOT NULL, at TEXT NOT NULL,
            question_id TEXT NOT NULL, kind TEXT NOT NULL, passage_id TEXT NOT NULL DEFAULT '',
            value TEXT NOT NULL, settles TEXT, system TEXT,
            UNIQUE (reviewer, at, question_id, kind, passage_id, value)
        );
        CREATE INDEX judgement_question ON judgement(question_id);
        DELETE FROM _sqlite_migrations WHERE name LIKE '%_judgement_identity';
        -- 0010 gave the judgement a span: it runs again after 0007, so it goes too
        DROP TABLE span_alternative;
        DROP TABLE span_item;
        ALTER TABLE undo_gold DROP COLUMN spans;
        DELETE FROM _sqlite_migrations WHERE name LIKE '%_evidence_as_spans';
        -- 0011 gave it a machine mark: it runs again too
        DELETE FROM _sqlite_migrations WHERE name LIKE '%_machine_reviewers';
        PRAGMA user_version = {SCHEMA_VERSION - 3};
        """
    )
    conn.close()


NOTE = {"reviewer": "kim", "at": "2026-12-01T10:00:00+09:00", "question_id": "q1", "kind": "note"}


def test_the_migration_keeps_every_line_and_its_key_and_then_tells_systems_apart(project, tmp_path):
    small_project(project, tmp_path)
    project.close()
    _before_identity(project.path)
    a = {**NOTE, "value": "확인", "system": "A"}
    b = {**NOTE, "value": "확인", "system": "B"}
    old = sqlite3.connect(project.path)

    def older(line):  # the columns before 0010 (span) and 0011 (machine)
        return journal.row_of(line)[:8]

    old.executemany(
        "INSERT OR IGNORE INTO judgement (pk, reviewer, at, question_id, kind, passage_id, value,"
        " settles, system) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(7, *older(a)), (8, *older(b)), (9, *older({**a, "at": "x"}))],
    )
    old.commit()
    assert old.execute("SELECT pk FROM judgement").fetchall() == [(7,), (9,)], "B collapsed"
    old.close()

    with Project(project.path) as migrated:
        assert migrated.store.schema_version() == SCHEMA_VERSION
        identity, spans, machine = migrated.store.pending_migrations
        assert identity.endswith("_judgement_identity") and spans.endswith("_evidence_as_spans")
        assert machine.endswith("_machine_reviewers")
        rows = migrated.store.judgements()
        assert [(r["pk"], r["system"], r["at"]) for r in rows] == [(7, "A", a["at"]), (9, "A", "x")]
        done = migrated.import_judgements(write_jsonl(tmp_path / "ab.jsonl", [a, b]))
        assert done.rows == 1 and "added 1 judgements (1 already there)" in done.messages
        assert [line.get("system") for line in migrated.judgement_lines()] == ["A", "B", "A"]


def test_the_stores_unique_index_is_the_journals_identity(project):
    """The one identity, spelled twice (SQL for the store, Python for the journal's repair):
    the index covers every field of a line but the key."""
    conn = project.store.conn
    columns = conn.execute("PRAGMA index_xinfo(judgement_identity)").fetchall()
    named = [c[2] for c in columns if c[5]]  # key columns; expressions have no name
    assert named == [*Store.JUDGEMENT_COLUMNS[:6], None, None, None, "machine"]
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'judgement_identity'")
    text = sql.fetchone()[0]
    assert "coalesce(settles, '')" in text and "coalesce(system, '')" in text
    assert "coalesce(span, '')" in text
    line = {**NOTE, "value": "v", "settles": None, "system": ""}
    assert journal.identity(line) == journal.identity({**NOTE, "value": "v"})


def test_two_notes_differing_only_in_system_import_as_two_on_the_command_line(project, tmp_path):
    small_project(project, tmp_path)
    project.close()
    lines = [{**NOTE, "value": "같음", "system": "A"}, {**NOTE, "value": "같음", "system": "B"}]
    done = cli(project.path, "import", "judgements", str(write_jsonl(tmp_path / "n.jsonl", lines)))
    assert done.returncode == 0, done.stderr
    assert "added 2 judgements (0 already there)" in done.stdout
