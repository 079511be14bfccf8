"""A project's graph retrievers (design section 11): GraphRAG's output folder and LightRAG's
store as a chunking (`import corpus FOLDER --format graphrag|lightrag --chunking NAME`), and
their saved query contexts as unranked runs on it (`import run FILE --format graphrag|lightrag
--system NAME`). The readers are desktop/readers/graph.py; no SQL here."""

from __future__ import annotations

import json
import os
from pathlib import Path

from db import UnknownIds
from db.documents import RunChunking
from desktop import readers
from desktop.project_imports import ImportReport, _run_messages, _unknown_message, now
from desktop.readers import InputError, graph

_META_ID = "graphrag_id"  # a GraphRAG passage's long `id`; its passage id is human_readable_id


class ProjectGraph:
    """Project's graph retriever imports; Project sets self.store."""

    def import_graph(self, kind: str, paths: list, fmt: str, system, chunking, ranked: bool):
        """`import corpus|run ... --format graphrag|lightrag`: the one way in for both."""
        if len(paths) != 1:
            shown = ", ".join(str(p) for p in paths)
            raise InputError(
                f"import {kind}", None, f"--format {fmt} reads one folder or file ({shown} given)"
            )
        path = paths[0]
        if kind == "corpus":
            return self.import_graph_chunking(path, fmt, chunking)
        if kind == "run":
            return self.import_graph_run(path, fmt, system, chunking, ranked)
        raise InputError(
            path, None, f"--format {fmt} reads a corpus folder or a run, not {kind} files"
        )

    def import_graph_chunking(self, folder, fmt: str, name: str | None) -> ImportReport:
        """The system's units as chunking `name`, each passage spanning its text in its
        imported document. A GraphRAG passage's id is its human_readable_id, the id its saved
        contexts name (its long `id` kept in the passage's metadata, and resolved to it too)."""
        folder = str(folder)
        name = name or fmt
        if self.store.corpus() is None:
            raise InputError(folder, None, "import the corpus first: the gold names passages of it")
        if self.store.chunking_named(name) is not None:
            raise InputError(
                folder, None, f"there is a chunking {name!r} already; give another --chunking NAME"
            )
        stored = self.store.all_documents()
        imported = [graph.Document(did, title, text) for _, did, title, text in stored]
        read = graph.read_graphrag_output if fmt == "graphrag" else graph.read_lightrag_store
        chunking = read(folder, imported)
        keys = {did: pk for pk, did, _, _ in stored}
        source = os.path.abspath(folder)
        with self.store.atomic():
            chunking_pk = self.store.add_chunking(name, source, fmt, now())
            rows = (_passage_row(number, unit, keys) for number, unit in enumerate(chunking.units))
            count = self.store.insert_passages(rows, None, chunking_pk)
            self.record_shape(chunking_pk, None, None, None)
            self.store.log_import("corpus", source, now(), count, 0)
        report = ImportReport("corpus", folder, count)
        report.messages.append(
            f"imported {count} {fmt} units as chunking {name!r}, each placed in its document"
        )
        return report

    def import_graph_run(self, path, fmt: str, system, chunking, ranked: bool) -> ImportReport:
        """Saved contexts as the system's run on a chunking of the same system, in the order
        given, marked unranked unless `ranked` (the user knows the order is a ranking)."""
        path = str(path)
        readers.regular_file(path)
        system = (system or Path(path).stem).strip()
        if not system:
            raise InputError(path, None, "the system needs a name (--system NAME)")
        chunking_row = self._graph_chunking(path, fmt, chunking)
        units, passage_of = _stored_units(self.store.chunking_passages(chunking_row["pk"]))
        resolver = graph.GraphChunking(fmt, {}, units)
        read = graph.read_graphrag_contexts if fmt == "graphrag" else graph.read_lightrag_results
        contexts = read(path, resolver)
        if not contexts:
            raise InputError(path, None, "no contexts in the file")
        rows = [
            (context.line, context.question_id, rank, passage_of[unit_id], None)
            for context in contexts
            for rank, unit_id in enumerate(context.unit_ids, 1)
        ]
        repeats = [(c.line, c.question_id, unit) for c in contexts for unit in c.repeats]
        # what the context held besides its sources, for the window (migration 0012)
        parts = [
            (c.question_id, {p: getattr(c, p) for p in ("entities", "relationships", "reports")})
            for c in contexts
        ]
        return self._store_graph_run(
            path, fmt, system, chunking_row["name"], rows, repeats, ranked, parts
        )

    def _store_graph_run(self, path, fmt, system, chunking, rows, repeats, ranked, parts=()):
        report = ImportReport("run", path, 0)
        with self.store.atomic():
            try:
                info = self.store.replace_run(
                    system, os.path.abspath(path), fmt, now(), rows, chunking, not ranked
                )
            except UnknownIds as error:
                raise _unknown_message(path, error) from None
            except RunChunking as error:
                raise InputError(path, error.line or None, error.message) from None
            self.store.set_contexts(info["system_pk"], parts)
            details = json.dumps({"system": system, "unranked": not ranked})
            self.store.log_import(
                "run", os.path.abspath(path), now(), info["results"], len(repeats), details
            )
        report.rows = info["results"]
        _run_messages(report, path, system, info, repeats)
        if not ranked:
            report.messages.append(
                f"marked unranked: {fmt} does not order its context by a score; its fair figures "
                "are those over the whole context (--ranked if the order is a ranking)"
            )
        return report

    def _graph_chunking(self, path, fmt: str, name: str | None) -> dict:
        """The chunking a context's ids name: the one named, or the only one of this system."""
        ours = [c for c in self.store.chunkings() if c["tool"] == fmt]
        if name is not None:
            named = [c for c in ours if c["name"] == name]
            if named:
                return named[0]
            raise InputError(path, None, f"there is no {fmt} chunking {name!r}{_listed(ours)}")
        if len(ours) == 1:
            return ours[0]
        if not ours:
            raise InputError(
                path,
                None,
                f"there is no {fmt} chunking: import its output folder first "
                f"(import corpus FOLDER --format {fmt} --chunking NAME)",
            )
        raise InputError(path, None, f"say which chunking with --chunking NAME{_listed(ours)}")


