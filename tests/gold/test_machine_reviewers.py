"""A machine reviewer's lines (design section 6): kept and journaled, marked on import by a
field or --machine, but never counted towards the effective gold nor making a person's change
wait for a second review."""

from __future__ import annotations

import json

from desktop.project import Project
from tests.helpers import cli, refused, refused_by_cli, small_project, write_jsonl

AT = "2026-12-01T10:00:00+09:00"


def _line(reviewer, value, machine=None, at=AT, **more):
    line = {"reviewer": reviewer, "at": at, "question_id": "q2", "kind": "role"}
    line.update(passage_id="p3", value=value, **more)
    if machine is not None:
        line["machine"] = machine
    return line


def _role(project) -> tuple[str | None, list[str]]:
    built = project.effective_gold()
    pk = project.store.question("q2")["pk"]
    return built.items[pk][0].role, [d.status for d in built.decisions]


def test_a_machine_alone_changes_nothing(project, tmp_path):
    small_project(project, tmp_path)
    project.import_judgements(write_jsonl(tmp_path / "m.jsonl", [_line("gpt", "core", True)]))
    assert _role(project) == (None, [])
    assert project.reviewers() == [] and project.machine_reviewers() == ["gpt"]


def test_a_machine_never_makes_a_persons_change_wait(project, tmp_path):
    """With kim the only person, kim's change counts at once (single-reviewed) though a
    machine judged the same item otherwise: no disagreement either."""
    small_project(project, tmp_path)
    machine = write_jsonl(tmp_path / "m.jsonl", [_line("gpt", "supporting")])
    project.import_judgements(machine, machine=True)
    project.add_judgement("kim", "q2", "role", "core", passage_id="p3")
    assert _role(project) == ("core", ["single"])
    assert project.agreement()["disagreements"] == 0
    assert project.agreement()["pairs"] == []


def test_the_mark_is_part_of_the_lines_identity_and_the_journal(project, tmp_path):
    small_project(project, tmp_path)
    both = [_line("gpt", "core", True), _line("gpt", "core")]  # one a machine's, one not
    assert project.import_judgements(write_jsonl(tmp_path / "b.jsonl", both)).rows == 2
    journal_path = project.store.journal_path
    lost = tmp_path / "lost.db"
    with Project(lost) as fresh:
        small_project(fresh, tmp_path)
        fresh.restore_judgements(journal_path, force=True)
        assert fresh.machine_reviewers() == ["gpt"]
        assert sorted(json.dumps(x, sort_keys=True) for x in fresh.judgement_lines()) == sorted(
            json.dumps(x, sort_keys=True) for x in project.judgement_lines()
        )


def test_a_machine_field_that_is_not_a_boolean_is_refused(project, tmp_path):
    small_project(project, tmp_path)
    bad = write_jsonl(tmp_path / "bad.jsonl", [_line("kim", "core"), _line("gpt", "core", "yes")])
    error = refused(project, project.import_judgements, bad)
    assert str(error) == f"{bad}:2: 'machine' must be true or false"


def test_machine_is_for_judgements_only_on_the_command_line(project, tmp_path):
    small_project(project, tmp_path)
    project.close()
    gold = tmp_path / "gold.jsonl"
    message = refused_by_cli(project.path, "import", "gold", str(gold), "--machine")
    assert "--machine marks judgements only" in message
    lines = write_jsonl(tmp_path / "m.jsonl", [_line("gpt", "core")])
    done = cli(project.path, "import", "judgements", str(lines), "--machine")
    assert done.returncode == 0, done.stderr
    info = json.loads(cli(project.path, "info", "--json").stdout)
    assert (info["reviewers"], info["machines"]) == ([], ["gpt"])
    assert "machines:        gpt" in cli(project.path, "info").stdout
    with Project(project.path) as again:
        assert again.machine_reviewers() == ["gpt"]
        assert again.judgement_lines()[0]["machine"] is True


def test_a_machines_lines_review_nothing(project, tmp_path):
    """The report's status of a question (the team's: every line) stays untouched when only a
    machine judged it, and a machine's answerability and roles never make it reviewed."""
    from desktop import review

    small_project(project, tmp_path)
    lines = [
        {"reviewer": "gpt", "at": AT, "question_id": "q2", "kind": "answerable", "value": True},
        _line("gpt", "core"),
    ]
    project.import_judgements(write_jsonl(tmp_path / "m.jsonl", lines), machine=True)
    built = project.effective_gold()
    items = built.items[project.store.question("q2")["pk"]]
    rows = project.store.judgements(question_id="q2")
    assert review.review_status(rows, items, None) == review.UNTOUCHED
    project.add_judgement("kim", "q2", "answerable", True)
    rows = project.store.judgements(question_id="q2")
    assert review.review_status(rows, items, None) == review.IN_PROGRESS  # no role of kim's
