"""Every way to pay a price, and the engine's best payment (issue 28 item 5).

A price is what taking a contract (A), establishing a major route (C), building a switching
station (D) or purchasing an improvement (E) costs: ``generic`` "any" dice (◇) for a
``purpose`` and, for a contract, one die of its colour (see :mod:`.payment` for what each die
face and stockpile marker may pay). Two payments are **the same** when the player keeps the same
things: the same dice faces (a basic die showing two colours differs from an improvement die
showing them only with two Efficient Storage, when the basic one stores both), the same markers
of each colour, and the same money from *bonus* symbols.

**The order of what is kept** (:class:`Scorer`), compared item by item, most important first:

1. *Cubes still buildable* this turn: the most construction cubes the kept dice and markers can
   add to the player's unfinished contracts (after the purchase: a contract just taken counts
   with its empty squares), at most the cubes left in supply. A die unspent at the end of the
   turn is lost (or stockpiled at a loss), and cubes on a contract are what completes and scores
   it, so paying with what cannot build comes first. Counted as a flow: each kept die or marker
   adds one cube to a contract of a colour it shows (a die showing two colours, or *wild*, to an
   ocean link), *wild* one to any, the *cubes* symbol two to any (the min cut over the at most
   three contracts).
2. *Money*: $2 per *bonus* symbol spent (only a major route takes them): stock is the score.
3. *Any-colour dice kept*: the any-colour dice (◇) the kept tokens could still pay toward another
   contract, improvement or station (*any2* counts two): what can still be bought this turn.
4. *Markers kept*: stockpile markers last past the turn, dice do not.
5. *Stockpile worth of the dice kept*: one for each kept die showing a colour (two for a basic
   die showing two colours with two Efficient Storage, which stores both).
6. *Colours covered*: how many of the four colours and ocean the kept tokens could still pay the
   colour die of a contract for.
7. *Wild symbols kept*.

**What is listed** (:func:`payments`): the payments that no other payment matches or beats on
every item of the order while beating it on one (the Pareto front of the seven items), one for
each distinct set of the seven numbers (of payments equal on all seven, the one spending the
most of the earliest tokens: dice in die order, then markers), best first, at most
:data:`MAX_LISTED`. The list is short (a handful
of payments even for a seat holding many markers) where every distinct payment could number
hundreds; any other valid payment is still accepted when named in ``pay``. The first is the
engine's choice for ``pay=""`` (:func:`best_payment`), so no payment is better by the order than
the engine's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from rolling.core.memo import Recent

from .components import COLOURS, OCEAN, face
from .payment import auto_purchase, kind_units

try:  # the fronts (and a hand's classes) compiled (setup.py): the same answers, several times sooner
    from ._walk import Seat as _CompiledSeat
    from ._walk import fronts as _compiled_fronts
    from ._walk import hand as _compiled_hand
    from ._walk import seat_setup as _seat_setup
except ImportError:  # installed where no C compiler was found
    _compiled_fronts = _compiled_hand = _CompiledSeat = _seat_setup = None

#: a token class: ``("d", face name, stores both)`` or ``("m", colour index)``
Cls = tuple
#: the most payments listed for one price (the best by the order; the research codecs give each
#: a fixed index). Random games never came near: 17 at most in 26,035 prices.
MAX_LISTED = 32


def classes(player) -> tuple[list[Cls], list[list[tuple]]]:
    """The player's unspent tokens grouped by class: ``(classes, tokens of each)``, dice first in
    die order, then markers by colour."""
    keys, _counts, toks, _sig = _hand(player)
    return list(keys), [list(t) for t in toks]


_COVER_BITS = {c: 1 << k for k, c in enumerate(COLOURS)} | {OCEAN: 1 << 4}


class Scorer:
    """The order of what is kept (module text) for one player and price: :meth:`key` of a spent
    vector (counts per class of ``keys``) is a tuple, larger is better.

    Args:
        keys, counts: the seat's token classes and how many tokens of each (:func:`classes`).
        purpose: ``"contract"``, ``"improvement"``, ``"station"`` or ``"route"``.
        contracts: the seat's unfinished contracts after the purchase, ``(colour, empty squares)``.
        cubes_left: the seat's construction cubes in supply after the purchase.
    """

    __slots__ = ("cubes_left", "totals", "cover_of", "whole", "deltas", "cut_const")

    def __init__(self, keys, counts, purpose: str, contracts, cubes_left: int) -> None:
        self.cubes_left = cubes_left
        cuts = range(1 << len(contracts))
        # Per class: what one token spent takes off (money: adds) each item, and off each cut.
        self.deltas = []
        self.cover_of = []
        self.whole = counts
        totals = [0, 0, 0, 0, 0]  # units, markers, worth, wild kept; money spent starts at 0
        weights = []
        for c, cnt in zip(keys, counts, strict=True):
            units = marker = worth = wild = bonus = cover = 0
            w = 1
            if c[0] == "m":
                colour = COLOURS[c[1]]
                units = marker = 1
                cover = _COVER_BITS[colour]
                feed = sum(1 << i for i, (col, _e) in enumerate(contracts) if col == colour)
            else:
                f = face(c[1])
                k = f.kind
                units = 2 if k == "any2" else 1 if k in ("colour", "wild", "any") else 0
                if k == "colour":
                    worth = 2 if c[2] else 1
                    cover = sum(_COVER_BITS[x] for x in f.colours) | (_COVER_BITS[OCEAN] if len(f.colours) >= 2 else 0)
                elif k == "wild":
                    wild = 1
                    cover = 31
                elif k == "bonus" and purpose == "route":
                    bonus = 2
                if k == "cubes":
                    w = 2
                feed = sum(1 << i for i, (col, _e) in enumerate(contracts)
                           if k in ("wild", "cubes") or (k == "colour" and (
                               col in f.colours or (col == OCEAN and len(f.colours) >= 2))))
            totals[0] += units * cnt
            totals[1] += marker * cnt
            totals[2] += worth * cnt
            totals[3] += wild * cnt
            weights.append(tuple(w if feed & m else 0 for m in cuts))
            self.deltas.append((units, marker, worth, wild, bonus))
            self.cover_of.append(cover)
        self.totals = totals
        # Min cut of the build flow: for a set S of contracts (bit mask m), the squares of the
        # others plus the cubes the kept tokens able to feed S can add.
        self.cut_const = [sum(e for i, (_c, e) in enumerate(contracts) if not m >> i & 1)
                          + sum(wt[m] * cnt for wt, cnt in zip(weights, counts, strict=True)) for m in cuts]
        self.deltas = [d + (wt,) for d, wt in zip(self.deltas, weights, strict=True)]

    def key(self, spent) -> tuple:
        """The order's seven items for a payment spending ``spent`` (counts per class)."""
        cuts = self.cut_const[:]
        units, markers, worth, wild, _ = self.totals
        money = 0
        gone = False
        whole = self.whole
        deltas = self.deltas
        for j, x in enumerate(spent):
            if not x:
                continue
            du, dm, dw, dwi, db, wt = deltas[j]
            units -= du * x
            markers -= dm * x
            worth -= dw * x
            wild -= dwi * x
            money += db * x
            for m, w in enumerate(wt):
                if w:
                    cuts[m] -= w * x
            if x == whole[j]:
                gone = True
        cover = 0
        cover_of = self.cover_of
        for j, cnt in enumerate(whole):
            if not gone or spent[j] < cnt:
                cover |= cover_of[j]
        build = min(self.cubes_left, min(cuts))
        return (build, money, units, markers, worth, cover.bit_count(), wild)


