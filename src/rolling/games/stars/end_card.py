"""Phase 7: End card (automatic).

"If there are no unowned Companies left, flip the game end card. If it is already flipped, or if
the 75● share price card is owned by a Corporation, the game ends."
"""

from __future__ import annotations

from . import data as D
from . import events as E
from . import procedures as P
from .state import StarsState


def enter(s: StarsState) -> None:
    """End the game or flip the game end card, as the rules say."""
    if s.end_flipped:
        P.end_game(s, "phase 7 began with the game end card flipped")
        return
    if s.card_owner[D.TOP_CARD] >= 0 or any(s.corp_active[c] and s.corp_card[c] < 0 for c in range(D.N_CORPS)):
        P.end_game(s, "a corporation holds the $75 share price card in phase 7")
        return
    if s.unowned_companies() == 0:
        s.end_flipped = True
        if s.log is not None:
            s.log.append((E.END_CARD_FLIPPED, E.PUBLIC))


def step(s: StarsState) -> bool:
    """Nothing to decide."""
    return True
