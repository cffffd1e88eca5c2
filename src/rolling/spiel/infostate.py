"""Information states of Rolling Stock Stars and Rolling Freight for OpenSpiel: the
``information_state_tensor`` layouts and ``resample_from_infostate`` (docs/research.md, "OpenSpiel:
information states").

What a seat cannot see (the same as the search bots' determinizations, whose code does the
redeal: :meth:`rolling.bots.stars_search.StarsSearch.determinize`,
:meth:`rolling.bots.freight_search.FreightSearch.determinize`):

- Stars: which companies the Deck holds and their order (canonical rules, Setup; not with the
  variant *open companies*). Its size and colours are public, and every company that has been out
  of the Deck (in the offering, owned, closed) has been seen by all: the information state remembers
  those (``seen``). Other players' cash with *secret private money* is **not** hidden from a seat
  with a perfect memory: every change of it is a public transaction (002, 3.2: "perfectly
  trackable"), so the tensor holds every seat's cash and resampling keeps it.
- Freight: the order of the contract deck between its End of Phase cards and of the improvement
  deck; everything else is public, so the observation is the whole information state.

Dice and cargo still to come are chance nodes of the resampled state, chosen by its caller.
"""

from __future__ import annotations

import numpy as np

from rolling.bots.freight_search import FreightSearch
from rolling.bots.stars_search import StarsSearch
from rolling.core.rng import Rng
from rolling.games.freight.state import FreightState
from rolling.games.stars import data as D
from rolling.games.stars.state import GONE, IN_DECK, MAXP, StarsState
from rolling.research import freight_codec as F
from rolling.research import stars_codec as S
from rolling.research.layout import Layout

#: Stars' information state tensor (float32): the observation, then what a perfect memory adds
STARS_INFO = Layout()
STARS_INFO.add("observation", S.OBS.size, "the player's observation (the Stars observation table above, same indices)")
_SEEN = STARS_INFO.add("seen", D.N_COMPANIES,
                       "1 for each company (engine index 0-35) that has been out of the Deck: in the offering, "
                       "owned, closed or removed after being seen (so it is not in the Deck)")
_CASH = STARS_INFO.add("cash_tracked", MAXP,
                       "cash of each seat 0-5 ($, 0 if absent) as a perfect memory tracks it: with secret-money "
                       "the others' cash too (002, 3.2: every change is a public transaction)",
                       high=S.MONEY_CAP, scale=S.DOLLARS)

#: Freight's information state tensor (float32): the observation (all but the decks' order is public)
FREIGHT_INFO = Layout()
FREIGHT_INFO.add("observation", F.OBS.size, "the player's observation (the Freight observation table above, same indices)")


def stars_seen(s: StarsState, seen: int | None) -> int:
    """``seen`` (a bitmask of company indices, None at set-up) with every company now out of the Deck."""
    out = seen or 0
    owner = s.company_owner
    for i in range(D.N_COMPANIES):
        if owner[i] != IN_DECK and owner[i] != GONE:
            out |= 1 << i
    return out


def stars_tensor(table, seen: int, player: int) -> np.ndarray:
    """The Stars information state tensor of ``player`` (:data:`STARS_INFO`)."""
    s = table.state
    v = np.zeros(STARS_INFO.size, dtype=np.float32)
    v[: S.OBS.size] = table.observe(player)
    for i in range(D.N_COMPANIES):
        if seen >> i & 1:
            v[_SEEN.start + i] = 1
    for p in range(s.config.players):
        v[_CASH.start + p] = min(s.cash[p], S.MONEY_CAP) / S.DOLLARS  # scaled like the observation's cash
    return v


def stars_resample(s: StarsState, player: int, seen: int, rng: Rng) -> StarsState:
    """A copy of ``s`` whose Deck is redealt from the companies no one has seen (the search bot's
    determinization, :meth:`StarsSearch.determinize`); everything else, cash included, kept."""
    search = StarsSearch(player)
    search.seen = seen
    return search.determinize(s, player, rng)


def freight_resample(s: FreightState, player: int, rng: Rng) -> FreightState:
    """A copy of ``s`` with the hidden stretches of the contract deck and the improvement deck
    reshuffled (:meth:`FreightSearch.determinize`)."""
    return FreightSearch(player).determinize(s, player, rng)
