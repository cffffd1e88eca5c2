"""A random bot for Rolling Stock Stars.

It draws uniformly among the legal moves of the state, with two adjustments that keep games short
and the numbers plausible:

- the "nothing more" move (pass, leave the auction, done, decline an IPO) is chosen with a fixed
  probability per phase when it is legal, and otherwise a uniform choice is made among the other
  moves; so phases 1, 3 and 4 always end after a few rounds and random closing does not wipe out a
  player's companies;
- numbers are sampled sensibly: opening bids and raises stay near the minimum most of the time
  (sometimes uniform up to all the bidder's money); purchase prices and dividends are uniform over
  their legal range.
"""

from __future__ import annotations

from rolling.core.rng import Rng
from rolling.games.stars.actions import Bid, DeclineIpo, Done, LeaveAuction, Pass, StartAuction

#: the actions that end or skip a player's part of a phase
QUIET = (Pass, LeaveAuction, Done, DeclineIpo)

#: phase -> percent chance of the quiet move when it is legal (phase 1 uses AUCTION_LEAVE in auctions)
QUIET_PERCENT = {1: 50, 3: 50, 4: 80, 9: 50}
AUCTION_LEAVE = 50


class StarsRandomBot:
    """Plays uniformly random legal moves (see the module docstring for the sampling).

    Args:
        seed: seeds the bot's own random numbers.
    """

    name = "random"
    last_reason: str | None = None

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state, seat: int):
        """Return a random legal action for ``seat``.

        Raises:
            ValueError: ``seat`` has no legal action (it is not in ``state.to_act``).
        """
        moves = state.legal_moves(seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal action")
        quiet = [m for m in moves if m.kind in QUIET]
        other = [m for m in moves if m.kind not in QUIET]
        if quiet and other:
            pct = AUCTION_LEAVE if state.auction is not None else QUIET_PERCENT.get(state.phase, 50)
            pool = quiet if self.rng.below(100) < pct else other
        else:
            pool = quiet or other
        m = self.rng.choice(pool)
        return m.action(self._number(m))

    def _number(self, m) -> int | None:
        """A value for the move's numeric field: near the minimum for bids, else uniform."""
        if m.field is None:
            return None
        if m.kind in (StartAuction, Bid) and self.rng.below(100) < 80:
            return min(m.hi, m.lo + self.rng.below(3))
        return self.rng.randint(m.lo, m.hi)
