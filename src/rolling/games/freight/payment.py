"""Dice symbols used in the game: what each die face and stockpile marker may pay for.

A payment is a list of tokens: ``("d", i)`` spends die ``i`` of the player's dice, ``("m", k)``
spends one stockpile marker of colour ``COLOURS[k]``. Rules applied here:

- "any" cost (◇): any die showing a colour or a split, the wild symbol, the *any* (one unit) and
  *any2* (two units for one purpose) symbols, or a marker of any colour; the *bonus* symbol only
  in the price of a major route, the *route* symbol only in the price of a second major route;
  the *cubes* symbol never (it only builds).
- colour cost: a die showing that colour (plain or split), the wild symbol, or a marker of that
  colour; for ocean (slash) a die showing two colours or the wild symbol (markers never).
- a payment may not include a token that pays for nothing: it must cover the cost, and dropping
  any token would leave it short.
"""

from __future__ import annotations

import os
from functools import cache
from itertools import compress
from operator import not_

from rolling.core.errors import IllegalAction
from rolling.core.whole import parse_whole

from .components import COLOUR_INDEX, COLOURS, OCEAN, Face, face

try:  # the seat's construction moves and prices in C (issue 34), optional: the Python here, in
    # legal, stations and improvements is the reference, run where it is not built, with
    # ROLLING_PURE_PYTHON set (read once, at import) and wherever it answers None
    if os.environ.get("ROLLING_PURE_PYTHON"):
        raise ImportError
    from ._listing import affordable as _c_affordable
    from ._listing import budget as _c_budget
    from ._listing import build_moves as _c_build_moves
    from ._listing import prices as _c_prices
    from ._listing import record as _c_record
    from ._listing import station_cost as _c_station_cost
    from ._listing import takeable as _c_takeable
except ImportError:
    _c_affordable = _c_budget = _c_build_moves = _c_prices = _c_record = _c_station_cost = _c_takeable = None


def listing_compiled() -> bool:
    """Whether the seat's construction moves and prices (:func:`generic_budget`,
    :func:`.legal.build_moves`, :func:`.legal.takeable`, :func:`.improvements.affordable`,
    :func:`.stations.station_cost`) are read through the optional C part ``_listing`` (built by
    ``setup.py`` where a C compiler is found, and ``ROLLING_PURE_PYTHON`` not set); the answers
    are the same either way (tests/freight/test_freight_listing_compiled.py)."""
    return _c_budget is not None


#: purposes of an "any" cost
PURPOSES = ("contract", "improvement", "station", "route")


#: the pay words of die numbers 0-99 as parse_whole reads them, read first by parse_pay (issue 34)
_DIE_WORDS = {str(i): i for i in range(100)}
#: the tokens ``("d", i)`` and ``("m", k)`` parse_pay gives, made once (tuples: the same values,
#: no allocation a word; issue 34)
_DIE_TOKENS = tuple([("d", i) for i in range(100)])
_MARKER_TOKENS = tuple([("m", k) for k in range(4)])


def parse_pay(text: str, player, rule: str) -> list[tuple]:
    """Read a ``pay`` string (die indices and marker colours) into tokens, checking availability.

    Raises:
        IllegalAction: (under ``rule``) an unknown word, a die out of range, spent or named twice,
            or more markers of a colour than the player holds.
    """
    tokens: list[tuple] = []
    used: set[int] = set()
    markers = [0, 0, 0, 0]
    spent = player.spent
    toks = _DIE_TOKENS
    for word in text.replace(",", " ").split():
        # ASCII digits only: "²" and "٣" are no die numbers (the usual words read from a table; a
        # colour, never a number, is not handed to parse_whole: issue 34)
        if word in _DIE_WORDS:
            i = _DIE_WORDS[word]
        elif word in COLOUR_INDEX:
            i = None
        else:
            i = parse_whole(word)
        if i is not None:
            if i >= len(player.dice):
                # dice are numbered from 1 wherever a player reads them (the log, the front ends)
                raise IllegalAction(rule, f"there is no die {i + 1} (your dice are 1-{len(player.dice)})")
            if spent[i] or i in used:
                raise IllegalAction(rule, f"die {i + 1} is already spent")
            used.add(i)
            tokens.append(toks[i] if i < 100 else ("d", i))
        elif word in COLOUR_INDEX:
            k = COLOUR_INDEX[word]
            markers[k] += 1
            if markers[k] > player.markers[k]:
                raise IllegalAction("F. Stockpiling Resources", f"you hold only {player.markers[k]} {word} marker(s)")
            tokens.append(_MARKER_TOKENS[k])
        else:
            raise IllegalAction(rule, f"cannot pay with {word!r}: name dice by number and markers by colour")
    return tokens


