"""The report's Candidates sheet (issue 21 item 4, `export --candidates`): a near copy of a
missed item in a system's top K is listed; one judged by a line of any kind (a kind this
version does not know too), an evidence item or alternative of the question, an unrelated
passage and the item's own neighbours never; the threshold's boundary; the Summary's count;
without --candidates the workbook has no such sheet."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from desktop.gold import candidates
from desktop.report import write_report
from tests.db.test_similar import NEAR_COPY, ORIGINAL, OTHERS, UNRELATED
from tests.helpers import cli, cli_here, write_jsonl

TEXTS = {
    "before": NEAR_COPY.replace("대통령", "대통령께"),  # the item's neighbours in corpus order
    "item": ORIGINAL,
    "after": NEAR_COPY.replace("국무총리", "국무총리나"),
    "copy": NEAR_COPY,
    "dismissed": NEAR_COPY.replace("과반수", "3분의 2 이상"),
    "noted": NEAR_COPY.replace("찬성이", "찬성이 꼭"),
    "other": OTHERS[3],
    "alt": NEAR_COPY.replace("건의할", "건의 할"),  # other's alternative
    "unrelated": UNRELATED,
    "far": NEAR_COPY.replace("해임을", "해임을 곧"),  # beyond every K
    "late": NEAR_COPY.replace("의하여", "의해"),  # at rank 7: a hit at 10 only
}


def _spread(texts: dict[str, str]) -> list[dict]:
    """A filler passage between every two but the item and its neighbours."""
    rows = []
    for n, (pid, text) in enumerate(texts.items()):
        rows.append({"id": pid, "text": text, "title": f"권{n}"})
        if pid not in ("before", "item"):
            rows.append({"id": f"gap{n}", "text": f"{n}번째 여백 문단입니다."})
    return rows


@pytest.fixture
def study(db_path, tmp_path):
    def run(name, lists):
        path = tmp_path / f"{name}.trec"
        path.write_text(
            "".join(
                f"{q} Q0 {pid} {rank} {100 - rank} {name}\n"
                for q, ranked in lists.items()
                for rank, pid in enumerate(ranked, 1)
            )
        )
        done = cli_here(db_path, "import", "run", str(path), "--system", name)
        assert done.returncode == 0, done.stderr

    assert cli_here(db_path, "init").returncode == 0
    files = {
        "corpus": write_jsonl(tmp_path / "corpus.jsonl", _spread(TEXTS)),
        "questions": write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "해임건의?"}]),
        "gold": write_jsonl(
            tmp_path / "gold.jsonl",
            [
                {
                    "question_id": "q1",
                    "evidence": [
                        {"passage_id": "item", "role": "core"},
                        {"passage_id": "other", "alternatives": ["alt"]},
                    ],
                }
            ],
        ),
    }
    for kind, path in files.items():
        done = cli_here(db_path, "import", kind, str(path))
        assert done.returncode == 0, done.stderr
    gaps = [f"gap{n}" for n in range(3, 9)]
    top = ["unrelated", "before", "after", "copy", "dismissed", "noted", "alt", "other"]
    run("sysA", {"q1": [*top, *gaps, "far"]})
    run("sysB", {"q1": [*gaps, "late"]})  # late at rank 7
    return db_path


def _judge(project, kind: str, passage_id: str) -> None:
    """A line of any kind, one the table's CHECK does not list yet too (a later version's
    database, where another kind was added): SQLite's pragma lets it in as that one would."""
    line = ("kim", "2026-12-04T10:00:00+09:00", "q1", kind, passage_id, '"x"', None, None)
    project.store.conn.execute("PRAGMA ignore_check_constraints = ON")
    assert project.store.add_judgements([line]) == 1
    project.store.conn.execute("PRAGMA ignore_check_constraints = OFF")


def _rows(project, tmp_path, **options) -> tuple[list[tuple], list[str]]:
    path = write_report(project, tmp_path / "r.xlsx", [5, 10], lang="en", **options)
    wb = load_workbook(path, read_only=True)
    names = wb.sheetnames
    if "Candidates" not in names:
        return [], names
    rows = [r for r in wb["Candidates"].iter_rows(values_only=True)][1:]
    summary = [r[0] for r in wb["Summary"].iter_rows(values_only=True) if r and r[0]]
    return rows, [*names, *(s for s in summary if str(s).startswith("Misses a candidate"))]


