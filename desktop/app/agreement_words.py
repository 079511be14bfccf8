"""The agreement command's α and machine figures in words a reviewer reads (the pairwise κ
table stays in cli.py)."""

from __future__ import annotations

DASH = "—"
RISE = 0.01  # α without a reviewer this much higher names them (less reads as noise)


def figure(value: float | None, reason: str | None = None) -> str:
    if value is None:
        return f"{DASH} ({reason})" if reason else DASH
    return f"{value:.2f}"


def interval(ci95) -> str:
    """(95%: 0.62–0.79)", or with a negative end "(95%: -0.06 to -0.05)"; "" without one."""
    if not ci95:
        return ""
    lo, hi = ci95
    joined = f"{lo:.2f}–{hi:.2f}" if lo >= 0 else f"{lo:.2f} to {hi:.2f}"
    return f" (95%: {joined})"


def _units(kind: str, n: int) -> str:
    return f"{n} {'questions' if kind == 'answerable' else 'items'}"


def alpha_lines(data: dict) -> list[str]:
    """Krippendorff's α per kind with its interval, and what each reviewer's absence does."""
    entries = data.get("alpha") or []
    if not entries:
        return []
    boot = data["bootstrap"]
    names = ", ".join(entries[0]["reviewers"]) or "nobody"
    lines = [
        f"Krippendorff's α, people together ({names}); 95% interval: bootstrap over items, "
        f"{boot['resamples']} resamples, seed {boot['seed']}:"
    ]
    for e in entries:
        kind = "all kinds" if e["kind"] == "all" else e["kind"]
        if e["alpha"] is None:
            lines.append(f"  {kind}: α {figure(None, e['reason'])}")
            continue
        shown = interval(e["ci95"])
        lines.append(f"  {kind}: α {e['alpha']:.2f}{shown} over {_units(e['kind'], e['units'])}")
    lines.extend(_without_lines(data, entries[-1]["alpha"]))
    return lines


def _without_lines(data: dict, together: float | None) -> list[str]:
    people = data.get("reviewers") or []
    if len(people) < 3:
        return []
    lines = [
        "  "
        + "; ".join(
            f"without {p['reviewer']}: {figure(p['alpha_without'], p['alpha_without_reason'])}"
            for p in people
        )
    ]
    scored = [p for p in people if p["alpha_without"] is not None]
    if together is not None and scored:
        worst = max(scored, key=lambda p: p["alpha_without"])
        if worst["alpha_without"] - together >= RISE:
            lines.append(
                f"  α rises most without {worst['reviewer']} ({together:.2f} → "
                f"{worst['alpha_without']:.2f}, {worst['judged']} items judged): "
                f"talk to {worst['reviewer']} first"
            )
    return lines


def machine_lines(data: dict) -> list[str]:
    """Each machine per kind against the people's consensus, its confusions in words."""
    lines: list[str] = []
    machine = None
    for m in data.get("machines") or []:
        if m["machine"] != machine:
            machine = m["machine"]
            lines.append(f"Machine {machine} against the people's consensus (the effective gold):")
        kappa = figure(m["kappa"], "one value only")
        together = figure(m["alpha"], m["alpha_reason"]) + interval(m["ci95"])
        unit = _units(m["kind"], m["items"])
        lines.append(
            f"  {m['kind']}: κ {kappa}, α {together} over {unit}, agreement {m['agreement']:.0%}"
        )
        wrong = [c for c in m["confusion"] if c["machine"] != c["people"]]
        if wrong:
            lines.append(
                "    "
                + "; ".join(
                    f"machine {c['machine']} / people {c['people']}: {c['items']}" for c in wrong
                )
            )
    return lines