def token_face(player, token) -> Face | None:
    """The face of a die token, or ``None`` for a marker."""
    return face(player.dice[token[1]]) if token[0] == "d" else None


def kind_units(kind: str, purpose: str, second: bool = False) -> int:
    """How many "any" dice a die face of ``kind`` is worth for ``purpose`` (``"route"``, ...; 0:
    it cannot pay); ``second``: the route symbol, which pays only as a route's second die."""
    if kind == "colour" or kind == "wild" or kind == "any":
        return 1
    if kind == "any2":
        return 2
    if kind == "bonus":
        return 1 if purpose == "route" else 0
    if kind == "route":
        return 1 if purpose == "route" and second else 0
    return 0


# Per-face tables, filled as faces are met (faces are few): plain dicts read with try/except by the
# listing's hot loops, as a dict subclass's [] costs several times a dict's (issue 34). A face
# first met is worked out by the rule's function, which raises ValueError for an unknown face.
_UNITS: dict[tuple[str, bool], dict[str, int]] = {}  # (purpose, second) -> face name -> units
_PAYS: dict[str, frozenset[str]] = {}  # face name -> face_pays
_BUILD_RANKS: dict[str, tuple[int, ...]] = {}  # face name -> build_rank by BUILD_COLUMNS
_PAY_MASK: dict[str, int] = {}  # face name -> face_pays as bits by BUILD_COLUMNS (read by the C part)


def face_units(purpose: str, second: bool = False) -> dict[str, int]:
    """How many "any" dice a die showing each face is worth for ``purpose`` (as
    :func:`kind_units` of its kind), as a table by face name filled as faces are met: read an
    entry with ``try: table[name]``, else :func:`new_face_units`."""
    try:
        return _UNITS[(purpose, second)]
    except KeyError:
        units = _UNITS[(purpose, second)] = {}
        return units


def new_face_units(units: dict[str, int], name: str, purpose: str, second: bool) -> int:
    """Enter face ``name`` (first met) in ``units``, the :func:`face_units` table of ``purpose``
    and ``second``, and return its entry.

    Raises:
        ValueError: an unknown face name (:func:`.components.face`).
    """
    u = units[name] = kind_units(face(name).kind, purpose, second)
    return u


def generic_units(player, token, purpose: str, second: bool = False) -> int:
    """How many "any" dice a token is worth for ``purpose`` (0: it cannot pay)."""
    if token[0] == "m":
        return 1
    name = player.dice[token[1]]
    units = face_units(purpose, second)
    try:
        return units[name]
    except KeyError:
        return new_face_units(units, name, purpose, second)


def kept_after(player, tokens) -> tuple[list[int], list[int]]:
    """What ``player`` keeps after paying ``tokens`` (``("d", die)`` and ``("m", colour)`` pairs,
    indices from 0): the indices of its unspent dice left, and its markers left per colour
    (:data:`.components.COLOURS` order)."""
    gone = {v for k, v in tokens if k == "d"}
    markers = list(player.markers)
    for k, v in tokens:
        if k == "m":
            markers[v] -= 1
    return [i for i in range(len(player.dice)) if not player.spent[i] and i not in gone], markers


