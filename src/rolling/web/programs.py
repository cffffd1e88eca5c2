"""Programmed actions: standing orders a player leaves for the server to carry out, as on
18xx.games, each cancelled once the situation it assumed has changed (Rolling Stock Stars).

Kinds:

- ``pass_investment``: pass in phase 1 (Investment) whenever it is your turn, until something
  changes: any share bought or sold, company auctioned or other change of holdings, or the end of
  that phase 1 (a program set outside phase 1 applies to the next one);
- ``auction_limit`` (``limit`` $): in the auction running now, raise by the least amount allowed
  while that stays within the limit, else leave the auction; cancelled when that auction ends;
- ``pass_closing_unless_loss``: in phase 4 (Closing) declare ``done`` for you, unless one of your
  companies (or of the corporations you preside) would lose money this turn (income less than its
  cost of ownership): then the program is cancelled and you decide. It stands from turn to turn.
  (``pass_dividends_unless_loss`` is read as this kind; the first contract named it so.)

Each program is a ``(kind, limit, assumption)``; :func:`start` makes the assumption,
:func:`check` keeps or cancels it after every action, :func:`action` says what it does now.
"""

from __future__ import annotations

from typing import Any

from rolling.core.state import stable_digest

KINDS = ("pass_investment", "auction_limit", "pass_closing_unless_loss")
ALIASES = {"pass_dividends_unless_loss": "pass_closing_unless_loss"}


class ProgramError(ValueError):
    """A program that cannot be set now (wrong game, no auction running, no limit); one line."""


def canonical(kind: str) -> str:
    """The kind meant by ``kind`` (aliases resolved).

    Raises:
        ProgramError: unknown kind.
    """
    kind = ALIASES.get(kind, kind)
    if kind not in KINDS:
        raise ProgramError(f"unknown program {kind!r} (known: {', '.join(KINDS)})")
    return kind


def _phase1_key(s: Any) -> str:
    # what "something changes" means in phase 1: holdings, the offering, share prices, an auction
    return stable_digest((s.turn, s.offering, s.company_owner, s.held, s.corp_card, s.corp_active, s.auction))


def start(game: str, kind: str, limit: int | None, s: Any, seat: int) -> dict[str, Any]:
    """The assumption of a new program of ``seat`` in state ``s``.

    Raises:
        ProgramError: not a Stars game, an auction limit without a running auction or a limit.
    """
    if game != "stars":
        raise ProgramError("programmed actions exist for Rolling Stock Stars only")
    if s.is_over:
        raise ProgramError("the game is over")
    if kind == "pass_investment":
        return {"key": _phase1_key(s) if s.phase == 1 else None, "turn": s.turn}
    if kind == "auction_limit":
        if limit is None or limit < 0:
            raise ProgramError("an auction limit needs a 'limit' in $ (0 or more)")
        if s.phase != 1 or s.auction is None:
            raise ProgramError("no auction is running")
        if not (s.auction[5] >> s.position(seat) & 1):
            raise ProgramError("you are not in the running auction")
        from rolling.games.stars import data as D

        return {"company": D.CODES[s.auction[0]]}
    return {}


def check(kind: str, assumption: dict[str, Any], s: Any, seat: int) -> dict[str, Any] | None:
    """The program's assumption after the latest action: the same, updated (a phase-1 pass set
    earlier starts to watch at phase 1), or ``None`` when it no longer holds (cancel it)."""
    if s.is_over:
        return None
    if kind == "pass_investment":
        key = assumption.get("key")
        if key is None:
            return {"key": _phase1_key(s), "turn": s.turn} if s.phase == 1 else assumption
        if s.phase != 1 or _phase1_key(s) != key:
            return None
        return assumption
    if kind == "auction_limit":
        from rolling.games.stars import data as D

        if s.auction is None or D.CODES[s.auction[0]] != assumption.get("company"):
            return None
        return assumption
    if kind == "pass_closing_unless_loss":
        if s.phase == 4 and _would_lose(s, seat):
            return None
        return assumption
    return None


def _would_lose(s: Any, seat: int) -> bool:
    from rolling.games.stars import data as D
    from rolling.games.stars.state import CORP_BASE

    owners = [seat] + [CORP_BASE + c for c in range(D.N_CORPS) if s.corp_active[c] and s.president[c] == seat]
    return any(D.INCOME[i] < s.company_cost(i) for o in owners for i in s.companies_of(o))


def action(kind: str, limit: int | None, s: Any, seat: int) -> Any | None:
    """What the program does for ``seat`` now (``None``: nothing; the player decides)."""
    from rolling.games.stars import Bid, Done, LeaveAuction, Pass

    if s.is_over or seat not in s.to_act:
        return None
    moves = s.legal_moves(seat)
    kinds = {m.kind: m for m in moves}
    if kind == "pass_investment" and s.phase == 1 and s.auction is None and Pass in kinds:
        return Pass(seat)
    if kind == "auction_limit" and s.auction is not None:
        bid = kinds.get(Bid)
        if bid is not None and limit is not None and bid.lo <= limit:
            return Bid(seat, bid.lo)
        if LeaveAuction in kinds:
            return LeaveAuction(seat)
    if kind == "pass_closing_unless_loss" and s.phase == 4 and Done in kinds and not _would_lose(s, seat):
        return Done(seat)
    return None
