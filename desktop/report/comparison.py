"""The Comparison sheet (desktop.compare's results): union recall, what each system alone
finds, ties at the cutoff, abstention, and last (under the autofilter) win/tie/loss with
corrected p-values, one function per section."""

from __future__ import annotations

from desktop.evaluation import compare
from desktop.report.cells import h
from desktop.report.sheet import Sheet


def comparison_sheet(sheet: Sheet, c: compare.Comparison, alpha: float) -> None:
    """The Comparison sheet, its sections in order."""
    names, ks = c.systems, c.ks
    sheet.append(
        [
            f"Comparison of {len(names)} systems over {c.evaluated} evaluated questions at "
            f"K = {', '.join(map(str, ks))} 시스템 비교"
        ],
        "title",
    )
    _union(sheet, c)
    _unique(sheet, c)
    _a_finds_b_misses(sheet, c)
    _ties(sheet, c)
    _abstention(sheet, c)
    _pairs(sheet, c, alpha)


def _union(sheet: Sheet, c: compare.Comparison) -> None:
    """Union Recall@K of all systems and of each pair."""
    names, ks = c.systems, c.ks
    recall = [f"Recall@{k}" for k in ks]
    sheet.blank()
    sheet.append(["Union Recall@K: what a perfect fusion could reach 합집합 재현율"], "bold")
    sheet.header([h("systems", "시스템"), h("how many", "수"), *recall])
    union: dict[tuple, dict[int, float | None]] = {}
    for u in c.union:
        union.setdefault(tuple(u["systems"]), {})[u["k"]] = u["Recall"]
    for systems, values in union.items():
        label = "all systems 전체" if len(systems) == len(names) else " + ".join(systems)
        sheet.append(
            [label, len(systems), *(values[k] for k in ks)], [None, None] + ["num"] * len(ks)
        )


def _unique(sheet: Sheet, c: compare.Comparison) -> None:
    """Evidence items only one system finds, per K."""
    names, ks = c.systems, c.ks
    sheet.blank()
    sheet.append(["Evidence items only this system finds 이 시스템만 찾은 근거"], "bold")
    sheet.header([h("system", "시스템"), *(f"only@{k}" for k in ks)])
    unique = {(u["system"], u["k"]): u["items"] for u in c.unique}
    for name in names:
        sheet.append([name, *(unique[(name, k)] for k in ks)])


def _a_finds_b_misses(sheet: Sheet, c: compare.Comparison) -> None:
    """Per K, the items the row's system finds and the column's misses."""
    names, ks = c.systems, c.ks
    missed = {(m["a"], m["b"], m["k"]): m["items"] for m in c.a_finds_b_misses}
    for k in ks:
        sheet.blank()
        sheet.append(
            [
                f"Evidence items the row's system finds in its top {k} and the column's misses "
                f"행 시스템만 찾은 근거 (K = {k})"
            ],
            "bold",
        )
        sheet.header([h("A finds, B misses", "A 찾음, B 놓침"), *names])
        for a in names:
            sheet.append([a, *(None if a == b else missed[(a, b, k)] for b in names)])


def _ties(sheet: Sheet, c: compare.Comparison) -> None:
    """The range of every measure over tie orders at the cutoff (TREC runs)."""
    sheet.blank()
    sheet.append(
        [
            "Ties at the cutoff (TREC runs): the trec_eval order and the range over every order "
            "of passages with equal scores 동점 순위"
        ],
        "bold",
    )
    if c.ties:
        sheet.header(
            [
                h("system", "시스템"),
                h("metric", "지표"),
                h("trec_eval order", "trec_eval 순서"),
                h("lowest", "최저"),
                h("highest", "최고"),
                h("questions", "질문 수"),
            ]
        )
        for t in c.ties:
            sheet.append(
                [t.system, t.metric, t.value, t.low, t.high, t.questions],
                [None, None, "num", "num", "num", None],
            )
    else:
        sheet.append(["no TREC runs TREC 결과 없음"])


def _abstention(sheet: Sheet, c: compare.Comparison) -> None:
    """Abstention AUROC and threshold per system."""
    sheet.blank()
    sheet.append(
        [
            "Abstention: the top-1 score separating answerable questions (with evidence) from "
            "those to abstain on 답변 불가 판별"
        ],
        "bold",
    )
    if c.abstain:
        sheet.header(
            [
                h("system", "시스템"),
                "AUROC",
                h("answer when score ≥", "임계값"),
                h("accuracy", "정확도"),
                h("answerable", "답변 가능"),
                h("abstain", "답변 불가"),
            ]
        )
        for a in c.abstain:
            threshold = "never answer" if a.threshold is None else a.threshold
            sheet.append(
                [a.system, a.auroc, threshold, a.accuracy, a.answerable, a.abstain],
                [None, "num", None, "pct", None, None],
            )
    else:
        sheet.append(
            [
                "needs runs with scores and both answerable and abstain questions "
                "점수와 두 종류의 질문이 필요"
            ]
        )


def _pairs(sheet: Sheet, c: compare.Comparison, alpha: float) -> None:
    """Win/tie/loss, p and Holm-adjusted p for every ordered pair, measure and K."""
    sheet.blank()
    sheet.append(
        [
            f"Win / tie / loss per question and paired randomization test ({c.permutations} "
            f"sign flips, seed {c.seed}); p (Holm): Holm–Bonferroni adjusted over the family "
            f"of {c.family} tests (every pair × measure × K); ★ p (Holm) < {alpha:g} 승/무/패"
        ],
        "bold",
    )
    first = sheet.header(
        [
            h("system A", "시스템 A"),
            h("system B", "시스템 B"),
            h("metric", "지표"),
            h("A wins", "A 승"),
            h("ties", "무"),
            h("A loses", "A 패"),
            "p-value",
            h("p (Holm)", "보정 p"),
            f"★ (α = {alpha:g})",
        ]
    )
    for r in c.pairs:
        starred = r.p_holm is not None and r.p_holm < alpha
        sheet.append(
            [r.a, r.b, r.metric, r.wins, r.ties, r.losses, r.p, r.p_holm, "★" if starred else ""],
            [None] * 6 + ["p", "p", None],
        )
    sheet.autofilter(first, 9)
