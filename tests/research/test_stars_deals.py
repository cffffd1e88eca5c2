"""Issue 15, variant deals (Player's Guide 002, 3.1): deals of several purchases in the Stars research
action space, built purchase by purchase, proposed and answered through action indices."""

from __future__ import annotations

import numpy as np
import pytest

from rolling.bots.stars_heuristic import StarsHeuristicBot
from rolling.core.errors import IllegalAction
from rolling.envs.aec import next_seat
from rolling.games.stars import Config, Deal, RespondDeal, Transaction, new_game
from rolling.games.stars import deals as DL
from rolling.games.stars import events as E
from rolling.research import stars_codec as S

DEALS = ("deals",)


def _deal_indices(mask: np.ndarray) -> np.ndarray:
    legal = np.flatnonzero(mask)
    return legal[(legal >= S.ADD_PURCHASE) & (legal < S.AMOUNT0)]


def play(table: S.StarsTable, rng, prefer_deals: float, check=None, limit: int = 20_000) -> int:
    """Random play through the indices; with probability ``prefer_deals`` a deal index (add,
    propose, discard, answer) is taken when there is one, so that deals happen often. ``check(table,
    seat, mask)`` runs before each decision. Returns the number of decisions."""
    last, steps = -1, 0
    while not table.is_over:
        seat = next_seat(table.to_act, last, table.state.n)
        mask = table.mask(seat)
        legal = np.flatnonzero(mask)
        assert legal.size, f"seat {seat} was chosen with no legal index"
        if check is not None:
            check(table, seat, mask)
        deal = _deal_indices(mask)
        # answer deals and propose the deal built in preference to growing it, so that deals happen
        finish = deal[(deal == S.PROPOSE_DEAL) | (deal > S.DISCARD_DEAL)]
        pool = finish if finish.size and rng.random() < 0.7 else deal
        choice = pool if pool.size and rng.random() < prefer_deals else legal
        table.apply_index(seat, int(rng.choice(choice)))
        last, steps = seat, steps + 1
        assert steps < limit, "the game did not end"
    return steps


def _propose_path(table: S.StarsTable, seat: int, purchases) -> None:
    """Build ``purchases`` with add_purchase (and amount) indices, then propose, asserting each index
    is in the mask."""
    for c, i, price in purchases:
        k = S.ADD_PURCHASE + S.NC * c + i
        assert table.mask(seat)[k], S.action_text(k)
        table.apply_index(seat, k)
        if table.pending is not None:
            assert table.mask(seat)[S.AMOUNT0 + price]
            table.apply_index(seat, S.AMOUNT0 + price)
        assert table.to_act == (seat,)
    assert table.mask(seat)[S.PROPOSE_DEAL]
    table.apply_index(seat, S.PROPOSE_DEAL)
    assert table.deal is None


