"""F. Stockpiling resources.

Unused dice turn into markers: per colour, one fewer marker than dice left (with Efficient
Storage: one per die). A die showing two colours counts toward one colour of the player's
choice (with two Efficient Storage, a basic die showing two colours counts for both). Dice
showing no colour (improvement-die symbols, the wild symbol included) are not stored. The supply
holds six markers per colour; none left, none taken.
"""

from __future__ import annotations

import os

from rolling.core.errors import IllegalAction

from . import events as E
from .components import COLOUR_INDEX, COLOURS, face

try:  # the options in C (issue 34), optional: :func:`_options_py` is the reference
    if os.environ.get("ROLLING_PURE_PYTHON"):  # read once, at import
        raise ImportError
    from ._stockpile import options as _compiled
    from ._stockpile import options_of as _compiled_of
except ImportError:
    _compiled = _compiled_of = None

RULE = "F. Stockpiling Resources"


def compiled() -> bool:
    """Whether :func:`options` lists through the optional C part ``_stockpile`` (built by
    ``setup.py`` where a C compiler is found, and ``ROLLING_PURE_PYTHON`` not set); the options
    are the same either way (:func:`_options_py`)."""
    return _compiled_of is not None


def _counts(state, seat: int) -> tuple[list[int], list[int]]:
    """Plain counts per colour, and the unspent split dice whose colour the player chooses.

    Read by face code (:data:`_FACE_CODE`, as :func:`options` reads the dice): a plain colour
    counts one, a split basic die with two Efficient Storage one for each of its colours."""
    p = state.players[seat]
    both = "Efficient Storage" in p.improvements and p.improvements.count("Efficient Storage") >= 2
    base, splits, _codes = _read_dice(p, both)
    return [base & _MASK, base >> _BITS & _MASK, base >> 2 * _BITS & _MASK, base >> 3 * _BITS], splits


def _read_dice(p, both: bool) -> tuple[int, list[int], list[int]]:
    """Player ``p``'s unspent dice by face code (:data:`_FACE_CODE`): ``(packed counts of the
    plain colours, the split dice whose colour the player chooses, their face codes)``, both lists
    in die order. A plain colour counts one; a split basic die counts one for each of its colours
    when ``both`` (two Efficient Storage). The one reading of the dice for the options, the
    memos and the end of a turn's counts.

    Raises:
        ValueError: a face no die of the box shows (:func:`.components.face`)."""
    codes = _FACE_CODE
    spent = p.spent
    base = 0
    splits = []
    split_codes = []
    for i, name in enumerate(p.dice):
        if spent[i]:
            continue
        try:
            code = codes[name]
        except KeyError:
            code = _face_code(name)
        if code >= 0:
            base += code
        elif both and p.die_kinds[i] == "basic":
            base += _SPLITS[-1 - code][1]
        else:
            splits.append(i)
            split_codes.append(code)
    return base, splits, split_codes


def _markers(counts, penalty: int, supply) -> list[int]:
    """Markers per colour taken for ``counts`` dice per colour: ``min(max(0, count - penalty),
    supply)`` (worked out: once a turn, a table per supply would be built more often than read)."""
    return [min(max(0, counts[k] - penalty), supply[k]) for k in range(4)]


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


#: (split face code, dice showing it) -> ``(packed counts, colour of each die)`` of each way
#: to share the dice among the face's colours, in :func:`_compositions` order (the earlier colour
#: taking as many dice as it can first, the group's first dice taking it)
_GROUPS: dict[tuple[int, int], tuple[tuple[int, tuple[str, ...]], ...]] = {}


