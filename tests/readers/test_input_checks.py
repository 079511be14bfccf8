"""Input checks of issue 9: files of the wrong kind, values of the wrong type, numbers no
float can hold, JSON too large or too deep, UTF-16. Every refusal goes through the command line
as a user meets it: exit 2, FILE:LINE, no traceback, the database byte-for-byte unchanged."""

import json

import pytest

from tests.helpers import (
    JUDGEMENT_LINE,
    RUN_LINE,
    cli,
    refused_by_cli,
    small_project,
    snapshot,
    write_jsonl,
    write_text,
)

GOLD_LINE = {"question_id": "q1", "evidence": [{"passage_id": "p2", "role": "core"}]}
CORPUS_LINE = {"id": "p9", "text": "새 문단"}
# What a user adds to get past the first question (a corpus is loaded; which system?), so
# that the file itself is what gets refused.
OPTIONS = {"run": ("--system", "base"), "corpus": ("--replace",)}


@pytest.fixture
def loaded(project, tmp_path):
    """The small project plus one run, so that gold, runs and judgements all exist."""
    small_project(project, tmp_path)
    project.import_run(write_jsonl(tmp_path / "base.jsonl", [RUN_LINE]), "base")
    project.add_judgement("kim", "q2", "role", "core", passage_id="p3")
    return project


def at_line(stderr: str, path, line: int) -> bool:
    return f"{path}:{line}: " in stderr


# -- a file of another kind ----------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, name, lines, hint",
    [
        ("gold", "g.jsonl", [RUN_LINE], "this looks like a run file: import run"),
        ("run", "r.jsonl", [GOLD_LINE], "this looks like a gold file: import gold"),
        ("corpus", "c.jsonl", [JUDGEMENT_LINE], "this looks like a judgements file"),
        ("questions", "q.jsonl", [RUN_LINE], "this looks like a run file"),
        ("judgements", "j.jsonl", [GOLD_LINE], "this looks like a gold file"),
        ("judgements", "j.jsonl", [CORPUS_LINE], "looks like a corpus or questions file"),
        ("gold", "g.jsonl", [GOLD_LINE, CORPUS_LINE], "looks like a corpus or questions file"),
    ],
)
def test_a_jsonl_file_of_another_kind_is_refused_with_a_hint(
    loaded, tmp_path, kind, name, lines, hint
):
    path = write_jsonl(tmp_path / name, lines)
    stderr = refused_by_cli(loaded.path, "import", kind, str(path), *OPTIONS.get(kind, ()))
    assert at_line(stderr, path, len(lines)) and hint in stderr
    if "run file" in hint:
        assert "--system NAME" in stderr


@pytest.mark.parametrize(
    "kind, name, body, hint",
    [
        # a TREC run given as qrels, and qrels given as a run
        ("gold", "g.qrels", "q1 Q0 p2 1 3.5 bm25\n", "import run {} --format trec --system"),
        ("run", "r.trec", "q1 0 p2 1\n", "import gold {} --format qrels"),
        # a BEIR qrels given as a TREC run; a .qrels or .trec named for the other kind
        ("run", "r.trec", "q1\tp2\t1\n", "import gold {} --format beir"),
        ("run", "g.qrels", "q1 0 p2 1\n", "this looks like a gold file: import gold {}"),
        ("gold", "r.trec", "q1 Q0 p2 1 3.5 bm25\n", "this looks like a run file: import run {}"),
        # headers that belong to another kind
        ("gold", "g.tsv", "id\ttext\np9\t새 문단\n", "looks like a corpus or questions file"),
        ("corpus", "c.csv", "question_id,passage_id,rank\nq1,p2,1\n", "import run {} --system"),
        ("corpus", "c.tsv", "query-id\tcorpus-id\tscore\nq1\tp2\t1\n", "import gold {}"),
        ("run", "r.csv", "id,text\np9,새 문단\n", "import corpus {}\n"),
        ("questions", "q.tsv", "query-id\tcorpus-id\tscore\nq1\tp2\t1\n", "import gold {}"),
        ("gold", "g.tsv", "q1 Q0 p2 1 3.5 bm25\n", "this looks like a run file"),
    ],
)
def test_column_files_of_another_kind_are_refused_with_a_hint(
    loaded, tmp_path, kind, name, body, hint
):
    path = write_text(tmp_path / name, body)
    stderr = refused_by_cli(loaded.path, "import", kind, str(path), *OPTIONS.get(kind, ()))
    assert f"{path}:" in stderr and hint.format(path) in stderr, stderr


