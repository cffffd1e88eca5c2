"""Rule-by-rule tests with the rule text's own numbers and examples."""

from __future__ import annotations

import pytest
from freight_helpers import after_draft, check_invariants, give_contract, link, own, set_dice

from rolling.core.errors import IllegalAction
from rolling.games.freight import Config, new_game
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    DraftContract,
    DraftImprovement,
    EndTurn,
    EstablishRoute,
    SteadyBuild,
    TakeContract,
)
from rolling.games.freight.components import END_OF_PHASE, load_components
from rolling.games.freight.construction import contract_score
from rolling.games.freight.phases import end_phase
from rolling.games.freight.refill import fill_improvement_track
from rolling.games.freight.routes import distance_bonus, parse_path, route_price, trace


def unchanged(st, action):
    """Apply an action that must be illegal; the state must not change."""
    before = st.digest()
    with pytest.raises(IllegalAction) as e:
        st.apply(action)
    assert st.digest() == before
    return e.value


def put_on_track(st, ln, slot=0):
    """Put the contract card of ``ln`` on the contract track at ``slot``."""
    if ln.index in st.contract_deck:
        st.contract_deck.remove(ln.index)
    old = st.contract_track[slot]
    if ln.index in st.contract_track:
        st.contract_track[st.contract_track.index(ln.index)] = old
    elif old is not None:
        st.contract_deck.insert(0, old)
    st.contract_track[slot] = ln.index


# -- Setting Up the Game Board / Beginning the Game -----------------------------------------------


@pytest.mark.parametrize("name,players", [("west-coast", 2), ("southern", 5)])
def test_setup_deck_tracks_and_cargo(name, players):
    """Setting Up: deck EoP/C/EoP/B/EoP/A (A on top), 4 contracts and 3 distinct improvements dealt,
    coloured and white inner circles get cargo, B/C cities none yet; every player has 6 rolled dice."""
    st = new_game(Config(name, players), 3)
    m = st.map
    deck = st.contract_deck
    assert deck[0] == END_OF_PHASE and deck.count(END_OF_PHASE) == 3
    eops = [i for i, c in enumerate(deck) if c == END_OF_PHASE]
    sets = ["".join(sorted({m.links[c].set for c in deck[a + 1:b]})) for a, b in zip(eops, eops[1:] + [len(deck)], strict=True)]
    assert sets == ["C", "B", "A"]
    assert len(st.contract_track) == 4 and all(m.links[c].set == "A" for c in st.contract_track)
    assert len(st.improvement_track) == 3 == len(set(st.improvement_track))
    for c in m.cities:
        if c.surplus == "black":
            assert st.cargo[c.index] == []
        elif c.surplus == "white":
            assert len(st.cargo[c.index]) == 1
        else:
            assert st.cargo[c.index] == [c.surplus]
    assert all(len(p.dice) == 6 for p in st.players)
    if name == "west-coast":
        assert "Red Die" not in st.improvement_deck + st.improvement_track
    check_invariants(st)


def test_opening_draft_counter_clockwise_twice_start_player_last_then_first():
    """Beginning the Game: from the start player's right counter-clockwise, one card each, then a
    second round of the other kind; the start player drafts last and takes the first turn."""
    st = new_game(Config("west-coast", 4), 2)
    assert st.draft_order == [3, 2, 1, 0, 3, 2, 1, 0]
    first = st.players[3]
    st.apply(DraftContract(3, 0))
    assert len(first.contracts) == 1 and st.cubes[first.contracts[0]] == 1
    assert len(st.contract_track) == 4  # refilled at once during the draft
    for seat in (2, 1, 0):
        st.apply(DraftContract(seat, 0))
    e = unchanged(st, DraftContract(3, 0))
    assert e.rule == "Beginning the Game"
    for seat in (3, 2, 1):
        st.apply(DraftImprovement(seat, 0))
    st.apply(st.legal_actions(0)[0])
    assert st.stage == "turn" and st.to_act == (0,)
    check_invariants(st)


def test_draft_improvement_die_rolled_at_once():
    """Beginning the Game: an improvement that gives a new die is rolled at once and added."""
    st = new_game(Config("southern", 3), 1)
    st.improvement_track[0] = "Black Die"
    st.improvement_deck.append(st.improvement_deck.pop(st.improvement_deck.index("Black Die")) if "Black Die" in st.improvement_deck else "Black Die")
    st.improvement_deck.pop()
    seat = st.to_act[0]
    st.apply(DraftImprovement(seat, 0))
    p = st.players[seat]
    assert len(p.dice) == 7 and p.die_kinds[-1] == "black"
    assert p.dice[-1] in load_components().improvement_dice["black"]


# -- A: Taking on Contracts -------------------------------------------------------------------------


