"""Partial backups: what an import replaced (a question's gold, a system's run, all gold
and runs for a corpus replacement, the texts of questions imported again), kept inside the
database so that a mistaken import can be undone with `recall-reviewer restore last-import`.

A backup is written in the transaction of the import that replaces the rows, before they are
deleted: it exists exactly when the import committed, even under SIGKILL, and a pure addition
(a new system, gold for questions that had none) keeps nothing. Rows are kept by their text
ids so that the gold and runs a corpus replacement removed can be put back once that corpus is
imported again. The newest KEEP backups are kept, and fewer when together they hold more than
MAX_ROWS rows (the newest one is always kept: it is never larger than what the database held).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from db.rows import Area

KEEP = 10
MAX_ROWS = 1_000_000

# The gold of one question as JSON [[passage id, role, [alternative ids]], ...] in item order;
# json() keeps each item JSON through the subquery, where SQLite drops the JSON subtype.
_ITEMS = (
    "coalesce((SELECT json_group_array(json(x)) FROM (SELECT json_array(p.id, e.role, "
    "(SELECT json_group_array(ap.id) FROM alternative a JOIN passage ap ON ap.pk = a.passage_pk "
    "WHERE a.item_pk = e.pk)) AS x FROM evidence_item e JOIN passage p ON p.pk = e.passage_pk "
    "WHERE e.question_pk = q.pk ORDER BY e.pk)), '[]')"
)
# The question's passages imported gold judged not evidence, as a JSON array of ids.
_NOT_EVIDENCE = (
    "coalesce((SELECT json_group_array(p.id) FROM judged_not_evidence n "
    "JOIN passage p ON p.pk = n.passage_pk WHERE n.question_pk = q.pk), '[]')"
)

# A question's items given as spans, ["span", document, start, end, role, [alternatives: a
# passage id or [document, start, end]]], and the span alternatives of its passage items,
# ["alternative", primary passage id, document, start, end], as a JSON array (design 10).
_SPAN_ALTERNATIVE = (
    "json(CASE WHEN a.passage_pk IS NOT NULL THEN json_quote(ap.id) "
    'ELSE json_array(ad.id, a.start, a."end") END)'
)
_SPANS = (
    "coalesce((SELECT json_group_array(json(x)) FROM ("
    "SELECT json_array('span', d.id, i.start, i.\"end\", i.role, (SELECT json_group_array("
    f"{_SPAN_ALTERNATIVE}) FROM span_alternative a LEFT JOIN passage ap ON ap.pk = a.passage_pk "
    "LEFT JOIN document ad ON ad.pk = a.document_pk WHERE a.span_item_pk = i.pk)) AS x "
    "FROM span_item i JOIN document d ON d.pk = i.document_pk WHERE i.question_pk = q.pk "
    "UNION ALL SELECT json_array('alternative', p.id, ad.id, a.start, a.\"end\") "
    "FROM span_alternative a JOIN evidence_item e ON e.pk = a.item_pk "
    "JOIN passage p ON p.pk = e.passage_pk JOIN document ad ON ad.pk = a.document_pk "
    "WHERE e.question_pk = q.pk)), '[]')"
)
# A document that evidence given as spans counts offsets in (d: the document).
SPANS_IN_DOCUMENT = (
    "EXISTS (SELECT 1 FROM span_item si WHERE si.document_pk = d.pk) "
    "OR EXISTS (SELECT 1 FROM span_alternative sa WHERE sa.document_pk = d.pk)"
)

# The chunking a kept result's passage id names: the one recorded, else the first (the gold
# and judgements always name passages of the first, pk 1).
_RESULT_CHUNKING = "coalesce((SELECT c.pk FROM chunking c WHERE c.name = u.chunking), 1)"


def corpus_stamp(store: Area) -> str:
    """Changes whenever the corpus's passages are replaced or added (both happen only in a
    corpus import); a chunking added beside it (db/documents.py) leaves it as it was."""
    row = store.conn.execute(
        "SELECT (SELECT imported_at FROM corpus WHERE id = 1), "
        "(SELECT max(pk) FROM passage WHERE chunking_pk = 1)"
    ).fetchone()
    return f"{row[0]}|{row[1]}"


def _start(store: Area, kind: str, source_file: str, summary: str) -> int:
    at = datetime.now().astimezone().isoformat(timespec="seconds")
    return store.conn.execute(
        "INSERT INTO undo (at, kind, source_file, summary, corpus_stamp, rows) "
        "VALUES (?, ?, ?, ?, ?, 0)",
        (at, kind, source_file, summary, corpus_stamp(store)),
    ).lastrowid


def _keep_gold(store: Area, undo_pk: int, questions_sql: str, params=()) -> int:
    return store.conn.execute(
        "INSERT INTO undo_gold (undo_pk, question_id, gold_source, items, not_evidence, spans) "
        f"SELECT ?, q.id, g.source_file, {_ITEMS}, {_NOT_EVIDENCE}, {_SPANS} FROM question q "
        f"LEFT JOIN gold_question g ON g.question_pk = q.pk WHERE q.pk IN ({questions_sql})",
        (undo_pk, *params),
    ).rowcount


def _keep_runs(store: Area, undo_pk: int, systems_sql: str, params=()) -> int:
    conn = store.conn
    conn.execute(
        "INSERT INTO undo_system (undo_pk, name, source_file, format, imported_at, unranked) "
        "SELECT ?, name, source_file, format, imported_at, unranked FROM system "
        f"WHERE pk IN ({systems_sql})",
        (undo_pk, *params),
    )
    conn.execute(  # a graph run's contexts (migration 0012) go and come back with it
        "INSERT INTO undo_graph_context (undo_pk, system, question_id, context) "
        "SELECT ?, s.name, q.id, g.context FROM graph_context g JOIN system s ON s.pk = "
        f"g.system_pk JOIN question q ON q.pk = g.question_pk WHERE g.system_pk IN ({systems_sql})",
        (undo_pk, *params),
    )
    return conn.execute(
        "INSERT INTO undo_result (undo_pk, system, question_id, rank, passage_id, score, "
        "chunking) SELECT ?, s.name, q.id, r.rank, p.id, r.score, c.name FROM result r "
        "JOIN system s ON s.pk = r.system_pk JOIN question q ON q.pk = r.question_pk "
        "JOIN passage p ON p.pk = r.passage_pk LEFT JOIN chunking c ON c.pk = p.chunking_pk "
        f"WHERE r.system_pk IN ({systems_sql})",
        (undo_pk, *params),
    ).rowcount


def _finish(store: Area, undo_pk: int, rows: int) -> int:
    store.conn.execute("UPDATE undo SET rows = ? WHERE pk = ?", (rows, undo_pk))
    prune(store)
    return undo_pk


def keep_gold(store: Area, source_file: str) -> int | None:
    """Before a gold import replaces the gold of the questions in temp.gold_q (qid): keep it,
    with the questions that get their first gold (to remove it again). None when no named
    question has gold yet."""
    named = "SELECT q.pk FROM question q JOIN temp.gold_q s ON s.qid = q.id"
    replaced = store.conn.execute(
        f"SELECT count(*) FROM gold_question WHERE question_pk IN ({named})"
    ).fetchone()[0]
    if not replaced:
        return None
    undo_pk = _start(store, "gold", source_file, f"the gold of {replaced} questions")
    return _finish(store, undo_pk, _keep_gold(store, undo_pk, named))


def keep_run(store: Area, system_pk: int, name: str, source_file: str) -> int:
    """Before a run import replaces the run of an existing system: keep that run."""
    undo_pk = _start(store, "run", source_file, f"the run of system {name!r}")
    return _finish(store, undo_pk, _keep_runs(store, undo_pk, "?", (system_pk,)))


def keep_questions(store: Area, source_file: str) -> int | None:
    """Before a question import updates the questions staged in temp.question_in (id, text,
    answerable, meta): keep those it changes. None when it changes none (only adds)."""
    changed = (
        "FROM question q JOIN temp.question_in s ON s.id = q.id WHERE q.text IS NOT s.text "
        "OR q.answerable IS NOT s.answerable OR q.meta IS NOT s.meta"
    )
    count = store.conn.execute(f"SELECT count(*) {changed}").fetchone()[0]
    if not count:
        return None
    undo_pk = _start(store, "questions", source_file, f"the texts of {count} questions")
    rows = store.conn.execute(
        "INSERT INTO undo_question (undo_pk, id, text, answerable, meta) "
        f"SELECT ?, q.id, q.text, q.answerable, q.meta {changed}",
        (undo_pk,),
    ).rowcount
    return _finish(store, undo_pk, rows)


def keep_corpus_dependents(store: Area, source_file: str) -> int | None:
    """Before a corpus replacement removes all gold and runs: keep them (not the passages,
    which the user's corpus file gives again). None when there are neither."""
    counts = store.conn.execute(
        "SELECT (SELECT count(*) FROM gold_question), (SELECT count(*) FROM system)"
    ).fetchone()
    if not any(counts):
        return None
    undo_pk = _start(
        store,
        "corpus",
        source_file,
        f"the gold of {counts[0]} questions and {counts[1]} runs, removed with the corpus",
    )
    rows = _keep_gold(store, undo_pk, "SELECT question_pk FROM gold_question")
    rows += _keep_runs(store, undo_pk, "SELECT pk FROM system")
    return _finish(store, undo_pk, rows)


def keep_documents(store: Area, source_file: str, added: int, replaced: int) -> int:
    """Before a documents import adds and replaces the documents staged in temp.document_in
    (line, id, text, title, meta): keep the ids it adds (text NULL, removed on restore) and
    the documents it replaces as they were."""
    undo_pk = _start(
        store, "documents", source_file, f"{added} documents added, {replaced} replaced"
    )
    rows = store.conn.execute(
        "INSERT OR IGNORE INTO undo_document (undo_pk, id, text, title, meta) "
        "SELECT ?, s.id, d.text, d.title, d.meta FROM temp.document_in s "
        "LEFT JOIN document d ON d.id = s.id",
        (undo_pk,),
    ).rowcount
    return _finish(store, undo_pk, rows)


def prune(store: Area, keep: int | None = None, max_rows: int | None = None) -> list[int]:
    """Remove the oldest backups beyond keep (KEEP), or beyond max_rows (MAX_ROWS) rows in
    all, never the newest; returns the keys removed."""
    keep = KEEP if keep is None else keep
    max_rows = MAX_ROWS if max_rows is None else max_rows
    entries = store.conn.execute("SELECT pk, rows FROM undo ORDER BY pk DESC").fetchall()
    total, removed = 0, []
    for n, (pk, rows) in enumerate(entries):
        total += rows
        if n > 0 and (n >= keep or total > max_rows):
            removed.append(pk)
    for pk in removed:
        store.conn.execute("DELETE FROM undo WHERE pk = ?", (pk,))
    return removed


def entries(store: Area) -> list[dict]:
    """The backups kept, newest first."""
    return store._query(
        "SELECT pk AS id, at, kind, source_file, summary, rows, "
        "corpus_stamp = ? AS same_corpus FROM undo ORDER BY pk DESC",
        [corpus_stamp(store)],
    )


class RestoreRefused(Exception):
    """The backup cannot be put back; the message says why (nothing was changed)."""


def _missing_ids(store: Area, undo_pk: int) -> list[str]:
    sql = (
        "SELECT 'question ' || u.question_id FROM undo_gold u LEFT JOIN question q "
        "ON q.id = u.question_id WHERE u.undo_pk = :u AND q.pk IS NULL "
        "UNION ALL SELECT 'question ' || u.question_id FROM undo_result u LEFT JOIN question q "
        "ON q.id = u.question_id WHERE u.undo_pk = :u AND q.pk IS NULL "
        "UNION ALL SELECT 'passage ' || u.passage_id FROM undo_result u LEFT JOIN passage p "
        f"ON p.id = u.passage_id AND p.chunking_pk = {_RESULT_CHUNKING} "
        "WHERE u.undo_pk = :u AND p.pk IS NULL "
        "UNION ALL SELECT 'passage ' || j.pid FROM (SELECT json_extract(i.value, '$[0]') AS pid, "
        "i.value AS item FROM undo_gold u, json_each(u.items) i WHERE u.undo_pk = :u "
        "UNION ALL SELECT a.value, NULL FROM undo_gold u, json_each(u.items) i, "
        "json_each(i.value, '$[2]') a WHERE u.undo_pk = :u "
        "UNION ALL SELECT n.value, NULL FROM undo_gold u, json_each(u.not_evidence) n "
        "WHERE u.undo_pk = :u) j LEFT JOIN passage p "
        "ON p.id = j.pid AND p.chunking_pk = 1 WHERE p.pk IS NULL LIMIT 3"
    )
    missing = [r[0] for r in store.conn.execute(sql, {"u": undo_pk})]
    return (missing + _missing_span_ids(store, undo_pk))[:3]


def _missing_span_ids(store: Area, undo_pk: int) -> list[str]:
    """The documents and passages the kept span items and span alternatives (_SPANS) name
    that the database lacks: put back without them, the items would be lost."""
    documents, passages = set(), set()
    for (text,) in store.conn.execute(
        "SELECT spans FROM undo_gold WHERE undo_pk = ? AND spans != '[]'", (undo_pk,)
    ):
        for entry in json.loads(text):
            if entry[0] == "span":
                documents.add(entry[1])
                for alternative in entry[5]:
                    if isinstance(alternative, str):
                        passages.add(alternative)
                    else:
                        documents.add(alternative[0])
            else:
                documents.add(entry[2])
    run = store.conn.execute
    out = [
        f"document {d}"
        for d in sorted(documents)
        if run("SELECT 1 FROM document WHERE id = ?", (d,)).fetchone() is None
    ]
    return out + [
        f"passage {p}"
        for p in sorted(passages)
        if run("SELECT 1 FROM passage WHERE id = ? AND chunking_pk = 1", (p,)).fetchone() is None
    ]


def restore(store: Area, undo_pk: int) -> dict:
    """Put back the gold and runs backup undo_pk kept, replacing what is there now, and drop
    the backup (so that `last-import` steps back one import at a time). Caller holds the
    transaction. Raises RestoreRefused."""
    conn = store.conn
    entry = conn.execute(
        "SELECT kind, summary, corpus_stamp FROM undo WHERE pk = ?", (undo_pk,)
    ).fetchone()
    if entry is None:
        raise RestoreRefused(f"there is no backup {undo_pk} (see restore --list)")
    kind, summary, stamp = entry
    if kind in ("gold", "run") and stamp != corpus_stamp(store):
        raise RestoreRefused(
            f"backup {undo_pk} ({summary}) belongs to a corpus that has been replaced since"
        )
    missing = _missing_ids(store, undo_pk)
    if missing:
        raise RestoreRefused(
            f"backup {undo_pk} ({summary}) names ids this database lacks ({', '.join(missing)}); "
            "import the corpus, questions and documents it was made with first"
        )
    _restore_gold(store, undo_pk)
    _restore_runs(store, undo_pk)
    _restore_questions(store, undo_pk)
    if kind == "documents":
        _restore_documents(store, undo_pk, summary)
    conn.execute("DELETE FROM undo WHERE pk = ?", (undo_pk,))
    return {"id": undo_pk, "kind": kind, "summary": summary}


def _restore_gold(store: Area, undo_pk: int) -> None:
    run = store.conn.execute
    named = (
        "SELECT q.pk FROM undo_gold u JOIN question q ON q.id = u.question_id WHERE u.undo_pk = ?"
    )
    run(f"DELETE FROM evidence_item WHERE question_pk IN ({named})", (undo_pk,))
    run(f"DELETE FROM span_item WHERE question_pk IN ({named})", (undo_pk,))
    run(f"DELETE FROM gold_question WHERE question_pk IN ({named})", (undo_pk,))
    run(f"DELETE FROM judged_not_evidence WHERE question_pk IN ({named})", (undo_pk,))
    run(
        "INSERT OR IGNORE INTO judged_not_evidence (question_pk, passage_pk) "
        "SELECT q.pk, p.pk FROM undo_gold u JOIN question q ON q.id = u.question_id, "
        "json_each(u.not_evidence) n JOIN passage p ON p.id = n.value AND p.chunking_pk = 1 "
        "WHERE u.undo_pk = ?",
        (undo_pk,),
    )
    run(
        "INSERT INTO gold_question (question_pk, source_file) SELECT q.pk, u.gold_source "
        "FROM undo_gold u JOIN question q ON q.id = u.question_id "
        "WHERE u.undo_pk = ? AND u.gold_source IS NOT NULL",
        (undo_pk,),
    )
    items = (
        "FROM undo_gold u JOIN question q ON q.id = u.question_id, json_each(u.items) i "
        "JOIN passage p ON p.id = json_extract(i.value, '$[0]') AND p.chunking_pk = 1 "
        "WHERE u.undo_pk = ?"
    )
    run(
        "INSERT INTO evidence_item (question_pk, passage_pk, role) "
        f"SELECT q.pk, p.pk, json_extract(i.value, '$[1]') {items} ORDER BY q.pk, i.key",
        (undo_pk,),
    )
    run(
        "INSERT OR IGNORE INTO alternative (item_pk, passage_pk) "
        "SELECT e.pk, ap.pk FROM undo_gold u JOIN question q ON q.id = u.question_id, "
        "json_each(u.items) i JOIN passage p ON p.id = json_extract(i.value, '$[0]') "
        "AND p.chunking_pk = 1 "
        "JOIN evidence_item e ON e.question_pk = q.pk AND e.passage_pk = p.pk, "
        "json_each(i.value, '$[2]') a JOIN passage ap ON ap.id = a.value AND ap.chunking_pk = 1 "
        "WHERE u.undo_pk = ?",
        (undo_pk,),
    )
    _restore_span_gold(store, undo_pk)


def _restore_span_gold(store: Area, undo_pk: int) -> None:
    """The kept items given as spans and span alternatives (_SPANS), a question at a time:
    a gold's span items are few, and their JSON is plainer to walk here than in SQL."""
    run = store.conn.execute
    kept = run(
        "SELECT q.pk, u.spans FROM undo_gold u JOIN question q ON q.id = u.question_id "
        "WHERE u.undo_pk = ? AND u.spans != '[]'",
        (undo_pk,),
    ).fetchall()
    for question_pk, text in kept:
        for entry in json.loads(text):
            if entry[0] == "span":
                _, document, start, end, role, alternatives = entry
                added = run(
                    'INSERT INTO span_item (question_pk, document_pk, start, "end", role) '
                    "SELECT ?, pk, ?, ?, ? FROM document WHERE id = ?",
                    (question_pk, start, end, role, document),
                )
                for alternative in alternatives if added.rowcount == 1 else ():
                    _restore_span_alternative(run, "span_item_pk", added.lastrowid, alternative)
            else:
                _, primary, document, start, end = entry
                row = run(
                    "SELECT e.pk FROM evidence_item e JOIN passage p ON p.pk = e.passage_pk "
                    "WHERE e.question_pk = ? AND p.id = ? AND p.chunking_pk = 1",
                    (question_pk, primary),
                ).fetchone()
                if row:
                    _restore_span_alternative(run, "item_pk", row[0], [document, start, end])


def _restore_span_alternative(run, column: str, item_pk: int, alternative) -> None:
    if isinstance(alternative, str):
        run(
            f"INSERT INTO span_alternative ({column}, passage_pk) "
            "SELECT ?, pk FROM passage WHERE id = ? AND chunking_pk = 1",
            (item_pk, alternative),
        )
    else:
        document, start, end = alternative
        run(
            f'INSERT INTO span_alternative ({column}, document_pk, start, "end") '
            "SELECT ?, pk, ?, ? FROM document WHERE id = ?",
            (item_pk, start, end, document),
        )


def _restore_questions(store: Area, undo_pk: int) -> None:
    # The texts only: questions the import added stay (gold, runs or judgements may name
    # them by now), as a gold import's backup leaves the questions themselves alone.
    store.conn.execute(
        "UPDATE question SET (text, answerable, meta) = (SELECT u.text, u.answerable, u.meta "
        "FROM undo_question u WHERE u.undo_pk = :u AND u.id = question.id) "
        "WHERE id IN (SELECT id FROM undo_question WHERE undo_pk = :u)",
        {"u": undo_pk},
    )


def _restore_runs(store: Area, undo_pk: int) -> None:
    run = store.conn.execute
    run(
        "DELETE FROM result WHERE system_pk IN (SELECT s.pk FROM system s "
        "JOIN undo_system u ON u.name = s.name WHERE u.undo_pk = ?)",
        (undo_pk,),
    )
    run(
        "INSERT INTO system (name, source_file, format, imported_at, unranked) "
        "SELECT name, source_file, format, imported_at, unranked FROM undo_system "
        "WHERE undo_pk = ? ON CONFLICT (name) DO UPDATE SET source_file = excluded.source_file, "
        "format = excluded.format, imported_at = excluded.imported_at, "
        "unranked = excluded.unranked",
        (undo_pk,),
    )
    run(
        "INSERT INTO result (system_pk, question_pk, rank, passage_pk, score) "
        "SELECT s.pk, q.pk, u.rank, p.pk, u.score FROM undo_result u "
        "JOIN system s ON s.name = u.system JOIN question q ON q.id = u.question_id "
        f"JOIN passage p ON p.id = u.passage_id AND p.chunking_pk = {_RESULT_CHUNKING} "
        "WHERE u.undo_pk = ?",
        (undo_pk,),
    )
    run(
        "DELETE FROM graph_context WHERE system_pk IN (SELECT s.pk FROM system s "
        "JOIN undo_system u ON u.name = s.name WHERE u.undo_pk = ?)",
        (undo_pk,),
    )
    run(
        "INSERT INTO graph_context (system_pk, question_pk, context) "
        "SELECT s.pk, q.pk, u.context FROM undo_graph_context u "
        "JOIN system s ON s.name = u.system JOIN question q ON q.id = u.question_id "
        "WHERE u.undo_pk = ?",
        (undo_pk,),
    )


def _restore_documents(store: Area, undo_pk: int, summary: str) -> None:
    """Remove the documents the import added and put back the texts it replaced; refused when
    passages have spans in a document this would remove or change."""
    run = store.conn.execute
    in_use = run(
        "SELECT u.id FROM undo_document u JOIN document d ON d.id = u.id "
        "WHERE u.undo_pk = ? AND d.text IS NOT u.text AND (EXISTS "
        f"(SELECT 1 FROM passage p WHERE p.document_pk = d.pk) OR {SPANS_IN_DOCUMENT}) LIMIT 1",
        (undo_pk,),
    ).fetchone()
    if in_use:
        raise RestoreRefused(
            f"backup {undo_pk} ({summary}) would change document {in_use[0]!r}, which "
            "passages of a chunking or evidence given as spans have spans in"
        )
    run(
        "DELETE FROM document WHERE id IN "
        "(SELECT id FROM undo_document WHERE undo_pk = ? AND text IS NULL)",
        (undo_pk,),
    )
    run(
        "UPDATE document SET (text, title, meta) = (SELECT u.text, u.title, u.meta "
        "FROM undo_document u WHERE u.undo_pk = :u AND u.id = document.id) "
        "WHERE id IN (SELECT id FROM undo_document WHERE undo_pk = :u AND text IS NOT NULL)",
        {"u": undo_pk},
    )
