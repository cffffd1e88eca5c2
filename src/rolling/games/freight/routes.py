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

from rolling.core.errors import IllegalAction

from .actions import EstablishRoute
from .components import COLOUR_INDEX
from .payment import auto_purchase, bonus_faces, check_purchase, generic_budget, parse_pay, pay_text, spend

RULE = "C: Establishing Major Routes"
#: per origin, how many path steps the enumeration for ``legal_actions`` explores at most
SEARCH_LIMIT = 3000
#: routes longer than this are not listed (the distance table ends at 10)
MAX_LISTED_LENGTH = 10


def distance_bonus(comp, colour: str, links: int) -> int:
    """Distance bonus for a route of ``links`` links carrying ``colour`` cargo (0 past the table)."""
    table = comp.fast_bonus if colour in ("red", "yellow") else comp.slow_bonus
    return table[links - 1] if 1 <= links <= len(table) else 0


def link_cost(state, seat: int, index: int) -> int:
    """Dice a link costs in a route: one for your own, two for another's (one if Friendly)."""
    owner = state.owner[index]
    if owner == seat:
        return 1
    return 1 if state.players[owner].has("Friendly") else 2


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
    if not path:
        raise IllegalAction(RULE, "a route needs at least one link")
    seen = {origin}
    city = origin
    base = 0
    own = False
    for k, i in enumerate(path):
        ln = links[i]
        if state.owner[i] < 0:
            raise IllegalAction(RULE, f"link {ln.id} is not a completed link")
        if city not in (ln.a, ln.b):
            raise IllegalAction(RULE, f"link {ln.id} does not leave {state.map.cities[city].name}")
        city = ln.b if city == ln.a else ln.a
        if city in seen:
            raise IllegalAction(RULE, f"the route uses {state.map.cities[city].name} twice")
        seen.add(city)
        if k < len(path) - 1 and state.open_demand(city, colour):
            raise IllegalAction(RULE, f"the route passes through {state.map.cities[city].name}, which wants {colour} cargo")
        own = own or state.owner[i] == seat
        base += link_cost(state, seat, i)
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
    """Printed link ids (``"31,24"``) to link indices (raises IllegalAction on a bad id)."""
    out = []
    for w in text.replace(",", " ").replace("-", " ").split():
        if not w.isdigit():
            raise IllegalAction(RULE, f"{w!r} is not a link number")
        out.append(state.link_by_id(int(w)).index)
    return out


def establish(state, a: EstablishRoute) -> None:
    """Establish a major route.

    Raises:
        IllegalAction: a second route without the route symbol, a third route, no such cargo,
            no open demand, an invalid path, a wrong payment, or no saturation marker left.
    """
    p = state.players[a.seat]
    if state.routes_done >= 2:
        raise IllegalAction(RULE, "you may establish only one major route each turn (two with the route symbol)")
    second = state.routes_done == 1
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
    base = trace(state, a.seat, origin, a.colour, dest, path)
    cost, used = route_price(state, a.seat, base)
    if a.pay.strip():
        tokens = parse_pay(a.pay, p, RULE)
        check_purchase(p, tokens, None, cost, "route", RULE, second)
    else:
        if second and not any(f == "route" for f, s in zip(p.dice, p.spent, strict=True) if not s):
            raise IllegalAction(RULE, "a second major route needs the route symbol of an improvement die")
        tokens = auto_purchase(state, a.seat, None, cost, "route", second)
        if tokens is None:
            raise IllegalAction(RULE, f"the route costs {cost} dice; you cannot pay them")
    bonus_dice = bonus_faces(p, tokens)
    spend(state, a.seat, tokens)
    state.stations_used += used
    state.routes_done += 1
    paid: dict[int, int] = {}
    for i in path:
        paid[state.owner[i]] = paid.get(state.owner[i], 0) + 1
    state.say(f"{state.name(a.seat)} ships {a.colour} cargo {a.origin} -> {a.dest} over {len(path)} link(s) "
              f"for {cost} dice ({base} less {used} for stations), paying {pay_text(tokens)}")
    for owner, n in sorted(paid.items()):
        extra = 1 if owner != a.seat and state.players[owner].has("Friendly") else 0
        state.players[owner].stock += n + extra
        state.say(f"  {state.name(owner)} earns ${n + extra} for {n} link(s)" + (" (Friendly)" if extra else ""))
    dist = distance_bonus(state.comp, a.colour, len(path))
    if dist or bonus_dice:
        p.stock += dist + 2 * bonus_dice
        state.say(f"  {state.name(a.seat)} earns a distance bonus of ${dist}" + (f" and ${2 * bonus_dice} for bonus dice" if bonus_dice else ""))
    state.cargo[origin].remove(a.colour)
    p.cargo.append(a.colour)
    ring[2] = True
    state.saturation -= 1


