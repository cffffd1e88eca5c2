"""Rolling Stock Stars commands: ``rolling play stars``, ``rolling simulate stars``,
``rolling import-18xx`` and ``rolling bench stars``."""

from __future__ import annotations

import json
import sys

import typer

from rolling.cli import batch, shared
from rolling.core.errors import RecordError
from rolling.core.record import save_record
from rolling.games.stars.config import EDITIONS, PLAYERS, VARIANTS

EDITION_HELP = "one of " + ", ".join(EDITIONS)
PLAYERS_HELP = ", ".join(f"{e}: {lo}-{hi}" for e, (lo, hi) in PLAYERS.items())
VARIANT_HELP = "any of " + ", ".join(VARIANTS) + " (repeatable, or separated by commas)"
#: the two-handed variant's seating without --names: A's right hand 1, B's left 2, B's right 3, A's left 4
TWO_HANDED_NAMES = "A right hand,B left hand,B right hand,A left hand"


def variant_words(given: list[str]) -> list[str]:
    """The variants of ``--variant`` options, each a name or a comma list (``two-handed,secret-money``)."""
    return [v.strip() for word in given for v in word.split(",") if v.strip()]


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add the Rolling Stock Stars commands."""

    @groups["play"].command("stars")
    def play_stars(
        players: int = shared.players_option(PLAYERS_HELP),
        seats: str = shared.seats_option("stars"),
        seed: int = shared.SEED,
        edition: str = typer.Option(None, "--edition", help=EDITION_HELP + " (default: stars)"),
        variant: list[str] = typer.Option([], "--variant", help=VARIANT_HELP),
        names: str = shared.NAMES,
        save: str = shared.SAVE,
        resume: str = shared.RESUME,
        quiet: bool = shared.QUIET,
    ) -> None:
        """Play Rolling Stock Stars in the terminal, alone against bots or with friends at one keyboard."""
        from rolling.games.stars import Config
        from rolling.ui.stars import StarsScreen

        variant = variant_words(variant)
        if "two-handed" in variant and not resume:
            # four seats, two people with two hands each; the hands' names only for four seats (any
            # other count is refused by the variant, in its own words, not by the names)
            if not seats and players in (None, 4):
                seats = "human,human,human,human"
            if not names and seats and len([w for w in seats.split(",") if w.strip()]) == 4:
                names = TWO_HANDED_NAMES

        def new_config(seat_kinds: list[str], name_list: list[str]) -> dict:
            cfg = Config(players=len(seat_kinds), edition=edition or "stars", variants=tuple(variant),
                         names=tuple(name_list))
            cfg.validate()
            return cfg.to_json()

        set_up = [flag for flag, given in (("--edition", edition), ("--variant", variant)) if given]
        opts = shared.PlayOptions(seats, players, seed, names, save, resume, quiet)
        shared.run_play(StarsScreen(), opts, new_config, default_players=4, set_up=tuple(set_up))

    @groups["simulate"].command("stars")
    def simulate_stars(
        games: int = shared.games_option(200),
        seats: str = shared.sim_seats_option("bot,bot,bot,bot"),
        seed: int = shared.sim_seed_option(1),
        edition: str = typer.Option("stars", "--edition", help=EDITION_HELP),
        variant: list[str] = typer.Option([], "--variant", help=VARIANT_HELP),
        as_json: bool = shared.JSON,
        workers: int = batch.WORKERS,
        ray: str = batch.RAY,
        out: str = batch.OUT,
    ) -> None:
        """Play many bot games of Rolling Stock Stars and print each seat's win rate and scores.

        Seats rotate through the player-order positions from game to game; a win is rank 1 after
        the rules' tie-break (player order), so the win rates add up to 1; with the two-handed
        variant it is a win of the seat's person (both hands of the person whose lower-ranked hand
        ranks better), so they add up to 2. Without --seats four copies of one bot play (bot: the
        heuristic), a fair table: what a seat wins more is its position's doing, not a stronger bot's.
        """
        from rolling.games.stars.config import TITLES

        variant = variant_words(variant)
        batch.run_simulate("stars", TITLES.get(edition, edition), seats, games, seed, as_json,
                           batch.BatchArgs(workers, ray, out), edition=edition, variants=tuple(variant))

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
            differs = any(p["score"] != p["recorded"] for p in result.players)
            table = shared.columns_table("player", "score>", "recorded>", *([""] if differs else []))
            for p in result.players:
                mark = ["" if p["score"] == p["recorded"] else "<- differs"] if differs else []
                table.add_row(f"{p['name']} ({p['id']})", str(p["score"]), str(p["recorded"]), *mark)
            shared.print_table(table)
            print(f"{result.actions_applied} actions applied; {'scores match' if result.match else 'MISMATCH'}")
        if not result.match:
            print(f"rolling: {result.error}", file=sys.stderr)
            raise typer.Exit(1)

    @groups["bench"].command("stars")
    def bench_stars(
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
        seconds: float = typer.Option(3.0, "--seconds", help="time spent on each measurement"),
        scaling: bool = typer.Option(False, "--scaling", help="instead: games/s of 4-player heuristic games "
                                     "on 1 worker, on every core and on a local Ray"),
        games: int = shared.whole_option(100, "--games", help="with --scaling: games per measurement"),
        workers: int = shared.whole_option(None, "--workers", help="with --scaling: the workers of the second "
                                           "measurement and Ray's CPUs (default: one per core)"),
        search: bool = typer.Option(False, "--search", help="instead: the search bot's playouts/s in a "
                                    "mid-game position (for --seconds)"),
    ) -> None:
        """Measure replay speed, random-playout speed, clone() time, the replay time of two
        imported 18xx.games records (actions parsed beforehand, and with parsing) and the search bot's playouts/s (one core); with --scaling, how batch simulation scales; with
        --search, how many playouts per second the search bot runs in a mid-game position."""
        from rolling.games.stars.bench import run_bench

        if scaling:
            return bench_scaling(games, workers, as_json)
        if not seconds > 0:
            raise RecordError(f"--seconds must be more than 0, not {seconds}")
        if search:
            return bench_search(seconds, as_json)
        from rolling.bots.search_bench import measure

        res = run_bench(seconds)
        res["search"] = measure(seconds)
        if as_json:
            print(json.dumps(res))
            return
        print(f"replay:          {res['replay_actions_per_s']:,.0f} actions/s")
        print(f"random playouts: {res['random_games_per_s']:,.1f} 4-player games/s")
        print(f"clone():         {res['clone_us']:.2f} µs")
        for name, ms in res["fixture_replay_ms"].items():
            print(f"replay {name}: {ms:.2f} ms; with parsing: {res['fixture_replay_parse_ms'][name]:.2f} ms")
        print_search(res["search"])


def bench_search(seconds: float, as_json: bool) -> None:
    """``rolling bench stars --search``: print :func:`rolling.bots.search_bench.measure`."""
    from rolling.bots.search_bench import measure

    res = measure(seconds)
    if as_json:
        print(json.dumps(res))
        return
    print_search(res)


def print_search(res: dict) -> None:
    """Print :func:`rolling.bots.search_bench.measure`'s result in two lines."""
    print(f"search playouts: {res['playouts_per_s']:,.1f}/s ({res['iterations']} in {res['seconds']} s; "
          f"mid-game position: turn {res['turn']}, phase {res['phase']}, seat {res['seat'] + 1}, "
          f"{res['candidates']} candidates)")
    print(f"  {res['reason']}")