def _group(code: int, n: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The :data:`_GROUPS` entry of ``n`` dice showing the split face ``code``, worked out once."""
    got = _GROUPS.get((code, n))
    if got is None:
        colours = _SPLITS[-1 - code][0]
        ways = []
        for parts in _compositions(n, len(colours)):
            packed = 0
            names: list[str] = []
            for k, m in zip(colours, parts, strict=True):
                packed += m << (_BITS * k)
                names += [COLOURS[k]] * m
            ways.append((packed, tuple(names)))
        got = _GROUPS[code, n] = tuple(ways)
    return got


#: the split dice's face codes in die order -> ``(packed counts the allocation adds, its store)``
#: of each allocation giving counts not given before, in :func:`_allocations` order: the dice's
#: faces in order are all a store reads, and equal counts give equal markers (the first store
#: is kept)
_ALLOCATIONS: dict[tuple[int, ...], tuple[tuple[int, str], ...]] = {}


def _allocations(split: tuple[int, ...]) -> tuple[tuple[int, str], ...]:
    """The :data:`_ALLOCATIONS` entry of the split dice ``split``, worked out once.

    The dice are grouped by face (colour pair) in order of first die; the allocations run in the
    order of ``itertools.product`` over the groups (the last group's the fastest), each group over
    its :data:`_GROUPS` ways; a store names each die's colour in die order.
    """
    if len(_ALLOCATIONS) >= 20000:  # far more than the dice of a game show
        _ALLOCATIONS.clear()
    groups: dict[int, list[int]] = {}
    for j, code in enumerate(split):
        dice = groups.get(code)
        if dice is None:
            groups[code] = [j]
        else:
            dice.append(j)
    allocs: list[tuple[int, tuple[str, ...]]] = [(0, ())]  # the dice's colours group by group
    order: list[int] = []  # the dice (their places in ``split``) in that order
    for code, dice in groups.items():
        allocs = [(v + w, ks + more) for v, ks in allocs for w, more in _group(code, len(dice))]
        order += dice
    in_order = order == sorted(order)
    got = []
    seen = set()
    for v, names in allocs:
        if v in seen:
            continue
        seen.add(v)
        if in_order:
            got.append((v, ",".join(names)))
            continue
        by_die = [""] * len(split)
        for j, name in zip(order, names, strict=True):
            by_die[j] = name
        got.append((v, ",".join(by_die)))
    entry = _ALLOCATIONS[split] = tuple(got)
    return entry


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


def options(state, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each distinct stockpile outcome as ``(store string, markers per colour)``, most markers first.

    Where the C part ``_stockpile`` is built (``setup.py``; not with ``ROLLING_PURE_PYTHON``) it
    reads the seat's dice and the supply and lists them itself (``options_of``: the split dice's
    allocations worked out as :func:`_allocations` works them out, each outcome from its first
    allocation); :func:`_options_py`, the reference, runs where it is not built and whenever the C
    part answers None (a face not in :data:`_FACE_CODE` yet, a hand past its fixed sizes): the same
    tuples either way (tests/freight/test_freight_stockpile_compiled.py). Rule F."""
    if _compiled_of is not None:
        got = _compiled_of(state, seat, _C_CONTEXT)
        if got is not None:
            return got
    return _options_py(state, seat)


#: what ``_stockpile.options_of`` reads besides the state: the face codes (filled by
#: :func:`_options_py` as faces are met), the split faces, the colour names, and the names it
#: compares
_C_CONTEXT = (_FACE_CODE, _SPLITS, COLOURS, "Efficient Storage", "basic", "")


def _options_py(state, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """:func:`options` in Python: each distinct stockpile outcome as ``(store string, markers per
    colour)``, most markers first.

    Only how many split dice of each colour pair go to each colour matters, so the search runs
    over those counts (at most a few hundred ways for nine dice) rather than over every die's
    choice; it is exhaustive, so the first entry gives the most markers there are. Among equal
    totals the order is that of the enumeration: dice grouped by colour pair in die order, each
    pair's colour earlier in blue, gray, red, yellow taking as many dice as it can first.

    The counts per colour are packed in one integer (:data:`_BITS` a colour): an allocation's
    counts are the plain dice's packed counts plus a number that depends only on the split dice's
    faces in die order, worked out once with its store for each such sequence
    (:data:`_ALLOCATIONS`, which a game meets again five times in six), and the markers of a count
    are looked up (:data:`_TAKEN`). A memo of whole answers by dice and supply hit too rarely along
    random games (about 7% of calls) to pay for its key.
    """
    p = state.players[seat]
    storage = p.improvements.count("Efficient Storage")
    both = storage >= 2
    base, _splits, split = _read_dice(p, both)  # split: the split dice's face codes, in die order
    penalty = 0 if storage else 1
    supply = state.supply
    tables = _TAKEN_ALL.get((penalty, *supply))
    if tables is None:
        tables = _taken(penalty, supply)
    t0, t1, t2, t3 = tables
    if not split:
        return (("", (t0[base & _MASK], t1[base >> _BITS & _MASK], t2[base >> 2 * _BITS & _MASK],
                      t3[base >> 3 * _BITS])),)
    key = tuple(split)
    entry = _ALLOCATIONS.get(key)
    if entry is None:
        entry = _allocations(key)
    out = []
    found = set()
    totals = []
    last = 99  # the previous new outcome's total: no sort needed while totals only fall
    ordered = True
    for v, store in entry:
        v += base
        a = t0[v & _MASK]
        b = t1[v >> _BITS & _MASK]
        c = t2[v >> 2 * _BITS & _MASK]
        d = t3[v >> 3 * _BITS]
        g = (a, b, c, d)
        if g not in found:
            found.add(g)
            out.append((store, g))
            total = a + b + c + d
            totals.append(total)
            if total > last:
                ordered = False
            last = total
    if ordered:
        return tuple(out)
    # a stable sort, most markers first (``reverse`` keeps equal totals in their order)
    return tuple([out[i] for i in sorted(range(len(out)), key=totals.__getitem__, reverse=True)])


def auto_choices(state, seat: int) -> list[str]:
    """The engine's choice: a colour for each split die giving the most markers of all choices
    (the first of :func:`options`)."""
    _, splits = _counts(state, seat)
    if not splits:
        return []
    return options(state, seat)[0][0].split(",")


def _read_store(state, seat: int, text: str) -> tuple[list[int], list[str]]:
    """:func:`_counts`' plain counts and :func:`parse_store`'s colours, the dice read once."""
    p = state.players[seat]
    counts, splits = _counts(state, seat)
    if not text.strip():
        return counts, (options(state, seat)[0][0].split(",") if splits else [])
    words = text.replace(",", " ").split()
    if len(words) != len(splits):
        raise IllegalAction(RULE, f"name one colour for each of your {len(splits)} unspent split dice")
    for j in range(len(words)):  # no zip: a call with a keyword
        i = splits[j]
        # a split die's code names its colours (:data:`_SPLITS`), as its face does
        if COLOUR_INDEX.get(words[j], -1) not in _SPLITS[-1 - _FACE_CODE[p.dice[i]]][0]:
            raise IllegalAction(RULE, f"die {i + 1} ({p.dice[i]}) cannot be stored as {words[j]}")
    return counts, words


def parse_store(state, seat: int, text: str) -> list[str]:
    """Read a ``store`` string: one colour per unspent split die, in die order ("" = engine's choice).

    Raises:
        IllegalAction: wrong number of colours, or a colour the die does not show.
    """
    return _read_store(state, seat, text)[1]


def stockpile(state, seat: int, choices: list[str]) -> None:
    """Take the markers from the supply."""
    _take(state, seat, gains(state, seat, choices))


def stockpile_store(state, seat: int, text: str) -> None:
    """F as the end of a turn does it: read the ``store`` string (:func:`parse_store`) and take the
    markers (:func:`stockpile`), the dice read once.

    Raises:
        IllegalAction: as :func:`parse_store`; nothing is taken then.
    """
    counts, choices = _read_store(state, seat, text)
    for c in choices:
        counts[COLOUR_INDEX[c]] += 1
    penalty = 0 if "Efficient Storage" in state.players[seat].improvements else 1
    _take(state, seat, _markers(counts, penalty, state.supply))


def _take(state, seat: int, g: list[int]) -> None:
    """Move the markers ``g`` (per colour) from the supply to the player's mat, and log it."""
    markers = state.players[seat].markers
    supply = state.supply
    for k in range(4):
        markers[k] += g[k]
        supply[k] -= g[k]
    if state.log is not None and any(g):
        state.log.append((E.STOCKPILE, E.PUBLIC, seat, tuple(g)))
