"""Issue 34 (a faster Freight engine): the payment fronts found by the compiled walk
(``rolling.games.freight._walk``, C, built by ``setup.py`` where a C compiler is found) are the
very fronts of the Python walk (:func:`rolling.games.freight.payways._fronts_py`), payment by
payment and in order, for the hands of random games on both maps at every player count and for
arbitrary hands (hypothesis); a walk whose numbers do not fit its fixed-width integers is walked
in Python; ``ROLLING_PURE_PYTHON`` turns the compiled walk off.

Rules: "A: Taking on Contracts", "C: Establishing Major Routes", "D: Building Switching
Stations", "E. Purchasing Improvements" (what a price is); the order of what is kept is
:mod:`rolling.games.freight.payways`'s.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from rolling.bots import make_bot
from rolling.games.freight import Config, new_game, payways, routes
from rolling.games.freight.components import COLOURS, OCEAN, SYMBOLS
from rolling.sim import play_game

compiled = pytest.mark.skipif(payways._compiled_fronts is None, reason="built without a C compiler (setup.py)")


def walks_of_random_games(games: int) -> list[tuple]:
    """The arguments of every walk the listings of random games asked for, both maps, every player
    count."""
    try:
        with payways.recorded_walks() as walks:
            for map_name, players in (("west-coast", 2), ("west-coast", 3), ("west-coast", 4),
                                      ("southern", 3), ("southern", 4), ("southern", 5)):
                for g in range(games):
                    state = new_game(Config(map_name, players), 7 * g + players)
                    play_game(state, [make_bot("freight", "random", 31 * g + i) for i in range(players)])
    finally:
        payways.clear_caches()
    return walks


@compiled
def test_compiled_fronts_are_the_python_fronts_along_random_games():
    """Issue 34: every walk of random 2-5 player games on both maps gives the same fronts, the
    same payments in the same order, compiled and in Python (none falls back)."""
    walks = walks_of_random_games(2)
    assert len(walks) > 2000
    contracts_walked = sum(1 for w in walks if w[2] is not None)
    assert contracts_walked > 500  # contract prices (a colour die) as well as any-dice prices
    for args in walks:
        got = payways._fronts_c(*args)
        assert got is not None, args
        assert got == payways._fronts_py(*args), args


DIE_CLASSES = ([("d", c, False) for c in COLOURS]
               + [("d", f"{a}/{b}", both) for i, a in enumerate(COLOURS) for b in COLOURS[i + 1:]
                  for both in (False, True)]
               + [("d", s, False) for s in SYMBOLS])


@st_.composite
def hands(draw):
    """A hand as ``_fronts`` takes it: dice classes in die order, then markers by colour, with
    counts; the contracts to build, cubes left, a colour die or none, the purpose and prices."""
    dice = draw(st_.lists(st_.sampled_from(DIE_CLASSES), max_size=7, unique=True))
    dice_counts = [draw(st_.integers(1, 3)) for _ in dice]
    markers = [("m", k) for k in range(4) if draw(st_.booleans())]
    marker_counts = [draw(st_.integers(1, 8)) for _ in markers]
    contracts = tuple(draw(st_.lists(st_.tuples(st_.sampled_from((*COLOURS, OCEAN)), st_.integers(0, 6)),
                                     max_size=4)))
    kind = draw(st_.sampled_from(("buy", "route")))
    colour = draw(st_.sampled_from((None, *COLOURS, OCEAN))) if kind == "buy" else None
    second = kind == "route" and draw(st_.booleans())
    targets = tuple(sorted(set(draw(st_.lists(st_.integers(0, 12), min_size=1, max_size=4)))))
    return (tuple(dice + markers), tuple(dice_counts + marker_counts), colour, kind, second, contracts,
            draw(st_.integers(0, 30)), targets)


@compiled
@settings(max_examples=400, deadline=None)
@given(hands())
def test_compiled_fronts_are_the_python_fronts_for_any_hand(args):
    """Issue 34: for arbitrary hands (split dice storing both colours, every symbol, markers of
    each colour, up to four contracts, routes first and second), the same fronts either way."""
    got = payways._fronts_c(*args)
    assert got is not None
    assert got == payways._fronts_py(*args)


@compiled
def test_numbers_too_large_for_the_compiled_walk_are_walked_in_python():
    """Issue 34: a price of 63 any dice or more, or 61 tokens of one class, does not fit the
    compiled walk's fixed-width integers: it answers ``None`` and ``_fronts`` gives the Python
    walk's answer."""
    keys = (("d", "any2", False), ("m", 2))
    for counts, targets in (((40, 10), (63, 64)), ((1, 61), (3,))):
        args = (keys, counts, None, "buy", False, (), 20, targets)
        assert payways._fronts_c(*args) is None
        assert payways._fronts(*args) == payways._fronts_py(*args)
    assert payways._fronts(keys, (40, 10), None, "buy", False, (), 20, (63, 64))[64]  # 32 any2 pay 64


