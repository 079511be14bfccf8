"""The agreement tab's words for the team: Krippendorff's α of the people together and the
machines among the reviewers (issue 22), from the agreement object (project.agreement())."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from desktop.gold import alpha as alpha_module

REASONS = {
    alpha_module.FEW_REVIEWERS: QT_TRANSLATE_NOOP("TeamWords", "fewer than two reviewers"),
    alpha_module.NO_PAIRS: QT_TRANSLATE_NOOP("TeamWords", "no item judged by two reviewers"),
    alpha_module.ONE_VALUE: QT_TRANSLATE_NOOP("TeamWords", "one value everywhere"),
}


def team_text(agreement: dict) -> str:
    """One or two sentences: α over every kind with its interval, and the machines."""
    entries = agreement.get("alpha") or []
    together = next((e for e in entries if e["kind"] == "all"), None)
    out = []
    if together is not None and together["alpha"] is None:
        reason = QCoreApplication.translate(
            "TeamWords", REASONS.get(together["reason"], together["reason"] or "")
        )
        out.append(
            QCoreApplication.translate("TeamWords", "Krippendorff's α: — ({reason}).").format(
                reason=reason
            )
        )
    elif together is not None:
        value = together["alpha"]
        lo, hi = together["ci95"] or (value, value)
        out.append(
            QCoreApplication.translate(
                "TeamWords", "Krippendorff's α: {alpha} (95%: {lo}–{hi}) over {n} items."
            ).format(alpha=f"{value:.2f}", lo=f"{lo:.2f}", hi=f"{hi:.2f}", n=together["units"])
        )
    machines = sorted({m["machine"] for m in agreement.get("machines") or []})
    if machines:
        out.append(
            QCoreApplication.translate(
                "TeamWords", "Machines (compared, never counted in the gold): {names}."
            ).format(names=", ".join(machines))
        )
    return " ".join(out)
