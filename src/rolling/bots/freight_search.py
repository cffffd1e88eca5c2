"""The search bot for Rolling Freight: information-set MCTS (:mod:`.ismcts`) over the heuristic.

**What the seat cannot see** (resampled in every iteration by :meth:`FreightSearch.determinize`);
everything else in Rolling Freight is open information (``FreightState.view``):

- *the order of the contract deck* ("Setting Up the Game Board": each set is shuffled separately
  and the deck is stacked End of Phase / C / End of Phase / B / End of Phase / A, face down). The
  sets' contents and sizes are public (the map's chart, and every card drawn is dealt face up), and
  so is where the End of Phase cards lie (``phase_contracts_left``). The bot shuffles the cards
  *between* End of Phase cards, each stretch on its own, and keeps the markers where they are. The
  stretch *below* the lowest End of Phase card is not shuffled: it holds only the contracts moved
  "to the bottom of their respective decks face down" when Phase B and C begin, which every player
  saw, in the order they went there.
- *the order of the improvement deck* (shuffled at set-up). Its contents are public (the map's
  list less the cards on the track and on the mats). Cards go back to its bottom face down when a
  duplicate appears (G), when Phase B and C begin and when a player returns a fourth improvement
  (E); a seat with a perfect memory knows those. The bot keeps the bottom ``phases begun`` cards in
  place (at least that many known cards lie there, so they are certainly known) and shuffles the
  rest: it may forget a returned duplicate's place, but never uses a card it could not know.
- *the dice to come and the cargo to be drawn* (H: Rolling Your Dice; Beginning Phase B/C: random
  cargo from the bag): the copy gets a fresh generator seeded from the search's, so every roll and
  draw after the root is resampled. The bag's *contents* are not hidden: 65 markers less those on
  the board, on the mats and returned to the box, all public; its order does not matter because
  markers are drawn at random (``draw_cargo``).
- The dice each player will use on their next turn were rolled at the end of their last turn and
  are on their mat (H: "Observe what each other player does"): public, kept.

**Candidates**: the heuristic's own choice first, then the alternatives it would rank next by its
own helpers: the two best major routes (``_route_value``), the two best contracts to take
(``_contract_value``), the best build on each contract in progress (``_build_rank``), the best
improvement by its taste (returning its least liked one when it would hold four), a switching
station, and the end of the turn with the most stockpile markers (so spending a die is always
weighed against keeping it); in the opening draft, the picks by the heuristic's draft values. At
most :data:`MAX_CANDIDATES`. Moves come from ``legal_actions``' parts with the engine's payment
(the best by the order of what is kept, :mod:`rolling.games.freight.payways`); the best route,
the best contract and the station come also with the runner-up payment, the second that
``legal_actions`` lists (issue 28 item 5), found for those three prices alone.

**Playouts**: every seat plays the heuristic bot until the searching seat's next turn ends (its
turn ends, every other seat plays one turn, so the opponents' answer to a move counts: a route
or contract taken from under them, a demand saturated; then the seat plays its next turn, which
values the dice it stockpiled and the contracts it set up), or to the game's end. Measured on
West Coast at 0.2 s per decision against two heuristics (three-player games, the seat rotating),
this horizon won 75 of 84 games (89%); stopping as the seat's next turn begins won 70 of 84
(83%, by a slightly larger mean margin: $18 against $15 over the best heuristic), stopping
after the next seat's turn 71% and at the end of the seat's own turn 75% (24 games each).

**Score**: each seat's expected final stock: its stock, the end-of-phase bonus of the cargo
markers it holds (certain: "Ending Phase A/B/C"), and its contracts in progress at the share of
their completion score that their cubes have built. Stockpile markers, improvements and stations
count only through what they earn within the horizon (valuing a marker at $0.5 made the bot hoard
dice and lost: 62% of wins against 83%, in 24 games at 20 iterations with the horizon at the end
of the seat's own turn, as the comparisons below). The searching seat's reward is
``1 / (1 + exp(-(mine - best other) / SCALE))``, a win-probability-like number that rewards the
margin over the strongest opponent rather than stock everyone gains. :data:`SCALE` is $4, about
what one good turn earns: a sharper scale (2) saturates when one seat leads and leaves the search
indifferent (62% of wins at 20 iterations), a flatter one (8) blurs a turn's difference (77%,
against 83% at 4). When the game is over the reward is the true result (1 for a sole win, 1/k for
a k-way tie after the switching stations, 0 otherwise). With 24 games a win rate is known to
about 9 points, so these settings are the best measured, not proven optima.
"""

