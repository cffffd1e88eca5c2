"""Bots for every game, found by game and name, and the seat vocabulary of ``play`` and ``simulate``.

Usage::

    from rolling.bots import make_bot
    bot = make_bot("freight", "heuristic", seed=7)
    action = bot.choose(state, seat)
    why = bot.last_reason          # a one-line reason for that action, or None

The registry :data:`BOTS` maps a game and a bot name to ``"module:Class"``; a bot's module is
imported only when the bot is first asked for, and other code may add bots with :func:`register`.
Every bot class is built as ``cls(seed=...)`` and follows :class:`~rolling.bots.base.Bot`.

Names: ``bot`` is the strongest bot of the game: in batches (``simulate``) the strongest fast bot
(:data:`STRONGEST`), where people play the strongest with a budget for a person waiting
(:data:`PLAY`: the search bots); ``bot:NAME`` and ``NAME`` are
the bot ``NAME``; a bot that takes a budget (the search bots) is also written ``NAME:BUDGET``
(``search:2000`` iterations, ``search:0.2s`` per decision), and the registry name then keeps the
budget in its canonical form. Seats (:mod:`rolling.bots.seats`) add ``human``.

Reasons: after ``choose`` a bot's ``last_reason`` is a short sentence about the move it just chose
(``"bids up to $18 for MHE: synergies with MS and BY"``; the search bots name their top
alternatives with their visits and values) or ``None`` when it has nothing to say. It is a
:class:`~rolling.bots.reasons.Reason`: the full text, the bot's own view with its limits and
valuations, and a public part without them (``"bids for MHE: synergies with MS and BY"``). The
front ends show it with the move: the terminal prints it dimmed after the move's lines of the log,
the web app stores it with the action and shows it under them in the log. While the game goes on
everyone at the table and watching reads the public part, so that nobody can exploit a bot's plan;
once the game is over, the full text (:func:`rolling.bots.reasons.shown_reason`, the one rule).
"""

from __future__ import annotations

import importlib

from .base import Bot, SeatError, UnknownBot

#: game -> bot name -> "module:Class" (or the class itself once imported or registered directly)
BOTS: dict[str, dict[str, object]] = {
    "stars": {
        "random": "rolling.bots.stars_random:StarsRandomBot",
        "heuristic": "rolling.bots.stars_heuristic:StarsHeuristicBot",
        "search": "rolling.bots.stars_search:StarsSearchBot",
        "vsearch": "rolling.bots.stars_search:StarsValueSearchBot",
    },
    "freight": {
        "random": "rolling.bots.freight:FreightRandomBot",
        "heuristic": "rolling.bots.freight:FreightHeuristicBot",
        "search": "rolling.bots.freight_search:FreightSearchBot",
        "vsearch": "rolling.bots.freight_search:FreightValueSearchBot",
    },
    "market": {
        "random": "rolling.bots.market:MarketRandomBot",
        "heuristic": "rolling.bots.market:MarketHeuristicBot",
        "policy": "rolling.bots.market_policy:MarketPolicyBot",
        "value": "rolling.bots.market_value:MarketValueBot",
    },
}

#: game -> the name of its strongest bot for batches, what the seat ``bot`` means in ``simulate``
#: (fast enough for hundreds of thousands of games)
STRONGEST: dict[str, str] = {"stars": "heuristic", "freight": "heuristic", "market": "value"}

#: game -> what the seat ``bot`` means where people play (``rolling play`` and the web app): the
#: strongest bot with a budget suited to a person waiting (docs/strength.md: the search with the
#: learned evaluation, issue 34); games not listed use :data:`STRONGEST`
PLAY: dict[str, str] = {"stars": "vsearch:0.5s", "freight": "vsearch:0.5s"}


