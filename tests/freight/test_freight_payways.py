"""Every way to pay in Rolling Freight (issue 28 item 5): the engine's payment (``pay=""``) is the
best by the documented order of what is kept (:mod:`rolling.games.freight.payways`), and
``legal_actions`` lists the other payments, each legal and keeping something different.

Rules: "A: Taking on Contracts", "C: Establishing Major Routes", "D: Building Switching
Stations", "E. Purchasing Improvements", "The Improvement Dice (sidebar)".
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations, product
from math import prod

from freight_helpers import after_draft, give_contract, set_dice

from rolling.core.errors import IllegalAction
from rolling.games.freight import Config, new_game, previews
from rolling.games.freight.actions import Build, BuildStation, BuyImprovement, EstablishRoute, TakeContract
from rolling.games.freight.contracts import can_start, contract_cost
from rolling.games.freight.improvements import improvement_cost
from rolling.games.freight.payment import check_purchase, pay_text
from rolling.games.freight.payways import MAX_LISTED, Scorer, _contracts, classes, payments
from rolling.games.freight.routes import enumerate_routes, route_payment
from rolling.games.freight.stations import station_cost


def _tokens(p):
    dice = [("d", i) for i in range(len(p.dice)) if not p.spent[i]]
    return dice, [k for k in range(4) if p.markers[k]]


def brute_force(state, seat, colour, generic, purpose, second=False):
    """Every payment ``check_purchase`` accepts, by trying every set of dice and every number of
    markers of each colour (independent of the enumeration under test)."""
    p = state.players[seat]
    dice, colours = _tokens(p)
    size = generic + (colour is not None)
    out = []
    for nd in range(0, min(size, len(dice)) + 1):
        for ds in combinations(dice, nd):
            for ms in product(*[range(min(p.markers[k], size - nd) + 1) for k in colours]):
                if nd + sum(ms) > size or nd + sum(ms) == 0 and size:
                    continue
                toks = list(ds) + [("m", k) for k, m in zip(colours, ms, strict=True) for _ in range(m)]
                try:
                    check_purchase(p, toks, colour, generic, purpose, "test", second)
                except IllegalAction:
                    continue
                out.append(toks)
    return out


def order_key(state, seat, tokens, purpose, take=None):
    """The documented order's seven items for paying with ``tokens``."""
    p = state.players[seat]
    keys, toks = classes(p)
    counts = [len(t) for t in toks]
    spent = [0] * len(keys)
    for t in tokens:
        spent[next(j for j, group in enumerate(toks) if t in group)] += 1
    contracts, left = _contracts(state, seat, take)
    return Scorer(keys, counts, purpose, contracts, left).key(spent)


def kept(state, seat, tokens):
    """What a payment keeps: dice faces (with the die kind) and markers, as a sorted tuple."""
    p = state.players[seat]
    gone = {t[1] for t in tokens if t[0] == "d"}
    dice = sorted((p.dice[i], p.die_kinds[i]) for i in range(len(p.dice)) if not p.spent[i] and i not in gone)
    markers = list(p.markers)
    for t in tokens:
        if t[0] == "m":
            markers[t[1]] -= 1
    bonus = sum(1 for t in tokens if t[0] == "d" and p.dice[t[1]] == "bonus")
    return tuple(dice), tuple(markers), bonus


def prices(state, seat):
    """Each price the seat faces now: ``(move with pay="", engine tokens, colour, dice, purpose,
    second, take)``, the engine's tokens read from the previews (as the move would pay)."""
    out = []
    p = state.players[seat]
    if can_start(state, seat) is None:
        for slot, card in enumerate(state.contract_track):
            if card is None:
                continue
            ln = state.map.links[card]
            a = TakeContract(seat, slot)
            out.append((a, previews.contract(state, a).pay, ln.colour, contract_cost(state, seat, ln), "contract", False, ln))
    cost = station_cost(state, seat)
    if cost is not None:
        a = BuildStation(seat)
        out.append((a, previews.station(state, a).pay, None, cost, "station", False, None))
    n = len(p.improvements) + len(p.pending) + 1
    for slot, name in enumerate(state.improvement_track):
        if name is None:
            continue
        a = BuyImprovement(seat, slot, 0 if n > state.comp.box["max_improvements"] else -1)
        out.append((a, previews.improvement(state, a).cost.pay, None, improvement_cost(state, seat, name),
                    "improvement", False, None))
    second = state.routes_done == 1
    for o, c, d, path, cost in enumerate_routes(state, seat)[:3]:
        cities, links = state.map.cities, state.map.links
        a = EstablishRoute(seat, cities[o].name, c, cities[d].name, ",".join(str(links[i].id) for i in path))
        out.append((a, previews.route(state, a).pay, None, cost, "route", second, None))
    return out


