"""Import Rolling Stock Stars games exported from 18xx.games.

An export is a JSON object with ``title`` ("Rolling Stock Stars"), ``players`` (in player order,
each ``{"id", "name"}``), ``settings.seed``, ``actions`` and the site's ``result`` (player id ->
score). :func:`import_export` rebuilds the same game in our engine (compat option ``18xx``: the
site's deck for that seed, the export's player order; compat option ``18xx-receivership-buy``: the
site's price for the President's Share bought out of receivership; compat option
``18xx-fi-standing-offer``: announcements to the foreign investor that do not pause phase 3),
translates each site action into ours and applies it, and compares the final standings with the
recorded result.

The site runs some steps differently from our engine without a different rule; the importer adapts
its sequencing and never bends a rule (docs/18xx-compatibility.md):

- undone actions (``skip``, ``undo``/``redo``) are resolved first; ``program_*`` actions only set
  the site's auto-pass and are dropped, the passes they caused being in ``auto_actions``;
- in the any-order phases 3 and 4 the site records a pass per player and lets unanswered offers
  lapse when everyone has passed; our engine asks players again after each transaction and wants
  open proposals answered, so before a site action that belongs after such a phase the importer
  declares the remaining players done, rejects open proposals (they lapse) and declines pre-emption
  questions the site did not ask;
- in phases 8 and 9 the site records a pass for each decision it asks; questions our engine asks
  that the site skipped are answered "no" (the site only skips when the answer is forced);
- the site asks IPO questions whose only answer is pass, and phase-4 questions our engine has no
  decision for; those passes are dropped, told apart from later passes by the site's rule that
  each participant passes once per any-order phase (:func:`site_participants`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, read_json
from rolling.core.whole import parse_whole
from rolling.games.stars import (
    Bid,
    BuyShare,
    Close,
    Config,
    DeclineIpo,
    Dividend,
    Done,
    FormCorporation,
    Issue,
    LeaveAuction,
    Offer,
    Pass,
    Respond,
    SellShare,
    StartAuction,
    closing,
    engine,
    ipo,
    new_game,
)
from rolling.games.stars import data as D
from rolling.games.stars import procedures as P
from rolling.games.stars.config import FI_STANDING_OFFER, RECEIVERSHIP_BUY
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR, StarsState

TITLE = "Rolling Stock Stars"
#: the compatibility options an import switches on (docs/18xx-compatibility.md)
COMPAT = ("18xx", RECEIVERSHIP_BUY, FI_STANDING_OFFER)
KNOWN_TYPES = {
    "bid",
    "pass",
    "buy_shares",
    "sell_shares",
    "par",
    "offer",
    "respond",
    "sell_company",
    "dividend",
    "undo",
    "redo",
    "end_game",
    "message",
}


class ExportError(RecordError):
    """The file is not an 18xx.games export of a Rolling Stock Stars game (one-line message)."""


@dataclass
class ImportResult:
    """What an import found.

    Attributes:
        match: every player's score equals the recorded one.
        players: ``[{"id", "name", "score", "recorded"}]`` in the export's player order.
        actions_applied: engine actions applied (fillers included).
        error: the first refused or diverging site action and why ('' if none).
        record: our game record of the imported game.
        state: the final engine state.
    """

    match: bool
    players: list[dict[str, Any]]
    actions_applied: int
    error: str
    record: GameRecord
    state: StarsState = field(repr=False)


def load_export(path: str | Path) -> dict[str, Any]:
    """Read and check an export file.

    Raises:
        ExportError: unreadable file, broken JSON, another title, a missing field or an unknown
            action type.
    """
    data = read_json(path, ExportError)
    check_export(data)
    return data


def check_export(data: Any) -> None:
    """Check the shape of an export (raises ExportError)."""
    if not isinstance(data, dict):
        raise ExportError("not an 18xx.games export: the file is not a JSON object")
    title = data.get("title")
    if title != TITLE:
        raise ExportError(f"not a {TITLE} export: its title is {title!r}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) and "id" in p for p in players):
        raise ExportError("the export has no valid 'players' list")
    if not 2 <= len(players) <= 6:
        raise ExportError(f"the export has {len(players)} players; Rolling Stock Stars takes 2 to 6")
    seed = (data.get("settings") or {}).get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ExportError("the export has no integer settings.seed")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise ExportError("the export has no 'actions' list")
    for a in actions:
        if not isinstance(a, dict) or not isinstance(a.get("type"), str):
            raise ExportError("the export has an action that is not an object with a 'type'")
        for sub in [a] + list(a.get("auto_actions") or []):
            t = sub.get("type") if isinstance(sub, dict) else None
            if not isinstance(t, str) or (t not in KNOWN_TYPES and not t.startswith("program_")):
                raise ExportError(f"unknown action type {t!r} (action id {a.get('id')})")


def effective_actions(actions: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Resolve ``skip``, ``undo``, ``redo``, ``program_*`` and ``auto_actions``.

    Returns:
        (the site actions that stand, in order, each auto action after its parent; whether the
        players ended the game by hand with ``end_game``).
    """
    applied: list[dict[str, Any]] = []
    # what each undo took back, latest last: a redo restores the whole of the latest undo, which is
    # several actions after an undo to a given action ("Undo to Here"), as the site does
    # (18xx.games Game::Base.filtered_actions)
    undone: list[list[dict[str, Any]]] = []
    ended = False
    for a in actions:
        if a.get("skip"):
            continue
        t = a["type"]
        if t == "undo":
            target = a.get("action_id")
            group: list[dict[str, Any]] = []
            if target is None:
                if applied:
                    group.append(applied.pop())
            else:
                while applied and applied[-1].get("id", 0) > target:
                    group.insert(0, applied.pop())
            undone.append(group)
            continue
        if t == "redo":
            if undone:
                applied.extend(undone.pop())
            continue
        if t == "message":
            continue
        undone.clear()
        applied.append(a)
        if t == "end_game":
            ended = True
            break
    flat: list[dict[str, Any]] = []
    for a in applied:
        if a["type"] == "end_game":
            break
        if not a["type"].startswith("program_"):
            flat.append(a)
        for sub in a.get("auto_actions") or []:
            flat.append(dict(sub, id=a.get("id")))
    return flat, ended


