"""F. Stockpiling resources.

Unused dice turn into markers: per colour, one fewer marker than dice left (with Efficient
Storage: one per die). A die showing two colours counts toward one colour of the player's
choice (with two Efficient Storage, a basic die showing two colours counts for both). Dice
showing no colour (improvement-die symbols, the wild symbol included) are not stored. The supply
holds six markers per colour; none left, none taken.
"""

from __future__ import annotations

from itertools import product

from rolling.core.errors import IllegalAction

from .components import COLOUR_INDEX, COLOURS, face

RULE = "F. Stockpiling Resources"
#: beyond this many split dice only the engine's choice is listed among the legal actions
MAX_LISTED_SPLITS = 6


def _counts(state, seat: int) -> tuple[list[int], list[int]]:
    """Plain counts per colour, and the unspent split dice whose colour the player chooses."""
    p = state.players[seat]
    both = p.has("Efficient Storage") >= 2
    counts = [0, 0, 0, 0]
    splits = []
    for i, name in enumerate(p.dice):
        if p.spent[i]:
            continue
        f = face(name)
        if f.kind != "colour":
            continue
        if len(f.colours) == 1:
            counts[COLOUR_INDEX[f.colours[0]]] += 1
        elif both and p.die_kinds[i] == "basic":
            for c in f.colours:
                counts[COLOUR_INDEX[c]] += 1
        else:
            splits.append(i)
    return counts, splits


def gains(state, seat: int, choices: list[str]) -> list[int]:
    """Markers per colour the player takes, given a colour for each split die (in die order)."""
    counts, splits = _counts(state, seat)
    counts = counts[:]
    for c in choices:
        counts[COLOUR_INDEX[c]] += 1
    penalty = 0 if state.players[seat].has("Efficient Storage") else 1
    return [min(max(0, n - penalty), state.supply[k]) if n else 0 for k, n in enumerate(counts)]


def options(state, seat: int) -> list[tuple[str, list[int]]]:
    """Each distinct stockpile outcome as ``(store string, markers per colour)``, best first."""
    p = state.players[seat]
    _, splits = _counts(state, seat)
    if len(splits) > MAX_LISTED_SPLITS:
        choices = auto_choices(state, seat)
        return [(",".join(choices), gains(state, seat, choices))]
    seen = {}
    for combo in product(*[face(p.dice[i]).colours for i in splits]):
        g = gains(state, seat, list(combo))
        key = tuple(g)
        if key not in seen:
            seen[key] = ",".join(combo)
    out = [(s, list(g)) for g, s in seen.items()]
    out.sort(key=lambda x: -sum(x[1]))
    return out


def auto_choices(state, seat: int) -> list[str]:
    """The engine's choice: each split die to the colour that yields the most markers (greedy)."""
    p = state.players[seat]
    _, splits = _counts(state, seat)
    choices: list[str] = []
    for i in splits:
        best = None
        for c in face(p.dice[i]).colours:
            g = sum(gains(state, seat, choices + [c]))
            if best is None or g > best[0]:
                best = (g, c)
        choices.append(best[1])
    return choices


def parse_store(state, seat: int, text: str) -> list[str]:
    """Read a ``store`` string: one colour per unspent split die, in die order ("" = engine's choice).

    Raises:
        IllegalAction: wrong number of colours, or a colour the die does not show.
    """
    p = state.players[seat]
    _, splits = _counts(state, seat)
    if not text.strip():
        return auto_choices(state, seat)
    words = text.replace(",", " ").split()
    if len(words) != len(splits):
        raise IllegalAction(RULE, f"name one colour for each of your {len(splits)} unspent split dice")
    for i, w in zip(splits, words, strict=True):
        if w not in face(p.dice[i]).colours:
            raise IllegalAction(RULE, f"die {i} ({p.dice[i]}) cannot be stored as {w}")
    return words


def stockpile(state, seat: int, choices: list[str]) -> None:
    """Take the markers from the supply."""
    g = gains(state, seat, choices)
    p = state.players[seat]
    for k, n in enumerate(g):
        p.markers[k] += n
        state.supply[k] -= n
    if any(g):
        state.say(f"  {state.name(seat)} stockpiles " + ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(g) if n))
