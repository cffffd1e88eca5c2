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
from rolling.core.memo import Recent

from . import events as E
from .components import COLOUR_INDEX, face

RULE = "F. Stockpiling Resources"


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


def _markers(counts, penalty: int, supply) -> list[int]:
    return [min(max(0, n - penalty), supply[k]) for k, n in enumerate(counts)]


def gains(state, seat: int, choices: list[str]) -> list[int]:
    """Markers per colour the player takes, given a colour for each split die (in die order)."""
    counts, _ = _counts(state, seat)
    for c in choices:
        counts[COLOUR_INDEX[c]] += 1
    penalty = 0 if state.players[seat].has("Efficient Storage") else 1
    return _markers(counts, penalty, state.supply)


def _compositions(total: int, parts: int):
    """Every way to write ``total`` as ``parts`` ordered non-negative numbers, first part largest first."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


#: the stockpile options already found, by what they depend on (the seat's dice, which are
#: spent, the Efficient Storage in effect, the supply): a search asks again and again (small, as
#: :data:`.payways._FRONTS`)
_OPTIONS = Recent(1000)


def options(state, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each distinct stockpile outcome as ``(store string, markers per colour)``, most markers first.

    Only how many split dice of each colour pair go to each colour matters, so the search runs
    over those counts (at most a few hundred ways for nine dice) rather than over every die's
    choice; it is exhaustive, so the first entry gives the most markers there are. Among equal
    totals the order is that of the enumeration: dice grouped by colour pair in die order, each
    pair's colour earlier in blue, gray, red, yellow taking as many dice as it can first.
    Remembered by what it depends on, and shared: read only.
    """
    p = state.players[seat]
    storage = p.improvements.count("Efficient Storage")
    # die kinds matter only with two Efficient Storage (a basic split die stores both colours)
    key = (tuple(p.dice), tuple(p.spent), tuple(p.die_kinds) if storage >= 2 else None, min(storage, 2),
           tuple(state.supply))
    got = _OPTIONS.get(key)
    if got is None:
        got = _options(state, seat)
        _OPTIONS.put(key, got)
    return got


def _options(state, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """:func:`options` worked out."""
    p = state.players[seat]
    counts, splits = _counts(state, seat)
    penalty = 0 if p.has("Efficient Storage") else 1
    groups: dict[tuple[str, ...], list[int]] = {}
    for i in splits:
        groups.setdefault(tuple(sorted(face(p.dice[i]).colours, key=COLOUR_INDEX.get)), []).append(i)
    keys = list(groups)
    seen: dict[tuple[int, ...], str] = {}
    for alloc in product(*[list(_compositions(len(groups[k]), len(k))) for k in keys]):
        n = counts[:]
        colour_of: dict[int, str] = {}
        for k, parts in zip(keys, alloc, strict=True):
            dice = iter(groups[k])
            for c, m in zip(k, parts, strict=True):
                n[COLOUR_INDEX[c]] += m
                for _ in range(m):
                    colour_of[next(dice)] = c
        g = tuple(_markers(n, penalty, state.supply))
        if g not in seen:
            seen[g] = ",".join(colour_of[i] for i in splits)
    out = [(store, g) for g, store in seen.items()]
    out.sort(key=lambda x: -sum(x[1]))
    return tuple(out)


def auto_choices(state, seat: int) -> list[str]:
    """The engine's choice: a colour for each split die giving the most markers of all choices
    (the first of :func:`options`)."""
    _, splits = _counts(state, seat)
    if not splits:
        return []
    return options(state, seat)[0][0].split(",")


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
            raise IllegalAction(RULE, f"die {i + 1} ({p.dice[i]}) cannot be stored as {w}")
    return words


def stockpile(state, seat: int, choices: list[str]) -> None:
    """Take the markers from the supply."""
    g = gains(state, seat, choices)
    p = state.players[seat]
    for k, n in enumerate(g):
        p.markers[k] += n
        state.supply[k] -= n
    if any(g) and state.log is not None:
        state.log.append((E.STOCKPILE, E.PUBLIC, seat, tuple(g)))
