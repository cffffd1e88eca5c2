"""H. Rolling your dice: each player's basic dice plus one die per Extra Resources improvement."""

from __future__ import annotations

import os

from rolling.core.rng import Rng

try:  # the roll in C (issue 34), optional: :func:`_draw_py` is the reference
    if os.environ.get("ROLLING_PURE_PYTHON"):  # read once, at import
        raise ImportError
    from ._dice import roll as _roll_c
except ImportError:
    _roll_c = None


def compiled() -> bool:
    """Whether :func:`roll_all` rolls through the optional C part ``_dice`` (built by ``setup.py``
    where a C compiler is found, and ``ROLLING_PURE_PYTHON`` not set); the faces and the draws are
    the same either way (:func:`_draw_py`)."""
    return _roll_c is not None


def die_set(state, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """The dice a player rolls: ``[(kind, faces), ...]``, six basic ones then improvement dice.

    ``kind`` is ``"basic"`` or the improvement die's colour.
    """
    comp = state.comp
    out = [("basic", faces) for faces in comp.basic_dice]
    for name in state.players[seat].improvements:
        die = comp.improvements[name].die
        if die:
            out.append((die, comp.improvement_dice[die]))
    return out


def roll_die(state, faces: tuple[str, ...]) -> str:
    """Roll one die (the state's generator); returns the face showing."""
    return faces[state.rng.below(len(faces))]


#: a player's improvements in order -> ``(components, kinds, faces, bounds)`` of :func:`die_set`
#: (each die's kind, faces and number of faces), for the components named (issue 34: the set
#: changes only when an improvement is bought, and every turn rolls it); bounded
_SETS: dict[tuple[str, ...], tuple] = {}


def _dice_set(state, names: tuple) -> tuple:
    """``(components, kinds, faces, bounds)`` of :func:`die_set` for a player holding the
    improvements ``names`` (in effect, in order): kept in :data:`_SETS`."""
    comp = state.comp
    got = _SETS.get(names)
    if got is None or got[0] is not comp:
        dice = [("basic", faces) for faces in comp.basic_dice]
        for name in names:
            die = comp.improvements[name].die
            if die:
                dice.append((die, comp.improvement_dice[die]))
        if len(_SETS) >= 1000:  # far more than the improvement sets of a game
            _SETS.clear()
        got = _SETS[names] = (comp, tuple([k for k, _ in dice]), tuple([faces for _, faces in dice]),
                              [len(faces) for _, faces in dice])
    return got


def roll_all(state, seat: int) -> None:
    """H: roll all the player's dice, improvement dice included; nothing is spent afterwards."""
    p = state.players[seat]
    _, kinds, faces, bounds = _dice_set(state, tuple(p.improvements))
    rng = state.rng
    dice = None
    if _roll_c is not None and type(rng) is Rng:  # the same draws and faces (tests: _draw_py)
        done = _roll_c(rng.state, faces)
        if done is not None:
            rng.state = done[0]
            dice = done[1]
    if dice is None:
        dice = _draw_py(rng, faces, bounds)
    p.die_kinds = list(kinds)
    p.dice = dice
    p.spent = [False] * len(p.dice)
    state.reveals += 1
    state.last_reveal = ("dice", "")


def _draw_py(rng, faces: tuple, bounds: list) -> list[str]:
    """The faces showing after :func:`roll_die` of each die in order (``faces``: each die's faces,
    ``bounds``: their numbers), drawn at once (Rng.draws: the same draws; it reads bounds only):
    the reference of the C part."""
    rolled = rng.draws(bounds)
    return [faces[j][rolled[j]] for j in range(len(faces))]  # no zip: a call with a keyword


def add_die(state, seat: int, colour: str) -> None:
    """Roll an improvement die gained in the opening draft at once and add it to the player's dice."""
    p = state.players[seat]
    p.die_kinds.append(colour)
    p.dice.append(roll_die(state, state.comp.improvement_dice[colour]))
    p.spent.append(False)
    state.reveals += 1
    state.last_reveal = ("dice", "")
