"""Previews (rolling.games.freight.previews): what taking a contract or an improvement, building,
a route, a station or ending the turn would do, with the rule text's numbers, and always the
numbers the engine then produces."""

from __future__ import annotations

from dataclasses import replace

import pytest
from freight_helpers import after_draft, give_contract, set_dice
from test_freight_rules import amy_board, put_on_track

from rolling.core.errors import IllegalAction
from rolling.core.rng import Rng
from rolling.games.freight import Config, new_game, previews
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    EndTurn,
    EstablishRoute,
    TakeContract,
)
from rolling.games.freight.payment import pay_text


def test_contract_red_5a_costs_one_red_and_three_any():
    """A: Taking on Contracts: "Nich wants to build contract Red 5A. He spends one die showing red
    and three more dice of any color"; with Acquisition Expert one fewer."""
    st = after_draft("southern", 3)
    seat = st.current
    ln = next(x for x in st.map.links if x.label == "Red 5A")
    put_on_track(st, ln, 0)
    set_dice(st, seat, ["red", "gray", "yellow", "blue", "blue/gray", "gray"])
    cost = previews.contract(st, TakeContract(seat, 0))
    assert (cost.colour, cost.dice) == ("red", 3) and cost.pay is not None and len(cost.pay) == 4
    st.players[seat].improvements = ["Acquisition Expert"]
    assert previews.contract(st, TakeContract(seat, 0)).dice == 2
    set_dice(st, seat, ["blue", "gray", "yellow", "yellow", "blue/gray", "gray"])
    assert previews.contract(st, TakeContract(seat, 0)).pay is None, "no die shows red"


def test_slash_contract_costs_one_split_and_one_any():
    """A: "Debra wants to build the Slash 8B contract. She spends one die showing a split of two or
    more colors and one more dice of any type"."""
    st = after_draft("southern", 3)
    seat = st.current
    ln = next(x for x in st.map.links if x.colour == "ocean" and x.number == 8)
    put_on_track(st, ln, 1)
    set_dice(st, seat, ["red/yellow", "gray", "yellow", "blue", "gray", "gray"])
    cost = previews.contract(st, TakeContract(seat, 1))
    assert (cost.colour, cost.dice) == ("ocean", 1) and ("d", 0) in cost.pay


def test_build_completing_gray_2a_scores_6():
    """B: Constructing Links: Amy has 4 of the 6 cubes on Gray 2A and also works Blue 4A; two gray
    dice add two cubes and complete it: a length 6 contract with two in progress scores $6."""
    st = after_draft("west-coast", 3)
    amy = st.current
    gray_2a = next(x for x in st.map.links if x.label == "Gray 2A")
    give_contract(st, amy, gray_2a, 4)
    give_contract(st, amy, next(x for x in st.map.links if x.label == "Blue 4A"), 1)
    set_dice(st, amy, ["gray", "blue/gray", "red", "yellow", "blue", "red/yellow"])
    done = previews.build(st, Build(amy, gray_2a.id, "0 1"))
    assert (done.cubes, done.filled, done.length, done.score) == (2, 6, 6, 6)
    part = previews.build(st, Build(amy, gray_2a.id, "0"))
    assert (part.cubes, part.filled, part.score) == (1, 5, 0)
    with pytest.raises(IllegalAction):
        previews.build(st, Build(amy, gray_2a.id, "0 2"))  # a red die does not show gray


def test_amys_route_costs_5_dice_and_pays_james_2_doug_1_amy_5():
    """C: Establishing Major Routes / D: stations, the text's example: 9 dice (3 own links, 3 of
    other players at 2) less 4 stations: 5 dice. James scores $2, Doug $1, Amy $3 for her links and
    $2 distance bonus (blue, 6 links), $5 in all."""
    st, amy, doug, james, path = amy_board()
    set_dice(st, amy, ["blue", "gray", "red", "yellow", "blue/gray", "gray"])
    r = previews.route(st, EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path))
    assert (r.links, r.base, r.stations, r.dice) == (6, 9, 4, 5) and len(r.pay) == 5
    assert r.payouts == tuple(sorted([(amy, 3, 3), (doug, 1, 1), (james, 2, 2)]))
    assert r.distance_bonus == 2 and r.dice_bonus == 0
    assert (r.earns(amy), r.earns(james), r.earns(doug)) == (5, 2, 1)
    set_dice(st, amy, ["blue", "gray", "red", "yellow"])
    assert previews.route(st, EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path)).pay is None