UNRANKED_REASON = (
    "the run's order is not a ranking (a graph retriever's context): its fair figures are "
    "those over the whole context; rank measures and shorter cut-offs follow the given order"
)


def mark_unranked(data: dict, systems: list[dict]) -> dict:
    """`metrics --json`: the rows of unranked runs carry `"unranked": true` and the reason."""
    unranked = {s["name"] for s in systems if s.get("unranked")}
    for row in data["systems"]:
        if row["system"] in unranked:
            row["unranked"] = True
            row["unranked_reason"] = UNRANKED_REASON
    return data


def _listed(chunkings: list[dict]) -> str:
    names = ", ".join(repr(c["name"]) for c in chunkings)
    return f" (there are: {names})" if names else ""


def _passage_row(number: int, unit: graph.Unit, keys: dict[str, int]) -> tuple:
    """(line, id, text, title, meta, document key, start, end) of a unit: the passage id is
    the name the saved contexts use (GraphRAG's human_readable_id, LightRAG's chunk id)."""
    if unit.human_readable_id is not None:
        meta = json.dumps({_META_ID: unit.id}, ensure_ascii=False)
        passage_id = unit.human_readable_id
    else:
        meta, passage_id = None, unit.id
    return (
        number + 1,
        passage_id,
        unit.text,
        None,
        meta,
        keys[unit.document_id],
        unit.start,
        unit.end,
    )


def _stored_units(passages) -> tuple[list[graph.Unit], dict[str, str]]:
    """A stored graph chunking as units to resolve a context's names against (both a GraphRAG
    unit's ids), and each unit's passage id."""
    units, passage_of = [], {}
    for passage_id, text, meta in passages:
        long_id = json.loads(meta).get(_META_ID) if meta else None
        if long_id is not None:
            units.append(graph.Unit(long_id, passage_id, text, "", 0, 0))
            passage_of[long_id] = passage_id
        else:
            units.append(graph.Unit(passage_id, None, text, "", 0, 0))
            passage_of[passage_id] = passage_id
    return units, passage_of
