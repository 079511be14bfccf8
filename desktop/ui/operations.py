"""Slow work as named operations, each run on a long-lived worker thread.

Modelled on Anki's qt/aqt/operations (CollectionOp for changes, QueryOp for reads): an
operation is a function of a Project that returns its result together with a `Changes` saying
what it changed (a judgement on question q, an import of kind X, a merge), and the review
session refreshes the panels from that. A `Worker` (desktop/ui/worker.py) is one thread that
keeps one Project open for as long as the window uses the database (SQLite connections belong
to the thread that opened them; opening a Project per task would repeat the backup and
migration checks).

`progress(done, total, phase=None)` raises `Cancelled` once the operation is cancelled, which
rolls back an import's transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desktop import review
from desktop.gold.effective import machine_marks
from desktop.gold.pool import DEFAULT_DEPTH
from desktop.readers import Cancelled
from desktop.readers.kinds import IMPORT_KINDS
from desktop.ui.worker import CommittedError

# The areas of the database an operation may change, each a flag of Changes, which the window
# reads again (desktop/ui/files.py apply_changes).
CHANGED_AREAS = ("questions", "systems", "gold", "texts", "reviewers")
_AREAS_OF = {
    "corpus": ("texts", "gold", "systems"),  # gold and runs may resolve to the new passages
    "documents": ("texts", "gold"),  # spans' gold is placed in the documents' texts
    "questions": ("questions",),
    "gold": ("gold", "reviewers"),  # written as lines of the log, under the file's reviewer
    "run": ("systems",),
    "judgements": ("gold", "reviewers"),
    "beir": ("texts", "questions", "gold", "reviewers"),
}
# What an import of each of the readers' kinds changes, in the design's words: when in doubt an
# area is named, and every kind that can move a score names questions, systems, gold or texts.
# A kind the readers add must be named here (KeyError at import); one not a file's kind (the
# sample) changes them all.
IMPORT_CHANGES = {kind: _AREAS_OF[kind] for kind in IMPORT_KINDS}


@dataclass(frozen=True)
class Changes:
    """What an operation changed, for the panels to refresh from."""

    kind: str  # "judgement", "import", "merge", "export", "metrics", "query", "mark"
    what: str = ""  # the import's kind ("corpus", "run", "sample", ...)
    question: int | None = None  # the question's pk, for a judgement
    # The areas an import, a merge or a mark changed (CHANGED_AREAS), which the window
    # reads again: no more, and when in doubt one is set (never a stale number shown).
    questions: bool = False
    systems: bool = False  # the systems and their runs
    gold: bool = False  # the gold and the judgement log
    texts: bool = False  # passages' and documents' texts, chunkings
    reviewers: bool = False  # who judged, who is a machine

    @classmethod
    def of_import(cls, what: str) -> Changes:
        """An import of this kind: the areas IMPORT_CHANGES names for it, or all."""
        areas = IMPORT_CHANGES.get(what, CHANGED_AREAS)
        return cls("import", what=what, **{area: True for area in areas})

    @property
    def data(self) -> bool:
        """The database's content changed: something is read again."""
        return any(getattr(self, area) for area in CHANGED_AREAS)

    @property
    def scores(self) -> bool:
        """A score may have moved: the full metrics pass runs again."""
        return self.questions or self.systems or self.gold or self.texts


@dataclass
class Done:
    result: object
    changes: Changes


def import_file(project, kind: str, path, options: dict, progress):
    """The window's imports go through the one import entry the command line uses."""
    return project.import_file(kind, path, progress=progress, **options)


def _changing(changes: Changes, work: Callable) -> Callable:
    """Run work; a failure after something was committed becomes CommittedError."""

    def run(project, progress) -> Done:
        before = project.reads.change_stamp()
        try:
            return Done(work(project, progress), changes)
        except Cancelled:
            raise
        except Exception as error:
            try:
                committed = project.reads.change_stamp() != before
            except Exception:  # the connection itself is gone: say what failed first
                committed = False
            if committed:
                raise CommittedError(error, changes) from error
            raise

    return run


