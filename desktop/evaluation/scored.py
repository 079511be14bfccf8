"""Per-question scores in arrays for evaluation.compare, filled in one pass over the runs.

The report scores every system on every question once, as it writes its Per question and
Misses rows; the `compare` command scores the first K of every list. Both fill a ``Scores``
question by question (``Scores.add``) and hand it to ``compare.compare_scores``, so that the
comparison has one entry point and nothing is scored twice. What is kept per system is a
column of doubles per measure and K over the evaluated questions (NaN where a measure has no
value: CoreRecall of a question without a core item) and a column per K of found-item masks,
held in memory (5 MB at 5,000 questions x 10 systems, measured with tracemalloc).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from operator import itemgetter

from desktop.evaluation import metrics, span_scores, spans


class PerQuestion:
    """One system's per-question values, read back as ``values[question][label]`` like the
    dicts of metrics.evaluate, or a column at a time: an array of doubles per label, in
    question order (8 bytes a question, not a float object)."""

    __slots__ = ("labels", "position", "columns")

    def __init__(self, labels: Sequence[str], position: Mapping[Hashable, int]):
        self.labels = list(labels)
        self.position = position
        self.columns = {label: array("d", bytes(8 * len(position))) for label in self.labels}

    def set(self, i: int, scores: Mapping[str, float | None]) -> None:
        """The values of the question at row ``i`` (its position)."""
        for label, column in self.columns.items():
            value = scores[label]
            column[i] = math.nan if value is None else value

    def __getitem__(self, question: Hashable) -> dict[str, float | None]:
        i = self.position[question]
        return {label: _value(column[i]) for label, column in self.columns.items()}

    def column(self, label: str, questions: Sequence[Hashable]) -> Sequence[float]:
        """The label's values over these questions, NaN where there is none."""
        column = self.columns[label]
        if len(questions) == len(self.position):
            return column
        position = self.position
        return array("d", (column[position[q]] for q in questions))


class Found:
    """One system's found-item masks: per K, over the evaluated questions, a bit mask of the
    evidence items found in the top K (bit i: item i). Read as ``found[question][k]`` like
    compare.found_masks, or a column at a time (a list per K)."""

    __slots__ = ("position", "columns")

    def __init__(self, n_ks: int, position: Mapping[Hashable, int]):
        self.position = position
        self.columns = [[0] * len(position) for _ in range(n_ks)]

    def set(self, i: int, first: Sequence[int | None], ks: Sequence[int]) -> None:
        """The masks of the question at row ``i`` (its position), from the first rank of
        every item (None: not found)."""
        for column, k in zip(self.columns, ks, strict=True):
            column[i] = metrics.found_mask(first, k)

    def __getitem__(self, question: Hashable) -> list[int]:
        i = self.position[question]
        return [column[i] for column in self.columns]

    def column(self, k_index: int, questions: Sequence[Hashable] | None = None) -> Sequence[int]:
        """The masks at one K over these questions (all by default)."""
        masks = self.columns[k_index]
        if questions is None or len(questions) == len(self.position):
            return masks
        return [masks[self.position[q]] for q in questions]

    def each(self, k_index: int) -> Iterator[int]:
        """The masks at one K in question order."""
        return iter(self.columns[k_index])


class Scores:
    """Every system's per-question values, found masks and means at the K values ``ks`` over
    the evaluated questions of ``gold`` (question -> evidence items, in question order)."""

    def __init__(
        self,
        ks: Sequence[int],
        gold: Mapping[Hashable, Sequence[metrics.Item]],
        answerable: Mapping[Hashable, bool],
    ):
        """answerable: every question's answerable flag in force, in question order (what
        compare's abstention reads)."""
        self.ks = list(ks)
        self.gold = gold  # what compare reads the items from, not built a second time
        self.answerable = answerable
        self.labels = metrics.labels(self.ks)
        evaluated = (q for q, items in gold.items() if items)
        self.position = {q: i for i, q in enumerate(evaluated)}  # question -> its row
        self.values: dict[str, PerQuestion] = {}
        self.found: dict[str, Found] = {}
        self.means: dict[str, dict[str, float | None]] = {}

    @property
    def evaluated(self) -> int:
        return len(self.position)

    def system(self, name: str) -> None:
        """Start a system; its questions follow."""
        self.values[name] = PerQuestion(self.labels, self.position)
        self.found[name] = Found(len(self.ks), self.position)

    def add(
        self,
        name: str,
        question: Hashable,
        scores: Mapping[str, float | None],
        first: Sequence[int | None],
    ) -> None:
        """One evaluated question: its scores (metrics.Prepared.score) and the first rank of
        each of its evidence items (Prepared.first_ranks)."""
        i = self.position[question]  # looked up once for both
        self.values[name].set(i, scores)
        self.found[name].set(i, first, self.ks)

    def finish(self, name: str, means: Mapping[str, float | None]) -> None:
        """The system's means (metrics.Means.means(): at least this object's labels)."""
        self.means[name] = dict(means)


