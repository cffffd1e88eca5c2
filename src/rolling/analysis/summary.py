"""The per-seat summary of an analysis (its text for the terminal: :mod:`rolling.cli.analyze`).

Per seat: the decisions it took, its accuracy (:func:`rolling.analysis.labels.move_accuracy`,
averaged), how many inaccuracies, mistakes and blunders, the win probability and expected final
score it lost in all, and its three costliest decisions (by win probability lost; Market: by
dollars lost).
"""

from __future__ import annotations

from typing import Any

from .labels import LABELS, MARKET_THRESHOLDS, THRESHOLDS, move_accuracy


def summarize(game: str, names: list[str], decisions: list[dict[str, Any]], final: Any) -> dict[str, Any]:
    """The ``summary`` of the analysis JSON (docs/analysis.md)."""
    seats = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d["seat"] == seat]
        if game == "market":
            acc = [move_accuracy(100.0 * d["score_loss"] / max(1.0, d["best_score"])) for d in mine]
            key = "score_loss"
        else:
            acc = [move_accuracy(100.0 * d["loss"]) for d in mine]
            key = "loss"
        costly = sorted((d for d in mine if d[key] > 0), key=lambda d: (-d[key], d["n"]))[:3]
        seats.append({
            "seat": seat,
            "name": name,
            "decisions": len(mine),
            "accuracy": round(sum(acc) / len(acc), 1) if acc else None,
            **{lab: sum(1 for d in mine if d["label"] == lab) for lab in LABELS},
            "loss": round(sum(d["loss"] for d in mine), 6),
            "score_loss": round(sum(d["score_loss"] for d in mine), 6),
            "costliest": [d["n"] for d in costly],
        })
    standings = final.standings() if final is not None else []
    return {
        "seats": seats,
        "over": bool(getattr(final, "is_over", False)),
        "winners": [r["seat"] for r in standings if r["win"]] if getattr(final, "is_over", False) else [],
        "scores": {str(r["seat"]): r["score"] for r in standings},
        "thresholds": dict(MARKET_THRESHOLDS if game == "market" else THRESHOLDS),
        "loss_unit": "dollars of expected final cash" if game == "market" else "win probability",
    }
