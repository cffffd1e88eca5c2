"""Data checks: both maps and the shared components agree with the rule text and the box."""

from __future__ import annotations

from collections import Counter

import pytest

from rolling.games.freight.components import COLOURS, OCEAN, load_components, load_map

# "Setting Up the Game Board": the contract tables of the rule text, (first, last) number per set.
TABLES = {
    "west-coast": {
        "blue": {"A": (1, 4), "B": (5, 8), "C": (9, 11)},
        "gray": {"A": (1, 3), "B": (4, 7), "C": (8, 11)},
        "red": {"A": (1, 4), "B": (5, 8), "C": (9, 11)},
        "yellow": {"A": (1, 4), "B": (5, 7), "C": (8, 11)},
        "ocean": {"A": (1, 1), "B": (2, 4)},
    },
    "southern": {
        "blue": {"A": (1, 4), "B": (5, 10), "C": (11, 14)},
        "gray": {"A": (1, 5), "B": (6, 10), "C": (11, 14)},
        "red": {"A": (1, 5), "B": (6, 10), "C": (11, 13)},
        "yellow": {"A": (1, 4), "B": (5, 9), "C": (10, 13)},
        "ocean": {"A": (1, 3), "B": (4, 6), "C": (7, 8)},
    },
}
COUNTS = {"west-coast": {"blue": 11, "gray": 11, "red": 11, "yellow": 11, "ocean": 4},
          "southern": {"blue": 14, "gray": 14, "red": 13, "yellow": 13, "ocean": 8}}


@pytest.mark.parametrize("name", ["west-coast", "southern"])
def test_setting_up_contract_counts_per_colour_and_set_match_the_text_tables(name):
    """Setting Up the Game Board: one contract per link; colour counts and A/B/C sets as tabled."""
    m = load_map(name)
    assert Counter(ln.colour for ln in m.links) == COUNTS[name]
    assert len(m.links) == sum(COUNTS[name].values())  # 48 and 62
    for colour, sets in TABLES[name].items():
        numbers = sorted(ln.number for ln in m.links if ln.colour == colour)
        assert numbers == list(range(1, COUNTS[name][colour] + 1))
        for ln in m.links:
            if ln.colour == colour:
                lo, hi = sets[ln.set]
                assert lo <= ln.number <= hi, ln.label
        for s, (lo, hi) in sets.items():
            assert sum(1 for ln in m.links if ln.colour == colour and ln.set == s) == hi - lo + 1


