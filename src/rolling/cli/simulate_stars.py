"""``rolling simulate stars``: many bot games of Rolling Stock Stars, with win rates and mean scores.

See :mod:`rolling.sim.stars` for how seats rotate and how wins are counted.
"""

from __future__ import annotations

import json
import time

import typer

from rolling.cli.session import fail, games_progress
from rolling.games.stars.config import Config


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``simulate stars`` to the ``simulate`` group."""

    @groups["simulate"].command("stars")
    def simulate_stars(
        games: int = typer.Option(200, "--games", help="number of games"),
        seats: str = typer.Option(
            "heuristic,random,random,random", "--seats", help="comma-separated bot names, one per player ({}-{})".format(*Config().player_range())
        ),
        seed: int = typer.Option(1, "--seed", help="game g is dealt with seed SEED + g"),
        as_json: bool = typer.Option(
            False, "--json", help='print one JSON object: {"games", "seats": [{"bot", "win_rate", "mean_score"}]}'
        ),
    ) -> None:
        """Play many bot games of Rolling Stock Stars and print each seat's win rate and mean score.

        Seats rotate through the player-order positions from game to game; a win is rank 1 after
        the rules' tie-break (player order), so the win rates add up to 1.
        """
        from rolling.bots import bot_names
        from rolling.sim.stars import simulate

        labels = [x.strip() for x in seats.split(",") if x.strip()]
        known = bot_names("stars")
        for name in labels:
            if name not in known:
                fail(f"unknown bot {name!r} in --seats (known: {', '.join(known)})")
        lo, hi = Config().player_range()
        if not lo <= len(labels) <= hi:
            fail(f"--seats must name {lo} to {hi} bots, not {len(labels)}")
        if games < 1:
            fail(f"--games must be 1 or more, not {games}")
        t0 = time.perf_counter()
        with games_progress("stars " + ",".join(labels), games, transient=as_json) as advance:
            stats = simulate(labels, games, seed, progress=advance)
        wall = time.perf_counter() - t0
        if as_json:
            out = {
                "games": stats["games"],
                "seats": [{k: row[k] for k in ("bot", "win_rate", "mean_score")} for row in stats["seats"]],
            }
            print(json.dumps(out))
            return
        print(f"Rolling Stock Stars, {len(labels)} players, {games} games, seeds {seed}..{seed + games - 1} ({wall:.1f} s)")
        print(f"  {'seat':<5}{'bot':<12}{'win rate':>9}{'wins':>7}{'mean score':>12}{'mean rank':>11}")
        for j, row in enumerate(stats["seats"], 1):
            print(
                f"  {j:<5}{row['bot']:<12}{row['win_rate'] * 100:>8.1f}%{row['wins']:>7}"
                f"{row['mean_score']:>12.1f}{row['mean_rank']:>11.2f}"
            )