def test_red_5a_costs_one_red_and_three_any():
    """A: Nich takes Red 5A paying one die showing red and three more dice of any colour."""
    st = after_draft("southern", 3)
    seat = st.current
    ln = next(x for x in st.map.links if x.label == "Red 5A")
    assert ln.cost == 3
    put_on_track(st, ln, 0)
    set_dice(st, seat, ["blue", "gray", "yellow", "yellow", "blue/gray", "gray"])
    e = unchanged(st, TakeContract(seat, 0, "0 1 2 3"))
    assert e.rule == "A: Taking on Contracts"
    set_dice(st, seat, ["red", "gray", "yellow", "blue", "blue/gray", "gray"])
    unchanged(st, TakeContract(seat, 0, "0 1 2"))  # short by one
    unchanged(st, TakeContract(seat, 0, "0 1 2 3 4"))  # one die pays for nothing
    st.apply(TakeContract(seat, 0, "0 1 2 3"))
    assert st.players[seat].contracts == [ln.index] and st.cubes[ln.index] == 1
    assert st.contract_track[0] is None  # gaps wait for step G


def test_slash_contract_costs_one_split_and_one_any():
    """A: Debra takes a Slash contract with cost one: a die showing two colours plus one any die.

    (The text calls it Slash 8B; the Southern table puts ocean 8 in set C, so our card is Slash 8C.)"""
    st = after_draft("southern", 3)
    seat = st.current
    ln = next(x for x in st.map.links if x.colour == "ocean" and x.number == 8)
    assert ln.cost == 1
    put_on_track(st, ln, 1)
    set_dice(st, seat, ["red", "gray", "yellow", "blue", "gray", "gray"])
    unchanged(st, TakeContract(seat, 1, "0 1"))
    st.players[seat].markers[0] = 1
    st.supply[0] -= 1
    unchanged(st, TakeContract(seat, 1, "blue 1"))  # markers are one colour, never a slash
    set_dice(st, seat, ["red/yellow", "gray", "yellow", "blue", "gray", "gray"])
    st.apply(TakeContract(seat, 1, "0 1"))
    assert ln.index in st.players[seat].contracts


def test_at_most_three_contracts():
    """A: you are limited to three contracts at a time."""
    st = after_draft("west-coast", 3)
    seat = st.current
    for c in st.map.links[:3]:
        give_contract(st, seat, c, 1)
    set_dice(st, seat, ["red"] * 6)
    assert not any(isinstance(a, TakeContract) for a in st.legal_actions(seat))
    unchanged(st, TakeContract(seat, 0))


# -- B: Constructing Links ----------------------------------------------------------------------


def test_scoring_table():
    """B: the table of stock for a completed contract, by length and contracts in progress."""
    comp = load_components()
    assert contract_score(comp, 6, 2) == 6
    assert contract_score(comp, 8, 1) == 15 and contract_score(comp, 2, 3) == 1


def test_amy_completes_gray_2a_with_two_gray_dice_and_scores_6():
    """B, issue 12, the text's example: "Amy (white) managed to place four of the six required
    construction cubes on the gray 2A link last turn. This turn she completes this link by
    spending two dice that show gray." She was working two contracts, Gray 2A and Blue 4A, and
    "the payout for completing a length 6 contract when the player has two contracts is 6"."""
    st = after_draft("west-coast", 3)
    amy = st.current
    gray_2a = next(x for x in st.map.links if x.label == "Gray 2A")
    blue_4a = next(x for x in st.map.links if x.label == "Blue 4A")
    assert (gray_2a.colour, gray_2a.length) == ("gray", 6)
    give_contract(st, amy, gray_2a, 4)
    give_contract(st, amy, blue_4a, 1)
    set_dice(st, amy, ["gray", "blue/gray", "red", "yellow", "blue", "red/yellow"])
    stock = st.players[amy].stock
    unchanged(st, Build(amy, gray_2a.id, "0 2"))  # a red die does not show gray
    st.apply(Build(amy, gray_2a.id, "0 1"))
    p = st.players[amy]
    assert p.stock == stock + 6
    assert st.owner[gray_2a.index] == amy and p.contracts == [blue_4a.index] and st.cubes[gray_2a.index] == 0
    assert p.links_owned == 1 and gray_2a.index in st.completed
    check_invariants(st)


def test_construction_dice_must_match_colour_and_ocean_needs_split():
    """B: each die must show the link's colour; a split die pays either colour or an ocean link."""
    st = after_draft("west-coast", 3)
    seat = st.current
    land = link(st, "Sacramento", "Reno", "gray")
    sea = link(st, "Santa Maria", "Los Angeles", "ocean")
    give_contract(st, seat, land, 1)
    give_contract(st, seat, sea, 1)
    set_dice(st, seat, ["red", "blue/gray", "gray", "red/yellow", "cubes", "wild"], ["basic"] * 4 + ["black"] * 2)
    e = unchanged(st, Build(seat, land.id, "0"))
    assert e.rule == "B: Constructing Links"
    unchanged(st, Build(seat, sea.id, "2"))  # a plain die cannot build an ocean link
    st.apply(Build(seat, land.id, "1"))
    assert st.cubes[land.index] == 2
    st.apply(Build(seat, sea.id, "3 4"))  # split die, then the cubes symbol adds two
    assert st.cubes[sea.index] == 4 == sea.length or st.owner[sea.index] == seat
    unchanged(st, Build(seat, land.id, "1"))  # already spent