def _contracts(state, seat: int, take=None) -> tuple[tuple, int]:
    """The seat's unfinished contracts as ``(colour, empty squares)`` and its cubes in supply,
    after taking the contract on link ``take`` (if given)."""
    links = state.map.links
    cubes = state.cubes
    out = []
    left = state.comp.box["cubes_per_player"]  # less the cubes on the seat's contracts (its cubes in use)
    for i in state.players[seat].contracts:
        ln = links[i]
        left -= cubes[i]
        out.append((ln.colour, ln.length - cubes[i]))
    return (tuple(out), left) if take is None else _taking(tuple(out), left, take)


def _taking(contracts: tuple, left: int, take) -> tuple[tuple, int]:
    """:func:`_contracts` after taking the contract on link ``take`` (if given): it is one more to
    build, its first square already covered by a cube from the supply (A)."""
    if take is None:
        return contracts, left
    return contracts + ((take.colour, take.length - 1),), left - 1


def payments(state, seat: int, colour: str | None, generic: int, purpose: str, second: bool = False,
             take=None, also: tuple = ()) -> list[list[tuple]]:
    """The payments to list for one die of ``colour`` (if given) plus ``generic`` any dice for
    ``purpose``: the Pareto front of the order of what is kept, best first, at most
    :data:`MAX_LISTED` (module text).

    ``second``: the price of a second major route this turn (the *route* symbol must pay part).
    ``take``: the link of a contract being taken (it counts among the contracts to build).
    ``also``: other prices in any dice for the same kind of purpose that the caller asks for next
    (a listing: every improvement and the station); one walk works them all out (cached).
    Each payment is a token list (see :mod:`.payment`) that :func:`.payment.check_purchase`
    accepts; ``[]`` when there is none.
    """
    front, toks = payment_front(state, seat, colour, generic, purpose, second, take, also)
    return [tokens_of(s, toks) for s in front]


def payment_front(state, seat: int, colour: str | None, generic: int, purpose: str, second: bool = False,
                  take=None, also: tuple = ()) -> tuple[tuple, list]:
    """:func:`payments` before the tokens are named: ``(front, tokens)``, the front as spent
    vectors (how many tokens of each class of the seat's hand, best first) and the hand's tokens
    of each class (:func:`classes`); :func:`tokens_of` makes a vector a token list. For a caller
    that names few of the payments (the random bot names the one it draws, a listing every one
    but the first, ``pay=""``). Both are remembered and shared: read only. A caller asking for
    several prices of one seat at one moment uses :class:`SeatPayments` (the hand read once)."""
    return SeatPayments(state, seat).front(colour, generic, purpose, second, take, also)


