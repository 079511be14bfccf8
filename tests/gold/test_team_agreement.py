"""Issue 22's done-when, through the real command line: four people (and one machine) judge the
sample in their own databases, the databases are merged, and `agreement` tells the team's α per
kind with intervals, which person lowers it, and how the machine agrees with the people."""

from __future__ import annotations

import json
import random

import krippendorff
import numpy as np
import pytest

from tests.helpers import cli, write_jsonl

PEOPLE = ("choi", "kim", "lee", "park")
CARELESS = "lee"  # answers at random: α rises without them


def _gold(tmp_path, db):
    out = tmp_path / "gold.jsonl"
    assert cli(db, "export", "gold", str(out)).returncode == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _lines(gold, reviewer, seed, careful=True, hour=10):
    """role lines for every evidence item and an answerable line per question; a careful
    reviewer keeps the gold's role nine times in ten, a careless one picks at random."""
    rng = random.Random(seed)
    out = []
    for n, q in enumerate(gold):
        at = f"2026-12-01T{hour:02d}:{n // 60:02d}:{n % 60:02d}+09:00"
        for item in q["evidence"]:
            role = item.get("role") or "supporting"
            if not careful or rng.random() < 0.1:
                role = rng.choice(["core", "supporting"])
            out.append(
                {
                    "reviewer": reviewer,
                    "at": at,
                    "question_id": q["question_id"],
                    "kind": "role",
                    "passage_id": item["passage_id"],
                    "value": role,
                }
            )
        answerable = rng.random() < (0.95 if careful else 0.5)
        out.append(
            {
                "reviewer": reviewer,
                "at": at,
                "question_id": q["question_id"],
                "kind": "answerable",
                "value": answerable,
            }
        )
    return out


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    """Four people's databases of the sample, each judged through `import judgements`, and
    the merged one (kim's)."""
    tmp_path = tmp_path_factory.mktemp("team")
    gold = None
    files = {}
    for i, name in enumerate(PEOPLE):
        db = tmp_path / f"{name}.db"
        assert cli(db, "demo").returncode == 0
        gold = gold or _gold(tmp_path, db)
        lines = _lines(gold, name, seed=i, careful=name != CARELESS, hour=10 + i)
        files[name] = write_jsonl(tmp_path / f"{name}.jsonl", lines)
        assert cli(db, "import", "judgements", str(files[name])).returncode == 0
    merged = tmp_path / "kim.db"
    for name in PEOPLE:
        if name != "kim":
            assert cli(merged, "merge", str(tmp_path / f"{name}.db")).returncode == 0
    return tmp_path, merged, files, gold


def _reference(files, kind):
    """The krippendorff package's α over the same latest values."""
    units: dict[tuple, dict] = {}
    for name, path in files.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = json.loads(line)
            if line["kind"] == kind:
                key = (line["question_id"], line.get("passage_id", ""))
                units.setdefault(key, {})[name] = line["value"]
    keys = sorted(units)
    codes = {"core": 0, "supporting": 1, True: 0, False: 1}
    data = [[codes.get(units[k].get(name), np.nan) for k in keys] for name in sorted(files)]
    data = np.array(data, float)
    return krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")


def test_alpha_for_the_four_people_with_intervals_equals_the_reference(team):
    _, merged, files, _ = team
    data = json.loads(cli(merged, "agreement", "--json").stdout)
    by_kind = {e["kind"]: e for e in data["alpha"]}
    for kind in ("role", "answerable"):
        entry = by_kind[kind]
        assert entry["reviewers"] == list(PEOPLE)
        assert abs(entry["alpha"] - _reference(files, kind)) < 1e-9
        lo, hi = entry["ci95"]
        assert lo < entry["alpha"] < hi
    assert by_kind["role"]["units"] == 58  # every evidence item of the sample
    assert by_kind["answerable"]["units"] == 33
    # nobody judged these kinds: said so, never NaN
    assert by_kind["drop"]["alpha"] is None and by_kind["drop"]["reason"]
    assert data["bootstrap"] == {"seed": 22, "resamples": 1000}
    assert data["pairs"]  # pairwise κ stays


def test_the_person_who_lowers_alpha_is_named(team):
    _, merged, _, _ = team
    data = json.loads(cli(merged, "agreement", "--json").stdout)
    together = next(e["alpha"] for e in data["alpha"] if e["kind"] == "all")
    without = {r["reviewer"]: r["alpha_without"] for r in data["reviewers"]}
    assert max(without, key=without.get) == CARELESS
    assert without[CARELESS] > together
    assert {r["reviewer"]: r["judged"] for r in data["reviewers"]} == dict.fromkeys(PEOPLE, 91)
    text = cli(merged, "agreement").stdout
    assert f"without {CARELESS}:" in text and f"talk to {CARELESS} first" in text
    assert "(95%: " in text and "over 58 items" in text and "1000 resamples, seed 22" in text


def test_one_reviewer_alpha_is_undefined_and_said_so(tmp_path):
    db = tmp_path / "one.db"
    assert cli(db, "demo").returncode == 0
    lines = _lines(_gold(tmp_path, db), "kim", seed=0)
    cli(db, "import", "judgements", str(write_jsonl(tmp_path / "kim.jsonl", lines)))
    out = cli(db, "agreement", "--json").stdout
    assert "NaN" not in out
    data = json.loads(out)
    assert all(e["alpha"] is None and e["ci95"] is None for e in data["alpha"])
    assert data["alpha"][0]["reason"] == "fewer than two reviewers"
    assert "α — (fewer than two reviewers)" in cli(db, "agreement").stdout
