"""Variant deals (Player's Guide 002, 3.1, Deals and negotiation): complex transactions in phase 3."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, replay
from rolling.core.rng import Rng
from rolling.games.stars import Config, Deal, Done, Offer, Respond, RespondDeal, Transaction, new_game
from rolling.games.stars import data as D
from rolling.games.stars.actions import from_json
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR

from .conftest import blank, corp, give, goto, idx
from .test_properties import check_invariants, total_money

DEALS = ("deals",)


def example(android_cash=7, bear_cash=8, android=("WT", "OL"), bear=("MS", "BY"), variants=DEALS):
    """002, 3.1: "Alice is the president of the “Android” corporation, which owns the WT and the OL.
    Bob is the president of the “Bear” corporation, which owns the MS and the BY." Neither edition
    has an Android; Doppler AG plays it. The Bear is Vintage Machinery (its v2.2 name). Both are
    "short of cash". Alice is seat 0, Bob seat 1, a third player seat 2."""
    s = blank(3, cash=[10, 10, 10], variants=variants)
    s.names = ("Alice", "Bob", "Chris")
    an = corp(s, "DA", android, 14, cash=android_cash, holders={0: 1})
    bear = corp(s, "VM", bear, 14, cash=bear_cash, holders={1: 1})
    goto(s, 3)
    return s, an, bear


#: "(1) The “Bear” buys the OL from the “Android”. (2) The “Android” buys the BY from the “Bear”."
#: The guide agrees on "the minimum possible price of $7" for both. On the Rolling Stock Stars cards
#: the BY's span is $6-$16 and the OL's $8-$20, so the OL's lowest price is $8 (see the next tests).
SWAP = (Transaction("VM", "OL", 8), Transaction("DA", "BY", 7))


def test_example_swap_executes_in_one_step():
    """002, 3.1: the Android and the Bear swap the OL and the BY in one step, so that Bob's "second
    thoughts" between the two transactions are impossible. Alice proposes, nothing moves until Bob
    accepts, then both transactions happen at once."""
    s, an, bear = example()
    s.apply(Deal(0, SWAP))
    assert s.company_owner[idx("OL")] == CORP_BASE + an and s.company_owner[idx("BY")] == CORP_BASE + bear
    assert s.corp_cash[an] == 7 and s.corp_cash[bear] == 8
    assert 1 in s.to_act
    assert [m.kind for m in s.legal_moves(1)].count(RespondDeal) == 2
    s.apply(RespondDeal(1, SWAP, True))
    assert s.company_owner[idx("OL")] == CORP_BASE + bear and s.company_owner[idx("BY")] == CORP_BASE + an
    assert sorted(s.companies_of(CORP_BASE + an)) == sorted([idx("WT"), idx("BY")])
    assert sorted(s.companies_of(CORP_BASE + bear)) == sorted([idx("MS"), idx("OL")])
    # the Android: $7 - $7 + $8; the Bear: $8 - $8 + $7; the money received is in flight
    assert s.corp_cash[an] == 8 and s.corp_cash[bear] == 7
    assert s.received[an] == 8 and s.received[bear] == 7
    assert s.in_flight == 1 << idx("OL") | 1 << idx("BY")
    assert s.deals == ()


def test_rejected_deal_changes_nothing_and_the_phase_waits_for_an_answer():
    """002, 3.1: each party that gives something accepts; a rejection withdraws the whole deal.
    Phase 3 does not end while a deal is open."""
    s, an, bear = example()
    s.apply(Deal(0, SWAP))
    s.apply(Done(0))
    s.apply(Done(1))
    assert s.phase == 3 and s.to_act == (1,), "Bob must still answer"
    s.apply(RespondDeal(1, SWAP, False))
    assert s.company_owner[idx("OL")] == CORP_BASE + an and s.corp_cash[bear] == 8
    assert s.phase != 3, "everyone is done and nothing is open: the phase ends"


def test_example_prices_of_seven_each_break_the_ols_price_span():
    """002, 3.1: the bundle is legal only if it would be legal as a series: the OL at the guide's $7
    is below its printed span ($8-$20), so the whole deal is refused and nothing changes."""
    s, an, bear = example()
    before = s.digest()
    with pytest.raises(IllegalAction, match=r"transaction 1 .*span \$8-\$20") as e:
        s.apply(Deal(0, (Transaction("VM", "OL", 7), Transaction("DA", "BY", 7))))
    assert e.value.rule == "Phase 3: Acquisition" and s.digest() == before


def test_swap_refused_when_a_corporation_lacks_the_money():
    """002, 3.1: "It is still impossible to “swap” companies if the corporations don't have enough
    money to pay for their newly acquired companies": the Android with $6 cannot pay $7 for the BY,
    although the Bear has just paid it $8 (received money is in flight, canonical rules, phase 3)."""
    s, an, bear = example(android_cash=6)
    before = s.digest()
    with pytest.raises(IllegalAction, match=r"transaction 2 .*only \$6 not yet used") as e:
        s.apply(Deal(0, SWAP))
    assert e.value.rule == "Phase 3: Acquisition" and s.digest() == before


def test_swap_refused_when_both_corporations_own_only_the_company_they_would_sell():
    """002, 3.1: "... or if both corporations only own one company": in either order, the first
    seller would be left without a company (canonical rules, phase 3: at least one company)."""
    s, an, bear = example(android=("OL",), bear=("BY",))
    before = s.digest()
    for bundle in (SWAP, SWAP[::-1]):
        with pytest.raises(IllegalAction, match="transaction 1 .*must keep at least one company"):
            s.apply(Deal(0, bundle))
        assert s.digest() == before


def test_order_given_decides_when_one_corporation_owns_a_single_company():
    """002, 3.1: legal "if executed in a series of individual transactions", in the order given. The
    Android owns only the OL: selling it first would leave it empty; buying the BY first, then
    selling the OL, is legal (the in-flight BY is the company it keeps)."""
    s, an, bear = example(android=("OL",))
    with pytest.raises(IllegalAction, match="transaction 1 .*Doppler AG must keep at least one company"):
        s.apply(Deal(0, SWAP))
    s.apply(Deal(0, SWAP[::-1]))
    s.apply(RespondDeal(1, SWAP[::-1], True))
    assert s.companies_of(CORP_BASE + an) == [idx("BY")] and idx("OL") in s.companies_of(CORP_BASE + bear)


def test_every_party_that_gives_something_accepts():
    """002, 3.1: each party that gives something accepts: here the Bear (Bob) and Chris, who sells
    his private company; the deal executes only when the last of them accepts."""
    s, an, bear = example(android_cash=20)
    give(s, "BSE", 2)
    bundle = (Transaction("DA", "BSE", 3), Transaction("DA", "BY", 7), Transaction("VM", "OL", 8))
    s.apply(Deal(0, bundle))
    assert set(s.to_act) >= {1, 2} and s.deals[0][2] == 0b110
    with pytest.raises(IllegalAction, match="not asked"):
        s.apply(RespondDeal(0, bundle, True))
    s.apply(RespondDeal(2, bundle, True))
    assert s.company_owner[idx("BSE")] == 2, "Bob has not accepted yet"
    s.apply(RespondDeal(1, bundle, True))
    assert s.company_owner[idx("BSE")] == CORP_BASE + an and s.cash[2] == 13
    assert s.company_owner[idx("OL")] == CORP_BASE + bear


def test_deal_controlled_by_one_player_executes_at_once():
    """Phase 3 (canonical rules) lets a player agree with themselves; a deal whose givers are all the
    proposer's needs no answer."""
    s, an, bear = example()
    s.president[bear] = 0
    s.held[bear * 6 + 0], s.held[bear * 6 + 1] = 1, 0
    s.apply(Deal(0, SWAP))
    assert s.company_owner[idx("OL")] == CORP_BASE + bear and s.deals == ()