class SeatPayments:
    """:func:`payment_front` for the prices of one seat at one moment (a listing): the seat's hand
    (:func:`classes`) and contracts read once. Valid while the state does not change.

    Where the C extension was built (and ``ROLLING_PURE_PYTHON`` is not set) the name is bound to
    its compiled twin ``_walk.Seat`` (the same attributes and answers, the same memo; issue 34):
    this class stays the reference, :data:`SeatPaymentsPy`."""

    __slots__ = ("keys", "counts", "toks", "hand", "contracts", "left", "known")

    def __init__(self, state, seat: int) -> None:
        self.keys, self.counts, self.toks, self.hand = _hand(state.players[seat])
        self.contracts, self.left = _contracts(state, seat)
        self.known = None  # the memo's entry for this hand and these contracts, once asked

    def front(self, colour: str | None, generic: int, purpose: str, second: bool = False, take=None,
              also: tuple = ()) -> tuple[tuple, list]:
        """:func:`payment_front`'s ``(front, tokens)`` of one price (same arguments)."""
        return self.fronts(colour, generic, purpose, second, take, also)[generic], self.toks

    def fronts(self, colour: str | None, generic: int, purpose: str, second: bool = False, take=None,
               also: tuple = ()) -> dict[int, tuple]:
        """:meth:`front`'s fronts of ``generic`` and of each price of ``also`` (one walk finds them
        all) as ``{price: front}``, perhaps with other prices of the same kind; the tokens are
        :attr:`toks`. Shared: read only."""
        # The memo in two steps: this hand and contracts (looked up once per seat and moment: the
        # key's contracts are tuples, slow to hash), then the walk's kind and the contract taken.
        mine = self.known
        if mine is None:
            mine = self.known = _seat_fronts(self.hand, self.contracts, self.left)
        # Contracts, improvements and stations take the same tokens alike; only a route differs.
        kind = "route" if purpose == "route" else "buy"
        # the contract taken by what it adds (its colour and squares: _taking)
        at = (colour, kind, second) if take is None else (colour, kind, second, take.colour, take.length)
        known = mine[at] if at in mine else None
        if known is None or generic not in known or (also and not _holds(known, also)):
            if take is None:
                contracts = self.contracts
                left = self.left
            else:
                contracts, left = _taking(self.contracts, self.left, take)
            if known is None:
                # Walked at once: ``generic`` and ``also`` (as given when they already rise and
                # hold ``generic``, as a listing's do: no set to sort).
                targets = also
                if not also:
                    targets = (generic,)
                elif generic in also:
                    for k in range(1, len(also)):
                        if also[k - 1] >= also[k]:
                            targets = tuple(sorted(set(also)))
                            break
                else:
                    targets = tuple(sorted({generic, *also}))
                known = mine[at] = _fronts(self.keys, self.counts, colour, kind, second, contracts, left, targets)
            else:  # the prices not yet known
                known.update(_fronts(self.keys, self.counts, colour, kind, second, contracts, left,
                                     tuple(sorted({generic, *also} - known.keys()))))
        return known

    def best(self, colour: str | None, generic: int, purpose: str, second: bool = False,
             take=None) -> list[tuple] | None:
        """:func:`best_payment` (a ``"kept"`` game): the tokens of the first payment of the price's
        front, ``None`` if there is none (the first of :func:`payments`, alone)."""
        front = self.fronts(colour, generic, purpose, second, take)[generic]
        return tokens_of(front[0], self.toks) if front else None


#: the Python :class:`SeatPayments` (the reference of the compiled ``_walk.Seat``)
SeatPaymentsPy = SeatPayments


def _holds(known: dict, prices: tuple) -> bool:
    """Whether ``known`` holds the fronts of every price of ``prices``."""
    for t in prices:
        if t not in known:
            return False
    return True


def _seat_fronts(hand, contracts: tuple, left: int) -> dict:
    """The memo's entry for a hand (its signature) and contracts: ``{(colour, kind, second[, the
    contract taken]): {price: front}}``, made empty where there is none (:data:`_FRONTS`;
    Recent.get and .put written out: a call of either cost as much as its look-up, issue 34)."""
    at = (hand, contracts, left)
    young = _FRONTS.young
    if at in young:
        return young[at]
    old = _FRONTS.old
    mine = old[at] if at in old else {}  # asked for again: back to the young generation
    if len(young) < _FRONTS.size:
        young[at] = mine
    else:  # the young generation full: it becomes the old one
        _FRONTS.put(at, mine)
    return mine


def tokens_of(spent, toks) -> list[tuple]:
    """The token list of a spent vector of :func:`payment_front` (the first ``spent[j]`` tokens of
    class ``j``, in class order)."""
    return [tok for j, x in enumerate(spent) if x for tok in toks[j][:x]]


