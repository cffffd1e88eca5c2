"""F. Stockpiling Resources, issue 34 (a faster Freight engine): ``stockpile.options`` worked out
by packed counts gives exactly what the plain search over every allocation of the split dice gave
(kept here as the reference): the same outcomes, in the same order, with the same store strings,
at every decision of random games on both maps and for arbitrary hands."""

from __future__ import annotations

from itertools import product

import pytest
from freight_helpers import after_draft
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from rolling.core.rng import Rng
from rolling.games.freight import Config, legal, new_game
from rolling.games.freight.components import COLOUR_INDEX, face, load_components

# the dice's counts and the compositions are unchanged by the rewrite: the reference shares them
from rolling.games.freight.stockpile import _compositions, _counts, options


def reference_options(state, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``stockpile.options`` as it was before issue 34's rewrite (commit 1160496): ``product``
    over each colour pair's compositions, a dict of each die's colour per allocation, the first
    store of each distinct outcome, then a stable sort by total, most first."""
    p = state.players[seat]
    counts, splits = _counts(state, seat)
    penalty = 0 if p.has("Efficient Storage") else 1
    groups: dict[tuple[str, ...], list[int]] = {}
    for i in splits:
        groups.setdefault(tuple(sorted(face(p.dice[i]).colours, key=COLOUR_INDEX.get)), []).append(i)
    keys = list(groups)
    seen: dict[tuple[int, ...], str] = {}
    for alloc in product(*[list(_compositions(len(groups[k]), len(k))) for k in keys]):
        n = counts[:]
        colour_of: dict[int, str] = {}
        for k, parts in zip(keys, alloc, strict=True):
            dice = iter(groups[k])
            for c, m in zip(k, parts, strict=True):
                n[COLOUR_INDEX[c]] += m
                for _ in range(m):
                    colour_of[next(dice)] = c
        g = tuple(min(max(0, x - penalty), state.supply[k]) for k, x in enumerate(n))
        if g not in seen:
            seen[g] = ",".join(colour_of[i] for i in splits)
    out = [(store, g) for g, store in seen.items()]
    out.sort(key=lambda x: -sum(x[1]))
    return tuple(out)


GAMES = [("west-coast", 2, 11), ("west-coast", 3, 12), ("west-coast", 4, 13), ("southern", 3, 14),
         ("southern", 4, 15), ("southern", 5, 16)]


@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_options_equal_the_plain_search_along_random_games(map_name, players, seed):
    """F, issue 34: at every decision of a random game, every seat's options (its dice part spent
    within a turn, the supply as it stands) are the reference's, entry for entry."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    compared = splits_seen = 0
    while not state.is_over:
        seat = state.to_act[0]
        if state.stage != "draft":
            for s in range(players):
                got = options(state, s)
                assert got == reference_options(state, s), (seat, s, state.players[s].dice)
                compared += 1
                splits_seen = max(splits_seen, len(_counts(state, s)[1]))
        state.apply(legal.random_move(state, seat, rng))
    assert compared > 300 and splits_seen >= 3


def test_interleaved_colour_pairs_name_each_die_in_die_order():
    """F: the store lists a colour per split die in die order even where the pairs' dice
    interleave; equal outcomes keep the first allocation's store; most markers first."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.dice, p.die_kinds, p.spent = ["blue/gray", "red/yellow", "gray/blue"], ["basic", "basic", "blue"], [False] * 3
    st.supply = [6, 6, 6, 6]
    assert options(st, seat) == (("blue,red,blue", (1, 0, 0, 0)), ("gray,red,gray", (0, 1, 0, 0)),
                                 ("blue,red,gray", (0, 0, 0, 0)))
    assert options(st, seat) == reference_options(st, seat)


#: (die kind, face) for every face of every die in the box
DIE_FACES = sorted({("basic", f) for d in load_components().basic_dice for f in d}
                   | {(k, f) for k, d in load_components().improvement_dice.items() for f in d})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(dice=st_.lists(st_.tuples(st_.sampled_from(DIE_FACES), st_.booleans()), max_size=11),
       storage=st_.integers(0, 2),
       supply=st_.lists(st_.integers(0, 6), min_size=4, max_size=4))
def test_options_equal_the_plain_search_for_any_hand(dice, storage, supply):
    """F, issue 34: any dice of the box (basic and improvement dice, split faces of any pairs,
    symbols), any spent, with no, one or two Efficient Storage and any supply: the same options,
    stores and order as the reference."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.dice = [f for (_, f), _ in dice]
    p.die_kinds = [k for (k, _), _ in dice]
    p.spent = [s for _, s in dice]
    p.improvements = ["Efficient Storage"] * storage
    st.supply = supply[:]
    assert options(st, seat) == reference_options(st, seat)