@pytest.mark.parametrize("map_name, players", [("west-coast", 3), ("southern", 4)])
def test_pure_python_when_asked(map_name, players):
    """Issue 34: with ``ROLLING_PURE_PYTHON`` set the payment fronts and the major routes are found
    in Python (``payways.compiled()`` and ``routes.compiled()`` say so); a random game is the same
    game either way."""
    code = ("from rolling.games.freight import payways, routes, Config, new_game;"
            "from rolling.bots import make_bot; from rolling.sim import play_game;"
            f"s = new_game(Config({map_name!r}, {players}), 5);"
            f"play_game(s, [make_bot('freight', 'random', i) for i in range({players})]);"
            "print(payways.compiled(), routes.compiled(), s.digest())")
    outs = {}
    for pure in ("", "1"):
        env = dict(os.environ, ROLLING_PURE_PYTHON=pure)
        outs[pure] = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                    check=True).stdout.split()
    assert outs["1"][:2] == ["False", "False"]
    assert outs[""][:2] == [str(payways._compiled_fronts is not None), str(routes._compiled_search is not None)]
    assert outs[""][2] == outs["1"][2]


@compiled
@pytest.mark.parametrize("contracts, counts, width", [
    ((), (1, 2, 1, 2, 1, 3, 2), 0),  # no build cut: one word
    (((COLOURS[0], 3), (COLOURS[1], 2), (COLOURS[2], 4), (OCEAN, 2)), (1, 2, 1, 2, 1, 3, 2), 1),  # fifteen cuts: two
    (((COLOURS[0], 3), (COLOURS[1], 2), (COLOURS[2], 4), (OCEAN, 2), (COLOURS[3], 5)), (3,) * 7, 2),  # 31 cuts: three
    (((COLOURS[0], 3), (COLOURS[1], 2), (COLOURS[2], 4), (OCEAN, 2), (COLOURS[3], 5), (COLOURS[0], 4)),
     (1, 2, 1, 2, 1, 3, 2), 3),  # 63 cuts: four words
])
def test_each_width_of_the_compiled_walk_gives_the_python_fronts(contracts, counts, width):
    """Issue 34: the compiled walk holds a walk's partial states in the fewest 64-bit words its
    fields fit (each as wide as the walk's largest sum of it: one word with no build cut, two with
    the fifteen cuts of four contracts, three and four with the 31 and 63 cuts of five and six,
    ``_walk.walks_by_width`` counts them); each width gives the Python walk's fronts, for contract
    prices (a colour die), any-dice prices, odd prices an any2 may pay, and first and second major
    routes."""
    from rolling.games.freight import _walk

    a, b = COLOURS[0], COLOURS[1]
    keys = (("d", "wild", False), ("d", "any2", False), ("d", a, False), ("d", f"{a}/{b}", True), ("d", "route", False),
            ("m", 0), ("m", 2))
    for colour, kind, second in ((None, "buy", False), (a, "buy", False), (OCEAN, "buy", False),
                                 (None, "route", False), (None, "route", True)):
        args = (keys, counts, colour, kind, second, contracts, 30, (1, 2, 3, 5))
        before = _walk.walks_by_width()
        got = payways._fronts_c(*args)
        after = _walk.walks_by_width()
        assert [y - x for x, y in zip(before, after, strict=True)] == [int(k == width) for k in range(4)]
        assert got == payways._fronts_py(*args), args
        assert any(got.values())


