"""Issue 22's done-when, through the real command line: four people (and one machine) judge the
sample in their own databases, the databases are merged, and `agreement` tells the team's α per
kind with intervals, which person lowers it, and how the machine agrees with the people."""

from __future__ import annotations

import json
import random
from collections import Counter

import krippendorff
import numpy as np
import pytest

from tests.helpers import cli, cli_here, write_jsonl

PEOPLE = ("choi", "kim", "lee", "park")
CARELESS = "lee"  # answers at random: α rises without them
MACHINE = "gpt"  # an LLM judge, as careful as the careful people


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
    """Four people's and one machine's databases of the sample, each judged through `import
    judgements` (the machine's with --machine), and kim's with the other people's merged."""
    tmp_path = tmp_path_factory.mktemp("team")
    gold = None
    files = {}
    for i, name in enumerate((*PEOPLE, MACHINE)):
        db = tmp_path / f"{name}.db"
        assert cli_here(db, "demo").returncode == 0
        gold = gold or _gold(tmp_path, db)
        lines = _lines(gold, name, seed=i, careful=name != CARELESS, hour=10 + i)
        files[name] = write_jsonl(tmp_path / f"{name}.jsonl", lines)
        flags = ["--machine"] if name == MACHINE else []
        assert cli_here(db, "import", "judgements", str(files[name]), *flags).returncode == 0
    files.pop(MACHINE)
    merged = tmp_path / "kim.db"
    for name in PEOPLE:
        if name != "kim":
            assert cli_here(merged, "merge", str(tmp_path / f"{name}.db")).returncode == 0
    return tmp_path, merged, files, gold


@pytest.fixture(scope="module")
def with_machine(team):
    """A copy of the people's merged database (merged anew into a fresh sample) with the
    machine's database merged too."""
    tmp_path, merged, _, _ = team
    everyone = tmp_path / "everyone.db"
    assert cli_here(everyone, "demo").returncode == 0
    for source in (merged, tmp_path / f"{MACHINE}.db"):
        assert cli_here(everyone, "merge", str(source)).returncode == 0
    return everyone


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
    assert cli_here(db, "demo").returncode == 0
    lines = _lines(_gold(tmp_path, db), "kim", seed=0)
    cli(db, "import", "judgements", str(write_jsonl(tmp_path / "kim.jsonl", lines)))
    out = cli(db, "agreement", "--json").stdout
    assert "NaN" not in out
    data = json.loads(out)
    assert all(e["alpha"] is None and e["ci95"] is None for e in data["alpha"])
    assert data["alpha"][0]["reason"] == "fewer than two reviewers"
    assert "α — (fewer than two reviewers)" in cli(db, "agreement").stdout


def test_the_machine_leaves_the_effective_gold_exactly_as_the_people_make_it(team, with_machine):
    tmp_path, merged, _, _ = team
    without = tmp_path / "without.jsonl"
    with_it = tmp_path / "with.jsonl"
    assert cli(merged, "export", "gold", str(without)).returncode == 0
    assert cli(with_machine, "export", "gold", str(with_it)).returncode == 0
    assert with_it.read_bytes() == without.read_bytes()
    people = json.loads(cli(merged, "agreement", "--json").stdout)
    everyone = json.loads(cli(with_machine, "agreement", "--json").stdout)
    # left out of the people's α and κ and of the disagreements
    for key in ("alpha", "reviewers", "pairs", "disagreements"):
        assert everyone[key] == people[key]


def test_the_machine_is_held_to_the_people(team, with_machine, tmp_path):
    consensus = {  # the people's roles in force: the effective gold's
        (q["question_id"], item["passage_id"]): item["role"]
        for q in _gold(tmp_path, with_machine)
        for item in q["evidence"]
        if "role" in item
    }
    machine = {
        (line["question_id"], line["passage_id"]): line["value"]
        for line in map(json.loads, team[2]["kim"].parent.joinpath("gpt.jsonl").open())
        if line["kind"] == "role"
    }
    expected = Counter((machine[key], role) for key, role in consensus.items())
    data = json.loads(cli(with_machine, "agreement", "--json").stdout)
    by_kind = {m["kind"]: m for m in data["machines"]}
    assert {m["machine"] for m in data["machines"]} == {MACHINE}
    role = by_kind["role"]
    assert role["items"] == len(consensus) and 0 < role["kappa"] < 1 and 0 < role["alpha"] < 1
    lo, hi = role["ci95"]
    assert lo <= role["alpha"] <= hi
    cells = {(c["machine"], c["people"]): c["items"] for c in role["confusion"]}
    assert cells == dict(expected)
    assert role["agreement"] == pytest.approx(
        sum(n for (m, p), n in cells.items() if m == p) / len(consensus)
    )
    assert by_kind["answerable"]["items"] == 33
    text = cli(with_machine, "agreement").stdout
    assert f"Machine {MACHINE} against the people's consensus" in text
    assert "  role: κ " in text


