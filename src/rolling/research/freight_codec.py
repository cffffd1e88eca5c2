"""Rolling Freight as fixed action indices and flat float32 observations (docs/research.md).

One action space serves both maps (sized for the larger, the Southern map: 39 cities, 62 links;
entries of links or cities a map lacks are never legal). A contract, station or improvement index
pays with the engine's choice (``pay=""``); its ``*_alt`` indices pay with the listed
alternatives, by rank (1 = the runner-up by the order of what is kept,
:mod:`rolling.games.freight.payways`, up to ``MAX_LISTED - 1``). When building, the die or
marker spent is part of the action. Three choices are split so that the space stays fixed and
covers every outcome:

- a major route is a *route start* (origin city, cargo colour) followed by one *route link*
  action per link of the path, from the origin; the route is established when the path reaches a
  city that wants the cargo. Every distinct outcome the engine lists (cargo, destination, links
  paid to each owner) is reachable, and every legal prefix leads to one. When the completed route
  has several listed payments, one more *route pay* action picks one by rank (0 = the engine's).
- ending the turn names the stockpile markers taken per colour (blue, gray, red, yellow: 0-6
  each); the engine's store string giving them is used.
- an improvement bought when one must be discarded names the discarded one.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rolling.core.whole import is_whole
from rolling.games.freight import load_components, load_map
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
from rolling.games.freight.components import COLOUR_INDEX, COLOURS, END_OF_PHASE, MAP_NAMES, PHASES
from rolling.games.freight.legal import ListedPays, turn_listing, turn_runs
from rolling.games.freight.payways import MAX_LISTED
from rolling.games.freight.routes import parse_path
from rolling.games.freight.state import FreightState

from .layout import ActionLayout, Layout
from .table import Table

_COMP = load_components()
_MAPS = {name: load_map(name) for name in MAP_NAMES}
MAX_SEATS = 5
N_CITIES = max(len(m.cities) for m in _MAPS.values())
N_LINKS = max(len(m.links) for m in _MAPS.values())
CONTRACT_SLOTS = _COMP.box["contract_track"]
IMPROVEMENT_SLOTS = _COMP.box["improvement_track"]
MAX_IMPROVEMENTS = _COMP.box["max_improvements"]
MAX_DICE = _COMP.box["basic_dice_per_player"] + MAX_IMPROVEMENTS
MARKERS = _COMP.box["stockpile_markers"]
IMPROVEMENTS = tuple(_COMP.improvements)
FACES = tuple(sorted({f for die in _COMP.basic_dice for f in die} | {f for d in _COMP.improvement_dice.values() for f in d}))
DIE_KINDS = ("basic", *sorted(_COMP.improvement_dice))
#: build payment tokens: 0 the engine's choice, 1 + i die i, 1 + MAX_DICE + c a marker of colour c
N_TOKENS = 1 + MAX_DICE + len(COLOURS)
#: payment ranks after the engine's (rank 0) that an ``*_alt`` block indexes
PAY_ALTS = MAX_LISTED - 1

_blocks: list[tuple[str, int]] = [
    ("draft_contract", CONTRACT_SLOTS),
    ("draft_improvement", IMPROVEMENT_SLOTS),
    ("draft_pass", 1),
    ("take_contract", CONTRACT_SLOTS),
    ("build", N_LINKS * N_TOKENS * 3),
    ("steady_build", N_LINKS),
    ("route_start", N_CITIES * len(COLOURS)),
    ("route_link", N_LINKS),
    ("station", 1),
    ("improvement", IMPROVEMENT_SLOTS * (MAX_IMPROVEMENTS + 2)),
    ("end_turn", (MARKERS + 1) ** len(COLOURS)),
    ("take_contract_alt", CONTRACT_SLOTS * PAY_ALTS),
    ("station_alt", PAY_ALTS),
    ("improvement_alt", IMPROVEMENT_SLOTS * (MAX_IMPROVEMENTS + 2) * PAY_ALTS),
    ("route_pay", MAX_LISTED),
]
#: BLOCK[name] = (first index, size)
BLOCK: dict[str, tuple[int, int]] = {}
_at = 0
for _name, _size in _blocks:
    BLOCK[_name] = (_at, _size)
    _at += _size
N_ACTIONS = _at

#: the action space by blocks and fields (:mod:`rolling.research.layout`): index <-> (block, fields)
ACTION_LAYOUT = ActionLayout("freight", (
    ("draft_contract", (("slot", CONTRACT_SLOTS),), "opening draft: take the contract in the slot (0 = lowest)"),
    ("draft_improvement", (("slot", IMPROVEMENT_SLOTS),), "opening draft: take the improvement in the slot"),
    ("draft_pass", (), "opening draft: pass"),
    ("take_contract", (("slot", CONTRACT_SLOTS),), "A: take on the contract in the slot"),
    ("build", (("link", N_LINKS), ("token", N_TOKENS), ("cubes", 3)),
     "B: build on the link paying the token (0 the engine's choice, 1 + d die d, 1 + MAX_DICE + k a marker of "
     "colour k), cubes 0 as many as the payment gives, 1 or 2 with the cubes symbol"),
    ("steady_build", (("link", N_LINKS),), "Steady Builder: one free cube on the link"),
    ("route_start", (("city", N_CITIES), ("colour", len(COLOURS))), "C: start a major route from the city with "
     "a cargo marker of the colour (blue, gray, red, yellow)"),
    ("route_link", (("link", N_LINKS),), "C: the route's next link"),
    ("station", (), "D: build a switching station"),
    ("improvement", (("slot", IMPROVEMENT_SLOTS), ("discard", MAX_IMPROVEMENTS + 2)),
     "E: buy the improvement in the slot, discarding held improvement discard - 1 (0 none)"),
    ("end_turn", tuple((c, MARKERS + 1) for c in COLOURS), "end the turn taking that many markers per colour"),
    ("take_contract_alt", (("slot", CONTRACT_SLOTS), ("alt", PAY_ALTS)),
     "A: take on the contract paying with listed payment alt + 1"),
    ("station_alt", (("alt", PAY_ALTS),), "D: build a switching station paying with listed payment alt + 1"),
    ("improvement_alt", (("slot", IMPROVEMENT_SLOTS), ("discard", MAX_IMPROVEMENTS + 2), ("alt", PAY_ALTS)),
     "E: buy the improvement as above paying with listed payment alt + 1"),
    ("route_pay", (("rank", MAX_LISTED),), "C: pay the completed route with listed payment rank (0 the engine's)"),
), text=lambda index: action_text(index))


def _idx(block: str, offset: int = 0) -> int:
    return BLOCK[block][0] + offset


_IMPROVEMENT_WIDTH = MAX_IMPROVEMENTS + 2
_TAKE, _TAKE_ALT = BLOCK["take_contract"][0], BLOCK["take_contract_alt"][0]
_STATION, _STATION_ALT = BLOCK["station"][0], BLOCK["station_alt"][0]
_IMPROVEMENT, _IMPROVEMENT_ALT = BLOCK["improvement"][0], BLOCK["improvement_alt"][0]
_STEADY, _ROUTE_START = BLOCK["steady_build"][0], BLOCK["route_start"][0]
_END_TURN, _END_TURN_SIZE = BLOCK["end_turn"]
#: the keys under which ``FreightTable._options`` counts a move's listed payments: an improvement
#: purchase's own offset (below IMPROVEMENT_SLOTS x its width), a contract's slot after those, the
#: station last
_RANK_TAKE = IMPROVEMENT_SLOTS * _IMPROVEMENT_WIDTH
_RANK_STATION = _RANK_TAKE + CONTRACT_SLOTS


def build_index(link: int, token: int, cubes: int) -> int:
    """Index of building on link index ``link`` paying ``token`` (see N_TOKENS) for ``cubes`` (0 = as
    many as the payment gives, or 1 or 2 with the *cubes* symbol)."""
    return _idx("build", (link * N_TOKENS + token) * 3 + cubes)


def gains_index(gains) -> int:
    """Index of ending the turn taking ``gains`` markers (blue, gray, red, yellow)."""
    key = tuple(gains)  # the very tuple when given one (the stockpile options' markers)
    got = _GAINS.get(key)
    if got is None:
        got = _gains_index(key)
        if len(key) == len(COLOURS) and all(0 <= g <= MARKERS for g in key):  # kept: at most 7 ** 4
            _GAINS[key] = got
    return got


#: gains_index by markers tuple (those a stockpile can give: at most 7 ** 4)
_GAINS: dict[tuple, int] = {}


def _gains_index(gains) -> int:
    k = 0
    for g in gains:
        k = k * (MARKERS + 1) + g
    return _idx("end_turn", k)


def action_text(index: int) -> str:
    """A short readable name of an action index (``"build link 12 die 3"``)."""
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"action index must be 0..{N_ACTIONS - 1}, got {index}")
    name = next(b for b, (start, size) in BLOCK.items() if start <= index < start + size)
    k = index - BLOCK[name][0]
    if name == "build":
        rest, cubes = divmod(k, 3)
        link, tok = divmod(rest, N_TOKENS)
        pay = "auto" if tok == 0 else f"die {tok - 1}" if tok <= MAX_DICE else f"{COLOURS[tok - 1 - MAX_DICE]} marker"
        return f"build link #{link} {pay}" + (f" {cubes} cubes" if cubes else "")
    if name == "route_start":
        city, c = divmod(k, len(COLOURS))
        return f"route from city #{city} with {COLOURS[c]}"
    if name == "improvement":
        slot, d = divmod(k, MAX_IMPROVEMENTS + 2)
        return f"improvement slot {slot}" + (f" discard {d - 1}" if d else "")
    if name.endswith("_alt"):
        what, r = divmod(k, PAY_ALTS)
        if name == "improvement_alt":
            slot, d = divmod(what, MAX_IMPROVEMENTS + 2)
            what = f"{slot}" + (f" discard {d - 1}" if d else "")
        return f"{name[:-4].replace('_', ' ')} {what} paying #{r + 1}"
    if name == "route_pay":
        return f"route paying #{k}"
    if name == "end_turn":
        g = []
        for _ in COLOURS:
            k, r = divmod(k, MARKERS + 1)
            g.append(r)
        return "end turn taking " + " ".join(f"{n} {c}" for c, n in zip(COLOURS, reversed(g), strict=True))
    return f"{name.replace('_', ' ')} {k}" if BLOCK[name][1] > 1 else name.replace("_", " ")


def _build_move_index(s: FreightState, a) -> int:
    """The index of a listed Build or SteadyBuild move."""
    link = s.link_by_id(a.link).index
    if type(a) is SteadyBuild:
        return _STEADY + link
    tok = _PAY_TOKEN.get(a.pay)
    if tok is None:
        tok = 1 + int(a.pay) if is_whole(a.pay) else 1 + MAX_DICE + COLOURS.index(a.pay)
    return build_index(link, tok, a.cubes)


#: a Build's ``pay`` (one token) -> its token number (see N_TOKENS)
_PAY_TOKEN = {"": 0} | {str(d): 1 + d for d in range(MAX_DICE)} | {c: 1 + MAX_DICE + k for k, c in enumerate(COLOURS)}


class Options(Mapping):
    """A decision's legal options, index -> the engine action (or, for a route start, the candidate
    routes), the actions made only when read: a search lists at every step of a rollout but
    applies one index (issue 33 item 1). Membership, iteration and ``len`` read the indices alone.
    ``raw`` holds the actions, the route starts' lists, and for the moves paying with the listed
    payments ``pays`` (a :class:`ListedPays`) of one price the tuple ``(kind, head, pays, base)``
    under each of their indices, index ``base + r`` being the move ``kind(*head, pays[r])``."""

    __slots__ = ("raw",)

    def __init__(self, raw: dict):
        self.raw = raw

    def __getitem__(self, index: int):
        v = self.raw[index]
        if type(v) is tuple:
            kind, head, pays, base = v
            return kind(*head, pays[index - base])
        return v

    def __contains__(self, index) -> bool:
        return index in self.raw

    def __iter__(self):
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


def _paid(out: dict, kind, head: tuple, pays, n: int, first: int, alt: int) -> None:
    """Index the moves ``kind(*head, pay)`` of each of the ``n`` listed payments ``pays``: the
    engine's (``pays[0]``) at ``first``, payment ``r`` at ``alt + r - 1``."""
    out[first] = (kind, head, pays, first)
    if n > 1:
        out.update(dict.fromkeys(range(alt, alt + n - 1), (kind, head, pays, alt - 1)))


