"""The bundled chunking study (resources/sample/study): the sample's gold over the Constitution
as documents, cut three ways, imports through `demo --study`; the run on the gold's own chunking
scores exactly as the sample's BM25-Bigram (the same passages, tokens and parameters), and the
other chunkings are scored by the span rule."""

import json

from tests.helpers import cli


def metrics(db, *args):
    done = cli(db, "metrics", "--json", *args)
    assert done.returncode == 0, done.stderr
    return {s["system"]: s for s in json.loads(done.stdout)["systems"]}


def test_demo_study_imports_documents_three_chunkings_and_a_run_on_each(tmp_path):
    db = tmp_path / "study.db"
    done = cli(db, "demo", "--study")
    assert done.returncode == 0, done.stderr
    assert "chunking study loaded" in done.stdout
    assert done.stdout.count("placed in their documents") == 3
    info = json.loads(cli(db, "info", "--json").stdout)
    assert info["documents"] == 12 and info["questions"] == 33
    assert info["systems"] == ["BM25-articles", "BM25-c200o50", "BM25-c500o100"]
    assert [c["name"] for c in info["chunkings"]] == ["articles", "c200o50", "c500o100"]

    sample = tmp_path / "sample.db"
    assert cli(sample, "demo").returncode == 0
    bigram = metrics(sample)["BM25-Bigram"]
    study = metrics(db, "--budget", "1000,2000")
    articles = study["BM25-articles"]
    assert {k: v for k, v in articles.items() if k in bigram and k != "system"} == {
        k: v for k, v in bigram.items() if k != "system"
    }
    for name in ("BM25-c200o50", "BM25-c500o100"):
        assert study[name]["nDCG@5"] is None  # not defined across chunkings
        assert 0 < study[name]["Recall@2000ch"] <= 1
        assert 0 < study[name]["SpanRecall@1000ch"] < study[name]["SpanRecall@2000ch"]
