"""``rolling analyze FILE``: every decision of a game evaluated (:mod:`rolling.analysis`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from rolling.analysis.labels import LABELS
from rolling.cli.shared import columns_table, fail, print_table, whole_option

#: each label's column
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``rolling analyze``."""

    @app.command("analyze")
    def analyze_cmd(
        record_file: str = typer.Argument(..., metavar="FILE",
                                          help="a game record of this project or an 18xx.games export "
                                               "(Rolling Stock Stars)"),
        budget: str = typer.Option("0.2s", "--budget", metavar="BUDGET",
                                   help="per decision: CPU seconds (0.2s, 200ms) or determinizations (20)"),
        workers: int = whole_option(None, "--workers", help="worker processes (default: one per core)"),
        ray: str = typer.Option(None, "--ray", metavar="[ADDRESS]",
                                help="evaluate on Ray: a new local Ray, or the cluster at ADDRESS"),
        value: str = typer.Option("learned", "--value", metavar="learned|heuristic",
                                  help="Stars and Freight: the win probabilities at the horizon from the "
                                       "learned evaluation (default) or the heuristic valuation's softmax "
                                       "(docs/analysis.md)"),
        seed: int = whole_option(0, "--seed", signed=True, help="seeds the sampling of what each decider could not see"),
        as_json: bool = typer.Option(False, "--json", help="print the analysis as one JSON object "
                                     "(docs/analysis.md)"),
        out: str = typer.Option(None, "--out", metavar="FILE.html|FILE.json",
                                help="also write the analysis: a report page with the evaluation graph "
                                     "(.html) or the JSON (.json)"),
    ) -> None:
        """Evaluate every decision of a game from the decider's information set: each seat's win
        probability before and after, the best move found, what the move played lost, inaccuracies,
        mistakes and blunders, and an accuracy figure per player."""
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from rolling.analysis import analyze, read_game

        if out and Path(out).suffix.lower() not in (".html", ".htm", ".json"):
            fail(f"--out must end in .html or .json, not {Path(out).suffix or 'nothing'!r}")
        record = read_game(record_file)
        err = Console(stderr=True)
        with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("decisions", total=len(record.actions))
            result = analyze(record, budget=budget, seed=seed, workers=workers, ray=ray, value=value,
                             progress=lambda done, total: bar.update(task, completed=done))
        if out:
            try:
                if Path(out).suffix.lower() == ".json":
                    Path(out).write_text(json.dumps(result) + "\n", encoding="utf-8")
                else:
                    from rolling.report.analysis import write_analysis_page

                    write_analysis_page(result, Path(out))
            except OSError as e:
                fail(f"{out}: {e.strerror or e}")
        if as_json:
            json.dump(result, sys.stdout)
            sys.stdout.write("\n")
            return
        print_summary(result)
        if out:
            print(f"wrote {out}")


def print_summary(analysis: dict) -> None:
    """Print the players' table (decisions, accuracy, each label's count, what they lost) and each
    player's three costliest decisions with the best move found."""
    s = analysis["summary"]
    market = analysis["game"] == "market"
    by_n = {d["n"]: d for d in analysis["decisions"]}
    print(f"Analysis of a {analysis['game']} game: {len(analysis['decisions'])} decisions, "
          f"budget {analysis['budget']} per decision, seed {analysis['seed']}")
    table = columns_table("player", "decisions>", "accuracy>", *(PLURAL[lab] + ">" for lab in LABELS),
                          "$ lost>" if market else "win % lost>")
    for row in s["seats"]:
        won = " (winner)" if row["seat"] in s["winners"] else ""
        lost = f"{row['score_loss']:.1f}" if market else f"{100 * row['loss']:.0f}"
        acc = "-" if row["accuracy"] is None else f"{row['accuracy']:.1f}"
        table.add_row(row["name"] + won, str(row["decisions"]), acc, *(str(row[lab]) for lab in LABELS), lost)
    print_table(table, indent=2)
    for row in s["seats"]:
        if not row["costliest"]:
            continue
        print(f"{row['name']}: costliest decisions")
        for n in row["costliest"]:
            d = by_n[n]
            if market:
                cost = f"-${d['score_loss']:.1f}"
            else:
                cost = f"-{100 * d['loss']:.0f}% ({d['win_after'][d['seat']]:.0%} instead of {d['best_win']:.0%})"
            tag = f" [{d['label']}]" if d["label"] else ""
            print(f"  #{n + 1} {d['played']}: {cost}{tag}; best: {d['best_text']}")