def test_steady_builder_once_per_turn():
    """Steady Builder: once per turn, add a construction cube to a link you're constructing."""
    st = after_draft("west-coast", 3)
    seat = st.current
    ln = link(st, "Seattle", "Portland", "blue")
    give_contract(st, seat, ln, 1)
    st.players[seat].improvements = ["Steady Builder"]
    st.apply(SteadyBuild(seat, ln.id))
    assert st.cubes[ln.index] == 2
    unchanged(st, SteadyBuild(seat, ln.id))


def _cubes_on_board(st, seat):
    return sum(st.cubes[i] for i in st.players[seat].contracts)


def test_cube_supply_of_twenty_bounds_every_build():
    """Equipment (20 rail construction cubes per player), issue 10: with 19 cubes on three
    unfinished contracts a build adds one cube; the engine's own payment counts the cubes left,
    no listed move asks for more, and with none left nothing can be built."""
    st = after_draft("southern", 3)
    seat = st.current
    longest = sorted((x for x in st.map.links if x.colour != "ocean"), key=lambda x: -x.length)[:3]
    assert [x.length for x in longest] == [8, 8, 7]
    for ln, cubes in zip(longest, (7, 7, 5), strict=True):
        give_contract(st, seat, ln, cubes)
    st.players[seat].improvements = ["Steady Builder"]
    third = longest[2]  # two empty squares, one cube left
    set_dice(st, seat, [third.colour] * 3 + ["cubes"], ["basic"] * 3 + ["black"])
    builds = [a for a in st.legal_actions(seat) if isinstance(a, Build)]
    assert builds and Build(seat, third.id) not in builds  # one die would do: no "all dice" move
    assert Build(seat, third.id, "3", 2) not in builds and Build(seat, third.id, "3", 1) in builds
    for a in builds:
        c = st.clone()
        c.apply(a)  # one cube: the 20th, or the last square of a contract that then gives its cubes back
        assert _cubes_on_board(c, seat) == 20 or c.players[seat].links_owned == 1
    e = unchanged(st, Build(seat, third.id, "0 1"))
    assert e.rule == "B: Constructing Links" and "1 construction cube(s) left" in e.reason
    unchanged(st, Build(seat, third.id, "3", 2))
    st.apply(Build(seat, third.id))  # the engine pays one die for the one cube left
    assert st.cubes[third.index] == 6 and st.players[seat].spent == [True, False, False, False]
    assert _cubes_on_board(st, seat) == 20
    assert not any(isinstance(a, (Build, SteadyBuild)) for a in st.legal_actions(seat))
    e = unchanged(st, Build(seat, third.id, "1"))
    assert "all 20" in e.reason
    unchanged(st, Build(seat, third.id))
    e = unchanged(st, SteadyBuild(seat, third.id))
    assert "all 20" in e.reason


def test_cubes_symbol_adds_one_or_two_cubes_at_the_players_choice():
    """The Improvement Dice, issue 11: the cubes symbol "may be spent to add one or two
    construction cubes to one of your contracts"; both are listed, the default adds two, and
    with one empty square or one cube left it adds one."""
    st = after_draft("west-coast", 3)
    seat = st.current
    ln = link(st, "Santa Cruz", "Santa Maria", "blue")  # Blue 4A, length 5
    give_contract(st, seat, ln, 1)
    set_dice(st, seat, ["cubes", "blue", "red"], ["black", "basic", "basic"])
    builds = [a for a in st.legal_actions(seat) if isinstance(a, Build) and a.pay == "0"]
    assert builds == [Build(seat, ln.id, "0", 1), Build(seat, ln.id, "0", 2)]
    for cubes, after in ((1, 2), (2, 3), (0, 3)):
        c = st.clone()
        c.apply(Build(seat, ln.id, "0", cubes))
        assert c.cubes[ln.index] == after
    c = st.clone()
    c.apply(Build(seat, ln.id, "0 1", 2))  # a blue die and the symbol: two or three cubes
    assert c.cubes[ln.index] == 3
    e = unchanged(st, Build(seat, ln.id, "0", 3))
    assert e.rule == "B: Constructing Links" and "1 to 2 cubes, not 3" in e.reason
    unchanged(st, Build(seat, ln.id, "0 1", 1))  # two dice add at least two cubes
    unchanged(st, Build(seat, ln.id, "0", -1))
    st.cubes[ln.index] = 4  # one empty square: one cube, and the contract completes
    assert [a for a in st.legal_actions(seat) if isinstance(a, Build) and a.pay == "0"] == [Build(seat, ln.id, "0", 1)]
    unchanged(st, Build(seat, ln.id, "0", 2))
    c = st.clone()
    c.apply(Build(seat, ln.id, "0"))
    assert c.owner[ln.index] == seat
    st = after_draft("west-coast", 3)
    seat = st.current
    target = link(st, "Portland", "Boise", "blue")  # length 8
    give_contract(st, seat, target, 6)
    give_contract(st, seat, link(st, "Eureka", "Portland", "ocean"), 7)
    give_contract(st, seat, link(st, "Boise", "Salt Lake City", "gray"), 6)  # 19 cubes out, one left
    set_dice(st, seat, ["cubes"], ["black"])
    assert [a for a in st.legal_actions(seat) if isinstance(a, Build) and a.link == target.id] == [
        Build(seat, target.id, "0", 1)]
    e = unchanged(st, Build(seat, target.id, "0", 2))
    assert "only 1 construction cube(s) left" in e.reason
    st.apply(Build(seat, target.id, "0"))
    assert st.cubes[target.index] == 7 and _cubes_on_board(st, seat) == 20


