"""The gold: the effective gold built from the judgement log (effective), the pool of
unjudged passages to review (pool) and the gold's export as JSONL or TREC qrels (export).
Qt-free; these modules import `desktop.evaluation` (the measures' items), never the store or
`desktop.ui`."""