def test_route_with_a_friendly_owner_and_a_bonus_symbol():
    """C / E, Friendly: others pay one fewer die for James's links and he scores $1 more; the
    improvement dice's bonus symbol spent in the price earns $2."""
    st, amy, doug, james, path = amy_board()
    st.players[james].improvements = ["Friendly"]
    st.players[amy].stations = 0
    set_dice(st, amy, ["blue"] * 6 + ["bonus"], ["basic"] * 6 + ["yellow"])
    r = previews.route(st, EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, "0 1 2 3 4 5 6"))
    assert (r.base, r.dice) == (7, 7)
    assert r.earns(james) == 2 + 1 and r.dice_bonus == 2 and r.earns(amy) == 3 + 2 + 2
    with pytest.raises(IllegalAction):
        previews.route(st, EstablishRoute(amy, "Fresno", "red", "Los Angeles", path))  # no red cargo


def test_improvement_and_station_costs():
    """E: "Amy wants Efficient Storage. She spends four dice"; "James wants to add a yellow die ... He
    spends six dice"; a fourth improvement returns one. D: a station costs its mat space's dice."""
    st = after_draft("southern", 3)
    seat = st.current
    st.improvement_track[0] = "Efficient Storage"
    st.improvement_track[1] = "Yellow Die"
    set_dice(st, seat, ["blue"] * 6)
    assert previews.improvement(st, BuyImprovement(seat, 0)).cost.dice == 4
    yellow = previews.improvement(st, BuyImprovement(seat, 1))
    assert yellow.cost.dice == 6 and len(yellow.cost.pay) == 6 and yellow.returned is None
    st.players[seat].improvements = ["Friendly", "Steady Builder", "Black Die"]
    assert previews.improvement(st, BuyImprovement(seat, 0, 0)).returned == "Friendly"
    assert previews.station(st, BuildStation(seat)).dice == st.comp.station_costs[0]
    st.players[seat].stations = len(st.comp.station_costs)
    assert previews.station(st, BuildStation(seat)) is None, "the mat is full"


def test_stockpile_three_blue_dice_give_two_markers():
    """F. Stockpiling Resources: with three blue dice remaining, take two blue markers; four red and
    two yellow give three red and one yellow."""
    st = after_draft("west-coast", 3)
    seat = st.current
    set_dice(st, seat, ["blue", "blue", "blue"])
    assert previews.stockpile(st, EndTurn(seat)) == (2, 0, 0, 0)
    set_dice(st, seat, ["red"] * 4 + ["yellow"] * 2)
    assert previews.stockpile(st, EndTurn(seat)) == (0, 0, 3, 1)


@pytest.mark.parametrize("seed", range(3))
def test_previews_are_what_the_engine_then_does(seed):
    """Every preview of a legal move equals the engine's result: stock earned by each player, cubes
    added, markers taken, dice spent."""
    st = new_game(Config("west-coast" if seed % 2 else "southern", 3 + seed % 2), seed)
    rng = Rng(seed)
    seen = set()
    while not st.is_over:
        seat = st.to_act[0]
        moves = st.legal_actions(seat)
        # a sample of states and of each kind's moves keeps the test quick; every kind shows up
        sample = [] if rng.below(3) else [a for k, a in enumerate(moves) if k < 12 or rng.below(8) == 0]
        for a in sample:
            t = st.clone()
            stock = [p.stock for p in t.players]
            if isinstance(a, EstablishRoute):
                r = previews.route(st, a)
                t.apply(a)
                assert [p.stock - s for p, s in zip(t.players, stock, strict=True)] == [r.earns(k) for k in range(st.n)]
            elif isinstance(a, Build):
                b = previews.build(st, a)
                t.apply(a)
                assert t.players[seat].stock - stock[seat] == b.score
                assert t.cubes[b.link] == (0 if b.score else b.filled)
            elif isinstance(a, TakeContract | BuyImprovement | BuildStation):
                cost = {TakeContract: previews.contract, BuildStation: previews.station,
                        BuyImprovement: lambda s, x: previews.improvement(s, x).cost}[type(a)](st, a)
                t.apply(a)
                explicit = st.clone()
                explicit.apply(replace(a, pay=pay_text(cost.pay)))
                assert explicit.digest() == t.digest(), "the engine pays with the previewed dice"
            elif isinstance(a, EndTurn):
                g = previews.stockpile(st, a)
                markers = list(t.players[seat].markers)
                t.apply(a)
                assert tuple(m - n for m, n in zip(t.players[seat].markers, markers, strict=True)) == g
            else:
                continue
            seen.add(type(a).__name__)
        st.apply(moves[rng.below(len(moves))])
    assert {"EstablishRoute", "Build", "TakeContract", "BuyImprovement", "BuildStation", "EndTurn"} <= seen