class _Importer:
    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.players = data["players"]
        self.seat_of = {p["id"]: k for k, p in enumerate(self.players)}
        self.names = tuple(str(p.get("name", p["id"])) for p in self.players)
        n = len(self.players)
        self.config = Config(players=n, compat=COMPAT, names=self.names)
        self.seed = data["settings"]["seed"]
        self.state = new_game(self.config, self.seed)
        self.applied: list[dict[str, Any]] = []
        # the any-order phases (3 and 4) our engine has begun and the site may not have finished,
        # oldest first, each [turn, phase, participants who have not passed yet]: on the site
        # each participant passes once per phase, which tells a late pass of such a phase (our
        # engine may have run on without asking) from a pass of a later phase
        self.site_phases: deque[tuple[int, int, set[int]]] = deque()

    # -------------------------------------------------------------------------------- helpers
    def seat(self, a: dict[str, Any]) -> int:
        ent = a.get("entity")
        if a.get("entity_type") == "player":
            if ent not in self.seat_of:
                raise _Diverge(a, f"unknown player id {ent!r}")
            return self.seat_of[ent]
        if a.get("entity_type") == "corporation":
            c = D.corp_index(str(ent))
            if c is None:
                raise _Diverge(a, f"unknown corporation {ent!r}")
            return self.state.president[c]
        if a.get("entity_type") == "company":
            i = D.company_index(str(ent))
            if i is None:
                raise _Diverge(a, f"unknown company {ent!r}")
            return self.state.company_owner[i]
        raise _Diverge(a, f"unknown entity type {a.get('entity_type')!r}")

    def apply(self, action) -> None:
        engine.apply(self.state, action, self.phase_begins)
        self.applied.append(action.to_json())

    def phase_begins(self, s: StarsState) -> None:
        """Our engine begins a phase: for the any-order phases, note who the site will ask."""
        if s.phase in (3, 4):
            seats = site_participants(s)
            if seats:
                self.site_phases.append((s.turn, s.phase, seats))

    def passed_on_site(self, seat: int) -> None:
        """``seat`` has passed in the oldest any-order phase the site has not finished."""
        if self.site_phases:
            left = self.site_phases[0][2]
            left.discard(seat)
            if not left:
                self.site_phases.popleft()

    def taking(self, a: dict[str, Any]) -> None:
        """Bookkeeping of the site's any-order phases as site action ``a`` is taken (before ours
        applies it, which may begin another phase)."""
        t = a["type"]
        q = self.site_phases
        if t == "pass" and a.get("entity_type") == "player":
            self.passed_on_site(self.seat_of.get(a.get("entity"), -1))
        elif t == "sell_company":
            while q and q[0][1] == 3:
                q.popleft()
        elif t not in ("offer", "respond") and q:
            q.popleft()  # the site has left the phase

    def taken(self, a: dict[str, Any]) -> None:
        """Bookkeeping after a site close: the site passes a player at once who has nothing left
        to close."""
        if a["type"] == "sell_company" and self.site_phases and self.site_phases[0][1] == 4:
            seat = self.seat_of.get(a.get("entity"), -1)
            if not closing.closable(self.state, seat):
                self.passed_on_site(seat)

    def translate(self, a: dict[str, Any]):
        """Our action for a site action in the current state (None: nothing to do here)."""
        s = self.state
        t = a["type"]
        et = a.get("entity_type")
        if t == "bid":
            seat = self.seat(a)
            if s.phase == 1 and s.auction is not None:
                return Bid(seat, _whole(a["price"]))
            return StartAuction(seat, str(a["company"]), _whole(a["price"]))
        if t == "buy_shares":
            # the site names the certificate; index 0 is the President's Share, which costs the
            # price before the move when bought out of receivership (compat 18xx-receivership-buy)
            return BuyShare(self.seat(a), _corp_of_share(a), _share_index(a) == 0)
        if t == "sell_shares":
            if et == "corporation":
                c = str(a["entity"])
                return Issue(self.seat(a), c, True)
            return SellShare(self.seat(a), _corp_of_share(a))
        if t == "par":
            price = _whole(str(a["share_price"]).split(",")[0])
            return FormCorporation(self.seat(a), str(a["entity"]), str(a["corporation"]), price)
        if t == "offer":
            if s.phase == 3 and s.announcement is not None:
                # a pre-emption is recorded as the pre-empting corporation's own offer
                _, i, queue, k = s.announcement
                c = D.corp_index(str(a["corporation"]))
                if c in queue[k:] and str(a["company"]) == D.CODES[i]:
                    seat = self.seat(a)
                    if s.president[queue[k]] == seat and queue[k] == c:
                        return Respond(seat, D.CORP_SYMBOLS[c], D.CODES[i], True)
                    return Respond(s.president[queue[k]], D.CORP_SYMBOLS[queue[k]], D.CODES[i], False)
            return Offer(self.seat(a), str(a["corporation"]), str(a["company"]), _whole(a["price"]))
        if t == "respond":
            seat = self.seat(a)
            for announcer, i, asked in s.standing:
                # the site names the announcing corporation; ours the corporation asked
                if D.CORP_SYMBOLS[announcer] == str(a["corporation"]) and D.CODES[i] == str(a["company"]):
                    sym = D.CORP_SYMBOLS[announcer]
                    return Respond(seat, D.CORP_SYMBOLS[asked[0]], D.CODES[i], _truth(a["accept"]), sym)
            if s.phase == 3 and s.announcement is not None:
                # the site names the announcing corporation; the corporation asked is the
                # president's corporation next in pre-emption priority
                announcer, i, queue, k = s.announcement
                if str(a["corporation"]) == D.CORP_SYMBOLS[announcer] and str(a["company"]) == D.CODES[i]:
                    asked = next((c for c in queue[k:] if s.president[c] == seat), queue[k])
                    return Respond(seat, D.CORP_SYMBOLS[asked], D.CODES[i], _truth(a["accept"]))
            return Respond(seat, str(a["corporation"]), str(a["company"]), _truth(a["accept"]))
        if t == "sell_company":
            i = D.company_index(str(a["company"]))
            owner = s.company_owner[i] if i is not None else -1
            from rolling.games.stars.acquisition import controller

            return Close(controller(s, owner) if owner >= 0 else self.seat(a), str(a["company"]))
        if t == "dividend":
            return Dividend(self.seat(a), str(a["entity"]), _whole(a["amount"]))
        if t == "pass":
            if et == "company":
                i = D.company_index(str(a["entity"]))
                if i is not None and not ipo.options(s, i):
                    # the site asks even when no free price card is affordable, so its only
                    # answer is this pass; our engine never asks: nothing to do
                    return None
                return DeclineIpo(self.seat(a), str(a["entity"]))
            if et == "corporation":
                c = D.corp_index(str(a["entity"]))
                if s.phase == 8:
                    return Issue(self.seat(a), str(a["entity"]), False)
                if s.phase == 6 and c is not None:
                    return Dividend(self.seat(a), str(a["entity"]), 0)
                return None
            seat = self.seat(a)
            while self.site_phases:
                turn, phase, left = self.site_phases[0]
                here = (s.turn, s.phase) == (turn, phase) and not s.over
                if seat in left:
                    # this phase's pass; where our engine has no decision for the player, or has
                    # already run past the phase, there is nothing to do
                    if here and seat in s.to_act and any(m.kind is Done for m in s.legal_moves(seat)):
                        return Done(seat)
                    return None
                self.site_phases.popleft()  # the site has finished that phase
                if here:
                    return _FILL  # ours must finish it too
            if s.over:
                raise _Diverge(a, "our game is already over")
            if s.phase == 1:
                if s.auction is not None:
                    return LeaveAuction(seat)
                return Pass(seat)
            if s.phase in (3, 4) and seat in s.to_act and any(m.kind is Done for m in s.legal_moves(seat)):
                return Done(seat)
            return None
        raise _Diverge(a, f"action type {t!r} cannot be imported")

    def filler(self):
        """An action that lets the engine move on where the site moved on without a record."""
        s = self.state
        if s.over:
            return None
        if s.phase == 3:
            if s.announcement is not None:
                seat = s.to_act[0]
                return next(m.action() for m in s.legal_moves(seat) if m.kind is Respond and not m.args["accept"])
            for seat in s.to_act:
                for m in s.legal_moves(seat):
                    # a standing announcement is never answered for the site: it lapses at the end
                    if m.kind is Respond and not m.args["accept"] and "announcer" not in m.args:
                        return m.action()
            for seat in s.to_act:
                if any(m.kind is Done for m in s.legal_moves(seat)):
                    return Done(seat)
        if s.phase == 4:
            for seat in s.to_act:
                if any(m.kind is Done for m in s.legal_moves(seat)):
                    return Done(seat)
            return None
        if s.phase == 8:
            seat = s.to_act[0]
            return Issue(seat, D.CORP_SYMBOLS[s.next_in_share_price_order()], False)
        if s.phase == 9:
            seat = s.to_act[0]
            return DeclineIpo(seat, D.CODES[s.ipo_cursor])
        return None

    def feed(self, a: dict[str, Any]) -> None:
        """Apply one site action, with fillers before it where the site moved on silently."""
        for _ in range(200):
            try:
                action = self.translate(a)
            except _Diverge:
                raise
            except (KeyError, ValueError, TypeError) as e:
                raise _Diverge(a, f"malformed action ({e})") from None
            if action is None:
                self.taking(a)
                return
            if self.state.over:
                raise _Diverge(a, "our game is already over")
            if action is _FILL:
                fill = self.filler()
                if fill is None:
                    raise _Diverge(a, "the site has finished a phase that our engine cannot finish")
                self.apply(fill)
                continue
            trial = self.state.clone()
            try:
                trial.apply(action)
            except IllegalAction as e:
                fill = self.filler()
                if fill is None:
                    raise _Diverge(a, f"our engine refuses {action.to_json()}: {e}") from None
                self.apply(fill)
                continue
            price = self.price_after(a)
            self.taking(a)
            self.apply(action)
            self.taken(a)
            self.check_price(a, price)
            return
        raise _Diverge(a, "could not reach a state where the action applies")

    def price_after(self, a: dict[str, Any]) -> int | None:
        """The share price a player's share trade ``a`` moves its corporation to (Buy One Share:
        the next higher available card; Sell One Share: the next lower), from our state before
        the trade; None for other actions. Worked out beforehand because applying the trade also
        runs every automatic step after it, which may move the price again."""
        if a["type"] not in ("buy_shares", "sell_shares") or a.get("entity_type") != "player":
            return None
        c = D.corp_index(_corp_of_share(a))
        if c is None or not self.state.corp_active[c]:
            return None
        s = self.state
        return P.card_price(P.next_higher_card(s, c) if a["type"] == "buy_shares" else P.next_lower_card(s, c))

    def check_price(self, a: dict[str, Any], ours: int | None) -> None:
        """The site records the share price after a share trade: compare it with ours."""
        if ours is not None and "share_price" in a and ours != a["share_price"]:
            raise _Diverge(a, f"the site's share price is ${a['share_price']}, ours ${ours}")

    def finish(self) -> None:
        """Let the engine run to the end where the site's last actions leave only forced steps."""
        for _ in range(500):
            if self.state.over:
                return
            fill = self.filler()
            if fill is None:
                return
            self.apply(fill)


