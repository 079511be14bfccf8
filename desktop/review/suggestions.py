"""A machine's judgements as suggestions in the pool queue (issue 22): a passage a machine
added as evidence (with the role it gave) or judged not evidence is shown with that verdict,
and one key writes it as the reviewer's own lines. The machine's lines themselves never count
(design section 6); adopting one is a person's judgement."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from desktop.gold.machines import machine_votes


@dataclass(frozen=True)
class Suggestion:
    machine: str
    kind: str  # "evidence" (an item, with role when the machine gave one) or "not_evidence"
    role: str | None = None

    def lines(self, passage_id: str) -> list[dict]:
        """The reviewer's lines that adopt it (the window's judge_lines takes them)."""
        if self.kind == "not_evidence":
            return [{"kind": "not_evidence", "value": True, "passage_id": passage_id}]
        out = [{"kind": "evidence", "value": True, "passage_id": passage_id}]
        if self.role:
            out.append({"kind": "role", "value": self.role, "passage_id": passage_id})
        return out


def suggestions(rows: Iterable[dict]) -> dict[tuple[str, str], Suggestion]:
    """(question id, passage id) -> the first machine's (by name) suggestion, from log rows."""
    votes = machine_votes(list(rows))
    out: dict[tuple[str, str], Suggestion] = {}
    for (question_id, kind, passage_id), these in sorted(votes.items()):
        for machine, value in sorted(these.items()):
            key = (question_id, passage_id)
            if kind == "evidence" and value is True:
                role = votes.get((question_id, "role", passage_id), {}).get(machine)
                out.setdefault(key, Suggestion(machine, "evidence", role))
            elif kind == "not_evidence" and value is True:
                out.setdefault(key, Suggestion(machine, "not_evidence"))
    return out
