"""A review project: the domain layer between files, the store and whoever shows the results
(the command line, the window, the Excel report). No Qt, no SQL here."""

from __future__ import annotations

from pathlib import Path

from db import Store, StoreError
from db.store import WAIT
from desktop import search
from desktop.app import backup, locks, scratch, targets
from desktop.gold import effective as gold
from desktop.project_documents import ProjectDocuments
from desktop.project_evaluation import ProjectEvaluation
from desktop.project_graph import ProjectGraph
from desktop.project_imports import ProjectImports, now
from desktop.project_judgements import ProjectJudgements


class Project(ProjectImports, ProjectJudgements, ProjectEvaluation, ProjectDocuments, ProjectGraph):
    """A review project: one database and what is done with it, by concern: imports
    (desktop/project_imports.py), the judgement log (project_judgements.py) and evaluation
    (project_evaluation.py)."""

    def __init__(self, path: str | Path, *, wait: float = WAIT, on_wait=None):
        """wait and on_wait: how long a write waits for another program's write lock, and
        whom to tell that it waits (see db.Store)."""
        self.path = Path(path)
        scratch.clean_leftovers()
        locks.clear_stale_window_lock(self.path)
        backup.before_migration(self.path)
        self.store = Store(self.path, wait=wait, on_wait=on_wait)
        # What the window's domain (desktop/review/), compare and the report read: the store's
        # read areas themselves (db/passages.py, questions.py, gold.py, runs.py,
        # judgements.py), not a method here per query that only forwards. Read through it;
        # every write goes through Project, which keeps the caches and the journal right.
        self.reads: Store = self.store
        backup.clean_leftovers(self.store)
        self._gold_cache: tuple[int, gold.EffectiveGold] | None = None
        self._data_version = self.store.data_version()

    def changed_elsewhere(self) -> bool:
        """True once after another program (a second window, a command) committed a change to
        this database; one PRAGMA, cheap enough for a timer."""
        version = self.store.data_version()
        changed, self._data_version = version != self._data_version, version
        if changed:
            self._gold_cache = None
        return changed

    def close(self) -> None:
        self.store.close()

    def journal_problem(self) -> str | None:
        """Why the judgement journal's latest write failed (the judgements are committed, only
        their journal copy is behind), or None; see db/journal.py."""
        return self.store.journal_problem

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def info(self) -> dict:
        counts = self.store.counts()
        people, machines = self.people_and_machines()
        return {
            "database": str(self.path),
            "schema": self.store.schema_version(),
            "corpus": self.store.corpus(),
            "chunkings": self.store.chunkings(),
            "documents": self.store.document_count(),
            "passages": counts["passages"],
            "questions": counts["questions"],
            "evidence_items": counts["evidence_items"],
            "alternatives": counts["alternatives"],
            "systems": [s["name"] for s in self.store.systems()],
            "results": counts["results"],
            "judgements": counts["judgements"],
            "reviewers": people,
            "machines": machines,  # compared, never counted (design 6)
        }

    def systems(self) -> list[dict]:
        return self.store.systems()

    def search(
        self,
        text: str,
        limit: int = 20,
        offset: int = 0,
        order: str = "corpus",
        chunking: str | None = None,
    ) -> search.SearchPage:
        """Passages holding every word of text: the exact total and one page in corpus order
        or by relevance, of one chunking or all (desktop/search.py). The window and the
        command line both ask here."""
        return search.search(self.store, text, limit, offset, order, chunking)

    def similar(
        self, passage_id: str, limit: int = 10, chunking: str | None = None
    ) -> search.SimilarPassages | None:
        """The passages most like one of the corpus (or of the named chunking), best first
        (desktop/search.py)."""
        return search.similar(self.store, passage_id, limit, chunking)

    def questions(self) -> list[dict]:
        return self.store.questions()

    def export_target(self, path) -> Path:
        """path as a Path when an export may write it; raises targets.RefusedTarget when it
        is the database, a file beside it, a backup, another database or an imported file."""
        sources = [row["source_file"] for row in self.store.import_log()]
        return targets.check(path, self.path, sources)

    def backups(self) -> list[dict]:
        """The partial backups of what imports replaced, newest first."""
        return self.store.undo_entries()

    def restore_import(self, which: str | int = "last-import") -> dict:
        """Put back the gold or run that an import replaced ("last-import" or a backup id),
        in one transaction; refused when the corpus changed since. Raises StoreError."""
        if which == "last-import":
            kept = self.backups()
            if not kept:
                raise StoreError(f"{self.path}: no import has replaced anything yet")
            which = kept[0]["id"]
        with self.store.atomic():
            restored = self.store.restore_undo(int(which))
            self.store.log_import("restore", f"backup {restored['id']}", now(), 0, 0)
        self._gold_cache = None
        return restored
