"""C: Establishing major routes, and the distance bonuses.

Choose a cargo marker on the map and a city whose open outer ring wants that colour; trace a path
of completed links between them that uses at least one of your links, no city twice, and no
other city that wants that cargo. Each of your links costs one die, each other player's link two
(one if its owner has Friendly); switching stations take one die off each, down to one die.
Each owner earns $1 per link used (a Friendly owner $1 more when another player uses its links);
red and yellow (fast) or blue and gray (slow) earn the distance bonus. You keep the cargo marker
and a saturation marker covers the demand. One major route per turn; the *route* symbol of an
improvement die pays toward a second one, discounted only by stations the first did not use.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from rolling.core.errors import IllegalAction
from rolling.core.whole import parse_whole

from . import events as E
from . import payways
from .actions import EstablishRoute
from .components import COLOUR_INDEX, load_map
from .payment import bonus_faces, check_purchase, face_units, generic_budget, new_face_units, parse_pay, spend
from .payways import best_payment

try:  # the search compiled (setup.py): the same routes in the same order, several times sooner
    from ._routes import enumerate as _compiled_enumerate
    from ._routes import prepare as _compiled_prepare
    from ._routes import search as _compiled_search
except ImportError:  # installed where no C compiler was found
    _compiled_enumerate = _compiled_prepare = _compiled_search = None

RULE = "C: Establishing Major Routes"
#: dice to spare (beyond the cheapest way on to a wanting city) from which the route search also
#: checks which cities a partial route can still reach; a speed setting, not a limit on routes
REACH_SLACK = 6
#: bits per owner in the packed count of links each owner has in a route (a map has < 64 links)
_OWNER_BITS = 6


def distance_bonus(comp, colour: str, links: int) -> int:
    """Distance bonus for a route of ``links`` links carrying ``colour`` cargo (0 past the table)."""
    table = comp.fast_bonus if colour in ("red", "yellow") else comp.slow_bonus
    return table[links - 1] if 1 <= links <= len(table) else 0


def owner_link_cost(state, seat: int, owner: int) -> int:
    """Dice one link of ``owner`` costs ``seat`` in a route: one for your own, two for another
    player's, one if that player has Friendly."""
    if owner == seat:
        return 1
    return 1 if state.players[owner].has("Friendly") else 2


def link_cost(state, seat: int, index: int) -> int:
    """Dice link ``index`` costs ``seat`` in a route (see :func:`owner_link_cost`)."""
    return owner_link_cost(state, seat, state.owner[index])


def route_price(state, seat: int, base: int) -> tuple[int, int]:
    """``(dice to pay, stations used)`` for a route whose links cost ``base`` dice.

    Stations already used by this turn's first route do not discount a second one.
    """
    avail = state.players[seat].stations - state.stations_used
    used = max(0, min(avail, base - 1))
    return base - used, used


def trace(state, seat: int, origin: int, colour: str, dest: int, path: list[int]) -> int:
    """Check a route's path and return its base cost (before stations).

    Raises:
        IllegalAction: a link not completed or not joining the path, a city used twice, a city
            on the way that wants this cargo, a wrong end, or no link of your own.
    """
    links = state.map.links
    owner = state.owner
    if not path:
        raise IllegalAction(RULE, "a route needs at least one link")
    seen = {origin}
    city = origin
    base = 0
    own = False
    for k, i in enumerate(path):
        ln = links[i]
        o = owner[i]
        if o < 0:
            raise IllegalAction(RULE, f"link {ln.id} is not a completed link")
        if city not in (ln.a, ln.b):
            raise IllegalAction(RULE, f"link {ln.id} does not leave {state.map.cities[city].name}")
        city = ln.b if city == ln.a else ln.a
        if city in seen:
            raise IllegalAction(RULE, f"the route uses {state.map.cities[city].name} twice")
        seen.add(city)
        if k < len(path) - 1 and state.open_demand(city, colour):
            raise IllegalAction(RULE, f"the route passes through {state.map.cities[city].name}, which wants {colour} cargo")
        own = own or o == seat
        base += owner_link_cost(state, seat, o)  # link_cost(state, seat, i)
    if city != dest:
        raise IllegalAction(RULE, f"the path ends at {state.map.cities[city].name}, not {state.map.cities[dest].name}")
    if not own:
        raise IllegalAction(RULE, "at least one link of the route must be your own")
    return base


