"""H. Rolling your dice: each player's basic dice plus one die per Extra Resources improvement."""

from __future__ import annotations


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


def roll_all(state, seat: int) -> None:
    """H: roll all the player's dice, improvement dice included; nothing is spent afterwards."""
    p = state.players[seat]
    dice = die_set(state, seat)
    # roll_die for each die in order, drawn at once (Rng.draws: the same draws)
    rolled = state.rng.draws([len(faces) for _, faces in dice])
    p.die_kinds = [k for k, _ in dice]
    p.dice = [dice[j][1][rolled[j]] for j in range(len(dice))]  # no zip: a call with a keyword
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
