"""Similar passages and search by relevance (issue 21 items 1 and 3): a hand-made near copy and
paraphrase of real Korean text rank first and an unrelated passage last or not at all; the
passage itself, the passages overlapping or touching it in its document, and without documents
its neighbours in corpus order, are never listed; only the passage's chunking is searched; an
unknown id is refused in one line; `similar --json`'s shape; `search --order relevance`."""

from __future__ import annotations

import json

import pytest

from tests.helpers import cli, cli_here, refused_by_cli, write_jsonl

# Real text (the constitution of the bundled sample), a near copy set again elsewhere with a
# number changed, a paraphrase, articles on other matters, and an unrelated passage.
ORIGINAL = (
    "국회는 국무총리 또는 국무위원의 해임을 대통령에게 건의할 수 있다. 해임건의는 "
    "국회재적의원 3분의 1 이상의 발의에 의하여 국회재적의원 과반수의 찬성이 있어야 한다."
)
NEAR_COPY = (
    "국회는 국무총리 또는 국무위원의 해임을 대통령에게 건의할 수 있다. 해임건의는 "
    "국회재적의원 4분의 1 이상의 발의에 의하여 국회재적의원 과반수의 찬성이 있어야 한다."
)
PARAPHRASE = (
    "국무총리나 국무위원의 해임건의는 국회재적의원 과반수가 찬성하여야 하고, 국회는 "
    "재적의원 3분의 1 이상이 발의하면 대통령에게 그 해임을 건의할 수 있다."
)
OTHERS = [
    "대통령은 국회의 동의를 얻어 국무총리를 임명한다. 국무총리는 대통령을 보좌한다.",
    "국회의원의 임기는 4년으로 한다. 국회의원은 법률이 정하는 직을 겸할 수 없다.",
    "모든 국민은 양심의 자유를 가진다. 모든 국민은 종교의 자유를 가진다.",
    "국가는 농업 및 어업을 보호·육성하기 위하여 농·어촌종합개발을 실시하여야 한다.",
]
UNRELATED = "오늘 아침에는 바닷가를 산책하며 갈매기 소리를 들었다."


@pytest.fixture
def dbfile(db_path):
    assert cli_here(db_path, "init").returncode == 0
    return db_path


def _corpus(tmp_path, texts: dict[str, str]):
    return write_jsonl(
        tmp_path / "corpus.jsonl",
        [
            {"id": pid, "text": text, "title": f"권{n}"}
            for n, (pid, text) in enumerate(texts.items())
        ],
    )


