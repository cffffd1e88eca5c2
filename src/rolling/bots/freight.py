"""Bots for Rolling Freight: ``random`` (a uniform legal move) and ``heuristic``.

The heuristic bot plays a greedy plan each decision: use Steady Builder, establish the best
major route (its own payout, distance bonus and end-of-phase cargo bonus against the dice it
costs), keep two contracts going (favouring short-to-finish, well-paid links next to its own
network in colours its dice show), pour matching dice into the contract nearest completion
(markers only when they finish it), buy useful improvements and a few switching stations with
spare dice, and end the turn keeping the most stockpile markers. It pays contracts, routes,
stations and improvements with the engine's best payment (``pay=""``), best by the order of
what is kept of :mod:`rolling.games.freight.payways` (issue 28 item 5). After a route, a contract taken,
a build, an improvement or a station, ``last_reason`` says why in one line.
"""

from __future__ import annotations

from rolling.bots.reasons import Reason, public_reason
from rolling.core.rng import Rng
from rolling.core.whole import is_whole
from rolling.games.freight import legal
from rolling.games.freight.actions import (
    Build,
    EstablishRoute,
    SteadyBuild,
)
from rolling.games.freight.components import COLOUR_INDEX, OCEAN, face
from rolling.games.freight.construction import contract_score
from rolling.games.freight.routes import distance_bonus, enumerate_routes, link_cost, parse_path, route_price
from rolling.games.freight.stockpile import gains, parse_store


class FreightRandomBot:
    """Picks a legal action uniformly at random (its own seeded generator)."""

    name = "random"
    last_reason: str | None = None

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state, seat: int):
        """Return one of ``state.legal_actions(seat)``, uniformly (drawn without listing them all:
        :func:`rolling.games.freight.legal.random_move`)."""
        return legal.random_move(state, seat, self.rng)


#: the heuristic bot's taste in improvements, best first
IMPROVEMENT_TASTE = ("Steady Builder", "Black Die", "Efficient Storage", "Yellow Die", "Red Die", "Blue Die",
                     "Gray Die", "Acquisition Expert", "Friendly")