def _city(state, name: str) -> int:
    i = state.map.city_index.get(name)
    if i is None:
        raise IllegalAction(RULE, f"there is no city {name!r} on this map")
    return i


def parse_path(state, text: str) -> list[int]:
    """Printed link ids (``"31,24"``) to link indices (raises IllegalAction on a bad id).

    The paths read are kept per map (a path's text means the same links on the same map): the
    listing writes each route's path as text and the research codec and ``apply`` read it back,
    most of it the same few hundred paths (issue 34)."""
    known = _known_paths(state.map)
    path = known[1].get(text)
    if path is None:
        out = []
        for w in text.replace(",", " ").replace("-", " ").split():
            n = parse_whole(w)  # ASCII digits only
            if n is None:
                raise IllegalAction(RULE, f"{w!r} is not a link number")
            out.append(state.link_by_id(n).index)
        path = tuple(out)
        if len(known[1]) < _PATHS_KEPT:
            known[1][text] = path
    return list(path)


def path_text(state, path) -> str:
    """``path`` (link indices) as an EstablishRoute writes it: the printed link ids, ``"31,24"``.

    Where reading the text back gives the path (each link's printed id its own whole number), the
    text is kept for :func:`parse_path`: a listed route is read back when it is made (issue 34)."""
    links = state.map.links
    text = ",".join([str(links[i].id) for i in path])
    known = _known_paths(state.map)
    if known[2] and len(known[1]) < _PATHS_KEPT and text not in known[1]:
        known[1][text] = tuple(path)
    return text


def _known_paths(m) -> tuple:
    """``(m, {path text: link indices}, whether path_text may add to them)`` for map ``m``: it may
    where each link ``i`` is ``links[i]`` and has a distinct printed id written in digits, so that
    :func:`parse_path` reads its text back as ``i``."""
    known = _PATHS.get(id(m))
    if known is None or known[0] is not m:
        ids = [ln.id for ln in m.links]
        plain = (all(ln.index == i for i, ln in enumerate(m.links)) and len(set(ids)) == len(ids)
                 and all(type(n) is int and n >= 0 for n in ids))
        known = _PATHS[id(m)] = (m, {}, plain)
    return known


#: map id -> (the map, {path text: link indices}, whether path_text adds to them) for
#: :func:`parse_path` and :func:`path_text`; at most :data:`_PATHS_KEPT` paths per map are kept
#: (texts typed by people could be any)
_PATHS: dict[int, tuple] = {}
_PATHS_KEPT = 50_000


def check_route(state, a: EstablishRoute) -> tuple:
    """Check a major route but its payment: ``(origin, dest, demand ring, path, base cost)``, city
    and link indices and the dice before stations (:func:`trace`).

    Raises:
        IllegalAction: a third route this turn, no such cargo, no open demand, no saturation
            marker left, or an invalid path.
    """
    if state.routes_done >= 2:
        raise IllegalAction(RULE, "you may establish only one major route each turn (two with the route symbol)")
    if a.colour not in COLOUR_INDEX:
        raise IllegalAction(RULE, f"{a.colour!r} is not a cargo colour")
    origin = _city(state, a.origin)
    dest = _city(state, a.dest)
    if a.colour not in state.cargo[origin]:
        raise IllegalAction(RULE, f"there is no {a.colour} cargo marker in {a.origin}")
    ring = state.open_demand(dest, a.colour)
    if ring is None:
        raise IllegalAction(RULE, f"{a.dest} has no open demand for {a.colour} cargo")
    if state.saturation <= 0:
        raise IllegalAction(RULE, "no saturation markers are left")
    path = parse_path(state, a.path)
    return origin, dest, ring, path, trace(state, a.seat, origin, a.colour, dest, path)