@cache
def face_pays(name: str) -> frozenset[str]:
    """The contract colours (and :data:`OCEAN`) for which a die showing face ``name`` may pay the
    one die of the colour (A): the colours it shows, ocean for a split die, all for the *wild*
    symbol. Cached: faces are few.

    Raises:
        ValueError: an unknown face name (:func:`.components.face`).
    """
    f = face(name)
    if f.kind == "wild":
        return frozenset(COLOURS + (OCEAN,))
    return frozenset(f.colours + ((OCEAN,) if len(f.colours) >= 2 else ()))


def pays_colour(player, token, colour: str) -> bool:
    """Whether a token may pay the one die of ``colour`` (or ocean) a contract asks for."""
    if token[0] == "m":
        return colour != OCEAN and COLOURS[token[1]] == colour
    name = player.dice[token[1]]
    try:
        return colour in _PAYS[name]
    except KeyError:
        pays = _PAYS[name] = face_pays(name)
        return colour in pays


def _generic_ok(player, tokens, generic: int, purpose: str, second: bool) -> str | None:
    # generic_units of each token, its face table read once for them all (issue 34)
    table = face_units(purpose, second)
    dice = player.dice
    units = []
    for t in tokens:
        if t[0] == "m":
            units.append(1)
        else:
            name = dice[t[1]]
            try:
                units.append(table[name])
            except KeyError:
                units.append(new_face_units(table, name, purpose, second))
    if 0 in units:
        return f"a {purpose} cannot be paid with {describe(player, tokens[units.index(0)])}"
    total = sum(units)
    if total < generic:
        return f"needs {generic} any-colour dice, got {total}"
    if units and total - min(units) >= generic:
        return "the payment includes dice that pay for nothing"
    return None


def check_purchase(player, tokens, colour: str | None, generic: int, purpose: str, rule: str,
                   second: bool = False) -> None:
    """Check that ``tokens`` pay exactly one die of ``colour`` (if given) plus ``generic`` any dice.

    Raises:
        IllegalAction: (under ``rule``) the payment falls short, pays with something that cannot
            pay, or includes a token that pays for nothing.
    """
    if second and not any(t[0] == "d" and face(player.dice[t[1]]).kind == "route" for t in tokens):
        raise IllegalAction(rule, "a second major route needs the route symbol of an improvement die")
    if colour is None:
        err = _generic_ok(player, tokens, generic, purpose, second)
        if err:
            raise IllegalAction(rule, err)
        return
    err = f"needs one die showing {'two colours (slash)' if colour == OCEAN else colour}"
    for i, t in enumerate(tokens):
        if pays_colour(player, t, colour):
            e = _generic_ok(player, tokens[:i] + tokens[i + 1:], generic, purpose, second)
            if e is None:
                return
            err = e
    raise IllegalAction(rule, err)


def bonus_faces(player, tokens) -> int:
    """How many *bonus* symbols (+$2 each in a major route) the tokens spend."""
    return sum(1 for t in tokens if t[0] == "d" and face(player.dice[t[1]]).kind == "bonus")


def spend(state, seat: int, tokens) -> None:
    """Spend the tokens: mark dice spent, return markers to the supply."""
    p = state.players[seat]
    spent = p.spent
    for kind, v in tokens:
        if kind == "d":
            spent[v] = True
        else:
            p.markers[v] -= 1
            state.supply[v] += 1


def describe(player, token) -> str:
    """A token in words, dice numbered from 1: ``"die 2 (red)"`` (index 1) or ``"a blue marker"``."""
    if token[0] == "m":
        return f"a {COLOURS[token[1]]} marker"
    return f"die {token[1] + 1} ({player.dice[token[1]]})"


def unspent_faces(player):
    """The face names of the player's unspent dice, in die order (an iterator)."""
    return compress(player.dice, map(not_, player.spent))


def unspent_dice(player) -> list[tuple[int, str]]:
    """``(index, face name)`` of each of the player's unspent dice, in die order: read once by a
    caller that asks :func:`build_choices` about several links."""
    spent = player.spent
    return [(i, name) for i, name in enumerate(player.dice) if not spent[i]]


