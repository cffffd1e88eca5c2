"""The game state of Rolling Freight: the board, the decks, the tracks and each player's mat.

The state is plain slotted records and small lists so that ``clone`` is cheap. The rules live in
the modules named after the rule text's sections; :meth:`FreightState.apply` dispatches to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rolling.core.errors import IllegalAction
from rolling.core.rng import Rng
from rolling.core.state import stable_digest

from .components import COLOURS, PHASES, Components, MapData, load_components, load_map


@dataclass(frozen=True, slots=True)
class Config:
    """A game's settings.

    Attributes:
        map: ``"west-coast"`` (2-4 players) or ``"southern"`` (3-5 players).
        players: the number of players.
        names: optional display names, one per seat (the log names seats by them; by default
            ``Player 1``, ``Player 2``...). They change nothing in the game.
        payment: how the engine pays when an action leaves ``pay`` empty: ``"kept"`` (the best
            by the order of what is kept, :mod:`.payways`, issue 28 item 5: every new game) or
            ``"legacy"`` (the chooser before it, :func:`.payment.auto_purchase`: a record made
            before, whose config has no ``payment``, replays as it was played).
    """

    map: str = "west-coast"
    players: int = 3
    names: tuple[str, ...] = field(default=())
    payment: str = "kept"

    def to_json(self) -> dict[str, Any]:
        """Return ``{"map": ..., "players": ..., "payment": ...}``, and ``"names"`` when given
        (``payment`` always: a config without it reads back as ``"legacy"``)."""
        d: dict[str, Any] = {"map": self.map, "players": self.players}
        if self.names:
            d["names"] = list(self.names)
        d["payment"] = self.payment
        return d


#: the ways the engine may pay for ``pay=""`` (:attr:`Config.payment`): the order of what is kept
#: (issue 28 item 5), and the chooser records made before it were played with
PAYMENTS = ("kept", "legacy")


class Player:
    """One player's mat and supply.

    Attributes:
        dice: the faces showing on the player's dice (rolled at the end of the previous turn).
        die_kinds: for each die, ``"basic"`` or the improvement die's colour (``"black"``...).
        spent: for each die, whether it was spent this turn.
        markers: stockpile markers per colour (order of :data:`COLOURS`).
        contracts: link indices of contracts in progress (at most 3).
        improvements: improvements in effect; ``pending``: bought this turn, in effect at its end.
        stations: switching stations built; stock: dollars of stock (the score).
        cargo: colours of the cargo markers kept from routes this phase.
        links_owned: completed links (each marked with one of the player's sticks).
    """

    __slots__ = ("dice", "die_kinds", "spent", "markers", "contracts", "improvements", "pending",
                 "stations", "stock", "cargo", "links_owned", "draft_kind")

    def __init__(self) -> None:
        self.dice: list[str] = []
        self.die_kinds: list[str] = []
        self.spent: list[bool] = []
        self.markers = [0, 0, 0, 0]
        self.contracts: list[int] = []
        self.improvements: list[str] = []
        self.pending: list[str] = []
        self.stations = 0
        self.stock = 0
        self.cargo: list[str] = []
        self.links_owned = 0
        self.draft_kind = ""

    def copy(self) -> Player:
        """Return an independent copy."""
        p = Player.__new__(Player)
        p.dice = self.dice[:]
        p.die_kinds = self.die_kinds[:]
        p.spent = self.spent[:]
        p.markers = self.markers[:]
        p.contracts = self.contracts[:]
        p.improvements = self.improvements[:]
        p.pending = self.pending[:]
        p.stations = self.stations
        p.stock = self.stock
        p.cargo = self.cargo[:]
        p.links_owned = self.links_owned
        p.draft_kind = self.draft_kind
        return p

    def has(self, name: str) -> int:
        """How many copies of improvement ``name`` are in effect."""
        return self.improvements.count(name)

    def to_json(self) -> dict[str, Any]:
        """All of the mat as JSON-able values."""
        return {
            "dice": self.dice, "die_kinds": self.die_kinds, "spent": self.spent,
            "markers": dict(zip(COLOURS, self.markers, strict=True)), "contracts": self.contracts,
            "improvements": self.improvements, "pending": self.pending, "stations": self.stations,
            "stock": self.stock, "cargo": self.cargo, "links_owned": self.links_owned,
            "draft_kind": self.draft_kind,
        }


class FreightState:
    """A game of Rolling Freight in progress (implements :class:`rolling.core.state.State`).

    Board: ``owner[i]`` (seat or -1) and ``holder[i]`` (seat building it or -1) and ``cubes[i]``
    per link index; ``cargo[c]`` the cargo colours on city ``c``; ``rings[c]`` the city's demand
    rings as ``[colour, phase, saturated]`` (a ring is open once ``phase <= self.phase``). A city's
    ``cargo`` and ``rings`` lists are shared by the state's clones (issue 34: a cheaper clone), so
    a rule replaces such a list rather than changing it.
    Decks are lists with the top at the end; tracks are lists with slot 0 lowest and ``None``
    for a gap left this turn (refilled in step G).
    """

    def __init__(self, config: Config, seed: int):
        self.config = config
        self.map: MapData = load_map(config.map)
        self.comp: Components = load_components()
        self.n = config.players
        self.seed = seed
        self.rng = Rng(seed)
        self.players = [Player() for _ in range(self.n)]
        nl = len(self.map.links)
        self.owner = [-1] * nl
        self.holder = [-1] * nl
        self.cubes = [0] * nl
        self.cargo: list[list[str]] = [[] for _ in self.map.cities]
        self.rings: list[list[list]] = [[] for _ in self.map.cities]
        self.bag: list[str] = []
        self.supply = [0, 0, 0, 0]
        self.saturation = 0
        self.cargo_returned = 0
        self.contract_deck: list[int] = []
        self.contract_track: list[int | None] = []
        self.improvement_deck: list[str] = []
        self.improvement_track: list[str | None] = []
        self.completed: list[int] = []
        self.phase = 0
        self.stage = "draft"
        self.draft_order: list[int] = []
        self.draft_pos = 0
        self.current = 0
        self.turn = 0
        self.eop_holder = -1
        self.final_left = -1
        self.eop_pending = 0
        self.eop_removed = 0
        self.routes_done = 0
        self.stations_used = 0
        self.steady_used = 0
        self.log: list[tuple] | None = None  # events (see .events), or None when the log is off
        # cards drawn, dice rolled, cargo drawn (rolling.core.reveal): history, not position, so
        # left out of the digest like the log
        self.reveals = 0
        self.last_reveal: tuple[str, str] | None = None

    # -- protocol -------------------------------------------------------------------------------
    # The rules sit above this module and bind their functions here as the state's methods when
    # they are imported (the package always imports them), so the state imports none of them:
    # - legal_actions(seat), apply(action): rolling.games.freight.legal (the dispatcher);
    # - enable_log(): rolling.games.freight.setup.enable_log; log_lines(seat, start): .events.lines.

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat that decides now (one at a time in Rolling Freight); empty when over."""
        if self.stage == "over":
            return ()
        if self.stage == "draft":
            return (self.draft_order[self.draft_pos],)
        return (self.current,)

    @property
    def is_over(self) -> bool:
        """Whether phase C has ended."""
        return self.stage == "over"

    def standings(self) -> list[dict[str, Any]]:
        """Seats best first by stock, ties broken by switching stations ("Winning"): rows ``{"seat",
        "score" (stock), "rank" (a tie the rules leave standing shares it), "win" (rank 1: each seat
        still tied wins), "stations"}``."""
        keyed = sorted(range(self.n), key=lambda s: (-self.players[s].stock, -self.players[s].stations, s))
        out = []
        for i, s in enumerate(keyed):
            p = self.players[s]
            rank = i + 1
            if i and (p.stock, p.stations) == (self.players[keyed[i - 1]].stock, self.players[keyed[i - 1]].stations):
                rank = out[-1]["rank"]
            out.append({"seat": s, "score": p.stock, "rank": rank, "win": rank == 1, "stations": p.stations})
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-able dict of the public game (everything in Rolling Freight is open information)."""
        m = self.map
        return {
            "map": m.name, "phase": PHASES[min(self.phase, 2)], "stage": self.stage, "turn": self.turn,
            "to_act": list(self.to_act), "seat": seat,
            "contract_track": [None if c is None else m.links[c].label for c in self.contract_track],
            "improvement_track": list(self.improvement_track),
            "contract_deck": len(self.contract_deck), "improvement_deck": len(self.improvement_deck),
            "supply": dict(zip(COLOURS, self.supply, strict=True)), "bag": len(self.bag),
            "end_of_phase_holder": self.eop_holder, "final_turns_left": self.final_left,
            "phases_ended": self.eop_removed, "phase_contracts_left": self.phase_contracts_left(),
            "players": [p.to_json() for p in self.players],
            "links": [
                {"id": ln.id, "card": ln.label, "owner": self.owner[ln.index], "holder": self.holder[ln.index],
                 "cubes": self.cubes[ln.index]}
                for ln in m.links
            ],
            "cities": [
                {"name": c.name, "cargo": self.cargo[c.index],
                 "demand": [{"colour": r[0], "open": r[1] <= self.phase, "saturated": r[2]} for r in self.rings[c.index]]}
                for c in m.cities
            ],
        }

    def phase_contracts_left(self) -> int:
        """Contract cards left on the deck above the next End of Phase card: the rest of this
        phase's set (the deck is stacked End of Phase / C / End of Phase / B / End of Phase / A,
        and each set's size is public)."""
        deck = self.contract_deck
        for k in range(len(deck) - 1, -1, -1):
            if deck[k] < 0:
                return len(deck) - 1 - k
        return len(deck)

    def clone(self) -> FreightState:
        """An independent copy (shares only the immutable map and component data)."""
        s = FreightState.__new__(FreightState)
        # Every attribute at once (the numbers, strings and immutable records as they are), then a
        # copy of each list the rules change: fewer steps than one attribute at a time (issue 34).
        # tests/freight/test_freight_fastpath.py checks that no list is left shared by mistake.
        s.__dict__.update(self.__dict__)
        s.rng = self.rng.copy()
        s.players = [p.copy() for p in self.players]
        s.owner = self.owner[:]
        s.holder = self.holder[:]
        s.cubes = self.cubes[:]
        s.cargo = self.cargo[:]  # each city's list shared (as the rings): a rule replaces it
        s.rings = self.rings[:]  # each city's list shared: a rule replaces it, never changes it
        s.bag = self.bag[:]
        s.supply = self.supply[:]
        s.contract_deck = self.contract_deck[:]
        s.contract_track = self.contract_track[:]
        s.improvement_deck = self.improvement_deck[:]
        s.improvement_track = self.improvement_track[:]
        s.completed = self.completed[:]
        s.draft_order = self.draft_order[:]
        s.log = None if self.log is None else self.log[:]
        return s

    def digest(self) -> str:
        """A stable hash of the whole state (log excluded)."""
        d = self.view(None)
        d["rng"] = self.rng.state
        d["bag_order"] = self.bag
        d["decks"] = [self.contract_deck, self.improvement_deck]
        d["counters"] = [self.draft_pos, self.eop_pending, self.eop_removed, self.routes_done,
                         self.stations_used, self.steady_used, self.saturation, self.completed, self.cargo_returned]
        return stable_digest(d)

    # -- helpers used by the rule modules ------------------------------------------------------

    def name(self, seat: int) -> str:
        """How the log names a seat: its name in the config, else ``Player 1``... (numbered from 1,
        as everywhere a player reads)."""
        names = self.config.names
        return names[seat] if seat < len(names) else f"Player {seat + 1}"

    def cubes_in_use(self, seat: int) -> int:
        """Construction cubes of ``seat`` on the board (on its unfinished contracts)."""
        # a plain loop over its (at most three) contracts: read by every listing and build, and
        # compiled a loop costs less than sum over a map (issue 34)
        cubes = self.cubes
        n = 0
        for i in self.players[seat].contracts:
            n += cubes[i]
        return n

    def link_by_id(self, link_id: int):
        """The link with printed id ``link_id``.

        Raises:
            IllegalAction: no such link on this map.
        """
        i = link_id - 1
        if not 0 <= i < len(self.map.links) or self.map.links[i].id != link_id:
            for ln in self.map.links:
                if ln.id == link_id:
                    return ln
            raise IllegalAction("B: Constructing Links", f"there is no link {link_id} on this map")
        return self.map.links[i]

    def open_demand(self, city: int, colour: str) -> list | None:
        """The city's open, unsaturated demand ring of ``colour``, or ``None``."""
        for r in self.rings[city]:
            if r[0] == colour and r[1] <= self.phase and not r[2]:
                return r
        return None
