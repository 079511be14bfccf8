"""A project's evaluation: the effective gold, the metrics of every run, the unjudged pool
and the gold exported. Mixed into Project (desktop/project.py), which holds the store."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

from db.documents import FIRST_CHUNKING
from desktop import search
from desktop.app import scratch, targets
from desktop.evaluation import metrics, span_scores, spans
from desktop.gold import effective as gold
from desktop.gold import export as gold_export
from desktop.gold import pool as pool_module
from desktop.readers import documents

# Past this many lists that a first read to a depth did not take to the budget, every list is
# read whole in one pass rather than these one query each.
SHORT_LISTS = 500


class ProjectEvaluation:
    """Project's evaluation; Project sets self.store, self.path and self._gold_cache."""

    def effective_gold(self) -> gold.EffectiveGold:
        # The window asks for the gold after every judgement; rebuild only when it moved.
        stamp = self.store.change_stamp()
        if self._gold_cache and self._gold_cache[0] == stamp:
            return self._gold_cache[1]
        result = self.gold_from(self.store.judgements())
        self._gold_cache = (stamp, result)
        return result

    def gold_from(self, judgements: list[dict]) -> gold.EffectiveGold:
        """The imported gold with these judgement lines applied (blind mode passes a
        reviewer's own lines only)."""
        passage_ids = self.store.gold_passage_ids()
        passage_pks = self.store.passage_pks(gold.named_passages(judgements))
        passage_ids.update({pk: pid for pid, pk in passage_pks.items()})
        passage_pks.update({pid: pk for pk, pid in passage_ids.items()})
        return gold.build(
            self.store.questions(),
            self.store.evidence_rows(),
            self.store.alternative_rows(),
            passage_ids,
            passage_pks,
            judgements,
            self.store.not_evidence_rows(),
            self.store.span_item_rows(),
            self.store.span_alternative_rows(),
        )

    def runs(self, max_rank: int | None = None) -> dict[str, dict[int, list[int]]]:
        """Every system's ranked passage keys per question key, cut at max_rank."""
        names = {s["pk"]: s["name"] for s in self.store.systems()}
        runs: dict[str, dict[int, list[int]]] = {name: {} for name in names.values()}
        rows = self.store.result_rows(max_rank).fetchall()
        for (system_pk, question_pk), group in groupby(rows, key=itemgetter(0, 1)):
            runs[names[system_pk]][question_pk] = [row[2] for row in group]
        return runs

    def evaluate(
        self, ks, systems: list[str] | None = None, runs=None, budgets=(), theta=spans.THETA
    ) -> Evaluation:
        """``runs``: the ranked lists of self.runs(max K), when the caller has them already.
        Runs whose passages have spans are scored by the span rule too (section 10): at each
        K and each budget of characters, with coverage θ."""
        ks = metrics.parse_ks(ks)
        effective = self.effective_gold()
        items = effective.metric_items()
        spans_known = bool(self.reads.document_count())
        known = None
        if budgets and spans_known:
            # a budget may reach past the largest K, on the runs whose passages have spans
            runs, known = self._runs_reaching(max(ks), max(budgets))
        elif runs is None:
            runs = self.runs(max(ks))
        if systems is not None:
            runs = {name: runs[name] for name in systems if name in runs}
        judged = {q: effective.judged(q) for q, these in items.items() if these}
        scores = metrics.evaluate(items, runs, ks, judged)
        evaluation = Evaluation(ks, self.store.questions(), items, scores, effective)
        if spans_known:
            setting = self.span_setting(items, runs, list(budgets), theta, known)
            spanned = span_scores.add_span_scores(scores, items, runs, ks, setting)
            evaluation.span = (setting, spanned) if spanned else None
        return evaluation

    def span_setting(self, items, runs, budgets: list[int], theta: float, known=None):
        """θ, budgets, the spans of the gold's and the runs' passages (those not in ``known``
        read now), and the systems on the chunking the gold was judged on (the first: gold and
        judgements name its passages)."""
        names = {s["pk"]: s["name"] for s in self.reads.systems()}
        on = self.reads.system_chunkings()
        own = frozenset(names[pk] for pk, chunking in on.items() if chunking == FIRST_CHUNKING)
        pks = {p for these in items.values() for item in these for p in item.passages}
        if known is None:
            known = {}
            pks.update(p for lists in runs.values() for ps in lists.values() for p in ps)
        known.update(self._spans_of(pks.difference(known)))
        return span_scores.SpanSetting(theta, budgets, known, own)

    def _spans_of(self, pks) -> dict[int, spans.Span]:
        return {pk: spans.Span(*where) for pk, where in self.reads.passage_spans(pks).items()}

    def _runs_reaching(self, k: int, budget: int):
        """The ranked lists as deep as the span rule walks them (the top k, and as many
        passages as reach the budget), with their passages' spans. Read first to twice the
        depth that reaches the budget in passages of the chunkings' recorded size (a median,
        in characters), then whole for the few lists whose spans still fall short (all lists
        whole when they are many): exact, without reading every list to its end (at a million
        passages x 5,000 questions x 10 runs of 100, a tenth of the rows)."""
        sizes = [
            c["chunk_size"]
            for c in self.reads.chunkings()
            if c["chunk_size"] and c["unit"] == documents.SPAN_UNIT
        ]
        depth = max(k, 2 * -(-budget // min(sizes)) + 1) if sizes else None
        runs = self.runs(depth)
        known = self._spans_of(_passages(runs))
        if depth is None:
            return runs, known
        short = [
            (name, question_pk)
            for name, lists in runs.items()
            for question_pk, ps in lists.items()
            if len(ps) == depth and _short(ps, known, budget)
        ]
        if len(short) > SHORT_LISTS:
            return self._runs_reaching_whole()
        systems = {s["name"]: s["pk"] for s in self.reads.systems()}
        for name, question_pk in short:
            whole = self.store.ranked_passages(systems[name], question_pk)
            runs[name][question_pk] = whole
            known.update(self._spans_of(set(whole).difference(known)))
        return runs, known

    def _runs_reaching_whole(self):
        runs = self.runs(None)
        return runs, self._spans_of(_passages(runs))

    def recall_curves(self, depth: int | None = None) -> dict[str, list[float]]:
        """Mean Recall@1..depth per system over the evaluated questions."""
        depth = depth or self.store.max_rank() or 1
        return metrics.recall_curves(self.effective_gold().metric_items(), self.runs(depth), depth)

    def pool(
        self,
        depth: int = pool_module.DEFAULT_DEPTH,
        *,
        shuffle_for: str | None = None,
        blind: bool = False,
        questions: list[str] | None = None,
        effective: gold.EffectiveGold | None = None,
    ) -> list[tuple[str, list[pool_module.PoolEntry]]]:
        """The unjudged pool at depth D: (question id, unjudged passages in order) for every
        question that has evidence or a ranked list, in question order. ``questions``: only
        these (question ids; each read by its own keys, the window's path after a judgement).
        ``effective``: the gold as a reviewer sees it (blind mode), else everyone's."""
        if depth < 1:
            raise ValueError(f"the pool depth must be at least 1, not {depth}")
        effective = effective or self.effective_gold()
        names = {s["pk"]: s["name"] for s in self.store.systems()}
        if questions is None:
            asked = self.store.questions()
            candidates = self.store.pool_candidates(depth, with_systems=not blind)
            ranked = self.store.questions_with_results()
        else:
            asked = [q for q in map(self.store.question, questions) if q is not None]
            candidates = [
                row
                for q in asked
                for row in self.store.pool_candidates(depth, not blind, question_pk=q["pk"])
            ]
            ranked = {row[0] for row in candidates}  # a ranked list has a rank 1 <= D
        found = pool_module.collect(candidates, effective.judged, None if blind else names)
        return [
            (q["id"], pool_module.ordered(found.get(q["pk"], []), shuffle_for, q["id"]))
            for q in self._pool_questions(asked, ranked, effective, found)
        ]

    def pool_json(
        self, depth: int = pool_module.DEFAULT_DEPTH, *, shuffle_for: str | None = None
    ) -> Iterator[str]:
        """pool(depth, shuffle_for=..., blind=True) as `pool --json` writes it, in pieces:
        from the store's rows in the pool's order to text, with no entry objects between."""
        if depth < 1:
            raise ValueError(f"the pool depth must be at least 1, not {depth}")
        effective = self.effective_gold()
        asked = self.store.questions()
        ids = {q["pk"]: q["id"] for q in asked}
        found = pool_module.entry_texts(
            self.store.pool_in_order(depth), effective.judged, shuffle_for, ids
        )
        listed = self._pool_questions(asked, self.store.questions_with_results(), effective, found)
        return pool_module.json_parts(depth, [(q["id"], found.get(q["pk"])) for q in listed])

    def unjudged_counts(self, depth: int = pool_module.DEFAULT_DEPTH) -> dict[str, int]:
        """Question id -> how many passages its pool at depth D holds, for the questions
        pool() lists; counted as the store streams the top D, without building the pool."""
        effective = self.effective_gold()
        found = pool_module.unjudged_counts(self.store.pool_passages(depth), effective.judged)
        listed = self._pool_questions(
            self.store.questions(), self.store.questions_with_results(), effective, found
        )
        return {q["id"]: found.get(q["pk"], 0) for q in listed}

    @staticmethod
    def _pool_questions(asked, ranked: set[int], effective, found) -> Iterator[dict]:
        """The questions the pool lists: those with evidence, a ranked list or a pool."""
        for question in asked:
            pk = question["pk"]
            if pool_module.listed(pk in found, bool(effective.items.get(pk)), pk in ranked):
                yield question

    def export_gold(
        self,
        path,
        fmt: str = "jsonl",
        force: bool = False,
        chunking: str | None = None,
        theta: float = spans.THETA,
        dropped: list | None = None,
    ) -> int:
        """Write the effective gold (pending and disputed changes leave the imported state)
        as gold JSONL, TREC qrels or BEIR qrels; returns the questions written. Without force,
        an empty result never replaces a non-empty file. ``chunking``: the gold projected
        onto that chunking (section 10, coverage θ), the items none of its passages reach
        listed in ``dropped``."""
        if fmt not in gold_export.FORMATS:
            raise ValueError(f"the gold is exported as {', '.join(gold_export.FORMATS)}")
        target = self.export_target(path)
        effective = self.effective_gold()
        id_of = self.store.passage_ids_of(p for ps in effective.judged_out.values() for p in ps)
        rows = list(
            gold_export.questions(
                effective, self.store.questions(), self.store.gold_question_pks(), id_of
            )
        )
        projection = None
        if chunking is not None:
            projection = gold_export.Projection(chunking, theta)
            rows = self._projected(rows, projection, [] if dropped is None else dropped)
        elif fmt != "jsonl" and (why := gold_export.spans_unsaid(rows)):
            raise ValueError(why)
        targets.refuse_emptying(target, len(rows), "gold questions", force)
        with scratch.replacing(target) as tmp:
            with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
                handle.writelines(gold_export.lines(fmt, iter(rows), projection))
        return len(rows)

    def _projected(self, rows, projection, dropped: list) -> list:
        """The rows' items as passages of the projection's chunking (ValueError: no such
        chunking, or it has no spans)."""
        passages = self.reads.chunking_spans(search.chunking_named(self.reads, projection.chunking))
        if not passages:
            raise ValueError(
                f"the passages of chunking {projection.chunking!r} have no spans in documents, "
                "so the gold cannot be carried onto them (import documents, then the corpus "
                "with document_id)"
            )
        keys = {p for _, items, _ in rows for item in items for p in item.alternatives}
        keys.update(item.primary_pk for _, items, _ in rows for item in items)
        known = self.reads.passage_spans(keys)

        def spans_of(item) -> list[spans.Span]:
            pks = (item.primary_pk, *item.alternatives)
            given = ([item.span] if item.span else []) + item.alternative_spans
            return [spans.Span(*known[pk]) for pk in pks if pk in known] + given

        return list(
            gold_export.projected(iter(rows), spans_of, passages, projection.theta, dropped)
        )


@dataclass
class Evaluation:
    ks: list[int]
    questions: list[dict]
    items: dict[int, list[metrics.Item]]
    systems: list[metrics.SystemScores]
    gold: gold.EffectiveGold
    # The span rule's setting and the systems it scored, None when no run has spans
    span: tuple[span_scores.SpanSetting, list[str]] | None = None

    @property
    def evaluated(self) -> int:
        return sum(1 for q in self.questions if self.items.get(q["pk"]))

    def labels(self) -> list[str]:
        by_ids = metrics.labels(self.ks, metrics.ALL_MEASURES)
        if self.span is None:
            return by_ids
        return by_ids + list(span_scores.new_labels(self.ks, self.span[0].budgets))

    def span_note(self) -> str | None:
        """θ and the budgets, and why nDCG and P@K are '-' for a run on another chunking, or
        None when no run has spans."""
        if self.span is None:
            return None
        setting, scored = self.span
        note = (
            f"coverage θ = {setting.theta:g}: an evidence item is found by a run on another "
            f"chunking when its context covers at least θ of one of the item's spans"
        )
        if setting.budgets:
            note += "; budgets (characters): " + ", ".join(map(str, setting.budgets))
        across = [name for name in scored if name not in setting.own]
        if across:
            note += f"; on another chunking ({', '.join(across)}): {spans.ACROSS_CHUNKINGS}"
        given = sum(any(item.given_as_span for item in these) for these in self.items.values())
        if given:
            have = "1 question has" if given == 1 else f"{given} questions have"
            note += (
                f"; {have} evidence given as spans, found by coverage on every run: "
                "its nDCG and P@K are '-' and left out of those means"
            )
        return note

    def unsettled(self) -> list[tuple[str, int, float]]:
        """(system, K, Judged@K) where Judged@K is under metrics.JUDGED_ENOUGH: too little of
        what the system retrieved is judged, so its numbers may still move."""
        return metrics.unsettled({s.system: s.means for s in self.systems if s.evaluated}, self.ks)

    def unsettled_note(self) -> str | None:
        """One line saying which systems' numbers may still move, or None."""
        shown = self.unsettled()
        if not shown:
            return None
        grouped = metrics.unsettled_by_system(shown)
        parts = ", ".join(f"{system} ({', '.join(low)})" for system, low in grouped.items())
        return (
            f"under {metrics.JUDGED_ENOUGH:.0%} of the top K is judged for {parts}: these "
            "numbers may still move as the pool is judged (recall-reviewer pool)"
        )

    def core_note(self) -> str | None:
        """Why CoreRecall is '-', when it is (metrics.core_note), or None."""
        core = sum(1 for these in self.items.values() if any(item.role == "core" for item in these))
        return metrics.core_note(self.evaluated, core)

    def as_json(self, per_question: bool = False) -> dict:
        total = len(self.questions)
        out: dict = {
            "k": self.ks,
            "questions": {
                "total": total,
                "evaluated": self.evaluated,
                "without_evidence": total - self.evaluated,
            },
            "systems": [
                {"system": s.system, "evaluated": s.evaluated, **s.means} for s in self.systems
            ],
            "core_note": self.core_note(),
        }
        if self.span is not None:  # only then: figures without spans stay as they were
            setting, scored = self.span
            out["coverage"] = setting.theta
            out["budgets"] = setting.budgets
            out["span_systems"] = scored
            out["across_chunkings"] = [name for name in scored if name not in setting.own]
            out["span_note"] = self.span_note()
        if per_question:
            ids: dict[Hashable, str] = {q["pk"]: q["id"] for q in self.questions}
            out["per_question"] = [
                {"system": s.system, "question": ids[q], **values}
                for s in self.systems
                for q, values in s.per_question.items()
            ]
        return out


def _short(passages, known, budget: int) -> bool:
    """Whether these passages (all with spans) hold fewer characters than the budget: a list
    read to a depth that does not reach it must be read whole. A passage without a span ends
    the walk (its run is not scored by spans), so such a list needs no more."""
    total = 0
    for p in passages:
        span = known.get(p)
        if span is None:
            return False
        total += len(span)
    return total < budget


def _passages(runs) -> set:
    return {p for lists in runs.values() for ps in lists.values() for p in ps}