def test_open_deal_lapses_when_it_can_no_longer_be_executed():
    """As open proposals do (docs/stars-engine.md): while Alice's deal waits for Bob, the Bear buys
    the WT from the Android for $6; with $2 left it could no longer pay $8 for the OL, so the deal
    lapses and nobody is asked about it any more."""
    s, an, bear = example()
    s.apply(Deal(0, SWAP))
    s.apply(Offer(1, "VM", "WT", 6))
    s.apply(Respond(0, "VM", "WT", True))
    assert s.company_owner[idx("WT")] == CORP_BASE + bear
    assert s.deals == ()
    assert not [m for m in s.legal_moves(1) if m.kind is RespondDeal]
    with pytest.raises(IllegalAction, match="no open deal"):
        s.apply(RespondDeal(1, SWAP, True))


def test_deal_rules_of_the_variant():
    """Variant deals: only with the variant; two or more transactions; proposed by a president of a
    buyer who may act; no purchase from the foreign investor (announced alone, for pre-emption)."""
    s, an, bear = example(variants=())
    with pytest.raises(IllegalAction, match="variant 'deals'") as e:
        s.apply(Deal(0, SWAP))
    assert e.value.rule.startswith("Variant deals")
    assert not [m for m in s.legal_moves(0) if m.kind is Deal]
    s, an, bear = example(android_cash=30)
    give(s, "BD", FOREIGN_INVESTOR)
    before = s.digest()
    for seat, bundle, message in [
        (0, SWAP[1:], "two or more"),
        (2, SWAP, "not president"),
        (0, (Transaction("VM", "OL", 8), Transaction("VM", "BSE", 1)), "presides none of the buying"),
        (0, (Transaction("DA", "BD", 16), Transaction("DA", "BY", 7)), "foreign investor"),
        (0, (Transaction("XX", "BD", 16), Transaction("DA", "BY", 7)), "not an existing corporation"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            s.apply(Deal(seat, bundle))
        assert s.digest() == before
    s.apply(Deal(0, SWAP))
    with pytest.raises(IllegalAction, match="already open"):
        s.apply(Deal(0, SWAP))
    with pytest.raises(IllegalAction, match="no open deal"):
        s.apply(RespondDeal(1, SWAP[::-1], True))


def test_swaps_are_listed_with_their_common_price_range():
    """Variant deals, legal moves: swaps of one company each between a seat's corporation and
    another, at one common price within both spans and both corporations' unused money."""
    s, an, bear = example(android_cash=12, bear_cash=30)
    swaps = [m for m in s.legal_moves(0) if m.kind is Deal]
    ol_by = [m for m in swaps if [x.company for x in m.args["transactions"]] == ["BY", "OL"]]
    assert len(ol_by) == 1
    m = ol_by[0]
    assert (m.lo, m.hi) == (8, 12), "OL $8-$20, BY $6-$16, the Android has $12"
    assert m.action(9) == Deal(0, (Transaction("DA", "BY", 9), Transaction("VM", "OL", 9)))
    t = s.clone()
    t.apply(m.action(12))
    assert len(t.deals) == 1 and 1 in t.to_act
    assert not [m for m in s.legal_moves(2) if m.kind is Deal], "Chris presides nothing"


def test_deal_actions_round_trip_through_json():
    a = Deal(0, [("VM", "OL", 8), ("DA", "BY", 7)])
    assert a.transactions == SWAP
    assert a.to_json() == {
        "type": "deal",
        "seat": 0,
        "transactions": [
            {"corporation": "VM", "company": "OL", "price": 8},
            {"corporation": "DA", "company": "BY", "price": 7},
        ],
    }
    assert from_json(a.to_json()) == a
    r = RespondDeal(1, SWAP, False)
    assert from_json(r.to_json()) == r
    for bad in (
        {"type": "deal", "seat": 0, "transactions": 5},
        {"type": "deal", "seat": 0, "transactions": [{"corporation": "VM", "company": "OL"}]},
        {"type": "deal", "seat": 0, "transactions": [["VM", "OL", "8"]]},
    ):
        with pytest.raises(RecordError):
            from_json(bad)


def random_deals_game(seed, players):
    """A random game with the variant deals, checking after every action that every listed move of
    phase 3 is accepted (on a copy) and that a record of it replays to the same state."""
    rng = Rng(seed)
    cfg = Config(players=players, variants=DEALS)
    s = new_game(cfg, seed)
    actions = []
    deals = 0
    while not s.is_over:
        seat = rng.choice(s.to_act)
        moves = s.legal_moves(seat)
        if s.phase == 3:
            for m in moves:
                t = s.clone()
                t.apply(m.action(rng.randint(m.lo, m.hi) if m.field else None))
        quiet = [m for m in moves if m.kind in (Done,)]
        m = rng.choice(quiet) if quiet and rng.below(3) == 0 else rng.choice(moves)
        a = m.action(rng.randint(m.lo, m.hi) if m.field else None)
        deals += isinstance(a, Deal)
        s.apply(a)
        actions.append(a.to_json())
        assert len(actions) < 20000
    again = replay(GameRecord("stars", cfg.to_json(), seed, actions))
    assert again.digest() == s.digest()
    return s, deals


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_deals_accept_every_listed_move_and_replay(players):
    """Variant deals: every listed move is accepted, random play with proposed swaps ends, and its
    record replays to the same state."""
    proposed = 0
    for seed in range(12):
        s, deals = random_deals_game(seed, players)
        assert s.is_over
        proposed += deals
    assert proposed > 0, "random play proposes swaps"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), junk=st.integers(0, 10**6))
