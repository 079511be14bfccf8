"""A parquet file read as a table (GraphRAG's output, design section 11), through DuckDB: the
one place besides the store where SQL is written, so it lives in db/ too. DuckDB is imported
inside the function, so that headless commands that read no parquet never pay for it, and it
is never allowed to fetch an extension (the app is offline; parquet is built in)."""

from __future__ import annotations

from pathlib import Path

_OFFLINE = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
_DESCRIBE = "SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet(?))"


class ParquetError(Exception):
    """Why a parquet file cannot be read as asked (the readers add the file's name)."""


def read_columns(path: Path, wanted: list[str], optional: tuple[str, ...] = ()) -> list[dict]:
    """The rows of a parquet file as dicts of the wanted columns (those of `optional` that the
    file has too: a row has no key for an optional column the file lacks). DuckDB reads
    GraphRAG's files (strings, int64, lists of strings) into plain Python values without numpy
    or pandas, at a third of pyarrow's installed size. Raises ParquetError."""
    try:
        import duckdb
    except ImportError:
        raise ParquetError("reading parquet needs the duckdb package") from None
    try:
        connection = duckdb.connect(":memory:", config=_OFFLINE)
        try:
            names = [row[0] for row in connection.execute(_DESCRIBE, [str(path)]).fetchall()]
            missing = [name for name in wanted if name not in names]
            if missing:
                raise ParquetError(f"has no column {', '.join(map(repr, missing))}; it has {names}")
            columns = wanted + [name for name in optional if name in names]
            quoted = ", ".join('"' + name.replace('"', '""') + '"' for name in columns)
            query = f"SELECT {quoted} FROM read_parquet(?)"  # noqa: S608 (names are the file's)
            rows = connection.execute(query, [str(path)]).fetchall()
        finally:
            connection.close()
    except duckdb.Error as error:
        reason = str(error).splitlines()[0]
        raise ParquetError(f"not a readable parquet file ({reason})") from None
    return [dict(zip(columns, row, strict=True)) for row in rows]
