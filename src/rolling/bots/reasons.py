"""A bot's reason has a public part and a private part; one rule says who reads which (issue 28 item 7).

A bot's ``last_reason`` explains the move it just chose. Part of it is the bot's plan: the most it
will bid, what a company or a trade is worth to it, its search's statistics (iterations, visits,
values of the alternatives). Shown to its opponents while the game goes on, that plan lets them
exploit the bot ("bids up to $12": raise to $12 and it pays the most it will). So a reason is a
:class:`Reason`: its full text (the ``str`` itself, what the bot means) and ``public``, what it did
and why in words that give no plan away (``"bids for MS: its income for the turns left"``).

The one rule, :func:`shown_reason`, used by the terminal (:mod:`rolling.ui.session`) and the web app
(:mod:`rolling.web.service`): while the game goes on every viewer, players and spectators alike,
reads the public part; once the game is over, the full text (history, records). A game narrated
with nobody at the table (bots only, at the terminal) has nobody to exploit the bots: the narration
gives the full text. A plain ``str`` reason (a bot that does not split its reason) counts as all
private: it shows only once the game is over.

The public part never states a bot's money or limits, so the Stars secret-money variant (002,
3.2: "secret private money") needs no rule of its own: before, the reasons were held back whole
there, since a heuristic that leaves an auction of a company worth more to it than the bid tells
that it cannot pay more.

Stored (the web app's ``bot_reasons`` table), a reason is one text: :func:`encode` and
:func:`decode`.
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    """A bot's reason: the ``str`` is the full text (its plan included); :attr:`public` is the part
    anyone may read while the game goes on (``""``: nothing).

    Args:
        full: the whole reason, e.g. ``"bids up to $12 for MS: its income for the turns left"``.
        public: what it did and why without the plan, e.g. ``"bids for MS: its income for the turns left"``.
    """

    public: str

    def __new__(cls, full: str, public: str = "") -> Reason:
        r = super().__new__(cls, full)
        r.public = public
        return r

    def __reduce__(self):  # pickling (worker processes) keeps the public part
        return (Reason, (str(self), self.public))


def public_reason(text: str) -> Reason:
    """A reason with nothing private in it (the public part is the whole text)."""
    return Reason(text, text)


def shown_reason(reason: str | None, over: bool, private_ok: bool = False) -> str | None:
    """What a viewer reads of a bot's ``reason`` (``None``: nothing).

    Args:
        reason: a :class:`Reason`, a plain ``str`` (all private) or ``None``.
        over: the game is over: everyone reads the full text.
        private_ok: nobody at the table could use the bot's plan (a game of bots only narrated at
            the terminal): the full text too.

    Returns:
        the full text when ``over`` or ``private_ok``; else the public part, or ``None`` when it
        is empty or the reason is a plain ``str``.
    """
    if not reason:
        return None
    if over or private_ok:
        return str(reason)
    return getattr(reason, "public", "") or None


def encode(reason: str, limit: int | None = None) -> str:
    """One text for storage: the public part, a newline, the full text (each on one line, cut to
    ``limit`` characters); a plain ``str`` is stored as its one line (all private)."""
    def line(t: str) -> str:
        t = " ".join(str(t).split())
        return t[:limit] if limit else t

    public = getattr(reason, "public", None)
    if public is None:
        return line(reason)
    return f"{line(public)}\n{line(reason)}"


def decode(text: Any) -> Reason:
    """A stored reason back (see :func:`encode`); one line without a public part is all private."""
    text = str(text)
    if "\n" in text:
        public, full = text.split("\n", 1)
        return Reason(full, public)
    return Reason(text, "")
