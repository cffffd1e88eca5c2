"""Issue 34 (a faster Freight engine): the parts of the turn listing read the dice once and by
per-face tables, and give what the rules' per-token definitions give.

- rule B: ``legal.build_moves`` along random games, pinned (recorded with main at b023db8, before
  ``payment.build_choices``); ``build_rank`` as the text orders and allows the dice; the dice read
  once (``unspent_dice``) give the same options and engine's build as each function reading them;
  ``build_moves``, reading each contract's options and engine's build in one pass, lists what
  ``build_options`` and ``auto_build`` give, for random hands, cubes and Steady Builders too;
- rule A: ``colour_payers`` is the colours some token pays (``pays_colour``), ``generic_budget``
  the "any" dice of every token (``generic_units``); ``pay_text`` reads back as its tokens.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from rolling.bots import make_bot
from rolling.core.errors import IllegalAction
from rolling.games.freight import Config, legal, new_game
from rolling.games.freight.actions import Build, SteadyBuild
from rolling.games.freight.components import COLOURS, OCEAN, SYMBOLS
from rolling.games.freight.construction import cubes_left
from rolling.games.freight.payment import (
    PURPOSES,
    _available,
    auto_build,
    build_choices,
    build_options,
    build_range,
    build_rank,
    build_take,
    colour_payers,
    generic_budget,
    generic_units,
    parse_pay,
    pay_text,
    pays_colour,
    unspent_dice,
)


def _turn_states(seed: int, players: int = 3, map_name: str = "west-coast"):
    """``(state, seat)`` at each decision after the draft of a game of random bots."""
    state = new_game(Config(map_name, players), seed)
    bots = [make_bot("freight", "random", seed * 10 + i) for i in range(players)]
    while not state.is_over:
        seat = state.to_act[0]
        if state.stage != "draft":
            yield state, seat
        state.apply(bots[seat].choose(state, seat))


# (map, players, seed) -> (decisions, digest of every build_moves listing), recorded at b023db8
BUILD_LISTINGS = [
    ("west-coast", 3, 5, (388, "d8051f977be09eff")),
    ("southern", 4, 6, (564, "4dae71ddbfae2bd4")),
]


@pytest.mark.parametrize(("map_name", "players", "seed", "expected"), BUILD_LISTINGS)
def test_build_moves_are_pinned(map_name, players, seed, expected):
    """Issue 34, rule B: the construction moves read from the dice once are the moves listed
    before, in the same order, at every decision of a random game."""
    h = hashlib.sha256()
    n = 0
    for state, seat in _turn_states(seed, players, map_name):
        h.update((repr(legal.build_moves(state, seat)) + "\n").encode())
        n += 1
    assert (n, h.hexdigest()[:16]) == expected


# Rule B and "The Improvement Dice": a die showing the link's colour builds it (a split die either
# of its colours; an ocean link only a split die), the cubes symbol adds one or two cubes, the wild
# symbol one cube to any link; no other symbol builds. The engine spends plain dice first.
RANKS = {
    ("red", "red"): 0, ("red/blue", "red"): 1, ("blue", "red"): -1, ("gray/yellow", "red"): -1,
    ("red", OCEAN): -1, ("red/blue", OCEAN): 1, ("cubes", "red"): 2, ("cubes", OCEAN): 2,
    ("wild", "red"): 3, ("wild", OCEAN): 3, ("any", "red"): -1, ("any2", "red"): -1,
    ("bonus", OCEAN): -1, ("route", "blue"): -1,
}


@pytest.mark.parametrize(("face_colour", "rank"), RANKS.items())
def test_build_rank_follows_rule_b(face_colour, rank):
    """Issue 34, rule B: how a face builds a link, and the cubes a payment of it may add."""
    name, colour = face_colour
    assert build_rank(name, colour) == rank

    class _Mat:
        dice = [name]

    if rank < 0:
        with pytest.raises(IllegalAction):
            build_range(_Mat, [("d", 0)], colour, "B")
    else:
        assert build_range(_Mat, [("d", 0)], colour, "B") == ((1, 2) if name == "cubes" else (1, 1))


def _states(n_games: int = 2):
    for seed in range(n_games):
        yield from _turn_states(40 + seed)


def test_dice_read_once_build_the_same():
    """Issue 34, rule B: the options and the engine's build from the dice read once are each
    function's own; each option builds the link, one per face; the engine's build stops at its
    target and spends dice only."""
    checked = 0
    for state, seat in _states():
        p = state.players[seat]
        dice = unspent_dice(p)
        assert dice == [(i, d) for i, d in enumerate(p.dice) if not p.spent[i]]
        for colour in COLOURS + (OCEAN,):
            options, order = build_choices(p, colour, dice)
            assert (options, order) == build_choices(p, colour)
            assert options == build_options(p, colour)
            faces = [p.dice[t[1]] for t in options if t[0] == "d"]
            assert len(faces) == len(set(faces))
            for t in options:
                build_range(p, [t], colour, "B")  # raises where it cannot build
            for target in range(1, 5):
                tokens, added = auto_build(p, colour, target)
                assert (tokens, added) == build_take(order, target)
                assert added <= target and all(t[0] == "d" for t in tokens)
                assert added == min(target, sum(u for _r, _i, u in order))
            checked += 1
    assert checked > 500


def test_per_face_tables_give_the_per_token_rules():
    """Issue 34, rule A: the colours a seat can pay and its "any" dice, read by face tables,
    are those of its tokens one by one; a payment's text reads back as its tokens."""
    for state, seat in _states():
        p = state.players[seat]
        tokens = [t for t, _f in _available(p)]
        assert colour_payers(p) == {c for c in COLOURS + (OCEAN,) if any(pays_colour(p, t, c) for t in tokens)}
        for purpose in PURPOSES:
            for second in (False, True):
                assert generic_budget(p, purpose, second) == sum(generic_units(p, t, purpose, second) for t in tokens)
        distinct = list(dict.fromkeys(tokens))[:4]
        assert parse_pay(pay_text(distinct), p, "A") == distinct


