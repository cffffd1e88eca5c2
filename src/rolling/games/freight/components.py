"""Equipment: the board data of both maps and the shared components, read from TOML data files.

The rule text describes the components but prints neither the boards nor the cards; the figures
live in ``data/*.toml`` (see ``docs/freight-components.md``) and are read once into the frozen
records below. Nothing here changes during a game.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

#: the four cargo and resource colours, in the order used for per-colour lists
COLOURS = ("blue", "gray", "red", "yellow")
#: index of each colour in :data:`COLOURS`
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
#: the colour of an ocean link, paid with split (two-colour) dice
OCEAN = "ocean"
#: a card on the contract deck that is not a contract
END_OF_PHASE = -1
#: phase names, in order
PHASES = ("A", "B", "C")
#: map names accepted by :func:`load_map`
MAP_NAMES = ("west-coast", "southern")
#: the six improvement-die symbols (see "The Improvement Dice" sidebar)
SYMBOLS = ("wild", "cubes", "bonus", "any", "any2", "route")


@dataclass(frozen=True, slots=True)
class City:
    """A city of a map.

    Attributes:
        index: position in ``MapData.cities``.
        name, state: e.g. ``"Fresno"``, ``"CA"``.
        lat, lon: real latitude and longitude in degrees (east positive).
        surplus: starting cargo: a colour, ``"white"`` (random from the bag) or ``"black"`` (none).
        demand: colours of the outer rings open from the start (empty = black ring, no demand).
        grow_b, grow_c: demand colour opened when the city's "B"/"C" marker is removed, or ``None``.
    """

    index: int
    name: str
    state: str
    lat: float
    lon: float
    surplus: str
    demand: tuple[str, ...]
    grow_b: str | None
    grow_c: str | None


@dataclass(frozen=True, slots=True)
class Link:
    """A link of the map and its contract card (one card per link).

    Attributes:
        index: position in ``MapData.links`` (also the card's id in the decks).
        id: the printed link number (1-based).
        a, b: indices of the two cities joined.
        colour: ``"blue"``, ``"gray"``, ``"red"``, ``"yellow"`` or ``"ocean"``.
        number, set: the contract card's number within its colour and its set (``"A"``/``"B"``/``"C"``).
        length: squares to fill, 2 to 8.
        cost: any-colour dice paid to take the contract, besides the one die of its colour.
    """

    index: int
    id: int
    a: int
    b: int
    colour: str
    number: int
    set: str
    length: int
    cost: int

    @property
    def label(self) -> str:
        """The card's name as the rules write it, e.g. ``"Red 5A"`` or ``"Slash 2B"``."""
        name = "Slash" if self.colour == OCEAN else self.colour.capitalize()
        return f"{name} {self.number}{self.set}"


@dataclass(frozen=True, slots=True)
class MapData:
    """One side of the game board.

    Attributes:
        name: ``"west-coast"`` or ``"southern"``; title: its printed title.
        min_players, max_players: the player counts the text gives for the map.
        cities, links: the board; ``city_index`` maps a city name to its index.
        improvement_counts: improvement name -> copies in this map's deck.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    cities: tuple[City, ...]
    links: tuple[Link, ...]
    city_index: dict
    improvement_counts: dict


@dataclass(frozen=True, slots=True)
class Improvement:
    """An improvement card: its name, copies in the box and on the West Coast map, cost in any-colour dice, and the die it adds (or ``None``)."""

    name: str
    count: int
    west_coast: int
    cost: int
    die: str | None


@dataclass(frozen=True, slots=True)
class Components:
    """The components shared by both maps (``data/components.toml``).

    Attributes:
        box: counts from the equipment list (cargo per colour, markers, track sizes, limits).
        scoring: ``scoring[k][length]`` = stock for a completed contract of that length with
            ``k`` contracts in progress (k = 1, 2, 3).
        fast_bonus, slow_bonus: distance bonus for routes of 1..10 links (index 0 = 1 link).
        cargo_bonus: stock per held cargo marker at the end of phase A, B, C.
        unfinished_cube_bonus: stock per cube on unfinished contracts at the game's end.
        station_costs: cost in any-colour dice of the 1st, 2nd, ... switching station.
        basic_dice: the faces of each player's six basic dice.
        improvement_dice: die colour -> its six faces.
        improvements: name -> :class:`Improvement`, in deck order.
    """

    box: dict
    scoring: dict
    fast_bonus: tuple[int, ...]
    slow_bonus: tuple[int, ...]
    cargo_bonus: tuple[int, ...]
    unfinished_cube_bonus: int
    station_costs: tuple[int, ...]
    basic_dice: tuple[tuple[str, ...], ...]
    improvement_dice: dict
    improvements: dict


def _read(name: str) -> dict:
    text = resources.files("rolling.games.freight").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def load_components() -> Components:
    """Read ``data/components.toml`` (cached)."""
    d = _read("components.toml")
    sc = d["scoring"]
    lengths = sc["lengths"]
    scoring = {k: dict(zip(lengths, sc[key], strict=True)) for k, key in ((1, "one"), (2, "two"), (3, "three"))}
    imps = {}
    for row in d["improvement"]:
        imps[row["name"]] = Improvement(row["name"], row["count"], row["west_coast"], row["cost"], row.get("die"))
    return Components(
        box=dict(d["box"]),
        scoring=scoring,
        fast_bonus=tuple(d["distance_bonus"]["fast"]),
        slow_bonus=tuple(d["distance_bonus"]["slow"]),
        cargo_bonus=tuple(d["phase"]["cargo_bonus"]),
        unfinished_cube_bonus=d["phase"]["unfinished_cube_bonus"],
        station_costs=tuple(d["stations"]["costs"]),
        basic_dice=tuple(tuple(x["faces"]) for x in d["basic_die"]),
        improvement_dice={k: tuple(v["faces"]) for k, v in d["improvement_die"].items()},
        improvements=imps,
    )


@cache
def load_map(name: str) -> MapData:
    """Read a map's data file (cached).

    Args:
        name: ``"west-coast"`` or ``"southern"``.

    Raises:
        ValueError: unknown map name.
    """
    if name not in MAP_NAMES:
        raise ValueError(f"unknown map {name!r} (known: {', '.join(MAP_NAMES)})")
    d = _read(name.replace("-", "_") + ".toml")
    cities = tuple(
        City(i, c["name"], c["state"], float(c["lat"]), float(c["lon"]), c["surplus"], tuple(c["demand"]),
             c.get("grow_b"), c.get("grow_c"))
        for i, c in enumerate(d["city"])
    )
    index = {c.name: c.index for c in cities}
    links = tuple(
        Link(i, row["id"], index[row["a"]], index[row["b"]], row["colour"], row["number"], row["set"], row["length"],
             row["cost"])
        for i, row in enumerate(d["link"])
    )
    comp = load_components()
    west = name == "west-coast"
    counts = {imp.name: (imp.west_coast if west else imp.count) for imp in comp.improvements.values()}
    return MapData(d["name"], d["title"], d["min_players"], d["max_players"], cities, links, index, counts)


@dataclass(frozen=True, slots=True)
class Face:
    """What a die face shows: its colours (one, two, or none) and its kind.

    ``kind`` is ``"colour"`` for plain and split faces, else one of :data:`SYMBOLS`.
    """

    name: str
    colours: tuple[str, ...]
    kind: str


@cache
def face(name: str) -> Face:
    """Parse a face name (``"red"``, ``"blue/gray"``, ``"wild"``...) into a :class:`Face`.

    Raises:
        ValueError: a name that is neither colours nor a symbol.
    """
    if name in SYMBOLS:
        return Face(name, (), name)
    cols = tuple(name.split("/"))
    if not cols or any(c not in COLOUR_INDEX for c in cols):
        raise ValueError(f"unknown die face {name!r}")
    return Face(name, cols, "colour")