from __future__ import annotations

from dataclasses import replace

from rolling.core.rng import Rng
from rolling.core.whole import is_whole
from rolling.games.freight import contracts, legal, routes, stations
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
from rolling.games.freight.components import COLOURS
from rolling.games.freight.construction import contract_score
from rolling.games.freight.events import link_name, route_cities
from rolling.games.freight.improvements import held
from rolling.games.freight.routes import parse_path
from rolling.games.freight.state import FreightState
from rolling.games.freight.stockpile import gains, parse_store

from . import ismcts
from .freight import IMPROVEMENT_TASTE, FreightHeuristicBot
from .freight_value import evaluate
from .ismcts import margin_reward

#: the most candidates a decision considers (4 and 8 won 67% and 71% where 6 won 83%, see the
#: module docstring's measurements)
MAX_CANDIDATES = 6
#: $ of expected-stock margin over the best opponent that makes the reward 0.73 (logistic scale)
SCALE = 4.0
#: turns begun after the root's before a playout is scored (``None``: the number of players plus
#: one, so that a playout stops after the searching seat's next turn)
HORIZON_TURNS: int | None = None


def expected_stock(s: FreightState) -> list[float]:
    """Each seat's expected final stock ($) (see the module docstring)."""
    bonus = s.comp.cargo_bonus[min(s.phase, 2)]
    links = s.map.links
    out = []
    for p in s.players:
        v = float(p.stock + bonus * len(p.cargo))
        k = len(p.contracts)
        for i in p.contracts:
            length = links[i].length
            v += contract_score(s.comp, length, k) * s.cubes[i] / length
        out.append(v)
    return out


def final_result(s: FreightState, seat: int) -> float:
    """The true result of a finished game for ``seat``: 1 for a sole win, 1/k for a k-way tie
    ("Winning": most stock, then most switching stations), 0 otherwise."""
    top = [r["seat"] for r in s.standings() if r["rank"] == 1]
    return 1.0 / len(top) if seat in top else 0.0


def _taste(name: str) -> int:
    return IMPROVEMENT_TASTE.index(name) if name in IMPROVEMENT_TASTE else len(IMPROVEMENT_TASTE)


