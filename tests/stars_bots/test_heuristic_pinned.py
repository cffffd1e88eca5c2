"""The heuristic bot's games, pinned: its speed-ups (caches of incomes, schedules and valuations)
must not change a single decision, since balance studies and search playouts rely on them."""

from __future__ import annotations

import hashlib

import pytest

from rolling.bots import stars_heuristic as H
from rolling.bots.stars_heuristic import StarsHeuristicBot
from rolling.games.stars import Config, new_game
from rolling.sim import play_game


def fingerprint(actions, state) -> tuple:
    """(number of actions, hash of their reprs, final score per seat)."""
    digest = hashlib.sha256("\n".join(repr(a) for a in actions).encode()).hexdigest()[:16]
    return len(actions), digest, [r["score"] for r in sorted(state.standings(), key=lambda r: r["seat"])]


def clear_caches() -> None:
    H._INCOMES.clear()
    H._SCHEDULES.clear()


# recorded with the bot as it was before the caches (main at 3a777ce)
PINNED = [
    (4, (), 7, (760, "8710b2e6fa473e15", [187, 84, 160, 242])),
    (3, ("deals",), 11, (517, "ad12195066d606ca", [203, 165, 146])),
]


@pytest.mark.parametrize(("players", "variants", "seed", "expected"), PINNED)
def test_heuristic_game_is_pinned(players, variants, seed, expected):
    for cold in (True, False):  # with empty caches, then with the caches the first game filled
        if cold:
            clear_caches()
        state = new_game(Config(players=players, variants=variants), seed)
        actions = play_game(state, [StarsHeuristicBot(j) for j in range(players)])
        assert fingerprint(actions, state) == expected


def test_cached_schedule_and_valuations_equal_fresh_ones():
    """At every decision of a game, the cached horizon equals one computed afresh, and the
    valuations memoised on it equal those computed on a plain list."""
    clear_caches()
    state = new_game(Config(players=4), 5)
    bots = [StarsHeuristicBot(j) for j in range(4)]
    checked = 0
    while not state.is_over:
        seat = state.to_act[0]
        rate = max(1.0, StarsHeuristicBot.RATE_PER_PLAYER * state.n)
        sched = H.schedule(state, rate)
        fresh = H._horizon(state, rate)
        assert list(sched) == fresh
        assert H.horizon(state, rate) == fresh
        for c in range(8):
            owned = state.companies_of(H.CORP_BASE + c)
            if not owned:
                continue
            assert H.income_sum(c, owned, sched) == sum(H.corp_incomes(c, owned, fresh))
            for i in owned:
                others = [j for j in owned if j != i]
                for keep in (False, True):
                    assert H.corp_value(c, i, others, sched, keep) == H.corp_value(c, i, others, fresh, keep)
                    assert H.private_value(i, sched, keep) == H.private_value(i, fresh, keep)
                    checked += 1
        state.apply(bots[seat].choose(state, seat))
    assert checked > 100


def test_cached_schedule_follows_a_treasury_change():
    """A treasury large enough to justify the $75 card cuts the horizon short: the cache must see it."""
    clear_caches()
    state = new_game(Config(players=4), 5)
    bots = [StarsHeuristicBot(j) for j in range(4)]
    while not any(state.corp_active[c] and state.corp_card[c] >= 0 and state.phase == 3 for c in range(8)):
        seat = state.to_act[0]
        state.apply(bots[seat].choose(state, seat))
    rate = max(1.0, StarsHeuristicBot.RATE_PER_PLAYER * state.n)
    before = H.horizon(state, rate)
    c = next(c for c in range(8) if state.corp_active[c] and state.corp_card[c] >= 0)
    state.corp_cash[c] += 10_000
    after = H.horizon(state, rate)
    assert after == H._horizon(state, rate) and len(after) < len(before)