def random_turn_states(n_games=6, seed=0, every=7):
    """States in the middle of turns of random games (both maps), every ``every``-th decision."""
    rng = random.Random(seed)
    for g in range(n_games):
        st = new_game(Config("west-coast" if g % 2 == 0 else "southern", 3), seed * 100 + g)
        k = 0
        while not st.is_over:
            seat = st.to_act[0]
            acts = st.legal_actions(seat)
            if st.stage == "turn" and k % every == 0:
                yield st, seat, acts
            k += 1
            st.apply(rng.choice(acts))


def test_engine_payment_is_best_by_the_order_in_random_states():
    """issue 28 item 5: for states from random games, brute force over every payment of every
    contract, station, improvement and route price finds none the documented order of what is kept
    prefers to the engine's (``pay=""``) payment, and the engine's is one the rules accept."""
    checked = 0
    for st, seat, _acts in random_turn_states(6, 1):
        for a, engine, colour, dice, purpose, second, take in prices(st, seat):
            every = brute_force(st, seat, colour, dice, purpose, second)
            if engine is None:
                assert every == [], (a, "the engine found no payment, yet one exists")
                continue
            check_purchase(st.players[seat], list(engine), colour, dice, purpose, "test", second)
            mine = order_key(st, seat, engine, purpose, take)
            best = max(order_key(st, seat, t, purpose, take) for t in every)
            assert mine == best, (a, engine, mine, best)
            checked += 1
    assert checked > 200


def test_listed_payments_are_legal_distinct_and_the_first_is_the_engines():
    """issue 28 item 5: every contract, route, station and improvement move listed with an explicit
    payment applies, each keeps something different from the others of the same move (dice,
    markers, bonus money), and none repeats what ``pay=""`` (listed first) keeps."""
    seen_alternatives = 0
    for st, seat, acts in random_turn_states(4, 2, every=5):
        groups: dict = {}
        for a in acts:
            if isinstance(a, TakeContract | BuildStation | BuyImprovement | EstablishRoute):
                groups.setdefault(replace(a, pay=""), []).append(a)
        for base, moves in groups.items():
            assert moves[0] == base, "the engine's payment is listed first"
            outcomes = []
            for a in moves:
                t = st.clone()
                t.apply(a)  # legal
                spent = [(kind, v) for kind, v in _spent_tokens(st, t, seat)]
                outcomes.append(kept(st, seat, spent))
            assert len(set(outcomes)) == len(outcomes), (base, moves)
            seen_alternatives += len(moves) - 1
    assert seen_alternatives > 50


def _spent_tokens(before, after, seat):
    p, q = before.players[seat], after.players[seat]
    out = [("d", i) for i in range(len(p.dice)) if not p.spent[i] and q.spent[i]]
    for k in range(4):
        out += [("m", k)] * (p.markers[k] - q.markers[k])
    return out


def test_payments_match_the_brute_force_front():
    """The listed payments are the Pareto front of the order: brute force over every payment finds
    each listed one undominated, and every undominated set of the seven items listed once."""
    for st, seat, _acts in random_turn_states(2, 3, every=9):
        for _a, _engine, colour, dice, purpose, second, take in prices(st, seat):
            keys = {tuple(order_key(st, seat, t, purpose, take)) for t in brute_force(st, seat, colour, dice, purpose, second)}
            front = {k for k in keys if not any(o != k and all(x >= y for x, y in zip(o, k, strict=True)) for o in keys)}
            listed = [order_key(st, seat, t, purpose, take) for t in payments(st, seat, colour, dice, purpose, second, take)]
            assert len(listed) == len(set(listed)) and set(listed) == front
            assert listed == sorted(listed, reverse=True)