def _listed_builds(state, seat):
    """The construction moves as rule B and the docstring of ``build_moves`` read, one function
    each: a move per token of ``build_options`` (two for a cubes symbol that can add two), the
    engine's build when ``auto_build`` spends more than one die, the Steady Builder's cube."""
    p = state.players[seat]
    left = cubes_left(state, seat)
    if not p.contracts or left <= 0:
        return []
    out = []
    for i in p.contracts:
        link = state.map.links[i]
        cap = min(link.length - state.cubes[i], left)
        for tok in build_options(p, link.colour):
            if tok[0] == "d" and p.dice[tok[1]] == "cubes":
                out += [Build(seat, link.id, pay_text([tok]), n) for n in (1, 2)[:cap]]
            else:
                out.append(Build(seat, link.id, pay_text([tok])))
        if len(auto_build(p, link.colour, cap)[0]) > 1:
            out.append(Build(seat, link.id))
        if state.steady_used < p.has("Steady Builder"):
            out.append(SteadyBuild(seat, link.id))
    return out


def test_build_moves_are_the_options_and_engines_build():
    """Issue 34, rule B: the construction moves read in one pass over the dice are the moves of
    ``build_options`` and ``auto_build``, at each decision of random games and with random hands
    (symbols, split dice, spent dice, markers), cubes on the links and Steady Builders."""
    rng = random.Random(34)
    faces = list(COLOURS) + ["red/blue", "gray/yellow", "blue/gray", "blue/red"] + list(SYMBOLS)
    checked = 0
    for state, seat in _states(3):
        assert legal.build_moves(state, seat) == _listed_builds(state, seat)
        p = state.players[seat]
        if not p.contracts:
            continue
        for _ in range(4):
            s = state.clone()
            q = s.players[seat]
            q.dice = [rng.choice(faces) for _ in q.dice]
            q.spent = [rng.random() < 0.3 for _ in q.dice]
            q.markers = [rng.choice((0, 0, 1, 2)) for _ in q.markers]
            for i in q.contracts:
                s.cubes[i] = rng.randrange(1, s.map.links[i].length)
            s.steady_used = rng.choice((0, 0, 1))
            q.improvements = q.improvements + ["Steady Builder"] * rng.choice((0, 1))
            assert legal.build_moves(s, seat) == _listed_builds(s, seat)
            checked += 1
    assert checked > 1000
