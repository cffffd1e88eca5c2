"""The evaluation graph and tables of an analysed game (``rolling analyze``, docs/analysis.md) in a
report page: ``rolling analyze FILE --out page.html``, or ``rolling report analysis.json`` (alone
or among results files).

The graph has one line per player: that seat's win probability after each decision, from the
decider's information set (Market, one player: the expected final cash after each decision, and
what the best move found would have kept); mistakes and blunders are marked on the line of the
player who made them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rolling.report.page import Page
from rolling.report.plots import COLOURS, figure, png

TITLES = {"stars": "Rolling Stock Stars", "freight": "Rolling Freight", "market": "Rolling Market"}
#: marker of each label in the graph (matplotlib marker, colour)
MARKS = {"mistake": ("^", "#ff7f0e"), "blunder": ("X", "#d62728")}


def is_analysis(data: Any) -> bool:
    """Whether ``data`` (parsed JSON) is the output of ``rolling analyze --json``."""
    return isinstance(data, dict) and {"game", "names", "decisions", "summary"} <= set(data)


def load_analysis(path: str | Path) -> dict[str, Any]:
    """Read an analysis JSON file.

    Raises:
        ValueError: not JSON, or not an analysis.
        OSError: the file cannot be read.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON (line {e.lineno})") from None
    if not is_analysis(data):
        raise ValueError(f"{path}: not an analysis of rolling analyze --json")
    return data


def graph(analysis: dict[str, Any]) -> str:
    """The evaluation graph as a PNG ``data:`` URI (see the module docstring)."""
    decisions = analysis["decisions"]
    names = analysis["names"]
    market = analysis["game"] == "market"
    fig, (ax,) = figure(8.0, 3.6)
    xs = [d["n"] + 1 for d in decisions]
    if market:
        ax.plot(xs, [d["score_after"][0] for d in decisions], color=COLOURS[0], label="after the move played")
        ax.plot(xs, [d["best_score"] for d in decisions], color="#999999", linestyle="--", linewidth=1,
                label="with the best move found")
        ax.set_ylabel("expected final cash ($)")
    else:
        for seat, name in enumerate(names):
            ax.plot(xs, [d["win_after"][seat] for d in decisions], color=COLOURS[seat % len(COLOURS)],
                    linewidth=1.4, label=name)
        ax.set_ylim(0, 1)
        ax.set_ylabel("win probability")
    for lab, (marker, colour) in MARKS.items():
        pts = [(d["n"] + 1, d["score_after"][0] if market else d["win_after"][d["seat"]])
               for d in decisions if d["label"] == lab]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=colour, s=42,
                       edgecolors="black", linewidths=0.5, zorder=3, label=lab + "s")
    ax.set_xlabel("decision")
    # below the plot, where it hides no line
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=8, ncols=min(6, len(names) + 2), frameon=False)
    return png(fig)


def sections(page: Page, analysis: dict[str, Any]) -> None:
    """Add the analysis's sections to ``page``: the graph, the players' summary and the costliest
    decisions."""
    import pandas as pd

    s = analysis["summary"]
    market = analysis["game"] == "market"
    title = f"{TITLES.get(analysis['game'], analysis['game'])}: analysis"
    sec = page.section(title, f"analysis-{len(page.sections)}")
    sec.text(f"{len(analysis['decisions'])} decisions evaluated from each decider's information set, "
             f"budget {analysis['budget']} per decision, seed {analysis['seed']}. Labels: "
             + ", ".join(f"{k} from {v:g}" for k, v in s["thresholds"].items()) + f" ({s['loss_unit']} lost).",
             note=True)
    sec.figure(graph(analysis), "evaluation graph",
               "Expected final cash after each decision" if market else
               "Each player's win probability after each decision; mistakes and blunders marked")
    rows = []
    for r in s["seats"]:
        rows.append({"player": r["name"] + (" (winner)" if r["seat"] in s["winners"] else ""),
                     "decisions": r["decisions"],
                     "accuracy": "-" if r["accuracy"] is None else f"{r['accuracy']:.1f}",
                     "inaccuracies": r["inaccuracy"], "mistakes": r["mistake"], "blunders": r["blunder"],
                     ("$ lost" if market else "win % lost"): f"{r['score_loss']:.1f}" if market else f"{100 * r['loss']:.0f}"})
    sec.table(pd.DataFrame(rows))
    by_n = {d["n"]: d for d in analysis["decisions"]}
    costly = []
    for r in s["seats"]:
        for n in r["costliest"]:
            d = by_n[n]
            costly.append({"decision": n + 1, "player": r["name"], "played": d["played"],
                           "lost": f"${d['score_loss']:.1f}" if market else f"{100 * d['loss']:.0f}%",
                           "label": d["label"] or "", "best found": d["best_text"]})
    if costly:
        sec.heading("The costliest decisions")
        sec.table(pd.DataFrame(costly))


def build_analysis_page(analyses: list[dict[str, Any]], markdown: bool = False) -> str:
    """A page of one or more analyses (HTML, or Markdown with ``markdown``)."""
    games = sorted({a["game"] for a in analyses})
    page = Page(f"{' / '.join(TITLES.get(g, g) for g in games)}: game analysis")
    for a in analyses:
        sections(page, a)
    return page.markdown() if markdown else page.render()


def write_analysis_page(analysis: dict[str, Any], out: Path) -> Path:
    """Write the page of one analysis to ``out`` (Markdown when it ends in ``.md``)."""
    out.write_text(build_analysis_page([analysis], markdown=out.suffix.lower() == ".md"), encoding="utf-8")
    return out