def test_any_bundle_is_applied_whole_or_refused_with_nothing_changed(seed, players, junk):
    """Procedures are atomic, and so is a deal: any bundle of purchases (random corporations,
    companies, prices and proposer) either raises IllegalAction naming a rule with the state exactly
    unchanged, or is accepted; accepted and answered, money is conserved and nothing is owned twice."""
    rng = Rng(seed)
    s = new_game(Config(players=players, variants=DEALS), seed)
    start_money = total_money(s)
    while not s.is_over and not (s.phase == 3 and sum(s.corp_active) >= 2 and s.announcement is None):
        seat = rng.choice(s.to_act)
        m = rng.choice(s.legal_moves(seat))
        s.apply(m.action(rng.randint(m.lo, m.hi) if m.field else None))
    if s.is_over:
        return
    # plausible bundles: purchases each legal on its own now (the offers listed for all presidents,
    # the foreign investor's aside), sometimes a price off by one; together they may or may not be
    r = Rng(junk)
    offers = [
        m
        for p in range(players)
        for m in s.legal_moves(p)
        if m.kind is Offer and m.field and s.company_owner[idx(m.args["company"])] != FOREIGN_INVESTOR
    ]
    if not offers:
        return
    bundle = []
    r.shuffle(offers)
    k = 1 if r.below(6) == 0 else r.randint(2, 3)
    for m in offers[:k]:
        price = r.randint(m.lo, m.hi) + (r.randint(-1, 1) if r.below(5) == 0 else 0)
        bundle.append(Transaction(m.args["corporation"], m.args["company"], price))
    seat = s.president[D.CORP_INDEX[bundle[0].corporation]] if r.below(5) else r.below(players)
    before = s.digest()
    try:
        s.apply(Deal(seat, tuple(bundle)))
    except IllegalAction as e:
        assert e.rule and s.digest() == before
        return
    bundle = tuple(bundle)
    named = [tuple(Transaction(D.CORP_SYMBOLS[c], D.CODES[i], x) for c, i, x in d[1]) for d in s.deals]
    waiting = s.deals[named.index(bundle)][2] if bundle in named else 0
    for p in range(players):
        if waiting >> p & 1:
            s.apply(RespondDeal(p, bundle, True))
    check_invariants(s)
    assert total_money(s) - s.bank_paid == start_money