def _available(player):
    for i, name in enumerate(player.dice):
        if not player.spent[i]:
            yield ("d", i), face(name)
    for k in range(4):
        for _ in range(player.markers[k]):
            yield ("m", k), None


def needed_colours(state, seat: int) -> set[str]:
    """Colours of the player's unfinished contracts (dice of these are kept for building)."""
    links = state.map.links
    return {links[i].colour for i in state.players[seat].contracts}


def _generic_rank(tok, f: Face | None, need: set[str], purpose: str, second: bool) -> float:
    if f is None:
        return 8 + (1 if COLOURS[tok[1]] in need else 0)
    k = f.kind
    if k in ("any", "any2"):
        return 0
    if k == "bonus":
        return -1
    if k == "route":
        return -2
    if k == "wild":
        return 7
    hit = any(c in need for c in f.colours) or (len(f.colours) > 1 and OCEAN in need)
    return (2 if len(f.colours) == 1 else 3) + (2 if hit else 0)


def auto_purchase(state, seat: int, colour: str | None, generic: int, purpose: str,
                  second: bool = False) -> list[tuple] | None:
    """The engine's payment before issue 28 item 5, kept exactly for the games played with it
    (:attr:`.state.Config.payment` ``"legacy"``): the colour die by a fixed rank (a plain die of
    the colour, then a split, a marker, the wild symbol), then any dice, the least useful first
    (route, bonus, any symbols, dice of colours no contract needs, then those it needs, wild,
    markers last); ``None`` if unaffordable."""
    p = state.players[seat]
    need = needed_colours(state, seat)
    avail = list(_available(p))
    chosen: list[tuple] = []
    if colour is not None:
        best = None
        for tok, f in avail:
            if not pays_colour(p, tok, colour):
                continue
            if f is None:
                r = 2
            elif f.kind == "wild":
                r = 3
            elif colour == OCEAN:
                r = 0 + (0.5 if any(c in need for c in f.colours) else 0)
            else:
                r = 0 if len(f.colours) == 1 else 1
            if best is None or r < best[0]:
                best = (r, tok)
        if best is None:
            return None
        chosen.append(best[1])
        # Markers of a colour are alike tokens: take out just the one chosen.
        k = next(j for j, (t, _) in enumerate(avail) if t == best[1])
        avail = avail[:k] + avail[k + 1:]
    pool = []
    for tok, f in avail:
        u = generic_units(p, tok, purpose, second)
        if u:
            pool.append((_generic_rank(tok, f, need, purpose, second), -u, tok, u))
    pool.sort(key=lambda x: (x[0], x[1], x[2]))
    if second:
        routes = [x for x in pool if x[0] == -2]
        if not routes:
            return None
        pool.remove(routes[0])
        pool.insert(0, routes[0])
    got: list[tuple] = []
    total = 0
    for x in pool:
        if total >= generic and not (second and not got):
            break
        got.append(x)
        total += x[3]
    if total < generic:
        return None
    # Drop tokens made superfluous by a later two-unit token (never the required route symbol).
    changed = True
    while changed and got:
        changed = False
        for x in sorted(got, key=lambda x: x[3]):
            if second and x[0] == -2:
                continue
            if total - x[3] >= generic:
                got.remove(x)
                total -= x[3]
                changed = True
                break
    return chosen + [x[2] for x in got]


def colour_payers(player) -> set[str]:
    """The colours (and :data:`OCEAN`) for which the player holds a token paying "one die of the
    contract's colour" (see :func:`pays_colour`)."""
    out: set[str] = set()
    dice = player.dice
    spent = player.spent
    for i in range(len(dice)):
        if not spent[i]:
            name = dice[i]
            try:
                pays = _PAYS[name]
            except KeyError:
                pays = _PAYS[name] = face_pays(name)
            out |= pays
    markers = player.markers
    for k in range(len(COLOURS)):
        if markers[k]:
            out.add(COLOURS[k])  # the colours of which it holds a marker
    return out