def _hand(player) -> tuple[tuple, tuple, tuple, tuple]:
    """:func:`classes` as ``(classes, counts, tokens of each, signature)``, tuples all through;
    the signature is the classes' numbers (:func:`_die_class`) then the counts, small integers
    only: it names the hand in the fronts' memo key, cheap to hash (a hand recurs little from one
    listing to the next, so it is worked out each time rather than remembered). Grouped by the
    compiled ``_walk.hand`` where it was built (the same tuples as :func:`_hand_py`, issue 34)."""
    p = player
    imps = p.improvements
    both = "Efficient Storage" in imps and imps.count("Efficient Storage") >= 2  # p.has(...) >= 2, no call
    if _compiled_hand is not None and not _PURE:
        got = _compiled_hand(p.dice, p.spent, p.die_kinds, both, _DIE_CLASSES[0], _DIE_CLASSES[1], p.markers,
                             _DIE_TOKENS, _MARKER_CLASSES)
        if got is not None:
            return got
    return _hand_py(p, both)


def _hand_py(player, both: bool) -> tuple[tuple, tuple, tuple, tuple]:
    """:func:`_hand` in Python (``both``: the player has two Efficient Storage)."""
    p = player
    kinds = p.die_kinds
    spent = p.spent
    plain, storing = _DIE_CLASSES
    keys = []
    nums = []
    toks = []
    for i, name in enumerate(p.dice):
        if spent[i]:
            continue
        # A basic die with two Efficient Storage stores both colours of a split face (its class).
        sb = both and kinds[i] == "basic"
        try:
            c, n = (storing if sb else plain)[name]
        except KeyError:
            c, n = _die_class(name, sb)
        tok = _DIE_TOKENS[i] if i < 64 else ("d", i)
        if n in nums:
            toks[nums.index(n)].append(tok)
        else:
            keys.append(c)
            nums.append(n)
            toks.append([tok])
    markers = p.markers
    for k in range(4):
        if markers[k]:
            c = _MARKER_CLASSES[k]  # a marker's token is its class
            keys.append(c)
            nums.append(k)
            toks.append([c] * markers[k])
    counts = [len(t) for t in toks]
    try:  # as bytes, whose hash is kept: worked out once for the memo's look-ups
        sig = bytes(nums + counts)
    except ValueError:  # a number over 255 (hundreds of markers): a tuple, never equal to bytes
        sig = tuple(nums + counts)
    return tuple(keys), tuple(counts), tuple([tuple(t) for t in toks]), sig


def _die_class(name: str, stores_both: bool) -> tuple[Cls, int]:
    """The class of an unspent die showing face ``name`` (``stores_both``: a basic die of a player
    with two Efficient Storage, which stores both colours of a split face) and its number:
    remembered (:data:`_DIE_CLASSES`), so that a class is always the same tuple (a dict finds it
    by identity) with the same number."""
    c = ("d", name, stores_both and len(face(name).colours) >= 2)
    got = _CLASSES.get(c)
    if got is None:
        got = _CLASSES[c] = (c, len(_CLASSES))
    _DIE_CLASSES[stores_both][name] = got
    return got


#: the marker classes, numbered 0-3 by colour (a marker's token is its class: ``("m", colour index)``)
_MARKER_CLASSES = tuple(("m", k) for k in range(4))
#: ``(class, number)`` of each class met, markers first: a few dozen (die faces, split faces
#: stored both or not, markers)
_CLASSES: dict[Cls, tuple[Cls, int]] = {c: (c, k) for k, c in enumerate(_MARKER_CLASSES)}
#: the tokens of the first 64 dice, made once (fewer objects for the garbage collector to count)
_DIE_TOKENS = tuple(("d", i) for i in range(64))
#: ``(class, number)`` of a die by face name: for a die that does not, and one that does, store
#: both colours (:func:`_die_class`)
_DIE_CLASSES: tuple[dict, dict] = ({}, {})


#: fronts already found, by hand and contracts (:func:`_seat_fronts`), then by kind of walk and
#: contract taken, then by price (the same recur within a decision: listing, then applying
#: ``pay=""``; a search visiting a state again). Small: a search bot's
#: hits are nearly as many as with ten times more (68% against 71% of look-ups), and memos of
#: long-lived entries cost every full garbage collection (a sixth of an OpenSpiel MCTS game's
#: time with 10,000 entries each, issue 33 item 1)
_FRONTS = Recent(1000)


@contextmanager
def recorded_walks() -> Iterator[list[tuple]]:
    """Inside the ``with`` block, the arguments of every walk of the fronts (:func:`_fronts`: one
    hand, its contracts and prices; a memo hit is no walk) are appended to the list it gives, to
    be walked again (benchmarks, and tests comparing the compiled walk with Python's)."""
    global _fronts
    walks: list[tuple] = []
    walk = _fronts

    def recording(*args):
        walks.append(args)
        return walk(*args)

    _fronts = recording
    _setup_seat(recording, False)  # the compiled SeatPayments walks through it too
    try:
        yield walks
    finally:
        _fronts = walk
        _setup_seat(walk, True)