def _a_deal(s):
    """A seat that may propose a deal of two purchases now, the deal and the seats that must accept it."""
    for seat in s.to_act:
        if not DL.may_propose(s, seat):
            continue
        for c1, i1, lo1, _ in DL.next_purchases(s, ())[::7]:
            for c2, i2, _, hi2 in DL.next_purchases(s, ((c1, i1, lo1),)):
                purchases = ((c1, i1, lo1), (c2, i2, hi2))
                # every other state, a third purchase when one may follow
                third = DL.next_purchases(s, purchases)[:1] if s.turn % 2 else []
                for c3, i3, lo3, hi3 in third:
                    longer = purchases + ((c3, i3, (lo3 + hi3) // 2),)
                    try:
                        return seat, longer, DL.check_proposal(s, seat, longer)
                    except IllegalAction:
                        pass
                try:
                    return seat, purchases, DL.check_proposal(s, seat, purchases)
                except IllegalAction:
                    continue
    return None


def _phase3_states(seeds, players: int, every: int = 1):
    """Phase 3 states of deals games played by the heuristic bot (realistic tables: corporations
    owning several companies, money spent): every ``every``-th decision of the phase."""
    for seed in seeds:
        s = new_game(Config(players=players, variants=DEALS), seed)
        bots = [StarsHeuristicBot(seed) for _ in range(players)]
        k = 0
        while not s.is_over:
            seat = s.to_act[0]
            if s.phase == 3:
                k += 1
                if k % every == 0:
                    yield s
            s.apply(bots[seat].choose(s, seat))


def _midgame(seed: int, players: int, turn: int):
    """A deals game played by the heuristic bot up to phase 3 of ``turn`` (or its end)."""
    s = new_game(Config(players=players, variants=DEALS), seed)
    bots = [StarsHeuristicBot(seed) for _ in range(players)]
    while not s.is_over and (s.turn, s.phase) < (turn, 3):
        seat = s.to_act[0]
        s.apply(bots[seat].choose(s, seat))
    return s


def _proposable(seeds, players: int, every: int = 3):
    """States of deals games where some seat may propose a deal of two purchases:
    ``(state, seat, purchases, seats that must still accept)``."""
    for s in _phase3_states(seeds, players, every):
        found = _a_deal(s)
        if found is not None:
            yield (s.clone(), *found)


def test_a_deal_proposed_and_answered_by_index_is_the_engines_deal():
    accepted = rejected = at_once = longer = 0
    for s, seat, purchases, waiting in _proposable(range(6), 4):
        txs = tuple(Transaction(S.D.CORP_SYMBOLS[c], S.D.CODES[i], p) for c, i, p in purchases)
        want = s.clone()
        want.apply(Deal(seat, txs))
        table = S.StarsTable(s.clone())
        _propose_path(table, seat, purchases)
        assert table.state.digest() == want.digest()
        if not waiting:
            at_once += 1
            continue
        # the deal is in slot 0 of the observation of everyone
        slot = len(s.deals)
        for p in range(s.n):
            o = table.observe(p)[S.OBS["open_deals"]]
            assert o[S._DEAL * slot] == 1 and o[S._DEAL * slot + 1 + seat] == 1
        answer = (accepted + rejected) % 2 == 0
        for p in [p for p in want.order if waiting >> p & 1]:
            if not (want.deals and any(d[1] == purchases for d in want.deals)):
                break
            want.apply(RespondDeal(p, txs, answer))
            k = S.TEMPLATE_INDEX[(RespondDeal, slot, answer)]
            assert table.mask(p)[k], S.action_text(k)
            table.apply_index(p, k)
            assert table.state.digest() == want.digest()
        if answer:
            accepted += 1
            assert all(table.state.company_owner[i] == S.CORP_BASE + c for c, i, _ in purchases)
        else:
            rejected += 1
        longer += len(purchases) > 2
        if accepted >= 8 and rejected >= 8 and longer >= 4:
            break
    assert accepted >= 8 and rejected >= 8 and longer >= 4, (accepted, rejected, at_once, longer)


def test_every_swap_the_engine_lists_has_an_index_path():
    """The engine's listed swaps (its Deal moves) are reached through add_purchase and propose_deal."""
    checked = 0
    rng = np.random.default_rng(0)
    for s in _phase3_states(range(4), 4):
        for seat in s.to_act:
            swaps = [m for m in s.legal_moves(seat) if m.kind is Deal]
            if not swaps:
                continue
            m = swaps[int(rng.integers(len(swaps)))]
            a = m.action(int(rng.integers(m.lo, m.hi + 1)))
            want = s.clone()
            want.apply(a)
            table = S.StarsTable(s.clone())
            purchases = tuple((S.D.CORP_INDEX[x.corporation], S.D.INDEX[x.company], x.price) for x in a.transactions)
            _propose_path(table, seat, purchases)
            assert table.state.digest() == want.digest()
            checked += 1
        if checked >= 40:
            break
    assert checked >= 20


def test_next_purchases_are_the_purchases_check_accepts():
    """The engine's listing of the purchases that may extend a deal agrees with its check of the whole
    deal, price by price (one above and below each range included)."""
    checked = 0
    for s, _, purchases, _ in _proposable(range(2), 3):
        first = purchases[:1]
        listed = {(c, i): (lo, hi) for c, i, lo, hi in DL.next_purchases(s, first)}
        for c in range(S.NK):
            if not s.corp_active[c]:
                continue
            for i in range(S.NC):
                lo, hi = listed.get((c, i), (S.D.SPAN_LO[i], S.D.SPAN_HI[i]))
                for price in (lo - 1, lo, hi, hi + 1):
                    try:
                        DL.check(s, first + ((c, i, price),))
                        ok = True
                    except IllegalAction:
                        ok = False
                    assert ok == ((c, i) in listed and lo <= price <= hi), (c, i, price)
                    checked += 1
        if checked > 20_000:
            break
    assert checked > 5_000


def _check_mask(rng, samples: int):
    def check(table, seat, mask):
        legal = np.flatnonzero(mask)
        illegal = np.flatnonzero(mask == 0)
        before = table.state.digest()
        deal = _deal_indices(mask)
        tried = list(rng.choice(legal, min(samples, legal.size), replace=False)) + list(deal)
        for k in tried:
            t = table.clone()
            t.apply_index(seat, int(k))  # a masked index is legal: no error
            if not t.is_over:
                assert any(t.mask(p).any() for p in t.to_act), f"{S.action_text(int(k))} leads to a lock-up"
                if t.deal is not None or t.pending is not None:
                    assert t.mask(seat).any()
                if t.deal is not None and t.pending is None:
                    assert t.mask(seat)[S.DISCARD_DEAL], "a deal being built can always be discarded"
        for k in rng.choice(illegal, min(samples, illegal.size), replace=False):
            with pytest.raises(ValueError):
                table.apply_index(seat, int(k))
        assert table.state.digest() == before
        # a seat asked about an open deal can answer it by its slot
        for slot, (_, _, waiting) in enumerate(table.state.deals):
            if table.deal is None and table.pending is None and table.state.announcement is None and waiting >> seat & 1:
                assert mask[S.TEMPLATE_INDEX[(RespondDeal, slot, True)]]
                assert mask[S.TEMPLATE_INDEX[(RespondDeal, slot, False)]]

    return check


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_masks_offer_only_legal_indices_in_random_deals_games(players):
    """Random play through the indices (deal indices preferred) from mid-game tables of every player
    count: every masked index tried (every deal index, a sample of the others) is legal and leads
    somewhere a seat can act, unmasked ones raise ValueError and change nothing, and the seats asked
    about open deals can answer them."""
    deals_done = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = _midgame(seed, players, turn=2 + seed)
        state.log = []
        table = S.StarsTable(state)
        play(table, rng, prefer_deals=0.6, check=_check_mask(rng, 4))
        deals_done += sum(1 for e in state.log if e[0] == E.DEAL)
    assert deals_done >= 3, f"only {deals_done} deals were executed"


def test_at_most_six_deals_are_open_and_each_can_be_answered():
    """With MAX_OPEN_DEALS deals open nobody may start another; every open deal keeps a slot its
    parties can answer."""
    for s, seat, _, _ in _proposable(range(4), 4, every=5):
        for c1, i1, lo1, _ in DL.next_purchases(s, ()):
            for c2, i2, _, hi2 in DL.next_purchases(s, ((c1, i1, lo1),)):
                purchases = ((c1, i1, lo1), (c2, i2, hi2))
                try:
                    waiting = DL.check_proposal(s, seat, purchases)
                except IllegalAction:
                    continue
                if waiting and len(s.deals) < S.MAX_OPEN_DEALS:
                    s.apply(Deal(seat, S._transactions(purchases)))
        if len(s.deals) < S.MAX_OPEN_DEALS:
            continue
        table = S.StarsTable(s)
        assert DL.may_propose(s, seat)
        for p in range(s.n):
            mask = table.mask(p)
            assert not mask[S.ADD_PURCHASE:S.PROPOSE_DEAL].any()
            for slot, (_, _, waiting) in enumerate(s.deals):
                assert mask[S.TEMPLATE_INDEX[(RespondDeal, slot, False)]] == (waiting >> p & 1)
        # a rejection frees a slot: the deals after it move up, and building is possible again
        p = next(p for p in range(s.n) if s.deals[0][2] >> p & 1)
        second = s.deals[1][1]
        table.apply_index(p, S.TEMPLATE_INDEX[(RespondDeal, 0, False)])
        assert len(s.deals) == S.MAX_OPEN_DEALS - 1 and s.deals[0][1] == second
        assert table.mask(seat)[S.ADD_PURCHASE:S.PROPOSE_DEAL].any()
        return
    raise AssertionError("no table where six deals could be opened")


def test_observation_shows_the_deal_being_built_only_to_its_builder():
    for s, seat, purchases, _ in _proposable(range(3), 3):
        table = S.StarsTable(s)
        c, i, price = purchases[0]
        table.apply_index(seat, S.ADD_PURCHASE + S.NC * c + i)
        if table.pending is not None:
            table.apply_index(seat, S.AMOUNT0 + price)
        seg = S.OBS["deal_building"]
        o = table.observe(seat)[seg]
        assert o[0] == 1 and o[1] == 1
        b = 2 + S._PURCHASE * i
        assert o[b] == 1 and o[b + 1 + c] == 1 and o[b + 1 + S.NK] == np.float32(price / S.DOLLARS)  # issue 33 item 5: $ / 100
        other = next(p for p in range(s.n) if p != seat)
        assert not table.observe(other)[seg].any()
        assert table.to_act == (seat,)
        assert not table.mask(other).any()
        table.apply_index(seat, S.DISCARD_DEAL)
        assert table.deal is None and not table.observe(seat)[seg].any()
        return
    raise AssertionError("no state to build a deal in")


def test_deal_indices_are_never_legal_without_the_variant():
    rng = np.random.default_rng(0)
    seen = 0

    def check(table, seat, mask):
        nonlocal seen
        assert not mask[S.ADD_PURCHASE:S.AMOUNT0].any()
        seen += table.state.phase == 3

    for seed in range(2):
        play(S.StarsTable(new_game(Config(players=4), seed)), rng, prefer_deals=0.0, check=check)
    assert seen


def test_action_text_names_the_deal_indices():
    assert S.action_text(S.ADD_PURCHASE + S.NC * 1 + 5) == "add_purchase DA MHE"
    assert S.action_text(S.PROPOSE_DEAL) == "propose_deal"
    assert S.action_text(S.DISCARD_DEAL) == "discard_deal"
    assert S.action_text(S.TEMPLATE_INDEX[(RespondDeal, 2, False)]) == "respond_deal 2 false"
