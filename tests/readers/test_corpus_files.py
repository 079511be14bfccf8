"""A corpus in many files (issue 9, point 9): several files or a folder are one corpus in one
transaction, each passage keeps its file's name, a bad line anywhere refuses them all, and
progress names every phase."""

import json

import pytest

from desktop import readers
from tests.helpers import cli, snapshot, write_jsonl, write_text


def volumes(folder, n=3, per=4):
    """n volume files of per passages each: v1.jsonl has p1-1 … p1-4, and so on."""
    folder.mkdir(exist_ok=True)
    return [
        write_jsonl(
            folder / f"v{v}.jsonl",
            [{"id": f"p{v}-{i}", "text": f"권{v} 문단 {i}", "title": f"권{v}"} for i in range(per)],
        )
        for v in range(1, n + 1)
    ]


def source_files(project) -> dict[str, str]:
    return {
        pid: json.loads(project.store.passage(pid)["meta"])["source_file"]
        for pid in ("p1-0", "p2-3", "p3-1")
    }


def test_three_files_are_one_corpus_with_their_source_files(project, tmp_path):
    files = volumes(tmp_path / "vols")
    result = cli(project.path, "import", "corpus", *map(str, files), "--name", "말씀선집")
    assert result.returncode == 0, result.stderr
    assert "imported 12 passages from 3 files" in result.stdout
    assert project.info()["passages"] == 12
    assert source_files(project) == {"p1-0": "v1.jsonl", "p2-3": "v2.jsonl", "p3-1": "v3.jsonl"}
    corpus = project.store.corpus()
    assert corpus["name"] == "말씀선집" and "(3 files)" in corpus["source_file"]
    logged = [(r["source_file"], r["rows"]) for r in project.store.import_log()]
    assert logged == [(str(f.resolve()), 4) for f in files], "one import-log line per file"
    # the search index covers every file
    assert [p["id"] for p in project.store.search_passages(["권3 문단"])][:1] == ["p3-0"]


def test_a_bad_line_in_the_third_file_refuses_all(project, tmp_path):
    files = volumes(tmp_path / "vols")
    with open(files[2], "a", encoding="utf-8") as handle:
        handle.write('{"id": "p3-9"}\n')
    before = snapshot(project.path)
    result = cli(project.path, "import", "corpus", *map(str, files))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{files[2]}:5: ") and "no 'text'" in result.stderr
    assert snapshot(project.path) == before and project.info()["passages"] == 0


def test_a_duplicate_across_files_names_both_places(project, tmp_path):
    files = volumes(tmp_path / "vols")
    write_jsonl(files[2], [{"id": "p3-0", "text": "x"}, {"id": "p1-2", "text": "again"}])
    before = snapshot(project.path)
    result = cli(project.path, "import", "corpus", *map(str, files))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{files[2]}:2: passage id 'p1-2' appears twice")
    assert f"(first at {files[0]}:3)" in result.stderr
    assert snapshot(project.path) == before


def test_a_folder_is_its_jsonl_csv_tsv_files_in_name_order(project, tmp_path):
    folder = tmp_path / "vols"
    volumes(folder, n=2)
    write_text(folder / "a.csv", "id,text,권\nc1,쉼표 파일,7\n")
    write_text(folder / "z.tsv", "id\ttext\nt1\t탭 파일\n")
    write_text(folder / "notes.txt", "not a corpus file")
    (folder / "sub").mkdir()
    write_jsonl(folder / "sub" / "v9.jsonl", [{"id": "deep", "text": "하위 폴더"}])
    result = cli(project.path, "import", "corpus", str(folder))
    assert result.returncode == 0, result.stderr
    assert project.info()["passages"] == 10 and project.store.passage("deep") is None
    assert json.loads(project.store.passage("c1")["meta"]) == {"권": "7", "source_file": "a.csv"}
    assert json.loads(project.store.passage("t1")["meta"])["source_file"] == "z.tsv"
    # name order: a.csv, v1.jsonl, v2.jsonl, z.tsv
    after = [r["id"] for r in project.store.neighbours(project.store.passage("c1")["pk"], 0, 9)]
    assert after[0] == "p1-0" and after[4] == "p2-0" and after[-1] == "t1" and len(after) == 9
    assert project.store.corpus()["name"] == "vols"


def test_an_empty_folder_is_refused(project, tmp_path):
    (tmp_path / "empty").mkdir()
    write_text(tmp_path / "empty" / "readme.txt", "nothing here")
    before = snapshot(project.path)
    result = cli(project.path, "import", "corpus", str(tmp_path / "empty"))
    assert result.returncode == 2 and "no .jsonl, .csv or .tsv files" in result.stderr
    assert snapshot(project.path) == before


def test_one_file_keeps_its_metadata_as_it_was(project, tmp_path):
    (path,) = volumes(tmp_path / "vols", n=1)
    project.import_file("corpus", path)
    assert project.store.passage("p1-0")["meta"] is None
    assert project.store.corpus()["name"] == "v1"


def test_other_kinds_take_exactly_one_file(project, tmp_path):
    files = volumes(tmp_path / "vols", n=2)
    result = cli(project.path, "import", "questions", *map(str, files))
    assert result.returncode == 2 and "one file" in result.stderr
    with pytest.raises(readers.InputError):
        project.import_file("run", files, system="x")


def test_progress_names_every_phase(project, tmp_path):
    files = volumes(tmp_path / "vols", n=3, per=5000)
    total = sum(f.stat().st_size for f in files)
    seen: list[tuple[int, int, str | None]] = []
    project.import_file("corpus", files, progress=lambda d, t, p=None: seen.append((d, t, p)))
    phases = [p for _, _, p in seen]
    assert phases.index("reading") < phases.index("building the search index")
    assert phases.index("building the search index") < phases.index("saving")
    reading = [(d, t) for d, t, p in seen if p == "reading"]
    assert all(t == total for _, t in reading), "reading counts the bytes of all the files"
    assert [d for d, _ in reading] == sorted(d for d, _ in reading) and reading[-1][0] == total
    assert len(reading) >= 4, "reading moves within and across files"
    index = [(d, t) for d, t, p in seen if p == "building the search index"]
    # one bar over both indexes (trigram, then bigram), moving forward only
    assert index[-1] == (2 * 15_000, 2 * 15_000)
    assert [d for d, _ in index] == sorted(d for d, _ in index)

    seen.clear()
    questions = write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "질문"}])
    project.import_file("questions", questions)
    run = write_jsonl(tmp_path / "r.jsonl", [{"question_id": "q1", "results": ["p1-0"]}])
    project.import_file("run", run, system="bm25", progress=lambda *a: seen.append(a))
    assert [a[2] for a in seen if len(a) > 2].count("checking ids") == 1


def test_a_cancel_while_the_index_is_built_leaves_nothing(project, tmp_path):
    files = volumes(tmp_path / "vols", n=2, per=100)
    before = snapshot(project.path)

    def cancel_in_index(done, total, phase=None):
        if phase == "building the search index":
            raise readers.Cancelled

    with pytest.raises(readers.Cancelled):
        project.import_file("corpus", files, progress=cancel_in_index)
    assert snapshot(project.path) == before
