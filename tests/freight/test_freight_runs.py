"""Issue 34 / issue 33 item 1: the listing by runs (``legal.turn_runs``) and the research codec's
options made from it (``freight_codec.Options``) stand for the very listing they replace.

- expanding each run of ``turn_runs`` gives ``legal_actions`` move for move (On Your Turn: A
  contracts, B building, C routes, D stations, E improvements, F the end of the turn, in order);
- ``random_move`` draws the same move and the same number from the generator as
  ``rng.choice(legal_actions)``;
- the codec's options from the runs map every index to the action the engine's listing gives
  it, on both maps and in games of 2 to 5 players (``FreightTable._listed`` is the listing's way);
- ``ListedPays`` behaves as the list of pay strings it stands for.
"""

from __future__ import annotations

import random

import pytest

from rolling.core.rng import Rng
from rolling.games.freight import Config, legal, new_game
from rolling.games.freight.actions import BuildStation, BuyImprovement, EndTurn, EstablishRoute, TakeContract

GAMES = [("west-coast", 3, 51), ("southern", 5, 52), ("west-coast", 2, 53), ("southern", 4, 54)]


def _turn_states(map_name: str, players: int, seed: int, every: int = 1):
    """``(state, seat)`` at the decisions of a random game in a turn (not the opening draft)."""
    state = new_game(Config(map_name, players), seed)
    rng = random.Random(seed)
    k = 0
    while not state.is_over:
        seat = state.to_act[0]
        if state.stage != "draft" and k % every == 0:
            yield state, seat
        k += 1
        state.apply(rng.choice(state.legal_actions(seat)))


def _expand(state, seat: int, runs: list) -> list:
    out: list = []
    for count, kind, data in runs:
        if kind is list:
            out += data
        elif kind is TakeContract:
            slot, pays = data
            out += [TakeContract(seat, slot, pays[r]) for r in range(count)]
        elif kind is EstablishRoute:
            route, pays = data
            move = legal.route_move(state, seat, route)
            out += [EstablishRoute(seat, move.origin, move.colour, move.dest, move.path, pays[r]) for r in range(count)]
        elif kind is BuildStation:
            out += [BuildStation(seat, data[r]) for r in range(count)]
        elif kind is BuyImprovement:
            slot, discards, pays = data
            out += [BuyImprovement(seat, slot, d, pays[r]) for d in discards for r in range(len(pays))]
        else:
            out += [EndTurn(seat, store) for store, _g in data]
    assert len(out) == sum(r[0] for r in runs)  # each run's count is its moves
    return out


@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_turn_runs_expand_to_the_listing(map_name, players, seed):
    """On Your Turn (A-F): the runs, expanded, are ``legal_actions`` in its order."""
    checked = 0
    for state, seat in _turn_states(map_name, players, seed):
        assert _expand(state, seat, legal.turn_runs(state, seat)) == state.legal_actions(seat)
        checked += 1
    assert checked > 150


@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES[:2])
def test_random_move_draws_as_choice_of_the_listing(map_name, players, seed):
    """The random bot's draw by runs: the move and the generator's state of ``rng.choice``."""
    for k, (state, seat) in enumerate(_turn_states(map_name, players, seed)):
        a, b = Rng(k), Rng(k)
        assert legal.random_move(state, seat, a) == b.choice(state.legal_actions(seat))
        assert a.state == b.state


class _Counting(Rng):
    """An Rng of its own ``below`` (counting the draws): random_move draws through it."""

    __slots__ = ("asked",)

    def below(self, n: int) -> int:
        self.asked = getattr(self, "asked", 0) + 1
        return super().below(n)


def test_random_move_draws_through_a_subclass_own_below():
    """Issue 34: ``random_move`` takes an :class:`Rng`'s draw by its C step directly; a subclass
    (a scripted or another library's draws) is asked by its own ``below``, the same draws."""
    for k, (state, seat) in enumerate(_turn_states("west-coast", 3, 1, every=7)):
        a, b = _Counting(k), Rng(k)
        assert legal.random_move(state, seat, a) == legal.random_move(state, seat, b)
        assert a.state == b.state and a.asked == 1


@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_codec_options_from_runs_are_the_listings(map_name, players, seed):
    """Issue 33 item 1: the codec's options by runs, read index by index, are those of indexing
    every listed move (the draft and ``payment: "legacy"`` games still index the listing)."""
    pytest.importorskip("numpy")
    from rolling.research.freight_codec import FreightTable, Options

    checked = 0
    for state, seat in _turn_states(map_name, players, seed, every=2):
        table = FreightTable(state)
        fast = table._options(seat)
        assert isinstance(fast, Options)
        slow = table._listed(seat, *legal.turn_listing(state, seat))
        assert sorted(fast) == sorted(slow) and len(fast) == len(slow)
        for k, v in slow.items():
            got = fast[k]
            if isinstance(v, list):  # a route start: (dest, path, pays) of each candidate
                assert [(d, p, list(w)) for d, p, w in got] == [(d, p, list(w)) for d, p, w in v]
            else:
                assert got == v
        checked += 1
    assert checked > 60


def test_listed_pays_is_the_list_it_stands_for():
    """``ListedPays``: ``""`` first (the engine's payment), then each other payment's text; its
    length, negative indices, repr and IndexError past the end as the list's."""
    seen = 0
    for state, seat in _turn_states("southern", 4, 55):
        for count, kind, data in legal.turn_runs(state, seat):
            if kind is not BuildStation or count < 2:
                continue
            want = legal.pay_alternatives(state, seat, None, _station_cost(state, seat), "station",
                                          also=legal._buy_prices(state, seat, _budget(state, seat)))
            assert list(data) == want and len(data) == len(want) and repr(data) == repr(want)
            assert data[-1] == want[-1] and data[-len(want)] == ""
            with pytest.raises(IndexError):
                data[len(want)]
            seen += 1
    assert seen > 3


def _station_cost(state, seat):
    from rolling.games.freight.stations import station_cost

    return station_cost(state, seat)


def _budget(state, seat):
    from rolling.games.freight.payment import generic_budget

    return generic_budget(state.players[seat], "contract")
