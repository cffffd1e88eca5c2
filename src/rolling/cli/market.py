"""Rolling Market's commands: ``rolling play market``, ``rolling simulate market``, ``rolling bench market``.

The play screen is :mod:`rolling.ui.market`; batch runs are :mod:`rolling.sim`.
"""

from __future__ import annotations

import json
import time

import typer

from rolling.cli import batch, shared


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``play market``, ``simulate market`` and ``bench market``."""

    @groups["play"].command("market")
    def play_market(
        seats: str = typer.Option(None, "--seats", help="the one seat: human (default), bot, bot:NAME or NAME"),
        seed: int = shared.SEED,
        names: str = shared.NAMES,
        save: str = shared.SAVE,
        resume: str = shared.RESUME,
        quiet: bool = shared.QUIET,
    ) -> None:
        """Play Rolling Market in the terminal (solitaire)."""
        from rolling.sim.market import check
        from rolling.ui.market import MarketScreen

        def new_config(seat_kinds: list[str], name_list: list[str]) -> dict:
            check(len(seat_kinds))  # solitaire: one seat
            return {}

        opts = shared.PlayOptions(seats, None, seed, names, save, resume, quiet)
        shared.run_play(MarketScreen(), opts, new_config, default_players=1)

    @groups["simulate"].command("market")
    def simulate_market(
        games: int = shared.games_option(1000),
        seats: str = shared.sim_seats_option("heuristic"),
        bot: str = typer.Option(None, "--bot", hidden=True, help="the same as --seats (solitaire: one bot)"),
        seed: int = shared.sim_seed_option(0),
        as_json: bool = shared.JSON,
        workers: int = batch.WORKERS,
        ray: str = batch.RAY,
        out: str = batch.OUT,
    ) -> None:
        """Play many games with a bot and print the mean, median, 5th and 95th percentile score."""
        batch.run_simulate("market", "Rolling Market", bot or seats, games, seed, as_json,
                           batch.BatchArgs(workers, ray, out))

    @groups["bench"].command("market")
    def bench_market(
        games: int = shared.whole_option(2000, "--games", help="number of games"),
        bot: str = typer.Option("random", "--bot", help="the bot: random, heuristic, policy, value or bot (the strongest)"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Measure games per second and actions per second of the Rolling Market engine with a bot."""
        from rolling.bots import resolve_bot
        from rolling.sim import simulate

        name = resolve_bot("market", bot)
        if games < 1:
            shared.fail(f"--games must be 1 or more, not {games}")
        t0 = time.perf_counter()
        actions = simulate("market", name, games, 0)["actions"]
        wall = time.perf_counter() - t0
        out = {"games": games, "bot": name, "seconds": round(wall, 3),
               "games_per_s": round(games / wall, 1), "actions_per_s": round(actions / wall, 1)}
        if as_json:
            print(json.dumps(out))
        else:
            print(f"market/{name}: {games} games in {wall:.2f} s: {out['games_per_s']} games/s, "
                  f"{out['actions_per_s']} actions/s (bot time included)")
