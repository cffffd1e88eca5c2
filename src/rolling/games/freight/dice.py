"""H. Rolling your dice: each player's basic dice plus one die per Extra Resources improvement."""

from __future__ import annotations


def die_set(state, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """The dice a player rolls: ``[(kind, faces), ...]``, six basic ones then improvement dice.

    ``kind`` is ``"basic"`` or the improvement die's colour.
    """
    _, kinds, faces, _ = _dice_set(state, tuple(state.players[seat].improvements))
    return list(zip(kinds, faces, strict=True))


def roll_die(state, faces: tuple[str, ...]) -> str:
    """Roll one die (the state's generator); returns the face showing."""
    return faces[state.rng.below(len(faces))]


#: a player's improvements in order -> ``(components, kinds, faces, bounds)`` of :func:`die_set`
#: (each die's kind, faces and number of faces), for the components named (issue 34: the set
#: changes only when an improvement is bought, and every turn rolls it); bounded
_SETS: dict[tuple[str, ...], tuple] = {}


def _dice_set(state, names: tuple) -> tuple:
    """``(components, kinds, faces, bounds)`` of the dice of a player holding the improvements
    ``names`` (in effect, in order): six basic dice, then each improvement's die; kept in
    :data:`_SETS` (the end of a turn in C, ``_turn.c``, reads and fills the same memo)."""
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
    # roll_die for each die in order, drawn at once (Rng.draws: the same draws; it reads bounds only)
    rolled = state.rng.draws(bounds)
    p.die_kinds = list(kinds)
    p.dice = [faces[j][rolled[j]] for j in range(len(faces))]  # no zip: a call with a keyword
    p.spent = [False] * len(p.dice)
    state.reveals += 1
    state.last_reveal = ("dice", "")


def add_die(state, seat: int, colour: str) -> None:
    """Roll an improvement die gained in the opening draft at once and add it to the player's dice."""
    p = state.players[seat]
    p.die_kinds.append(colour)
    p.dice.append(roll_die(state, state.comp.improvement_dice[colour]))
    p.spent.append(False)
    state.reveals += 1
    state.last_reveal = ("dice", "")
