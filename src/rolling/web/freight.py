"""Rolling Freight on the web: the board as JSON for the map drawn in the browser, and a seat's
legal moves as decisions carrying the engine's previews.

The board (``GET /data/freight/{map}.json``, :func:`board_data`) is the map data of
``rolling freight board`` (:mod:`rolling.games.freight.components`): cities at their longitude
(scaled by the cosine of the map's mean latitude) and latitude, in map units of a degree of
latitude with ``y`` growing southward; every link with its colour, squares and card; the
component tables a player reads (contract scores, station costs, improvements and their dice).

A decision (:func:`decisions`) has the shape of :mod:`rolling.web.decisions`; its ``preview``
holds what the move does, computed by :mod:`rolling.games.freight.previews` (never by the page):

- ``take_contract``: ``{"link", "colour", "dice", "pay"}`` (one die of the colour plus ``dice`` any dice);
- ``build``: ``{"link", "cubes", "before", "filled", "length", "score", "pay"}`` (score: $ of stock
  for completing the contract, 0 if it stays unfinished); ``steady_build`` the same, paying nothing;
- ``route``: ``{"cities", "links", "colour", "dice", "stations", "earns", "payouts", "distance_bonus",
  "dice_bonus", "pay"}``: the cities from the origin to the destination, the printed link ids in
  order, the dice to pay, the $ the mover earns, ``[seat, links, $]`` per owner;
- ``station``: ``{"number", "dice", "pay"}``; ``improvement``: ``{"name", "dice", "returned", "pay"}``;
- ``end_turn``: ``{"markers": {colour: n}}``, the stockpile markers ending the turn so takes;
- ``draft_contract``: ``{"link"}``, ``draft_improvement``: ``{"name"}``.

``pay`` is what the move pays with (its own ``pay``, else the engine's best):
``[{"die": i, "face": "red"} | {"marker": "blue"}]`` (dice from 0, as the action's ``pay`` string
names them), ``None`` when the player cannot pay; ``keeps`` (with ``pay``, for a contract, route,
station or improvement) what it leaves: ``[{"die": i, "face"} | {"marker": colour, "n": n}]``.
Every way to pay is its own decision (issue 28 item 5): ``pay_rank`` 0 for the engine's payment,
1, 2... for the others in the order of what is kept.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from rolling.games.freight import previews
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    DraftContract,
    DraftImprovement,
    DraftPass,
    EndTurn,
    EstablishRoute,
    SteadyBuild,
    TakeContract,
)
from rolling.games.freight.components import COLOURS, MAP_NAMES, load_components, load_map
from rolling.games.freight.events import route_cities
from rolling.games.freight.payment import kept_after
from rolling.games.freight.routes import parse_path

#: decision group of each action type, in the order the page lists them
GROUPS = {
    "draft_contract": "draft", "draft_improvement": "draft", "draft_pass": "draft",
    "take_contract": "contract", "build": "build", "steady_build": "build", "route": "route",
    "station": "station", "improvement": "improvement", "end_turn": "end",
}


#: what each improvement does, in short (the rule text's improvement cards; E. Purchasing Improvements)
IMPROVEMENT_TEXT = {
    "Acquisition Expert": "one die fewer to take a contract, buy an improvement or build a station (not for routes)",
    "Friendly": "others pay one die fewer for each of your links in a route, and you score $1 more when they use them",
    "Efficient Storage": "stockpile one marker per die, without the one-die penalty",
    "Steady Builder": "once a turn, a free cube on a link you are building",
}


@cache
def board_data(map_name: str) -> dict[str, Any]:
    """The printed board and components of map ``map_name`` for the page (cached per map).

    Returns ``{"map", "title", "players": [min, max], "bounds": [x0, y0, x1, y1], "cities": [...],
    "links": [...], "components": {...}}``; a city ``{"index", "name", "state", "x", "y",
    "surplus", "demand", "grow_b", "grow_c"}``, a link ``{"index", "id", "a", "b", "colour",
    "label", "set", "length", "cost", "lane"}`` (``lane``: its place among links joining the same
    two cities, centred on 0, so that parallel links are drawn side by side); an improvement
    ``{"cost", "die", "in_deck", "faces", "text"}`` (cost in any dice; the die's six faces, if it
    adds one; what it does).

    Raises:
        ValueError: unknown map.
    """
    m = load_map(map_name)
    comp = load_components()
    coslat = math.cos(math.radians(sum(c.lat for c in m.cities) / len(m.cities)))
    cities = [{"index": c.index, "name": c.name, "state": c.state, "x": round(c.lon * coslat, 4), "y": round(-c.lat, 4),
               "surplus": c.surplus, "demand": list(c.demand), "grow_b": c.grow_b, "grow_c": c.grow_c}
              for c in m.cities]
    pairs: dict[frozenset, list[int]] = {}
    for ln in m.links:
        pairs.setdefault(frozenset((ln.a, ln.b)), []).append(ln.index)
    links = []
    for ln in m.links:
        same = pairs[frozenset((ln.a, ln.b))]
        links.append({"index": ln.index, "id": ln.id, "a": ln.a, "b": ln.b, "colour": ln.colour, "label": ln.label,
                      "set": ln.set, "length": ln.length, "cost": ln.cost,
                      "lane": same.index(ln.index) - (len(same) - 1) / 2})
    xs = [c["x"] for c in cities]
    ys = [c["y"] for c in cities]
    improvements = {
        name: {"cost": imp.cost, "die": imp.die, "in_deck": m.improvement_counts[name],
               "faces": list(comp.improvement_dice[imp.die]) if imp.die else None,
               "text": IMPROVEMENT_TEXT.get(name) or f"adds a {imp.die} die to your dice"}
        for name, imp in comp.improvements.items() if m.improvement_counts[name]
    }
    return {
        "map": m.name, "title": m.title, "players": [m.min_players, m.max_players],
        "bounds": [min(xs), min(ys), max(xs), max(ys)],
        "cities": cities, "links": links,
        "components": {
            "colours": list(COLOURS),
            "scoring": {str(k): {str(n): v for n, v in row.items()} for k, row in comp.scoring.items()},
            "distance_bonus": {"fast": list(comp.fast_bonus), "slow": list(comp.slow_bonus)},
            "cargo_bonus": list(comp.cargo_bonus),
            "station_costs": list(comp.station_costs),
            "max_contracts": comp.box["max_contracts"], "max_improvements": comp.box["max_improvements"],
            "cubes_per_player": comp.box["cubes_per_player"],
            "improvements": improvements,
        },
    }


def maps() -> dict[str, dict[str, Any]]:
    """Each map's title and player counts as the rule text allows them: ``{name: {"title",
    "players": [min, max]}}`` (for the lobby)."""
    return {n: {"title": load_map(n).title, "players": [load_map(n).min_players, load_map(n).max_players]}
            for n in MAP_NAMES}


def _pay(state, seat: int, tokens) -> list[dict[str, Any]] | None:
    if tokens is None:
        return None
    dice = state.players[seat].dice
    return [{"die": v, "face": dice[v]} if k == "d" else {"marker": COLOURS[v]} for k, v in tokens]


def _keeps(state, seat: int, tokens) -> list[dict[str, Any]] | None:
    if tokens is None:
        return None
    p = state.players[seat]
    dice, markers = kept_after(p, tokens)
    return ([{"die": i, "face": p.dice[i]} for i in dice]
            + [{"marker": COLOURS[k], "n": n} for k, n in enumerate(markers) if n])


def preview(state, a) -> dict[str, Any] | None:
    """What action ``a`` does, in numbers (the module's docstring lists the fields), or ``None``
    for a move without one (a draft pass)."""
    s = state
    links = s.map.links
    if isinstance(a, TakeContract):
        c = previews.contract(s, a)
        return {"link": links[s.contract_track[a.slot]].id, "colour": c.colour, "dice": c.dice, "pay": _pay(s, a.seat, c.pay),
                "keeps": _keeps(s, a.seat, c.pay)}
    if isinstance(a, Build):
        b = previews.build(s, a)
        return {"link": a.link, "cubes": b.cubes, "before": b.filled - b.cubes, "filled": b.filled, "length": b.length,
                "score": b.score, "pay": _pay(s, a.seat, b.pay)}
    if isinstance(a, SteadyBuild):
        ln = s.link_by_id(a.link)
        return {"link": a.link, "cubes": 1, "before": s.cubes[ln.index], "filled": s.cubes[ln.index] + 1,
                "length": ln.length, "score": 0, "pay": []}
    if isinstance(a, EstablishRoute):
        r = previews.route(s, a)
        path = parse_path(s, a.path)
        return {"cities": [a.origin, *route_cities(s, path), a.dest], "links": [links[i].id for i in path],
                "colour": a.colour, "dice": r.dice, "stations": r.stations, "earns": r.earns(a.seat),
                "payouts": [list(x) for x in r.payouts], "distance_bonus": r.distance_bonus, "dice_bonus": r.dice_bonus,
                "pay": _pay(s, a.seat, r.pay), "keeps": _keeps(s, a.seat, r.pay)}
    if isinstance(a, BuildStation):
        c = previews.station(s, a)
        return None if c is None else {"number": s.players[a.seat].stations + 1, "dice": c.dice, "pay": _pay(s, a.seat, c.pay),
                                       "keeps": _keeps(s, a.seat, c.pay)}
    if isinstance(a, BuyImprovement):
        i = previews.improvement(s, a)
        return {"name": i.name, "dice": i.cost.dice, "returned": i.returned, "pay": _pay(s, a.seat, i.cost.pay),
                "keeps": _keeps(s, a.seat, i.cost.pay)}
    if isinstance(a, EndTurn):
        return {"markers": dict(zip(COLOURS, previews.stockpile(s, a), strict=True))}
    if isinstance(a, DraftContract):
        return {"link": links[s.contract_track[a.slot]].id}
    if isinstance(a, DraftImprovement):
        return {"name": s.improvement_track[a.slot]}
    if isinstance(a, DraftPass):
        return None
    return None


def decisions(state, seat: int) -> list[dict[str, Any]]:
    """The legal moves of ``seat`` now (the engine's list: a contract, route, station or
    improvement once per way to pay, ``pay_rank`` 0 the engine's best), with the terminal menu's
    label and :func:`preview`. Every move but ``end_turn`` also takes an explicit ``pay`` string
    (dice from 0, markers by colour) in place of the listed one."""
    from rolling.ui.freight import describe

    out = []
    ranks: dict[tuple, int] = {}
    for a in state.legal_actions(seat):
        data = a.to_json()
        args = {k: v for k, v in data.items() if k != "type"}
        item = {"action": data, "type": data["type"], "args": args, "field": None, "lo": None, "hi": None,
                "label": describe(state, a), "group": GROUPS.get(data["type"], "other"), "preview": preview(state, a)}
        if isinstance(a, TakeContract | EstablishRoute | BuildStation | BuyImprovement):
            what = tuple(v for k, v in sorted(data.items()) if k != "pay")
            item["pay_rank"] = ranks[what] = ranks.get(what, -1) + 1
        out.append(item)
    return out