@compiled
@pytest.mark.parametrize("colour, kind, target", [(None, "buy", 3), (COLOURS[0], "buy", 2), (None, "route", 4)])
def test_a_front_made_again_is_the_tuple_made_before(colour, kind, target):
    """Issue 34: the compiled walk remembers the fronts it made lately by their payments (each
    payment a tuple remembered by its digits): the same walk again gives the very tuple it gave
    before, still the Python walk's front; a walk of other prices gives its own."""
    a, b = COLOURS[0], COLOURS[1]
    keys = (("d", "wild", False), ("d", "any2", False), ("d", a, False), ("d", f"{a}/{b}", True), ("m", 0), ("m", 2))
    args = (keys, (1, 2, 1, 1, 3, 2), colour, kind, False, ((a, 3), (b, 2)), 30, (target,))
    got = payways._fronts_c(*args)
    again = payways._fronts_c(*args)
    assert got == payways._fronts_py(*args)
    assert got[target] and again[target] is got[target]
    other = (*args[:-1], (target + 1,))
    assert payways._fronts_c(*other) == payways._fronts_py(*other)


@compiled
def test_a_compiled_front_reads_as_the_tuple_of_its_payments():
    """Issue 34: a front of the compiled walk (``_walk.Front``: each payment's tuple made only when
    read) is the tuple of its payments to every reader: its length, its items (counted from the
    end too, IndexError past it), slices, iteration, comparisons either way round, hash, repr,
    pickling and copying (as that tuple); a price with no payment has the empty tuple."""
    import copy
    import pickle

    from rolling.games.freight import _walk

    a, b = COLOURS[0], COLOURS[1]
    keys = (("d", "wild", False), ("d", "any2", False), ("d", a, False), ("d", f"{a}/{b}", True), ("m", 0), ("m", 2))
    args = (keys, (1, 2, 1, 1, 3, 2), None, "buy", False, ((a, 3), (b, 2)), 30, (3, 40))
    got = payways._fronts_c(*args)
    want = payways._fronts_py(*args)
    assert got == want and want == got
    front, tup = got[3], want[3]
    assert type(front) is _walk.Front and type(tup) is tuple and len(tup) > 1
    assert len(front) == len(tup) and front
    assert [front[k] for k in range(len(tup))] == list(tup)
    assert front[-1] == tup[-1] and front[-len(tup)] == tup[0] and front[1:] == tup[1:] and front[::-1] == tup[::-1]
    for k in (len(tup), -len(tup) - 1):
        with pytest.raises(IndexError):
            front[k]
    assert tuple(front) == tup and list(front) == list(tup) and tup[0] in front
    assert front == tup and tup == front and not front != tup and front == front
    assert front < (*tup, tup[0]) and (*tup, tup[0]) > front and front <= tup and front >= tup
    assert front != list(tup) and front != got[40]
    assert hash(front) == hash(tup) and repr(front) == repr(tup)
    for back in (pickle.loads(pickle.dumps(front)), copy.copy(front), copy.deepcopy(front)):
        assert back == tup
    assert type(pickle.loads(pickle.dumps(front))) is tuple
    assert got[40] == () and type(got[40]) is tuple


FACE_NAMES = [c for c in COLOURS] + [f"{a}/{b}" for i, a in enumerate(COLOURS) for b in COLOURS[i + 1:]] + list(SYMBOLS)