def generic_budget(player, purpose: str, second: bool = False) -> int:
    """The most "any" dice the player could pay now for ``purpose`` (each marker one, each unspent
    die as :func:`generic_units`). Read by the C part ``_listing`` where it is built, by
    :func:`_generic_budget_py`, the reference, where not or where it answers None (a face not in
    the table yet)."""
    if _c_budget is not None:
        # the listing's purpose read without face_units' key (issue 34)
        n = _c_budget(player, _CONTRACT_UNITS if purpose == "contract" and not second else face_units(purpose, second))
        if n is not None:
            return n
    return _generic_budget_py(player, purpose, second)


#: face_units("contract"), the table the listing reads (the same dict, filled as faces are met)
_CONTRACT_UNITS = face_units("contract", False)


def _generic_budget_py(player, purpose: str, second: bool = False) -> int:
    """:func:`generic_budget` in Python (it fills the :func:`face_units` table)."""
    units = face_units(purpose, second)
    n = 0
    for k in player.markers:
        n += k
    dice = player.dice
    spent = player.spent
    for i in range(len(dice)):
        if not spent[i]:
            name = dice[i]
            try:
                n += units[name]
            except KeyError:
                n += new_face_units(units, name, purpose, second)
    return n


def learn_pay_masks(player) -> None:
    """Put :func:`face_pays` of each of the player's unspent dice, as bits by
    :data:`BUILD_COLUMNS`, in :data:`_PAY_MASK` (read by the C part ``_listing``); a face that
    is not one is left out (the reference then raises as it raises)."""
    dice = player.dice
    spent = player.spent
    for i in range(min(len(dice), len(spent))):
        name = dice[i]
        if not spent[i] and isinstance(name, str) and name not in _PAY_MASK:
            try:
                pays = face_pays(name)
            except ValueError:
                continue
            mask = 0
            for colour in pays:
                mask |= 1 << BUILD_COLUMNS[colour]
            _PAY_MASK[name] = mask


def build_range(player, tokens, colour: str, rule: str) -> tuple[int, int]:
    """The fewest and the most cubes ``tokens`` can add to a link of ``colour`` (B).

    A die showing the colour (or, for an ocean link, two colours), the *wild* symbol and a marker
    of the colour add one cube each; the *cubes* symbol adds one or two ("may be spent to add one
    or two construction cubes"), so the number is the player's choice within the range.

    Raises:
        IllegalAction: (under ``rule``) a token that cannot build this link.
    """
    lo = hi = 0
    for t in tokens:
        if t[0] == "m":
            if colour == OCEAN or COLOURS[t[1]] != colour:
                raise IllegalAction(rule, f"{describe(player, t)} cannot build a {colour} link")
            lo += 1
            hi += 1
            continue
        r = build_ranks_of(player.dice[t[1]])[BUILD_COLUMNS[colour]]
        if r < 0:
            raise IllegalAction(rule, f"{describe(player, t)} cannot build a {colour} link"
                                + (" (ocean links need a die showing two colours)" if colour == OCEAN else ""))
        lo += 1
        hi += 2 if r == 2 else 1  # the cubes symbol: one or two
    return lo, hi


def build_rank(name: str, colour: str) -> int:
    """How a die face ``name`` builds a link of ``colour`` (B), as the engine's build orders the
    dice (:func:`auto_build`): 0 a plain die of the colour, 1 a split die showing it (for an ocean
    link, any split die), 2 the *cubes* symbol (one or two cubes), 3 the *wild* symbol; -1 it
    cannot build the link.

    Raises:
        ValueError: an unknown face name (:func:`.components.face`).
    """
    f = face(name)
    if f.kind == "colour" and ((colour == OCEAN and len(f.colours) >= 2) or colour in f.colours):
        return 0 if len(f.colours) == 1 else 1
    if f.kind == "cubes":
        return 2
    if f.kind == "wild":
        return 3
    return -1