def clear_caches() -> None:
    """Forget the fronts remembered (for tests and benchmarks: the answers are the same)."""
    _FRONTS.clear()


#: ``ROLLING_PURE_PYTHON`` set (read once, at import): find the fronts (and, :mod:`.routes`, the
#: major routes) in Python even where the compiled parts were built (the tests compare the two)
_PURE = bool(os.environ.get("ROLLING_PURE_PYTHON"))


def compiled() -> bool:
    """Whether the payment fronts are found by the compiled walk (the optional C extension
    ``_walk``, built by ``setup.py`` where a C compiler is found, and ``ROLLING_PURE_PYTHON`` not
    set); the answers are the same either way (:func:`_fronts_py`)."""
    return _compiled_fronts is not None and not _PURE


def _fronts(keys: tuple, counts: tuple, colour, kind: str, second: bool, contracts: tuple, left: int,
            targets: tuple) -> dict[int, tuple]:
    """:func:`_fronts_py`, by the compiled walk where it was built and the walk's numbers fit its
    fixed-width integers (else in Python): ``{price: payments}``, each payment a tuple of tokens
    spent per class of ``keys``."""
    if _compiled_fronts is not None and not _PURE:  # compiled(), without a call
        # _fronts_c written out where the table holds the hand's classes (one call less a walk)
        try:
            got = _compiled_fronts(_INFO_TABLES["route" if kind == "route" else "contract", second, colour], keys,
                                   counts, contracts, left, second, colour is None, targets, MAX_LISTED)
        except KeyError:  # a kind of walk or a class new to the tables (_fronts_c fills them)
            got = _fronts_c(keys, counts, colour, kind, second, contracts, left, targets)
        if got is not None:
            return got
    return _fronts_py(keys, counts, colour, kind, second, contracts, left, targets)


def _fronts_c(keys: tuple, counts: tuple, colour, kind: str, second: bool, contracts: tuple, left: int,
              targets: tuple) -> dict[int, tuple] | None:
    """:func:`_fronts_py` by the compiled walk (``None`` where its numbers do not fit its
    fixed-width integers: see ``_walk.c``). The walk looks each class's :func:`_class_info` up in
    the table of the walk's kind (remembering it by the class and table objects: most hands are
    new to a walk, but their classes are not, issue 34) and works the contracts' sets out itself."""
    purpose = "route" if kind == "route" else "contract"
    try:
        table = _INFO_TABLES[purpose, second, colour]
    except KeyError:
        table = _INFO_TABLES[purpose, second, colour] = {}
    try:
        return _compiled_fronts(table, keys, counts, contracts, left, second, colour is None, targets, MAX_LISTED)
    except KeyError:  # a class new to this kind of walk: its info into the table, then walked
        for c in keys:
            if c not in table:
                table[c] = _class_info(c, purpose, second, colour)
        return _compiled_fronts(table, keys, counts, contracts, left, second, colour is None, targets, MAX_LISTED)


#: :func:`_class_info` by (purpose, second, colour), then by class: a few dozen tables of at most a
#: few dozen classes (die faces, split dice storing both or not, markers)
_INFO_TABLES: dict[tuple, dict] = {}


