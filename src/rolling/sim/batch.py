"""Running a batch of games on one process, on a pool of worker processes, or on Ray (:func:`run_batch`).

Work is handed out in chunks of consecutive games (:func:`rolling.sim.table.play_chunk`). A chunk
is sized from the games/s seen so far to take about :data:`CHUNK_SECONDS` (at least one game), so
that short games (Rolling Market: a few ms) do not pay a round trip each, while long ones keep the
progress bar moving and lose little on Ctrl-C. Every worker derives a game's seed from the run's
seed and the game's index alone, and rows reach the sink in game order whatever the engine, so the
same run gives the same rows everywhere.

Engines:

- one process (``workers=1``): the games are played here;
- a process pool (``workers=K``): :class:`concurrent.futures.ProcessPoolExecutor` with the
  ``spawn`` start method (a fresh interpreter per worker: no state inherited from this process,
  the same on every platform); workers ignore SIGINT, so Ctrl-C reaches only this process;
- Ray (``ray=True``): ``ray.init(address=ray_address)`` (a local Ray when the address is ``None``
  and no cluster is running; see Ray's ``ray.init``), one task per chunk.

Ctrl-C: no new chunk is started; the chunks being played are waited for (up to
:data:`DRAIN_SECONDS`; a second Ctrl-C stops waiting) and kept, then :func:`run_batch` returns with
``interrupted`` set. Everything that reached the sink is whole games.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rolling.sim.table import play_chunk

#: the wall time a chunk of games should take, in seconds
CHUNK_SECONDS = 0.3
#: the most games in one chunk
MAX_CHUNK = 2000
#: chunks handed out ahead, per worker, so that no worker waits for the next one
AHEAD = 2
#: after Ctrl-C, how long to wait for the chunks being played, in seconds
DRAIN_SECONDS = 10.0


class RayMissing(RuntimeError):
    """``ray=True`` but Ray is not installed."""


@dataclass(frozen=True)
class Batch:
    """What to play: ``games`` games of ``game`` between the bots ``labels`` (registry names,
    checked beforehand with :func:`rolling.sim.check_seats`), run seed ``seed``, game ``options``."""

    game: str
    labels: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """How a batch went: ``played`` games reached the sink (failed ones included), ``interrupted``
    by Ctrl-C or not, on ``engine`` (``"1 process"``, ``"K workers"``, ``"ray"``) in ``seconds``."""

    played: int
    interrupted: bool
    engine: str
    seconds: float


class Chunker:
    """Hands out chunks ``(start, stop)`` of the games ``0..games-1`` in order, each sized to take
    about :data:`CHUNK_SECONDS` at the speed seen so far, and no more than a fair share of what is
    left, so that the last chunks end together."""

    def __init__(self, games: int, workers: int):
        self.games = games
        self.workers = workers
        self.next = 0
        self.seconds = 0.0
        self.measured = 0

    def take(self) -> tuple[int, int] | None:
        """The next chunk, or ``None`` when every game has been handed out."""
        left = self.games - self.next
        if left <= 0:
            return None
        size = 1
        if self.measured:
            size = int(CHUNK_SECONDS * self.measured / max(self.seconds, 1e-6))
        size = max(1, min(size, MAX_CHUNK, -(-left // (self.workers * AHEAD))))
        start = self.next
        self.next += size
        return start, self.next

    def observe(self, games: int, seconds: float) -> None:
        """Note that a chunk of ``games`` games took ``seconds`` of a worker's wall time."""
        self.measured += games
        self.seconds += seconds


