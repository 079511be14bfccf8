"""The people's agreement as one figure per kind: Krippendorff's α (desktop/gold/alpha.py)
over every reviewer together, with its interval, and α without each reviewer in turn (a
reviewer whose absence raises α is the one to talk to). Units are the (question, kind,
passage) of the latest values (effective.latest_values' votes); kind "all" pools the kinds,
stratified: observed and expected disagreement each taken within a kind, then summed.
Gathered a unit at a time, as pattern counts (the report reads the log question by
question)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from desktop.gold import alpha as alpha_module

ALPHA_KINDS = ("role", "not_evidence", "evidence", "drop", "answerable")
ALL = "all"


class TeamTally:
    """Pattern counts per kind, with everyone and without each reviewer, and how many units
    each reviewer judged."""

    def __init__(self, reviewers: Iterable[str]):
        self.names = sorted(set(reviewers))
        self.together: dict[str, Counter] = {k: Counter() for k in (*ALPHA_KINDS, ALL)}
        self.without = {name: {k: Counter() for k in self.together} for name in self.names}
        self.judged = dict.fromkeys(self.names, 0)
        self._seen: dict[tuple, tuple] = {}  # a configuration of votes -> its patterns

    def add(self, kind: str, votes: dict[str, object]) -> None:
        """One unit: each reviewer's latest value on it."""
        if kind not in ALPHA_KINDS:
            return
        votes = {who: v for who, v in votes.items() if who in self.judged}
        for who in votes:
            self.judged[who] += 1
        if len(votes) < 2:
            return  # not pairable, with or without anyone
        # Units repeat a few configurations of who gave what: their patterns are made once.
        config = (
            kind,
            tuple(sorted((who, json.dumps(v, sort_keys=True)) for who, v in votes.items())),
        )
        if config not in self._seen:
            self._seen[config] = self._patterns(kind, votes)
        pattern, without = self._seen[config]
        self.together[kind][pattern] += 1
        self.together[ALL][(kind, pattern)] += 1  # stratified by kind
        for name, counts in self.without.items():
            rest = without.get(name, pattern)
            counts[kind][rest] += 1
            counts[ALL][(kind, rest)] += 1

    @staticmethod
    def _patterns(kind: str, votes: dict[str, object]) -> tuple:
        """The unit's pattern with everyone, and without each reviewer who judged it."""
        pattern = alpha_module.pattern_of(votes.values())
        without = {
            name: alpha_module.pattern_of(v for w, v in votes.items() if w != name)
            for name in votes
        }
        return pattern, without

    def result(self, resamples: int = alpha_module.RESAMPLES) -> dict:
        """{"alpha": per kind and "all", "reviewers": each one's judged units and α without
        them, "bootstrap": the seed and resamples of the intervals}."""
        few = alpha_module.Alpha(0, None, alpha_module.FEW_REVIEWERS)
        entries = []
        for kind, counts in self.together.items():
            strata = kind == ALL
            enough = len(self.names) >= 2
            result = alpha_module.alpha_of(counts, resamples, strata=strata) if enough else few
            entries.append(_entry(kind, self.names, result))
        people = []
        for name in self.names:
            by_kind = {
                k: alpha_module.alpha_of(c, 0, strata=k == ALL) if len(self.names) >= 3 else few
                for k, c in self.without[name].items()
            }
            people.append(
                {
                    "reviewer": name,
                    "judged": self.judged[name],
                    "alpha_without": by_kind[ALL].alpha,
                    "alpha_without_reason": by_kind[ALL].reason,
                    "alpha_without_by_kind": {k: by_kind[k].alpha for k in ALPHA_KINDS},
                }
            )
        bootstrap = {"seed": alpha_module.SEED, "resamples": resamples}
        return {"alpha": entries, "reviewers": people, "bootstrap": bootstrap}


def _entry(kind: str, reviewers: list[str], result: alpha_module.Alpha) -> dict:
    return {
        "kind": kind,
        "reviewers": list(reviewers),
        "units": result.units,
        "alpha": result.alpha,
        "ci95": list(result.ci95) if result.ci95 else None,
        "reason": result.reason,
    }