def _turn_options(s: FreightState, seat: int) -> Options:
    """:meth:`FreightTable._options` in a turn of a ``"kept"`` payment game, from the engine's
    listing by runs (:func:`rolling.games.freight.legal.turn_runs`): the same indices and actions
    as indexing each listed move, without making them."""
    out: dict[int, object] = {}
    starts: dict[int, list] = {}
    cities = s.map.cities
    for count, kind, data in turn_runs(s, seat):
        if not count:
            continue
        if kind is list:
            for a in data:
                out[_build_move_index(s, a)] = a
        elif kind is TakeContract:
            slot, pays = data
            _paid(out, TakeContract, (seat, slot), pays, count, _TAKE + slot, _TAKE_ALT + slot * PAY_ALTS)
        elif kind is EstablishRoute:
            (origin, colour, dest, path, _cost), pays = data
            k = _ROUTE_START + origin * len(COLOURS) + COLOUR_INDEX[colour]
            starts.setdefault(k, []).append((cities[dest].name, tuple(path), pays))
        elif kind is BuildStation:
            _paid(out, BuildStation, (seat,), data, count, _STATION, _STATION_ALT)
        elif kind is BuyImprovement:
            slot, discards, pays = data
            n = count // len(discards)
            for d in discards:
                k = slot * _IMPROVEMENT_WIDTH + d + 1
                _paid(out, BuyImprovement, (seat, slot, d), pays, n, _IMPROVEMENT + k, _IMPROVEMENT_ALT + k * PAY_ALTS)
        else:
            head = (seat,)
            for store, g in data:
                k = gains_index(g)
                if k not in out:
                    out[k] = (EndTurn, head, (store,), k)
    out.update(starts)
    return Options(out)