def _similar(dbfile, pid: str, *args: str) -> list[dict]:
    done = cli(dbfile, "similar", pid, "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["similar"]


def _spread(texts: list[str]) -> dict[str, str]:
    """Every text apart from the others by a filler passage, so that no two are neighbours."""
    out = {}
    for n, text in enumerate(texts):
        out[f"p{n}"] = text
        out[f"filler{n}"] = f"{n}번째 여백 문단입니다."
    return out


def test_the_near_copy_ranks_first_and_the_unrelated_last(dbfile, tmp_path):
    texts = _spread([ORIGINAL, *OTHERS, UNRELATED, NEAR_COPY])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    found = _similar(dbfile, "p0", "--limit", "1000")
    ids = [f["passage_id"] for f in found]
    assert ids[0] == "p6"  # the near copy
    assert found[0]["score"] > 0.8 > found[1]["score"]
    assert ids.index("p6") < ids.index("p1")  # a passage on the same matter comes later
    assert "p5" not in ids[:-1]  # the unrelated passage is last, if it is listed at all
    assert "p0" not in ids
    assert [f["score"] for f in found] == sorted((f["score"] for f in found), reverse=True)


def test_the_paraphrase_ranks_first(dbfile, tmp_path):
    texts = _spread([ORIGINAL, *OTHERS, UNRELATED, PARAPHRASE])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    ids = [f["passage_id"] for f in _similar(dbfile, "p0", "--limit", "1000")]
    assert ids[0] == "p6"


def test_json_shape(dbfile, tmp_path):
    texts = _spread([ORIGINAL, NEAR_COPY])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    done = cli(dbfile, "similar", "p0", "--json", "--limit", "1")
    data = json.loads(done.stdout)
    assert data == {
        "passage_id": "p0",
        "similar": [
            {
                "passage_id": "p1",
                "score": data["similar"][0]["score"],
                "document": None,
                "title": "권2",
            }
        ],
    }
    assert 0 < data["similar"][0]["score"] <= 1
    text = cli(dbfile, "similar", "p0").stdout.splitlines()
    assert text[0].split()[1:] == ["p1", "권2"]


def test_neighbours_in_corpus_order_are_never_listed(dbfile, tmp_path):
    """Without documents, the passages just before and after are the same text's context."""
    texts = {"a": NEAR_COPY, "b": ORIGINAL, "c": NEAR_COPY, "d": OTHERS[0], "e": NEAR_COPY}
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    ids = [f["passage_id"] for f in _similar(dbfile, "b", "--limit", "1000")]
    assert ids[0] == "e" and "a" not in ids and "c" not in ids and "b" not in ids


def test_passages_overlapping_or_touching_in_the_document_are_never_listed(dbfile, tmp_path):
    """A chunking cut from documents: the chunks sharing or abutting the passage's span are
    its own text; the copy in another document, and a chunk of the same document further
    off, are alternatives."""
    one = ORIGINAL + " " + NEAR_COPY + " " + OTHERS[2] + " " + NEAR_COPY
    other = OTHERS[0] + " " + NEAR_COPY
    docs = write_jsonl(
        tmp_path / "docs.jsonl", [{"id": "d1", "text": one}, {"id": "d2", "text": other}]
    )
    assert cli_here(dbfile, "import", "documents", str(docs)).returncode == 0
    o = len(ORIGINAL)
    c = len(NEAR_COPY)
    spans = {
        "before": (0, o - 10),  # overlaps the passage
        "main": (10, o + 1 + 20),
        "touch": (o + 1 + 20, o + 1 + c),  # starts where the passage ends
        "far": (len(one) - c, len(one)),  # the same document, apart
        "other": (len(other) - c, len(other)),
    }
    rows = [
        {
            "id": pid,
            "text": (one if pid != "other" else other)[s:e],
            "document_id": "d1" if pid != "other" else "d2",
            "start": s,
            "end": e,
        }
        for pid, (s, e) in spans.items()
    ]
    corpus = write_jsonl(tmp_path / "chunks.jsonl", rows)
    done = cli_here(dbfile, "import", "corpus", str(corpus))
    assert done.returncode == 0, done.stderr
    found = _similar(dbfile, "main", "--limit", "1000")
    ids = [f["passage_id"] for f in found]
    assert "before" not in ids and "touch" not in ids and "main" not in ids
    assert set(ids) == {"far", "other"}
    assert {f["document"] for f in found} == {"d1", "d2"}


def test_only_the_passages_chunking_is_searched(dbfile, tmp_path):
    texts = _spread([ORIGINAL, OTHERS[0]])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    again = write_jsonl(tmp_path / "again.jsonl", [{"id": "copy", "text": NEAR_COPY}])
    done = cli_here(dbfile, "import", "corpus", str(again), "--chunking", "again")
    assert done.returncode == 0, done.stderr
    assert "copy" not in [f["passage_id"] for f in _similar(dbfile, "p0", "--limit", "1000")]


def test_an_unknown_id_or_a_bad_limit_is_refused_in_one_line(dbfile, tmp_path):
    texts = _spread([ORIGINAL, NEAR_COPY])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    error = refused_by_cli(dbfile, "similar", "nope")
    assert error == "recall-reviewer: no passage 'nope' in the corpus\n"
    error = refused_by_cli(dbfile, "similar", "p0", "--limit", "0")
    assert error.count("\n") == 1 and "--limit" in error


def test_search_by_relevance_orders_by_bm25_and_keeps_the_total(dbfile, tmp_path):
    texts = {
        "once": "국무위원 한 번. " + OTHERS[3],
        "long": "국무위원 " + " ".join(OTHERS),
        "often": "국무위원은 국무위원과 국무위원이 국무위원을 만난다.",
        # Passages without the word, so that it is rare (FTS5's bm25 gives a word in more
        # than half the passages almost no weight).
        **{f"none{n}": f"{UNRELATED} {n}" for n in range(6)},
    }
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0

    def page(*args):
        return json.loads(cli(dbfile, "search", "국무위원", "--json", *args).stdout)

    corpus, relevance = page(), page("--order", "relevance")
    assert [p["passage_id"] for p in corpus["passages"]] == ["once", "long", "often"]
    assert [p["passage_id"] for p in relevance["passages"]] == ["often", "once", "long"]
    assert corpus["total"] == relevance["total"] == 3
    second = page("--order", "relevance", "--limit", "1", "--offset", "1")
    assert [p["passage_id"] for p in second["passages"]] == ["once"]
    assert second["total"] == 3
    # A two-character word is counted in the texts (the bigram index's bm25 is 0 for all):
    # "long" holds 국무 three times (국무총리 twice), "once" once.
    short = json.loads(cli(dbfile, "search", "국무", "--json", "--order", "relevance").stdout)
    assert [p["passage_id"] for p in short["passages"]] == ["often", "long", "once"]
    assert short["total"] == 3


def test_search_by_relevance_of_a_word_only_like_finds(dbfile, tmp_path):
    """A short word holding U+180E is matched with LIKE (db/search.py); it is ranked by its
    counts all the same."""
    word = "가\u180e"
    texts = {"once": f"{word} 하나 " + OTHERS[0], "twice": f"{word} {word} 둘", "none": UNRELATED}
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    done = cli(dbfile, "search", word, "--json", "--order", "relevance")
    found = json.loads(done.stdout)
    assert [p["passage_id"] for p in found["passages"]] == ["twice", "once"]
    assert found["total"] == 2


def test_chunking_names_which_chunkings_passage_the_id_is(dbfile, tmp_path):
    """Ids repeat across chunkings: without --chunking the id is the first chunking's (the
    one judgements name), with it the named one's, and its similar passages are that
    chunking's. An unknown chunking, or an id it lacks, is refused in one line."""
    texts = _spread([ORIGINAL, OTHERS[0], NEAR_COPY])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    again = write_jsonl(
        tmp_path / "again.jsonl",
        [
            {"id": "p0", "text": OTHERS[2]},
            {"id": "gap", "text": UNRELATED},
            {"id": "copy", "text": OTHERS[2].replace("종교", "학문")},
        ],
    )
    done = cli_here(dbfile, "import", "corpus", str(again), "--chunking", "again")
    assert done.returncode == 0, done.stderr
    assert [f["passage_id"] for f in _similar(dbfile, "p0")][0] == "p2"
    assert [f["passage_id"] for f in _similar(dbfile, "p0", "--chunking", "again")] == ["copy"]
    first = cli(dbfile, "similar", "p0", "--json", "--chunking", "corpus")
    assert first.returncode == 0 and json.loads(first.stdout)["similar"][0]["passage_id"] == "p2"
    error = refused_by_cli(dbfile, "similar", "p0", "--chunking", "nope")
    assert error == (
        "recall-reviewer: there is no chunking 'nope' (there are: 'corpus', 'again')\n"
    )
    error = refused_by_cli(dbfile, "similar", "p4", "--chunking", "again")
    assert error == "recall-reviewer: no passage 'p4' in chunking 'again'\n"


@pytest.mark.parametrize("size", [0, 5, 400, 401, 2000, 7000])
def test_best_first_is_the_whole_sort_taken_a_block_at_a_time(size):
    """similar_passages takes the best shares without sorting every passage that shares a
    pair (at a million passages that sort held about 60 MB): the order is the whole sort's,
    ties by key, across the blocks it takes."""
    import random

    from db.similar import _best_first

    rng = random.Random(size)
    shares = {rng.randrange(10**6): rng.choice([0.1, 0.25, 0.5, rng.random()]) for _ in range(size)}
    whole = sorted(shares.items(), key=lambda s: (-s[1], s[0]))
    assert list(_best_first(shares.items)) == whole


def test_every_share_summed_in_an_array_gives_the_dicts_floats(dbfile, tmp_path):
    """The array that sums the shares at a million passages gives each passage the very float
    the dict (_shares, which pair_scores' path uses) gives, and leaves out the excluded."""
    from db.similar import pair_tokens
    from desktop.project import Project

    texts = _spread([ORIGINAL, *OTHERS, UNRELATED, NEAR_COPY, PARAPHRASE])
    assert cli_here(dbfile, "import", "corpus", str(_corpus(tmp_path, texts))).returncode == 0
    with Project(dbfile) as project:
        store = project.store
        weights = store._term_weights(pair_tokens(ORIGINAL))
        excluded = store._excluded(store.passage_pks(["p0"])["p0"])
        every = dict(store._every_share(weights, excluded)())
        whole = {p: s for p, s in store._shares(weights).items() if p not in excluded}
    assert len(every) > 3 and every == whole