# -- C: Establishing Major Routes -----------------------------------------------------------------


def amy_board():
    """Amy's example (phase B): Fresno - Sacramento (Amy) - Oakland (Doug) - San Francisco (Amy) -
    Santa Cruz (James) - Santa Maria (Amy) - Los Angeles (James, by water)."""
    st = after_draft("west-coast", 3)
    amy = st.current
    doug, james = (amy + 1) % 3, (amy + 2) % 3
    st.phase = 1
    own(st, link(st, "Fresno", "Sacramento", "gray"), amy)
    own(st, link(st, "Sacramento", "Oakland", "red"), doug)
    own(st, link(st, "Oakland", "San Francisco", "yellow"), amy)
    own(st, link(st, "San Francisco", "Santa Cruz", "yellow"), james)
    own(st, link(st, "Santa Cruz", "Santa Maria", "blue"), amy)
    own(st, link(st, "Santa Maria", "Los Angeles", "ocean"), james)
    st.cargo[st.map.city_index["Fresno"]] = ["blue"]
    st.players[amy].stations = 4
    path = ",".join(str(link(st, *x).id) for x in (
        ("Fresno", "Sacramento", "gray"), ("Sacramento", "Oakland", "red"), ("Oakland", "San Francisco", "yellow"),
        ("San Francisco", "Santa Cruz", "yellow"), ("Santa Cruz", "Santa Maria", "blue"),
        ("Santa Maria", "Los Angeles", "ocean")))
    return st, amy, doug, james, path


def test_amys_fresno_to_los_angeles_route():
    """C/D: 9 dice (3 own + 2 x 3 others) less 4 stations = 5; James $2, Doug $1, Amy $3 + $2 slow
    distance bonus for 6 links; Amy keeps the blue marker, worth $2 at the end of phase B."""
    st, amy, doug, james, path = amy_board()
    links = parse_path(st, path)
    assert trace(st, amy, st.map.city_index["Fresno"], "blue", st.map.city_index["Los Angeles"], links) == 9
    assert route_price(st, amy, 9) == (5, 4)
    set_dice(st, amy, ["blue", "gray", "red", "yellow", "blue/gray", "gray"])
    stock = [p.stock for p in st.players]
    unchanged(st, EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, "0 1 2 3"))  # 4 < 5
    st.apply(EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, "0 1 2 3 4"))
    gained = [p.stock - s for p, s in zip(st.players, stock, strict=True)]
    assert gained[james] == 2 and gained[doug] == 1 and gained[amy] == 3 + 2
    assert st.players[amy].cargo == ["blue"] and st.cargo[st.map.city_index["Fresno"]] == []
    la = st.map.city_index["Los Angeles"]
    assert [r for r in st.rings[la] if r[0] == "blue"][0][2] is True  # saturated
    assert st.saturation == 61
    before = st.players[amy].stock
    st.contract_deck.remove(END_OF_PHASE)  # as if Amy had drawn phase B's End of Phase card
    st.eop_holder = amy
    end_phase(st)
    assert st.players[amy].stock == before + 2 and st.players[amy].cargo == []
    check_invariants(st)


