"""``rolling simulate GAME`` for every game: the batch options (``--workers``, ``--ray``, ``--out``),
the progress bar, and the summary printed at the end (:func:`run_simulate`).

The game modules declare their own options and call :func:`run_simulate`; the batch itself is
:func:`rolling.sim.batch.run_batch`, the rows :mod:`rolling.sim.table`, the file
:mod:`rolling.sim.files`.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

import typer
from rich.console import Console
from rich.progress import ProgressColumn
from rich.text import Text

from rolling.cli.shared import columns_table, fail, print_table, whole_option
from rolling.sim.table import seat_list

#: simulate's log (``rolling --log-level info simulate ...``): the batch's start and end at info, each
#: failed game at warning
log = logging.getLogger("rolling.simulate")

#: what a bare ``--ray`` means: ``ray.init(address="local")`` starts a new local Ray (never joins
#: a cluster someone else started on this machine)
LOCAL_RAY = "local"

WORKERS = whole_option(None, "--workers", help="worker processes (default: one per core; with --ray: "
                       "the most games played at once, default every CPU of the cluster)")
RAY = typer.Option(None, "--ray", metavar="[ADDRESS]", help="play on Ray: a new local Ray, or the cluster "
                   "at ADDRESS (ray.init(address=ADDRESS); needs pip install 'rolling[ray]')")
OUT = typer.Option(None, "--out", metavar="FILE", help="write one row per game and seat: .csv or .parquet")


def optional_ray_address(argv: list[str]) -> list[str]:
    """``argv`` with a bare ``--ray`` (last, or followed by another option) given its default
    address, :data:`LOCAL_RAY`: the option's value is optional, which typer's parser cannot say."""
    out = []
    for k, arg in enumerate(argv):
        out.append(arg)
        if arg == "--ray" and (k + 1 == len(argv) or argv[k + 1].startswith("-")):
            out[-1] = f"--ray={LOCAL_RAY}"
    return out


@dataclass(frozen=True)
class BatchArgs:
    """The batch options of ``simulate``: ``workers`` (``None``: one per core, or the cluster's
    CPUs with Ray), ``ray`` (``None``: no Ray; else the address), ``out`` (a results file or ``None``)."""

    workers: int | None = None
    ray: str | None = None
    out: str | None = None


class RateColumn(ProgressColumn):
    """Games per second, measured over the last half minute."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} games/s" if speed else "... games/s", style="progress.data.speed")


#: without a terminal (a batch in the background, its stderr in a log), a progress line at most
#: this often, in seconds
LOG_EVERY = 30.0


@contextmanager
def games_progress(label: str, games: int, transient: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of ``games`` on stderr (stdout stays clean for ``--json``) with games/s and
    the time left; yields ``advance(games, failed)``. ``transient`` removes the bar when done.

    Without a terminal on stderr a bar cannot redraw itself, so it becomes a plain line at most
    every :data:`LOG_EVERY` seconds (a batch shorter than that prints none), and a last one at the
    end when any was printed: ``stars search:1s,heuristic×3: 37/100 games, 0.03 games/s, 0:52:10 left``.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        with progress_lines(label, games) as advance:
            yield advance
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TimeRemainingColumn())
    failed = 0
    with Progress(*columns, console=console, transient=transient) as bar:
        task = bar.add_task(label, total=games)

        def advance(n: int, n_failed: int) -> None:
            nonlocal failed
            if n_failed:
                failed += n_failed
                bar.update(task, description=f"{label} ({failed} failed)")
            bar.advance(task, n)

        yield advance


@contextmanager
def progress_lines(label: str, games: int) -> Iterator[Callable[[int, int], None]]:
    """The progress of :func:`games_progress` as plain lines on stderr, for a log file."""
    start = last = time.monotonic()
    done = failed = shown = 0

    def line() -> None:
        nonlocal shown
        shown = done
        elapsed = time.monotonic() - start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f", {timedelta(seconds=round((games - done) / rate))} left" if rate and done < games else ""
        bad = f" ({failed} failed)" if failed else ""
        print(f"{label}: {done}/{games} games{bad}, {rate:,.2f} games/s{left}", file=sys.stderr, flush=True)

    def advance(n: int, n_failed: int) -> None:
        nonlocal done, failed, last
        done += n
        failed += n_failed
        now = time.monotonic()
        if now - last >= LOG_EVERY:
            last = now
            line()

    yield advance
    if last > start and shown < done:
        line()


