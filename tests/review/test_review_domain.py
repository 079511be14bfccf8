"""desktop/review/, the window's Qt-free domain: per-question gold equals the full build,
incremental scores equal a full pass equal Project.evaluate, the keypress path builds the
question's gold once, agreement on demand, the undo history read back from the log, and the
small helpers. No Qt is imported here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from desktop import review
from desktop.gold.effective import instant
from desktop.project import Project

JUDGEMENTS = [
    ("kim", "q01", "role", "core", "art-128", None),
    ("lee", "q01", "role", "supporting", "art-128", None),
    ("kim", "q03", "alternative", "art-071", "art-086", None),
    ("lee", "q03", "alternative", "art-071", "art-086", None),
    ("kim", "q05", "alternative", "art-084", "art-066", None),
    ("kim", "q06", "role", "supporting", "art-041", None),
    ("lee", "q06", "role", "supporting", "art-041", None),
    ("lee", "q32", "answerable", True, "", None),
    ("kim", "q13", "not_evidence", True, "art-012", None),
    ("lee", "q13", "not_evidence", True, "art-012", None),
    ("park", "q01", "adjudication", "core", "art-128", "role"),
]


@pytest.fixture
def judged(sample_db):
    with Project(sample_db) as project:
        for who, qid, kind, value, pid, settles in JUDGEMENTS:
            project.add_judgement(who, qid, kind, value, passage_id=pid, settles=settles)
    return sample_db


@pytest.mark.parametrize("blind", [False, True])
def test_one_question_gold_equals_the_full_build(judged, blind):
    with Project(judged) as project:
        full = review.build_gold(project, "kim", blind)
        reviewers = project.reviewers()
        for question in project.questions():
            one, _, _ = review.question_gold(project, question, "kim", blind, reviewers)
            pk = question["pk"]
            assert one.items[pk] == full.items[pk], question["id"]
            assert one.judged(pk) == full.judged(pk), question["id"]  # J(q), for Judged@K
            assert one.answerable[pk] == full.answerable[pk]
            mine = [d for d in full.decisions if d.question_id == question["id"]]
            assert one.decisions == mine


@pytest.mark.parametrize("blind", [False, True])
def test_full_pass_and_question_refresh_equal_project_evaluate(sample_db, blind):
    with Project(sample_db) as project:
        board = review.overview(project, "kim", blind, [5, 10]).board
        for who, qid, kind, value, pid, settles in JUDGEMENTS:
            project.add_judgement(who, qid, kind, value, passage_id=pid, settles=settles)
            question = project.reads.question(qid)
            reviewers = project.reviewers()
            summary, entries = review.refresh_question(
                project, question, "kim", blind, [5, 10], reviewers
            )
            for system, entry in entries.items():
                board.set(system, question["pk"], entry)
        # Reviewers joined as the log grew, so only the questions judged were refreshed;
        # a full pass after the fact is the reference for what the window shows.
        fresh = review.overview(project, "kim", blind, [5, 10]).board
        if not blind:
            reference = {s.system: s.means for s in project.evaluate([5, 10]).systems}
            curves = project.recall_curves()
            for system in fresh.systems:
                # the window keeps the design's five measures (P@K, Judged@K need whole lists)
                for label in fresh.labels:
                    value = reference[system][label]
                    assert fresh.means(system)[label] == pytest.approx(value, abs=1e-12)
                assert fresh.curve(system) == pytest.approx(curves[system], abs=1e-12)
        for system in fresh.systems:
            for label, value in fresh.means(system).items():
                assert board.means(system)[label] == pytest.approx(value, abs=1e-12), label
            assert board.curve(system) == pytest.approx(fresh.curve(system), abs=1e-12)


def test_blind_mode_applies_only_the_reviewers_own_lines(judged):
    with Project(judged) as project:
        seen = review.build_gold(project, "lee", True)
        q01 = project.reads.question("q01")
        roles = {i.primary_id: i.role for i in seen.items[q01["pk"]]}
        assert roles["art-128"] == "supporting"  # lee's own, park's adjudication hidden
        assert seen.disagreements() == []
        view = review.question_view(project, q01, project.systems(), 5, "lee", True, [])
        assert view.disputes == []
        assert all(set(i.votes) <= {"lee"} for i in view.items)


def test_question_view_marks_hits_alternatives_and_later_ranks(judged):
    with Project(judged) as project:
        q03 = project.reads.question("q03")
        systems = project.systems()
        view = review.question_view(project, q03, systems[:1], 5, "kim", False, ["kim", "lee"])
        item = next(i for i in view.items if i.primary_id == "art-071")
        assert [pid for _, pid in item.alternatives] == ["art-086"]  # both agreed
        found = item.found["BM25-Kiwi"]
        assert (found.rank, found.via, found.through_alternative) == (2, "art-086", True)
        rows = view.rankings["BM25-Kiwi"]
        assert rows[1].passage_id == "art-086" and not rows[1].primary
        assert rows[1].items == [view.items.index(item)]
        supporting = next(i for i in view.items if i.primary_id == "art-068")
        assert supporting.found["BM25-Kiwi"].rank == 4
        assert rows[3].primary and rows[3].items == [view.items.index(supporting)]


def test_undo_history_from_the_log():
    rows = []

    def line(value, at, kind="role", pid="p1", qid="q1"):
        row = {
            "reviewer": "kim",
            "at": at,
            "question_id": qid,
            "kind": kind,
            "passage_id": pid,
            "value": json.dumps(value),
            "settles": None,
            "system": None,
        }
        rows.append(row)
        return row

    history = review.UndoHistory()
    assert history.record(line("core", "2026-01-01T10:00:00.000+09:00")) == "change"
    assert history.record(line("supporting", "2026-01-01T10:00:01.000+09:00")) == "change"
    (undo,) = history.undo_lines()
    assert (undo["kind"], undo["passage_id"], undo["value"]) == ("role", "p1", "core")
    assert history.record(line("core", "2026-01-01T10:00:02.000+09:00")) == "undo"
    assert history.undo_lines()[0]["value"] is None  # before the first change: nothing
    assert history.record(line(None, "2026-01-01T10:00:03.000+09:00")) == "undo"
    assert not history.can_undo()
    assert history.redo_lines()[0]["value"] == "core"
    # Read back from the log after a restart, the stacks are the same.
    again = review.UndoHistory(rows)
    assert not again.can_undo() and again.redo_lines()[0]["value"] == "core"
    assert again.record(line("core", "2026-01-01T10:00:04.000+09:00")) == "redo"
    assert again.redo_lines()[0]["value"] == "supporting"
    # A new change clears what could be redone.
    assert again.record(line(True, "2026-01-01T10:00:05.000+09:00", "answerable", "")) == ("change")
    assert not again.can_redo()
    assert again.last_at == "2026-01-01T10:00:05.000+09:00"


def test_next_at_never_repeats_a_time():
    far = "2999-01-01T00:00:00.000+00:00"
    later = review.next_at(far)
    assert instant(later) > instant(far)
    assert instant(review.next_at(None)) > 0


def test_sniff_encoding(tmp_path):
    (tmp_path / "u.jsonl").write_bytes("대한민국\n".encode())
    (tmp_path / "c.jsonl").write_bytes("대한민국\n".encode("cp949"))
    (tmp_path / "w.jsonl").write_bytes("\ufeff대한민국".encode("utf-16-le")[:0] + b"\xff\xfe")
    assert review.sniff_encoding(tmp_path / "u.jsonl") == "utf-8"
    assert review.sniff_encoding(tmp_path / "c.jsonl") == "cp949"
    assert review.sniff_encoding(tmp_path / "w.jsonl") == "utf-16"
    # A multibyte character cut by the sample's end is still UTF-8.
    (tmp_path / "long.jsonl").write_bytes(("가" * 30000).encode())
    assert review.sniff_encoding(tmp_path / "long.jsonl", size=65536) == "utf-8"


def test_question_terms_strip_particles_for_highlighting():
    terms = review.question_terms("대통령의 임기는 몇 년인가요?")
    assert "대통령" in terms and "임기" in terms
    spans = review.highlight_spans("대통령의 임기는 5년으로 한다.", terms)
    assert (0, 3) in spans or (0, 4) in spans


def test_a_questions_terms_are_compiled_once_for_all_its_passages(monkeypatch):
    """A switch marks the question's terms in every ranked row and in the reader: one
    pattern for them all, not one per text."""
    import re

    from desktop.review import terms as terms_module

    compiled: list[str] = []
    real = re.compile

    def counting(pattern, *args, **kwargs):
        compiled.append(pattern)
        return real(pattern, *args, **kwargs)

    monkeypatch.setattr(terms_module.re, "compile", counting)
    terms = review.question_terms("헌법재판소의 재판관은 몇 명인가요?")  # not used before
    texts = [f"제{n}조 헌법재판소는 재판관 {n}인으로 구성한다." for n in range(20)]
    spans = [review.highlight_spans(text, terms) for text in texts]
    assert all(len(found) == 2 for found in spans)
    assert len(compiled) == 1


def test_review_and_the_command_line_do_not_import_qt():
    code = (
        "import sys, desktop.review, desktop.cli, desktop.project; "
        "print(any(m.startswith('PySide6') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("blind", [False, True])
def test_the_keypress_path_builds_the_question_gold_once(judged, blind, monkeypatch):
    from desktop.gold import effective as gold

    builds = []
    real_build = gold.build

    def counted(*args, **kwargs):
        builds.append(args[0])
        return real_build(*args, **kwargs)

    monkeypatch.setattr(gold, "build", counted)
    with Project(judged) as project:
        q01 = project.reads.question("q01")
        systems = project.systems()
        reviewers = project.reviewers()
        view = review.question_view(project, q01, systems[:2], 5, "kim", blind, reviewers, 10)
        summary, entries = review.refresh_question(project, q01, "kim", blind, [5, 10], reviewers)
        assert len(builds) == 2  # the two old calls build it once each
        judged_now = review.judged_question(
            project, q01, systems[:2], 5, "kim", blind, reviewers, [5, 10]
        )
    assert len(builds) == 3
    assert judged_now.view == view
    assert judged_now.summary == summary
    assert judged_now.entries == entries
    assert set(entries) == {s["name"] for s in systems}


def test_agreement_is_read_on_demand(judged):
    with Project(judged) as project:
        everyone = review.agreement(project, "kim", False)
        assert everyone == project.agreement()
        assert everyone["pairs"]  # kim and lee judged the same items
        assert review.agreement(project, "kim", True) == {"pairs": [], "disagreements": 0}
        full = review.overview(project, "kim", False, [5, 10])
        assert full.agreement == everyone
        quick = review.overview(project, "kim", False, [5, 10], with_agreement=False)
        assert quick.agreement == {"pairs": [], "disagreements": 0}
        for system in full.board.systems:
            assert quick.board.means(system) == full.board.means(system)


def test_sniff_encoding_lives_in_formats():
    from desktop import readers

    assert review.sniff_encoding is readers.sniff_encoding


def test_imported_level_0_counts_as_judged_in_the_window(project, tmp_path):
    """J(q) from one question's rows (the keypress path) keeps the imported not-evidence
    passages, so the window's Judged@K equals the metrics command's after a rescore."""
    from tests.helpers import small_project, write_jsonl

    small_project(project, tmp_path)
    gold = tmp_path / "gold2.jsonl"
    write_jsonl(
        gold,
        [
            {"question_id": "q1", "evidence": [{"passage_id": "p2"}], "not_evidence": ["p3"]},
            {"question_id": "q2", "evidence": [{"passage_id": "p3"}]},
        ],
    )
    project.import_gold(gold)
    run = tmp_path / "A.trec"
    run.write_text("q1 Q0 p3 1 3.0 a\nq1 Q0 p4 2 2.0 a\nq2 Q0 p3 1 1.0 a\n")
    project.import_run(run, "A")
    q1 = project.reads.question("q1")
    one, _, _ = review.question_gold(project, q1, "kim", False, [])
    assert project.store.question_not_evidence(q1["pk"])
    assert one.judged(q1["pk"]) == project.effective_gold().judged(q1["pk"])
    board = review.overview(project, "kim", False, [5, 10]).board
    _, entries = review.refresh_question(project, q1, "kim", False, [5, 10], [])
    board.set("A", q1["pk"], entries["A"])
    (reference,) = project.evaluate([5, 10]).systems
    for label in ("P@5", "Judged@5", "Judged@10", "Recall@5"):
        assert board.means("A")[label] == pytest.approx(reference.means[label], abs=1e-12)
    # p3 judged (level 0), p4 not: half of the list is judged
    assert reference.per_question[q1["pk"]]["Judged@5"] == 0.5
