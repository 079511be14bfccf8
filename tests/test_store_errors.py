"""SQLite's errors leave the project as the store's own StoreError (issue 11, point 4), with
the database named and what to do, whether raised at once or while a stream is read."""

from __future__ import annotations

import sqlite3

import pytest

from db import StoreError
from db.errors import raises_store_errors
from tests.helpers import small_project, snapshot


@raises_store_errors
class _Reader:
    def __init__(self, path):
        self.path = path
        self.conn = sqlite3.connect(":memory:")

    def missing_table(self):
        return self.conn.execute("SELECT * FROM no_such_table").fetchall()

    def stream(self):
        yield 1
        self.conn.execute("SELECT * FROM no_such_table")


def test_sqlite_errors_become_store_errors_at_once_and_in_streams():
    reader = _Reader("/data/review.db")
    with pytest.raises(StoreError, match=r"^/data/review\.db: no such table: no_such_table"):
        reader.missing_table()
    stream = reader.stream()
    assert next(stream) == 1
    with pytest.raises(StoreError, match="no such table"):
        next(stream)


def test_a_judgement_while_another_program_writes_is_a_store_error(project, tmp_path, db_path):
    small_project(project, tmp_path)
    before = snapshot(db_path)
    other = sqlite3.connect(db_path)
    try:
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        project.store.conn.execute("PRAGMA busy_timeout = 50")
        with pytest.raises(StoreError) as caught:
            project.add_judgement("kim", "q1", "role", "core", passage_id="p2")
        assert not isinstance(caught.value, sqlite3.Error)
        message = str(caught.value)
        assert message.startswith(f"{db_path}: ") and "another program" in message
    finally:
        other.rollback()
        other.close()
    assert snapshot(db_path) == before
    assert project.judgements() == []
