"""The cyclic garbage collector as simulation runs it: seldom (:func:`simulation_collector`).

CPython frees an object when its last reference goes; the *cyclic* collector exists only for
objects that refer to one another in a loop. It runs whenever 700 more container objects (tuples,
lists, records) have been made than freed, and each pass walks every young object. A bot game
makes and keeps thousands of such objects a second (the actions played, the engines' bounded
memos, a new game's state), and the engines make no reference cycles (tests/sim/test_collector.py
plays games of each engine and finds no cyclic garbage), so in a batch of games every pass finds
nothing: in random Rolling Freight games the passes took 15% of the time on an idle machine and
25–30% on a loaded one (its walks over memory miss the caches other processes share).

Simulation (:func:`rolling.sim.table.play_chunk`: ``rolling simulate`` on every engine, one process,
a pool or Ray) and ``rolling bench freight`` therefore raise the threshold of the collector's
youngest generation while they play. Cycles are still collected, a hundred-odd times less often
(a search bot's tree with parent links, a user's bot): memory stays bounded by the threshold's
number of objects. Everything else (the web server, the terminal game, a library user's process)
keeps the interpreter's default.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: the youngest generation's threshold while simulating: net container objects made between two
#: passes (CPython's default is 700)
SIMULATION_THRESHOLD = 100_000


@contextmanager
def simulation_collector(threshold: int = SIMULATION_THRESHOLD) -> Iterator[None]:
    """Within the ``with`` block, the cyclic collector's youngest generation runs once per
    ``threshold`` net container objects made (the older generations' ratios unchanged); on leaving
    it, the thresholds are as they were, also after an exception. Nested blocks keep the outermost
    setting. Reference counting frees objects as always; only cycles wait longer.

    Raises:
        ValueError: ``threshold`` below 1.
    """
    if threshold < 1:
        raise ValueError(f"the collector's threshold must be 1 or more, not {threshold}")
    old = gc.get_threshold()
    if old[0] >= threshold:  # already seldom (an outer block, or the user's own setting)
        yield
        return
    gc.set_threshold(threshold, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