class FreightTable(Table):
    """A Freight state driven by action indices.

    ``route`` is ``(seat, origin, colour, links so far, candidates)`` while ``seat`` lays out a major
    route (``candidates``: the engine's listed routes with that origin and colour, as
    ``(dest, path, pays)``, ``pays`` the listed payments, the engine's ``""`` first); once a path
    with several payments is complete, ``candidates`` holds that route alone and the mask the
    *route pay* ranks.
    """

    __slots__ = ("route",)

    def __init__(self, state: FreightState):
        super().__init__(state)
        self.route: tuple | None = None

    def _options(self, seat: int) -> Mapping[int, object]:
        """Legal index -> the engine action, or for route starts the candidate routes ``(dest,
        path, pays)``: in a turn an :class:`Options`, whose actions are made when read."""
        s = self.state
        if self.route is not None:
            r_seat, _, _, prefix, cands = self.route
            if seat != r_seat:
                return {}
            n = len(prefix)
            if len(cands) == 1 and cands[0][1] == prefix:
                return {_idx("route_pay", r): None for r in range(len(cands[0][2]))}
            return {_idx("route_link", path[n]): None for _, path, _ in cands if path[:n] == prefix}
        if s.stage == "draft" or seat not in s.to_act:
            return self._listed(seat, s.legal_actions(seat), ())
        if s.config.payment == "legacy":  # the stockpile options come with their markers (no store read back)
            return self._listed(seat, *turn_listing(s, seat))
        return _turn_options(s, seat)

    def _listed(self, seat: int, listed: list, ends) -> dict[int, object]:
        """:meth:`_options` of ``seat``'s listed moves ``listed`` and stockpile options ``ends``."""
        s = self.state
        out: dict[int, object] = {}
        starts: dict[int, list] = {}
        rank: dict[int, int] = {}  # payments listed so far of each move (the engine's first; see _RANK)
        pays: dict[tuple, list] = {}
        for a in listed:
            # the kinds a listing holds most of first (a search lists at every step of a rollout)
            t = type(a)
            if t is BuyImprovement:
                k = a.slot * _IMPROVEMENT_WIDTH + a.discard + 1
                if a.pay:
                    r = rank[k] = rank.get(k, 0) + 1  # keys of the three kinds apart (see _RANK)
                    out[_IMPROVEMENT_ALT + k * PAY_ALTS + r - 1] = a
                else:
                    out[_IMPROVEMENT + k] = a
                continue
            if t is TakeContract:
                if a.pay:
                    k = _RANK_TAKE + a.slot
                    r = rank[k] = rank.get(k, 0) + 1
                    out[_TAKE_ALT + a.slot * PAY_ALTS + r - 1] = a
                else:
                    out[_TAKE + a.slot] = a
                continue
            if t is BuildStation:
                if a.pay:
                    r = rank[_RANK_STATION] = rank.get(_RANK_STATION, 0) + 1
                    out[_STATION_ALT + r - 1] = a
                else:
                    out[_STATION] = a
                continue
            if t is EstablishRoute and a.pay:
                pays[(a.origin, a.colour, a.dest, a.path)].append(a.pay)
                continue
            if t is DraftContract:
                out[_idx("draft_contract", a.slot)] = a
            elif t is DraftImprovement:
                out[_idx("draft_improvement", a.slot)] = a
            elif t is DraftPass:
                out[_idx("draft_pass")] = a
            elif t is TakeContract:
                out[_idx("take_contract", a.slot)] = a
            elif t is Build or t is SteadyBuild:
                out[_build_move_index(s, a)] = a
            elif t is EstablishRoute:
                origin = s.map.city_index[a.origin]
                k = _idx("route_start", origin * len(COLOURS) + COLOURS.index(a.colour))
                path = tuple(parse_path(s, a.path))
                ways = pays[(a.origin, a.colour, a.dest, a.path)] = [""]
                starts.setdefault(k, []).append((a.dest, path, ways))
        for store, g in ends:
            out.setdefault(gains_index(g), EndTurn(seat, store))
        out.update(starts)
        return out

    def draws(self, seat: int, index: int) -> bool:
        """Whether action ``index`` may draw: ending a turn (H: the roll; a new phase's cargo) and
        the opening draft's moves (a drafted die is rolled at once); no other move of a turn draws."""
        return self.state.stage == "draft" or _END_TURN <= index < _END_TURN + _END_TURN_SIZE

    def legal_indices(self, seat: int) -> list[int]:
        """The legal indices of ``seat`` now, ascending (``mask``'s non-zero entries, without the mask)."""
        return [] if self.state.is_over else sorted(self._options(seat))

    def is_legal(self, seat: int, index: int) -> bool:
        """Whether ``index`` is legal for ``seat`` now."""
        return not self.state.is_over and index in self._options(seat)

    def mask(self, seat: int) -> np.ndarray:
        """int8 mask of shape (N_ACTIONS,): the legal indices of ``seat`` now."""
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if not self.state.is_over:
            for k in self._options(seat):
                mask[k] = 1
        return mask

    def apply_index(self, seat: int, index: int) -> None:
        """Take action ``index`` for ``seat``.

        Raises:
            ValueError: the index is not legal for that seat now (nothing changes).
        """
        index = int(index)
        opts = self._options(seat) if not self.state.is_over else {}
        if index not in opts:
            raise ValueError(f"action {index} ({action_text(index) if 0 <= index < N_ACTIONS else '?'}) is not "
                             f"legal for seat {seat} now")
        s = self.state
        start, size = BLOCK["route_start"]
        if start <= index < start + size:
            origin, c = divmod(index - start, len(COLOURS))
            self.route = (seat, origin, c, (), tuple((d, path, w if type(w) is ListedPays else tuple(w))
                                                    for d, path, w in opts[index]))
            return
        if self.route is not None:
            r_seat, origin, c, prefix, cands = self.route
            start, size = BLOCK["route_pay"]
            if start <= index < start + size:
                dest, path, ways = cands[0]
                self.route = None
                ids = ",".join(str(s.map.links[i].id) for i in path)
                s.apply(EstablishRoute(seat, s.map.cities[origin].name, COLOURS[c], dest, ids, ways[index - start]))
                return
            prefix = prefix + (index - BLOCK["route_link"][0],)
            for dest, path, ways in cands:
                if path == prefix:
                    if len(ways) > 1:
                        self.route = (r_seat, origin, c, prefix, ((dest, path, tuple(ways)),))
                        return
                    self.route = None
                    ids = ",".join(str(s.map.links[i].id) for i in path)
                    s.apply(EstablishRoute(seat, s.map.cities[origin].name, COLOURS[c], dest, ids))
                    return
            self.route = (r_seat, origin, c, prefix, tuple(x for x in cands if x[1][: len(prefix)] == prefix))
            return
        s.apply(opts[index])

    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` (shape (OBS.size,), float32; see :data:`OBS`)."""
        return observe(self, seat)


# ------------------------------------------------------------------ observation
_NF, _NK, _NI, _NCOL = len(FACES), len(DIE_KINDS), len(IMPROVEMENTS), len(COLOURS)
_PLAYER = MAX_DICE * (_NF + _NK + 1) + _NCOL + 2 * _NI + 5 + _NCOL
#: dollars (stock) in the observation are divided by DOLLARS and clipped at MONEY_CAP; the turn
#: number at TURN_CAP, the per-turn counters at PER_TURN_CAP and demand rings at RINGS_CAP (no rule
#: bounds them; simulated games stay well below, tests/research/test_layout.py)
DOLLARS = 100
MONEY_CAP = 2000
TURN_CAP = 500
PER_TURN_CAP = 20
RINGS_CAP = 10
_CUBES = _COMP.box["cubes_per_player"]
_CARGO = max(_COMP.box["cargo"].values())
_N_CONTRACTS = N_LINKS + _COMP.box["end_of_phase_cards"]
_N_IMPROVEMENTS = sum(i.count for i in _COMP.improvements.values())
_MOST_OF_ONE = max(i.count for i in _COMP.improvements.values())
OBS = Layout()
_me = OBS.add("me", MAX_SEATS, "1 at the observing seat (seats 0-4)")
_present = OBS.add("seat_in_game", MAX_SEATS, "1 for each seat in the game")
_to_act = OBS.add("to_act", MAX_SEATS, "1 at the seat deciding now")
_stage = OBS.add("stage", 3, "one-hot: opening draft, turns, over")
_phase = OBS.add("phase", 3, "one-hot phase A, B, C")
_misc = OBS.add("counters", 8, "turn, contract deck size, improvement deck size, cargo bag size, final turns left "
                "(-1: none), routes established this turn, switching stations used this turn, Steady Builder uses "
                "this turn",
                high=(TURN_CAP, _N_CONTRACTS, _N_IMPROVEMENTS, sum(_COMP.box["cargo"].values()), MAX_SEATS,
                      PER_TURN_CAP, PER_TURN_CAP, PER_TURN_CAP), low=-1)
_eop = OBS.add("end_of_phase_holder", MAX_SEATS, "1 at the seat that drew the End of Phase card")
_supply = OBS.add("marker_supply", _NCOL, "stockpile markers left in the supply (blue, gray, red, yellow)",
                     high=MARKERS)
_ctrack = OBS.add("contract_track", CONTRACT_SLOTS * (N_LINKS + 1),
                  f"slot s (0 = lowest) x [link one-hot ({N_LINKS}), End of Phase card]: entry {N_LINKS + 1}*s + k")
_itrack = OBS.add("improvement_track", IMPROVEMENT_SLOTS * _NI,
                  f"slot s x improvement one-hot ({', '.join(IMPROVEMENTS)}): entry {_NI}*s + k")
_links = OBS.add("links", N_LINKS * (2 * (MAX_SEATS + 1) + 1),
                 "link l (index in the map's list, printed id - 1) x [owner one-hot (none, seat 0-4), contract "
                 f"holder one-hot (none, seat 0-4), cubes on it]: entry {2 * (MAX_SEATS + 1) + 1}*l + k",
                 high=(*[1] * 2 * (MAX_SEATS + 1), _CUBES))
_cities = OBS.add("cities", N_CITIES * _NCOL * 4,
                  "city c x colour k x [cargo markers on the city, open unsaturated demand rings, rings opening in "
                  "a later phase, saturated rings]: entry 16*c + 4*k + j",
                  high=(_CARGO, RINGS_CAP, RINGS_CAP, RINGS_CAP))
_players = OBS.add(
    "players", MAX_SEATS * _PLAYER,
    f"seat p x {_PLAYER}: for each of {MAX_DICE} dice [face one-hot ({', '.join(FACES)}), die kind one-hot "
    f"({', '.join(DIE_KINDS)}), spent]; markers per colour (4); improvements in effect (count per "
    "improvement); improvements bought this turn (count per improvement); contracts in progress, switching "
    "stations, stock $, links owned, cubes left; cargo markers kept per colour (4)",
    high=(*[1] * MAX_DICE * (_NF + _NK + 1), *[MARKERS] * _NCOL, *[_MOST_OF_ONE] * 2 * _NI,
          _COMP.box["max_contracts"], PER_TURN_CAP, MONEY_CAP, N_LINKS, _CUBES, *[_CARGO] * _NCOL),
    scale=(*[1] * (MAX_DICE * (_NF + _NK + 1) + _NCOL + 2 * _NI + 2), DOLLARS, *[1] * (2 + _NCOL)),
)
_route = OBS.add("route", 1 + N_CITIES + _NCOL + N_LINKS + N_CITIES,
                 "the observer is laying out a route: flag, origin city one-hot, cargo colour one-hot, links "
                 "chosen so far, city reached one-hot")


def observe(table: FreightTable, seat: int) -> np.ndarray:
    """What ``seat`` sees as the flat vector :data:`OBS` documents (everything is open except the
    order of the decks and of the cargo bag): :func:`encode`'s raw values scaled to
    ``OBS.low..OBS.high`` (dollars / :data:`DOLLARS`)."""
    return OBS.bounded(encode(table, seat))


def encode(table: FreightTable, seat: int) -> np.ndarray:
    """The raw observation of ``seat`` (stock in $, counts as they are; float32, shape (OBS.size,)):
    what :func:`observe` scales."""
    from rolling.games.freight.construction import cubes_left

    s = table.state
    o = np.zeros(OBS.size, dtype=np.float32)
    o[_me.start + seat] = 1
    o[_present.start: _present.start + s.n] = 1
    for p in s.to_act:
        o[_to_act.start + p] = 1
    o[_stage.start + ("draft", "turn", "over").index(s.stage)] = 1
    o[_phase.start + min(s.phase, len(PHASES) - 1)] = 1
    m = _misc.start
    o[m: m + 8] = (s.turn, len(s.contract_deck), len(s.improvement_deck), len(s.bag), s.final_left,
                   s.routes_done, s.stations_used, s.steady_used)
    if s.eop_holder >= 0:
        o[_eop.start + s.eop_holder] = 1
    o[_supply] = s.supply
    for slot, card in enumerate(s.contract_track):
        if card is None:
            continue
        o[_ctrack.start + (N_LINKS + 1) * slot + (N_LINKS if card == END_OF_PHASE else card)] = 1
    for slot, name in enumerate(s.improvement_track):
        if name is not None:
            o[_itrack.start + _NI * slot + IMPROVEMENTS.index(name)] = 1
    w = 2 * (MAX_SEATS + 1) + 1
    for i in range(len(s.map.links)):
        b = _links.start + w * i
        o[b + s.owner[i] + 1] = 1
        o[b + MAX_SEATS + 1 + s.holder[i] + 1] = 1
        o[b + w - 1] = s.cubes[i]
    for c in range(len(s.map.cities)):
        b = _cities.start + 16 * c
        for colour in s.cargo[c]:
            o[b + 4 * COLOURS.index(colour)] += 1
        for colour, ph, saturated in s.rings[c]:
            k = COLOURS.index(colour)
            j = 3 if saturated else (1 if ph <= s.phase else 2)
            o[b + 4 * k + j] += 1
    for p, pl in enumerate(s.players):
        b = _players.start + _PLAYER * p
        for d, name in enumerate(pl.dice):
            db = b + d * (_NF + _NK + 1)
            o[db + FACES.index(name)] = 1
            o[db + _NF + DIE_KINDS.index(pl.die_kinds[d])] = 1
            o[db + _NF + _NK] = pl.spent[d]
        b += MAX_DICE * (_NF + _NK + 1)
        o[b: b + _NCOL] = pl.markers
        b += _NCOL
        for name in pl.improvements:
            o[b + IMPROVEMENTS.index(name)] += 1
        for name in pl.pending:
            o[b + _NI + IMPROVEMENTS.index(name)] += 1
        b += 2 * _NI
        o[b: b + 5] = (len(pl.contracts), pl.stations, pl.stock, pl.links_owned, cubes_left(s, p))
        b += 5
        for colour in pl.cargo:
            o[b + COLOURS.index(colour)] += 1
    if table.route is not None and table.route[0] == seat:
        _, origin, c, prefix, _ = table.route
        b = _route.start
        o[b] = 1
        o[b + 1 + origin] = 1
        o[b + 1 + N_CITIES + c] = 1
        city = origin
        for i in prefix:
            o[b + 1 + N_CITIES + _NCOL + i] = 1
            ln = s.map.links[i]
            city = ln.b if ln.a == city else ln.a
        o[b + 1 + N_CITIES + _NCOL + N_LINKS + city] = 1
    return o
