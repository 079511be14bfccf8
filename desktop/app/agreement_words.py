"""The agreement command's α and machine figures in words a reviewer reads (the pairwise κ
table stays in cli.py)."""

from __future__ import annotations

DASH = "—"


def figure(value: float | None, reason: str | None = None) -> str:
    if value is None:
        return f"{DASH} ({reason})" if reason else DASH
    return f"{value:.2f}"


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
        interval = ""
        if e["ci95"]:
            interval = f" (95%: {e['ci95'][0]:.2f}–{e['ci95'][1]:.2f})"
        lines.append(f"  {kind}: α {e['alpha']:.2f}{interval} over {_units(e['kind'], e['units'])}")
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
        if worst["alpha_without"] > together:
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
        together = figure(m["alpha"], m["alpha_reason"])
        if m["ci95"]:
            together += f" (95%: {m['ci95'][0]:.2f}–{m['ci95'][1]:.2f})"
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
