"""Each game's side of the analysis: the search bots' machinery, one seat's view at a time.

For Stars and Freight the analysis uses the search bots' own game adapters
(:class:`rolling.bots.stars_search.StarsSearch`, :class:`rolling.bots.freight_search.FreightSearch`):
their ``determinize`` redeals what the deciding seat cannot see (Stars: the Deck from the companies
that seat has never seen; Freight: the contract and improvement decks between what is known, and a
fresh generator for every die and cargo draw to come), their ``candidates`` (the heuristic's move
first, then the alternatives it ranks next), their heuristic playout ``policy`` and their horizon
(``stop``). Rolling Market (one player) has only the dice to come hidden: :class:`MarketSearch`
gives it a fresh generator and plays the learned policy (:class:`rolling.bots.market_policy.MarketPolicyBot`,
the best policy the project has) to the end of the game.

Other players' cash in the Stars secret-money variant is not resampled: every change of a player's
cash is a public transaction, so "the private money is perfectly trackable" (002, 3.2) and a seat
with a perfect memory knows it (:mod:`rolling.bots.stars_search`).
"""

from __future__ import annotations

from typing import Any

from rolling.core.rng import Rng

from .values import VALUES, Value, ValueFunction, result_value, value_function


class MarketSearch:
    """The search-game side (:class:`rolling.bots.ismcts.SearchGame`) of Rolling Market, for the
    analysis: the dice to come are the only hidden thing; playouts run the learned policy to the
    end of the game."""

    def __init__(self, seat: int = 0, seed: int = 0) -> None:
        from rolling.bots.market_policy import MarketPolicyBot

        self.seat = seat
        self.bot = MarketPolicyBot(seed)

    def determinize(self, s: Any, seat: int, rng: Rng) -> Any:
        """A copy of ``s`` whose dice to come are drawn from a fresh generator."""
        d = s.clone()
        d.log = None
        d.rng = Rng(rng.next64())
        return d

    def candidates(self, s: Any, seat: int, guide: Any = None) -> list[tuple[Any, Any]]:
        """Every legal action, the policy's first."""
        moves = s.legal_actions(seat)
        if not moves:
            return []
        first = self.bot.choose(s, seat)
        return [(a, a) for a in [first] + [m for m in moves if m != first]]

    def next_seat(self, s: Any) -> int:
        """The one player."""
        return s.to_act[0]

    def policy(self, s: Any, seat: int) -> Any:
        """The learned policy's action."""
        return self.bot.choose(s, seat)

    def new_playout(self) -> None:
        """The policy has no memory."""

    def stop(self, s: Any, root: Any) -> bool:
        """Never before the end: a game of Rolling Market is a few dozen actions."""
        return False

    def exact(self, s: Any) -> bool:
        """Dice are still to come until the game is over."""
        return s.is_over


class MarketValue:
    """Rolling Market's value: one player, win probability 1, the final cash."""

    def __call__(self, s: Any, seat: int) -> Value:
        if s.is_over:
            return result_value(s.standings(), 1)
        return Value((1.0,), (float(s.cash),))


class Kit:
    """The analysis's access to one game (``"stars"``, ``"freight"`` or ``"market"``).

    ``observe`` is called with every state of the replayed game in order (Stars: the companies seen
    out of the Deck, which every seat saw: that memory is public); ``searcher(seat, seed)`` gives
    a fresh search adapter for the decider ``seat``.
    """

    def __init__(self, game: str) -> None:
        if game not in ("stars", "freight", "market"):
            raise ValueError(f"no analysis for the game {game!r}")
        self.game = game
        self.seen = 0

    def observe(self, s: Any) -> None:
        """Note what every seat has now seen (Stars: companies out of the Deck)."""
        if self.game == "stars":
            from rolling.bots.stars_search import StarsSearch

            memo = StarsSearch(0)
            memo.seen = self.seen
            memo.observe(s)
            self.seen = memo.seen

    def hidden(self, s: Any, seat: int) -> Any:
        """A copy of ``s`` in which what ``seat`` cannot see is put in a fixed order, so that an
        evaluation cannot depend on it even through the order the determinization starts from
        (Freight: the hidden stretches of the contract deck and the improvement deck are sorted,
        exactly the parts :meth:`~rolling.bots.freight_search.FreightSearch.determinize` shuffles,
        and the generator of the dice to come is reset; Market: the generator). Stars needs none:
        its redeal depends only on the Deck's size and colours and the companies seen.

        The log is left out of the copy (an evaluation writes none)."""
        if self.game == "stars":
            return s
        log = s.log
        s.log = None
        try:
            d = s.clone()
        finally:
            s.log = log
        d.rng = Rng(0)
        if self.game == "freight":
            deck = d.contract_deck
            marks = [k for k, card in enumerate(deck) if card < 0]
            bounds = marks + [len(deck)]
            for lo, hi in zip(bounds, bounds[1:], strict=False):
                deck[lo + 1:hi] = sorted(deck[lo + 1:hi])
            imps = d.improvement_deck
            known = min(len(imps), d.eop_removed)
            imps[known:] = sorted(imps[known:])
        return d

    def searcher(self, seat: int, seed: int) -> Any:
        """The search adapter for the deciding ``seat`` (its memory set from :meth:`observe`)."""
        if self.game == "stars":
            from rolling.bots.stars_search import StarsSearch

            g = StarsSearch(seat, seed)
            g.seen = self.seen
            g.new_playout()
            return g
        if self.game == "freight":
            from rolling.bots.freight_search import FreightSearch

            return FreightSearch(seat, seed)
        return MarketSearch(seat, seed)

    def default_value(self, name: str = "learned") -> ValueFunction:
        """The default value function (:mod:`rolling.analysis.values`): Stars and Freight, the
        one ``name`` selects (``"learned"``, :class:`~.values.LearnedValue`, or ``"heuristic"``,
        :class:`~.values.HeuristicValue`); Market, its final cash whatever ``name``.

        Raises:
            ValueError: an unknown ``name``.
        """
        if self.game == "market":
            if name not in VALUES:
                raise ValueError(f"unknown value function {name!r}: choose one of {', '.join(VALUES)}")
            return MarketValue()
        return value_function(self.game, name)

    def describe(self, s: Any, action: Any) -> str:
        """The action in a few words (the search bots' ``describe``)."""
        if self.game == "stars":
            from rolling.bots.stars_search import describe

            return describe(s, action)
        if self.game == "freight":
            from rolling.bots.freight_search import describe_action

            return describe_action(s, action)
        return str(action)
