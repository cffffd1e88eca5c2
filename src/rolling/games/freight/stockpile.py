"""F. Stockpiling resources.

Unused dice turn into markers: per colour, one fewer marker than dice left (with Efficient
Storage: one per die). A die showing two colours counts toward one colour of the player's
choice (with two Efficient Storage, a basic die showing two colours counts for both). Dice
showing no colour (improvement-die symbols, the wild symbol included) are not stored. The supply
holds six markers per colour; none left, none taken.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import events as E
from .components import COLOUR_INDEX, COLOURS, face

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


#: bits per colour in a packed count vector (colour k at bits 8k..8k+7): a player has about a
#: dozen dice, so no count nears 256 and adding packed vectors never carries into the next colour
_BITS = 8
_MASK = (1 << _BITS) - 1

#: each face name as :func:`options` reads it: a plain colour as its packed count (one die of
#: that colour), a symbol as 0 (never stored), a split face as ``-1 - k`` for its entry ``k`` in
#: :data:`_SPLITS`
_FACE_CODE: dict[str, int] = {}
#: the split faces met so far, as (colour indices in colour order, packed count of one die of
#: each of them): "gray/blue" and "blue/gray" are one entry
_SPLITS: list[tuple[tuple[int, ...], int]] = []


def _face_code(name: str) -> int:
    """The :data:`_FACE_CODE` of a face name, worked out once."""
    f = face(name)
    if f.kind != "colour":
        code = 0
    elif len(f.colours) == 1:
        code = 1 << (_BITS * COLOUR_INDEX[f.colours[0]])
    else:
        colours = tuple(sorted(COLOUR_INDEX[c] for c in f.colours))
        entry = (colours, sum(1 << (_BITS * k) for k in colours))
        if entry not in _SPLITS:
            _SPLITS.append(entry)
        code = -1 - _SPLITS.index(entry)
    _FACE_CODE[name] = code
    return code


#: (split face code, dice showing it) -> (each composition's packed counts, each composition's
#: colour name per die of the group in die order, the same joined by commas), compositions in
#: :func:`_compositions` order
_GROUPS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]] = {}


def _group(code: int, n: int) -> tuple[tuple[int, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The :data:`_GROUPS` entry of ``n`` dice showing the split face ``code``, worked out once."""
    colours = _SPLITS[-1 - code][0]
    packed = []
    names = []
    for parts in _compositions(n, len(colours)):
        packed.append(sum(m << (_BITS * k) for k, m in zip(colours, parts, strict=True)))
        names.append(tuple(COLOURS[k] for k, m in zip(colours, parts, strict=True) for _ in range(m)))
    got = _GROUPS[code, n] = (tuple(packed), tuple(names), tuple(",".join(x) for x in names))
    return got


#: (penalty, supply of a colour) -> the markers of that colour taken for each count of dice
#: (``min(max(0, count - penalty), supply)``, counts up to :data:`_MASK`): looking a count up
#: costs about a tenth of working it out
_TAKEN: dict[tuple[int, int], tuple[int, ...]] = {}
#: (penalty, supply per colour) -> the :data:`_TAKEN` table of each colour
_TAKEN_ALL: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _taken(penalty: int, supply) -> tuple[tuple[int, ...], ...]:
    """The :data:`_TAKEN_ALL` entry of ``penalty`` and ``supply``, worked out once."""
    if len(_TAKEN_ALL) >= 20000:  # more than the 2 x 7**4 of a real supply: a test's arbitrary ones
        _TAKEN_ALL.clear()
        _TAKEN.clear()
    tables = []
    for s in supply:
        table = _TAKEN.get((penalty, s))
        if table is None:
            table = _TAKEN[penalty, s] = tuple(min(max(0, n - penalty), s) for n in range(_MASK + 1))
        tables.append(table)
    got = _TAKEN_ALL[(penalty, *supply)] = tuple(tables)
    return got


#: the split dice's numbers, group by group -> a format string naming its arguments (colours in
#: that order) in die order, comma-separated
_STORE_FORMATS: dict[tuple[int, ...], str] = {}


def _store_format(order: tuple[int, ...]) -> str:
    """The :data:`_STORE_FORMATS` entry of ``order``, worked out once."""
    if len(_STORE_FORMATS) >= 20000:
        _STORE_FORMATS.clear()
    got = _STORE_FORMATS[order] = ",".join(f"{{{order.index(i)}}}" for i in sorted(order))
    return got


