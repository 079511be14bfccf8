"""Reproduce NIST trec_eval's own test outputs through the real import path."""

import pytest

from tests.helpers import cli, corpus_of, questions_of, trec_ids

MEASURES = {
    "recall_5": "Recall@5",
    "recall_10": "Recall@10",
    "success_5": "Hit@5",
    "success_10": "Hit@10",
    "ndcg_cut_5": "nDCG@5",
    "ndcg_cut_10": "nDCG@10",
    "recip_rank": "MRR@1000",  # trec_eval does not cut recip_rank; K beyond the run length
}


def parse_trec_eval(path):
    values = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in MEASURES:
            values[(parts[0], parts[1])] = parts[2]
    return values


def load(project, tmp_path, ref, run_name):
    qrels, run = ref / "qrels.test", ref / run_name
    questions, passages = trec_ids(qrels, ref / "results.test")
    project.import_corpus(corpus_of(tmp_path / "corpus.jsonl", passages))
    project.import_questions(questions_of(tmp_path / "questions.jsonl", questions))
    project.import_gold(qrels, fmt="qrels")
    project.import_run(run, "STANDARD", fmt="trec")


@pytest.mark.parametrize(
    "run_name, expected", [("results.test", "out.test.aq"), ("results.trunc", "out.test.aqc")]
)
def test_matches_trec_eval_per_topic_and_mean(
    project, tmp_path, trec_reference, run_name, expected
):
    load(project, tmp_path, trec_reference, run_name)
    reference = parse_trec_eval(trec_reference / expected)
    evaluation = project.evaluate([5, 10, 1000])
    (system,) = evaluation.systems
    ids = {q["pk"]: q["id"] for q in evaluation.questions}
    checked = 0
    for (measure, topic), printed in reference.items():
        ours_label = MEASURES[measure]
        if topic == "all":
            value = system.means[ours_label]
        else:
            (pk,) = [pk for pk, qid in ids.items() if qid == topic]
            value = system.per_question[pk][ours_label]
        assert f"{value:.4f}" == printed, (measure, topic, value, printed)
        checked += 1
    assert checked == len(MEASURES) * 4  # three topics and 'all'


def test_missing_topic_scores_zero_like_trec_eval_c(project, tmp_path, trec_reference):
    load(project, tmp_path, trec_reference, "results.trunc")
    evaluation = project.evaluate([5, 10])
    (system,) = evaluation.systems
    assert system.evaluated == 3
    per = {q["id"]: system.per_question[q["pk"]] for q in evaluation.questions}
    assert per["302"]["Recall@10"] == 0 and per["302"]["nDCG@10"] == 0


def test_cli_metrics_json_reproduces_trec_eval(tmp_path, trec_reference):
    db = tmp_path / "cli.db"
    questions, passages = trec_ids(trec_reference / "qrels.test", trec_reference / "results.test")
    corpus = corpus_of(tmp_path / "corpus.jsonl", passages)
    qs = questions_of(tmp_path / "questions.jsonl", questions)

    def run(*args):
        done = cli(db, *args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("init")  # every command but init and demo refuses a database that does not exist
    run("import", "corpus", str(corpus))
    run("import", "questions", str(qs))
    run("import", "gold", str(trec_reference / "qrels.test"), "--format", "qrels")
    run(
        "import",
        "run",
        str(trec_reference / "results.test"),
        "--format",
        "trec",
        "--system",
        "STANDARD",
    )
    import json

    data = json.loads(run("metrics", "--k", "5,10", "--json"))
    reference = parse_trec_eval(trec_reference / "out.test.aq")
    (system,) = data["systems"]
    assert data["questions"] == {"total": 3, "evaluated": 3, "without_evidence": 0}
    for measure in (
        "recall_5",
        "recall_10",
        "success_5",
        "success_10",
        "ndcg_cut_5",
        "ndcg_cut_10",
    ):
        assert f"{system[MEASURES[measure]]:.4f}" == reference[(measure, "all")]