def test_machine_lines_are_kept_merged_and_exported_marked(team, with_machine, tmp_path):
    out = tmp_path / "all.jsonl"
    assert cli(with_machine, "export", "judgements", str(out)).returncode == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    machine = [line for line in lines if line["reviewer"] == MACHINE]
    assert len(machine) == 91 and all(line["machine"] is True for line in machine)
    assert not any("machine" in line for line in lines if line["reviewer"] != MACHINE)
    # the export read back (each line marked, no --machine) is the same log
    again = tmp_path / "again.db"
    assert cli_here(again, "demo").returncode == 0
    assert "added 455 judgements" in cli(again, "import", "judgements", str(out)).stdout
    back = tmp_path / "back.jsonl"
    assert cli(again, "export", "judgements", str(back)).returncode == 0
    assert sorted(back.read_text(encoding="utf-8").splitlines()) == sorted(
        out.read_text(encoding="utf-8").splitlines()
    )
    assert "added 0 judgements" in cli(again, "import", "judgements", str(out)).stdout


def _rows_after(rows, title):
    """The rows under the header that follows the row starting with title."""
    start = next(i for i, r in enumerate(rows) if r and str(r[0]).startswith(title))
    out = []
    for row in rows[start + 2 :]:
        if not row or all(v is None for v in row):
            return out
        out.append(row)
    return out


def test_the_reviewers_sheet_shows_alpha_machines_and_pairs(team, with_machine, tmp_path):
    from openpyxl import load_workbook

    report = tmp_path / "report.xlsx"
    done = cli(with_machine, "export", str(report), "--lang", "en")
    assert done.returncode == 0, done.stderr
    rows = [
        list(r)
        for r in load_workbook(report, read_only=True)["Reviewers"].iter_rows(values_only=True)
    ]
    data = json.loads(cli(with_machine, "agreement", "--json").stdout)

    per_reviewer = [r[0] for r in _rows_after(rows, "Judgement lines per reviewer")]
    assert per_reviewer == ["choi", f"{MACHINE} (machine 기계)", "kim", "lee", "park"]
    alpha = {r[0]: r for r in _rows_after(rows, "Krippendorff's α per kind")}
    role = next(e for e in data["alpha"] if e["kind"] == "role")
    assert alpha["role"][1:6] == [
        ", ".join(PEOPLE),
        58,
        *(pytest.approx(v) for v in (role["alpha"], *role["ci95"])),
    ]
    assert str(alpha["drop"][3]).startswith("undefined (no item judged by two reviewers)")

    without = {r[0]: r for r in _rows_after(rows, "α without each reviewer")}
    assert set(without) == set(PEOPLE)
    assert max(without, key=lambda name: without[name][2]) == CARELESS

    machines = _rows_after(rows, "Machines against the people's consensus")
    by_kind = {r[1]: r for r in machines}
    role_machine = next(m for m in data["machines"] if m["kind"] == "role")
    assert by_kind["role"][0] == MACHINE and by_kind["role"][2] == role_machine["items"]
    assert by_kind["role"][4] == pytest.approx(role_machine["kappa"])
    confusion = _rows_after(rows, "Machine value against the people's value")
    assert [r[2:] for r in confusion if r[1] == "role"] == [
        [c["machine"], c["people"], c["items"]] for c in role_machine["confusion"]
    ]

    pairs = _rows_after(rows, "Disagreements per pair of reviewers")
    assert [tuple(r[:2]) for r in pairs] == [
        (a, b) for i, a in enumerate(PEOPLE) for b in PEOPLE[i + 1 :]
    ]
    kim_lee = next(r for r in pairs if r[:2] == ["kim", "lee"])
    differ = sum(
        p["items"] - round(p["items"] * p["agreement"])
        for p in data["pairs"]
        if p["reviewers"] == ["kim", "lee"]
    )
    assert kim_lee[2] == 91 and kim_lee[3] == differ > 0