def options(state, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each distinct stockpile outcome as ``(store string, markers per colour)``, most markers first.

    Only how many split dice of each colour pair go to each colour matters, so the search runs
    over those counts (at most a few hundred ways for nine dice) rather than over every die's
    choice; it is exhaustive, so the first entry gives the most markers there are. Among equal
    totals the order is that of the enumeration: dice grouped by colour pair in die order, each
    pair's colour earlier in blue, gray, red, yellow taking as many dice as it can first.

    The counts per colour are packed in one integer (:data:`_BITS` a colour), so an allocation's
    counts are the plain dice's packed counts plus one precomputed number per group of split dice
    (:data:`_GROUPS`), and the allocations are lists of sums and of stores built group by group in
    the order of ``itertools.product`` over the groups (the last group's the fastest; where the
    groups' dice interleave, of colours put in die order once an outcome is new); the markers of
    a count are looked up (:data:`_TAKEN`). Worked out afresh at each call: a memo by dice and
    supply hit too rarely along random games (about 7% of calls) to pay for its key.
    """
    p = state.players[seat]
    storage = p.improvements.count("Efficient Storage")
    both = storage >= 2
    codes = _FACE_CODE
    spent = p.spent
    base = 0
    groups: dict[int, list[int]] | None = None
    interleaved = False  # a split die joins its group after a die of another group
    last = 0
    for i, name in enumerate(p.dice):
        if spent[i]:
            continue
        code = codes.get(name)
        if code is None:
            code = _face_code(name)
        if code >= 0:
            base += code
        elif both and p.die_kinds[i] == "basic":
            base += _SPLITS[-1 - code][1]
        elif groups is None:
            groups = {code: [i]}
            last = code
        else:
            dice = groups.get(code)
            if dice is None:
                groups[code] = [i]
            else:
                dice.append(i)
                if code != last:
                    interleaved = True
            last = code
    penalty = 0 if storage else 1
    supply = state.supply
    tables = _TAKEN_ALL.get((penalty, *supply))
    if tables is None:
        tables = _taken(penalty, supply)
    t0, t1, t2, t3 = tables
    if groups is None:
        return (("", (t0[base & _MASK], t1[base >> _BITS & _MASK], t2[base >> 2 * _BITS & _MASK],
                      t3[base >> 3 * _BITS])),)
    items = iter(groups.items())
    code, dice = next(items)
    entry = _GROUPS.get((code, len(dice)))
    if entry is None:
        entry = _group(code, len(dice))
    out = []
    found = set()
    if len(groups) == 1:  # the commonest case with split dice: no lists to build
        for v, store in zip(entry[0], entry[2], strict=True):
            v += base
            g = (t0[v & _MASK], t1[v >> _BITS & _MASK], t2[v >> 2 * _BITS & _MASK], t3[v >> 3 * _BITS])
            if g not in found:
                found.add(g)
                out.append((store, g))
        if len(out) > 1:
            out.sort(key=_fewer_markers)
        return tuple(out)
    sums = [base + c for c in entry[0]]
    if not interleaved:
        # each group's dice come after the previous group's: the store is the groups' parts joined
        stores = entry[2]
        for code, dice in items:
            entry = _GROUPS.get((code, len(dice)))
            if entry is None:
                entry = _group(code, len(dice))
            sums = [v + c for v in sums for c in entry[0]]
            stores = [a + "," + b for a in stores for b in entry[2]]
        for v, store in zip(sums, stores, strict=True):
            g = (t0[v & _MASK], t1[v >> _BITS & _MASK], t2[v >> 2 * _BITS & _MASK], t3[v >> 3 * _BITS])
            if g not in found:
                found.add(g)
                out.append((store, g))
    else:
        # the colours group by group, put in die order by a format string once an outcome is new
        colours = entry[1]
        order = dice[:]
        for code, dice in items:
            entry = _GROUPS.get((code, len(dice)))
            if entry is None:
                entry = _group(code, len(dice))
            sums = [v + c for v in sums for c in entry[0]]
            colours = [a + b for a in colours for b in entry[1]]
            order += dice
        fmt = _STORE_FORMATS.get(tuple(order))
        if fmt is None:
            fmt = _store_format(tuple(order))
        for v, chosen in zip(sums, colours, strict=True):
            g = (t0[v & _MASK], t1[v >> _BITS & _MASK], t2[v >> 2 * _BITS & _MASK], t3[v >> 3 * _BITS])
            if g not in found:
                found.add(g)
                out.append((fmt.format(*chosen), g))
    if len(out) > 1:
        out.sort(key=_fewer_markers)
    return tuple(out)


def _fewer_markers(option: tuple[str, tuple[int, ...]]) -> int:
    """Sort key of an option: most markers first."""
    return -sum(option[1])


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
