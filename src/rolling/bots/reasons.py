"""When the bots' reasons may be shown to the players while the game goes on.

A bot's ``last_reason`` is shown with its move to everyone (see :mod:`rolling.bots`), except where
the game keeps something of the bot's secret that a reason would give away: with the Stars
secret-money variant (002, 3.2: "secret private money") a reason tells how much the bot can pay
(the heuristic leaves an auction of a company worth more to it than the bid only when it cannot
pay more; the search bots list the bids they could make). There the reasons are held back until the
game is over.
"""

from __future__ import annotations

from typing import Any

#: variants under which a bot's reasons would reveal what the rules keep secret
SECRET_VARIANTS = ("secret-money",)


def reasons_shown(state: Any) -> bool:
    """True when the bots' reasons may be shown to everyone now: always once the game is over, and
    during play unless a variant in :data:`SECRET_VARIANTS` is on."""
    if getattr(state, "is_over", False):
        return True
    variants = getattr(getattr(state, "config", None), "variants", ()) or ()
    return not any(v in variants for v in SECRET_VARIANTS)