def route_payment(state, a: EstablishRoute, cost: int) -> list[tuple]:
    """The tokens paying ``cost`` dice for route ``a``: ``a.pay`` checked, or the engine's choice.

    Raises:
        IllegalAction: a wrong payment, a second route without the route symbol, or dice short.
    """
    p = state.players[a.seat]
    second = state.routes_done == 1
    if a.pay.strip():
        tokens = parse_pay(a.pay, p, RULE)
        check_purchase(p, tokens, None, cost, "route", RULE, second)
        return tokens
    if second and not any(f == "route" for f, s in zip(p.dice, p.spent, strict=True) if not s):
        raise IllegalAction(RULE, "a second major route needs the route symbol of an improvement die")
    tokens = best_payment(state, a.seat, None, cost, "route", second)
    if tokens is None:
        raise IllegalAction(RULE, f"the route costs {cost} dice; you cannot pay them")
    return tokens


def payouts(state, seat: int, path: list[int]) -> list[tuple[int, int, int]]:
    """What a route over ``path`` pays, by owner in seat order: ``(owner, links used, $)``. Each
    owner earns $1 per link; a Friendly owner $1 more when another player's route uses its links."""
    paid: dict[int, int] = {}
    for i in path:
        paid[state.owner[i]] = paid.get(state.owner[i], 0) + 1
    out = []
    for owner, n in sorted(paid.items()):
        extra = 1 if owner != seat and state.players[owner].has("Friendly") else 0
        out.append((owner, n, n + extra))
    return out


def establish(state, a: EstablishRoute) -> None:
    """Establish a major route.

    Raises:
        IllegalAction: a second route without the route symbol, a third route, no such cargo,
            no open demand, an invalid path, a wrong payment, or no saturation marker left.
    """
    p = state.players[a.seat]
    origin, dest, ring, path, base = check_route(state, a)
    cost, used = route_price(state, a.seat, base)
    tokens = route_payment(state, a, cost)
    bonus_dice = bonus_faces(p, tokens)
    spend(state, a.seat, tokens)
    state.stations_used += used
    state.routes_done += 1
    log = state.log
    if log is not None:
        log.append((E.ROUTE, E.PUBLIC, a.seat, a.colour, origin, dest, tuple(path), cost, base, used, tuple(tokens)))
    for owner, n, amount in payouts(state, a.seat, path):
        state.players[owner].stock += amount
        if log is not None:
            log.append((E.LINK_INCOME_FRIENDLY if amount > n else E.LINK_INCOME, E.PUBLIC, owner, amount, n))
    dist = distance_bonus(state.comp, a.colour, len(path))
    if dist or bonus_dice:
        p.stock += dist + 2 * bonus_dice
        if log is not None:
            log.append((E.DISTANCE_AND_DICE_BONUS, E.PUBLIC, a.seat, dist, 2 * bonus_dice) if bonus_dice
                       else (E.DISTANCE_BONUS, E.PUBLIC, a.seat, dist))
    left = state.cargo[origin][:]  # shared with the state's clones, like the rings
    left.remove(a.colour)
    state.cargo[origin] = left
    p.cargo.append(a.colour)
    # the city's rings are shared with the state's clones (FreightState.clone): replaced, not changed
    state.rings[dest] = [[r[0], r[1], True] if r is ring else r for r in state.rings[dest]]
    state.saturation -= 1


