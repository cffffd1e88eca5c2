"""Reveals, and the one undo rule every front end follows (issue 28 item 6; the "undo can probe"
hole).

A *reveal* is a moment when something the players could not know becomes known to them: a card
drawn from a face-down deck, dice rolled, a cargo marker drawn from the bag. Every engine counts
them as they happen: ``state.reveals`` (an int, growing by one per reveal) and
``state.last_reveal`` (what the latest one was, ``(kind, name)``: ``kind`` a key of
:data:`REVEAL_TEXT`, ``name`` what became known, already public, or ``""``). Counting costs an
integer increment at the few places an engine draws or rolls; it is history, not position, so it
is left out of ``digest()`` (like the log).

What is hidden is the rules' business, so each engine decides what counts: with the Stars
open-companies variant the deck's order is public and a draw reveals nothing; with the Stars
secret-money variant (002, 3.2) a step the engine takes for a player because of that player's
secret cash (a forced leave from an auction, a forced pass, a company passed over at the IPO) is a
:data:`MOVE` of that player (``("move", "<seat>")``), and the new player order of phase 2 (by
descending cash) a reveal to everyone.

The rule: **an undo never goes back past anything the undoing party learned since**, nor past the
end of the game (the final standings show everything, a bot's plans included). What a party learns
is a reveal, and any move of a seat outside the party: another person's or a bot's decision (its
answer shows what it privately wanted), or a step the engine took for that seat from what only that
seat knows. Taking an action back after seeing any of these would let a player try again knowing
more: draw a card and choose again, bid, see another forced out of the auction (their secret cash
is below the bid) and bid again, make an offer, see a bot's answer and offer another price. The
*party* is the seats one undo speaks for: at the terminal the person whose turn it is, in the web
app the seats the request holds (several at a hotseat table: what one of them did, the others saw
being done). :class:`UndoFloor` follows a game being played action by action and says why an undo
to a given point is refused, naming what was learned as the public log tells it (a move of
Player 2, never why it was made); the terminal (:mod:`rolling.ui.session`) and the web app
(:mod:`rolling.web.commands`) both use it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

#: the kind of reveal that is a seat's move taken by the engine from that seat's hidden facts; its
#: name is the seat (decimal digits)
MOVE = "move"

#: the kinds of reveal, each as a refusal names it (never naming anything still hidden)
REVEAL_TEXT = {
    "card": "a card drawn",
    "dice": "a roll of the dice",
    "cargo": "cargo drawn from the bag",
    "order": "the new player order",
    MOVE: "a move of",
}


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """``names[seat]``, or ``Player <seat + 1>`` without names."""
    return names[seat] if names is not None and 0 <= seat < len(names) else f"Player {seat + 1}"


def describe(reveal: tuple[str, str] | None, names: Sequence[str] | None = None) -> str:
    """A reveal in words: ``("card", "MS")`` -> ``"a card drawn (MS)"``; the name, if any, is what
    became known (public since). ``("move", "1")`` -> ``"a move of Player 2"`` (``names[1]`` with
    ``names``). ``None`` -> ``"something revealed"``.

    Raises:
        KeyError: an unknown kind (an engine bug).
    """
    if reveal is None:
        return "something revealed"
    kind, name = reveal
    text = REVEAL_TEXT[kind]
    if kind == MOVE:
        return f"{text} {seat_name(int(name), names)}"
    return f"{text} ({name})" if name else text


def actor(action: Any, state: Any) -> int | None:
    """The seat that takes ``action`` (an action or its JSON form) at ``state`` (the position
    before it): its ``seat`` field, or for a game whose actions name no seat (Rolling Market, played
    alone) the one seat ``state.to_act`` names (read only then: ``to_act`` may cost a little);
    ``None`` when neither says (the floor then counts no seat's move for it)."""
    seat = action.get("seat") if isinstance(action, dict) else getattr(action, "seat", None)
    if type(seat) is int:
        return seat
    to_act = state.to_act
    return to_act[0] if len(to_act) == 1 else None


class UndoFloor:
    """How far back an undo may take a game being played: never before what the undoing party
    learned since (a reveal, another seat's move), nor after the game's end (see the module).

    Feed it the state after every action, with the seat that took it (:meth:`after`);
    :meth:`refusal` says why keeping only the first ``keep`` actions is not allowed to a party of
    seats, or ``None`` when it is.

    Attributes:
        floor: the fewest actions an undo may keep for anyone (0: the game's start); the number of
            actions after which the latest reveal to everyone happened.
        count: ``state.reveals`` after the latest action fed.
        what: ``state.last_reveal`` at :attr:`floor` (``None`` before any reveal).
        moved: seat -> the number of actions after which that seat last moved (its own action,
            or an engine's :data:`MOVE` for it).
    """

    __slots__ = ("count", "floor", "moved", "what")

    def __init__(self, state: Any):
        """Start at a game's first position ``state`` (its set-up's draws are before any action)."""
        self.count = state.reveals
        self.floor = 0
        self.what: tuple[str, str] | None = None
        self.moved: dict[int, int] = {}

    def __copy__(self) -> UndoFloor:
        """An independent copy (the web app keeps one with each snapshot; ``moved`` is not shared)."""
        twin = UndoFloor.__new__(UndoFloor)
        twin.count, twin.floor, twin.what, twin.moved = self.count, self.floor, self.what, dict(self.moved)
        return twin

    def after(self, n: int, state: Any, seat: int | None) -> None:
        """``state`` is the position after the game's ``n``-th action (from 1), which ``seat`` took
        (:func:`actor`; ``None``: no seat's)."""
        if seat is not None:
            self.moved[seat] = n
        if state.reveals != self.count:
            last = state.last_reveal
            if last is not None and last[0] == MOVE and state.reveals == self.count + 1:
                self.moved[int(last[1])] = n
            else:
                # several reveals in one action are told apart by the latest only: the action is
                # then a reveal to everyone (a refusal too many, never a leak)
                self.floor = n
                self.what = last
            self.count = state.reveals

    def refusal(self, keep: int, state: Any, party: Collection[int],
                names: Sequence[str] | None = None) -> str | None:
        """Why an undo for the seats ``party`` that keeps the first ``keep`` actions of the game now
        at ``state`` is refused (one line, for the player), or ``None`` when it is allowed.

        Args:
            names: the players' names, seat by seat, for the refusal (default ``Player N``).
        """
        if state.is_over:
            return "the game is over"
        if keep < self.floor:
            return f"undo would go back past {describe(self.what, names)}"
        learned = [(n, seat) for seat, n in self.moved.items() if n > keep and seat not in party]
        if learned:
            _, seat = min(learned)  # the first thing learned since
            return f"undo would go back past {describe((MOVE, str(seat)), names)}"
        return None