class FreightSearch:
    """The game side of the search (:class:`.ismcts.SearchGame`) for one searching seat;
    ``learned`` scores the playouts' ends with the learned evaluation (:mod:`.freight_value`)."""

    def __init__(self, seat: int, seed: int = 0, learned: bool = False) -> None:
        self.seat = seat
        self.seed = seed
        self.learned = learned
        # The heuristic holds no memory between calls, but the tree's guide and the playout
        # players are still fresh every playout, so that a future heuristic with memory cannot
        # carry what one determinization showed into the real decisions.
        self.guide = FreightHeuristicBot(seed)
        self.tree_guide = FreightHeuristicBot(seed)
        self.players: list[FreightHeuristicBot] = []
        self.new_playout()

    # -- what the seat knows -------------------------------------------------------------------
    def determinize(self, s: FreightState, seat: int, rng: Rng) -> FreightState:
        """A copy of ``s`` with the deck orders and the chance to come resampled (module docstring).

        ``s`` is not changed (its log, if any, is left out of the copy: playouts need none).
        """
        log = s.log
        s.log = None
        try:
            d = s.clone()
        finally:
            s.log = log
        d.rng = Rng(rng.next64())
        deck = d.contract_deck
        marks = [k for k, card in enumerate(deck) if card < 0]
        if marks:
            # stretches between End of Phase cards, and above the top one; not below the lowest
            bounds = marks + [len(deck)]
            for lo, hi in zip(bounds, bounds[1:], strict=False):
                if hi - lo > 2:
                    part = deck[lo + 1:hi]
                    rng.shuffle(part)
                    deck[lo + 1:hi] = part
        imps = d.improvement_deck
        known = min(len(imps), d.eop_removed)
        if len(imps) - known > 1:
            part = imps[known:]
            rng.shuffle(part)
            imps[known:] = part
        return d

    # -- the tree --------------------------------------------------------------------------------
    def candidates(self, s: FreightState, seat: int,
                   guide: FreightHeuristicBot | None = None) -> list[tuple[object, object]]:
        """``(action, action)`` pairs, best prior first (see the module docstring); ``guide``
        gives the first (default: the playouts' heuristic)."""
        if s.stage == "draft" or seat not in s.to_act:
            acts = s.legal_actions(seat)
        else:
            # legal_actions' moves with the engine's payment only (the runner-up payments are
            # added below for the few moves that get them, without listing every payment)
            acts = (legal.take_moves(s, seat, alternatives=False) + legal.build_moves(s, seat)
                    + legal.route_moves(s, seat, alternatives=False) + legal.station_moves(s, seat, alternatives=False)
                    + legal.improvement_moves(s, seat, alternatives=False) + legal.end_turn_moves(s, seat))
        if not acts:
            return []
        g = guide or self.tree_guide
        first = g.choose(s, seat)
        if len(acts) == 1:
            return [(first, first)]
        out = [first]
        if s.stage == "draft":
            out += self._draft_alternatives(s, seat, acts, g)
        else:
            out += self._turn_alternatives(s, seat, acts, g)
        seen = set()
        unique = []
        for a in out:
            if a not in seen:
                seen.add(a)
                unique.append(a)
                if len(unique) >= MAX_CANDIDATES:
                    break
        return [(a, a) for a in unique]

    def _draft_alternatives(self, s, seat, acts, g) -> list:
        def value(a):
            if isinstance(a, DraftContract):
                return g._contract_value(s, seat, s.map.links[s.contract_track[a.slot]])
            if isinstance(a, DraftImprovement):
                return 1.0 - 0.1 * min(9, _taste(s.improvement_track[a.slot]))
            return 0.0
        return sorted(acts, key=lambda a: -value(a))

    def _turn_alternatives(self, s, seat, acts, g) -> list:
        by: dict[type, list] = {}
        for a in acts:
            by.setdefault(type(a), []).append(a)
        out: list = []
        ends = by.get(EndTurn, [])
        best_end = max(ends, key=lambda a: sum(gains(s, seat, parse_store(s, seat, a.store)))) if ends else None
        if best_end is not None:
            out.append(best_end)
        found = sorted(by.get(EstablishRoute, []), key=lambda a: -g._route_value(s, seat, a))
        out += found[:2] + _runner_up(s, found[:1])
        takes = by.get(TakeContract, [])
        if takes:
            links = s.map.links
            takes = sorted(takes, key=lambda a: -g._contract_value(s, seat, links[s.contract_track[a.slot]]))
            out += takes[:2] + _runner_up(s, takes[:1])
        per_link: dict[int, tuple] = {}
        for a in by.get(Build, []):
            r = g._build_rank(s, seat, a)
            if r is not None and (a.link not in per_link or r < per_link[a.link][0]):
                per_link[a.link] = (r, a)
        out += [a for _, a in sorted(per_link.values(), key=lambda x: x[0])]
        imps = by.get(BuyImprovement, [])
        if imps and s.phase < 2:
            mine = held(s, seat)

            def imp_key(a):
                name = s.improvement_track[a.slot]
                if a.discard == -1:
                    return (_taste(name), 0)
                # return the least liked of the four (the new one counts as the last of the list)
                names = mine + [name]
                return (_taste(name), -_taste(names[a.discard]))
            best_imp = min(imps, key=imp_key)
            if best_imp.discard == -1 or _taste(s.improvement_track[best_imp.slot]) < max(map(_taste, mine)):
                out.append(best_imp)
        out += by.get(BuildStation, [])[:1] + _runner_up(s, by.get(BuildStation, [])[:1])
        return out

    def next_seat(self, s: FreightState) -> int:
        """The one seat to act (``to_act[0]``)."""
        return s.to_act[0]

    def policy(self, s: FreightState, seat: int):
        """The heuristic bot's action for ``seat``."""
        return self.players[seat].choose(s, seat)

    def new_playout(self) -> None:
        """Fresh heuristic players and tree guide (see the class's note)."""
        self.players = [FreightHeuristicBot(self.seed + k) for k in range(5)]
        self.tree_guide = FreightHeuristicBot(self.seed)

    def stop(self, s: FreightState, root: FreightState) -> bool:
        """After :data:`HORIZON_TURNS` turns from the root's (the opening draft counts as turn 0)."""
        h = HORIZON_TURNS if HORIZON_TURNS is not None else root.n + 1
        return s.turn >= root.turn + h

    def exact(self, s: FreightState) -> bool:
        """The game's last turn ("Ending Phase C": the End of Phase holder's final turn): the
        playout ends with the game, before any hidden card or roll can count, and the heuristic
        players are deterministic, so one playout per candidate gives its exact result."""
        return s.stage == "turn" and s.phase == 2 and s.final_left == 1

    def reward(self, s: FreightState, seat: int) -> float:
        """:func:`final_result` when the game is over, else :func:`margin_reward` of
        :func:`expected_stock`; with ``learned``, ``seat``'s win probability by
        :func:`rolling.bots.freight_value.evaluate`."""
        if s.is_over:
            return final_result(s, seat)
        if self.learned:
            return evaluate(s, seat)[seat]
        return margin_reward(expected_stock(s), seat, SCALE)

    def describe(self, s: FreightState, a) -> str:
        """The action in a few words, naming links as the screens and the log do (``"take Red 4A
        L30 Stockton-Fresno"``, ``"ship gray Oakland > Sacramento > Stockton (L25 L26)"``, ``"end the turn,
        stockpiling 1 blue"``). Bots do not import screens, so this is not the menu's line."""
        return describe_action(s, a)