def enumerate_routes(state, seat: int) -> list[tuple[int, str, int, list[int], int]]:
    """Every major route the seat could establish and pay for now, one per distinct outcome (C).

    Returns ``(origin, colour, dest, path, cost)`` tuples: city indices, the cargo colour, link
    indices from the origin, and dice to pay. Two routes have the same outcome when they take the
    same cargo marker to the same city paying each owner for the same number of links (which
    fixes the length, the price and every payout); one path of each is listed, in a fixed order.

    The text sets no limit on a route's length, and neither does the search. It walks the simple
    paths of completed links from each cargo marker, depth first, ending a path at the first city
    that wants the cargo, and cuts only partial paths that cannot give a new outcome:

    - *Price.* A route costs ``max(1, base - stations)`` dice, which the seat must pay from what
      it holds (``budget`` any-colour dice and markers), so ``base <= budget + stations``. A
      partial path is cut when its base plus the cheapest way on to any wanting city (in dice,
      ignoring which cities the rest would use, so never more than the true rest) exceeds that:
      it cannot become a route the seat can pay. As every link costs a die, no payable route is
      longer than ``budget + stations`` links: this, and the map's size, bound the search.
    - *Dead ends.* A partial path from whose end no wanting city can be reached through unused
      cities that do not want the cargo cannot end anywhere.
    - *Repeats.* Two partial paths ending at the same city, having paid the same owners for the
      same numbers of links, with the same set of cities still reachable, have the same
      completions with the same outcomes; only the first is extended.

    So every valid, payable route either is walked or has the outcome of one that is: the listing
    is complete. The last two checks cost a flood fill, so they run only where the price leaves
    :data:`REACH_SLACK` dice or more for detours; with less, the rest of the walk is short.

    The search runs compiled (the optional C extension ``_routes``, :func:`compiled`) where it was
    built and its numbers fit, else in Python (:func:`_search_py`, the reference): the same routes
    in the same order either way (issue 34). Compiled, it first tells, before the seat's dice are
    counted, whether any route could be made at any price (:func:`_could_route`, the reference:
    most often none can, the seat's links being away from the cargo and demand); in Python that
    costs more than it saves, and the search finds none anyway. Compiled, all of it runs in C
    (``_routes.enumerate``: the state, the dice and the owners' Friendly read there), falling back
    to :func:`_enumerate_py`, the reference, wherever the state is not as it expects.
    """
    if _compiled_enumerate is not None and not payways._PURE:
        got = _compiled_enumerate(state, seat, _C_CONTEXT)
        if got is not None:
            return got
    return _enumerate_py(state, seat)


def _map_ends(m) -> tuple[bytes, int]:
    """Map ``m``'s link ends (:func:`_link_ends`) and its number of cities, as
    ``_routes.enumerate`` keeps them for the last map it met."""
    return _link_ends(m.name), len(m.cities)


def _route_units(name: str, second: bool) -> int:
    """A face's "any" dice for a route, first met: entered in :func:`.payment.face_units`' table
    as :func:`.payment.generic_budget` enters it (raises ValueError for a face of no die)."""
    return new_face_units(face_units("route", second), name, "route", second)


#: what ``_routes.enumerate`` reads besides the state: the colour indices, the face units of a
#: first and of a second route (:func:`.payment.face_units`' tables, which are filled in place and
#: never replaced), the map's link ends, the bits per owner, the search's slack and a face's units first met
_C_CONTEXT = (COLOUR_INDEX, face_units("route", False), face_units("route", True), _map_ends, _OWNER_BITS, REACH_SLACK,
              _route_units)


def _enumerate_py(state, seat: int) -> list[tuple[int, str, int, list[int], int]]:
    """:func:`enumerate_routes` in Python (with the compiled ``prepare`` and ``search`` where they
    are built), the reference for ``_routes.enumerate``."""

    done = state.routes_done
    if done >= 2 or state.saturation <= 0:
        return []
    p = state.players[seat]
    second = done == 1
    if second and not any(f == "route" for f, s in zip(p.dice, p.spent, strict=True) if not s):
        return []
    if p.links_owned == 0:
        return []
    n = state.n
    # compiled(), read here at each listing: None where not compiled or the numbers do not fit
    ready = _prepare_c(state, seat, n) if _compiled_prepare is not None and not payways._PURE else None
    if ready is False:
        return []
    budget = generic_budget(p, "route", second)
    if budget <= 0:
        return []
    avail = p.stations - state.stations_used
    cap = budget + avail
    costs = tuple([owner_link_cost(state, seat, o) for o in range(n)])
    if ready is not None:
        got = _compiled_search(ready, costs, cap, avail, REACH_SLACK)
        if got is not None:
            return got
    return _search_py(state, seat, cap, avail, costs)


def _prepare_c(state, seat: int, n: int):
    """The compiled :func:`_could_route` for ``seat`` among ``n`` owners: ``False`` where it is
    false, else what the compiled search reads from the state, for :func:`_compiled_search`
    (``None`` where its numbers do not fit its fixed-width integers: more than 64 cities, or too
    many owners for the packed link counts)."""
    m = state.map
    return _compiled_prepare(_link_ends(m.name), len(m.cities), state.owner, n, state.rings, state.phase, state.cargo,
                             COLOUR_INDEX, seat, _OWNER_BITS)


