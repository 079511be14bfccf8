"""A machine reviewer (an LLM used as a judge, design section 6) held to the people: per kind,
its latest values against the human consensus, which is the effective gold the people's lines
make (the machine's own lines never count in it). Cohen's κ, Krippendorff's α of the two,
and the confusion table (machine core / people supporting, …).

The consensus of a (question, passage) per kind, from the effective gold: role, the role of
the item whose primary it is (none yet: not compared); evidence, whether it is a passage of an
item (true) or judged out (false); not_evidence, the reverse; drop, whether it is judged out
(true) or still an item's primary (false); answerable, the question's answerability in force.
A passage the people never judged has no consensus and is not compared."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from desktop.gold import alpha as alpha_module
from desktop.gold.effective import EffectiveGold, as_counted, cohen_kappa, latest_values
from desktop.gold.team import ALPHA_KINDS


def machine_votes(rows: Sequence[dict]) -> dict:
    """(question, kind, passage) -> {machine: latest value} of the machines' lines (by the
    one rule, effective.is_machine: rows should hold the reviewer-mark lines)."""
    counted = as_counted(rows)
    votes, _, _ = latest_values({**r, "machine": 0} for r in counted if r.get("machine"))
    return votes


def _consensus(built: EffectiveGold, question_pk: int, kind: str, passage_id: str, pk):
    """The people's value in force, or None where they have none."""
    if kind == "answerable":
        return built.answerable.get(question_pk)
    items = built.items.get(question_pk, [])
    primaries = {i.primary_id: i for i in items}
    if kind == "role":
        item = primaries.get(passage_id)
        return item.role if item else None
    in_item = passage_id in primaries or any(passage_id in i.alternatives.values() for i in items)
    judged_out = pk is not None and pk in built.judged_out.get(question_pk, ())
    if kind == "drop":
        return False if passage_id in primaries else (True if judged_out else None)
    if in_item:
        return kind == "evidence"
    if judged_out:
        return kind != "evidence"
    return None


def _label(value) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class MachineTally:
    """Per machine and kind, how often each (machine value, people's value) came, gathered
    a question at a time (the report's pass) or over the whole log at once."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], Counter] = {}

    def add(
        self,
        rows: Sequence[dict],
        built: EffectiveGold,
        question_pks: dict[str, int],
        passage_pks: dict[str, int],
    ) -> None:
        """Judgement rows (the machines' among them count), the effective gold of their
        questions, question keys by id and the keys of the passages the machines name."""
        for (question_id, kind, passage_id), these in machine_votes(rows).items():
            question_pk = question_pks.get(question_id)
            if kind not in ALPHA_KINDS or question_pk is None:
                continue
            pk = passage_pks.get(passage_id)
            people = _consensus(built, question_pk, kind, passage_id, pk)
            if people is None:
                continue
            for machine, value in these.items():
                pair = (json.dumps(value, sort_keys=True), json.dumps(people, sort_keys=True))
                self.pairs.setdefault((machine, kind), Counter())[pair] += 1

    def result(self, resamples: int = alpha_module.RESAMPLES) -> list[dict]:
        """Per machine and kind it judged: items compared, agreement, κ, α (with its interval)
        and the confusion table, against the effective gold of the people."""
        out = []
        for (machine, kind), counts in sorted(self.pairs.items()):
            compared = [pair for pair, n in counts.items() for _ in range(n)]
            observed, kappa = cohen_kappa(compared)
            patterns = Counter()
            for (m, p), n in counts.items():
                patterns[alpha_module.pattern_of([json.loads(m), json.loads(p)])] += n
            together = alpha_module.alpha_of(patterns, resamples)
            out.append(
                {
                    "machine": machine,
                    "kind": kind,
                    "items": len(compared),
                    "agreement": observed,
                    "kappa": kappa,
                    "alpha": together.alpha,
                    "alpha_reason": together.reason,
                    "ci95": list(together.ci95) if together.ci95 else None,
                    "confusion": [
                        {
                            "machine": _label(json.loads(m)),
                            "people": _label(json.loads(p)),
                            "items": n,
                        }
                        for (m, p), n in sorted(counts.items())
                    ],
                }
            )
        return out


def against_people(
    rows: Sequence[dict],
    built: EffectiveGold,
    question_pks: dict[str, int],
    passage_pks: dict[str, int],
) -> list[dict]:
    """MachineTally's result over the whole log at once."""
    tally = MachineTally()
    tally.add(rows, built, question_pks, passage_pks)
    return tally.result()
