"""hypothesis: random legal games on both maps at every allowed player count end, with the
components' invariants (cubes, sticks, markers, cargo, saturation, cards, dice) never broken;
illegal moves leave the state unchanged; records replay bit for bit."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import product

import pytest
from freight_helpers import after_draft, check_invariants, give_contract, set_dice
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from rolling.bots.freight import FreightHeuristicBot, FreightRandomBot
from rolling.core.errors import IllegalAction
from rolling.core.record import GameRecord, replay
from rolling.core.rng import Rng
from rolling.games.freight import Config, new_game
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    EndTurn,
    EstablishRoute,
    SteadyBuild,
    TakeContract,
)
from rolling.games.freight.components import COLOURS, face, load_components
from rolling.games.freight.payment import generic_budget
from rolling.games.freight.routes import enumerate_routes, link_cost, route_price, trace
from rolling.games.freight.stockpile import _counts, auto_choices, gains, options
from rolling.sim import play_game

GAMES = [("west-coast", 2), ("west-coast", 3), ("west-coast", 4), ("southern", 3), ("southern", 4), ("southern", 5)]
FAST = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


@pytest.mark.parametrize("map_name,players", GAMES)
@FAST
@given(seed=st_.integers(0, 2**32 - 1))
def test_random_legal_games_end_with_invariants_kept(map_name, players, seed):
    """Ending Phase C: every random legal game ends; the components are conserved at every step."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed ^ 0x5EED)
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        acts = state.legal_actions(seat)
        assert acts, "a seat to act always has a move"
        state.apply(rng.choice(acts))
        steps += 1
        if steps % 7 == 0:
            check_invariants(state)
        assert steps < 20000
    check_invariants(state)
    assert state.to_act == () and len(state.standings()) == players
    assert state.eop_removed == 3


def _wild_action(rng, state, seat):
    """A move that is often illegal: random slots, links, payments and cities."""
    words = ["0", "1", "2", "3", "5", "7", "blue", "gray", "red", "yellow", "x"]
    pay = " ".join(rng.choice(words) for _ in range(rng.below(4)))
    cities = [c.name for c in state.map.cities]
    link_id = rng.randint(0, len(state.map.links) + 1)
    kind = rng.below(7)
    if kind == 0:
        return TakeContract(seat, rng.randint(-1, 4), pay)
    if kind == 1:
        return Build(seat, link_id, pay, rng.randint(-1, 3))
    if kind == 2:
        return SteadyBuild(seat, link_id)
    if kind == 3:
        return EstablishRoute(seat, rng.choice(cities), rng.choice(["blue", "red", "pink"]), rng.choice(cities),
                              f"{link_id},{rng.randint(1, 9)}", pay)
    if kind == 4:
        return BuildStation(seat, pay)
    if kind == 5:
        return BuyImprovement(seat, rng.randint(-1, 3), rng.randint(-1, 4), pay)
    return EndTurn((seat + rng.below(2)) % state.n, rng.choice(["", "blue", "red,gray", "pink"]))


@FAST
@given(seed=st_.integers(0, 2**32 - 1), map_index=st_.sampled_from([1, 3]))
def test_illegal_moves_leave_the_state_unchanged(seed, map_index):
    """IllegalAction names a rule and leaves the state exactly as it was; legal ones keep the invariants."""
    map_name, players = GAMES[map_index]
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    for _ in range(600):
        if state.is_over:
            break
        seat = state.to_act[0]
        if rng.below(3) == 0:
            state.apply(rng.choice(state.legal_actions(seat)))
            continue
        action = _wild_action(rng, state, seat)
        before = state.digest()
        clone = state.clone()
        try:
            state.apply(action)
        except IllegalAction as e:
            assert e.rule and e.reason
            assert state.digest() == before
        else:
            check_invariants(state)
            assert clone.digest() == before  # the clone is independent