def _runner_up(s: FreightState, best: list) -> list:
    """The move of ``best`` (a one-move list, the engine's payment) paid the second way listed:
    the next payment by the order of what is kept (issue 28 item 5); ``[]`` if there is none."""
    if not best:
        return []
    a = best[0]
    seat = a.seat
    if isinstance(a, TakeContract):
        link = s.map.links[s.contract_track[a.slot]]
        pays = legal.pay_alternatives(s, seat, link.colour, contracts.contract_cost(s, seat, link), "contract", take=link)
    elif isinstance(a, EstablishRoute):
        base = routes.check_route(s, a)[4]
        pays = legal.pay_alternatives(s, seat, None, routes.route_price(s, seat, base)[0], "route", s.routes_done == 1)
    else:
        pays = legal.pay_alternatives(s, seat, None, stations.station_cost(s, seat), "station")
    return [replace(a, pay=pays[1])] if len(pays) > 1 else []


def _link(s: FreightState, index: int) -> str:
    ln = s.map.links[index]
    return f"{link_name(ln)} {s.map.cities[ln.a].name}-{s.map.cities[ln.b].name}"


def _paying(p, pay: str) -> str:
    """``", paying die 2 (red), a blue marker"`` for an explicit payment; ``""`` for the engine's."""
    words = pay.split()
    if not words:
        return ""
    return ", paying " + ", ".join(f"die {int(w) + 1} ({p.dice[int(w)]})" if w.isdigit() else f"a {w} marker"
                                   for w in words)