def test_route_limits_one_per_turn_own_link_and_no_demanding_city_on_the_way():
    """C: one major route each turn; at least one link must be yours; no city wanting the cargo on the way."""
    st, amy, doug, james, path = amy_board()
    set_dice(st, amy, ["blue"] * 6 + ["gray"] * 4)
    # James cannot use the route alone: the route needs one of his own links... he has two, so test Doug
    # on a path of Amy's links only.
    fs = link(st, "Fresno", "Sacramento", "gray")
    st.cargo[st.map.city_index["Sacramento"]] = ["red"]
    st.current = doug
    set_dice(st, doug, ["blue"] * 6)
    e = unchanged(st, EstablishRoute(doug, "Sacramento", "red", "Fresno", str(fs.id)))
    assert "own" in e.reason or "wants" in e.reason or "demand" in e.reason
    st.current = amy
    # Oakland wants yellow: a yellow cargo from San Francisco may stop there but not pass through.
    st.cargo[st.map.city_index["San Francisco"]] = ["yellow"]
    oak_sf = link(st, "Oakland", "San Francisco", "yellow")
    sac_oak = link(st, "Sacramento", "Oakland", "red")
    e = unchanged(st, EstablishRoute(amy, "San Francisco", "yellow", "Sacramento", f"{oak_sf.id},{sac_oak.id}"))
    assert "Sacramento" in e.reason or "Oakland" in e.reason
    st.apply(EstablishRoute(amy, "San Francisco", "yellow", "Oakland", str(oak_sf.id)))
    assert st.players[amy].stock >= 1 + 3  # $1 own link, fast distance 1 bonus $3
    e = unchanged(st, EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path))
    assert "second" in e.reason


def test_second_route_with_the_route_symbol_and_unused_stations():
    """Improvement dice: the route symbol pays toward a second route; stations used by the first
    route do not discount the second."""
    st, amy, doug, james, path = amy_board()
    st.players[amy].stations = 1
    set_dice(st, amy, ["blue", "gray", "red", "yellow", "blue", "gray", "route"], ["basic"] * 6 + ["black"])
    oak_sf = link(st, "Oakland", "San Francisco", "yellow")
    st.cargo[st.map.city_index["San Francisco"]] = ["yellow"]
    st.apply(EstablishRoute(amy, "San Francisco", "yellow", "Oakland", str(oak_sf.id), "0"))
    assert st.stations_used == 0  # a one-die route cannot be discounted below one
    sac = link(st, "Fresno", "Sacramento", "gray")
    st.cargo[st.map.city_index["Fresno"]] = ["red"]
    unchanged(st, EstablishRoute(amy, "Fresno", "red", "Sacramento", str(sac.id), "1"))  # no route symbol
    st.apply(EstablishRoute(amy, "Fresno", "red", "Sacramento", str(sac.id), "6"))
    assert st.routes_done == 2


def test_major_routes_of_any_length_are_listed():
    """C, issue 13: the text sets no limit on a route's length. A 12-link route, Yuma to Medford
    with yellow cargo over the seat's own links, is listed and established when the seat can pay
    it; with one station fewer it cannot, and it is neither listed nor accepted."""
    st = after_draft("west-coast", 3)
    seat = st.current
    chain = ["Yuma", "San Diego", "Los Angeles", "San Bernardino", "Las Vegas", "Filmore", "Salt Lake City",
             "Boise", "Winnemucca", "Reno", "Sacramento", "Redding", "Medford"]
    index = st.map.city_index
    path = []
    for a, b in zip(chain, chain[1:], strict=False):
        ln = next(x for x in st.map.links if {x.a, x.b} == {index[a], index[b]})
        own(st, ln, seat)
        path.append(str(ln.id))
    yuma = index["Yuma"]
    st.bag += st.cargo[yuma]
    st.bag.remove("yellow")
    st.cargo[yuma] = ["yellow"]
    set_dice(st, seat, ["blue", "gray", "red", "yellow", "blue/gray", "red/yellow"])
    route = EstablishRoute(seat, "Yuma", "yellow", "Medford", ",".join(path))
    st.players[seat].stations = 5  # 12 dice less 5 stations = 7 dice; the seat has 6
    assert route not in st.legal_actions(seat)
    unchanged(st, route)
    st.players[seat].stations = 6
    assert route in st.legal_actions(seat)
    stock = st.players[seat].stock
    st.apply(route)
    assert st.players[seat].stock == stock + 12  # $1 per own link; no distance bonus past 5 fast links
    assert all(st.players[seat].spent) and st.players[seat].cargo == ["yellow"]
    check_invariants(st)


def test_distance_bonus_table():
    """Distance Bonuses: fast 3,2,2,1,1 for 1-5 links; slow 1,1,2,2,3,4,5 for 3-9 links."""
    comp = load_components()
    assert [distance_bonus(comp, "red", n) for n in range(1, 11)] == [3, 2, 2, 1, 1, 0, 0, 0, 0, 0]
    assert [distance_bonus(comp, "yellow", n) for n in range(1, 6)] == [3, 2, 2, 1, 1]
    assert [distance_bonus(comp, "blue", n) for n in range(1, 11)] == [0, 0, 1, 1, 2, 2, 3, 4, 5, 0]
    assert distance_bonus(comp, "gray", 6) == 2


