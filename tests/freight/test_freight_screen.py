"""The Rolling Freight play screen: what a player types (counting from 1, links and cities by
name), the text map, the menu's words and the board picture."""

from __future__ import annotations

import io

import pytest
from freight_helpers import after_draft, give_contract, link, own, set_dice
from rich.console import Console

from rolling.core.record import GameRecord
from rolling.games.freight import Config, new_game
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    DraftContract,
    DraftImprovement,
    EndTurn,
    EstablishRoute,
    TakeContract,
)
from rolling.ui import freight as ui
from rolling.ui import freight_map
from rolling.ui.session import PlaySession


def route_board():
    """Fresno - Sacramento (seat's gray) - Oakland (next seat's red) - San Francisco (seat's
    yellow), and a blue cargo in Fresno; phase B, so San Francisco... wants gray; Oakland yellow."""
    st = after_draft("west-coast", 3)
    me = st.current
    other = (me + 1) % 3
    own(st, link(st, "Fresno", "Sacramento", "gray"), me)
    own(st, link(st, "Sacramento", "Oakland", "red"), other)
    own(st, link(st, "Sacramento", "Oakland", "blue"), me)
    own(st, link(st, "Oakland", "San Francisco", "yellow"), me)
    st.players[me].links_owned = 3
    st.players[other].links_owned = 1
    st.cargo[st.map.city_index["Fresno"]] = ["blue"]
    st.cargo[st.map.city_index["San Francisco"]] = ["yellow", "red"]
    st.rings[st.map.city_index["Oakland"]] = [["blue", 0, False], ["yellow", 0, False]]
    return st, me


def test_build_reads_a_link_by_card_number_or_both():
    """'build Gray 2A', 'build L28', 'build 28' and 'build Gray 2A L28' name the same link; a card
    and a number that disagree, or a link without your contract, are one-line errors."""
    st = after_draft("west-coast", 3)
    seat = st.current
    ln = link(st, "Santa Cruz", "Santa Maria", "blue")
    give_contract(st, seat, ln, 1)
    moves = st.legal_actions(seat)
    for typed in (ln.label, f"L{ln.id}", str(ln.id), f"{ln.label} L{ln.id}", ln.label.lower(), f"l{ln.id}"):
        assert ui.parse(f"build {typed}", st, moves) == ("move", Build(seat, ln.id)), typed
    assert ui.parse(f"build {ln.label} 2 pay 1 2", st, moves) == ("move", Build(seat, ln.id, "0 1", 2))
    with pytest.raises(ValueError, match=f"{ln.label} is link L{ln.id}, not L1"):
        ui.parse(f"build {ln.label} L1", st, moves)
    with pytest.raises(ValueError, match="you have no contract on Gray 2A L28"):
        ui.parse("build Gray 2A", st, moves)
    with pytest.raises(ValueError, match="there is no contract card Red 99A"):
        ui.parse("build red 99a", st, moves)
    with pytest.raises(ValueError, match="there is no link L99 on this map"):
        ui.parse("build 99", st, moves)


def test_take_and_buy_count_slots_from_one_as_the_screen_and_menu_do():
    """Slot 1 is the lowest card, as the tracks table shows it; 'take' also reads a card's name;
    in the opening draft 'take' and 'buy' are free draft picks."""
    st = new_game(Config("west-coast", 3), 7)
    seat = st.to_act[0]
    moves = st.legal_actions(seat)
    assert ui.parse("take 1", st, moves) == ("move", DraftContract(seat, 0))
    assert ui.parse("buy 3", st, moves) == ("move", DraftImprovement(seat, 2))
    card = st.map.links[st.contract_track[1]]
    assert ui.parse(f"take {card.label}", st, moves) == ("move", DraftContract(seat, 1))
    # the menu lists the same pick under the same slot number
    assert "(slot 2)" in ui.describe(st, DraftContract(seat, 1))
    with pytest.raises(ValueError, match="there is no contract in slot 0 of the contract track"):
        ui.parse("take 0", st, moves)
    with pytest.raises(ValueError, match="a draft pick is free"):
        ui.parse("take 1 pay 1", st, moves)
    st = after_draft("west-coast", 3)
    seat = st.current
    moves = st.legal_actions(seat)
    assert ui.parse("take 4 pay 1 2 3", st, moves) == ("move", TakeContract(seat, 3, "0 1 2"))
    assert ui.parse("buy 1", st, moves) == ("move", BuyImprovement(seat, 0, -1, ""))
    assert ui.parse("station pay 6", st, moves) == ("move", BuildStation(seat, "5"))
    assert ui.parse("end blue", st, moves) == ("move", EndTurn(seat, "blue"))
    take = next(a for a in moves if isinstance(a, TakeContract))
    assert ui.describe(st, take).startswith(f"take slot {take.slot + 1}: {ui.link_text(st, st.contract_track[take.slot])}")
    typed = ui.parse(ui.describe(st, take)[:len("take slot 1") + 1].replace("slot ", "").rstrip(":"), st, moves)
    assert typed == ("move", take)  # what the menu says is what 'take' reads
    assert "[pay " in ui.describe(st, take) and "[pay 0" not in ui.describe(st, take)