def _fronts_py(keys: tuple, counts: tuple, colour, kind: str, second: bool, contracts: tuple, left: int,
               targets: tuple) -> dict[int, tuple]:
    """:func:`payments` as spent vectors for each price in ``targets`` (any dice), from the
    seat's classes alone.

    Payments are not enumerated one by one: a walk over the classes (those that can pay the
    colour die first, then by count) keeps, after each class, one partial payment per distinct
    *partial state* (units paid, what is spent off each build cut,
    the additive items spent so far, colours covered by the classes kept so far, route symbol
    spent), since two partial payments in the same state have the same completions with the same
    order items. Of two in one state the one spending more of the earlier classes (dice in die
    order, then markers) is kept, so each set of the seven items comes with that payment. The
    items are those of :class:`Scorer`, counted as what is spent and packed in one integer.

    Packed partial state, from the low bits: bit 0 the colour die paid (or none to pay), bit 1
    the route symbol spent (or not needed), bits 2-6 the colours covered by the classes kept, then
    :data:`_W`-bit fields: the wild symbols spent, an empty field, the worth, markers and units
    spent, the money, what is spent off each build cut that can matter, and above them the units
    paid (the first six fields at their places in a key, :data:`_GUARDS`). A payment is packed
    as one digit per class (how many of its tokens are spent, in as many bits as the largest
    count needs), earliest class highest, so comparing two partial payments as integers compares
    them as tuples, whatever order the walk takes the classes in.
    """
    purpose = "route" if kind == "route" else "contract"
    n = len(keys)
    # Build cuts (module text): for a set m of contracts, the squares of the others plus what
    # the kept tokens feeding m can add. The least counts, capped by the cubes left: a cut no
    # token feeds lowers the cap, a cut no payment can bring below the cap is dropped.
    nc = len(contracts)
    bits, inside = _contract_sets(contracts)
    every = (1 << nc) - 1
    infos = []
    fed = 0
    for c in keys:
        info = _class_info(c, purpose, second, colour)
        fd = info[6]
        if fd is None:
            f = every
        else:
            f = 0
            for col in fd:
                f |= bits.get(col, 0)
        fed |= f
        infos.append((info, f))
    total = inside[-1]
    cap = min(left, total)
    for m in range(1, 1 << nc):
        if not m & fed and total - inside[m] < cap:
            cap = total - inside[m]
    cuts = [m for m in range(1, 1 << nc) if m & fed and total - inside[m] < cap]
    cut_const = [total - inside[m] for m in cuts]
    ps = 7 + _W * (6 + len(cuts))
    # A payment's digits: ``size`` bits per class, the earliest class highest.
    size = max(counts, default=0).bit_length()
    t_units = t_mk = t_wo = t_wi = 0
    start = 0 if second else 2
    if colour is None:
        start |= 1
    walked = []  # (class, pays colour, count, packed items spent by count, flags by count, place)
    shift = size * n
    for j, ((info, f), cnt) in enumerate(zip(infos, counts, strict=True)):
        use, pays, one, cover, route, weight, _fd, items = info
        shift -= size
        t_units += items[0] * cnt
        t_mk += items[1] * cnt
        t_wo += items[2] * cnt
        t_wi += items[3] * cnt
        if f:
            for g, m in enumerate(cuts):
                if f & m:
                    cut_const[g] += weight * cnt
                    if use or pays:
                        one += weight << 7 + _W * (6 + g)
        if use == 0 and not pays:
            start |= cover  # never spent: kept whole
            continue
        if cnt == 1:  # most dice: none spent or the one
            walked.append((j, pays, 1, (0, one), (cover, route), 1 << shift))
        else:
            walked.append((j, pays, cnt, [one * k for k in range(cnt + 1)],
                           [(cover if k < cnt else 0) | (route if k else 0) for k in range(cnt + 1)], 1 << shift))
    # The classes that can pay the colour die first (a partial payment that did not pay it is
    # dropped as soon as no later class can), then the fewest tokens first (most branching last):
    # fewer partial payments, the same fronts (a payment's digits stay at its classes' places).
    walked.sort(key=lambda w: (not w[1], w[2]))
    units = [info[0][0] for info in infos]
    shifts = [_W * (6 + g) for g in range(len(cuts))]
    # the kept items in a key's places (see _run), money (collected) and colours covered left at 0
    totals = (t_units << 4 * _W) + (t_mk << 3 * _W) + (t_wo << 2 * _W) + t_wi
    found = _run(walked, units, start, set(targets), ps, cap, cut_const, shifts, totals)
    # An any2 may pay a cost of one: an odd price may also be paid with two-unit tokens alone.
    odd = {t + 1 for t in targets if t % 2}
    if odd and 2 in units:
        twos = [u if u == 2 else 0 for u in units]
        for t, best in _run(walked, twos, start, odd, ps, cap, cut_const, shifts, totals).items():
            mine = found.setdefault(t - 1, {})
            for key, path in best.items():
                if key not in mine or path > mine[key]:
                    mine[key] = path
    out = {}
    digit = (1 << size) - 1
    places = range(size * (n - 1), -1, -size) if size else (0,) * n
    for t in targets:
        best = found.get(t, {})
        front: list[int] = []
        guarded: list[int] = []  # each key of the front with the guard bits set
        for k in sorted(best, reverse=True):
            # Sorted best first, so only an earlier key can match or beat this one on every item
            # (o >= k field by field: no field of (o | guards) - k borrows its guard bit).
            for og in guarded:
                if og - k & _GUARDS == _GUARDS:
                    break
            else:
                front.append(k)
                guarded.append(k | _GUARDS)
                if len(front) == MAX_LISTED:
                    break
        out[t] = tuple([tuple([best[k] >> sh & digit for sh in places]) for k in front])
    return out


@lru_cache(maxsize=4096)
def _contract_sets(contracts: tuple) -> tuple[dict, tuple]:
    """For :func:`_fronts`: the contracts of each colour as bits, and the empty squares of the
    contracts in each set (bit mask) of them (remembered: a seat's contracts recur from one
    decision to the next; the dict is shared, read only)."""
    bits: dict[str, int] = {}
    for i, (col, _e) in enumerate(contracts):
        bits[col] = bits.get(col, 0) | 1 << i
    inside = [0] * (1 << len(contracts))
    for m in range(1, 1 << len(contracts)):
        low = m & -m
        inside[m] = inside[m ^ low] + contracts[low.bit_length() - 1][1]
    return bits, tuple(inside)