def bench_scaling(games: int, workers: int | None, as_json: bool) -> None:
    """``rolling bench stars --scaling``: print :func:`rolling.sim.scaling.measure_scaling`."""
    from rolling.sim.scaling import measure_scaling

    if games < 1:
        shared.fail(f"--games must be 1 or more, not {games}")
    if workers is not None and workers < 1:
        shared.fail(f"--workers must be 1 or more, not {workers}")
    res = measure_scaling(games, workers)
    if as_json:
        print(json.dumps(res))
        return
    print(f"4-player heuristic Rolling Stock Stars games, {games} per line, {res['cores']} cores "
          "(load: the 1-minute load average before the line):")
    one, many = res["one_worker"], res["all_workers"]
    print(f"  1 worker:  {one['games_per_s']:8.2f} games/s, {one['games_per_cpu_s']:.2f} games per CPU-s, "
          f"load {one['load_before']:.1f}")
    print(f"  {res['workers']} workers: {many['games_per_s']:8.2f} games/s ({res['speedup']:.2f}x), "
          f"{many['games_per_cpu_s']:.2f} games per CPU-s, load {many['load_before']:.1f}")
    if res["ray"]:
        r = res["ray"]
        print(f"  local Ray: {r['games_per_s']:8.2f} games/s ({r['speedup']:.2f}x), load {r['load_before']:.1f} "
              f"(its start-up, {r['start_s']} s, not counted)")
    elif res["ray_missing"]:
        print("  local Ray: not installed (pip install 'rolling[ray]')")