def test_friendly_owner_charges_one_die_and_scores_a_bonus_point():
    """Friendly: others pay one fewer die for your links and you score $1 more when they use them."""
    st, amy, doug, james, path = amy_board()
    st.players[james].improvements = ["Friendly"]
    st.players[amy].stations = 0
    set_dice(st, amy, ["blue"] * 6 + ["gray"] * 4)
    stock = st.players[james].stock
    # Amy's 3 links at 1, James's 2 at 1 (Friendly), Doug's 1 at 2: 7 dice.
    unchanged(st, EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, "0 1 2 3 4 5"))
    st.apply(EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, "0 1 2 3 4 5 6"))
    assert st.players[james].stock == stock + 2 + 1


def test_bonus_symbol_earns_two_dollars_in_a_route():
    """Improvement dice: the bonus symbol spent in a route's price earns $2 more."""
    st, amy, doug, james, path = amy_board()
    set_dice(st, amy, ["blue", "gray", "red", "yellow", "bonus"], ["basic"] * 4 + ["yellow"])
    before = st.players[amy].stock
    st.apply(EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, "0 1 2 3 4"))
    assert st.players[amy].stock == before + 3 + 2 + 2


# -- D: Switching stations / E: Improvements ------------------------------------------------------


def test_station_discount_applies_the_same_turn_and_acquisition_expert():
    """D: a station discounts routes the turn it is built; Acquisition Expert takes one die off."""
    st, amy, doug, james, path = amy_board()
    st.players[amy].stations = 3
    set_dice(st, amy, ["blue"] * 6 + ["gray"] * 6)
    cost = st.comp.station_costs[3]
    unchanged(st, BuildStation(amy, " ".join(str(i) for i in range(cost - 1))))
    st.apply(BuildStation(amy, " ".join(str(i) for i in range(cost))))
    st.apply(EstablishRoute(amy, "Fresno", "blue", "Los Angeles", path, " ".join(str(i) for i in range(cost, cost + 5))))
    st2 = after_draft("west-coast", 3)
    s = st2.current
    st2.players[s].improvements = ["Acquisition Expert"]
    set_dice(st2, s, ["blue"] * 6)
    st2.apply(BuildStation(s, " ".join(str(i) for i in range(st2.comp.station_costs[0] - 1))))
    assert st2.players[s].stations == 1


def test_improvements_take_effect_at_end_of_turn_and_fourth_needs_a_return():
    """E: James buys a yellow die for six dice; it joins his dice at the end of the turn. Holding
    more than three improvements returns one of the four to the bottom of the deck."""
    st = after_draft("southern", 3)
    seat = st.current
    st.improvement_track[0] = "Yellow Die"
    set_dice(st, seat, ["blue"] * 6)
    unchanged(st, BuyImprovement(seat, 0, -1, "0 1 2 3 4"))
    st.apply(BuyImprovement(seat, 0, -1, "0 1 2 3 4 5"))
    p = st.players[seat]
    assert p.pending == ["Yellow Die"] and len(p.dice) == 6
    st.apply(EndTurn(seat))
    assert p.improvements == ["Yellow Die"] and len(p.dice) == 7 and p.die_kinds[-1] == "yellow"
    st2 = after_draft("southern", 3)
    s = st2.current
    st2.players[s].improvements = ["Friendly", "Steady Builder", "Black Die"]
    st2.improvement_track[1] = "Efficient Storage"
    set_dice(st2, s, ["blue"] * 6)
    unchanged(st2, BuyImprovement(s, 1, -1, "0 1 2 3"))
    st2.apply(BuyImprovement(s, 1, 0, "0 1 2 3"))
    assert st2.players[s].improvements == ["Steady Builder", "Black Die"]
    assert st2.players[s].pending == ["Efficient Storage"] and st2.improvement_deck[0] == "Friendly"


# -- F. Stockpiling Resources ---------------------------------------------------------------------


def _stock(faces, improvements=(), kinds=None):
    st = after_draft("west-coast", 3)
    seat = st.current
    st.players[seat].improvements = list(improvements)
    set_dice(st, seat, faces, kinds)
    st.apply(EndTurn(seat))
    return st.players[seat].markers


def test_stockpile_examples():
    """F: three blue dice left give two blue markers; four red and two yellow give three red and one yellow."""
    assert _stock(["blue", "blue", "blue"]) == [2, 0, 0, 0]
    assert _stock(["red", "red", "red", "red", "yellow", "yellow"]) == [0, 0, 3, 1]


