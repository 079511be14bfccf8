"""A project's documents and chunkings (design section 10): `import documents FILE`, a corpus
imported as a chunking of its own (`import corpus FILE... --chunking NAME`), and the shape of a
chunking, given or measured from its spans. No SQL here: the store's db/documents.py area."""

from __future__ import annotations

import os

from db import DuplicateRow
from db.documents import DocumentInUse
from desktop import readers
from desktop.project_imports import ImportReport, now
from desktop.readers import InputError, Progress, documents


class ProjectDocuments:
    """Project's documents and chunkings; Project sets self.store and self._gold_cache."""

    def import_documents(self, path, fmt=None, encoding=None, progress: Progress | None = None):
        """Documents from a JSONL file in one transaction; ids already stored get the new text
        (refused for a document that passages have spans in), and the import keeps a backup,
        so `restore last-import` undoes it."""
        path = str(path)
        readers.regular_file(path)
        report = ImportReport("documents", path, 0)
        source = os.path.abspath(path)
        with self.store.atomic():
            try:
                added, replaced, undo_pk = self.store.add_documents(
                    documents.document_rows(path, fmt, encoding, progress), source
                )
            except DocumentInUse as error:
                raise InputError(
                    path,
                    error.line,
                    f"document {error.key!r} has a different text than the stored one, and "
                    "passages of a chunking or evidence given as spans have spans in it; "
                    "nothing was imported",
                ) from None
            if added + replaced == 0:
                raise InputError(path, None, "no documents in the file")
            self.store.log_import("documents", source, now(), added + replaced, 0)
        report.rows = added + replaced
        report.messages.append(
            f"imported {added} documents" + (f", replaced {replaced}" if replaced else "")
        )
        report.messages.append(f"kept as backup {undo_pk} (undo: restore last-import)")
        return report

    def placement(self) -> documents.Placement:
        """How a corpus import finds its passages' documents."""
        return documents.Placement(self.store.document_text)

    def import_chunking(self, files, fmt, encoding, name: str, source: str, shape, progress):
        """A corpus imported beside the others as chunking `name`, in one transaction; shape
        is (chunk_size, overlap, unit), None where to measure it from the spans."""
        shown = str(files[0]) if len(files) == 1 else source
        report = ImportReport("corpus", shown, 0)
        with self.store.atomic():
            report.rows, placed = self._add_chunking(
                files, fmt, encoding, name, source, shape, progress
            )
            if report.rows == 0:
                raise InputError(shown, None, "no passages in the file")
            for path, count in zip(files, placed.counts, strict=True):
                self.store.log_import("corpus", os.path.abspath(path), now(), count, 0)
        report.messages.append(
            f"imported {report.rows} passages as chunking {name!r}"
            + (
                f" ({placed.placement.placed} placed in their documents)"
                if placed.placement.placed
                else ""
            )
        )
        return report

    def _add_chunking(self, files, fmt, encoding, name: str, source: str, shape, progress):
        if self.store.chunking_named(name) is not None:
            raise InputError(
                source,
                None,
                f"there is a chunking {name!r} already; give the new one another name "
                "(--chunking NAME)",
            )
        placed = documents.PlacedCorpusFiles(files, fmt, encoding, len(files) > 1, self.placement())
        chunking_pk = self.store.add_chunking(name, source, None, now())
        try:
            rows = self.store.insert_passages(placed.rows(progress), progress, chunking_pk)
        except DuplicateRow as dup:
            raise placed.refusal(dup.line, dup.key) from None
        self.record_shape(chunking_pk, *shape)
        return rows, placed

    def record_shape(self, chunking_pk: int, chunk_size, overlap, unit) -> None:
        """Record a chunking's size, overlap and unit: as given, or measured from its spans
        (in characters) when not given and its passages have spans."""
        if chunk_size is None or overlap is None:
            size, shared = documents.measured_shape(
                self.store.span_lengths(chunking_pk), self.store.span_overlaps(chunking_pk)
            )
            if size is not None:
                chunk_size = size if chunk_size is None else chunk_size
                overlap = shared if overlap is None else overlap
                unit = unit or documents.SPAN_UNIT
        self.store.set_chunking_shape(chunking_pk, chunk_size, overlap, unit)