def site_participants(s: StarsState) -> set[int]:
    """Seats the site asks in phase ``s.phase`` (3 or 4), as it begins: presidents of corporations
    not in receivership, and in phase 4 also the owners of private companies (18xx.games
    ``acquisition_players``; in phase 3 it passes players without a corporation itself). The site
    skips phase 3 when no corporation has the money for the lowest price of any company owned by
    somebody else, and phase 4 when no player owns a company and no corporation owns two."""
    owners = s.company_owner
    corps = [c for c in range(D.N_CORPS) if s.corp_active[c]]
    if s.phase == 3 and not any(_site_can_acquire(s, c) for c in corps):
        return set()
    privates = {o for o in owners if 0 <= o < s.n}
    if s.phase == 4 and not privates and not any(owners.count(CORP_BASE + c) > 1 for c in corps):
        return set()
    seats = {s.president[c] for c in corps if s.president[c] >= 0}
    if s.phase == 4:
        seats |= privates
    return seats


def _site_can_acquire(s: StarsState, c: int) -> bool:
    """18xx.games ``can_acquire_any_company?``: whether corporation ``c`` could pay the lowest
    price of a company owned by somebody else (the face value from the foreign investor for
    Overseas Trading)."""
    cash = s.corp_cash[c]
    for i, owner in enumerate(s.company_owner):
        if owner < 0 or owner == CORP_BASE + c:
            continue
        if cash >= D.SPAN_LO[i] or (c == D.OVERSEAS and owner == FOREIGN_INVESTOR and cash >= D.FACE[i]):
            return True
    return False