@st_.composite
def players(draw):
    """A player's mat as ``_hand`` reads it: faces showing, spent flags, die kinds, zero to three
    Efficient Storage, markers of each colour."""
    from rolling.games.freight.state import Player

    p = Player()
    n = draw(st_.integers(0, 12))
    p.dice = [draw(st_.sampled_from(FACE_NAMES)) for _ in range(n)]
    p.spent = [draw(st_.booleans()) for _ in range(n)]
    p.die_kinds = [draw(st_.sampled_from(("basic", "basic", "black", "red"))) for _ in range(n)]
    p.improvements = ["Efficient Storage"] * draw(st_.integers(0, 3))
    p.markers = [draw(st_.integers(0, 12)) for _ in range(4)]
    return p


@compiled
@settings(max_examples=300, deadline=None)
@given(players())
def test_compiled_hand_is_the_python_hand(p):
    """Issue 34: the compiled grouping of a seat's hand (``_walk.hand``) gives the very tuples of
    :func:`rolling.games.freight.payways._hand_py` (the same class objects, counts, tokens and
    signature) for any mat: split faces stored both with two Efficient Storage ("The Improvement
    Dice (sidebar)"), spent dice, markers of each colour."""
    both = p.has("Efficient Storage") >= 2
    want = payways._hand_py(p, both)
    got = payways._hand(p)
    assert got == want
    assert all(a is b for a, b in zip(got[0], want[0], strict=True))
    assert type(got[3]) is type(want[3])


@compiled
def test_a_hand_the_compiled_grouping_does_not_take_is_grouped_in_python():
    """Issue 34: a hand with hundreds of markers (a count over 255) is grouped in Python, its
    signature a tuple."""
    from rolling.games.freight import _walk
    from rolling.games.freight.state import Player

    p = Player()
    p.dice, p.spent, p.die_kinds, p.markers = [COLOURS[0]], [False], ["basic"], [300, 0, 0, 1]
    assert _walk.hand(p.dice, p.spent, p.die_kinds, False, *payways._DIE_CLASSES, p.markers, payways._DIE_TOKENS,
                      payways._MARKER_CLASSES) is None
    keys, counts, toks, sig = payways._hand(p)
    assert counts == (1, 300, 1) and isinstance(sig, tuple) and (keys, counts, toks, sig) == payways._hand_py(p, False)


seat_compiled = pytest.mark.skipif(payways._CompiledSeat is None or payways._PURE,
                                   reason="built without a C compiler (setup.py), or ROLLING_PURE_PYTHON set")


def seat_queries(state, seat: int, rng) -> list[tuple]:
    """Prices a listing (and ``pay=""``) asks a seat's payments for: contracts taken (a colour die
    and the link taken), major routes (first or second), improvements and stations (``also``:
    rising, unsorted, without the price), and the same again (the memo's answers)."""
    links = state.map.links
    out = []
    for _ in range(3):
        link = links[rng.randrange(len(links))]
        out.append((link.colour, rng.randrange(0, 5), "contract", False, link, ()))
    second = state.routes_done == 1
    out.append((None, 3, "route", second, None, (3, 5, 7)))
    out.append((None, 2, "route", not second, None, ()))
    out.append((None, 1, "improvement", False, None, (1, 2, 4, 6)))
    out.append((None, 4, "station", False, None, (6, 4, 2)))  # unsorted: walked as sorted
    out.append((None, 5, "improvement", False, None, (1, 2)))  # the price not in ``also``
    out.append((None, 3, "improvement", False, None, ()))  # known: the memo's entry grows
    out.append((None, 3, "improvement", False, None, (3, 8)))
    out.append(out[0])
    return out


class CheckingBot:
    """The random bot, comparing the compiled ``SeatPayments`` (``_walk.Seat``) with the Python
    one at each decision before it moves."""

    def __init__(self, bot, rng) -> None:
        self.bot = bot
        self.rng = rng
        self.checked = 0

    def choose(self, state, seat: int):
        c = payways.SeatPayments(state, seat)
        p = payways.SeatPaymentsPy(state, seat)
        assert type(c) is payways._CompiledSeat
        for name in ("keys", "counts", "toks", "hand", "contracts", "left"):
            assert getattr(c, name) == getattr(p, name), name
        assert all(a is b for a, b in zip(c.keys, p.keys, strict=True))
        assert type(c.hand) is type(p.hand)
        for q in seat_queries(state, seat, self.rng):
            payways.clear_caches()
            got = dict(c.fronts(*q))
            best = c.best(*q[:5])
            payways.clear_caches()
            want = dict(p.fronts(*q))
            assert got == want, q
            assert best == p.best(*q[:5]), q
            assert c.front(*q) == p.front(*q), q
            self.checked += 1
        return self.bot.choose(state, seat)