def test_terminal_commands_and_screen_for_deals():
    """The terminal (rolling play stars): `deal VM OL 8 DA BY 7` proposes the purchases in the order
    typed, `accept` answers the one open deal, the menu and the screen show it."""
    from rich.console import Console

    from rolling.ui.stars_input import InputError, describe, menu, parse
    from rolling.ui.stars_screen import render

    s, an, bear = example()
    a = parse(s, 0, "deal VM OL 8 DA BY 7", menu(s, 0))
    assert a == Deal(0, SWAP)
    with pytest.raises(InputError, match="usage: deal"):
        parse(s, 0, "deal VM OL 8", menu(s, 0))
    s.apply(a)
    items = menu(s, 1)
    assert [line for _, line, m in items if m.kind is RespondDeal] == [
        "accept the deal: VM buys OL for $8, then DA buys BY for $7",
        "reject the deal: VM buys OL for $8, then DA buys BY for $7",
    ]
    console = Console(width=200, record=True)
    console.print(render(s.view(1), me=1))
    assert "Open deal of Alice: VM buys OL for $8, then DA buys BY for $7 (to accept: Bob)" in console.export_text()
    assert parse(s, 1, "accept", items) == RespondDeal(1, SWAP, True)
    t, *_ = example(android_cash=12, bear_cash=30)
    swap = next(m for m in t.legal_moves(0) if m.kind is Deal and m.args["transactions"][1].company == "OL")
    assert describe(t, swap) == "deal: DA buys BY, then VM buys OL, each at one price ($8-$12)"