# -- the three examples, on set-up states ---------------------------------------------


def test_contract_paid_so_that_the_new_contract_can_still_be_built():
    """A: a contract costs one die of its colour and its any dice. Taking a blue contract for one
    any die with blue, blue and red/yellow dice, the engine spends the split die as the any die and
    keeps a blue die to build the new contract (the old choice kept the split die, which cannot)."""
    st = after_draft()
    set_dice(st, 0, ["blue", "blue", "red/yellow"])
    st.players[0].markers = [0, 0, 0, 0]
    ln = next(ln for ln in st.map.links if ln.colour == "blue" and contract_cost(st, 0, ln) == 1)
    if ln.index in st.contract_deck:
        st.contract_deck.remove(ln.index)
    st.contract_track[0] = ln.index
    assert sorted(previews.contract(st, TakeContract(0, 0)).pay) == [("d", 0), ("d", 2)]


def test_any2_is_not_spent_on_one_die():
    """Sidebar: *any2* pays two dice for one purpose. A station costing one die, paid from a gray
    die and an any2 (no contract to build), is paid with the gray die: the any2 kept still pays
    two dice toward something else this turn."""
    st = after_draft()
    set_dice(st, 0, ["any2", "gray"], ["black", "basic"])
    st.players[0].markers = [0, 0, 0, 0]
    st.players[0].improvements = ["Acquisition Expert"]  # the first station costs 2 - 1 dice
    assert station_cost(st, 0) == 1
    assert previews.station(st, BuildStation(0)).pay == (("d", 1),)
    assert payments(st, 0, None, 1, "station")[1:] == [[("d", 0)]]  # the alternative is listed


def test_bonus_symbols_pay_the_route_for_the_most_money():
    """Sidebar: each *bonus* symbol spent on a major route earns $2. A route of four dice paid from
    three bonus symbols, an any2 and a red die (no contract to build) takes $6 (three bonus and the
    red die), not $4 (two bonus and the any2)."""
    st = after_draft()
    set_dice(st, 0, ["bonus", "bonus", "bonus", "any2", "red"], ["black", "black", "black", "yellow", "basic"])
    st.players[0].markers = [0, 0, 0, 0]
    pay = route_payment(st, EstablishRoute(0, "", "", "", ""), 4)  # the engine's payment of 4 dice
    assert sorted(pay) == [("d", 0), ("d", 1), ("d", 2), ("d", 4)]
    assert any(sorted(p) == [("d", 0), ("d", 1), ("d", 3)] for p in payments(st, 0, None, 4, "route"))


def test_cubes_buildable_come_before_money():
    """The order's first item: with a red contract to build, the same route keeps the red die."""
    st = after_draft()
    set_dice(st, 0, ["bonus", "bonus", "bonus", "any2", "red"], ["black", "black", "black", "yellow", "basic"])
    st.players[0].markers = [0, 0, 0, 0]
    red = next(ln for ln in st.map.links if ln.colour == "red")
    give_contract(st, 0, red, 1)
    pay = route_payment(st, EstablishRoute(0, "", "", "", ""), 4)
    assert ("d", 4) not in pay


def test_explicit_alternative_applies_with_its_own_payment():
    """D: a listed alternative pays exactly what it names, and the station moves list the
    engine's payment first, then the others of :func:`payments`."""
    st = after_draft()
    set_dice(st, 0, ["any2", "gray"], ["black", "basic"])
    st.players[0].markers = [0, 0, 0, 0]
    cost = station_cost(st, 0)
    acts = [a for a in st.legal_actions(0) if isinstance(a, BuildStation)]
    ways = payments(st, 0, None, cost, "station")
    assert acts == [BuildStation(0)] + [BuildStation(0, pay_text(w)) for w in ways[1:]]
    for a, way in zip(acts, ways, strict=True):
        t = st.clone()
        t.apply(a)
        assert [("d", i) for i, s in enumerate(t.players[0].spent) if s] == sorted(way)