#: the link colours (and :data:`OCEAN`) in the order of the ranks of :func:`build_ranks_of`: the
#: colours as their :data:`.components.COLOUR_INDEX` (their markers' index), then ocean
BUILD_COLUMNS = {c: k for k, c in enumerate(COLOURS + (OCEAN,))}


def build_ranks_of(name: str) -> tuple[int, ...]:
    """:func:`build_rank` of face ``name`` for each link colour, in :data:`BUILD_COLUMNS` order.

    Raises:
        ValueError: an unknown face name (:func:`.components.face`).
    """
    try:
        return _BUILD_RANKS[name]
    except KeyError:
        ranks = _BUILD_RANKS[name] = tuple([build_rank(name, c) for c in BUILD_COLUMNS])
        return ranks


def build_choices(player, colour: str, dice: list[tuple[int, str]] | None = None
                  ) -> tuple[list[tuple], list[tuple[int, int, int]]]:
    """What may build a ``colour`` link (B): ``(options, order)``. ``options``: one token of each
    distinct kind (die face, in die order, then the marker of the colour), as
    :func:`build_options`; ``order``: the dice able to build it as ``(rank, die, most cubes)``,
    in the order of the engine's build (:func:`build_rank`, then die index), as
    :func:`auto_build` spends them. ``dice``: :func:`unspent_dice` of ``player``, when the caller
    has it already."""
    seen = set()
    out = []
    order = []
    column = BUILD_COLUMNS[colour]
    for i, name in unspent_dice(player) if dice is None else dice:
        r = build_ranks_of(name)[column]
        if r < 0:
            continue
        if name not in seen:
            seen.add(name)
            out.append(("d", i))
        order.append((r, i, 2 if r == 2 else 1))
    if colour != OCEAN and player.markers[COLOUR_INDEX[colour]]:
        out.append(("m", COLOUR_INDEX[colour]))
    order.sort()
    return out, order


def build_dice(player) -> list[tuple[int, bool, tuple[int, ...]]]:
    """``(die, first, ranks)`` of each of the player's unspent dice, in die order (B): ``first``
    whether it is the first unspent die showing its face (the one :func:`build_options` names),
    ``ranks`` its :func:`build_ranks_of`. Read once by the listing of the construction moves for
    all the contracts (issue 34).

    Raises:
        ValueError: an unknown face name (:func:`.components.face`).
    """
    dice = player.dice
    spent = player.spent
    out = []
    faces = set()
    for i in range(len(dice)):
        if spent[i]:
            continue
        name = dice[i]
        try:
            ranks = _BUILD_RANKS[name]
        except KeyError:
            ranks = build_ranks_of(name)
        if name in faces:
            out.append((i, False, ranks))
        else:
            faces.add(name)
            out.append((i, True, ranks))
    return out


def build_options(player, colour: str) -> list[tuple]:
    """One token of each distinct kind (die face, marker colour) able to build a ``colour`` link."""
    return build_choices(player, colour)[0]


def auto_build(player, colour: str, target: int) -> tuple[list[tuple], int]:
    """The engine's build: ``(tokens, cubes)`` adding at most ``target`` cubes.

    Dice only, in the order plain colour, split, *cubes* symbol, *wild* (markers are kept);
    ``target`` is the caller's cap: the link's empty squares and the player's cubes left, or
    the number of cubes asked for. A *cubes* symbol adds one cube when only one is wanted.
    """
    return build_take(build_choices(player, colour)[1], target)


def build_take(order: list[tuple[int, int, int]], target: int) -> tuple[list[tuple], int]:
    """:func:`auto_build` from the ``order`` of :func:`build_choices`: the dice in that order until
    ``target`` cubes are added, as ``(tokens, cubes)``."""
    out = []
    added = 0
    for _, i, u in order:
        if added >= target:
            break
        out.append(("d", i))
        added += min(u, target - added)
    return out, added


def pay_text(tokens) -> str:
    """Tokens back to a ``pay`` string."""
    return " ".join(str(v) if k == "d" else COLOURS[v] for k, v in tokens)
