"""The span rule (design section 10, desktop.evaluation.spans) wired into the one scorer:
metrics.evaluate's scores of every run whose passages have spans gain SpanRecall and
SpanPrecision at each K and each budget, and a run on another chunking than the one the gold
was judged on is scored by coverage instead of by ids. Pure code over plain data: the store's
reads are made by desktop.project_evaluation.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

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
    alternatives, passages' and given ones), or None when some item has no span: the span
    rule cannot say how much of it a context covers. An item given as a span (its primary
    is none of its passages) has no passages for the id rule: the span rule scores it on
    every run (design section 10)."""
    out = []
    for item in items:
        these = {known[p] for p in item.passages if p in known}
        these = tuple(sorted(these.union(item.spans)))
        if not these:
            return None
        on_passages = not item.given_as_span
        out.append(SpanItem(item.role, these, item.passages if on_passages else frozenset()))
    return out


def new_labels(ks: Sequence[int], budgets: Sequence[int]) -> tuple[str, ...]:
    """The span rule's labels the id scorer does not give: SpanRecall@K, SpanPrecision@K and
    every measure at every budget, in spans.labels' order."""
    return _new_labels(tuple(ks), tuple(budgets))


@lru_cache(maxsize=16)
def _new_labels(ks: tuple[int, ...], budgets: tuple[int, ...]) -> tuple[str, ...]:
    by_ids = set(metrics.labels(ks, metrics.ALL_MEASURES))
    return tuple(name for name in spans.labels(ks, budgets) if name not in by_ids)


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
    names = metrics.labels(ks, measures) + list(extra)
    scored = []
    for system in scores:
        lists = runs.get(system.system, {})
        if not setting.spanned(lists):
            continue
        own = system.system in setting.own
        means = metrics.Means(ks, measures=measures, extra=extra)
        for q, values in system.per_question.items():
            ranked = _head(lists.get(q, ()), known, max(ks), max(setting.budgets, default=0))
            rescore(values, prepared.get(q), ranked, ks, setting.budgets, own)
            means.add([values[name] for name in names])
        system.means = means.means()
        scored.append(system.system)
    return scored


def _head(passages: Sequence[Hashable], known: Mapping[Hashable, Span], k: int, budget: int):
    """(passage, span) of the first passages of a list: the top k and as many as reach the
    budget, no more (a deep list is walked only as far as a measure looks)."""
    out, total = [], 0
    for rank, passage in enumerate(passages, 1):
        if rank > k and total >= budget:
            break
        span = known[passage]
        out.append((passage, span))
        total += len(span)
    return out


def rescore(
    values: dict[str, float | None],
    prep: SpanQuestion | None,
    ranked: Sequence[tuple[Hashable, Span]],
    ks: Sequence[int],
    budgets: Sequence[int],
    own: bool,
) -> None:
    """One question of one run with spans, in place: the id scorer's ``values``
    (metrics.Prepared.score) gain the span measures (None when the question's items lack
    spans, prep None) and, for a run on another chunking (not own), take the span rule's
    Recall, CoreRecall, Hit and MRR. The one step the command line, the window and the report
    share for runs with spans."""
    values.update(dict.fromkeys(new_labels(ks, budgets)))
    if prep is None:
        return
    # On the gold's own chunking the items judged on passages keep the id rule; an item
    # given as a span has no passages and is found by coverage there too.
    by_ids = [i for i, item in enumerate(prep.items) if item.passages] if own else []
    found = prep.score(ranked, ks, budgets, id_rule_items=by_ids)
    values.update((name, found[name]) for name in new_labels(ks, budgets))
    if len(by_ids) < len(prep.items):
        values.update(_across(found, ks, judged=own))


def _across(
    found: Mapping[str, float | None], ks: Sequence[int], judged: bool = False
) -> dict[str, float | None]:
    """Some item scored by coverage: the measures at K by the span rule, and those only ids
    define (nDCG, P, and Judged on another chunking, whose passages none is judged) None.
    judged: the run is on the gold's chunking, whose Judged@K stands."""
    out = {}
    for k in ks:
        for measure in ("Recall", "CoreRecall", "Hit", "MRR"):
            out[metrics.label(measure, k)] = found[metrics.label(measure, k)]
        for measure in spans.ID_ONLY_MEASURES if judged else (*spans.ID_ONLY_MEASURES, "Judged"):
            out[metrics.label(measure, k)] = None
    return out