def _search_c(state, seat: int, cap: int, avail: int, costs: tuple) -> list | None:
    """:func:`_search_py` by the compiled search, after its :func:`_could_route` (``[]`` where that
    is false; ``None`` where the numbers do not fit, see :func:`_prepare_c`)."""
    ready = _prepare_c(state, seat, len(costs))
    if ready is None or ready is False:
        return None if ready is None else []
    return _compiled_search(ready, costs, cap, avail, REACH_SLACK)


def _could_route(state, seat: int) -> bool:
    """Whether ``seat`` could establish any major route at any price (C): ``False`` only where
    :func:`_search_py` finds none at any cap. The compiled ``prepare`` answers the same.

    A route from a cargo marker passes only cities that do not want its cargo (but its origin)
    and ends at one that does, using a link of the seat's. So its cities but the last are among
    those reached from the origin without entering a wanting city (``inner``), its last is a
    wanting city (not the origin) next to one of them, and some link of the seat's joins a city of
    ``inner`` to one of ``inner`` or a wanting one.
    """
    links = state.map.links
    nc = len(state.map.cities)
    nbr = [0] * nc  # each city's neighbours over completed links
    mine = [0] * nc  # and over the seat's
    for i, o in enumerate(state.owner):
        if o < 0:
            continue
        a, b = links[i].a, links[i].b
        nbr[a] |= 1 << b
        nbr[b] |= 1 << a
        if o == seat:
            mine[a] |= 1 << b
            mine[b] |= 1 << a
    wanting = _wanting(state)
    for origin, cargo in enumerate(state.cargo):
        if not cargo or not nbr[origin]:
            continue
        for colour in dict.fromkeys(cargo):
            wmask = wanting.get(colour, 0)
            if not wmask:
                continue
            inner = frontier = 1 << origin
            touch = 0
            while frontier:
                nxt = 0
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    nxt |= nbr[low.bit_length() - 1]
                touch |= nxt
                frontier = nxt & ~wmask & ~inner
                inner |= frontier
            if not touch & wmask & ~(1 << origin):
                continue
            m = inner
            while m:
                low = m & -m
                m ^= low
                if mine[low.bit_length() - 1] & (inner | wmask):
                    return True
    return False


def _wanting(state) -> dict[str, int]:
    """Per cargo colour, the bit mask of the cities with an open, unsaturated demand ring of it
    (as :meth:`.state.FreightState.open_demand`)."""
    phase = state.phase
    wanting: dict[str, int] = {}
    for city, rings in enumerate(state.rings):
        for colour, ph, saturated in rings:
            if ph <= phase and not saturated:
                wanting[colour] = wanting.get(colour, 0) | 1 << city
    return wanting


def _search_py(state, seat: int, cap: int, avail: int, costs: tuple) -> list:
    """The search of :func:`enumerate_routes` in Python, for a seat paying at most ``cap`` base
    dice with ``avail`` stations and ``costs`` dice per owner's link (the reference for the
    compiled search, and where it was not built)."""
    steps, nbrmask, cheapest, rests = _route_graph(state.map.name, tuple(state.owner), costs)
    nc = len(nbrmask)
    own_shift = _OWNER_BITS * seat
    own_mask = (1 << _OWNER_BITS) - 1
    wanting = _wanting(state)
    found: dict[tuple, tuple] = {}
    for origin, cargo in enumerate(state.cargo):
        if not cargo or not steps[origin]:
            continue
        for colour in dict.fromkeys(cargo):
            wmask = wanting.get(colour, 0)
            if not wmask:
                continue
            rest = rests.get(wmask)
            if rest is None:
                rest = rests[wmask] = _cheapest_rest(nc, nbrmask, cheapest, wmask)
            if rest[origin] is None:
                continue
            _walk(origin, colour, wmask, rest, steps, nbrmask, cap, own_shift, own_mask, found)
    return [(o, c, d, list(path), max(1, base - avail)) for o, c, d, path, base in found.values()]


def compiled() -> bool:
    """Whether :func:`enumerate_routes` searches with the compiled search (the optional C
    extension ``_routes``, built by ``setup.py`` where a C compiler is found, and
    ``ROLLING_PURE_PYTHON`` not set, :data:`.payways._PURE`); the routes are the same either way."""
    return _compiled_enumerate is not None and not payways._PURE