@seat_compiled
@pytest.mark.parametrize("map_name, players", [("west-coast", 2), ("west-coast", 3), ("west-coast", 4),
                                               ("southern", 3), ("southern", 4), ("southern", 5)])
def test_compiled_seat_payments_are_the_python_ones_along_random_games(map_name, players):
    """Issue 34: at every decision of random games (both maps, 2-5 players) the compiled
    ``SeatPayments`` reads the same hand (the same class objects, counts, tokens, signature),
    contracts and cubes left as the Python one, and gives the same fronts of every kind of price
    asked (a contract taken, routes first and second, improvements and stations with ``also``
    rising, unsorted or without the price, a price added to a known entry), the same engine's
    payment (``best``) and the same ``front``; and the games are those of the Python one."""
    import random

    try:
        state = new_game(Config(map_name, players), 5 * players + 1)
        bots = [CheckingBot(make_bot("freight", "random", 17 * players + i), random.Random(i)) for i in range(players)]
        play_game(state, bots)
        assert sum(b.checked for b in bots) > 1000
    finally:
        payways.clear_caches()


@seat_compiled
def test_compiled_seat_takes_arguments_as_the_python_one():
    """Issue 34: ``_walk.Seat`` takes keywords as ``SeatPayments`` does, and an argument it does
    not know raises ``TypeError``."""
    state = new_game(Config("west-coast", 3), 3)
    c = payways.SeatPayments(state=state, seat=1)
    p = payways.SeatPaymentsPy(state, 1)
    assert c.counts == p.counts and c.known is None
    payways.clear_caches()
    assert c.fronts(None, 2, purpose="improvement", also=(1, 2)) == p.fronts(None, 2, "improvement", also=(1, 2))
    assert c.known is not None
    with pytest.raises(TypeError):
        c.fronts(None, 2, "improvement", colours=())
    with pytest.raises(TypeError):
        c.fronts(None, 2)
    with pytest.raises(TypeError):
        payways.SeatPayments(state)
    payways.clear_caches()


@seat_compiled
def test_compiled_seat_fills_new_info_tables_as_python_does(monkeypatch):
    """Issue 34: with the walk's info tables empty (every kind of walk and class new), the
    compiled ``SeatPayments`` makes each table and fills it with each class's ``_class_info`` as
    ``_fronts_c`` does, and gives the Python fronts; the walks recorded are the same walks."""
    import random

    tables: dict = {}
    monkeypatch.setattr(payways, "_INFO_TABLES", tables)
    payways._setup_seat(payways._fronts, True)
    try:
        rng = random.Random(3)
        state = new_game(Config("southern", 4), 11)
        bots = [make_bot("freight", "random", i) for i in range(4)]
        for _ in range(120):
            if state.is_over:
                break
            seat = state.to_act[0]
            c = payways.SeatPayments(state, seat)
            p = payways.SeatPaymentsPy(state, seat)
            for q in seat_queries(state, seat, rng):
                payways.clear_caches()
                got = c.fronts(*q)
                payways.clear_caches()
                assert got == p.fronts(*q), q
            state.apply(bots[seat].choose(state, seat))
        assert tables and all(t for t in tables.values())
        for (purpose, second, colour), table in tables.items():
            for cls, info in table.items():
                assert info == payways._class_info(cls, purpose, second, colour)
    finally:
        monkeypatch.undo()
        payways._setup_seat(payways._fronts, True)
        payways.clear_caches()