def test_stockpile_splits_symbols_and_efficient_storage():
    """F: a split die counts for one colour; symbols are not stored; Efficient Storage drops the
    one-die penalty; with two, basic split dice store both colours."""
    assert _stock(["blue", "blue/gray", "wild", "any"], kinds=["basic", "basic", "black", "black"]) == [1, 0, 0, 0]
    assert _stock(["blue", "blue", "gray"], ["Efficient Storage"]) == [2, 1, 0, 0]
    assert _stock(["blue/gray", "blue/gray"], ["Efficient Storage", "Efficient Storage"]) == [2, 2, 0, 0]
    assert _stock(["blue/gray", "blue/gray"], ["Efficient Storage", "Efficient Storage"],
                  ["blue", "basic"]) == [2, 1, 0, 0]  # an improvement die's split stores one colour
    st = after_draft("west-coast", 3)
    seat = st.current
    set_dice(st, seat, ["blue/gray", "blue/gray", "gray"])
    unchanged(st, EndTurn(seat, "red,blue"))
    st.apply(EndTurn(seat, "gray,gray"))
    assert st.players[seat].markers == [0, 2, 0, 0]


def test_default_stockpile_stores_the_most_markers():
    """F, issue 14: "end" with no colours stores the split dice as the choice giving the most
    markers. Blue/gray and gray/yellow: both as gray give one gray marker; choosing die by die
    (blue for the first, then nothing better for the second) gave none."""
    assert _stock(["blue/gray", "gray/yellow"]) == [0, 1, 0, 0]
    assert _stock(["blue/gray", "gray/red", "red", "blue"]) == [1, 0, 1, 0]  # not both gray: [0, 1, 0, 0]
    st = after_draft("west-coast", 3)
    seat = st.current
    set_dice(st, seat, ["blue/gray", "blue/gray", "gray", "blue"])
    st.supply[1] = 0  # no gray markers left: store the splits as blue
    st.players[(seat + 1) % 3].markers[1] = 6
    st.apply(EndTurn(seat))
    assert st.players[seat].markers == [2, 0, 0, 0]


def test_stockpile_supply_of_six_per_colour():
    """F: only six markers of each colour; none left, none taken."""
    st = after_draft("west-coast", 3)
    seat = st.current
    other = (seat + 1) % 3
    st.players[other].markers[0] = 5
    st.supply[0] = 1
    set_dice(st, seat, ["blue"] * 6)
    st.apply(EndTurn(seat))
    assert st.players[seat].markers[0] == 1 and st.supply[0] == 0


def test_markers_pay_as_dice_of_their_colour_or_any():
    """F: markers may be spent later as dice of the same colour or as any dice."""
    st = after_draft("west-coast", 3)
    seat = st.current
    ln = link(st, "Seattle", "Portland", "gray")
    give_contract(st, seat, ln, 1)
    st.players[seat].markers = [1, 1, 0, 0]
    st.supply[0] -= 1
    st.supply[1] -= 1
    set_dice(st, seat, [])
    unchanged(st, Build(seat, ln.id, "blue"))
    st.apply(Build(seat, ln.id, "gray"))
    assert st.cubes[ln.index] == 2 and st.supply[1] == 6
    check_invariants(st)


def test_engine_pays_a_contract_with_markers_of_its_colour_alone():
    """A and F: resource markers pay "as if they were dice of the same color or as generic dice";
    three yellow markers pay a yellow contract costing two more dice. The engine's payment once
    set aside every yellow marker when one paid the colour, so the move was not listed."""
    st = after_draft("southern", 3)
    seat = st.current
    ln = next(x for x in st.map.links if x.colour == "yellow" and x.cost == 2)
    put_on_track(st, ln, 0)
    set_dice(st, seat, ["bonus"], ["yellow"])
    st.players[seat].markers = [0, 0, 0, 3]
    st.supply[3] -= 3
    assert TakeContract(seat, 0) in st.legal_actions(seat)
    st.apply(TakeContract(seat, 0))
    assert st.players[seat].markers == [0, 0, 0, 0] and ln.index in st.players[seat].contracts
    check_invariants(st)


# -- Phases and winning ---------------------------------------------------------------------------


