"""The search bot for Rolling Stock Stars: information-set MCTS (:mod:`.ismcts`) over the heuristic.

**What the seat cannot see** (resampled in every iteration by :meth:`StarsSearch.determinize`):

- *the Deck* (canonical rules, Setup): its size and its colours are public (it is built colour by
  colour, red on top), but not which companies it holds nor their order. For each colour still in
  the Deck the bot deals, from the companies of that colour it has never seen, as many as the
  Deck holds of that colour, the colour's highest company always among them while unseen (Setup
  always adds it), in a random order. With the variant *open companies* (002, 3.3) the Deck is
  open and nothing is resampled.
  The companies seen are every company drawn so far (:func:`drawn`): what a seat with a perfect
  memory knows, rebuilt from the record (:meth:`StarsSearchBot.recall`) wherever the game was
  loaded.
- *other players' cash* with the variant *secret private money* (002, 3.2) is **not** resampled:
  every change of a player's cash is a public transaction, so "the private money is perfectly
  trackable" (002, 3.2) and the bot, with a perfect memory, knows it.

**Candidates** (large action spaces): the heuristic's own choice first, then the moves that end
the seat's part of a phase (pass, done, leave the auction, decline an IPO), then the heuristic's
move at other numbers (for a dividend or a purchase price: the lowest, the highest and the middle
of the range; for a bid: the minimum raise), then the other moves at their lowest number (a bid at
the face value, a purchase at the bottom of the span), at most :data:`MAX_CANDIDATES`. A handful of
numbers per move keeps the tree shallow enough for a fraction of a second per decision, and the
heuristic's number is usually close to the best one; progressive widening (:mod:`.ismcts`) then
spends the iterations on the first candidates.

**Which decisions are searched**: all but the seat's own purchase proposals in phase 3
(Acquisition), which follow the heuristic. Proposals come in long any-order exchanges (about 165
of a seat's 240 decisions in a four-player game) whose outcome the answering side decides; the
answers (accept, reject, pre-empt) are searched. So the time goes to the decisions that set
numbers and positions: auctions, share trades, closings, dividends, share issues and IPOs.

**Memory**: besides its random numbers (seeded per decision where people play), the bot remembers
what the heuristic does (the proposals the seat made this phase: a rejected one is not proposed
again) and the companies seen. :meth:`StarsSearchBot.recall` rebuilds both from the game's record
(:class:`rolling.bots.base.History`), and the web app calls it before every decision, so a move
does not depend on which process makes it. Played through by one object, the bot remembers
exactly what ``recall`` rebuilds.

**Playouts**: every seat plays the heuristic bot until the end of the turn (phase 9 done): what
a decision changes in the turn's income, dividends and share prices is played out, and what it
changes later is in the score's valuation. After phase 1 nothing is drawn from the Deck before
the turn ends, so those decisions are *exact* (:mod:`.ismcts`): each candidate is played out once. **Score**: each seat's expected final wealth by the heuristic's own
valuation (cash, private companies with the income they will still earn, shares at the price their
stars will justify; the true score when the game ended), and the searching seat's reward is
``1 / (1 + exp(-(mine - best other) / SCALE))``: a win-probability-like number that rewards the
margin over the strongest opponent, not wealth that everyone shares. In the two-handed variant
"mine" is the lower of the searching person's two hands and "best other" the lower of the other
person's (the lower-ranked hand decides who wins).
"""

from __future__ import annotations

from rolling.core.rng import Rng
from rolling.games.stars import data as D
from rolling.games.stars.actions import Bid, DeclineIpo, Done, LeaveAuction, Offer, Pass, Respond, RespondDeal
from rolling.games.stars.state import GONE, IN_DECK, MAXP, StarsState, two_handed_partner, two_handed_person
from rolling.sim.stars import pick_seat

from . import ismcts
from .ismcts import margin_reward
from .stars_heuristic import StarsHeuristicBot, private_value, schedule, share_value
from .value import evaluate

#: the most candidates a decision considers
MAX_CANDIDATES = 8
#: $ of margin over the best opponent that makes the reward 0.73 (logistic scale)
SCALE = 25.0
#: moves that end the seat's part of a phase
QUIET = (Pass, Done, LeaveAuction, DeclineIpo)
#: phase 3 decisions the bot searches (the others, its own proposals, follow the heuristic)
ANSWERS = (Respond, RespondDeal)