def run_simulate(game: str, title: str, seats: str, games: int, seed: int, as_json: bool,
                 batch: BatchArgs | None = None, **options) -> None:
    """Run ``rolling simulate GAME``: check the options, play the games with a progress bar on
    stderr, write ``--out``, and print a table, or with ``as_json`` the object
    :func:`rolling.sim.simulate` returns.

    Exit status: 0; 1 when some games failed (their rows, with the error, are in ``--out``); 130
    after Ctrl-C (the games finished so far are summed up and kept in ``--out``); 2 for a bad
    command line, with one line on stderr.
    """
    from rolling.sim import check_seats
    from rolling.sim.batch import Batch, RayMissing, run_batch
    from rolling.sim.files import open_results, results_format
    from rolling.sim.table import columns
    from rolling.sim.tally import Tally

    batch = batch or BatchArgs()
    if games < 1:
        fail(f"--games must be 1 or more, not {games}")
    if batch.workers is not None and batch.workers < 1:
        fail(f"--workers must be 1 or more, not {batch.workers}")
    if batch.ray == "":
        fail("--ray=: give a Ray address, or --ray alone for a local Ray")
    labels = check_seats(game, seats, **options)  # a bad seat list is said before the progress bar
    writer = None
    if batch.out:
        try:
            results_format(batch.out)
            writer = open_results(batch.out, columns(game))
        except ValueError as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot write {batch.out}: {e.strerror or e}")
    workers = batch.workers
    if workers is None and batch.ray is None:
        workers = os.cpu_count() or 1
    tally = Tally(game, labels, seed)

    def sink(rows: list[dict]) -> None:
        for head in rows[::len(labels)]:  # each game's first row carries the game's error
            if head["error"]:
                log.warning("game %d (seed %d) failed: %s", head["index"], head["seed"], head["error"])
        tally.add(rows)
        if writer is not None:
            writer.write(rows)

    spec = Batch(game, tuple(labels), games, seed, dict(options))
    log.info("simulate %s: %d games of %s, seed %d, %s%s", game, games, seat_list(labels), seed,
             f"Ray at {batch.ray}" if batch.ray is not None else f"{workers} worker(s)",
             f", rows to {batch.out}" if batch.out else "")
    try:
        with games_progress(f"{game} {seat_list(labels)}", games, transient=as_json) as advance:
            outcome = run_batch(spec, sink, workers or 0, batch.ray is not None, batch.ray, advance)
    except RayMissing as e:
        fail(str(e))
    except RuntimeError as e:
        fail(str(e))
    finally:
        if writer is not None:
            writer.close()
    log.info("simulate %s: %d of %d games played (%d failed) in %.1f s on %s%s", game, outcome.played, games,
             tally.failed, outcome.seconds, outcome.engine, ", interrupted" if outcome.interrupted else "")
    stats = tally.summary()
    if outcome.interrupted:
        stats["interrupted"] = True
    if as_json:
        print(json.dumps(stats))
    else:
        print_summary(title, stats, outcome)
    if outcome.interrupted:
        kept = f"; kept in {batch.out}" if batch.out else ""
        print(f"rolling: interrupted after {outcome.played} of {games} games{kept}", file=sys.stderr)
        raise SystemExit(130)
    if tally.failed:
        index, game_seed, error = tally.first_error
        print(f"rolling: {tally.failed} of {games} games failed (first: game {index}, seed {game_seed}: {error})",
              file=sys.stderr)
        raise SystemExit(1)


def print_summary(title: str, stats: dict, outcome) -> None:
    """Print the summary: a title line (with the version of rolling that played), then a table of one
    line per seat entry (columns as wide as their longest cell, e.g. a bot ``search:0.125s``), the
    win rate and mean score with their 95% intervals, and a line saying which intervals they are."""
    rows = stats["seats"]
    games = stats["games"]
    rate = outcome.played / outcome.seconds if outcome.seconds > 0 else 0.0
    failed = f", {stats['failed']} failed" if stats["failed"] else ""
    print(f"{title}, {len(rows)} player{'s' if len(rows) != 1 else ''}, {games} games{failed}, seed {stats['seed']}, "
          f"rolling {stats['version']} ({outcome.seconds:.1f} s, {outcome.engine}, {rate:,.1f} games/s)")
    if not games:
        return
    table = columns_table("seat", "bot", "win rate (95% CI)>", "wins>", "mean rank>", "mean score (95% CI)>",
                          "median>", "p5>", "p95>")
    for j, row in enumerate(rows, 1):
        table.add_row(str(j), row["bot"], with_interval(row["win_rate"], row["win_rate_low"], row["win_rate_high"], 100, "%"),
                      str(row["wins"]), f"{row['mean_rank']:.2f}",
                      with_interval(row["mean_score"], row["mean_score_low"], row["mean_score_high"]),
                      f"{row['median_score']:.1f}", f"{row['p5_score']:.1f}", f"{row['p95_score']:.1f}")
    print_table(table, indent=2)
    print("  95% intervals: Wilson's for win rates, Student's t for mean scores.")


def with_interval(value: float, low: float | None, high: float | None, scale: float = 1.0, unit: str = "") -> str:
    """``"25.0% (18.1–33.4)"``: a value and its interval times ``scale``, one decimal; the value
    alone without an interval (one game)."""
    main = f"{value * scale:.1f}{unit}"
    if low is None or high is None:
        return main
    to = " to " if low < 0 else "–"  # "-5.2–-4.0" would read as a typo
    return f"{main} ({low * scale:.1f}{to}{high * scale:.1f})"