def describe_action(s: FreightState, a) -> str:
    """A Rolling Freight action of the seat to act in ``s``, in a few words (see
    :meth:`FreightSearch.describe`)."""
    p = s.players[a.seat]
    if isinstance(a, DraftContract):
        return f"draft {_link(s, s.contract_track[a.slot])}"
    if isinstance(a, DraftImprovement):
        return f"draft {s.improvement_track[a.slot]}"
    if isinstance(a, DraftPass):
        return "pass"
    if isinstance(a, TakeContract):
        return f"take {_link(s, s.contract_track[a.slot])}{_paying(p, a.pay)}"
    if isinstance(a, Build | SteadyBuild):
        ln = s.link_by_id(a.link)
        where = f"{link_name(ln)} [{s.cubes[ln.index]}/{ln.length}]"
        if isinstance(a, SteadyBuild):
            return f"Steady Builder cube on {where}"
        words = a.pay.split()
        what = ", ".join(f"die {int(w) + 1} ({p.dice[int(w)]})" if is_whole(w) else f"a {w} marker"
                         for w in words) or "all matching dice"
        many = f"{a.cubes} cube{'s' if a.cubes > 1 else ''} on " if a.cubes else ""
        return f"build {many}{where} with {what}"
    if isinstance(a, EstablishRoute):
        path = parse_path(s, a.path)
        ids = " ".join(f"L{w.strip()}" for w in a.path.split(","))
        return " > ".join([f"ship {a.colour} {a.origin}", *route_cities(s, path), a.dest]) + f" ({ids}){_paying(p, a.pay)}"
    if isinstance(a, BuildStation):
        return f"build switching station #{p.stations + 1}{_paying(p, a.pay)}"
    if isinstance(a, BuyImprovement):
        text = f"buy {s.improvement_track[a.slot]}"
        if a.discard >= 0:
            text += f", returning {(held(s, a.seat) + [s.improvement_track[a.slot]])[a.discard]}"
        return text + _paying(p, a.pay)
    if isinstance(a, EndTurn):
        g = gains(s, a.seat, parse_store(s, a.seat, a.store))
        kept = ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(g) if n) or "nothing"
        return f"end the turn, stockpiling {kept}"
    return type(a).__name__


class FreightSearchBot(ismcts.SearchBot):
    """``search``: information-set MCTS for Rolling Freight (see the module docstring); ``seed``
    and ``budget`` as in :class:`~.ismcts.SearchBot` (default :data:`DEFAULT_BUDGET`, ``"0.2s"``).

    Raises:
        SeatError: a budget that cannot be read.
    """

    #: score the playouts with the learned evaluation (:class:`FreightValueSearchBot`)
    learned = False

    def choose(self, s: FreightState, seat: int):
        """Search and return the most visited action for ``seat``; a single candidate is played
        at once with the heuristic's reason. ``last_reason`` gives the top alternatives with
        visits and values.

        Raises:
            ValueError: ``seat`` has no legal action.
        """
        game = self.games.get(seat)
        if game is None:
            game = self.games[seat] = FreightSearch(seat, self.seed, self.learned)
        cands = game.candidates(s, seat, game.guide)
        if not cands:
            raise ValueError(f"seat {seat} has no legal action")
        if len(cands) == 1:
            self.last_reason, self.last_result = game.guide.last_reason, None
            return cands[0][1]
        result = ismcts.search(game, s, seat, self.budget, self.rng, cands)
        self.last_result = result
        self.last_reason = ismcts.reason(game, s, result)
        return result.best


class FreightValueSearchBot(FreightSearchBot):
    """``vsearch``: the search bot (:class:`FreightSearchBot`: the same tree, candidates and
    horizon) scoring each playout's end with the learned evaluation
    (:func:`rolling.bots.freight_value.evaluate`) instead of the expected stock's margin; ``seed``
    and ``budget`` as there.

    Raises:
        SeatError: a budget that cannot be read.
    """

    name = "vsearch"
    learned = True