def drawn(first: StarsState, s: StarsState) -> int:
    """Bitmask of the companies drawn out of the Deck between ``first`` (the position after the
    set-up) and ``s``, the initial offering included: those in the game at the set-up and no longer
    in the Deck (the Deck only ever loses its top card). All were face up once: public."""
    in_deck = 0
    for i in s.deck:
        in_deck |= 1 << i
    out = 0
    for i in range(D.N_COMPANIES):
        if first.company_owner[i] != GONE and not in_deck >> i & 1:
            out |= 1 << i
    return out


def person_wealth(values: list[float]) -> list[float]:
    """Two-handed variant: ``[A, B]``, each person's lower hand of the four seats' ``values`` (001,
    Two-player two-handed variant: "your lower ranked simulated player must be better than the
    lower ranked simulated player of your opponent"; :func:`~rolling.games.stars.state.two_handed_winner`)."""
    return [min(values[0], values[two_handed_partner(0)]), min(values[1], values[two_handed_partner(1)])]


def wealth(s: StarsState, sched) -> list[float]:
    """Each seat's expected final score ($) by the heuristic's valuation (see the module docstring)."""
    if s.over:
        return [float(r["score"]) for r in sorted(s.standings(), key=lambda r: r["seat"])]
    out = [float(c) for c in s.cash]
    owner = s.company_owner
    for i in range(D.N_COMPANIES):
        o = owner[i]
        if 0 <= o < s.n:
            out[o] += private_value(i, sched)
    for c in range(D.N_CORPS):
        if not s.corp_active[c] or s.corp_issued[c] <= 0:
            continue
        value = None
        base = c * MAXP
        for seat in range(s.n):
            k = s.held[base + seat]
            if k:
                if value is None:
                    value = share_value(s, c, sched)
                out[seat] += k * value
    return out


