"""The log of a Rolling Freight game: the kinds of event, who may see one, and its text.

An event is a tuple ``(kind, visibility, *fields)`` (:mod:`rolling.core.events`): ``kind`` one of
the string constants below, ``visibility`` a bitmask of viewers, ``fields`` what happened as the
engine holds it (seats, link and city indexes, $ amounts, dice faces, payment tokens). The rule
modules append events to ``state.log`` only when the log is on (``if state.log is not None:``), so
a game without a log builds neither events nor text. Text is made here, per viewer, when a screen
asks (:func:`render`, :func:`lines`).

Who sees what. Rolling Freight has no hidden money; every player's mat, dice, markers, stock,
contracts, improvements and cargo lie open on the table, and so does the board. The hidden
information is the order of the face-down decks (contracts, improvements) and of the cargo bag.
Every event reports something the whole table sees happen: a card turned face up onto a track, a
card taken from a track or from a mat and put under its deck (it was face up before), a
duplicate improvement drawn and put back under the deck, a cargo marker drawn from the bag onto a
city, a roll, a payment. No event names a card before it has been face up, so every event is
:data:`PUBLIC`. The visibility field stays, as in every game, so that screens filter the same way
for all of them.

Players are named as the config names them (``Player 1``... by default, numbered from 1); dice
are numbered from 1 as the play screen shows them; a link is named by its card and its printed
number (``Gray 2A L28``), as ``build`` reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rolling.core import events as core

# the log's form is shared by every game (rolling.core.events): re-exported for the rule modules
from rolling.core.events import PUBLIC as PUBLIC
from rolling.core.events import sees

from .components import COLOURS, PHASES

if TYPE_CHECKING:
    from .state import FreightState

# -- kinds. Each one's text is in TEXT below; its fields are named there, in order.
# Setting Up the Game Board (the tracks' cards are CONTRACT_DRAWN, IMPROVEMENT_DRAWN below)
SETUP = "setup"
STARTING_CARGO = "starting_cargo"
OPENING_ROLL = "opening_roll"
# Beginning the Game: the opening draft
DRAFT_CONTRACT = "draft_contract"
DRAFT_IMPROVEMENT = "draft_improvement"
DRAFT_DIE = "draft_die"
DRAFT_PASS = "draft_pass"
# On Your Turn
TURN = "turn"
# A, B (and the contract it completes), C, D, E
TAKE_CONTRACT = "take_contract"
BUILD = "build"
STEADY_BUILD = "steady_build"
COMPLETE = "complete"
ROUTE = "route"
LINK_INCOME = "link_income"
LINK_INCOME_FRIENDLY = "link_income_friendly"
DISTANCE_BONUS = "distance_bonus"
DISTANCE_AND_DICE_BONUS = "distance_and_dice_bonus"
STATION = "station"
BUY_IMPROVEMENT = "buy_improvement"
RETURN_IMPROVEMENT = "return_improvement"
# F, G (and every refill of the tracks: the opening draft, Beginning Phase B/C)
STOCKPILE = "stockpile"
CONTRACT_DRAWN = "contract_drawn"
IMPROVEMENT_DRAWN = "improvement_drawn"
IMPROVEMENT_DUPLICATE = "improvement_duplicate"
# Ending Phase A/B/C, Beginning Phase B/C, the end of the game
END_OF_PHASE_DRAWN = "end_of_phase_drawn"
END_OF_PHASE_AGAIN = "end_of_phase_again"
CARGO_SCORE = "cargo_score"
PHASE_END = "phase_end"
CUBE_SCORE = "cube_score"
GAME_OVER = "game_over"
PHASE_BEGINS = "phase_begins"
CITY_GROWS = "city_grows"
CONTRACT_REMOVED = "contract_removed"
IMPROVEMENT_REMOVED = "improvement_removed"

#: TEXT[kind] = (template, field names). A field is shown by its name: ``p`` a seat (its name,
#: ``Player 1``...); ``link`` a link index (its card and number, ``Red 5A L14``); ``contract`` a
#: link index, with its cities and length; ``city``, ``origin``, ``dest`` a city index (its name);
#: ``phase`` a phase index (``A``, ``B``, ``C``); ``dice`` the faces showing; ``pay`` payment
#: tokens (dice numbered from 1, markers by colour); ``markers`` markers per colour (blue, gray,
#: red, yellow); ``path`` the link indices of a route (the cities it passes through, and how many
#: links); ``cargo`` ``(city, colours)`` pairs; ``scores`` ``(seat, $)`` pairs; any other field
#: (stock $, counts, colours, improvement names, faces, the map's title) as it is.
TEXT: dict[str, tuple[str, tuple[str, ...]]] = {
    SETUP: ("Rolling Freight, {map} map, {players} players; {p} is the start player", ("map", "players", "p")),
    STARTING_CARGO: ("  starting cargo: {cargo}", ("cargo",)),
    OPENING_ROLL: ("  {p} rolls {dice}", ("p", "dice")),
    DRAFT_CONTRACT: ("{p} drafts contract {link}", ("p", "link")),
    DRAFT_IMPROVEMENT: ("{p} drafts improvement {improvement}", ("p", "improvement")),
    DRAFT_DIE: ("{p} drafts improvement {improvement} and rolls {face}", ("p", "improvement", "face")),
    DRAFT_PASS: ("{p} has nothing to draft", ("p",)),
    TURN: ("Turn {turn}, phase {phase}: {p} has dice {dice}", ("turn", "phase", "p", "dice")),
    TAKE_CONTRACT: ("{p} takes contract {link} paying {pay}", ("p", "link", "pay")),
    BUILD: ("{p} builds {cubes} cube(s) on {link} paying {pay}", ("p", "cubes", "link", "pay")),
    STEADY_BUILD: ("{p} adds a free cube to {link} (Steady Builder)", ("p", "link")),
    COMPLETE: ("  {p} completes {contract} and scores ${score}", ("p", "contract", "score")),
    ROUTE: (
        "{p} ships {colour} cargo from {origin} to {dest}{path} for {cost} dice ({base} less {stations} "
        "for stations), paying {pay}",
        ("p", "colour", "origin", "dest", "path", "cost", "base", "stations", "pay"),
    ),
    LINK_INCOME: ("  {p} earns ${amount} for {links} link(s)", ("p", "amount", "links")),
    LINK_INCOME_FRIENDLY: ("  {p} earns ${amount} for {links} link(s) (Friendly)", ("p", "amount", "links")),
    DISTANCE_BONUS: ("  {p} earns a distance bonus of ${bonus}", ("p", "bonus")),
    DISTANCE_AND_DICE_BONUS: (
        "  {p} earns a distance bonus of ${bonus} and ${dice_bonus} for bonus dice",
        ("p", "bonus", "dice_bonus"),
    ),
    STATION: ("{p} builds switching station {n} paying {pay}", ("p", "n", "pay")),
    BUY_IMPROVEMENT: ("{p} buys {improvement} paying {pay}", ("p", "improvement", "pay")),
    RETURN_IMPROVEMENT: ("  {p} returns {improvement} to the bottom of the deck", ("p", "improvement")),
    STOCKPILE: ("  {p} stockpiles {markers}", ("p", "markers")),
    CONTRACT_DRAWN: ("  contract {contract} comes onto the track", ("contract",)),
    IMPROVEMENT_DRAWN: ("  improvement {improvement} comes onto the track", ("improvement",)),
    IMPROVEMENT_DUPLICATE: (
        "  improvement {improvement} is drawn, already on the track: it goes to the bottom of the deck",
        ("improvement",),
    ),
    END_OF_PHASE_DRAWN: ("  {p} draws the End of Phase card: every player takes one more turn", ("p",)),
    END_OF_PHASE_AGAIN: ("  {p} draws another End of Phase card; it takes effect next phase", ("p",)),
    CARGO_SCORE: ("  {p} scores ${amount} for {n} cargo marker(s)", ("p", "amount", "n")),
    PHASE_END: ("End of phase {phase}: {scores}", ("phase", "scores")),
    CUBE_SCORE: ("  {p} scores ${amount} for {cubes} cube(s) on unfinished contracts", ("p", "amount", "cubes")),
    GAME_OVER: ("Game over: {scores}", ("scores",)),
    PHASE_BEGINS: ("Phase {phase} begins", ("phase",)),
    CITY_GROWS: ("  {city} grows: wants {wants}, offers {colour} cargo", ("city", "wants", "colour")),
    CONTRACT_REMOVED: ("  the lowest contract, {contract}, goes to the bottom of the deck", ("contract",)),
    IMPROVEMENT_REMOVED: ("  the lowest improvement, {improvement}, goes to the bottom of the deck", ("improvement",)),
}


def link_name(link) -> str:
    """A link as every screen and the log name it: its card and its printed number, ``Gray 2A L28``
    (``build`` reads either)."""
    return f"{link.label} L{link.id}"


def pay_words(tokens) -> str:
    """Payment tokens in words, dice numbered from 1: ``dice 1, 4 and a blue marker``."""
    dice = [str(v + 1) for k, v in tokens if k == "d"]
    parts = [("die " if len(dice) == 1 else "dice ") + ", ".join(dice)] if dice else []
    for k, colour in enumerate(COLOURS):
        n = sum(1 for kind, v in tokens if kind == "m" and v == k)
        if n:
            parts.append(f"a {colour} marker" if n == 1 else f"{n} {colour} markers")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def route_cities(s: FreightState, path) -> list[str]:
    """The cities a route's links pass through between its two ends, in order (each link of a
    simple path shares exactly one city with the next)."""
    links = s.map.links
    out = []
    for i, j in zip(path, path[1:], strict=False):
        a, b = links[i], links[j]
        shared = {a.a, a.b} & {b.a, b.b}
        out.append(s.map.cities[min(shared)].name if shared else "?")
    return out


def _field(s: FreightState, name: str, value) -> str:
    if name == "p":
        return s.name(value)
    if name == "link":
        return link_name(s.map.links[value])
    if name == "contract":
        ln = s.map.links[value]
        return f"{link_name(ln)} ({s.map.cities[ln.a].name}-{s.map.cities[ln.b].name}, length {ln.length})"
    if name in ("city", "origin", "dest"):
        return s.map.cities[value].name
    if name == "phase":
        return PHASES[value]
    if name == "dice":
        return " ".join(value)
    if name == "pay":
        return pay_words(value)
    if name == "markers":
        return ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(value) if n)
    if name == "path":
        via = route_cities(s, value)
        many = f"{len(value)} link{'s' if len(value) != 1 else ''}"
        return f" via {', '.join(via)} ({many})" if via else f" ({many})"
    if name == "cargo":
        return ", ".join(f"{s.map.cities[c].name} {' '.join(colours)}" for c, colours in value)
    if name == "scores":
        return ", ".join(f"{s.name(seat)} ${score}" for seat, score in value)
    return str(value)


def render(s: FreightState, event: tuple, seat: int | None = None) -> str | None:
    """The text of ``event`` for the viewer ``seat`` (``None``: an onlooker), or None if that
    viewer may not see it."""
    if not sees(event[1], seat):
        return None
    return core.text_of(TEXT, event, lambda name, value: _field(s, name, value))


def lines(s: FreightState, seat: int | None = None, start: int = 0) -> list[str]:
    """The text of the log's events from index ``start`` on that ``seat`` may see, one line each
    (empty when the log is off); also the method ``FreightState.log_lines(seat, start)``."""
    return core.lines(s.log, seat, start, lambda event, viewer: render(s, event, viewer))