#: the bits of one counted item in a packed partial state of :func:`_fronts` (none nears 2**10)
_W = 10
_MASK = (1 << _W) - 1
#: A walk's key of a payment: the seven items of the order as :data:`_W`-bit fields of one
#: integer, most important highest (cubes buildable, money, any dice kept, markers kept, worth,
#: colours covered, wild kept), so that comparing keys compares the items in order, and one key
#: is at least another on every item when subtracting it from the first with each field's top
#: bit set (:data:`_GUARDS`; every item stays under 2**9) borrows from no field. A partial state
#: keeps its spent wild, worth, markers and units and its money at the same places (a zero field
#: where the colours go), so the key's last six fields are the totals less what is spent.
_GUARDS = sum(1 << _W * f + _W - 1 for f in range(7))
_MONEY = _MASK << 5 * _W
_SPENT = sum(_MASK << _W * f for f in (0, 2, 3, 4))


@lru_cache(maxsize=8192)
def _class_info(c: Cls, purpose: str, second: bool, colour) -> tuple:
    """What a token of class ``c`` does in a walk of :func:`_fronts`: ``(units paid, pays the
    colour die, packed items one token spends, cover bits, route bit, build weight, colours fed
    (None: all), (units, marker, worth, wild) of :class:`Scorer`)``."""
    units, marker, worth, wild, bonus, cover, weight, feeds = _class_items(c, purpose)
    one = (wild << 7) + (worth << 7 + 2 * _W) + (marker << 7 + 3 * _W) + (units << 7 + 4 * _W) + (bonus << 7 + 5 * _W)
    route = 2 if c[0] == "d" and face(c[1]).kind == "route" else 0
    return (class_units(c, purpose, second), colour is not None and class_pays_colour(c, colour), one,
            cover << 2, route, weight, feeds, (units, marker, worth, wild))


@lru_cache(maxsize=4096)
def _class_items(c: Cls, purpose: str) -> tuple:
    """What one token of class ``c`` takes off the kept items of :class:`Scorer` (money: adds):
    ``(units, marker, worth, wild, bonus, cover bits, build weight, colours it feeds)``, the last
    ``None`` (any contract), a frozenset of colours, or an empty frozenset."""
    if c[0] == "m":
        colour = COLOURS[c[1]]
        return 1, 1, 0, 0, 0, _COVER_BITS[colour], 1, frozenset((colour,))
    f = face(c[1])
    k = f.kind
    units = 2 if k == "any2" else 1 if k in ("colour", "wild", "any") else 0
    worth = wild = bonus = cover = 0
    feeds: frozenset | None = frozenset()
    if k == "colour":
        worth = 2 if c[2] else 1
        cover = sum(_COVER_BITS[x] for x in f.colours) | (_COVER_BITS[OCEAN] if len(f.colours) >= 2 else 0)
        feeds = frozenset(f.colours) | (frozenset((OCEAN,)) if len(f.colours) >= 2 else frozenset())
    elif k == "wild":
        wild = 1
        cover = 31
        feeds = None
    elif k == "cubes":
        feeds = None
    elif k == "bonus" and purpose == "route":
        bonus = 2
    return units, 0, worth, wild, bonus, cover, 2 if k == "cubes" else 1, feeds