@pytest.mark.parametrize("name", ["west-coast", "southern"])
def test_links_are_two_to_eight_squares_and_every_city_is_reachable(name):
    """B: Constructing Links: lengths 2-8 (the scoring table's range); the board is one network."""
    m = load_map(name)
    assert all(2 <= ln.length <= 8 for ln in m.links)
    assert all(ln.cost >= 0 for ln in m.links)
    assert len({ln.id for ln in m.links}) == len(m.links)
    adj = {c.index: set() for c in m.cities}
    for ln in m.links:
        assert ln.a != ln.b
        adj[ln.a].add(ln.b)
        adj[ln.b].add(ln.a)
    seen, todo = {0}, [0]
    while todo:
        for nxt in adj[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(adj)


def test_double_tracks_on_the_west_coast_only_are_our_design():
    """Our design, not the text's (issue 15: the text never mentions double tracks): the West Coast
    has double-track pairs, two links between the same cities; the Southern map is single track."""
    for name, want_double in (("west-coast", True), ("southern", False)):
        pairs = Counter(frozenset((ln.a, ln.b)) for ln in load_map(name).links)
        doubles = sum(1 for v in pairs.values() if v == 2)
        assert (doubles >= 10) if want_double else (doubles == 0)
        assert max(pairs.values()) <= 2


@pytest.mark.parametrize("name", ["west-coast", "southern"])
def test_cities_and_cargo_fit_the_box(name):
    """Equipment: 65 cargo (23 blue, 23 gray, 12 red, 7 yellow), 62 saturation markers, B and C markers."""
    m = load_map(name)
    box = load_components().box
    assert box["cargo"] == {"blue": 23, "gray": 23, "red": 12, "yellow": 7}
    fixed = Counter(c.surplus for c in m.cities if c.surplus in COLOURS)
    for col in COLOURS:
        assert fixed[col] <= box["cargo"][col]
    white = sum(1 for c in m.cities if c.surplus == "white")
    b = sum(1 for c in m.cities if c.grow_b)
    c_ = sum(1 for c in m.cities if c.grow_c)
    assert b <= box["b_markers"] == 10 and c_ <= box["c_markers"] == 10
    assert sum(fixed.values()) + white + b + c_ <= 65
    rings = sum(len(c.demand) for c in m.cities) + b + c_
    assert rings <= box["saturation_markers"] == 62
    for c in m.cities:
        assert c.surplus in COLOURS + ("white", "black")
        opened = list(c.demand) + [x for x in (c.grow_b, c.grow_c) if x]
        assert len(opened) == len(set(opened)), c.name
        assert all(x in COLOURS for x in opened)


def test_cities_named_by_the_text_are_placed_as_described():
    """The text's examples: Filmore, UT (random surplus, black ring); Richmond, VA (blue surplus,
    wants red); Atlanta (wants blue, random surplus; grows in B to want gray, in C to want red)."""
    west = load_map("west-coast")
    for name in ("Sacramento", "Oakland", "San Francisco", "Santa Cruz", "Santa Maria", "Los Angeles", "Fresno", "Filmore"):
        assert name in west.city_index
    fil = west.cities[west.city_index["Filmore"]]
    assert (fil.state, fil.surplus, fil.demand) == ("UT", "white", ())
    south = load_map("southern")
    rich = south.cities[south.city_index["Richmond"]]
    assert (rich.state, rich.surplus, rich.demand) == ("VA", "blue", ("red",))
    atl = south.cities[south.city_index["Atlanta"]]
    assert (atl.surplus, atl.demand, atl.grow_b, atl.grow_c) == ("white", ("blue",), "gray", "red")


def test_west_coast_gray_2a_is_amys_gray_link_of_length_6():
    """B, issue 12: Amy's example places four of "the six required construction cubes on the gray
    2A link", so on the West Coast Gray 2A is a gray land link of length 6 (set A)."""
    west = load_map("west-coast")
    gray_2a = [ln for ln in west.links if ln.label == "Gray 2A"]
    assert len(gray_2a) == 1
    ln = gray_2a[0]
    assert (ln.colour, ln.number, ln.set, ln.length, ln.cost) == ("gray", 2, "A", 6, 3)
    assert {west.cities[ln.a].name, west.cities[ln.b].name} == {"San Francisco", "Eureka"}


def test_lengths_follow_the_distance_and_contract_costs_the_length():
    """Our design (docs/freight-components.md): length round(km / 75) + 1 on the West Coast and
    round(km / 70) + 1 on the Southern map, clamped to 2-8; cost length // 2 on land and
    length // 2 - 1 at sea, at least 1."""
    import math

    for name, per in (("west-coast", 75), ("southern", 70)):
        m = load_map(name)
        for ln in m.links:
            a, b = m.cities[ln.a], m.cities[ln.b]
            la1, lo1, la2, lo2 = map(math.radians, (a.lat, a.lon, b.lat, b.lon))
            km = 2 * 6371 * math.asin(math.sqrt(math.sin((la2 - la1) / 2) ** 2
                                                + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2))
            assert ln.length == min(8, max(2, round(km / per) + 1)), ln.label
            assert ln.cost == max(1, ln.length // 2 - (1 if ln.colour == OCEAN else 0)), ln.label


def test_cities_are_at_their_real_coordinates():
    """Cities are placed by real latitude and longitude (spot checks within 0.3 degrees)."""
    real = {"San Francisco": (37.77, -122.42), "Los Angeles": (34.05, -118.24), "Fresno": (36.74, -119.79)}
    west = load_map("west-coast")
    for name, (lat, lon) in real.items():
        c = west.cities[west.city_index[name]]
        assert abs(c.lat - lat) < 0.3 and abs(c.lon - lon) < 0.3
    south = load_map("southern")
    atl = south.cities[south.city_index["Atlanta"]]
    assert abs(atl.lat - 33.75) < 0.3 and abs(atl.lon + 84.39) < 0.3
    for m, (la0, la1, lo0, lo1) in ((west, (32, 49, -125, -111)), (south, (22, 40, -100, -75))):
        for c in m.cities:
            assert la0 <= c.lat <= la1 and lo0 <= c.lon <= lo1, c.name


def test_improvement_deck_of_17_and_west_coast_removals():
    """Improvement cards: 17 in the box; the West Coast removes Red Die, one Friendly, one Efficient Storage."""
    comp = load_components()
    box = {name: imp.count for name, imp in comp.improvements.items()}
    assert box == {"Acquisition Expert": 1, "Friendly": 2, "Efficient Storage": 3, "Steady Builder": 3,
                   "Black Die": 3, "Yellow Die": 2, "Red Die": 1, "Blue Die": 1, "Gray Die": 1}
    assert sum(box.values()) == 17
    west = load_map("west-coast").improvement_counts
    assert west["Red Die"] == 0 and west["Friendly"] == 1 and west["Efficient Storage"] == 2
    assert sum(west.values()) == 14
    assert load_map("southern").improvement_counts == box
    assert comp.improvements["Efficient Storage"].cost == 4 and comp.improvements["Yellow Die"].cost == 6


def test_dice_six_basic_and_eight_specialty_with_all_six_symbols():
    """Equipment: 6 resource dice per player; 8 specialty dice (3 black, 2 yellow, 1 blue, 1 gray, 1 red)."""
    comp = load_components()
    assert len(comp.basic_dice) == 6 and all(len(d) == 6 for d in comp.basic_dice)
    dice = Counter()
    for imp in comp.improvements.values():
        if imp.die:
            dice[imp.die] += imp.count
    assert dice == {"black": 3, "yellow": 2, "blue": 1, "gray": 1, "red": 1}
    faces = {f for d in comp.improvement_dice.values() for f in d}
    assert {"wild", "cubes", "bonus", "any", "any2", "route"} <= faces
    basic = [f for d in comp.basic_dice for f in d]
    assert any("/" in f for f in basic)  # split faces, needed for ocean links
    for col in COLOURS:
        assert col in basic
    assert OCEAN not in basic


def test_scoring_and_distance_tables_are_the_texts():
    """B: the contract table (length 2-8 by 1-3 contracts) and C: the distance bonus table."""
    comp = load_components()
    assert [comp.scoring[1][n] for n in range(2, 9)] == [2, 3, 4, 6, 8, 10, 15]
    assert [comp.scoring[2][n] for n in range(2, 9)] == [1, 2, 3, 4, 6, 8, 10]
    assert [comp.scoring[3][n] for n in range(2, 9)] == [1, 1, 2, 3, 4, 6, 8]
    assert comp.fast_bonus == (3, 2, 2, 1, 1, 0, 0, 0, 0, 0)
    assert comp.slow_bonus == (0, 0, 1, 1, 2, 2, 3, 4, 5, 0)
    assert comp.cargo_bonus == (3, 2, 1)


def test_the_components_document_matches_the_data():
    """docs/freight-components.md (issues 12 and 15): its length counts are the data's, and it
    calls the double tracks our design rather than something the text mentions."""
    import re
    from pathlib import Path

    doc = " ".join((Path(__file__).parents[2] / "docs" / "freight-components.md").read_text(encoding="utf-8").split())
    for name, title in (("west-coast", "West Coast lengths:"), ("southern", "Southern:")):
        text = doc[doc.index(title, doc.index("West Coast lengths:")) + len(title):].split(".")[0]
        said = {int(length): int(n) for n, length in re.findall(r"(\d+) of (\d+)", text)}
        assert said == dict(Counter(ln.length for ln in load_map(name).links)), name
    assert "the text says the map has many" not in doc
    assert "The text says nothing about double tracks" in doc
    west = load_map("west-coast")
    doubles = sum(1 for v in Counter(frozenset((ln.a, ln.b)) for ln in west.links).values() if v == 2)
    assert f"West Coast: {doubles} double-track pairs" in doc