@pytest.mark.parametrize("line,message", [
    ("1 pay 7", "there is no die 7: your dice are 1-6"),
    ("1 pay 0", "there is no die 0: your dice are 1-6"),
    ("1 pay 1 1", "die 1 is already spent"),
    ("1 pay purple", "cannot pay with 'purple'"),
    ("1 pay", "'pay' needs dice numbers"),
    ("999", "there is no move 999"),
    ("take", "write it as 'take S'"),
    ("take 9", "there is no contract in slot 9"),
    ("build", "write it as 'build L'"),
    ("build 28 two", "write it as 'build L'"),
    ("buy Golden Goose", "there is no improvement 'Golden Goose'"),
    ("map Atlantis", "there is no city 'Atlantis'"),
    ("map san", "'san' could be San Francisco"),
    ("board a.gif b", "write it as 'board'"),
    ("fly", "unknown command 'fly'"),
    ("ship Atlantis Fresno", "a route starts at a city: 'Atlantis' is not one"),
])
def test_bad_typed_input_is_one_line_and_changes_nothing(line, message):
    """Every bad line: a ValueError with one line saying what is wrong; the state is untouched."""
    st = after_draft("west-coast", 3)
    before = st.digest()
    with pytest.raises(ValueError) as e:
        ui.parse(line, st, st.legal_actions(st.current))
    assert message in str(e.value) and "\n" not in str(e.value)
    assert st.digest() == before


def test_ship_reads_a_route_as_cities_or_links():
    """'ship blue Fresno Sacramento Oakland' takes the cheapest completed link between two typed
    cities (your own blue, not the other player's red); links may be typed instead; with only the
    two ends the menu's route is taken; the colour may be left out when only one cargo fits."""
    st, me = route_board()
    moves = st.legal_actions(me)
    gray = link(st, "Fresno", "Sacramento", "gray")
    blue = link(st, "Sacramento", "Oakland", "blue")
    want = ("move", EstablishRoute(me, "Fresno", "blue", "Oakland", f"{gray.id},{blue.id}"))
    assert ui.parse("ship blue Fresno Sacramento Oakland", st, moves) == want
    assert ui.parse("ship blue from fresno via sacramento to oakland", st, moves) == want
    assert ui.parse(f"ship Fresno L{gray.id} {blue.label}", st, moves) == want
    # only the two ends: the menu's route when there is one; here two (over either Oakland link)
    with pytest.raises(ValueError, match="2 routes take blue cargo from Fresno to Oakland .moves"):
        ui.parse("ship Fresno Oakland", st, moves)
    st.owner[link(st, "Sacramento", "Oakland", "red").index] = -1
    assert ui.parse("ship Fresno Oakland", st, st.legal_actions(me)) == want
    assert ui.parse("route blue Fresno Sacramento Oakland pay 1 2", st, moves)[1].pay == "0 1"
    st.apply(want[1])
    assert st.players[me].cargo == ["blue"]
    # the menu says the route by its cities, as the log does
    st2, me2 = route_board()
    line = next(ui.describe(st2, a) for a in st2.legal_actions(me2)
                if isinstance(a, EstablishRoute) and a.origin == "Fresno")
    assert "Fresno > Sacramento > Oakland (2 links)" in line


