"""Build the bundled Recall Reviewer sample project from the Korean Constitution.

Run by hand (not at app run time; the app never imports this file or its libraries):

    pip install kiwipiepy bm25s
    python resources/sample/build_sample.py /path/to/constitution.txt

The argument may also be a konlpy wheel (the text is read from
``konlpy/data/corpus/kolaw/constitution.txt`` inside it). Without an argument the script uses
an importable ``konlpy`` package. Nothing is fetched from the network.

Outputs (next to this file): corpus.jsonl, questions.jsonl, gold.jsonl, runs/*.trec,
sample.json and README.md. The questions and their gold evidence are written out below as
literal data so that every choice can be reviewed.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import math
import re
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent
KOLAW_MEMBER = "konlpy/data/corpus/kolaw/constitution.txt"
TOP_K = 20
RRF_K = 60

# Kiwi part-of-speech tags kept as BM25 terms: common and proper nouns, numerals, numbers,
# foreign words, hanja, roots, verb and adjective stems (irregular forms such as "VV-I" too).
KIWI_TAGS = frozenset({"NNG", "NNP", "NR", "SN", "SL", "SH", "XR", "VV", "VA"})

# Gold evidence chosen by reading the articles. "role" missing means not yet assigned.
# "alternatives" are articles that state the same rule, so finding either counts.
QUESTIONS: list[dict] = [
    {
        "id": "q01",
        "text": "대통령 임기는 몇 년이고, 한 번 더 할 수 있나요?",
        "evidence": [
            {"passage_id": "art-070", "role": "core"},  # 임기 5년, 중임 불가
            {"passage_id": "art-128", "role": "supporting"},  # 임기연장 개정은 당시 대통령에 무효
        ],
    },
    {
        "id": "q02",
        "text": "대통령 선거에 출마하려면 나이가 몇 살 이상이어야 하나요?",
        "evidence": [
            {"passage_id": "art-067", "role": "core"},  # ④ 선거일 현재 40세
        ],
    },
    {
        "id": "q03",
        "text": "대통령이 갑자기 세상을 떠나면 누가 대신 나라를 이끄나요?",
        "evidence": [
            {"passage_id": "art-071", "role": "core"},  # 국무총리, 국무위원 순서로 권한대행
            {"passage_id": "art-068", "role": "supporting"},  # ② 궐위 시 60일 이내 후임자 선거
        ],
    },
    {
        "id": "q04",
        "text": "대통령을 탄핵하려면 국회에서 몇 명이 찬성해야 하고, 최종 결정은 누가 하나요?",
        "evidence": [
            {"passage_id": "art-065", "role": "core"},  # ② 과반수 발의, 3분의 2 찬성
            {"passage_id": "art-113", "role": "core"},  # ① 재판관 6인 이상 찬성
            {"passage_id": "art-111", "role": "supporting"},  # ① 2. 헌법재판소가 탄핵 심판
        ],
    },
    {
        "id": "q05",
        "text": "현직 대통령도 범죄를 저지르면 기소될 수 있나요?",
        "evidence": [
            {"passage_id": "art-084", "role": "core"},  # 내란·외환 외에는 재직중 소추 없음
        ],
    },
    {
        "id": "q06",
        "text": "국회의원은 몇 년마다 새로 뽑나요?",
        "evidence": [
            {"passage_id": "art-042", "role": "core"},  # 임기 4년
            {"passage_id": "art-041"},  # 보통·평등·직접·비밀선거로 선출
        ],
    },
    {
        "id": "q07",
        "text": "국회의원이 본회의에서 한 발언 때문에 고소당할 수 있나요?",
        "evidence": [
            {"passage_id": "art-045", "role": "core"},  # 면책특권
            {"passage_id": "art-044", "role": "supporting"},  # 불체포특권
        ],
    },
    {
        "id": "q08",
        "text": "대통령에게 통일을 위해 노력할 의무가 있나요?",
        "evidence": [
            # 제66조③ 평화적 통일을 위한 성실한 의무; 제69조 취임선서에서 같은 약속
            {"passage_id": "art-066", "role": "core", "alternatives": ["art-069"]},
            {"passage_id": "art-004", "role": "supporting"},  # 평화적 통일 정책
        ],
    },
    {
        "id": "q09",
        "text": "국회가 통과시킨 법안에 대통령이 반대하면 어떻게 되나요?",
        "evidence": [
            {"passage_id": "art-053", "role": "core"},  # 재의 요구, 3분의 2 재의결로 확정
        ],
    },
    {
        "id": "q10",
        "text": "정부 예산안은 언제까지 국회에 내야 하나요?",
        "evidence": [
            {"passage_id": "art-054", "role": "core"},  # ② 회계연도 개시 90일전
            {"passage_id": "art-089", "role": "supporting"},  # 4. 예산안은 국무회의 심의
        ],
    },
    {
        "id": "q11",
        "text": "국회가 정부 예산을 마음대로 늘릴 수 있나요?",
        "evidence": [
            {"passage_id": "art-057", "role": "core"},  # 정부 동의 없이 증액 불가
            {"passage_id": "art-054", "role": "supporting"},  # 국회의 예산 심의·확정
        ],
    },
    {
        "id": "q12",
        "text": "세금의 종류와 세율은 누가 정하나요?",
        "evidence": [
            {"passage_id": "art-059", "role": "core"},  # 조세의 종목과 세율은 법률로
            {"passage_id": "art-038", "role": "supporting"},  # 납세의 의무
        ],
    },
    {
        "id": "q13",
        "text": "경찰이 우리 집을 뒤지려면 영장이 꼭 있어야 하나요?",
        "evidence": [
            # 제16조 주거 압수·수색 영장; 제12조③ 압수·수색 영장주의 (같은 규칙)
            {"passage_id": "art-016", "role": "core", "alternatives": ["art-012"]},
        ],
    },
    {
        "id": "q14",
        "text": "체포되면 변호사 도움을 받을 수 있나요?",
        "evidence": [
            {"passage_id": "art-012", "role": "core"},  # ④ 변호인의 조력을 받을 권리
        ],
    },
    {
        "id": "q15",
        "text": "이미 처벌받은 일로 또 처벌받을 수 있나요?",
        "evidence": [
            {"passage_id": "art-013", "role": "core"},  # ① 거듭 처벌받지 아니한다
        ],
    },
    {
        "id": "q16",
        "text": "억울하게 구속됐다가 무죄가 나오면 나라에서 보상을 받을 수 있나요?",
        "evidence": [
            {"passage_id": "art-028", "role": "core"},  # 형사보상청구권
            {"passage_id": "art-029"},  # 국가배상청구권
        ],
    },
    {
        "id": "q17",
        "text": "재판은 누구나 방청할 수 있게 공개되나요?",
        "evidence": [
            # 제109조 심리와 판결 공개; 제27조③ 형사피고인의 공개재판을 받을 권리
            {"passage_id": "art-109", "role": "core", "alternatives": ["art-027"]},
        ],
    },
    {
        "id": "q18",
        "text": "군인이 아닌 일반 시민도 군사법원에서 재판받을 수 있나요?",
        "evidence": [
            {"passage_id": "art-027", "role": "core"},  # ② 민간인은 원칙적으로 군사재판 없음
            {"passage_id": "art-110", "role": "supporting"},  # 군사법원, 비상계엄하 군사재판
            {"passage_id": "art-077"},  # 비상계엄
        ],
    },
    {
        "id": "q19",
        "text": "정당을 강제로 해산시키려면 어떤 절차를 거쳐야 하나요?",
        "evidence": [
            # 제8조④ 정부 제소, 헌법재판소 심판으로 해산; 제111조① 3. 정당의 해산 심판
            {"passage_id": "art-008", "role": "core", "alternatives": ["art-111"]},
            {"passage_id": "art-113", "role": "supporting"},  # 재판관 6인 이상 찬성
            {"passage_id": "art-089"},  # 14. 정당해산의 제소는 국무회의 심의
        ],
    },
    {
        "id": "q20",
        "text": "헌법재판관은 몇 명이고 누가 뽑나요?",
        "evidence": [
            {"passage_id": "art-111", "role": "core"},  # ②③ 9인, 국회 3·대법원장 3 지명
            {"passage_id": "art-112", "role": "supporting"},  # 임기 6년
        ],
    },
    {
        "id": "q21",
        "text": "대법원장은 누가 임명하고 임기는 얼마나 되나요?",
        "evidence": [
            {"passage_id": "art-104", "role": "core"},  # 국회 동의, 대통령 임명
            {"passage_id": "art-105", "role": "core"},  # 임기 6년, 중임 불가
        ],
    },
    {
        "id": "q22",
        "text": "나라가 특정 종교를 국교로 정할 수 있나요?",
        "evidence": [
            {"passage_id": "art-020", "role": "core"},  # ② 국교 불인정, 정교분리
            {"passage_id": "art-011", "role": "supporting"},  # 종교에 의한 차별 금지
        ],
    },
    {
        "id": "q23",
        "text": "정부가 신문 기사를 미리 검열해도 되나요?",
        "evidence": [
            {"passage_id": "art-021", "role": "core"},  # ② 검열 불인정
            {"passage_id": "art-077", "role": "supporting"},  # ③ 비상계엄 시 특별한 조치
        ],
    },
    {
        "id": "q24",
        "text": "공무원도 노조를 만들고 파업할 수 있나요?",
        "evidence": [
            {"passage_id": "art-033", "role": "core"},  # ② 법률이 정하는 공무원만
            {"passage_id": "art-007", "role": "supporting"},  # 공무원의 지위와 중립성
        ],
    },
    {
        "id": "q25",
        "text": "초등학교 다니는 데 돈을 내야 하나요?",
        "evidence": [
            {"passage_id": "art-031", "role": "core"},  # ②③ 초등교육 의무, 의무교육 무상
        ],
    },
    {
        "id": "q26",
        "text": "나라가 도로를 낸다며 내 땅을 가져가면 보상을 받을 수 있나요?",
        "evidence": [
            {"passage_id": "art-023", "role": "core"},  # ③ 수용과 정당한 보상
        ],
    },
    {
        "id": "q27",
        "text": "헌법을 고치려면 어떤 절차를 밟아야 하나요?",
        "evidence": [
            {"passage_id": "art-128", "role": "core"},  # 제안
            {"passage_id": "art-130", "role": "core"},  # 국회 의결, 국민투표
            {"passage_id": "art-129", "role": "supporting"},  # 20일 이상 공고
            {"passage_id": "art-089"},  # 3. 헌법개정안은 국무회의 심의
        ],
    },
    {
        "id": "q28",
        "text": "전쟁이 나면 대통령이 계엄을 선포할 수 있나요? 국회가 이를 풀 수 있나요?",
        "evidence": [
            {"passage_id": "art-077", "role": "core"},  # ① 선포, ⑤ 국회 해제 요구
            {"passage_id": "art-089", "role": "supporting"},  # 5. 계엄과 그 해제 심의
        ],
    },
    {
        "id": "q29",
        "text": "국무총리는 어떻게 임명되나요?",
        "evidence": [
            {"passage_id": "art-086", "role": "core"},  # 국회 동의, 대통령 임명
            {"passage_id": "art-063", "role": "supporting"},  # 국회의 해임건의
        ],
    },
    {
        "id": "q30",
        "text": "지금 헌법은 언제부터 시행되었나요?",
        "evidence": [
            {"passage_id": "addenda-01", "role": "core"},  # 1988년 2월 25일부터 시행
            {"passage_id": "preamble"},  # 1948년 제정, 8차 개정
        ],
    },
    {
        "id": "q31",
        "text": "여성이라는 이유로 회사에서 차별을 받으면 헌법에 어긋나나요?",
        "evidence": [
            # 제32조④ 여자의 고용·임금·근로조건 차별 금지; 제11조① 성별에 의한 차별 금지
            {"passage_id": "art-032", "role": "core", "alternatives": ["art-011"]},
            {"passage_id": "art-034"},  # ③ 여자의 복지와 권익 향상
        ],
    },
    {
        "id": "q32",
        "text": "음주운전으로 적발되면 벌금이 얼마나 나오나요?",
        "answerable": False,  # 도로교통법의 문제: 헌법에 없음
        "evidence": [],
    },
    {
        "id": "q33",
        "text": "올해 최저임금은 시간당 얼마인가요?",
        "answerable": False,  # 제32조는 최저임금제만 정하고 금액은 없음
        "evidence": [],
    },
]

SYSTEMS = [
    {
        "name": "BM25-Kiwi",
        "file": "runs/bm25-kiwi.trec",
        "tag": "bm25-kiwi",
        "method": (
            "bm25s BM25 (Lucene variant, k1=1.5, b=0.75) over kiwipiepy morphemes "
            "(tags NNG NNP NR SN SL SH XR VV VA, irregular VV/VA forms included), top 20"
        ),
    },
    {
        "name": "BM25-Bigram",
        "file": "runs/bm25-bigram.trec",
        "tag": "bm25-bigram",
        "method": (
            "bm25s BM25 (Lucene variant, k1=1.5, b=0.75) over Hangul character bigrams "
            "within each run of Hangul syllables (no bigram crosses a space or other "
            "character; a one-syllable run is kept as one term), top 20"
        ),
    },
    {
        "name": "RRF",
        "file": "runs/rrf.trec",
        "tag": "rrf",
        "method": (
            "reciprocal-rank fusion of BM25-Kiwi and BM25-Bigram top 20 lists, "
            "score = sum of 1/(60 + rank), top 20"
        ),
    },
]


# ---------------------------------------------------------------------------------------------
# Source text


def read_source(arg: str | None) -> tuple[str, str]:
    """Return (text, description of where it came from)."""
    if arg is None:
        spec = importlib.util.find_spec("konlpy")
        if spec is None or not spec.submodule_search_locations:
            sys.exit(
                "usage: build_sample.py CONSTITUTION_TXT_OR_KONLPY_WHEEL\n"
                "(konlpy is not importable, so give the file)"
            )
        path = Path(next(iter(spec.submodule_search_locations))).parent / KOLAW_MEMBER
        raw, where = path.read_bytes(), str(path)
    elif arg.endswith(".whl"):
        with zipfile.ZipFile(arg) as wheel:
            raw = wheel.read(KOLAW_MEMBER)
        where = f"{Path(arg).name}!{KOLAW_MEMBER}"
    else:
        raw, where = Path(arg).read_bytes(), arg
    text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    digest = hashlib.sha256(raw).hexdigest()
    return text, f"{where} (sha256 {digest})"


CHAPTER_RE = re.compile(r"^제\d+장\s+\S")
SECTION_RE = re.compile(r"^제\d+절\s+\S")
SUBSECTION_RE = re.compile(r"^제\d+관\s+\S")
ARTICLE_RE = re.compile(r"^제(\d+)조(?=\s|①)")
# The kolaw file was scraped from a web page: "펼침  부칙 <헌법 제10호, 1987.10.29.>  부칙보기"
ADDENDA_RE = re.compile(r"부칙\s*(<[^>]*>)")


def chunk(text: str) -> list[dict]:
    """One passage for the preamble, one per article (조) and one per addenda article."""
    lines = [line.strip() for line in text.split("\n")]
    if not lines or lines[0] != "대한민국헌법":
        raise ValueError("first line is not 대한민국헌법: not the kolaw constitution.txt?")
    preamble: list[str] = []
    passages: list[dict] = []
    chapter = section = subsection = None
    in_addenda = False
    current: dict | None = None
    for line in lines[1:]:
        if not line:
            continue
        addenda = ADDENDA_RE.search(line)
        if addenda and not ARTICLE_RE.match(line):
            chapter, section, subsection = f"부칙 {addenda.group(1)}", None, None
            in_addenda, current = True, None
            continue
        if CHAPTER_RE.match(line):
            chapter, section, subsection, current = line, None, None, None
            continue
        if SECTION_RE.match(line):
            section, subsection, current = line, None, None
            continue
        if SUBSECTION_RE.match(line):
            subsection, current = line, None
            continue
        article = ARTICLE_RE.match(line)
        if article:
            number = int(article.group(1))
            if in_addenda:
                pid, title = f"addenda-{number:02d}", f"부칙 제{number}조"
            else:
                pid, title = f"art-{number:03d}", f"제{number}조"
            current = {"id": pid, "lines": [line], "title": title, "chapter": chapter}
            if section:
                current["section"] = section
            if subsection:
                current["subsection"] = subsection
            current["article"] = number
            passages.append(current)
            continue
        if chapter is None:
            preamble.append(line)
        elif current is None:
            raise ValueError(f"text outside any article: {line[:40]!r}")
        else:
            current["lines"].append(line)
    main = [p["article"] for p in passages if p["id"].startswith("art-")]
    extra = [p["article"] for p in passages if p["id"].startswith("addenda-")]
    if main != list(range(1, len(main) + 1)) or extra != list(range(1, len(extra) + 1)):
        raise ValueError("articles are not numbered 1..n in order")
    out = [{"id": "preamble", "text": "\n".join(preamble), "title": "전문"}]
    for p in passages:
        record = {"id": p["id"], "text": "\n".join(p["lines"])}
        record.update({k: v for k, v in p.items() if k not in ("id", "lines")})
        out.append(record)
    return out


# ---------------------------------------------------------------------------------------------
# Retrieval


def kiwi_tokenizer():
    from kiwipiepy import Kiwi

    kiwi = Kiwi()

    def tokenize(text: str) -> list[str]:
        return [t.form for t in kiwi.tokenize(text) if t.tag.split("-")[0] in KIWI_TAGS]

    return tokenize


HANGUL_RUN = re.compile(r"[가-힣]+")


def bigrams(text: str) -> list[str]:
    terms: list[str] = []
    for run in HANGUL_RUN.findall(text):
        if len(run) == 1:
            terms.append(run)
        else:
            terms.extend(run[i : i + 2] for i in range(len(run) - 1))
    return terms


def ranked(scores: dict[str, float], digits: int) -> list[tuple[str, float]]:
    """Top 20 by score descending, exact ties by passage id descending (trec_eval's order).

    Scores are rounded to the printed precision first, so the file order is the order
    trec_eval sees. Passages with no score (0: no shared term) are not listed.
    """
    rounded = [(pid, round(s, digits)) for pid, s in scores.items() if round(s, digits) > 0]
    rounded.sort(key=lambda item: item[0], reverse=True)
    rounded.sort(key=lambda item: item[1], reverse=True)  # stable: ties keep id descending
    return rounded[:TOP_K]


def bm25_run(passages: list[dict], questions: list[dict], tokenize) -> dict:
    import bm25s

    ids = [p["id"] for p in passages]
    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    retriever.index([tokenize(p["text"]) for p in passages], show_progress=False)
    run = {}
    for q in questions:
        term_ids = retriever.get_tokens_ids(tokenize(q["text"]))
        if term_ids:
            values = retriever.get_scores_from_ids(term_ids)
        else:
            values = [0.0] * len(ids)
        run[q["id"]] = ranked({pid: float(v) for pid, v in zip(ids, values, strict=True)}, 4)
    return run


def rrf_run(*runs: dict) -> dict:
    fused = {}
    for qid in runs[0]:
        scores: dict[str, float] = {}
        for run in runs:
            for rank, (pid, _) in enumerate(run[qid], start=1):
                scores[pid] = scores.get(pid, 0.0) + 1.0 / (RRF_K + rank)
        fused[qid] = ranked(scores, 6)
    return fused


# ---------------------------------------------------------------------------------------------
# Output


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def trec(run: dict, tag: str, digits: int) -> str:
    lines = []
    for qid, results in run.items():
        for rank, (pid, score) in enumerate(results, start=1):
            lines.append(f"{qid} Q0 {pid} {rank} {score:.{digits}f} {tag}\n")
    return "".join(lines)


def recall(run: dict, gold: dict, k: int) -> float:
    """Mean Recall@K over questions with evidence (design.md section 3, with alternatives)."""
    values = []
    for qid, items in gold.items():
        if not items:
            continue
        seen: list[str] = []
        for pid, _ in run.get(qid, []):
            if pid not in seen:
                seen.append(pid)
        top = set(seen[:k])
        found = sum(1 for e in items if top & {e["passage_id"], *e.get("alternatives", [])})
        values.append(found / len(items))
    return sum(values) / len(values)


def version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


README = """\
# Sample project: 대한민국헌법 (Constitution of the Republic of Korea)

A small, real Korean evaluation set for Recall Reviewer: the Constitution split into one
passage per article (조), {n_questions} hand-written questions with gold evidence, and three
real retrieval runs.
대한민국헌법을 조 단위로 나눈 말뭉치, 직접 작성한 질문 {n_questions}개와 정답 근거, 실제 검색
방법 세 가지의 결과로 이루어진 예제 프로젝트입니다.

## Licence

The text of the Constitution is not protected by copyright in Korea: the Copyright Act
(저작권법) article 7 excludes the constitution, laws and other statutes from protection, so it
is in the public domain. It is taken from the `kolaw` corpus shipped in the konlpy package
(`{member}`). The questions, gold evidence, runs and build script
are part of this project.

## Contents

- `corpus.jsonl`: {n_passages} passages, the preamble (`preamble`), articles 1–{n_articles}
  (`art-001` …) and addenda articles 1–{n_addenda} (`addenda-01` …), each with `title`,
  `chapter`, `section` and `subsection` where the text has them, and `article`.
- `questions.jsonl`: {n_questions} questions; {n_abstain} should be abstained on
  (`"answerable": false`, no evidence).
- `gold.jsonl`: {n_items} evidence items: core {n_core}, supporting {n_supporting},
  unassigned {n_unassigned}; {n_alt} have alternatives.
- `runs/*.trec`: TREC runs, at most {top_k} passages per question (passages sharing no term
  with the question are not listed):
  {systems}.
- `sample.json`: the project description the app opens.
- `build_sample.py`: the script that made all of the above.

The questions are phrased as a user would ask them, not copied from the articles, so the
lexical systems miss some evidence. Recall@K over the {n_answerable} questions with evidence
(alternatives count, as in the app):

| system | Recall@5 | Recall@10 |
| --- | --- | --- |
{recall_rows}

## How it was built

```
pip download --no-deps konlpy -d /tmp/konlpy
pip install kiwipiepy bm25s
python resources/sample/build_sample.py /tmp/konlpy/{wheel}
```

Built with Python {python}, kiwipiepy {kiwipiepy} (model {kiwipiepy_model}), bm25s {bm25s},
numpy {numpy}, offline. Source file {source_name}, sha256
`{sha256}`.
Its CRLF line ends and the web-page residue around the addenda heading ("펼침 … 부칙보기")
are dropped. The app itself needs none of konlpy, kiwipiepy or bm25s.
"""


def main(argv: list[str]) -> int:
    text, where = read_source(argv[1] if len(argv) > 1 else None)
    passages = chunk(text)
    ids = {p["id"] for p in passages}

    questions = [
        {"id": q["id"], "text": q["text"], "answerable": q.get("answerable", True)}
        for q in QUESTIONS
    ]
    gold = {q["id"]: q["evidence"] for q in QUESTIONS}
    for qid, items in gold.items():
        for e in items:
            for pid in (e["passage_id"], *e.get("alternatives", [])):
                if pid not in ids:
                    raise SystemExit(f"{qid}: gold passage {pid} is not in the corpus")

    kiwi = bm25_run(passages, questions, kiwi_tokenizer())
    bigram = bm25_run(passages, questions, bigrams)
    runs = {"bm25-kiwi": (kiwi, 4), "bm25-bigram": (bigram, 4), "rrf": (rrf_run(kiwi, bigram), 6)}
    for tag, (run, _) in runs.items():
        for qid, results in run.items():
            if len(results) < TOP_K:
                print(f"note: {tag} {qid} has only {len(results)} passages with a score > 0")
            assert all(pid in ids for pid, _ in results)

    write_text(OUT / "corpus.jsonl", jsonl(passages))
    write_text(OUT / "questions.jsonl", jsonl(questions))
    write_text(
        OUT / "gold.jsonl",
        jsonl([{"question_id": qid, "evidence": items} for qid, items in gold.items()]),
    )
    for system in SYSTEMS:
        run, digits = runs[system["tag"]]
        write_text(OUT / system["file"], trec(run, system["tag"], digits))
    sample = {
        "corpus": {
            "name": "대한민국헌법 (조 단위)",
            "unit": "조",
            "chunk_size": None,
            "overlap": 0,
            "source": "konlpy kolaw constitution.txt",
        },
        "questions": "questions.jsonl",
        "gold": "gold.jsonl",
        "corpus_file": "corpus.jsonl",
        "systems": [{k: s[k] for k in ("name", "file", "method")} for s in SYSTEMS],
    }
    write_text(OUT / "sample.json", json.dumps(sample, ensure_ascii=False, indent=2) + "\n")

    items = [e for q in QUESTIONS for e in q["evidence"]]
    rows = []
    print(f"{len(passages)} passages, {len(questions)} questions, {len(items)} evidence items")
    for system in SYSTEMS:
        run, _ = runs[system["tag"]]
        r5, r10 = recall(run, gold, 5), recall(run, gold, 10)
        print(f"{system['name']:<12} Recall@5 {r5:.3f}  Recall@10 {r10:.3f}")
        rows.append(f"| {system['name']} | {r5:.3f} | {r10:.3f} |")
        if math.isclose(r10, 0.0) or math.isclose(r5, 1.0):
            print(f"warning: {system['name']} does not discriminate")

    source_name, _, rest = where.partition(" (sha256 ")
    wheel = source_name.split("!")[0] if ".whl!" in source_name else "konlpy-*.whl"
    readme = README.format(
        n_questions=len(questions),
        n_abstain=sum(1 for q in questions if not q["answerable"]),
        n_answerable=sum(1 for v in gold.values() if v),
        n_passages=len(passages),
        n_articles=sum(1 for p in passages if p["id"].startswith("art-")),
        n_addenda=sum(1 for p in passages if p["id"].startswith("addenda-")),
        n_items=len(items),
        n_core=sum(1 for e in items if e.get("role") == "core"),
        n_supporting=sum(1 for e in items if e.get("role") == "supporting"),
        n_unassigned=sum(1 for e in items if "role" not in e),
        n_alt=sum(1 for e in items if e.get("alternatives")),
        top_k=TOP_K,
        systems=", ".join(f"`{Path(s['file']).name}` ({s['name']})" for s in SYSTEMS),
        recall_rows="\n".join(rows),
        member=KOLAW_MEMBER,
        wheel=wheel,
        python=".".join(map(str, sys.version_info[:3])),
        kiwipiepy=version("kiwipiepy"),
        kiwipiepy_model=version("kiwipiepy_model"),
        bm25s=version("bm25s"),
        numpy=version("numpy"),
        source_name=Path(source_name.split("!")[-1]).name,
        sha256=rest.rstrip(")"),
    )
    write_text(OUT / "README.md", readme)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
