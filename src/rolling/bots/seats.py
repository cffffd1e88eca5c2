"""The seat vocabulary of ``rolling play`` and ``rolling simulate``, for every game, parsed here only.

A seat is written ``human``, ``bot`` (the strongest bot of the game), ``bot:NAME`` or a bare bot
name (``random``, ``heuristic``), case-insensitive; a seat list is those words separated by commas
(``human,bot,bot:random``). Parsed, a seat is ``"human"`` or a bot's registry name, which is what
game records keep in ``meta["seats"]``.

Players are numbered from 1 wherever a person reads them: seat ``k`` (0-based in the engines) is
player ``k + 1``, and its default name is ``Player k+1`` for a human, ``Heuristic k+1`` or
``Random k+1`` for a bot.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import SeatError, UnknownBot

#: the seat of a person at the keyboard
HUMAN = "human"
#: a seat of a web game that waits for a person to take it from the lobby (issue 31)
OPEN = "open"


def parse_seat(game: str, word: str, number: int, humans: bool = True, open_seats: bool = False) -> str:
    """One seat: ``"human"``, ``"open"`` (where ``open_seats``) or the registry name of a bot of ``game``.

    Args:
        game: the game's registry name.
        word: what was typed for the seat.
        number: the seat's number from 1, for the message.
        humans: whether ``human`` is allowed (not in ``simulate``).
        open_seats: whether ``open`` is allowed (a web game's seat taken from the lobby).

    Raises:
        SeatError: an unknown seat, or ``human`` where only bots may sit.
    """
    from . import known_bots, resolve_bot

    w = word.strip().lower()
    if w == HUMAN:
        if not humans:
            raise SeatError(f"seat {number} is human, but only bots play here (bots: {known_bots(game)})")
        return HUMAN
    if w == OPEN and humans and open_seats:
        return OPEN
    try:
        return resolve_bot(game, w, play=humans)
    except UnknownBot:
        what = "seat" if humans else "bot"
        use = "human, bot, bot:NAME or NAME" if humans else "bot, bot:NAME or NAME"
        raise UnknownBot(
            f"unknown {what} {word.strip()!r} (seat {number}): use {use}; {game} bots: {known_bots(game)}"
        ) from None


def parse_seats(
    game: str,
    spec: str | Sequence[str] | None,
    players: int | None = None,
    default_players: int | None = None,
    humans: bool = True,
    open_seats: bool = False,
) -> list[str]:
    """Parse a seat list (``"human,bot,bot:random"`` or a list of words), one entry per player.

    Without ``spec`` the seats are :func:`default_seats` for ``players`` (or ``default_players``).
    Whether the game can be played by that many is the game's config to check, not this function's.

    Raises:
        SeatError: an unknown seat, ``human`` where only bots may sit, no seats at all, or a count
            that disagrees with ``players`` (``--players``). ``open`` is a seat only where
            ``open_seats`` (the web).
    """
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        n = players if players is not None else default_players
        if n is None:
            raise SeatError("no seats given")
        return default_seats(game, n, humans)
    words = spec.split(",") if isinstance(spec, str) else list(spec)
    words = [w for w in words if w.strip()]
    if not words:
        raise SeatError("no seats given")
    seats = [parse_seat(game, w, k, humans, open_seats) for k, w in enumerate(words, 1)]
    if players is not None and players != len(seats):
        raise SeatError(f"--players {players} but --seats names {len(seats)} seat{'s' if len(seats) != 1 else ''}")
    return seats


def default_seats(game: str, players: int, humans: bool = True) -> list[str]:
    """``players`` seats: a human first (when ``humans``), then the strongest bot of ``game`` (where
    people play, :data:`~rolling.bots.PLAY`'s; in batches, :data:`~rolling.bots.STRONGEST`'s)."""
    from . import PLAY, STRONGEST

    if players < 1:
        raise SeatError(f"a game needs at least one player, not {players}")
    bot = PLAY.get(game, STRONGEST[game]) if humans else STRONGEST[game]
    return ([HUMAN] if humans else [bot]) + [bot] * (players - 1)


def default_names(seats: Sequence[str]) -> list[str]:
    """Names numbered from 1: ``Player 1`` for a human (or an open seat), ``Heuristic 2`` for a heuristic bot."""
    return [f"Player {k}" if kind in (HUMAN, OPEN) else f"{kind.partition(':')[0].capitalize()} {k}"
            for k, kind in enumerate(seats, 1)]
