"""When an action chosen on an older version of the game may still be taken (issue 29).

In the any-order phases of Rolling Stock Stars (phase 3, Acquisition, and phase 4, Closing) several
seats act at once, and bots act between a person's look and click. An action sent with a version
that is no longer current is accepted when nothing its seat's decision depends on has changed and
the same action is still legal; otherwise it is refused, saying what changed.

What a seat's decision depends on is its *decision basis*: a few named parts, each given to the page
as a short hash (only to the holder of that seat: it covers the seat's own cash), and sent back
with the action:

- ``phase``: the turn and phase (another phase, other decisions);
- ``cash``: the seat's own cash;
- ``holdings``: the companies the seat owns, and the corporations it presides with their
  companies, treasury and money received in flight;
- ``offers``: the proposals made to the seat or its corporations, or by its corporations, the
  foreign investor's announcements, and the deals (variant) that involve the seat;
- ``companies``: the owner of each company (public), checked only for the companies the action
  names (an offer for a company that changed hands goes to someone else).

Turn-based phases have no basis (``None``): there a stale action is always refused, since every
action of another seat can change what this one may do. Games other than Stars have none either.
"""

from __future__ import annotations

import hashlib
from typing import Any

#: what each part of the basis means to the person whose action was refused
CHANGED = {
    "phase": "the phase ended",
    "cash": "your cash changed",
    "holdings": "your companies or your corporations changed",
    "offers": "an offer to you or of yours changed",
}

#: the message where no part can be named (a turn-based phase, a page without a basis)
LOOK_AGAIN = "the game changed, look again"

#: the Stars phases where several seats act in any order (Acquisition, Closing)
ANY_ORDER_PHASES = (3, 4)


def _h(value: Any) -> str:
    """A short, stable hash of a value made of ints, strings, tuples and lists (its ``repr``)."""
    return hashlib.blake2b(repr(value).encode(), digest_size=6).hexdigest()


def basis(game: str, state: Any, seat: int) -> dict[str, Any] | None:
    """The decision basis of ``seat`` now: ``{"phase", "cash", "holdings", "offers": hash,
    "companies": {code: hash}}``, or ``None`` where stale actions are not checked part by part
    (a turn-based phase, the game over, another game)."""
    if game != "stars" or state.is_over or state.phase not in ANY_ORDER_PHASES:
        return None
    from rolling.games.stars import data as D
    from rolling.games.stars.state import CORP_BASE

    s = state
    mine = [c for c in s.active_corps() if s.president[c] == seat]
    owners = {seat, *(CORP_BASE + c for c in mine)}
    holdings = (
        tuple(s.companies_of(seat)),
        tuple((c, s.corp_cash[c], s.received[c], tuple(s.companies_of(CORP_BASE + c))) for c in mine),
    )
    offers = (
        tuple(p for p in s.pending if p[3] == seat or p[0] in mine or s.company_owner[p[1]] in owners),
        s.announcement,
        tuple(s.standing),
        tuple(d for d in s.deals if _involves(s, d, seat, mine)),
    )
    companies = {D.CODES[i]: _h((owner, s.in_flight >> i & 1)) for i, owner in enumerate(s.company_owner) if owner >= 0}
    return {"phase": _h((s.turn, s.phase)), "cash": _h(s.cash[seat]), "holdings": _h(holdings), "offers": _h(offers),
            "companies": companies}


def _involves(s: Any, deal: tuple, seat: int, mine: list[int]) -> bool:
    """Whether a variant deal ``(proposer, ((corp, company, price), ...), seats to accept)`` is
    the seat's: proposed by it, put to it, or buying for one of its corporations."""
    proposer, steps, to_accept = deal
    return proposer == seat or seat in _seats(to_accept) or any(step[0] in mine for step in steps)


def _seats(to_accept: Any) -> tuple[int, ...]:
    if isinstance(to_accept, int):  # a bitmask of seats
        return tuple(k for k in range(to_accept.bit_length()) if to_accept >> k & 1)
    return tuple(to_accept)


def named_companies(action: dict[str, Any]) -> list[str]:
    """The company codes an action (its JSON) names: ``company``, and those of a deal's steps."""
    out = [action["company"]] if isinstance(action.get("company"), str) else []
    for step in action.get("transactions") or ():
        if isinstance(step, dict) and isinstance(step.get("company"), str):
            out.append(step["company"])
    return out


def what_changed(sent: Any, now: dict[str, Any] | None, action: dict[str, Any]) -> str | None:
    """Why an action sent with basis ``sent`` may not be taken on basis ``now``, as the message for
    the person (``"the game changed: your cash changed; an offer to you or of yours changed"``), or
    ``None`` when nothing the decision depends on changed. ``sent`` comes from the page: anything
    that is not a basis counts as a change."""
    if now is None or not isinstance(sent, dict):
        return LOOK_AGAIN
    reasons = [text for part, text in CHANGED.items() if sent.get(part) != now[part]]
    if reasons and reasons[0] == CHANGED["phase"]:
        return f"the game changed: {CHANGED['phase']}"
    was = sent.get("companies") if isinstance(sent.get("companies"), dict) else {}
    for code in named_companies(action):
        if was.get(code) != now["companies"].get(code):
            reasons.append(f"{code} changed hands")
    return f"the game changed: {'; '.join(reasons)}" if reasons else None