def test_terminal_menu_lists_each_payment_with_what_it_keeps():
    """issue 28 item 5, terminal: the menu shows each way to pay a station as its own move, with
    the dice (numbered from 1) it spends and what it leaves; typing the move pays that way."""
    from rolling.ui.freight import describe, menu_moves
    from rolling.ui.freight_input import parse

    st = after_draft()
    set_dice(st, 0, ["any2", "gray"], ["black", "basic"])
    st.players[0].markers = [0, 0, 0, 0]
    st.players[0].improvements = ["Acquisition Expert"]
    moves = menu_moves(st, 0)
    lines = [describe(st, a) for a in moves if isinstance(a, BuildStation)]
    assert lines == ["build switching station #1 for 1 die  [pay 2; keeps 1 any2]",
                     "build switching station #1 for 1 die  [pay 1; keeps 2 gray]"]
    n = next(i for i, a in enumerate(moves, 1) if a == BuildStation(0, "0"))
    assert st.to_act[0] == 0
    assert parse(str(n), st, moves) == ("move", BuildStation(0, "0"))


def test_search_candidates_include_runner_up_payments():
    """issue 28 item 5, bots: the search bot's candidates include, for the best contract, route
    or station, the second payment ``legal_actions`` lists (a legal move, named explicitly)."""
    from rolling.bots.freight import FreightHeuristicBot
    from rolling.bots.freight_search import FreightSearch

    st = new_game(Config("west-coast", 3), 6)
    bots = [FreightHeuristicBot(k) for k in range(3)]
    game = FreightSearch(0, 0)
    explicit = 0
    while not st.is_over:
        seat = st.to_act[0]
        cands = [a for _, a in game.candidates(st, seat, bots[0])]
        paid = [a for a in cands if getattr(a, "pay", "") and not isinstance(a, Build)]
        if paid:
            legal = st.legal_actions(seat)
            for a in paid:
                group = [b for b in legal if isinstance(b, type(a)) and replace(b, pay="") == replace(a, pay="")]
                assert group.index(a) == 1  # the runner-up, right after the engine's own
            explicit += len(paid)
        st.apply(bots[seat].choose(st, seat))
    assert explicit > 5


def test_a_walk_with_nothing_to_spend():
    """Issue 34 (the walk's last pass): with no token that can pay, a price of nothing is paid by
    the empty payment and nothing pays any other price or a colour die; a symbol that cannot pay
    is kept."""
    from rolling.games.freight.payways import _fronts

    assert _fronts((), (), None, "buy", False, (), 10, (0, 1)) == {0: ((),), 1: ()}
    assert _fronts((), (), "red", "buy", False, (("red", 2),), 10, (0,)) == {0: ()}
    assert _fronts((), (), None, "route", True, (), 10, (0,)) == {0: ()}  # the route symbol owed
    assert _fronts((("d", "bonus", False),), (1,), None, "buy", False, (), 10, (0, 2)) == {0: ((0,),), 2: ()}


def reference_front(state, seat, colour, generic, purpose, second=False, take=None):
    """The payments to list, found without the walk: every spent vector over the token classes
    that ``check_purchase`` accepts, its key by :class:`Scorer`; per key the one spending the most
    of the earliest tokens (spent vectors compared as tuples), then the Pareto front, best first."""
    p = state.players[seat]
    keys, toks = classes(p)
    counts = [len(t) for t in toks]
    contracts, left = _contracts(state, seat, take)
    scorer = Scorer(keys, counts, purpose, contracts, left)
    best: dict = {}
    for spent in product(*[range(c + 1) for c in counts]):
        tokens = [tok for j, x in enumerate(spent) for tok in toks[j][:x]]
        try:
            check_purchase(p, tokens, colour, generic, purpose, "test", second)
        except IllegalAction:
            continue
        k = scorer.key(spent)
        if k not in best or spent > best[k]:
            best[k] = spent
    front = [k for k in best if not any(o != k and all(x >= y for x, y in zip(o, k, strict=True)) for o in best)]
    return [best[k] for k in sorted(front, reverse=True)][:MAX_LISTED]