class FreightHeuristicBot:
    """A greedy planner (see the module's description). Deterministic for a given seed."""

    name = "heuristic"
    last_reason: str | None = None

    def __init__(self, seed: int = 0, target_contracts: int = 2):
        self.rng = Rng(seed)
        self.target = target_contracts

    # -- evaluation helpers --------------------------------------------------------------------

    def _route_value(self, state, seat, a: EstablishRoute) -> float:
        return self._path_value(state, seat, a.colour, parse_path(state, a.path))

    def _path_value(self, state, seat, colour: str, path: list[int]) -> float:
        """:meth:`_route_value` of a route carrying ``colour`` along the link indices ``path``."""
        own = sum(1 for i in path if state.owner[i] == seat)
        base = sum(link_cost(state, seat, i) for i in path)
        cost, _ = route_price(state, seat, base)
        gain = own + distance_bonus(state.comp, colour, len(path)) + state.comp.cargo_bonus[state.phase]
        others = len(path) - own
        return gain - 0.3 * others - 0.6 * cost

    def _contract_value(self, state, seat, link) -> float:
        p = state.players[seat]
        k = min(3, len(p.contracts) + 1)
        pts = contract_score(state.comp, link.length, k)
        dice_needed = link.cost + link.length
        v = pts / dice_needed
        # Links touching our network or a city with cargo open routes later.
        links = state.map.links
        mine = set()
        for i, owner in enumerate(state.owner):
            if owner == seat:
                mine.add(links[i].a)
                mine.add(links[i].b)
        if link.a in mine or link.b in mine:
            v += 0.35
        if state.cargo[link.a] or state.cargo[link.b]:
            v += 0.15
        show = 0
        for i, name in enumerate(p.dice):
            if p.spent[i]:
                continue
            f = face(name)
            if (link.colour == OCEAN and len(f.colours) >= 2) or link.colour in f.colours:
                show += 1
        v += 0.1 * show
        if link.colour != OCEAN:
            v += 0.05 * p.markers[COLOUR_INDEX[link.colour]]
        if state.phase == 2 and state.final_left >= 0:
            v -= 1.0
        return v

    def _build_rank(self, state, seat, a: Build):
        link = state.link_by_id(a.link)
        remaining = link.length - state.cubes[link.index]
        if not a.pay:
            return None  # the "all matching dice" move; the bot spends dice one at a time
        word = a.pay.split()[0]
        p = state.players[seat]
        if is_whole(word):
            f = face(p.dice[int(word)])
            kind = 0 if (f.kind == "colour" and len(f.colours) == 1) else (1 if f.kind == "cubes" else (2 if f.kind == "colour" else 3))
            return (0, remaining, kind, -a.cubes)  # the cubes symbol: two cubes rather than one
        k = COLOUR_INDEX[word]
        if p.markers[k] >= remaining or state.final_left >= 0 and state.phase == 2:
            return (1, remaining, 0, 0)
        return None

    # -- the decision --------------------------------------------------------------------------

    def choose(self, state, seat: int):
        """Return the bot's move for ``seat`` (one of the legal moves, or one with an explicit payment).

        Raises:
            ValueError: ``seat`` is not to act.
        """
        self.last_reason = None
        if state.stage == "draft":
            return self._draft(state, seat, state.legal_actions(seat))
        if seat not in state.to_act:
            raise ValueError(f"seat {seat} has no legal action")
        # Each kind of move is listed (as legal_actions lists it) only when the plan comes to it:
        # most decisions never reach the stockpile options, and many not the routes.
        p = state.players[seat]
        build_moves = legal.build_moves(state, seat)
        steady = [a for a in build_moves if type(a) is SteadyBuild]
        if steady:
            return min(steady, key=lambda a: state.link_by_id(a.link).length - state.cubes[state.link_by_id(a.link).index])
        # the routes are valued on the engine's paths; only the best becomes an action
        found = enumerate_routes(state, seat)
        if found:
            values = [self._path_value(state, seat, colour, path) for _o, colour, _d, path, _c in found]
            k = max(range(len(found)), key=values.__getitem__)  # the first best, as max() over the moves
            value = values[k]
            if value > 0:
                best = legal.route_move(state, seat, found[k])
                said = f"ships {best.colour} {best.origin} -> {best.dest}: the best route"
                self.last_reason = Reason(f"{said}, worth {value:.1f} after the dice it costs", said)
                return best
        takes = legal.take_moves(state, seat, alternatives=False) if len(p.contracts) < self.target else []
        if takes:
            best = max(takes, key=lambda a: self._contract_value(state, seat, state.map.links[state.contract_track[a.slot]]))
            link = state.map.links[state.contract_track[best.slot]]
            self.last_reason = Reason(f"takes {link.label}: keeps {self.target} contracts going, the best points per die "
                                      f"({link.length} long) for its network and dice",
                                      f"takes {link.label}: the best points per die for its network and dice")
            return best
        builds = []
        for a in build_moves:
            if type(a) is not Build:
                continue
            r = self._build_rank(state, seat, a)
            if r is not None:
                builds.append((r, a))
        if builds:
            best = min(builds, key=lambda x: x[0])[1]
            link = state.link_by_id(best.link)
            left = link.length - state.cubes[link.index]
            self.last_reason = public_reason(f"builds on {link.label}: the contract nearest completion ({left} to go)")
            return best
        spare = sum(1 for s in p.spent if not s)
        imps = legal.improvement_moves(state, seat, alternatives=False) if state.phase < 2 else []
        if imps:
            def taste(a):
                name = state.improvement_track[a.slot]
                return IMPROVEMENT_TASTE.index(name) if name in IMPROVEMENT_TASTE else 99
            good = [a for a in imps if a.discard == -1 and taste(a) < 5]
            if good and spare >= 4:
                best = min(good, key=taste)
                name = state.improvement_track[best.slot]
                self.last_reason = Reason(f"buys {name}: high on its list, {spare} dice spare", f"buys {name}")
                return best
        if p.stations < 3 and spare >= 2 and p.links_owned >= 2:
            stations = legal.station_moves(state, seat, alternatives=False)
            if stations:
                self.last_reason = public_reason(f"builds a switching station: {spare} dice spare and {p.links_owned} links owned")
                return stations[0]
        ends = legal.end_turn_moves(state, seat)
        return max(ends, key=lambda a: sum(gains(state, seat, parse_store(state, seat, a.store))))

    def _draft(self, state, seat, acts):
        best = None
        for a in acts:
            if type(a).__name__ == "DraftContract":
                link = state.map.links[state.contract_track[a.slot]]
                v = self._contract_value(state, seat, link)
            elif type(a).__name__ == "DraftImprovement":
                name = state.improvement_track[a.slot]
                v = 1.0 - 0.1 * (IMPROVEMENT_TASTE.index(name) if name in IMPROVEMENT_TASTE else 9)
            else:
                v = 0
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

