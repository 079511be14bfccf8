"""The span rule (design section 10, desktop.evaluation.spans) wired into the one scorer:
metrics.evaluate's scores of every run whose passages have spans gain SpanRecall and
SpanPrecision at each K and each budget, and a run on another chunking than the one the gold
was judged on is scored by coverage instead of by ids. Pure code over plain data: the store's
reads are made by desktop.project_evaluation.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from desktop.evaluation import metrics, spans
from desktop.evaluation.spans import Span, SpanItem, SpanQuestion


@dataclass
class SpanSetting:
    """What the span rule needs besides the gold and the runs: θ, the budgets, each passage's
    span (by key) and which systems are on the chunking the gold was judged on."""

    theta: float = spans.THETA
    budgets: list[int] = field(default_factory=list)
    spans: Mapping[Hashable, Span] = field(default_factory=dict)
    own: frozenset = frozenset()  # systems whose run is on the gold's chunking

    def spanned(self, lists: Mapping[Hashable, Sequence[Hashable]]) -> bool:
        """A run is scored by spans when it has passages and every one has a span (a passage
        without one would shift the ranks the span rule walks)."""
        known = self.spans
        return any(lists.values()) and all(p in known for ps in lists.values() for p in ps)


def span_items(items: Sequence[metrics.Item], known: Mapping[Hashable, Span]):
    """The question's items for the span rule (each with the spans of its primary and its
    alternatives), or None when some item has no passage with a span: the span rule cannot
    say how much of it a context covers."""
    out = []
    for item in items:
        these = tuple(sorted({known[p] for p in item.passages if p in known}))
        if not these:
            return None
        out.append(SpanItem(item.role, these, item.passages))
    return out


def new_labels(ks: Sequence[int], budgets: Sequence[int]) -> list[str]:
    """The span rule's labels the id scorer does not give: SpanRecall@K, SpanPrecision@K and
    every measure at every budget, in spans.labels' order."""
    by_ids = set(metrics.labels(ks, metrics.ALL_MEASURES))
    return [name for name in spans.labels(ks, budgets) if name not in by_ids]


def add_span_scores(
    scores: list[metrics.SystemScores],
    gold: Mapping[Hashable, Sequence[metrics.Item]],
    runs: Mapping[str, Mapping[Hashable, Sequence[Hashable]]],
    ks: Sequence[int],
    setting: SpanSetting,
    measures=metrics.ALL_MEASURES,
) -> list[str]:
    """Scores the systems whose runs have spans by the span rule too, in place, and returns
    their names. A run on the gold's chunking keeps every figure of the id rule (exactly as
    trec_eval) and gains the span measures; a run on another chunking has Recall, CoreRecall,
    Hit and MRR by coverage >= θ and nDCG, P and Judged None (spans.ACROSS_CHUNKINGS). A
    question whose items lack spans has None for the span measures (left out of their mean)."""
    known = setting.spans
    prepared = {}
    for q, items in gold.items():
        these = span_items(items, known) if items else None
        if these:
            prepared[q] = SpanQuestion(these, setting.theta)
    extra = new_labels(ks, setting.budgets)
    names = metrics.labels(ks, measures) + extra
    scored = []
    for system in scores:
        lists = runs.get(system.system, {})
        if not setting.spanned(lists):
            continue
        own = system.system in setting.own
        means = metrics.Means(ks, measures=measures, extra=extra)
        for q, values in system.per_question.items():
            values.update(dict.fromkeys(extra))
            prep = prepared.get(q)
            if prep is not None:
                ranked = [(p, known[p]) for p in lists.get(q, ())]
                every = range(len(prep.items))
                found = prep.score(ranked, ks, setting.budgets, id_rule_items=every if own else ())
                values.update((name, found[name]) for name in extra)
                if not own:
                    values.update(_across(found, ks))
            means.add([values[name] for name in names])
        system.means = means.means()
        scored.append(system.system)
    return scored


def _across(found: Mapping[str, float | None], ks: Sequence[int]) -> dict[str, float | None]:
    """A run on another chunking: the measures at K by coverage, and those only ids define
    (nDCG, P, and Judged, as no passage of another chunking is judged) None."""
    out = {}
    for k in ks:
        for measure in ("Recall", "CoreRecall", "Hit", "MRR"):
            out[metrics.label(measure, k)] = found[metrics.label(measure, k)]
        for measure in (*spans.ID_ONLY_MEASURES, "Judged"):
            out[metrics.label(measure, k)] = None
    return out