#: translate's answer when the site has moved on to a later phase than our engine
_FILL = object()


class _Diverge(Exception):
    def __init__(self, action: dict[str, Any], why: str):
        super().__init__(why)
        self.action = action
        self.why = why


def _truth(v: Any) -> bool:
    return v is True or str(v).lower() == "true"


def _corp_of_share(a: dict[str, Any]) -> str:
    shares = a.get("shares") or []
    if not shares:
        raise ValueError("no share named")
    return str(shares[0]).rsplit("_", 1)[0]


def _share_index(a: dict[str, Any]) -> int:
    """Certificate number of the (first) share a share action names ("PR_0" -> 0; -1: none)."""
    shares = a.get("shares") or []
    tail = str(shares[0]).rsplit("_", 1)[-1] if shares else ""
    n = parse_whole(tail)
    return -1 if n is None else n


def _whole(value: Any) -> int:
    """A $ amount of a site action: a JSON integer or a string of ASCII digits (raises ValueError,
    which the importer reports as a malformed action; ``int`` would read 8.5 as 8 and "٣" as 3)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    n = parse_whole(value) if isinstance(value, str) else None
    if n is None:
        raise ValueError(f"{value!r} is not a whole number of $")
    return n


def import_export(data: dict[str, Any]) -> ImportResult:
    """Replay an export (already checked) through our engine and compare the result.

    Returns:
        an :class:`ImportResult`; ``error`` names the first site action our engine refused or where
        the two games diverged.
    """
    check_export(data)
    imp = _Importer(data)
    actions, ended_by_hand = effective_actions(data["actions"])
    error = ""
    for a in actions:
        try:
            imp.feed(a)
        except _Diverge as d:
            error = f"action id {d.action.get('id')} ({d.action.get('type')} by {d.action.get('entity')}): {d.why}"
            break
    if not error and not ended_by_hand:
        imp.finish()
    state = imp.state
    scores = {row["seat"]: row["score"] for row in state.standings()}
    recorded = {str(k): v for k, v in (data.get("result") or {}).items()}
    players = []
    for seat, p in enumerate(imp.players):
        players.append(
            {"id": p["id"], "name": imp.names[seat], "score": scores[seat], "recorded": recorded.get(str(p["id"]))}
        )
    match = not error and all(p["score"] == p["recorded"] for p in players)
    if not error and not match:
        if not ended_by_hand and not state.over:
            error = f"the site's actions end but our game is not over (turn {state.turn}, phase {state.phase})"
        else:
            error = "the final scores differ"
    record = GameRecord(
        game="stars",
        config=imp.config.to_json(),
        seed=imp.seed,
        actions=imp.applied,
        meta={"names": list(imp.names), "source": "18xx.games", "site_game_id": data.get("id")},
    )
    return ImportResult(match, players, len(imp.applied), error, record, state)