class InOrder:
    """Passes chunks of rows to ``sink`` in game order, holding back those that arrive early."""

    def __init__(self, sink: Callable[[list[dict]], None], progress: Callable[[int, int], None] | None,
                 players: int):
        self.sink = sink
        self.progress = progress
        self.players = players
        self.next = 0
        self.held: dict[int, tuple[int, list[dict]]] = {}
        self.played = 0

    def put(self, start: int, stop: int, rows: list[dict]) -> None:
        """A finished chunk of games ``start..stop-1``."""
        self.held[start] = (stop, rows)
        if self.progress is not None:
            failed = sum(1 for row in rows[:: self.players] if row["error"])
            self.progress(stop - start, failed)
        while self.next in self.held:
            stop, rows = self.held.pop(self.next)
            self._emit(self.next, stop, rows)
            self.next = stop

    def flush(self) -> None:
        """Pass on what is held back, in game order (after an interruption: there are gaps)."""
        for start in sorted(self.held):
            stop, rows = self.held[start]
            self._emit(start, stop, rows)
        self.held.clear()

    def _emit(self, start: int, stop: int, rows: list[dict]) -> None:
        self.sink(rows)
        self.played += stop - start


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT inside the block (in the main thread; elsewhere do nothing): worker processes
    started here inherit the ignored signal, so Ctrl-C at a terminal reaches only this process."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_batch(batch: Batch, sink: Callable[[list[dict]], None], workers: int = 1, ray: bool = False,
              ray_address: str | None = None, progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Play ``batch`` and pass its rows (:mod:`rolling.sim.table`) to ``sink``, whole games at a
    time and in game order (with gaps only after Ctrl-C).

    Args:
        batch: what to play.
        sink: called with the rows of one or more consecutive games.
        workers: processes to play on (1: this one); with ``ray``, the most chunks Ray plays at
            once (``None``/0 there: every CPU of the cluster).
        ray: play on Ray; ``ray_address`` is passed to ``ray.init`` (``None``: a local Ray).
        progress: called with (games just finished, how many of them failed).

    Returns:
        the :class:`Outcome`; Ctrl-C returns one with ``interrupted`` set (see the module docstring).

    Raises:
        ValueError: ``workers`` below 1 (without Ray).
        RayMissing: ``ray`` without Ray installed.
        RuntimeError: a worker failed outside a game (a crashed process, a Ray task that could
            not run); a game that raises is a row, never this.
    """
    out = InOrder(sink, progress, len(batch.labels))
    t0 = time.perf_counter()
    if ray:
        engine = "ray"
        interrupted = _run_ray(batch, out, workers, ray_address)
    elif workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    elif workers == 1 or batch.games == 1:
        engine = "1 process"
        interrupted = _run_here(batch, out)
    else:
        workers = min(workers, batch.games)
        engine = f"{workers} workers"
        interrupted = _run_pool(batch, out, workers)
    out.flush()
    return Outcome(out.played, interrupted, engine, time.perf_counter() - t0)


def _run_here(batch: Batch, out: InOrder) -> bool:
    chunker = Chunker(batch.games, 1)
    try:
        while (chunk := chunker.take()) is not None:
            start, stop = chunk
            done = start
            rows: list[dict] = []
            t0 = time.perf_counter()
            try:
                for index in range(start, stop):
                    _, game_rows, _ = play_chunk(batch.game, batch.labels, batch.seed, batch.options, index, index + 1)
                    rows.extend(game_rows)
                    done = index + 1
            finally:  # on Ctrl-C the games of this chunk that ended are kept
                if done > start:
                    out.put(start, done, rows)
            chunker.observe(stop - start, time.perf_counter() - t0)
    except KeyboardInterrupt:
        return True
    return False


def _run_pool(batch: Batch, out: InOrder, workers: int) -> bool:
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    chunker = Chunker(batch.games, workers)
    pending: dict = {}
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_sigint)
    interrupted = False

    def take(done) -> None:
        for fut in done:
            start, stop = pending.pop(fut)
            try:
                _, rows, seconds = fut.result()
            except BrokenProcessPool as e:
                raise RuntimeError(f"a worker process died while playing games {start}-{stop - 1}") from e
            chunker.observe(stop - start, seconds)
            out.put(start, stop, rows)

    try:
        while True:
            while len(pending) < workers * AHEAD and (chunk := chunker.take()) is not None:
                with sigint_ignored():  # a worker started now must not see a Ctrl-C meant for us
                    fut = pool.submit(play_chunk, batch.game, batch.labels, batch.seed, batch.options, *chunk)
                pending[fut] = chunk
            if not pending:
                break
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            take(done)
    except KeyboardInterrupt:
        interrupted = True
        for fut in pending:
            fut.cancel()
        try:
            done, _ = wait(pending, timeout=DRAIN_SECONDS)
            take([f for f in done if not f.cancelled() and f.exception() is None])
        except KeyboardInterrupt:
            pass
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
    return interrupted


def _run_ray(batch: Batch, out: InOrder, workers: int | None, address: str | None) -> bool:
    try:
        import ray
    except ImportError:
        raise RayMissing("--ray needs Ray: pip install 'rolling[ray]'") from None
    import logging

    started = not ray.is_initialized()
    if started:
        # a local Ray says only what goes wrong (its start-up notices are noise on a terminal)
        level = logging.ERROR if address in (None, "local") else logging.WARNING
        try:
            ray.init(address=address, logging_level=level, log_to_driver=False)
        except Exception as e:  # noqa: BLE001 - any failure to reach Ray is one line for the user
            raise RuntimeError(f"cannot start or reach Ray at {address!r}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from e
    try:
        slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(play_chunk)
        chunker = Chunker(batch.games, slots)
        pending: dict = {}
        interrupted = False

        def take(ready) -> None:
            for ref in ready:
                start, stop = pending.pop(ref)
                try:
                    _, rows, seconds = ray.get(ref)
                except ray.exceptions.RayError as e:
                    raise RuntimeError(f"Ray could not play games {start}-{stop - 1}: "
                                       f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from e
                chunker.observe(stop - start, seconds)
                out.put(start, stop, rows)

        try:
            while True:
                while len(pending) < slots * AHEAD and (chunk := chunker.take()) is not None:
                    ref = task.remote(batch.game, batch.labels, batch.seed, batch.options, *chunk)
                    pending[ref] = chunk
                if not pending:
                    break
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                take(ready)
        except KeyboardInterrupt:
            interrupted = True
            try:
                ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=DRAIN_SECONDS)
                take(ready)
            except KeyboardInterrupt:
                pass
            for ref in pending:
                ray.cancel(ref, force=True)
        return interrupted
    finally:
        if started:
            ray.shutdown()