def _run(walked, use, start: int, targets: set, ps: int, cap: int, cut_const, shifts, totals) -> dict[int, dict]:
    """One walk of :func:`_fronts`: for each price in ``targets`` (units of ``use`` paid), each set
    of the seven items reached, with its payment (packed).

    A partial payment that can no longer be completed is dropped at once: the units the later
    classes can pay (a set of sums, as bits) cannot bring it to a price, or no later class can pay
    the colour die or the route symbol still owed."""
    tmask = sum(1 << t for t in targets)
    top_t = max(targets)
    n = len(walked)
    reach = [1] * (n + 1)  # bit s: the classes after this one can pay s units
    owed = [0] * (n + 1)  # bits 0, 1: a later class can pay the colour die, the route symbol
    for i in range(n - 1, -1, -1):
        j, pays, whole, _a, flags, _w = walked[i]
        u = use[j]
        r = reach[i + 1]
        if u:
            for x in range(1, whole + 1):
                r |= reach[i + 1] << x * u
        reach[i] = r
        owed[i] = owed[i + 1] | (1 if pays else 0) | (flags[-1] & 2)
    states = {start: 0}
    for i, (j, pays, whole, adds, flags, place) in enumerate(walked[:-1]):
        after = reach[i + 1]
        left_owed = owed[i + 1]
        free, paying = _choices(use[j], ps, pays, whole, adds, flags, place)
        new: dict[int, int] = {}
        get = new.get
        for st, path in states.items():
            paid = st >> ps
            for du, d, fl, dq in (free if st & 1 else paying):
                np = paid + du
                if np > top_t:
                    break
                if not (tmask >> np) & after:
                    continue
                ns = (st + d) | fl
                if (ns | left_owed) & 3 != 3:
                    continue
                q = path + dq
                if q > get(ns, -1):
                    new[ns] = q
        states = new
    # The last class completes each partial payment, which is keyed at once: the items' fixed part
    # (the kept totals, and a build capped by ``cap``, lowered per cut), less what it spends.
    if walked:
        j, pays, whole, adds, flags, place = walked[-1]
        free, paying = _choices(use[j], ps, pays, whole, adds, flags, place)
    else:  # nothing to spend: the empty payment, if it pays a price
        free = paying = ((0, 0, 0, 0),)
    mask = _MASK
    spent_mask = _SPENT
    fixed = (cap << 6 * _W) + totals
    cuts = [(cc - cap, sh - 6 * _W) for cc, sh in zip(cut_const, shifts, strict=True)]
    out: dict[int, dict] = {t: {} for t in targets}
    # How far the build cuts take the build below the cap, by what is spent off them (the bits
    # of a state between its other items and its units paid); payments alike there share it.
    lows: dict[int, int] = {}
    first = 7 + 6 * _W
    part = (1 << ps - first) - 1
    for st, path in states.items():
        paid = st >> ps
        for du, d, fl, dq in (free if st & 1 else paying):
            np = paid + du
            if np > top_t:
                break
            if not (tmask >> np) & 1:
                continue
            ns = (st + d) | fl
            if ns & 3 != 3:
                continue
            v = ns >> 7
            spent = ns >> first & part
            low = lows.get(spent)
            if low is None:
                low = 0
                for cc, sh in cuts:
                    c = (spent >> sh & mask) - cc
                    if c > low:
                        low = c
                lows[spent] = low = low << 6 * _W
            key = fixed - (v & spent_mask) + (v & _MONEY) + ((ns >> 2 & 31).bit_count() << _W) - low
            best = out[np]
            q = path + dq
            if q > best.get(key, -1):
                best[key] = q
    return {t: b for t, b in out.items() if b}


def _choices(u: int, ps: int, pays: bool, whole: int, adds, flags, place: int) -> tuple:
    """A class's choices in a walk of :func:`_run`, as ``(units paid, packed change, flags set,
    payment digit)``, fewest units first: for a partial payment that paid the colour die (or has
    none to pay), ``x`` tokens paying ``u`` units each; for one that has not, also one more token
    paying the colour die (``pays``)."""
    unit = u << ps
    if whole == 1:  # most dice: kept, or spent (and then perhaps on the colour die)
        kept = (0, 0, flags[0], 0)
        free = (kept, (u, unit + adds[1], flags[1], place)) if u else (kept,)
        return free, (kept, (0, adds[1], flags[1] | 1, place)) + free[1:] if pays else free
    xs = range(whole + 1) if u else (0,)
    free = [(x * u, x * unit + adds[x], flags[x], x * place) for x in xs]
    return free, sorted(free + [(x * u, x * unit + adds[x + 1], flags[x + 1] | 1, (x + 1) * place)
                                for x in xs if x < whole]) if pays else free


def class_units(c: Cls, purpose: str, second: bool = False) -> int:
    """How many any dice a token of class ``c`` pays for ``purpose`` (as :func:`.payment.generic_units`)."""
    return 1 if c[0] == "m" else kind_units(face(c[1]).kind, purpose, second)


def class_pays_colour(c: Cls, colour: str) -> bool:
    """Whether a token of class ``c`` pays a contract's die of ``colour`` (as :func:`.payment.pays_colour`)."""
    if c[0] == "m":
        return colour != OCEAN and COLOURS[c[1]] == colour
    f = face(c[1])
    if f.kind == "wild":
        return True
    if colour == OCEAN:
        return len(f.colours) >= 2
    return colour in f.colours


def _setup_seat(fronts, direct: bool) -> None:
    """Tell the compiled ``_walk.Seat`` what it reads and the Python functions it falls back on
    (``fronts``: every walk through it unless ``direct``, where it calls the compiled walk itself)."""
    if _seat_setup is not None:
        _seat_setup(_DIE_CLASSES[0], _DIE_CLASSES[1], _DIE_TOKENS, _MARKER_CLASSES, _INFO_TABLES, _hand,
                    _class_info, _seat_fronts, fronts, MAX_LISTED, direct, _FRONTS)


_setup_seat(_fronts, True)
if _CompiledSeat is not None and not _PURE:
    SeatPayments = _CompiledSeat  # noqa: F811 (the compiled twin of the class above)


def best_payment(state, seat: int, colour: str | None, generic: int, purpose: str, second: bool = False,
                 take=None) -> list[tuple] | None:
    """The engine's payment (``pay=""``): the first of :func:`payments`, ``None`` if unaffordable.
    In a game whose config says ``payment: "legacy"`` (a record made before issue 28 item 5), the
    chooser it was played with, :func:`.payment.auto_purchase`."""
    if state.config.payment == "legacy":
        return auto_purchase(state, seat, colour, generic, purpose, second)
    return SeatPayments(state, seat).best(colour, generic, purpose, second, take)