def enumerate_routes(state, seat: int) -> list[tuple[int, str, int, list[int], int]]:
    """Routes the seat could establish and pay for now, one per distinct outcome.

    Returns ``(origin, colour, dest, path, cost)`` tuples; outcomes differ in destination, cost,
    length or the owners paid. The search is bounded (:data:`SEARCH_LIMIT` steps per cargo colour
    and origin, :data:`MAX_LISTED_LENGTH` links) and pruned by each city's hop distance to the
    nearest city that wants the cargo.
    """
    if state.routes_done >= 2 or state.saturation <= 0:
        return []
    p = state.players[seat]
    second = state.routes_done == 1
    if second and not any(f == "route" for f, s in zip(p.dice, p.spent, strict=True) if not s):
        return []
    if p.links_owned == 0:
        return []
    budget = generic_budget(p, "route", second)
    if budget <= 0:
        return []
    links = state.map.links
    adj: dict[int, dict[int, dict[int, int]]] = {}
    for i in state.completed:
        ln = links[i]
        o = state.owner[i]
        adj.setdefault(ln.a, {}).setdefault(ln.b, {}).setdefault(o, i)
        adj.setdefault(ln.b, {}).setdefault(ln.a, {}).setdefault(o, i)
    avail = p.stations - state.stations_used
    costs = {o: (1 if o == seat else (1 if state.players[o].has("Friendly") else 2)) for o in range(state.n)}
    phase = state.phase
    wanting: dict[str, set[int]] = {}
    for city, rings in enumerate(state.rings):
        for colour, ph, saturated in rings:
            if ph <= phase and not saturated:
                wanting.setdefault(colour, set()).add(city)
    found: dict[tuple, tuple] = {}
    dist_cache: dict[str, dict[int, int]] = {}
    for origin, cargo in enumerate(state.cargo):
        if not cargo or origin not in adj:
            continue
        for colour in set(cargo):
            demand = wanting.get(colour)
            if not demand:
                continue
            dist = dist_cache.get(colour)
            if dist is None:
                # hops to the nearest wanting city, never passing through one
                dist = {c: 0 for c in demand if c in adj}
                frontier = list(dist)
                while frontier:
                    nxt = []
                    for c in frontier:
                        for nb in adj[c]:
                            if nb not in dist:
                                dist[nb] = dist[c] + 1
                                nxt.append(nb)
                    frontier = nxt
                dist_cache[colour] = dist
            if origin not in dist:
                continue
            steps = 0
            stack = [(origin, (origin,), (), 0, False, ())]
            while stack and steps < SEARCH_LIMIT:
                city, seen, path, base, own, owners = stack.pop()
                for nbr, by_owner in adj[city].items():
                    if nbr in seen or nbr not in dist:
                        continue
                    hops = len(path) + 1 + dist[nbr]
                    if hops > MAX_LISTED_LENGTH:
                        continue
                    for o, i in by_owner.items():
                        steps += 1
                        nb = base + costs[o]
                        if max(1, nb + dist[nbr] - avail) > budget:
                            continue
                        npath = path + (i,)
                        nown = own or o == seat
                        nowners = owners + (o,)
                        if nbr in demand:
                            if nown:
                                cost = max(1, nb - avail)
                                key = (origin, colour, nbr, cost, len(npath), tuple(sorted(nowners)))
                                if key not in found:
                                    found[key] = (origin, colour, nbr, list(npath), cost)
                            continue
                        stack.append((nbr, seen + (nbr,), npath, nb, nown, nowners))
    return list(found.values())
