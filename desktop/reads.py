"""What the window's domain (desktop/review/) and the report read from a project's store, as
Project methods, so that Project is the one facade over the store. Plain delegation: the
queries and their cost are described in db/store.py."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby
from operator import itemgetter


class Reads:
    """Mixed into Project, which sets ``self.store``."""

    # -- the corpus ------------------------------------------------------------------------

    def corpus(self) -> dict | None:
        """The loaded corpus's name, file and chunking; None before a corpus is imported."""
        return self.store.corpus()

    def counts(self) -> dict[str, int]:
        return self.store.counts()

    def schema_version(self) -> int:
        return self.store.schema_version()

    def passages(self, passage_pks: Sequence[int]) -> dict[int, dict]:
        return self.store.passages_by_pk(passage_pks)

    def passage_keys(self, passage_ids: Iterable[str]) -> dict[str, int]:
        """Passage id -> key for the ids the corpus has."""
        return self.store.passage_pks(passage_ids)

    def neighbours(self, passage_pk: int, before: int, after: int) -> list[dict]:
        return self.store.neighbours(passage_pk, before, after)

    def passage_excerpts(self, passage_pks: Iterable[int], length: int) -> dict[int, tuple]:
        return self.store.passage_excerpts(passage_pks, length)

    # -- questions and their imported evidence -------------------------------------------

    def question(self, question_id: str) -> dict | None:
        return self.store.question(question_id)

    def question_evidence(self, question_pk: int) -> list[dict]:
        """One question's imported evidence items with passage ids and alternatives."""
        return self.store.question_evidence(question_pk)

    def question_not_evidence(self, question_pk: int) -> list[tuple[int, int]]:
        """(question, passage) keys the imported gold of one question gives level 0."""
        return self.store.question_not_evidence(question_pk)

    # -- runs ------------------------------------------------------------------------------

    def max_rank(self) -> int:
        """The deepest stored rank of any run (0 without runs)."""
        return self.store.max_rank()

    def ranking(self, system_pk: int, question_pk: int, limit: int | None = None) -> list[dict]:
        """One system's ranked passages for one question, with their text and metadata."""
        return self.store.ranking(system_pk, question_pk, limit)

    def ranked_passages(self, system_pk: int, question_pk: int) -> list[int]:
        return self.store.ranked_passages(system_pk, question_pk)

    def ranked_by_system(self, question_pk: int) -> dict[int, list[int]]:
        """Every system's whole ranked list of passage keys for one question."""
        return self.store.ranked_pks(question_pk)

    def ranked_lists(self) -> Iterator[tuple[int, int, list[int]]]:
        """(system key, question key, ranked passage keys) for every run's every list."""
        yield from self.store.ranked_lists()

    def pool_passages(self, depth: int) -> Iterator[tuple[int, int]]:
        """(question key, passage key) once per passage in some system's top depth."""
        return self.store.pool_passages(depth)

    def ranked_heads(self, max_rank: int) -> Iterator[tuple[int, int, list[int]]]:
        """(system key, question key, its first ``max_rank`` passage keys) for every list, in
        system, question order, streamed: one list at a time in memory."""
        rows = self.store.result_rows(max_rank)
        for (system_pk, question_pk), group in groupby(rows, key=itemgetter(0, 1)):
            yield system_pk, question_pk, [row[2] for row in group]

    def scored_heads(
        self, system_pk: int, depth: int
    ) -> Iterator[tuple[int, list[tuple[int, float | None]]]]:
        """(question key, [(passage key, score)]) of one system's lists up to rank ``depth``
        and on to the end of a tie group straddling it, in question order, streamed."""
        rows = self.store.scored_heads([system_pk], depth)
        for question_pk, group in groupby(rows, key=itemgetter(1)):
            yield question_pk, [(row[3], row[4]) for row in group]

    def top_scores(self) -> Iterator[tuple[int, int, float | None]]:
        """(system key, question key, score) of every list's first result."""
        return self.store.top_scores()

    def evidence_hits(self, pairs: Iterable[tuple[int, int]]) -> Iterator[tuple]:
        """(system, question, rank, passage) of the results that are evidence of their
        question, for (question, passage) key pairs."""
        return self.store.evidence_hits(pairs)

    def short_lists(self, depth: int) -> list[tuple[int, int, int]]:
        """(system, question, length) of every stored list shorter than depth."""
        return self.store.short_lists(depth)

    # -- the judgement log -----------------------------------------------------------------

    def judgements(self, question_id: str | None = None, reviewer: str | None = None) -> list:
        """Judgement lines as stored (value as JSON text), oldest first."""
        return self.store.judgements(question_id=question_id, reviewer=reviewer)

    def reviewers(self) -> list[str]:
        return self.store.reviewers()

    def each_question(self) -> Iterator[dict]:
        """Every question row in question order, streamed."""
        return self.store.each_question()

    def orphan_judgements(self) -> Iterator[dict]:
        """Judgement lines about question ids the database no longer has, streamed."""
        return self.store.orphan_judgements()

    def reading(self):
        """A context in which every read sees one snapshot of the database."""
        return self.store.reading()