@pytest.mark.parametrize("typed,message", [
    ("ship blue Fresno Stockton Oakland", "no completed link joins Fresno and Stockton"),
    ("ship blue Fresno Reno Oakland", "no link joins Fresno and Reno"),
    ("ship blue Fresno Reno", "you have no major route for blue cargo from Fresno to Reno now"),
    ("ship Fresno", "name where the cargo goes"),
    ("ship San Francisco Oakland", "say which cargo: yellow or"),
    ("ship red Fresno Sacramento", None),
    ("ship Fresno L1", "Blue 11C L1 does not leave Fresno"),
    ("ship Fresno Sacramento Bogus", "'Bogus' is neither a city nor a link"),
])
def test_bad_routes_are_one_line_errors(typed, message):
    """A typed route that cannot be: one line, from the screen or from the rule book (C)."""
    from rolling.core.errors import IllegalAction

    st, me = route_board()
    st.rings[st.map.city_index["Oakland"]] = [["yellow", 0, False], ["red", 0, False]]
    before = st.digest()
    try:
        kind, action = ui.parse(typed, st, st.legal_actions(me))
        with pytest.raises(IllegalAction) as e:
            st.apply(action)
        text = e.value.reason
    except ValueError as e:
        text = str(e)
    if message:
        assert message in text
    assert "\n" not in text and st.digest() == before


def test_text_map_lists_every_city_with_its_links_cargo_and_demands():
    """'map': every city, each link named as build reads it with its length and whose cubes are
    on it; 'map CITY': one city in full, players by name."""
    st, me = route_board()
    sc = link(st, "Santa Cruz", "Santa Maria", "blue")
    give_contract(st, me, sc, 2)
    out = io.StringIO()
    Console(file=out, width=100).print(freight_map.map_table(st))
    text = out.getvalue()
    flat = " ".join(text.split())  # the links column wraps
    assert all(c.name in text for c in st.map.cities)
    assert f"{sc.label} L{sc.id} to Santa Maria ({sc.length}) [P{me + 1} 2/{sc.length}]" in flat
    assert max(len(x) for x in text.splitlines()) <= 100
    card = st.map.links[st.contract_track[0]]
    assert f"{card.label} L{card.id}" in flat and "[track 1]" in flat
    names = ["Ann", "Bob", "Cy"]
    fresno = freight_map.city_detail(st, st.map.city_index["Fresno"], names)
    assert fresno[0].startswith("Fresno, CA: cargo blue; wants gray")
    gray = link(st, "Fresno", "Sacramento", "gray")
    assert f"  {gray.label} L{gray.id} to Sacramento: gray, length {gray.length}, completed by {names[me]}" in fresno
    assert ui.parse("map fres", st, [])[1] == st.map.city_index["Fresno"]
    assert ui.parse("map SAN FRANCISCO", st, [])[1] == st.map.city_index["San Francisco"]


def test_board_command_writes_a_png_beside_the_save_file(tmp_path):
    """'board' draws the current position and names the file; 'board FILE' writes there."""
    rec = GameRecord("freight", {"map": "west-coast", "players": 3}, 4, [], {})
    session = PlaySession(rec, ["human", "random", "random"], tmp_path / "g.json")
    screen = ui.FreightScreen()
    out = io.StringIO()
    console = Console(file=out, width=100)
    screen.show(session, session.state.to_act[0], console, True)
    assert screen.read(session, session.state.to_act[0], "board", console) is None
    png = tmp_path / "g-draft.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Wrote the board picture to {png}." in out.getvalue()
    with pytest.raises(ValueError, match="a .png or .svg file"):
        screen.read(session, 0, "board x.gif", console)


def test_screen_fits_100_columns_and_counts_from_one():
    """The whole screen at 100 columns: no line wider, dice and slots numbered from 1."""
    rec = GameRecord("freight", {"map": "southern", "players": 5}, 2, [], {})
    session = PlaySession(rec, ["human"] + ["random"] * 4, None)
    out = io.StringIO()
    console = Console(file=out, width=100)
    seat = session.state.to_act[0]
    ui.FreightScreen().show(session, seat, console, True)
    text = out.getvalue()
    assert max(len(x) for x in text.splitlines()) <= 100
    assert " 1:" in text and " 0:" not in text
    set_dice(session.state, seat, ["red"])
    assert ui.dice_line(session.state, seat, "Ann") == "Dice of Ann: 1:red; markers: none"
