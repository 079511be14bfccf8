"""Corpus search: exact results against a brute-force oracle, one- and two-character terms from
the bigram index, mixed queries, exact totals and pages, the command line, and the migration
that builds the bigram index for a database made before it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db import SCHEMA_VERSION, Store, search
from desktop.search import LIMIT_MAX
from tests.helpers import cli, cli_here, small_project, snapshot, write_jsonl

# Characters whose case folding Python's lower() and FTS5 agree on: Hangul, ASCII, a few
# accented Latin letters; punctuation that means something to LIKE or to FTS5 queries; and
# whitespace of several kinds (the words of a search never hold any).
ALPHABET = '대한민국법률국회가정의은는이다 abAB01%_"*.-()é É\t\n\u3000\u00a0'


def fold(text: str) -> str:
    return text.lower()


def oracle(texts: list[str], terms: list[str]) -> list[int]:
    """1-based positions of the texts holding every term, in order; none for no term."""
    if not terms:
        return []
    return [i + 1 for i, text in enumerate(texts) if all(fold(t) in fold(text) for t in terms if t)]


def load(store: Store, texts: list[str]) -> None:
    with store.atomic():
        store.clear_corpus()
        store.insert_passages(
            (line, f"p{line}", text, None, None) for line, text in enumerate(texts, 1)
        )


texts_strategy = st.lists(st.text(ALPHABET, min_size=0, max_size=30), min_size=1, max_size=12)


@st.composite
def corpus_and_terms(draw):
    texts = draw(texts_strategy)
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            # a piece of some text, so that most searches find something
            text = draw(st.sampled_from(texts))
            start = draw(st.integers(0, max(0, len(text) - 1)))
            size = draw(st.integers(1, 4))
            piece = text[start : start + size]
        else:
            piece = draw(st.text(ALPHABET, min_size=1, max_size=4))
        terms.extend(piece.split() or [piece])
    return texts, [t for t in terms if t]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(corpus_and_terms(), st.booleans())
def test_search_finds_exactly_the_passages_holding_every_term(tmp_path, monkeypatch, data, kept):
    texts, terms = data
    # kept: every token's count is kept beside the index, as common ones are in a big corpus
    monkeypatch.setattr(search, "COMMON_BIGRAM_DOCS", 1 if kept else 10**9)
    store = Store(tmp_path / "oracle.db")
    try:
        load(store, texts)
        expected = oracle(texts, terms)
        total, rows = store.search(terms, LIMIT_MAX)
        assert [r["pk"] for r in rows] == expected, (texts, terms)
        assert total == len(expected)
        assert store.search_count(terms) == len(expected)
    finally:
        store.close()


def test_one_and_two_character_hangul_terms(project, tmp_path):
    small_project(project, tmp_path)

    def ids(text):
        return [p.passage_id for p in project.search(text).passages]

    assert ids("임기") == ["p3", "p4"]
    assert ids("국민") == ["p2"]
    assert ids("국") == ["p1", "p2", "p4"]  # 대한민국, 국민, 국회의원
    assert ids("다.") == ["p1", "p2", "p3", "p4"]
    assert ids("5") == ["p3"]
    assert ids("년") == ["p3", "p4"]
    assert ids("법률") == []
    assert ids("") == [] and project.search("  ").total == 0


def test_mixed_queries_use_both_indexes(project, tmp_path):
    small_project(project, tmp_path)
    statements: list[str] = []
    project.store.conn.set_trace_callback(statements.append)
    page = project.search("임기 대통령의")
    project.store.conn.set_trace_callback(None)
    assert [p.passage_id for p in page.passages] == ["p3"] and page.total == 1
    sql = "\n".join(statements)
    assert "passage_bigram MATCH" in sql and "passage_fts MATCH" in sql
    assert "LIKE" not in sql  # a two-character term is answered from the index, not a scan
    assert [p.passage_id for p in project.search("국 주권은").passages] == ["p2"]
    assert [p.passage_id for p in project.search("의 임기는 4년").passages] == ["p4"]


def test_a_short_term_the_index_cannot_hold_is_still_found(project, tmp_path):
    # SQLite still counts U+180E as a space; such a term is matched with LIKE.
    write_jsonl(
        tmp_path / "c.jsonl",
        [{"id": "a", "text": "몽골\u180e문자"}, {"id": "b", "text": "몽골 문자"}],
    )
    project.import_corpus(tmp_path / "c.jsonl")
    assert [p.passage_id for p in project.search("골\u180e").passages] == ["a"]
    assert project.search("골문").total == 0
    assert project.search("몽골").total == 2


def test_totals_are_exact_and_pages_give_every_match_once(project, tmp_path):
    rows = [
        {"id": f"p{i:03d}", "text": f"가정 {i} 평화" if i % 3 else f"통일 {i}"} for i in range(250)
    ]
    write_jsonl(tmp_path / "c.jsonl", rows)
    project.import_corpus(tmp_path / "c.jsonl")
    expected = [r["id"] for r in rows if "가정" in r["text"]]
    seen: list[str] = []
    for offset in range(0, 400, 7):
        page = project.search("가정", limit=7, offset=offset)
        assert page.total == len(expected) == 166
        seen.extend(p.passage_id for p in page.passages)
    assert seen == expected  # corpus order, each once
    assert project.search("가정", limit=1000).passages[-1].passage_id == expected[-1]
    first = project.search("평화 가정", limit=3).passages[0]
    assert (first.pk, first.passage_id, first.title) == (2, "p001", None)
    assert first.excerpt == "가정 1 평화"
    for limit, offset in ((0, 0), (LIMIT_MAX + 1, 0), (5, -1)):
        with pytest.raises(ValueError):
            project.search("가정", limit, offset)


def test_search_passages_keeps_its_old_signature(project, tmp_path):
    small_project(project, tmp_path)
    found = project.store.search_passages(["임기"], 1)
    assert [p["id"] for p in found] == ["p3"] and set(found[0]) >= {"pk", "id", "text", "title"}


def test_excerpt_is_one_line_around_the_first_word():
    from desktop.search import excerpt

    text = "앞 " * 100 + "법률\n이 정하는 바에 의하여" + " 뒤" * 100
    cut = excerpt(text, ["법률"], width=40)
    assert cut.startswith("…") and cut.endswith("…") and "\n" not in cut
    assert "법률 이 정하는" in cut and len(cut) == 42
    assert excerpt("짧은 글", ["없음"]) == "짧은 글"


def test_command_line_search_json(tmp_path):
    db = tmp_path / "cli.db"
    assert cli_here(db, "demo").returncode == 0
    done = cli(db, "search", "법률", "국민", "--json", "--limit", "2", "--offset", "1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"query", "total", "passages"} and data["query"] == "법률 국민"
    assert len(data["passages"]) == 2 and data["total"] > 3
    assert all(set(p) == {"passage_id", "excerpt"} for p in data["passages"])
    whole = json.loads(cli(db, "search", "법률 국민", "--json", "--limit", "1000").stdout)
    assert whole["total"] == data["total"] == len(whole["passages"])
    assert [p["passage_id"] for p in whole["passages"][1:3]] == [
        p["passage_id"] for p in data["passages"]
    ]
    text = cli(db, "search", "법률", "--limit", "3")
    assert text.returncode == 0 and text.stdout.startswith(f"{total(db, '법률')} passages")
    assert len(text.stdout.splitlines()) == 4


def total(db, text: str) -> int:
    return json.loads(cli(db, "search", text, "--json").stdout)["total"]


@pytest.mark.parametrize("args", [["--limit", "0"], ["--limit", "1001"], ["--offset", "-1"]])
def test_command_line_refuses_bad_pages(tmp_path, args):
    db = tmp_path / "cli.db"
    assert cli_here(db, "demo").returncode == 0
    before = snapshot(db)
    done = cli(db, "search", "법률", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert "between 1 and 1000" in done.stderr or "0 or more" in done.stderr
    assert "Traceback" not in done.stderr and snapshot(db) == before


def test_migration_builds_the_bigram_index_for_an_older_database(tmp_path):
    """A database made by the schema before the bigram index finds the same passages once
    opened by this version as a database imported now. The older file is this version's,
    taken back one step (the bigram migration is the latest), so that the test does not
    depend on how the migrations are numbered."""
    import sqlite3

    texts = [
        "대한민국은 민주공화국이다.",
        "국회의원의 임기는 4년으로 한다.",
        "대통령의 임기는 5년으로 한다. (개정)",
        "Law and ORDER 법률",
    ]
    old = tmp_path / "old.db"
    made = Store(old)
    load(made, texts)
    made.close()
    conn = sqlite3.connect(old)
    (name,) = conn.execute(
        "SELECT name FROM _sqlite_migrations WHERE name LIKE '%passage_bigram'"
    ).fetchone()
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = ?", (name,))
    conn.execute("DROP TABLE passage_bigram")
    conn.execute("DROP TABLE passage_bigram_count")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.commit()
    conn.close()
    assert "passage_bigram" not in snapshot_tables(old)
    migrated = Store(old)
    fresh = Store(tmp_path / "new.db")
    load(fresh, texts)
    try:
        assert migrated.pending_migrations == [name]
        assert migrated.schema_version() == fresh.schema_version() == SCHEMA_VERSION
        for terms in (["임기"], ["국"], ["의", "임기는"], ["."], ["law"], ["or"], ["(개"]):
            expected = oracle(texts, terms)
            assert migrated.search(terms, 10) == fresh.search(terms, 10)
            assert [r["pk"] for r in migrated.search(terms, 10)[1]] == expected, terms
    finally:
        migrated.close()
        fresh.close()


def snapshot_tables(path) -> set[str]:
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()


def test_a_common_two_character_term_is_counted_from_the_kept_counts(
    project, tmp_path, monkeypatch
):
    monkeypatch.setattr(search, "COMMON_BIGRAM_DOCS", 3)
    rows = [{"id": f"p{i}", "text": f"Ab 가정{i % 2}"} for i in range(7)]
    project.import_corpus(write_jsonl(tmp_path / "c.jsonl", rows))
    statements: list[str] = []
    project.store.conn.set_trace_callback(statements.append)
    assert project.search("가정").total == 7 and project.search("aB").total == 7
    assert project.search("정1").total == 3  # kept too (3 passages), exact either way
    project.store.conn.set_trace_callback(None)
    assert not any("count(*)" in sql for sql in statements)
    assert project.search("정0").total == 4 and project.search("가정 ab").total == 7
    project.import_corpus(write_jsonl(tmp_path / "d.jsonl", rows[:2]), replace=True)
    assert project.search("가정").total == 2  # the counts follow a replaced corpus


def test_bigram_text_pairs_every_character():
    assert search.bigram_text("ab c") == "ab b   c c "
    assert search.plan(["가", "가정", "가정의", "a b"]).bigram == '"가"* AND "가정"'


def test_the_bigram_build_reports_its_phase_between_key_ranges(tmp_path, monkeypatch):
    monkeypatch.setattr(search, "RANGE", 2)
    store = Store(tmp_path / "p.db")
    try:
        calls = []
        with store.atomic():
            store.insert_passages((i, f"p{i}", "가정 평화", None, None) for i in range(1, 6))
            store.conn.execute("INSERT INTO passage_bigram(passage_bigram) VALUES ('delete-all')")
            search.index_bigrams(store.conn, 1, lambda *a: calls.append(a))
        assert calls == [(d, 5, "building the search index") for d in (0, 2, 4, 5)]
        assert store.search(["평화"], 10)[0] == 5
    finally:
        store.close()


def test_search_within_one_chunking(sample_study):
    """The study cuts one document three ways: each chunking's hits are its own passages, in
    either order, and together they are the search over every chunking."""
    from desktop.project import Project

    with Project(sample_study) as project:
        ids = {
            c["name"]: {row[0] for row in project.store.chunking_passages(c["pk"])}
            for c in project.reads.chunkings()
        }
    assert len(ids) == 3
    everywhere = json.loads(
        cli(sample_study, "search", "대통령", "--json", "--limit", "1000").stdout
    )
    totals = 0
    for name, own in ids.items():
        found = {}
        for order in ("corpus", "relevance"):
            done = cli(
                sample_study, "search", "대통령", "--chunking", name, "--order", order, "--json",
                "--limit", "1000",
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            data = json.loads(done.stdout)
            assert data["total"] == len(data["passages"]) > 0
            found[order] = [p["passage_id"] for p in data["passages"]]
            assert set(found[order]) <= own
        assert sorted(found["corpus"]) == sorted(found["relevance"])
        totals += len(found["corpus"])
    assert totals == everywhere["total"]


def test_search_refuses_an_unknown_chunking_naming_the_ones_there_are(sample_study):
    before = snapshot(sample_study)
    done = cli(sample_study, "search", "대통령", "--chunking", "no-such")
    assert done.returncode == 2 and done.stdout == ""
    assert "there is no chunking 'no-such'" in done.stderr and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr and snapshot(sample_study) == before