def each_list(
    systems: Sequence[dict],
    questions: Iterable,
    lists: Iterable[tuple[int, int, Sequence[int]]],
    key: Callable[[object], int] = itemgetter("pk"),
) -> Iterator[tuple[dict, object, Sequence[int]]]:
    """(system, question, ranked passage keys) for every system and question, in that order,
    from ``lists``: (system key, question key, ranked keys) in key order, as the store streams
    them; a question missing from a run gets an empty list. Holds one list at a time.
    ``questions`` is iterated once per system, in question-key order; ``key`` gives a
    question's key (a store row's "pk" by default)."""
    lists = iter(lists)
    pending = next(lists, None)
    empty: tuple = ()
    for system in systems:
        for question in questions:
            key_now = (system["pk"], key(question))
            while pending is not None and (pending[0], pending[1]) < key_now:
                pending = next(lists, None)
            if pending is not None and (pending[0], pending[1]) == key_now:
                yield system, question, pending[2]
                pending = next(lists, None)
            else:
                yield system, question, empty


def collect(project, ks: Sequence[int]) -> Scores:
    """The command line's pass: every system scored on the first max(ks) results of every
    list, as the store streams them (metrics.evaluate's numbers, without a dict per
    question)."""
    effective = project.effective_gold()
    gold = effective.metric_items()
    answerable = {q["pk"]: effective.answerable.get(q["pk"], True) for q in project.questions()}
    scores = Scores(ks, gold, answerable)
    prepared = {q: metrics.Prepared(items, ks) for q, items in gold.items() if items}
    systems = project.systems()
    tallies = {}
    for system in systems:
        scores.system(system["name"])
        tallies[system["name"]] = metrics.Means(ks)
    questions = [q for q in project.questions() if q["pk"] in prepared]
    by_spans = _span_rule(project, gold, ks)
    for system, question, ranked in each_list(
        systems, questions, project.reads.ranked_heads(max(ks))
    ):
        prep = prepared[question["pk"]]
        values = prep.score(ranked)
        first, _ = prep.first_ranks(enumerate(ranked, 1))
        if by_spans is not None:
            first = by_spans(system["name"], question["pk"], values, ranked, first)
        tallies[system["name"]].add([values[label] for label in scores.labels])
        scores.add(system["name"], question["pk"], values, first)
    for name, tally in tallies.items():
        scores.finish(name, tally.means())
    return scores


def _span_rule(project, gold, ks: Sequence[int]):
    """A run on another chunking compared as `metrics` scores it (design section 10): the
    one per-question step (span_scores.rescore) at θ, found ranks by coverage; None when no
    run has spans (then nothing more is read)."""
    if not project.reads.document_count():
        return None
    runs = project.runs(max(ks))
    setting = project.span_setting(gold, runs, [], spans.THETA)
    scored = {name for name, lists in runs.items() if setting.spanned(lists)}
    known, questions = setting.spans, {}

    def rescore(system: str, q, values: dict, ranked, first):
        if system not in scored:
            return first
        if q not in questions:
            these = span_scores.span_items(gold[q], known)
            questions[q] = spans.SpanQuestion(these, setting.theta) if these else None
        pairs = [(p, known[p]) for p in ranked]
        own = system in setting.own
        span_scores.rescore(values, questions[q], pairs, ks, [], own)
        if questions[q] is None or own:
            return first
        return questions[q].first_found(pairs, max(ks))

    return rescore


def _value(value: float) -> float | None:
    return None if value != value else value  # NaN stands for no value
