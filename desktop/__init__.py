"""Recall Reviewer: review retrieval runs against gold evidence and report Recall@K."""

__version__ = "0.1.0"
