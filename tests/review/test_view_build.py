"""A question switch builds its view with fewer reads (issue 23): the pool from the systems
the window holds rather than reading them and the question again, and the excerpts of
passages in a ranking shown cut from the text their rows already hold. The view is exactly
what the old build gave, field by field (with the pool's excerpts left out while the pool
queue is behind the rankings, once the queue has read them; and the passage the reader
opens on, which the reader's worker read before), on the sample (with judgements
by several reviewers, blind or not, one system or two) and on the study (spans, graph
contexts)."""

from __future__ import annotations

import dataclasses
import re
import shutil

import pytest

from desktop import review
from desktop.project import Project
from desktop.review.unjudged import judged_by
from desktop.review.views import TEXT_CHARS, excerpt, pool_excerpts, unread_pool, view_of
from tests.helpers import cli_here
from tests.review.test_review_domain import JUDGEMENTS


def old_view(project, question, systems, k, reviewer, blind, reviewers, depth):
    """The view as question_view built it before: Project.pool for one question, and every
    excerpt read from the store."""
    seen = review.question_gold(project, question, reviewer, blind, reviewers)
    view = view_of(project, question, seen, systems, k, reviewer)
    found = project.pool(depth, blind=blind, questions=[question["id"]], effective=seen[0])
    mine = judged_by(seen[2], reviewer).get(question["id"], set())
    view.pool = [e for e in found[0][1] if e.passage_id not in mine] if found else []
    pks = [i.primary_pk for i in view.items] + [e.passage_pk for e in view.pool]
    view.excerpts = project.reads.passage_excerpts(pks, TEXT_CHARS) if pks else {}
    shown = project.reads.graph_contexts(view.pk).items()
    view.graph = {system: parts for system, parts in shown if system in view.rankings}
    # The reader opens on rank 1 of the first system shown, as its worker reads a passage.
    top = view.rankings[systems[0]["name"]] if systems else []
    items = [
        (i.index, i.role, [i.primary_pk, *(pk for pk, _ in i.alternatives)]) for i in view.items
    ]
    view.opening = review.reading(project, top[0].passage_pk, items) if top else None
    return view


def assert_same_views(project, k: int, depth: int) -> int:
    systems = project.systems()
    names = {s["pk"]: s["name"] for s in systems}
    reviewers = project.reviewers()
    compared = 0
    for shown in (systems[:1], systems[:2], systems[1:3]):
        for blind in (False, True):
            for question in project.questions():
                args = (project, question, shown, k, "kim", blind, reviewers, depth)
                old = old_view(*args)
                # Built with the pool queue behind the rankings, then given the excerpts
                # the queue's worker reads when it is shown (operations.pool_reads_op).
                later = review.question_view(*args, names, False)
                later.excerpts.update(pool_excerpts(project, unread_pool(later)))
                for new in (review.question_view(*args), review.question_view(*args, names), later):
                    for f in dataclasses.fields(old):
                        if not f.compare:  # not shown: the rows a key builds from (at_key)
                            continue
                        name = f.name
                        assert getattr(new, name) == getattr(old, name), (question["id"], name)
                    compared += 1
    return compared


def test_the_sample_views_equal_the_old_build(sample_db):
    with Project(sample_db) as project:
        for who, qid, kind, value, pid, settles in JUDGEMENTS:
            project.add_judgement(who, qid, kind, value, passage_id=pid, settles=settles)
        assert assert_same_views(project, 5, 10) > 100


def test_the_study_views_equal_the_old_build(tmp_path):
    db = tmp_path / "study.db"
    done = cli_here(db, "demo", "--study")
    assert done.returncode == 0, done.stderr
    with Project(db) as project:
        assert assert_same_views(project, 3, 5) > 10


@pytest.mark.parametrize(
    "text", ["abc", "abcd", "abcdefgh", "abc\0def", "abcd\0xyz", "abcde\0z", "abcdef\0", "a\0\0"]
)
def test_an_excerpt_cut_in_python_is_the_stores(text, project):
    """A text with a NUL before the cut comes whole from SQLite (its length() stops there);
    the excerpt cut from a ranking row's text is the same."""
    got = project.store.conn.execute(
        "SELECT CASE WHEN length(?1) <= 4 THEN ?1 ELSE substr(?1, 1, 4) END", (text,)
    ).fetchone()[0]
    assert excerpt(text, 4) == got


def test_a_switch_reads_neither_the_systems_nor_the_question_again(sample_template, tmp_path):
    db = tmp_path / "s.db"
    shutil.copy(sample_template, db)
    with Project(db) as project:
        systems = project.systems()
        names = {s["pk"]: s["name"] for s in systems}
        question = project.questions()[2]
        seen: list[str] = []
        project.store.trace(seen.append)
        view = review.question_view(project, question, systems[:1], 5, "kim", False, [], 10, names)
        project.store.trace(None)
    assert view.pool and view.excerpts
    again = ("SELECT * FROM system", "SELECT * FROM question")
    assert not [s for s in seen if s.startswith(again)], seen
    ranked = {r.passage_pk for r in view.rankings[systems[0]["name"]]}
    read = [s.split("IN (")[1] for s in seen if "substr(text" in s]
    assert read and not ranked & {int(pk) for s in read for pk in re.findall(r"\d+", s)}