def register(game: str, name: str, target: object, strongest: bool = False) -> None:
    """Add a bot: ``target`` is a class or a ``"module:Class"`` string (imported when first used).

    ``strongest`` makes it what the name ``bot`` means for ``game`` (so does being its first bot).
    """
    BOTS.setdefault(game, {})[name] = target
    if strongest or game not in STRONGEST:
        STRONGEST[game] = name


def bot_names(game: str) -> list[str]:
    """The names of the bots known for ``game`` (empty for a game without bots)."""
    return list(BOTS.get(game, {}))


def known_bots(game: str) -> str:
    """``"random, heuristic, search; bot = heuristic"``: the bots of ``game`` for an error message
    (``bot = vsearch:0.5s where people play, heuristic in simulate`` when the two differ)."""
    names = bot_names(game)
    if not names:
        return f"{game} has no bots"
    play = PLAY.get(game, STRONGEST[game])
    if play == STRONGEST[game]:
        return f"{', '.join(names)}; bot = {STRONGEST[game]}"
    return f"{', '.join(names)}; bot = {play} where people play, {STRONGEST[game]} in simulate"


def resolve_bot(game: str, word: str, play: bool = False) -> str:
    """The registry name meant by ``word``: ``bot`` (the strongest: :data:`PLAY`'s where people
    ``play``, else :data:`STRONGEST`'s), ``bot:NAME`` or ``NAME``, and ``NAME:BUDGET`` for a bot
    that takes a budget (case and surrounding spaces ignored); the budget comes back in canonical
    form (``search:0.2s``).

    Raises:
        UnknownBot: ``game`` has no bots, or no bot of that name.
        SeatError: a budget for a bot that takes none, or one that cannot be read.
    """
    table = BOTS.get(game)
    if not table:
        known = ", ".join(sorted(BOTS))
        raise UnknownBot(f"no bots for game {game!r} (games with bots: {known})")
    w = word.strip().lower()
    if w == "bot":
        return PLAY.get(game, STRONGEST[game]) if play else STRONGEST[game]
    name = w[4:] if w.startswith("bot:") else w
    base, sep, option = name.partition(":")
    if base not in table:
        raise UnknownBot(f"unknown {game} bot {word.strip()!r} (known: {known_bots(game)})")
    if not sep:
        return base
    cls = get_bot_class(game, base)
    if not hasattr(cls, "DEFAULT_BUDGET"):
        raise SeatError(f"bot {base!r} takes no budget (only search bots do: search:2000, search:0.2s)")
    from .ismcts import parse_budget

    return f"{base}:{parse_budget(option)}"


def get_bot_class(game: str, name: str) -> type:
    """The bot class that ``name`` (see :func:`resolve_bot`; a budget is ignored) means for ``game``.

    Raises:
        UnknownBot: no such game or bot (the message lists the known ones).
    """
    name = resolve_bot(game, name).partition(":")[0]
    table = BOTS[game]
    target = table[name]
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
        table[name] = target
    return target  # type: ignore[return-value]


def make_bot(game: str, name: str, seed: int = 0) -> Bot:
    """A new bot of ``game`` called ``name`` (``bot``, ``bot:NAME``, ``NAME`` or ``NAME:BUDGET``),
    seeded with ``seed``.

    Raises:
        UnknownBot: no such game or bot (the message lists the known ones).
        SeatError: a budget the bot does not take or that cannot be read.
    """
    name = resolve_bot(game, name)
    base, _, budget = name.partition(":")
    cls = get_bot_class(game, base)
    return cls(seed=seed, budget=budget) if budget else cls(seed=seed)


from .seats import HUMAN, OPEN, default_names, default_seats, parse_seats  # noqa: E402

__all__ = [
    "BOTS",
    "HUMAN",
    "OPEN",
    "PLAY",
    "STRONGEST",
    "Bot",
    "SeatError",
    "UnknownBot",
    "bot_names",
    "default_names",
    "default_seats",
    "get_bot_class",
    "known_bots",
    "make_bot",
    "parse_seats",
    "register",
    "resolve_bot",
]
