"""The command line's text tables: columns aligned by terminal width, and what `compare`
prints without --json. Plain text, no Qt, nothing read from the store."""

from __future__ import annotations


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    """Columns aligned by terminal width (Hangul takes two), every cell made printable: a
    column of numbers to the right, one of text (systems, measures, kinds) to the left."""
    from desktop.app.terminal import printable, width

    cells = [[printable(c) for c in row] for row in [headers, *rows]]
    widths = [max(width(row[i]) for row in cells) for i in range(len(headers))]
    right = [all(_numeric(row[i]) for row in cells[1:]) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        return "  ".join(
            " " * (w - width(c)) + c if right[i] else c + " " * (w - width(c))
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    out = [line(cells[0]), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells[1:])
    return "\n".join(out)


def _numeric(cell: str) -> bool:
    """A number as the tables print them, or '-' (none)."""
    if cell in ("", "-"):
        return True
    try:
        float(cell)
    except ValueError:
        return False
    return True


def num(value) -> str:
    return "-" if value is None else f"{value:.4f}"


# What `compare` prints without --json: per JSON list, a title, what to say when it is empty,
# and its columns as (header, key).
COMPARE_TABLES = (
    (
        "pairs",
        "win/tie/loss per question; p_holm: Holm-Bonferroni over all {family} tests "
        "(every pair, measure and K)",
        "needs two systems",
        (
            ("A", "a"),
            ("B", "b"),
            ("metric", "metric"),
            ("wins", "wins"),
            ("ties", "ties"),
            ("losses", "losses"),
            ("p", "p"),
            ("p_holm", "p_holm"),
        ),
    ),
    (
        "unique",
        "evidence items only this system finds",
        "no runs",
        (("system", "system"), ("K", "k"), ("items", "items")),
    ),
    (
        "a_finds_b_misses",
        "evidence items A finds and B misses",
        "needs two systems",
        (("A", "a"), ("B", "b"), ("K", "k"), ("items", "items")),
    ),
    (
        "union",
        "union Recall@K (what a perfect fusion could reach)",
        "no runs",
        (("systems", "systems"), ("K", "k"), ("Recall", "Recall")),
    ),
    (
        "ties",
        "ties at the cutoff: trec_eval order and the range over tie orders",
        "no TREC runs",
        (
            ("system", "system"),
            ("metric", "metric"),
            ("value", "value"),
            ("low", "low"),
            ("high", "high"),
            ("questions", "questions"),
        ),
    ),
    (
        "abstain",
        "abstention: top-1 score separating answerable from abstain questions "
        "(answer when score >= threshold; -: never answer)",
        "needs runs with scores and both answerable and abstain questions",
        (
            ("system", "system"),
            ("AUROC", "auroc"),
            ("threshold", "threshold"),
            ("accuracy", "accuracy"),
            ("answerable", "answerable"),
            ("abstain", "abstain"),
        ),
    ),
)


def cell(value) -> str:
    if isinstance(value, list):
        return " + ".join(value)
    if value is None or isinstance(value, float):
        return num(value)
    return str(value)
