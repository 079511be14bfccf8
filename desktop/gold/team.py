"""The people's agreement as one figure per kind: Krippendorff's α (desktop/gold/alpha.py)
over every reviewer together, with its interval, and α without each reviewer in turn (a
reviewer whose absence raises α is the one to talk to). Units are the (question, kind,
passage) of the latest values (effective.latest_values' votes); kind "all" pools the kinds,
a value compared only with values of its own kind."""

from __future__ import annotations

from collections.abc import Sequence

from desktop.gold import alpha as alpha_module

ALPHA_KINDS = ("role", "not_evidence", "evidence", "drop", "answerable")
ALL = "all"


def _units(votes: dict, kind: str, leave_out: str | None = None) -> list[list]:
    out = []
    for (_question, k, _passage), these in votes.items():
        if k not in ALPHA_KINDS or (kind != ALL and k != kind):
            continue
        out.append([[k, v] for who, v in these.items() if who != leave_out])
    return out


def _entry(kind: str, reviewers: Sequence[str], result: alpha_module.Alpha) -> dict:
    return {
        "kind": kind,
        "reviewers": list(reviewers),
        "units": result.units,
        "alpha": result.alpha,
        "ci95": list(result.ci95) if result.ci95 else None,
        "reason": result.reason,
    }


def team_alpha(
    votes: dict, reviewers: Sequence[str], resamples: int = alpha_module.RESAMPLES
) -> dict:
    """{"alpha": per kind and "all", "reviewers": each one's judged units and α without them,
    "bootstrap": the seed and resamples the intervals were drawn with}."""
    names = sorted(reviewers)
    entries = []
    for kind in (*ALPHA_KINDS, ALL):
        if len(names) < 2:
            result = alpha_module.Alpha(0, None, alpha_module.FEW_REVIEWERS)
        else:
            result = alpha_module.alpha(_units(votes, kind), resamples)
        entries.append(_entry(kind, names, result))
    judged = dict.fromkeys(names, 0)
    for (_question, kind, _passage), these in votes.items():
        if kind in ALPHA_KINDS:
            for who in these:
                if who in judged:
                    judged[who] += 1
    people = []
    for name in names:
        by_kind = {}
        for kind in (*ALPHA_KINDS, ALL):
            if len(names) < 3:
                by_kind[kind] = alpha_module.Alpha(0, None, alpha_module.FEW_REVIEWERS)
            else:
                by_kind[kind] = alpha_module.alpha(_units(votes, kind, name), resamples=0)
        people.append(
            {
                "reviewer": name,
                "judged": judged[name],
                "alpha_without": by_kind[ALL].alpha,
                "alpha_without_reason": by_kind[ALL].reason,
                "alpha_without_by_kind": {k: a.alpha for k, a in by_kind.items() if k != ALL},
            }
        )
    bootstrap = {"seed": alpha_module.SEED, "resamples": resamples}
    return {"alpha": entries, "reviewers": people, "bootstrap": bootstrap}
