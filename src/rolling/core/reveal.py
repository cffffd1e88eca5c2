"""Reveals, and the one undo rule every front end follows (issue 28 item 6).

A *reveal* is a moment when something the players could not know becomes known to them: a card
drawn from a face-down deck, dice rolled, a cargo marker drawn from the bag. Every engine counts
them as they happen: ``state.reveals`` (an int, growing by one per reveal) and
``state.last_reveal`` (what the latest one was, ``(kind, name)``: ``kind`` a key of
:data:`REVEAL_TEXT`, ``name`` what became known, already public, or ``""``). Counting costs an
integer increment at the few places an engine draws or rolls; it is history, not position, so it
is left out of ``digest()`` (like the log).

What is hidden is the rules' business, so each engine decides what counts: with the Stars
open-companies variant the deck's order is public and a draw reveals nothing.

The rule: **an undo never goes back past a reveal**, nor past the end of the game (the final
standings show everything, a bot's plans included). Taking an action back after a card was
drawn would let a player learn the card and choose again. :class:`UndoFloor` follows a game
being played action by action and says why an undo to a given point is refused; the terminal
(:mod:`rolling.ui.session`) and the web app (:mod:`rolling.web.service`) both use it.
"""

from __future__ import annotations

from typing import Any

#: the kinds of reveal, each as a refusal names it (never naming anything still hidden)
REVEAL_TEXT = {
    "card": "a card drawn",
    "dice": "a roll of the dice",
    "cargo": "cargo drawn from the bag",
}


def describe(reveal: tuple[str, str] | None) -> str:
    """A reveal in words: ``("card", "MS")`` -> ``"a card drawn (MS)"``; the name, if any, is what
    became known (public since). ``None`` -> ``"something revealed"``.

    Raises:
        KeyError: an unknown kind (an engine bug).
    """
    if reveal is None:
        return "something revealed"
    kind, name = reveal
    text = REVEAL_TEXT[kind]
    return f"{text} ({name})" if name else text


class UndoFloor:
    """How far back an undo may take a game being played: never before its latest reveal.

    Feed it the state after every action (:meth:`after`); :meth:`refusal` says why keeping only the
    first ``keep`` actions is not allowed, or ``None`` when it is.

    Attributes:
        floor: the fewest actions an undo may keep (0: the game's start); the number of actions
            after which the latest reveal happened.
        count: ``state.reveals`` after the latest action fed.
        what: ``state.last_reveal`` at :attr:`floor` (``None`` before any reveal).
    """

    __slots__ = ("count", "floor", "what")

    def __init__(self, state: Any):
        """Start at a game's first position ``state`` (its set-up's draws are before any action)."""
        self.count = state.reveals
        self.floor = 0
        self.what: tuple[str, str] | None = None

    def after(self, n: int, state: Any) -> None:
        """``state`` is the position after the game's ``n``-th action (from 1)."""
        if state.reveals != self.count:
            self.count = state.reveals
            self.floor = n
            self.what = state.last_reveal

    def refusal(self, keep: int, state: Any) -> str | None:
        """Why an undo that keeps the first ``keep`` actions of the game now at ``state`` is refused
        (one line, for the player), or ``None`` when it is allowed."""
        if state.is_over:
            return "the game is over"
        if keep < self.floor:
            return f"undo would go back past {describe(self.what)}"
        return None
