"""Issue 34: the C parts (``_listing``, ``_routes``, ``_stockpile``, ``_turn``, ``_walk``'s Seat)
read (and ``_turn`` writes) the state's attributes straight in its ``__dict__`` only where its type
lets them (``DictFit`` in ``_cread.h``: generic attribute access, no class attribute of those
names); a subclass of ``FreightState`` with a property of one of those names must be read through
``getattr`` (the C parts fall back), and plays the very same games.

The property keeps the real value elsewhere and leaves a stale decoy in the instance ``__dict__``
under its name: a C part that read (or wrote) the dict instead of taking the fallback would list,
draw or store something else, and the game's digest would differ.
"""

from __future__ import annotations

import pytest

from rolling.bots import make_bot
from rolling.games.freight import Config, new_game
from rolling.games.freight.state import FreightState
from rolling.sim import play_game


def decoy(name: str, value):
    """A stale, wrong stand-in for ``value`` (kept in the instance dict under ``name``)."""
    if name == "players":
        return value[1:] + value[:1]  # every seat another player
    if isinstance(value, list):
        return [x + 1 for x in value]  # (and the real list changes in place: this copy does not)
    return value + 1000


def shadowed_class(name: str) -> type:
    real = "_real_" + name

    def get(self):
        type(self).reads += 1
        return self.__dict__[real]

    def put(self, value):
        self.__dict__[real] = value
        self.__dict__[name] = decoy(name, value)

    return type(f"Shadowed_{name}", (FreightState,), {"reads": 0, name: property(get, put)})


def play(seed: int, cls: type | None):
    state = new_game(Config("west-coast", 3), seed)
    if cls is not None:
        state.__class__ = cls
        value = state.__dict__.pop(name_of(cls))
        setattr(state, name_of(cls), value)
    play_game(state, [make_bot("freight", "random", 7 * seed + i) for i in range(3)])
    return state.turn, state.digest()


def name_of(cls: type) -> str:
    return cls.__name__.removeprefix("Shadowed_")


@pytest.mark.parametrize("name", ["players", "cubes", "supply", "turn", "steady_used", "routes_done"])
def test_a_property_of_a_subclass_is_read_through_getattr(name):
    """Same games as plain FreightState (digests equal) with the property read each time."""
    cls = shadowed_class(name)
    for seed in (1, 2):
        assert play(seed, cls) == play(seed, None)
    assert cls.reads > 0


def test_a_plain_subclass_reads_the_dict_and_plays_the_same_games():
    """A subclass without class attributes of those names fits (and plays the same games)."""
    cls = type("Plain", (FreightState,), {"note": property(lambda self: "x")})
    state = new_game(Config("west-coast", 3), 3)
    state.__class__ = cls
    play_game(state, [make_bot("freight", "random", 21 + i) for i in range(3)])
    assert (state.turn, state.digest()) == play(3, None)