def import_op(kind: str, path, options: dict) -> Callable:
    path = str(path)
    return _changing(
        Changes.of_import(kind),
        lambda project, progress: import_file(project, kind, path, options, progress),
    )


def sample_op() -> Callable:
    from desktop.app.sample import load_sample

    return _changing(
        Changes.of_import("sample"),
        lambda project, progress: list(load_sample(project, progress)),
    )


def merge_op(path) -> Callable:
    path = str(path)
    # A merge adds judgement lines only (a database of another evaluation is refused).
    changes = Changes("merge", gold=True, reviewers=True)
    return _changing(changes, lambda project, _: project.merge(path))


def mark_op(reviewer: str, machine: bool | None, at: str) -> Callable:
    """A reviewer-mark line (issue 22): who is a machine changes what counts on every
    question (the gold) and the reviewers. Its result: (the row written, the reviewer's mark
    it replaces, None for none), read here so that undo knows what to put back and the GUI
    thread reads nothing."""

    def mark(project, _) -> tuple[dict, bool | None]:
        before = machine_marks(project.reads.mark_lines()).get(reviewer)
        return project.mark_reviewer(reviewer, machine, at), before

    return _changing(Changes("mark", gold=True, reviewers=True), mark)


def export_report_op(path, ks: Sequence[int]) -> Callable:
    from desktop.report import write_report
    from desktop.ui.settings_store import language

    # The sheets are named in the window's language (read here, on the GUI thread).
    path, ks, lang = str(path), list(ks), language()
    return lambda project, progress: Done(
        write_report(project, path, ks, progress=progress, lang=lang), Changes("export")
    )


def export_judgements_op(path, reviewer: str) -> Callable:
    path = str(path)
    return lambda project, _: Done(project.export_judgements(path, reviewer), Changes("export"))


EXCERPT = 200  # characters of a similar passage shown in the results table


def search_op(
    text: str,
    offset: int = 0,
    limit: int = 50,
    order: str = "relevance",
    chunking: str | None = None,
) -> Callable:
    """One page of `Project.search` (the command line's search) with the exact total, best
    matches first or in corpus order, of one chunking or all; each found passage's row
    (title, metadata, whole text for the preview) with its excerpt."""

    def work(project, _progress) -> Done:
        page = project.search(text, limit, offset, order, chunking)
        full = project.reads.passages_by_pk([p.pk for p in page.passages])
        rows = [{**full[p.pk], "excerpt": p.excerpt} for p in page.passages if p.pk in full]
        return Done((page.total, rows), Changes("query"))

    return work


def read_op(passage_pk: int, items: list, centre: int | None = None) -> Callable:
    """What the reader shows for a passage (review.reading): read here, not on the GUI thread,
    since a passage with a span brings its document's text."""

    def work(project, _progress) -> Done:
        return Done(review.reading(project, passage_pk, items, centre), Changes("query"))

    return work


def similar_op(passage_pk: int, limit: int = 50) -> Callable:
    """ "More like this": the passages of its chunking most like one (the command line's
    `similar`, db/similar.py), best first, each row with the start of its text as the
    excerpt: (count, rows), as a search page gives them."""

    def work(project, _progress) -> Done:
        alike = project.reads.similar_passages(passage_pk, limit)
        full = project.reads.passages_by_pk([a["pk"] for a in alike])
        rows = [
            {**full[a["pk"]], "excerpt": full[a["pk"]]["text"][:EXCERPT]}
            for a in alike
            if a["pk"] in full
        ]
        return Done((len(rows), rows), Changes("query"))

    return work


def overview_op(
    reviewer: str,
    blind: bool,
    ks: Sequence[int],
    k: int | None = None,
    choice: review.SpanChoice | None = review.DEFAULT_CHOICE,
) -> Callable:
    ks = list(ks)
    return lambda project, progress: Done(
        review.overview(project, reviewer, blind, ks, progress, k=k, choice=choice),
        Changes("metrics"),
    )


def pool_counts_op(reviewer: str, blind: bool, depth: int) -> Callable:
    """Every question's unjudged count, for the question list."""
    return lambda project, _: Done(
        review.pool_counts(project, reviewer, blind, depth), Changes("query")
    )


