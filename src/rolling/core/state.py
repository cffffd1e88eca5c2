"""The game-agnostic state protocol every rules engine implements.

A rules engine exposes ``new_game(config, seed) -> State``. The state is driven only through
``apply``; everything automatic (bank, foreign investor, dice, income...) runs inside ``apply``
until a seat must decide or the game is over.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol, runtime_checkable

from .action import Action


@runtime_checkable
class State(Protocol):
    """What every game state offers (see DESIGN.md, "The core API").

    - ``to_act``: the seats (0-based ints) that may act now; more than one in *any order* phases;
      empty when the game is over.
    - ``legal_actions(seat)``: every action that seat may take now (empty if none).
    - ``apply(action)``: apply a legal action, then run automatic steps. Raises
      :class:`~rolling.core.errors.IllegalAction` naming the broken rule; the state is then unchanged.
    - ``is_over``: the game has ended.
    - ``standings()``: list of ``{"seat", "score", "rank", "win"}`` dicts, best first, ties broken by
      the rules; ``win`` is the rules' verdict (rank 1 in most games; in the Stars two-handed variant
      both hands of the winning person), the one every consumer reads.
    - ``view(seat)``: a JSON-able dict of what that seat may see (``None``: an onlooker sees public facts).
    - ``clone()``: an independent copy, cheap.
    - ``digest()``: a stable hex hash of the full state, equal for equal states on every machine.
    - ``reveals``: how many times something hidden or random became known (a card drawn, dice
      rolled: :mod:`rolling.core.reveal`); ``last_reveal``: the latest, ``(kind, name)`` or
      ``None``. Undo never goes back past a reveal (:class:`rolling.core.reveal.UndoFloor`).
    """

    reveals: int
    last_reveal: tuple[str, str] | None

    @property
    def to_act(self) -> tuple[int, ...]: ...

    def legal_actions(self, seat: int) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    @property
    def is_over(self) -> bool: ...

    def standings(self) -> list[dict[str, Any]]: ...

    def view(self, seat: int | None = None) -> dict[str, Any]: ...

    def clone(self) -> State: ...

    def digest(self) -> str: ...


def stable_digest(obj: Any) -> str:
    """Hash a tree of ints, strs, bools, None, tuples, lists and dicts to a stable hex string.

    ``repr`` of these types is the same on every machine and Python version we support, so the
    hash of the canonical repr is a portable fingerprint. Dict keys are sorted first.
    """
    return hashlib.sha256(_canon(obj).encode()).hexdigest()


def _canon(obj: Any) -> str:
    if isinstance(obj, dict):
        return "{" + ",".join(f"{_canon(k)}:{_canon(v)}" for k, v in sorted(obj.items(), key=lambda kv: repr(kv[0]))) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(_canon(x) for x in obj) + "]"
    if isinstance(obj, (set, frozenset)):
        return "{" + ",".join(sorted(_canon(x) for x in obj)) + "}"
    return repr(obj)
