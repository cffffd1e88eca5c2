"""Rolling Stock Stars commands: ``rolling import-18xx`` and ``rolling bench stars``."""

from __future__ import annotations

import json
import sys

import typer

from rolling.core.errors import RecordError
from rolling.core.record import save_record


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add the Rolling Stock Stars commands."""

    @app.command("import-18xx")
    def import_18xx(
        export_file: str = typer.Argument(..., metavar="FILE.json", help="an 18xx.games export"),
        out: str = typer.Option(None, "--out", metavar="RECORD.json", help="write our game record here"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Replay an 18xx.games export of Rolling Stock Stars and compare the final scores.

        Exit 0 when every score matches the site's, 1 when they differ (the first refused or
        diverging action is printed), 2 when the file is not such an export.
        """
        from rolling.interop.e18xx import import_export, load_export

        data = load_export(export_file)
        result = import_export(data)
        if out:
            save_record(result.record, out)
        if as_json:
            print(
                json.dumps(
                    {"match": result.match, "players": result.players, "actions_applied": result.actions_applied}
                )
            )
        else:
            print(f"{'player':<24} {'score':>6} {'recorded':>9}")
            for p in result.players:
                mark = "" if p["score"] == p["recorded"] else "  <- differs"
                print(f"{p['name'] + ' (' + str(p['id']) + ')':<24} {p['score']:>6} {str(p['recorded']):>9}{mark}")
            print(f"{result.actions_applied} actions applied; {'scores match' if result.match else 'MISMATCH'}")
        if not result.match:
            print(f"rolling: {result.error}", file=sys.stderr)
            raise typer.Exit(1)

    @groups["bench"].command("stars")
    def bench_stars(
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
        seconds: float = typer.Option(3.0, "--seconds", help="time spent on each measurement"),
    ) -> None:
        """Measure replay speed, random-playout speed, clone() time and the replay time of two
        imported 18xx.games records (one core)."""
        from rolling.games.stars.bench import run_bench

        if not seconds > 0:
            raise RecordError(f"--seconds must be more than 0, not {seconds}")
        res = run_bench(seconds)
        if as_json:
            print(json.dumps(res))
            return
        print(f"replay:          {res['replay_actions_per_s']:,.0f} actions/s")
        print(f"random playouts: {res['random_games_per_s']:,.1f} 4-player games/s")
        print(f"clone():         {res['clone_us']:.2f} µs")
        for name, ms in res["fixture_replay_ms"].items():
            print(f"replay {name}: {ms:.2f} ms")