class StarsSearch:
    """The game side of the search (:class:`.ismcts.SearchGame`) for one searching seat;
    ``learned`` scores the playouts' ends with the learned evaluation (:mod:`.value`) instead of
    the heuristic's valuation."""

    def __init__(self, seat: int, seed: int = 0, learned: bool = False) -> None:
        self.seat = seat
        self.learned = learned
        self.guide = StarsHeuristicBot(seed)  # the real decisions' heuristic (its memory is the game's)
        self.tree_guide = StarsHeuristicBot(seed)  # the determinizations' (fresh every playout)
        self.players: list[StarsHeuristicBot] = []
        self.last = seat
        self.seen = 0  # bitmask of companies the seat has seen out of the Deck

    # -- what the seat knows -------------------------------------------------------------------
    def observe(self, s: StarsState) -> None:
        """Remember every company now outside the Deck (the seat has seen it)."""
        owner = s.company_owner
        for i in range(D.N_COMPANIES):
            if owner[i] != IN_DECK and owner[i] != GONE:
                self.seen |= 1 << i

    def determinize(self, s: StarsState, seat: int, rng: Rng) -> StarsState:
        """A copy of ``s`` whose Deck is redealt from what ``seat`` has not seen (module docstring)."""
        d = s.clone()
        if "open-companies" in s.config.variants or not d.deck:
            return d
        owner = d.company_owner
        deck = d.deck
        out: list[int] = []
        k = 0
        while k < len(deck):
            color = D.COLOR[deck[k]]
            j = k
            while j < len(deck) and D.COLOR[deck[j]] == color:
                j += 1
            count = j - k
            pool = [i for i in range(D.N_COMPANIES)
                    if D.COLOR[i] == color and owner[i] in (IN_DECK, GONE) and not self.seen >> i & 1]
            if len(pool) < count:  # cannot happen with a full memory; keep the true cards then
                out.extend(deck[k:j])
                k = j
                continue
            highest = D.HIGHEST[color]
            chosen = [highest] if highest in pool else []
            rest = [i for i in pool if i != highest]
            while len(chosen) < count:
                chosen.append(rest.pop(rng.below(len(rest))))
            rng.shuffle(chosen)
            for i in pool:
                owner[i] = GONE
            for i in chosen:
                owner[i] = IN_DECK
            out.extend(chosen)
            k = j
        d.deck = out
        return d

    # -- the tree --------------------------------------------------------------------------------
    def candidates(self, s: StarsState, seat: int, guide: StarsHeuristicBot | None = None,
                   played: frozenset | set = frozenset()) -> list[tuple[object, object]]:
        """``(action, action)`` pairs, best prior first (see the module docstring); ``guide``
        gives the first (default: the playouts' heuristic); purchase proposals in ``played``
        (already made this phase) are left out, so that a rejected one is not repeated."""
        moves = s.legal_moves(seat)
        if not moves:
            return []
        first = (guide or self.tree_guide).choose(s, seat)
        out = [first]
        quiet: list = []
        variants: list = []
        others: list = []
        for m in moves:
            if m.field is None:
                (quiet if m.kind in QUIET else others).append(m.action())
                continue
            if type(first) is m.kind and all(getattr(first, k) == v for k, v in m.args.items()):
                if m.kind is Bid:
                    values = (m.lo,)
                else:
                    values = (m.lo, m.hi, (m.lo + m.hi) // 2)
                variants.extend(m.action(v) for v in values)
            else:
                others.append(m.action(m.lo))
        seen = {first} | set(played)
        if first in played:
            out = []
        for a in quiet + variants + others:
            if a not in seen:
                seen.add(a)
                out.append(a)
                if len(out) >= MAX_CANDIDATES:
                    break
        if not out:  # every move is a proposal already made: play the heuristic's anyway
            out = [first]
        return [(a, a) for a in out]

    def next_seat(self, s: StarsState) -> int:
        """The runner's rule (:func:`rolling.sim.stars.pick_seat`) after the seat that acted last."""
        return pick_seat(s, self.last)

    def policy(self, s: StarsState, seat: int):
        """The heuristic bot's action for ``seat``."""
        self.last = seat
        return self.players[seat].choose(s, seat)

    def new_playout(self) -> None:
        """Fresh heuristic players (their memory of tried offers starts empty)."""
        self.players = [StarsHeuristicBot(k) for k in range(MAXP)]
        self.tree_guide = StarsHeuristicBot(self.seat)
        self.last = self.seat

    def stop(self, s: StarsState, root: StarsState) -> bool:
        """The end of the turn (see the module docstring)."""
        return s.turn > root.turn

    def exact(self, s: StarsState) -> bool:
        """After phase 1 no company is drawn before the turn ends, so the Deck cannot matter (nor
        with open companies or an empty Deck); the heuristic players are deterministic."""
        return s.phase > 1 or not s.deck or "open-companies" in s.config.variants

    def reward(self, s: StarsState, seat: int) -> float:
        """:func:`margin_reward` of :func:`wealth`; in the two-handed variant of each person's
        lower hand, the one the winner rule compares (:func:`person_wealth`). With ``learned``
        (not in the two-handed variant, which the model was not trained on): ``seat``'s win
        probability by :func:`rolling.bots.value.evaluate`."""
        if self.learned and "two-handed" not in s.config.variants:
            return evaluate(s, seat)[seat]
        sched = schedule(s, max(1.0, StarsHeuristicBot.RATE_PER_PLAYER * s.n))
        values = wealth(s, sched)
        if "two-handed" in s.config.variants:
            return margin_reward(person_wealth(values), 0 if two_handed_person(seat) == "A" else 1, SCALE)
        return margin_reward(values, seat, SCALE)

    def describe(self, s: StarsState, a) -> str:
        """The action in a few words (``"bid $14"``, ``"PR buys MHE for $20"``), corporations in
        the edition's codes."""
        return describe(s, a)


#: action name -> its words in a reason, given the action and a function naming a corporation
#: in the edition's code
WORDS = {
    "Pass": lambda a, corp: "pass",
    "LeaveAuction": lambda a, corp: "leave the auction",
    "Bid": lambda a, corp: f"bid ${a.amount}",
    "StartAuction": lambda a, corp: f"auction {a.company} at ${a.bid}",
    "BuyShare": lambda a, corp: f"buy a {corp(a.corporation)} share" + (" (President's)" if a.presidents_share else ""),
    "SellShare": lambda a, corp: f"sell a {corp(a.corporation)} share",
    "Offer": lambda a, corp: f"{corp(a.corporation)} buys {a.company} for ${a.price}",
    "Respond": lambda a, corp: f"{'accept' if a.accept else 'reject'}: {corp(a.corporation)} buys {a.company}",
    "Deal": lambda a, corp: "propose the deal " + _steps(a, corp),
    "RespondDeal": lambda a, corp: f"{'accept' if a.accept else 'reject'} the deal " + _steps(a, corp),
    "Done": lambda a, corp: "done",
    "Close": lambda a, corp: f"close {a.company}",
    "Dividend": lambda a, corp: f"{corp(a.corporation)} pays ${a.amount} a share",
    "Issue": lambda a, corp: f"{corp(a.corporation)} {'issues a share' if a.issue else 'issues none'}",
    "FormCorporation": lambda a, corp: f"form {corp(a.corporation)} with {a.company} at ${a.price}",
    "DeclineIpo": lambda a, corp: f"no IPO for {a.company}",
}


def _steps(a, corp) -> str:
    return ", ".join(f"{corp(t.corporation)} buys {t.company}" for t in a.transactions)


def describe(s: StarsState, a) -> str:
    """``a`` in a few words for a search reason (see :meth:`StarsSearch.describe`)."""
    words = WORDS.get(type(a).__name__)
    if words is None:
        return str(a.to_json())
    return words(a, lambda sym: s.corp_code(D.CORP_INDEX[sym]))


class StarsSearchBot(ismcts.SearchBot):
    """``search``: information-set MCTS for Rolling Stock Stars (see the module docstring);
    ``seed`` and ``budget`` as in :class:`~.ismcts.SearchBot`.

    Raises:
        SeatError: a budget that cannot be read.
    """

    #: score the playouts with the learned evaluation (:class:`StarsValueSearchBot`)
    learned = False

    def __init__(self, seed: int = 0, budget: str | ismcts.Budget | None = None) -> None:
        super().__init__(seed, budget)
        self._played: set = set()
        self._played_key: tuple = ()

    def _game(self, seat: int) -> StarsSearch:
        game = self.games.get(seat)
        if game is None:
            game = self.games[seat] = StarsSearch(seat, self.seed, self.learned)
        return game

    def recall(self, history, seat: int) -> None:
        """Set the memory for ``seat``'s next decision from the record (``history``: a
        :class:`~rolling.bots.base.History`): the proposals the seat made this phase (the bot's and
        its heuristic's memory) and the companies seen (every company drawn so far), what the bot
        would remember had it played the whole record itself."""
        s = history.state
        game = self._game(seat)
        game.guide.recall(history, seat)
        self._played_key = (s.turn, s.phase)
        self._played = {a for a in history.this_phase(seat) if type(a) is Offer}
        game.seen = drawn(history.first, s)

    def choose(self, s: StarsState, seat: int):
        """Search and return the most visited action for ``seat``; a single candidate is played
        at once. ``last_reason`` gives the top alternatives with visits and values.

        Raises:
            ValueError: ``seat`` has no legal action.
        """
        game = self._game(seat)
        game.observe(s)
        if self._played_key != (s.turn, s.phase):
            self._played_key, self._played = (s.turn, s.phase), set()
        cands = game.candidates(s, seat, game.guide, self._played)
        if not cands:
            raise ValueError(f"seat {seat} has no legal action")
        if len(cands) == 1 or (s.phase == 3 and not any(isinstance(a, ANSWERS) for _, a in cands)):
            self.last_reason, self.last_result = game.guide.last_reason, None
            action = cands[0][1]
        else:
            game.last = seat
            result = ismcts.search(game, s, seat, self.budget, self.rng, cands)
            self.last_result = result
            self.last_reason = ismcts.reason(game, s, result)
            action = result.best
        if isinstance(action, Offer):
            self._played.add(action)
            # the heuristic's memory of proposals made, so that its next suggestion moves on
            game.guide._remember(s).add((D.CORP_INDEX[action.corporation], D.INDEX[action.company], action.price))
        return action


class StarsValueSearchBot(StarsSearchBot):
    """``vsearch``: the search bot (:class:`StarsSearchBot`, the same tree, candidates and
    playouts to the end of the turn) scoring each playout's end with the learned evaluation
    (:func:`rolling.bots.value.evaluate`: the searching seat's win probability as it sees the
    position) instead of the heuristic's valuation; ``seed`` and ``budget`` as there.

    Raises:
        SeatError: a budget that cannot be read.
    """

    name = "vsearch"
    learned = True
