"""Setup of the canonical rules: cash, player order, foreign investor, the Deck and the offering.

The Deck is built colour by colour (red, orange, yellow, green, blue): the colour's companies other
than its highest are given one random number each (in the data file's deck order) and sorted by
it; the first k are kept (k from the setup text for the player count); the highest is added; the
k + 1 are given new random numbers and sorted by them. Red lies on top, then orange, yellow,
green, blue, and the game end card at the bottom on its $7 side. This is exactly "shuffle, draw k,
add the highest, shuffle", and with compat ``18xx`` it reproduces the deck 18xx.games deals for a
seed (its random numbers: x0 = seed mod 2^31, x <- (1103515245 x + 12345) mod 2^31).
"""

from __future__ import annotations

from collections.abc import Callable

from rolling.core.rng import Rng

from . import data as D
from .config import Config
from .state import IN_DECK, IN_OFFERING, StarsState


class SiteRandom:
    """The 18xx.games random number generator (a 31-bit linear congruential generator)."""

    __slots__ = ("x",)

    def __init__(self, seed: int):
        self.x = seed % (1 << 31)

    def __call__(self) -> int:
        """Advance and return the new value."""
        self.x = (1103515245 * self.x + 12345) % (1 << 31)
        return self.x


def build_deck(players: int, rand: Callable[[], int]) -> list[int]:
    """The Deck as company indices, top card first (see module docstring)."""
    deck: list[int] = []
    for color in range(len(D.COLORS)):
        highest = D.HIGHEST[color]
        rest = [i for i in D.DECK_ORDER[color] if i != highest]
        k = D.DECK_DRAWN[players][color]
        keyed = sorted(((rand(), n, i) for n, i in enumerate(rest)))
        kept = [i for _, _, i in keyed]
        if k >= 0:
            kept = kept[:k]
        kept.append(highest)
        keyed = sorted(((rand(), n, i) for n, i in enumerate(kept)))
        deck.extend(i for _, _, i in keyed)
    return deck


def deal_deck(players: int, draw: Rng) -> list[int]:
    """The Deck as company indices, top card first, dealt by explicit uniform draws from ``draw``.

    Per colour: ``k`` companies drawn one at a time from those left (``draw.below``), the highest
    added, and the ``k + 1`` shuffled (Fisher-Yates): the same distribution as :func:`build_deck`'s
    random numbers, one finite uniform choice at a time, so that an external chooser (the OpenSpiel
    games' chance nodes, rolling.spiel) can supply each outcome with its real probability.
    """
    deck: list[int] = []
    for color in range(len(D.COLORS)):
        highest = D.HIGHEST[color]
        pool = [i for i in D.DECK_ORDER[color] if i != highest]
        k = D.DECK_DRAWN[players][color]
        kept = [pool.pop(draw.below(len(pool))) for _ in range(k)] if k >= 0 else pool
        kept.append(highest)
        draw.shuffle(kept)
        deck.extend(kept)
    return deck


def setup(config: Config, seed: int, draw: Rng | None = None) -> StarsState:
    """A new game in phase 1 of turn 1 (canonical rules, Setup).

    ``draw``: when given, the deck (:func:`deal_deck`) and the player order come from its uniform
    draws instead of the seed (not with compat ``18xx``, whose deck is the site's)."""
    s = StarsState(config, seed)
    n = config.players
    s.cash = [D.START_CASH_SIX if n == 6 else D.START_CASH] * n
    s.fi_cash = D.FI_START_CASH
    if "18xx" in config.compat:
        deck = build_deck(n, SiteRandom(seed))
        s.order = list(range(n))
    elif draw is not None:
        deck = deal_deck(n, draw)
        s.order = list(range(n))
        if "two-handed" not in config.variants:
            draw.shuffle(s.order)
    else:
        rng = Rng(seed)
        deck = build_deck(n, rng.next64)
        s.order = list(range(n))
        if "two-handed" not in config.variants:
            rng.shuffle(s.order)
    s.deck = deck[::-1]  # top card last, so drawing is a pop()
    for i in s.deck:
        s.company_owner[i] = IN_DECK
    for _ in range(n):
        i = s.deck.pop()
        s.company_owner[i] = IN_OFFERING
        s.offering.append(i)
    return s
