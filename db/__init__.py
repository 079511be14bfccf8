"""The local SQLite store of a review project (no Qt here)."""

from db.errors import DuplicateRow, StoreBusy, StoreError, UnknownIds
from db.schema import SCHEMA_VERSION
from db.store import Store

__all__ = ["SCHEMA_VERSION", "DuplicateRow", "Store", "StoreBusy", "StoreError", "UnknownIds"]