def test_end_of_phase_card_gives_everyone_one_more_turn_then_phase_b():
    """Ending Phase A: the player who draws the End of Phase card keeps it; every player, the holder
    included, takes one more turn; cargo scores $3 each; B cities get cargo; lowest cards to the bottom."""
    st = after_draft("west-coast", 3)
    holder = st.current
    # Put the first End of Phase card on top of the deck and leave a gap on the track.
    st.contract_deck.remove(END_OF_PHASE)
    st.contract_deck.append(END_OF_PHASE)
    st.contract_deck.insert(0, st.contract_track[0])
    st.contract_track[0] = None
    st.bag.remove("red")
    st.bag.remove("gray")
    st.players[(holder + 1) % 3].cargo = ["red", "gray"]
    st.apply(EndTurn(holder))
    assert st.eop_holder == holder and len([c for c in st.contract_track if c is not None]) == 4
    for k in range(1, 3):
        st.apply(EndTurn((holder + k) % 3))
        assert st.phase == 0
    lowest_c = st.contract_track[0]
    lowest_i = st.improvement_track[0]
    stock = st.players[(holder + 1) % 3].stock
    st.apply(EndTurn(holder))
    assert st.phase == 1 and st.eop_holder == -1
    assert st.players[(holder + 1) % 3].stock == stock + 6 and st.players[(holder + 1) % 3].cargo == []
    assert st.contract_deck[0] == lowest_c and st.improvement_deck[0] == lowest_i
    for c in st.map.cities:
        if c.grow_b:
            assert len(st.cargo[c.index]) >= 1
    assert st.to_act == ((holder + 1) % 3,)
    check_invariants(st)


def test_game_end_scores_cubes_and_ties_go_to_stations():
    """Ending Phase C: $1 per cargo marker, $1 per cube on unfinished contracts; Winning: most stock,
    ties to the most switching stations."""
    st = after_draft("west-coast", 3)
    st.phase = 2
    st.contract_deck = [c for c in st.contract_deck if c != END_OF_PHASE]
    st.eop_removed, st.eop_holder = 2, 0
    a, b, c = 0, 1, 2
    ln = link(st, "Seattle", "Portland", "blue")
    give_contract(st, a, ln, 3)
    st.bag.remove("blue")
    st.players[a].cargo = ["blue"]
    st.players[b].stock = 4
    st.players[b].stations = 2
    st.players[c].stock = 4
    end_phase(st)
    assert st.is_over and st.players[a].stock == 3 + 1
    table = st.standings()
    # a: 3 cubes + 1 cargo = $4; b and c $4 each; b has the stations.
    assert [r["seat"] for r in table][0] == b and table[0]["rank"] == 1
    assert {r["seat"] for r in table[1:]} == {a, c} and table[1]["rank"] == table[2]["rank"] == 2
    check_invariants(st)
    assert st.legal_actions(a) == [] and st.to_act == ()


def test_symbols_pay_only_for_their_purpose_and_acquisition_expert_discounts():
    """Improvement dice: bonus pays only in a route, cubes only builds, any2 pays two; Acquisition
    Expert takes one die off contracts and improvements."""
    st = after_draft("southern", 3)
    seat = st.current
    st.improvement_track[0] = "Efficient Storage"  # costs 4
    set_dice(st, seat, ["bonus", "cubes", "any2", "blue", "gray"], ["yellow", "black", "black", "basic", "basic"])
    unchanged(st, BuyImprovement(seat, 0, -1, "0 2 3"))  # bonus is for routes only
    unchanged(st, BuyImprovement(seat, 0, -1, "1 2 3"))  # cubes only builds
    st.apply(BuyImprovement(seat, 0, -1, "2 3 4"))  # any2 counts twice
    st2 = after_draft("southern", 3)
    s = st2.current
    st2.players[s].improvements = ["Acquisition Expert"]
    ln = next(x for x in st2.map.links if x.label == "Red 5A")
    put_on_track(st2, ln, 2)
    set_dice(st2, s, ["red", "blue", "blue", "gray"])
    st2.apply(TakeContract(s, 2, "0 1 2"))  # one red + (3 - 1) any
    st2.improvement_track[0] = "Steady Builder"  # costs 4, so 3
    set_dice(st2, s, ["blue", "blue", "gray"])
    st2.apply(BuyImprovement(s, 0, -1, "0 1 2"))


def test_gaps_wait_for_step_g_and_duplicate_improvements_go_to_the_bottom():
    """G: the tracks refill at the end of the turn; a duplicate improvement goes face down to the
    bottom of the deck and another is drawn, so the track never shows duplicates."""
    st = after_draft("west-coast", 3)
    seat = st.current
    set_dice(st, seat, ["red", "blue", "blue", "gray", "red", "yellow"])
    slot = next(i for i, c in enumerate(st.contract_track) if st.map.links[c].colour != "ocean")
    st.apply(TakeContract(seat, slot))
    assert st.contract_track[slot] is None
    st.apply(EndTurn(seat))
    assert None not in st.contract_track and len(st.contract_track) == 4
    pool = [c for c in st.improvement_track if c] + st.improvement_deck
    for name in ("Steady Builder", "Black Die", "Steady Builder", "Friendly"):
        pool.remove(name)
    st.improvement_track = ["Steady Builder", "Black Die"]
    st.improvement_deck = pool + ["Friendly", "Steady Builder"]  # a duplicate on top, Friendly next
    fill_improvement_track(st)
    assert st.improvement_track == ["Steady Builder", "Black Die", "Friendly"]
    assert st.improvement_deck[0] == "Steady Builder"
    check_invariants(st)