def test_near_copies_of_a_missed_item_are_listed_and_judged_ones_not(study, tmp_path):
    from desktop.project import Project

    with Project(study) as project:
        rows, _ = _rows(project, tmp_path, candidates=True)
        assert {(r[0], r[5]) for r in rows} == {
            ("sysA", "copy"),
            ("sysA", "dismissed"),
            ("sysA", "noted"),
            ("sysB", "late"),
        }
        _judge(project, "dismiss_not_known_yet", "dismissed")  # a kind of a later version
        _judge(project, "note", "noted")
        rows, names = _rows(project, tmp_path, candidates=True)
    assert names.index("Candidates") == names.index("Misses") + 1
    listed = {(r[0], r[2], r[5]): r for r in rows}
    assert set(listed) == {("sysA", "item", "copy"), ("sysB", "item", "late")}
    copy, late = listed["sysA", "item", "copy"], listed["sysB", "item", "late"]
    assert copy[:9] == ("sysA", "q1", "item", "core", "핵심", "copy", 4, copy[7], 5)
    assert late[6:9:2] == (7, 10)  # found at 10 only
    assert copy[7] >= candidates.THRESHOLD and copy[9] == ORIGINAL and copy[10] == NEAR_COPY
    assert names[-1] == (
        "Misses a candidate alternative in the system's top K could turn into hits, not "
        "judged yet (similarity ≥ 0.6; sheet 'Candidates'): sysA 1, sysB 1 "
        "(판정 전 대체 후보가 있는 누락)."
    )


def test_without_candidates_there_is_no_sheet(study, tmp_path):
    from desktop.project import Project

    with Project(study) as project:
        rows, names = _rows(project, tmp_path)
    assert rows == [] and "Candidates" not in names


def test_the_threshold_boundary(study, tmp_path, monkeypatch):
    from desktop.project import Project

    with Project(study) as project:
        score = {r[5]: r[7] for r in _rows(project, tmp_path, candidates=True)[0]}["copy"]
        monkeypatch.setattr(candidates, "THRESHOLD", score)
        assert "copy" in {r[5] for r in _rows(project, tmp_path, candidates=True)[0]}
        monkeypatch.setattr(candidates, "THRESHOLD", round(score + 0.001, 3))
        assert "copy" not in {r[5] for r in _rows(project, tmp_path, candidates=True)[0]}


def test_export_candidates_on_the_command_line(study, tmp_path):
    """`export REPORT.xlsx --candidates` adds the sheet (Korean name by default) and says so
    in Settings."""
    done = cli(study, "export", str(tmp_path / "r.xlsx"), "--candidates", "--lang", "ko")
    assert done.returncode == 0, done.stderr
    wb = load_workbook(tmp_path / "r.xlsx", read_only=True)
    assert wb.sheetnames.index("대체 후보") == wb.sheetnames.index("누락") + 1
    rows = list(wb["대체 후보"].iter_rows(values_only=True))
    assert {(r[0], r[5]) for r in rows[1:] if r} == {
        ("sysA", "copy"),
        ("sysA", "dismissed"),
        ("sysA", "noted"),
        ("sysB", "late"),
    }
    settings = {r[0]: r[1] for r in wb["설정"].iter_rows(values_only=True) if len(r) > 1}
    assert settings["candidate alternatives 대체 후보"].startswith("listed (export --candidates)")


def test_only_the_candidates_found_have_their_ids_read(study, tmp_path, monkeypatch):
    """The sheet reads the ids of the candidates it can list, not of every top-K passage of
    every miss (issue 24: those, with a set of them per item, were most of the peak memory
    of `export --candidates` at 5,000 questions)."""
    from desktop.project import Project

    with Project(study) as project:
        reads, asked = project.reads, set()
        real = reads.passage_ids_of

        def passage_ids_of(pks):
            pks = set(pks)
            asked.update(pks)
            return real(pks)

        monkeypatch.setattr(reads, "passage_ids_of", passage_ids_of)
        rows, _ = _rows(project, tmp_path, candidates=True)
        named = set(real(asked).values())
    assert {r[5] for r in rows} == {"copy", "dismissed", "noted", "late"}
    assert named == {"copy", "dismissed", "noted", "late"}  # not "unrelated", "gap3", …