def test_fronts_are_the_reference_fronts_payment_by_payment():
    """Issue 34 (the walk made cheaper, its cache): in states of random games, each price's listed
    payments are exactly those of a search without the walk or its cache (:func:`reference_front`),
    in the same order, and of payments keeping the same the one spending the most of the earliest
    tokens; asked again (from the cache) and after emptying the cache, the same."""
    from rolling.games.freight import payways

    checked = 0
    for st, seat, _acts in random_turn_states(3, 4, every=6):
        p = st.players[seat]
        keys, toks = classes(p)
        if prod(len(t) + 1 for t in toks) > 3000:
            continue
        for _a, _engine, colour, dice, purpose, second, take in prices(st, seat):
            want = reference_front(st, seat, colour, dice, purpose, second, take)
            for _ in range(2):
                got = payments(st, seat, colour, dice, purpose, second, take)
                spent = [tuple(sum(1 for t in pay if t in group) for group in toks) for pay in got]
                assert spent == want, (colour, dice, purpose, second)
            payways.clear_caches()
            checked += 1
    assert checked > 100


def test_the_memo_keeps_what_was_used_recently():
    """Issue 34: the fronts' memo (:class:`rolling.core.memo.Recent`) holds at most two generations; an
    entry asked for again survives when the memo fills up, one not asked for is dropped."""
    from rolling.core.memo import Recent

    memo = Recent(3)
    for k in range(3):
        memo.put(k, str(k))
    memo.put(3, "3")  # the young generation was full: 0, 1, 2 are now the old one
    assert memo.get(0) == "0"  # found in the old generation: young again
    for k in range(4, 6):
        memo.put(k, str(k))  # 3, 0, 4 fill the young one; 5 starts a new one, 1 and 2 go
    assert [memo.get(k) for k in range(6)] == ["0", None, None, "3", "4", "5"]
    assert len(memo.young) + len(memo.old) <= 6


def test_a_hand_is_grouped_into_the_same_classes_and_named_by_them():
    """Issue 34 (a seat's hand grouped without a memo): in states of random games the classes are
    the unspent dice grouped by face, dice first in die order, then the markers by colour (a
    basic die showing a split face is its own class with two Efficient Storage, which stores
    both colours: "The Improvement Dice (sidebar)"); each class is one object wherever it is met,
    and two hands share a signature (the fronts' memo key) exactly when their classes and counts
    are the same."""
    from rolling.games.freight import payways
    from rolling.games.freight.components import face

    named: dict = {}
    hands: dict = {}
    classes_met: dict = {}
    for st, seat, _acts in random_turn_states(4, 5, every=3):
        p = st.players[seat]
        both = p.has("Efficient Storage") >= 2
        want: dict = {}
        for i, name in enumerate(p.dice):
            if not p.spent[i]:
                c = ("d", name, both and len(face(name).colours) >= 2 and p.die_kinds[i] == "basic")
                want.setdefault(c, []).append(("d", i))
        for k in range(4):
            if p.markers[k]:
                want["m", k] = [("m", k)] * p.markers[k]
        keys, counts, toks, sig = payways._hand(p)
        assert list(keys) == list(want) and list(map(list, toks)) == list(want.values())
        assert counts == tuple(len(t) for t in toks) and classes(p) == (list(want), list(want.values()))
        for c in keys:
            assert classes_met.setdefault(c, c) is c
        assert named.setdefault(sig, (keys, counts)) == (keys, counts)
        assert hands.setdefault((keys, counts), sig) == sig
    assert len(named) > 50


def test_seat_fronts_hold_every_price_asked_as_payment_front():
    """Issue 34 (one walk for a listing's prices): ``SeatPayments.fronts`` of the station's and
    improvements' prices (D, E) holds each of them, the very front :func:`payment_front` finds
    for that price alone with emptied caches."""
    from rolling.games.freight import legal, payways
    from rolling.games.freight.payment import generic_budget

    checked = 0
    for st, seat, _acts in random_turn_states(3, 6, every=5):
        prices = legal._buy_prices(st, seat, generic_budget(st.players[seat], "contract"))
        if not prices:
            continue
        payways.clear_caches()
        fronts = payways.SeatPayments(st, seat).fronts(None, prices[0], "improvement", False, None, prices)
        for cost in prices:
            payways.clear_caches()
            assert fronts[cost] == payways.payment_front(st, seat, None, cost, "station")[0]
            checked += 1
    assert checked > 20
