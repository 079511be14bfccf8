"""The report's figures for runs whose passages have spans (design section 10), taken from the
step the command line uses: Project.evaluate with the budgets and θ (its per-question values
come from desktop.evaluation.span_scores), never a scorer of the report's own. What the sheets
need besides: the rank where a run on another chunking first covers an item (its found masks,
curve and misses), the coverage a missed item reached, and how long each unranked run's
contexts are (which cut-offs are shorter than the context)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from desktop.evaluation import metrics, span_scores, spans
from desktop.evaluation.spans import Span

DEFAULT_BUDGETS = (500, 1000, 2000, 4000)  # characters, when the export names none


class SpanPass:
    """One report's evaluation by the span rule: per system and question the values
    metrics --json averages, the systems it scored, and those on another chunking."""

    def __init__(self, project, ks: Sequence[int], budgets: Sequence[int], theta: float):
        self.ks, self.budgets, self.theta = list(ks), list(budgets), theta
        self.evaluation = project.evaluate(ks, budgets=self.budgets, theta=theta)
        setting, scored = self.evaluation.span or (None, [])
        self.setting = setting or span_scores.SpanSetting(theta, self.budgets)
        self.scored = set(scored)
        self.across = {name for name in scored if name not in self.setting.own}
        self.by_system = {s.system: s for s in self.evaluation.systems}
        self.titles = {did: title for _, did, title, _ in project.reads.all_documents()}
        self._questions: dict[Hashable, spans.SpanQuestion | None] = {}
        # system -> (longest context in passages, in characters): an unranked run's fair
        # figures are those at or beyond them (design section 11)
        self.longest: dict[str, tuple[int, int]] = {}

    def values(self, system: str, question: Hashable) -> dict[str, float | None] | None:
        """The question's values as metrics --json has them, or None when the system's run
        is not scored by spans (the id rule's values stand)."""
        if system not in self.scored:
            return None
        return self.by_system[system].per_question.get(question)

    def means(self, system: str) -> dict[str, float | None]:
        return self.by_system[system].means

    def question(self, question: Hashable, items: Sequence[metrics.Item]):
        """The span rule's question (spans.SpanQuestion) for these items, None when some item
        lacks a span; made once per question for every system."""
        if question not in self._questions:
            these = span_scores.span_items(items, self.setting.spans)
            self._questions[question] = spans.SpanQuestion(these, self.theta) if these else None
        return self._questions[question]

    def ranked_spans(self, ranked: Sequence[Hashable]) -> list[Span]:
        known = self.setting.spans
        return [known[p] for p in ranked if p in known]

    def first_ranks(self, prep: spans.SpanQuestion, ranked: Sequence[Span]) -> list[int | None]:
        """Per item the first rank whose context covers at least θ of it (None: the whole
        list does not): the span rule's "found at rank", coverage growing with the rank."""
        whole = prep.coverages(ranked)
        out: list[int | None] = []
        for index, cov in enumerate(whole):
            if cov < self.theta:
                out.append(None)
                continue
            low, high = 1, len(ranked)
            while low < high:
                middle = (low + high) // 2
                if prep.coverages(ranked, middle)[index] >= self.theta:
                    high = middle
                else:
                    low = middle + 1
            out.append(low)
        return out

    def note_length(self, system: str, ranked: Sequence[Hashable]) -> None:
        """Count a context towards the system's longest (passages, characters)."""
        known = self.setting.spans
        chars = sum(len(known[p]) for p in ranked if p in known)
        passages, most = self.longest.get(system, (0, 0))
        self.longest[system] = (max(passages, len(ranked)), max(most, chars))

    def span_words(self, item: metrics.Item) -> str:
        """Where the item's evidence lies: 'document start–end (title)' per span."""
        known = self.setting.spans
        found = sorted({known[p] for p in item.passages if p in known})
        return "; ".join(
            f"{s.document} {s.start}–{s.end}"
            + (f" ({self.titles[s.document]})" if self.titles.get(s.document) else "")
            for s in found
        )