def test_gold_needs_evidence_and_a_run_needs_results(loaded, tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", [GOLD_LINE, {"question_id": "q2"}])
    stderr = refused_by_cli(loaded.path, "import", "gold", str(path))
    assert at_line(stderr, path, 2) and "'evidence'" in stderr
    path = write_jsonl(tmp_path / "r.jsonl", [{"question_id": "q2", "results": "p1"}])
    stderr = refused_by_cli(loaded.path, "import", "run", str(path), "--system", "base")
    assert at_line(stderr, path, 1) and "'results'" in stderr


def test_imports_that_replace_say_what_they_replace(loaded, tmp_path):
    gold = write_jsonl(
        tmp_path / "g2.jsonl",
        [
            {"question_id": "q1", "evidence": [{"passage_id": "p4"}]},
            {"question_id": "q2", "evidence": [{"passage_id": "p3", "alternatives": ["p1"]}]},
        ],
    )
    out = cli(loaded.path, "import", "gold", str(gold))
    assert out.returncode == 0, out.stderr
    assert (
        "replaced the gold of 2 questions: 3 evidence items and 1 alternatives removed, "
        "2 evidence items and 1 alternatives added"
    ) in out.stdout
    run = write_jsonl(
        tmp_path / "r2.jsonl",
        [{"question_id": q, "results": ["p1", "p2"]} for q in ("q1", "q2", "q3")],
    )
    out = cli(loaded.path, "import", "run", str(run), "--system", "base")
    assert out.returncode == 0, out.stderr
    assert "replaced the run of system 'base': 1 results for 1 questions removed" in out.stdout
    assert "imported 6 results for 3 questions" in out.stdout


# -- values ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1, 0, 0.0, "true", "false", None])
def test_answerable_in_questions_must_be_a_json_boolean(loaded, tmp_path, value):
    path = write_jsonl(
        tmp_path / "q.jsonl",
        [{"id": "q5", "text": "질문"}, {"id": "q6", "text": "질문", "answerable": value}],
    )
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert at_line(stderr, path, 2) and "'answerable' must be true or false" in stderr


@pytest.mark.parametrize(
    "line",
    [
        {"kind": "answerable", "value": 1},
        {"kind": "answerable", "value": 0.0},
        {"kind": "answerable", "value": "true"},
        {"kind": "not_evidence", "passage_id": "p4", "value": 1},
        {"kind": "not_evidence", "passage_id": "p4", "value": 0.0},
        {"kind": "adjudication", "settles": "answerable", "value": 0},
        # an alternative names a passage that is no item's primary, or another question's
        {"kind": "alternative", "passage_id": "p4", "value": "p4"},
        {"kind": "alternative", "passage_id": "p4", "value": "p3"},
        {"kind": "adjudication", "settles": "alternative", "passage_id": "p4", "value": "p3"},
    ],
)
def test_judgement_values_are_checked(loaded, tmp_path, line):
    good = {**JUDGEMENT_LINE, "reviewer": "lee"}
    bad = {"reviewer": "lee", "at": "2026-12-01T11:00:00+09:00", "question_id": "q1", **line}
    path = write_jsonl(tmp_path / "j.jsonl", [good, bad])
    stderr = refused_by_cli(loaded.path, "import", "judgements", str(path))
    assert at_line(stderr, path, 2), stderr
    assert "true, false or null" in stderr or "primary passage" in stderr


def test_add_judgement_checks_booleans_and_alternatives(loaded):
    before = snapshot(loaded.path)
    for kind, value, pid in (
        ("answerable", 1, ""),
        ("not_evidence", 0.0, "p4"),
        ("alternative", "p4", "p4"),
        ("alternative", "p3", "p4"),  # q2's primary, not q1's
    ):
        with pytest.raises(ValueError) as caught:
            loaded.add_judgement("lee", "q1", kind, value, passage_id=pid)
        assert "true, false or null" in str(caught.value) or "'p2'" in str(caught.value)
    assert snapshot(loaded.path) == before
    loaded.add_judgement("lee", "q1", "alternative", "p2", passage_id="p4")
    loaded.add_judgement("lee", "q1", "alternative", None, passage_id="p4")
    loaded.add_judgement("lee", "q1", "answerable", False)
    assert len(loaded.judgement_lines("lee")) == 3


NOT_FINITE_JSON = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" + "0" * 400]
NOT_FINITE_TEXT = ["NaN", "nan", "inf", "Infinity", "-Infinity", "1e999", "1" + "0" * 400]


@pytest.mark.parametrize("score", NOT_FINITE_JSON)
def test_jsonl_scores_must_be_finite(loaded, tmp_path, score):
    path = write_text(
        tmp_path / "r.jsonl",
        json.dumps(RUN_LINE)
        + '\n{"question_id": "q2", "results": [{"passage_id": "p3", "score": '
        + score
        + "}]}\n",
    )
    stderr = refused_by_cli(loaded.path, "import", "run", str(path), "--system", "base")
    assert at_line(stderr, path, 2), stderr


@pytest.mark.parametrize("score", NOT_FINITE_TEXT)
@pytest.mark.parametrize("fmt", ["trec", "csv"])
def test_trec_and_csv_scores_must_be_finite(loaded, tmp_path, score, fmt):
    if fmt == "trec":
        path = write_text(tmp_path / "r.trec", f"q1 Q0 p2 1 2.5 t\nq1 Q0 p1 2 {score} t\n")
    else:
        path = write_text(
            tmp_path / "r.csv", f"question_id,passage_id,rank,score\nq1,p2,1,2.5\nq1,p1,2,{score}\n"
        )
    stderr = refused_by_cli(loaded.path, "import", "run", str(path), "--system", "base")
    assert at_line(stderr, path, 2 if fmt == "trec" else 3) and "finite" in stderr, stderr


@pytest.mark.parametrize("k", ["0", "1001", "100000000", "5,10,2000", "9" * 5000])
def test_k_lists_are_bounded(loaded, k):
    for command in (("metrics", "--k", k), ("export", "out.xlsx", "--k", k)):
        result = cli(loaded.path, *command)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert "K" in result.stderr


def test_k_bounds_themselves_are_accepted(loaded):
    result = cli(loaded.path, "metrics", "--k", "1,1000", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["k"] == [1, 1000]


def test_a_csv_field_may_be_as_long_as_a_jsonl_line(project, tmp_path):
    text = "긴 문단 " * 60_000  # well past csv's 128 KiB default field limit
    path = write_text(tmp_path / "c.csv", f'id,text\nlong,"{text}"\n')
    result = cli(project.path, "import", "corpus", str(path))
    assert result.returncode == 0, result.stderr
    assert project.store.passage("long")["text"] == text


# -- JSON too large or too deep, in every JSONL reader ---------------------------------------

HUGE_INT = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000
PLACES = {
    "corpus": '{{"id": "p9", "text": "x", "page": {}}}',
    "questions": '{{"id": "q9", "text": "x", "extra": {}}}',
    "gold": '{{"question_id": "q1", "evidence": [], "n": {}}}',
    "run": '{{"question_id": "q1", "results": [{{"passage_id": "p2", "score": {}}}]}}',
    "judgements": (
        '{{"reviewer": "lee", "at": "2026-12-01T10:00:00+09:00", "question_id": "q1", '
        '"kind": "note", "value": {}}}'
    ),
}
FIRST = {
    "corpus": CORPUS_LINE,
    "questions": {"id": "q8", "text": "x"},
    "gold": GOLD_LINE,
    "run": RUN_LINE,
    "judgements": JUDGEMENT_LINE,
}


@pytest.mark.parametrize("value, words", [(HUGE_INT, "too many digits"), (DEEP, "too deeply")])
@pytest.mark.parametrize("kind", list(PLACES))
def test_huge_integers_and_deep_nesting_are_bad_input(loaded, tmp_path, kind, value, words):
    path = write_text(
        tmp_path / f"{kind}.jsonl", json.dumps(FIRST[kind]) + "\n" + PLACES[kind].format(value)
    )
    stderr = refused_by_cli(loaded.path, "import", kind, str(path), *OPTIONS.get(kind, ()))
    assert at_line(stderr, path, 2) and words in stderr, stderr


# -- UTF-16 ---------------------------------------------------------------------------------

UTF16_TEXT = '{"id": "a", "text": "한국어 문단"}\r\n\r\n{"id": "b", "text": "둘째\\n줄"}\n'


@pytest.mark.parametrize(
    "codec, bom, named",
    [
        ("utf-16-le", b"\xff\xfe", "utf-16"),
        ("utf-16-be", b"\xfe\xff", "UTF-16"),
        ("utf-16-le", b"\xff\xfe", "UTF16LE"),
        ("utf-16-be", b"", "utf_16_be"),
    ],
)
def test_utf16_is_decoded_when_named(project, tmp_path, codec, bom, named):
    path = tmp_path / "c.jsonl"
    path.write_bytes(bom + UTF16_TEXT.encode(codec))
    stderr = refused_by_cli(project.path, "import", "corpus", str(path))
    assert at_line(stderr, path, 1) and "--encoding utf-16" in stderr
    if not bom:
        assert f"--encoding {codec}" in stderr
    result = cli(project.path, "import", "corpus", str(path), "--encoding", named)
    assert result.returncode == 0, result.stderr
    assert project.store.passage("a")["text"] == "한국어 문단"
    assert project.store.passage("b")["text"] == "둘째\n줄"


def test_a_bad_utf16_line_is_refused_with_a_line(project, tmp_path):
    path = tmp_path / "c.jsonl"
    good = '{"id": "a", "text": "x"}\n'.encode("utf-16-le")
    path.write_bytes(b"\xff\xfe" + good + b"\x00\xd8" + good)  # a lone high surrogate
    stderr = refused_by_cli(project.path, "import", "corpus", str(path), "--encoding", "utf-16")
    assert at_line(stderr, path, 2) and "not valid utf-16" in stderr
    path.write_bytes(b"\xff\xfe" + good + '{"id": "a"}\n'.encode("utf-16-le"))
    stderr = refused_by_cli(project.path, "import", "corpus", str(path), "--encoding", "utf-16")
    assert at_line(stderr, path, 2) and "no 'text'" in stderr
