"""Positions of Rolling Stock Stars reached deterministically, saved as game records to resume.

Seeded bots play from a seeded new game until a test's condition holds; the record of their moves
is then resumed with people in the seats (``--resume FILE --seats human,...``), so that a test
starts exactly where the situation it checks arises.
"""

from __future__ import annotations

from collections.abc import Callable

from rolling.bots import make_bot
from rolling.core.record import GameRecord, save_record
from rolling.games.stars import Config, StarsState, new_game


def reach(
    condition: Callable[[StarsState], bool],
    players: int = 4,
    seeds: range = range(1, 400),
    bot: str = "random",
    limit: int = 3000,
    log: bool = False,
) -> tuple[GameRecord, StarsState]:
    """The first position, over ``seeds``, where ``condition(state)`` holds with a decision due:
    its record and its state (keeping its log from the first decision on with ``log``). Raises
    AssertionError when none is found."""
    for seed in seeds:
        cfg = Config(players=players)
        s = new_game(cfg, seed)
        if log:
            s.enable_log()
        bots = [make_bot("stars", bot, seed=seed * 101 + k) for k in range(players)]
        actions = []
        while not s.is_over and len(actions) < limit:
            if condition(s):
                return GameRecord("stars", cfg.to_json(), seed, actions, {}), s
            seat = s.to_act[0]
            action = bots[seat].choose(s, seat)
            s.apply(action)
            actions.append(action.to_json())
    raise AssertionError("no seed reaches the position")


def save(record: GameRecord, path) -> str:
    """Write ``record`` to ``path``; its name as a string, for ``--resume``."""
    save_record(record, path)
    return str(path)