@FAST
@given(seed=st_.integers(0, 2**32 - 1))
def test_records_replay_bit_for_bit(seed):
    """A record {game, config, seed, actions} replays to the same state (same digest)."""
    state = new_game(Config("west-coast", 3), seed)
    actions = play_game(state, [FreightHeuristicBot(1), FreightRandomBot(seed), FreightRandomBot(seed + 1)])
    record = GameRecord("freight", state.config.to_json(), seed, [a.to_json() for a in actions])
    again = replay(record)
    assert again.digest() == state.digest() and again.is_over


def _accepts_every_listed_action(state) -> None:
    seat = state.to_act[0]
    before = state.digest()
    for a in state.legal_actions(seat):
        c = state.clone()
        c.apply(a)  # raises IllegalAction if the engine refuses its own listed move
        for p in c.players:
            assert sum(c.cubes[i] for i in p.contracts) <= c.comp.box["cubes_per_player"]
    assert state.digest() == before


@pytest.mark.parametrize("map_name,players", GAMES)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st_.integers(0, 2**32 - 1))
def test_every_listed_action_is_accepted_in_random_games(map_name, players, seed):
    """Issue 10 (the cube supply): at every state of a random game on both maps, each move that
    legal_actions lists is accepted by apply (tried on a clone)."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    while not state.is_over:
        _accepts_every_listed_action(state)
        state.apply(rng.choice(state.legal_actions(state.to_act[0])))


#: every die face there is: the basic dice and the improvement dice
FACES = sorted({f for d in load_components().basic_dice for f in d}
               | {f for d in load_components().improvement_dice.values() for f in d})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(fills=st_.lists(st_.integers(1, 7), min_size=3, max_size=3),
       faces=st_.lists(st_.sampled_from(FACES), max_size=9),
       markers=st_.lists(st_.integers(0, 2), min_size=4, max_size=4),
       steady=st_.booleans())
def test_listed_builds_never_need_more_cubes_than_are_left(fills, faces, markers, steady):
    """Equipment (20 cubes per player), issues 10 and 11: with up to 20 cubes on three long
    contracts and any dice, every listed move is accepted and no build passes 20 cubes."""
    st = after_draft("southern", 3)
    seat = st.current
    longest = sorted(st.map.links, key=lambda x: -x.length)[:3]
    total = 0
    for k, (ln, n) in enumerate(zip(longest, fills, strict=True)):
        n = max(1, min(n, ln.length - 1, 20 - total - (2 - k)))
        give_contract(st, seat, ln, n)
        total += n
    set_dice(st, seat, faces, ["basic" if "/" in f or f in COLOURS else "black" for f in faces])
    p = st.players[seat]
    p.markers = markers[:]
    st.supply = [st.supply[k] - markers[k] for k in range(4)]
    if steady:
        p.improvements = ["Steady Builder"]
    _accepts_every_listed_action(st)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(faces=st_.lists(st_.sampled_from(FACES), max_size=9),
       improvement_die=st_.lists(st_.booleans(), min_size=9, max_size=9),
       storage=st_.integers(0, 2),
       supply=st_.lists(st_.integers(0, 6), min_size=4, max_size=4))
def test_default_stockpile_is_the_best_of_all_choices(faces, improvement_die, storage, supply):
    """F, issue 14: the engine's stockpile (``end`` with no colours) gives as many markers as the
    best of every colour choice for the split dice (brute force), and the listed end-of-turn
    moves are exactly the distinct outcomes."""
    st = after_draft("west-coast", 3)
    seat = st.current
    kinds = ["black" if improvement_die[k] else "basic" for k in range(len(faces))]
    set_dice(st, seat, faces, kinds)
    st.players[seat].improvements = ["Efficient Storage"] * storage
    other = st.players[(seat + 1) % 3]
    other.markers = [6 - n for n in supply]
    st.supply = supply[:]
    _, splits = _counts(st, seat)
    dice = st.players[seat].dice
    every = {tuple(gains(st, seat, list(c))) for c in product(*[face(dice[i]).colours for i in splits])}
    best = max(sum(g) for g in every)
    assert sum(gains(st, seat, auto_choices(st, seat))) == best
    assert {tuple(g) for _, g in options(st, seat)} == every
    ends = [a for a in st.legal_actions(seat) if isinstance(a, EndTurn)]
    assert len(ends) == len(every)
    st.apply(EndTurn(seat))
    assert sum(st.players[seat].markers) == best


def _route_outcomes_by_brute_force(state, seat) -> set:
    """Every valid route the seat can pay now, as (origin, colour, dest, owners): every simple path
    of completed links up to ``budget + stations`` links (each link costs a die), checked plainly."""
    p = state.players[seat]
    second = state.routes_done == 1
    if state.routes_done >= 2 or state.saturation <= 0 or (second and "route" not in
                                                            [f for f, s in zip(p.dice, p.spent, strict=True) if not s]):
        return set()
    budget = generic_budget(p, "route", second)
    longest = budget + p.stations - state.stations_used
    out = set()
    ends: dict[int, list] = {}
    for i in state.completed:
        ln = state.map.links[i]
        ends.setdefault(ln.a, []).append((ln.b, i))
        ends.setdefault(ln.b, []).append((ln.a, i))

    def walk(origin, colour, city, seen, path):
        for nxt, i in ends.get(city, ()):
            if nxt in seen:
                continue
            route = path + [i]
            if state.open_demand(nxt, colour):
                if any(state.owner[j] == seat for j in route):
                    cost, _ = route_price(state, seat, sum(link_cost(state, seat, j) for j in route))
                    if cost <= budget:
                        out.add((origin, colour, nxt, tuple(sorted(state.owner[j] for j in route))))
            elif len(route) < longest:
                walk(origin, colour, nxt, seen | {nxt}, route)

    for origin, cargo in enumerate(state.cargo):
        for colour in set(cargo):
            walk(origin, colour, origin, {origin}, [])
    return out


@pytest.mark.parametrize("map_name,players", [("west-coast", 4), ("southern", 5)])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st_.integers(0, 2**32 - 1))
def test_listed_routes_are_every_distinct_outcome(map_name, players, seed):
    """C, issue 13: at every turn of a random game, the listed major routes are valid, payable,
    one per outcome (destination and links paid to each owner), and every outcome a plain search
    of all simple paths finds, of any length, is among them."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    turns = 0
    while not state.is_over:
        seat = state.to_act[0]
        if state.stage == "turn":
            _check_routes(state, seat)
            turns += 1
            if turns % 60 == 0:
                # Now and then a rich seat: all markers and stations, so routes may be long.
                rich = state.clone()
                p = rich.players[seat]
                for k in range(4):
                    p.markers[k] += rich.supply[k]
                    rich.supply[k] = 0
                p.stations = len(rich.comp.station_costs)
                _check_routes(rich, seat)
        state.apply(rng.choice(state.legal_actions(seat)))


def _check_routes(state, seat) -> None:
    listed = set()
    for origin, colour, dest, path, cost in enumerate_routes(state, seat):
        base = trace(state, seat, origin, colour, dest, path)
        assert route_price(state, seat, base)[0] == cost
        key = (origin, colour, dest, tuple(sorted(state.owner[i] for i in path)))
        assert key not in listed
        listed.add(key)
    assert listed == _route_outcomes_by_brute_force(state, seat)


def test_games_do_not_depend_on_the_hash_seed():
    """Determinism: the same game plays out the same in processes with different string hashing
    (the route listing once followed the order of a set of colours)."""
    code = ("from rolling.games.freight import Config, new_game\n"
            "from rolling.bots import make_bot\nfrom rolling.sim import play_game\n"
            "st = new_game(Config('southern', 3), 7)\n"
            "play_game(st, [make_bot('freight', 'random', 1), make_bot('freight', 'heuristic', 2), make_bot('freight', 'random', 3)])\n"
            "print(st.digest())\n")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout for h in (1, 2)}
    assert len(digests) == 1
