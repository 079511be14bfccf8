"""The local SQLite store of a review project (no Qt here)."""

from db.schema import SCHEMA_VERSION
from db.store import DuplicateRow, Store, StoreBusy, StoreError, UnknownIds

__all__ = ["SCHEMA_VERSION", "DuplicateRow", "Store", "StoreBusy", "StoreError", "UnknownIds"]