def judged_op(
    question: dict,
    shown: Sequence[dict],
    k: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    ks: Sequence[int],
    pool_depth: int = DEFAULT_DEPTH,
    agreement: bool = False,
    systems: Sequence[dict] = (),
    choice: review.SpanChoice | None = review.DEFAULT_CHOICE,
    marks: Sequence[dict] | None = None,
) -> Callable:
    """A question after a judgement on it, built once (review.judged_question): the view the
    window shows (its pool too), its question-list line and every system's scores; the
    agreement (which reads the whole log) only when it is shown. marks: the reviewer-mark
    lines the session holds (not read again for every judgement)."""
    shown, ks, reviewers, systems = list(shown), list(ks), list(reviewers), list(systems)
    marks = None if marks is None else list(marks)  # None: read on the worker

    def work(project, _progress) -> Done:
        judged = review.judged_question(
            project,
            question,
            shown,
            k,
            reviewer,
            blind,
            reviewers,
            ks,
            pool_depth,
            systems,
            choice,
            marks,
        )
        if agreement and not blind:
            judged.agreement = project.agreement()
        return Done(judged, Changes("judgement", question=question["pk"]))

    return work


@dataclass(frozen=True)
class NextPool:
    """A question's unjudged pool for the queue across questions, with what its rows show."""

    pk: int
    id: str
    entries: list  # PoolEntry, empty when the question has none left
    excerpts: dict  # passage pk -> (title, text)
    suggestions: dict  # (question id, passage id) -> the machines' verdict; none in blind mode


def next_pools_op(
    questions: Sequence[dict],
    wanted: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    depth: int,
    excerpt_chars: int,
    marks: Sequence[dict] | None = None,
) -> Callable:
    """The pools of the questions given, in their order, until `wanted` have passages left
    (review.question_pool), each with its excerpts and machine suggestions: the pool queue's
    "across questions" option, read here and not on the GUI thread. Every question looked at
    is in the result (an empty pool too), so the panel knows not to look again. Each
    question's log is read once, with the reviewer-mark lines the session holds (marks): the
    gold, the pool and the suggestions come from that one read, as a question's view does."""
    from desktop.review.suggestions import suggestions

    questions, reviewers = [dict(q) for q in questions], list(reviewers)
    marks = None if marks is None else list(marks)  # None: read with each question

    def work(project, progress) -> Done:
        out, found = [], 0
        for n, question in enumerate(questions):
            progress(n, len(questions))
            seen = review.question_gold(project, question, reviewer, blind, reviewers, marks)
            entries = review.question_pool(project, question, seen, depth, blind, reviewer)
            excerpts, suggested = {}, {}
            if entries:
                found += 1
                pks = [e.passage_pk for e in entries]
                excerpts = project.reads.passage_excerpts(pks, excerpt_chars)
                if not blind:  # the lines the gold was built from, the mark lines with them
                    suggested = suggestions(seen[2])
            out.append(NextPool(question["pk"], question["id"], entries, excerpts, suggested))
            if found == wanted:
                break
        return Done(out, Changes("query"))

    return work


def pool_reads_op(unread: Sequence[int], next_pools: Callable) -> Callable:
    """The pool queue's reads on its worker: the excerpts of the current question's pool that
    its view was built without (the queue was behind the rankings), then the next questions'
    pools (next_pools_op, for none when the queue is not across questions). The result:
    (excerpts, pools)."""
    unread = list(unread)

    def work(project, progress) -> Done:
        excerpts = review.pool_excerpts(project, unread)
        return Done((excerpts, next_pools(project, progress).result), Changes("query"))

    return work


def compare_op(ks: Sequence[int]) -> Callable:
    """evaluation.compare.compare, the `compare` command's function, at the window's K values."""
    from desktop.evaluation import compare

    ks = list(ks)
    return lambda project, progress: Done(
        compare.compare(project, ks, progress=progress), Changes("query")
    )


def agreement_op() -> Callable:
    return lambda project, _: Done(project.agreement(), Changes("query"))
