"""How batch simulation scales with workers (``rolling bench stars --scaling``): games per second
of 4-player Rolling Stock Stars games between heuristic bots, on one worker, on every core with
the process pool, and on a local Ray.

Each engine plays the same games (same run seed), so the work is identical; the figures are wall
clock, the pool's start-up included (a fresh interpreter per worker, well under a second), Ray's
start-up not (it is measured and reported on its own: several seconds, paid once per batch).

On a machine that others use, wall-clock speed-up is capped by the cores left free, so each line
also gives the games per CPU-second (this process and its worker processes; not Ray's, which are
not its children) and the load average before it: equal games per CPU-second on 1 and K workers
mean the pool costs nothing, and the speed-up then only waits for free cores.
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any

from rolling.sim.batch import Batch, run_batch

#: the bots of the measured games
SEATS = ("heuristic",) * 4


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _rate(batch: Batch, **engine) -> dict[str, float]:
    load = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), _cpu()
    outcome = run_batch(batch, lambda rows: None, **engine)
    if outcome.interrupted:
        raise KeyboardInterrupt
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return {"games_per_s": round(batch.games / wall, 2), "games_per_cpu_s": round(batch.games / cpu, 2),
            "load_before": round(load, 2)}


def measure_scaling(games: int = 100, workers: int | None = None, ray: bool = True, seed: int = 1) -> dict[str, Any]:
    """Games/s of ``games`` 4-player heuristic Stars games on 1 worker, on ``workers`` (default:
    every core) and, with ``ray`` and Ray installed, on a new local Ray with as many CPUs.

    Returns:
        ``{"games", "cores", "one_worker": {"games_per_s", "games_per_cpu_s", "load_before"},
        "workers": K, "all_workers": {the same}, "speedup": wall-clock ratio of the two, "ray": None
        or {"games_per_s", "load_before", "speedup", "start_s"}, "ray_missing": bool}`` (the load
        average is the 1-minute one, before the measurement).

    Raises:
        ValueError: fewer than one game or worker.
    """
    if games < 1:
        raise ValueError(f"at least one game is needed, not {games}")
    cores = os.cpu_count() or 1
    workers = workers or cores
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    batch = Batch("stars", SEATS, games, seed)
    one = _rate(batch, workers=1)
    many = _rate(batch, workers=workers)
    out: dict[str, Any] = {"games": games, "cores": cores, "one_worker": one, "workers": workers,
                           "all_workers": many, "speedup": round(many["games_per_s"] / one["games_per_s"], 2),
                           "ray": None, "ray_missing": False}
    if ray:
        try:
            import ray as ray_module
        except ImportError:
            out["ray_missing"] = True
            return out
        import logging

        t0 = time.perf_counter()
        ray_module.init(address="local", num_cpus=workers, logging_level=logging.ERROR, log_to_driver=False)
        start = time.perf_counter() - t0
        try:
            rate = _rate(batch, ray=True)
        finally:
            ray_module.shutdown()
        del rate["games_per_cpu_s"]  # Ray's workers are not this process's children
        out["ray"] = {**rate, "speedup": round(rate["games_per_s"] / one["games_per_s"], 2), "start_s": round(start, 1)}
    return out