@lru_cache(maxsize=16)
def _link_ends(map_name: str) -> bytes:
    """Each link's two cities, ``a`` then ``b``, in link order, one byte each, as the compiled
    search takes them (a map of 256 cities or more gives an empty string: the compiled search
    answers ``None`` for it and the search runs in Python)."""
    m = load_map(map_name)
    if len(m.cities) > 255:
        return b""
    return bytes(x for ln in m.links for x in (ln.a, ln.b))


@lru_cache(maxsize=256)
def _route_graph(map_name: str, owner: tuple[int, ...], costs: tuple[int, ...]):
    """The completed links as the route search needs them, for links owned as in ``owner`` and
    dice per owner's link ``costs``: per city its steps ``(city, bit, link, dice, owner count)``,
    per city a bit mask of its neighbours, the cheapest dice between two cities, and an empty
    memo of :func:`_cheapest_rest` per set of wanting cities.

    Cached: between two routes the links rarely change, and rebuilding this was most of the
    search's time. Parallel links of one owner give the same outcomes, so only the first is kept.
    """
    links = load_map(map_name).links
    nc = len(load_map(map_name).cities)
    adj: list[dict[tuple[int, int], int]] = [{} for _ in range(nc)]
    nbrmask = [0] * nc
    cheapest: dict[tuple[int, int], int] = {}
    for i, o in enumerate(owner):
        if o < 0:
            continue
        ln = links[i]
        for a, b in ((ln.a, ln.b), (ln.b, ln.a)):
            adj[a].setdefault((b, o), i)
            nbrmask[a] |= 1 << b
            if (a, b) not in cheapest or costs[o] < cheapest[a, b]:
                cheapest[a, b] = costs[o]
    steps = [tuple((b, 1 << b, i, costs[o], 1 << (_OWNER_BITS * o)) for (b, o), i in d.items()) for d in adj]
    return steps, nbrmask, cheapest, {}


def _cheapest_rest(nc: int, nbrmask: list[int], cheapest: dict, wmask: int) -> list:
    """Per city, the fewest dice from it to a city in ``wmask`` (``None``: none reachable).

    Dijkstra from the wanting cities; a lower bound, since it may reuse cities.
    """
    rest: list = [None] * nc
    heap = [(0, c) for c in range(nc) if wmask >> c & 1]
    while heap:
        d, c = heapq.heappop(heap)
        if rest[c] is not None:
            continue
        rest[c] = d
        m = nbrmask[c]
        while m:
            low = m & -m
            m ^= low
            b = low.bit_length() - 1
            if rest[b] is None:
                heapq.heappush(heap, (d + cheapest[c, b], b))
    return rest


def _walk(origin, colour, wmask, rest, steps, nbrmask, cap, own_shift, own_mask, found) -> None:
    """The depth-first walk of :func:`enumerate_routes` from one cargo marker."""
    repeats: set = set()
    stack = [(origin, 1 << origin, 0, 0, ())]
    while stack:
        city, seen, base, owners, path = stack.pop()
        for b, bit, i, cost, one in steps[city]:
            if seen & bit:
                continue
            nb = base + cost
            no = owners + one
            if wmask & bit:
                if nb <= cap and no >> own_shift & own_mask:
                    key = (origin, colour, b, no)
                    if key not in found:
                        found[key] = (origin, colour, b, path + (i,), nb)
                continue
            r = rest[b]
            if r is None or nb + r > cap:
                continue
            ns = seen | bit
            if cap - nb - r >= REACH_SLACK:
                allowed = ~(ns | wmask)
                reach = 0
                touch = 0
                frontier = bit
                while frontier:
                    nxt = 0
                    while frontier:
                        low = frontier & -frontier
                        frontier ^= low
                        nxt |= nbrmask[low.bit_length() - 1]
                    touch |= nxt
                    frontier = nxt & allowed & ~reach
                    reach |= frontier
                if not touch & wmask & ~ns:
                    continue
                key = (b, no, reach)
                if key in repeats:
                    continue
                repeats.add(key)
            stack.append((b, ns, nb, no, path + (i,)))
