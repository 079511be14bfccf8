"""The candidate rule (issue 21, desktop/gold/candidates.py) and the pairwise score it stands
on (db/similar.py pair_scores): the same score `similar` lists, for any passages; the share
pre-test never changes a result; a near copy is a candidate, an unrelated passage and the
item's own neighbours never; the threshold's boundary."""

from __future__ import annotations

import pytest

from desktop.gold import candidates
from desktop.project import Project
from tests.db.test_similar import NEAR_COPY, ORIGINAL, OTHERS, PARAPHRASE, UNRELATED
from tests.helpers import cli_here, write_jsonl


def _pks(store) -> list[int]:
    return [r[0] for r in store.conn.execute("SELECT pk FROM passage ORDER BY pk")]


def test_pair_scores_are_the_scores_similar_lists_on_the_sample(sample_db):
    with Project(sample_db) as project:
        store = project.reads
        pks = _pks(store)
        compared = 0
        for pk in pks:
            listed = {r["pk"]: r["score"] for r in store.similar_passages(pk, 1000)}
            scores = store.pair_scores(pk, pks)
            assert {p: scores[p] for p in listed} == listed
            # Never listed, never scored: the passage itself and its corpus neighbours.
            assert pk not in scores and not (store._excluded(pk) & scores.keys())
            # A passage sharing none of its rare pairs scores 0 (similar leaves it out).
            assert all(s == 0.0 for p, s in scores.items() if p not in listed)
            compared += len(listed)
        assert compared > 1000


def test_the_pretest_never_changes_a_result(sample_db):
    """With at_least, a passage whose share alone keeps it below is never given a cosine:
    the passages left are those the full scores put at or above it."""
    with Project(sample_db) as project:
        store = project.reads
        pks = _pks(store)
        kept = 0
        for pk in pks[::2]:
            full = store.pair_scores(pk, pks)
            for at_least in (candidates.THRESHOLD, 0.3):
                tested = store.pair_scores(pk, pks, at_least=at_least)
                assert tested == {p: s for p, s in full.items() if s >= at_least}
            kept += len(candidates.candidate_scores(store, pk, pks))
        assert kept > 0  # the sample holds passages above the threshold


@pytest.fixture
def study(db_path, tmp_path):
    """The original, a near copy and a paraphrase of it, other articles and an unrelated
    passage, each apart from the others by a filler passage (no two are neighbours), and
    the original's neighbours copies of it."""
    texts = {
        "before": NEAR_COPY,
        "item": ORIGINAL,
        "after": NEAR_COPY,
        "gap": "여백 문단입니다.",
        "copy": NEAR_COPY,
        "gap2": "두 번째 여백 문단입니다.",
        "para": PARAPHRASE,
        **{f"other{n}": t for n, t in enumerate(OTHERS)},
        "gap3": "세 번째 여백 문단입니다.",
        "unrelated": UNRELATED,
    }
    rows = [{"id": pid, "text": text} for pid, text in texts.items()]
    assert cli_here(db_path, "init").returncode == 0
    done = cli_here(db_path, "import", "corpus", str(write_jsonl(tmp_path / "c.jsonl", rows)))
    assert done.returncode == 0, done.stderr
    with Project(db_path) as project:
        pk = project.reads.passage_pks(list(texts))
        yield project.reads, pk


def test_a_near_copy_and_a_paraphrase_are_candidates_and_the_others_not(study):
    store, pk = study
    listed = [r["id"] for r in candidates.candidates(store, pk["item"], 50)]
    assert listed[:2] == ["copy", "para"] or listed[:2] == ["para", "copy"]
    assert "unrelated" not in listed and not any(i.startswith("other") for i in listed)
    assert "before" not in listed and "after" not in listed and "item" not in listed
    found = candidates.candidate_scores(store, pk["item"], pk.values())
    assert {p for p in found} == {pk["copy"], pk["para"]}
    assert candidates.is_candidate_of(store, pk["item"], pk["copy"])
    assert not candidates.is_candidate_of(store, pk["item"], pk["unrelated"])
    assert not candidates.is_candidate_of(store, pk["item"], pk["before"])  # its neighbour
    assert not candidates.is_candidate_of(store, pk["item"], pk["item"])


def test_the_threshold_boundary(study, monkeypatch):
    """A passage scoring exactly the threshold is a candidate; a thousandth more makes it not
    one, in the list, the pairwise check and the pre-tested scores alike."""
    store, pk = study
    score = store.pair_scores(pk["item"], [pk["para"]])[pk["para"]]
    assert candidates.is_candidate(candidates.THRESHOLD)
    assert not candidates.is_candidate(round(candidates.THRESHOLD - 0.001, 3))
    assert not candidates.is_candidate(None)
    monkeypatch.setattr(candidates, "THRESHOLD", score)
    assert "para" in [r["id"] for r in candidates.candidates(store, pk["item"], 50)]
    assert candidates.is_candidate_of(store, pk["item"], pk["para"])
    monkeypatch.setattr(candidates, "THRESHOLD", round(score + 0.001, 3))
    assert "para" not in [r["id"] for r in candidates.candidates(store, pk["item"], 50)]
    assert not candidates.is_candidate_of(store, pk["item"], pk["para"])


def test_pair_scores_of_texts_python_cannot_fold_surely_are_the_same(db_path, tmp_path):
    """A passage holding a cased letter outside ASCII (FTS5 and Python may fold it apart) is
    scored from the index, the others from their texts: the same scores either way."""
    accented = ORIGINAL.replace("국회는", "ÉTAT 국회는")
    texts = {
        "item": accented,
        "g1": "여백 하나.",
        "plain": NEAR_COPY,
        "g2": "여백 둘.",
        "cased": NEAR_COPY.replace("국회는", "Σ국회는"),
        "g3": "여백 셋.",
        "other": OTHERS[0],
    }
    rows = [{"id": pid, "text": text} for pid, text in texts.items()]
    assert cli_here(db_path, "init").returncode == 0
    done = cli_here(db_path, "import", "corpus", str(write_jsonl(tmp_path / "c.jsonl", rows)))
    assert done.returncode == 0, done.stderr
    with Project(db_path) as project:
        store = project.reads
        pks = _pks(store)
        for pk in pks:
            listed = {r["pk"]: r["score"] for r in store.similar_passages(pk, 1000)}
            scores = store.pair_scores(pk, pks)
            assert {p: scores[p] for p in listed} == listed
            assert all(s == 0.0 for p, s in scores.items() if p not in listed)
        item = pks[0]
        assert store.pair_scores(item, pks)[pks[4]] > 0.6  # the cased copy, from the index
