"""Rolling Freight's commands: ``rolling play freight``, ``rolling simulate freight``,
``rolling bench freight`` and ``rolling freight board``.

The play screen is :mod:`rolling.ui.freight`, the board picture :mod:`rolling.ui.freight_board`;
batch runs are :mod:`rolling.sim`.
"""

from __future__ import annotations

import json
import time

import typer

from rolling.cli import batch, shared
from rolling.core.errors import RecordError
from rolling.core.record import load_record

MAP_HELP = "west-coast (2-4 players) or southern (3-5)"


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``play freight``, ``simulate freight``, ``bench freight`` and the ``freight`` group (``board``)."""

    @groups["play"].command("freight")
    def play_freight(
        map_name: str = typer.Option(None, "--map", help=MAP_HELP + " (default: west-coast)"),
        players: int = shared.players_option(MAP_HELP),
        seats: str = shared.seats_option("freight"),
        seed: int = shared.SEED,
        names: str = shared.NAMES,
        save: str = shared.SAVE,
        resume: str = shared.RESUME,
        quiet: bool = shared.QUIET,
    ) -> None:
        """Play Rolling Freight in the terminal, with and against bots."""
        from rolling.games.freight import config_from_json, load_map
        from rolling.ui.freight import FreightScreen

        map_name_ = map_name or "west-coast"

        def new_config(seat_kinds: list[str], name_list: list[str]) -> dict:
            # the names go into the config: the game's log names the players by them
            return config_from_json({"map": map_name_, "players": len(seat_kinds), "names": name_list,
                                     "payment": "kept"}).to_json()

        default_players = 3
        if not resume:
            config_from_json({"map": map_name_})  # an unknown map is said before anything else
            default_players = min(3, load_map(map_name_).max_players)
        opts = shared.PlayOptions(seats, players, seed, names, save, resume, quiet)
        shared.run_play(FreightScreen(), opts, new_config, default_players,
                        set_up=("--map",) if map_name is not None else ())

    @groups["simulate"].command("freight")
    def simulate_freight(
        map_name: str = typer.Option("west-coast", "--map", help=MAP_HELP),
        games: int = shared.games_option(100),
        seats: str = shared.sim_seats_option("bot,bot,bot"),
        seed: int = shared.sim_seed_option(0),
        as_json: bool = shared.JSON,
        workers: int = batch.WORKERS,
        ray: str = batch.RAY,
        out: str = batch.OUT,
    ) -> None:
        """Play many bot games (seats rotate through positions) and report each seat's win rate and scores.

        Without --seats three copies of one bot play (bot: the heuristic), a fair table: what a seat
        wins more is its position's doing, not a stronger bot's.
        """
        from rolling.games.freight import config_from_json, load_map

        config_from_json({"map": map_name})  # an unknown map is said before anything else
        batch.run_simulate("freight", f"Rolling Freight, {load_map(map_name).title}", seats, games, seed, as_json,
                           batch.BatchArgs(workers, ray, out), map=map_name)

    @groups["bench"].command("freight")
    def bench_freight(
        map_name: str = typer.Option("west-coast", "--map", help=MAP_HELP),
        games: int = shared.whole_option(20, "--games", help="number of games"),
        players: int = shared.whole_option(3, "--players", help="number of players"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Measure games and actions per second of the engine with random bots (bot time included),
        with the garbage collector as ``rolling simulate`` runs it (:mod:`rolling.sim.collector`);
        say which rule modules ran compiled (``setup.py``; ``rolling.games.freight.compiled``)."""
        from rolling.bots import make_bot
        from rolling.games.freight import Config, compiled, config_from_json, new_game
        from rolling.sim import play_game
        from rolling.sim.collector import simulation_collector

        config_from_json({"map": map_name, "players": players})
        t0 = time.perf_counter()
        actions = 0
        with simulation_collector():  # as `rolling simulate` plays (rolling.sim.collector)
            for g in range(games):
                st = new_game(Config(map_name, players), g)
                actions += len(play_game(st, [make_bot("freight", "random", g * 10 + i) for i in range(players)]))
        wall = time.perf_counter() - t0
        out = {"games": games, "map": map_name, "seconds": round(wall, 3), "games_per_s": round(games / wall, 2),
               "actions_per_s": round(actions / wall, 1), "compiled_rule_modules": len(compiled.in_use())}
        if as_json:
            print(json.dumps(out))
        else:
            n = out["compiled_rule_modules"]
            how = f"{n} rule modules compiled" if n else "rules in plain Python"
            print(f"freight/{map_name}: {games} games in {wall:.2f} s: {out['games_per_s']} games/s, "
                  f"{out['actions_per_s']} actions/s ({how})")

    freight_app = typer.Typer(help="Rolling Freight tools.", no_args_is_help=True)
    app.add_typer(freight_app, name="freight")

    @freight_app.command("board")
    def board(
        record_file: str = typer.Argument(..., metavar="RECORD.json", help="a Rolling Freight game record"),
        out: str = typer.Option(..., "--out", help="picture file: .svg or .png"),
        at: int = shared.whole_option(None, "--at", help="draw the board after the first N actions (default: all)"),
    ) -> None:
        """Draw the board of a game record (cities at their real places, links, cubes, cargo)."""
        from rolling.core.record import replay
        from rolling.ui.freight_board import draw_board

        if not out.lower().endswith((".svg", ".png")):
            shared.fail("--out must end in .svg or .png")
        record = load_record(record_file)
        if record.game != "freight":
            raise RecordError(f"that record is a game of {record.game!r}, not freight")
        if at is not None and not 0 <= at <= len(record.actions):
            shared.fail(f"--at must be between 0 and {len(record.actions)}")
        state = replay(record, at)
        try:
            draw_board(state, out, names=record.meta.get("names"))
        except OSError as e:
            shared.fail(f"cannot write {out}: {e.strerror or e}")
        print(f"wrote {out}")
