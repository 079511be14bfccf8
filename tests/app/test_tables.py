"""The command line's text tables (desktop.app.tables)."""

from desktop.app.tables import format_table


def test_text_columns_to_the_left_and_numbers_to_the_right():
    # `compare` once printed its second system column to the right, as if a number:
    # "BM25-Kiwi            BM25-Bigram" under a long name, the names far apart.
    text = format_table(
        ["A", "B", "metric", "wins", "p"],
        [
            ["BM25-Kiwi", "GraphRAG-global", "Recall@5", "4", "0.6733"],
            ["GraphRAG-global", "RRF", "nDCG@5", "12", "-"],
        ],
    )
    header, rule, first, second = text.splitlines()
    assert first.startswith("BM25-Kiwi        GraphRAG-global  Recall@5     4  0.6733")
    assert second.startswith("GraphRAG-global  RRF              nDCG@5      12       -")
    assert header.split() == ["A", "B", "metric", "wins", "p"]
    assert rule.split() == ["-" * 15, "-" * 15, "-" * 8, "-" * 4, "-" * 6]


def test_hangul_counts_two_columns():
    text = format_table(["시스템", "n"], [["가나", "3"], ["ab", "10"]])
    lines = text.splitlines()
    assert lines[2] == "가나     3" and lines[3] == "ab      10"
