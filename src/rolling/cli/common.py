"""Commands that work for every game: ``rolling replay``."""

from __future__ import annotations

import json

import typer

from rolling.core.record import load_record, replay


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``rolling replay`` to the app."""

    @app.command("replay")
    def replay_cmd(
        record_file: str = typer.Argument(..., metavar="RECORD.json", help="a game record"),
        as_json: bool = typer.Option(False, "--json", help="print the standings as one JSON object"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="only the final standings"),
    ) -> None:
        """Replay a game record turn by turn and print the standings."""
        record = load_record(record_file)
        if not quiet and not as_json:
            from rolling.ui import narrate

            narrate.print_replay(record)
        state = replay(record)
        standings = state.standings()
        names = record.meta.get("names")
        if as_json:
            out = {"game": record.game, "is_over": state.is_over, "digest": state.digest(), "standings": standings}
            print(json.dumps(out))
            return
        print("Final standings" if state.is_over else "Standings (game not over)")
        for row in standings:
            name = names[row["seat"]] if names and row["seat"] < len(names) else f"Player {row['seat'] + 1}"
            print(f"  {row['rank']}. {name}: {row['score']}")
        winners = [row for row in standings if row["win"] and "hand" in row]
        if state.is_over and winners:  # Stars two-handed: the lower-ranked hand decides (standings' win)
            print(f"Two-handed variant: person {winners[0]['hand']} wins.")
