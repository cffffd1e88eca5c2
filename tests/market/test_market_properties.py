"""Hypothesis invariants of Rolling Market over random play (any legal or illegal action).

- Phase One / Introduction: values always 1..6, shares always 0..12;
- Introduction: exactly 12 open (buy/sell) turns, whatever the closed turns;
- cash changes only by trades (by the quoted amount) and by overflow sales after splits;
- an illegal action leaves the state exactly unchanged (IllegalAction contract).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rolling.core.errors import IllegalAction
from rolling.games.market import DONE, Buy, MarketState, Sell, buy, sell

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
# each step: (kind, company, shares, pick) where pick chooses among the legal actions
STEPS = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 13), st.integers(0, 10**6)),
    min_size=0, max_size=120,
)


def check_invariants(s: MarketState) -> None:
    assert all(1 <= v <= 6 for v in s.values)
    assert all(0 <= n <= 12 for n in s.shares)
    assert s.cash >= 0
    assert 0 <= s.turns_left <= 11
    assert s.over or 2 <= s.volatility <= 5
    if s.final_turn and not s.over:
        assert s.volatility == 3


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, steps=STEPS)
def test_invariants_under_any_actions(seed, steps):
    """Phase One, Phase Two and the IllegalAction contract, over arbitrary action sequences."""
    s = MarketState(seed)
    dones = 0
    traded = 0  # net cash from trades
    for kind, c, n, pick in steps:
        if s.is_over:
            break
        if kind == 0:
            action = DONE
        elif kind == 1:
            action = buy(c, n)
        elif kind == 2:
            action = sell(c, n)
        else:
            legal = s.legal_actions(0)
            action = legal[pick % len(legal)]
        before_digest, before_cash, before_overflow = s.digest(), s.cash, s.overflow_cash
        before_turns, before_closed, before_rolls = s.turns_left, s.closed, s.rolls
        quote = None
        if action is not DONE and not 1 <= action.shares <= 12:
            pass  # outside every table: must be refused below
        elif isinstance(action, Buy):
            quote = -s.quote_buy(action.company, action.shares)[0]
        elif isinstance(action, Sell):
            quote = s.quote_sell(action.company, action.shares)[0]
        try:
            s.apply(action)
        except IllegalAction:
            assert s.digest() == before_digest
            continue
        assert action is DONE or quote is not None
        if action is DONE:
            dones += 1
            # cash moves between turns only by overflow sales (Phase One, split)
            assert s.cash - before_cash == s.overflow_cash - before_overflow
            if not s.over:
                # every roll but the last of this step was a closed-market turn
                assert s.rolls - before_rolls == s.closed - before_closed + 1
                assert s.turns_left == before_turns - 1
        else:
            assert s.cash - before_cash == quote
            assert s.overflow_cash == before_overflow
            traded += quote
        check_invariants(s)
        assert s.cash == 10 + traded + s.overflow_cash
    assert dones == 12 - (s.turns_left + (0 if s.over else 1))


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, picks=st.lists(st.integers(0, 10**6), min_size=200, max_size=200))
def test_every_game_has_exactly_twelve_open_turns(seed, picks):
    """Introduction: a game always ends after exactly 12 buy/sell turns, closed turns aside."""
    s = MarketState(seed)
    open_turns = 1
    i = 0
    while not s.is_over:
        legal = s.legal_actions(0)
        # half the time end the turn, so games finish within the pick budget
        a = DONE if picks[i % len(picks)] % 2 else legal[picks[i % len(picks)] % len(legal)]
        i += 1
        s.apply(a)
        check_invariants(s)
        if a is DONE and not s.is_over:
            open_turns += 1
    assert open_turns == 12
    assert s.rolls == 12 + s.closed


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_clone_is_independent_and_equal(seed, picks):
    """State protocol: a clone has the same digest and does not change with the original."""
    s = MarketState(seed)
    for p in picks:
        if s.is_over:
            break
        legal = s.legal_actions(0)
        s.apply(legal[p % len(legal)])
    c = s.clone()
    assert c.digest() == s.digest()
    if not s.is_over:
        frozen = c.digest()
        s.apply(DONE)
        assert c.digest() == frozen


@settings(max_examples=200, deadline=None)
@given(value=st.integers(1, 6), n=st.integers(0, 12), vol=st.integers(2, 5))
def test_trade_prices_step_every_volatility_shares(value, n, vol):
    """Phase Two: share i (0-based) trades at value +/- (i // volatility), clamped to 1..6."""
    from rolling.games.market import rules as R

    cost = sum(min(6, value + i // vol) for i in range(n))
    got = sum(max(1, value - i // vol) for i in range(n))
    assert R.buy_cost(value, n, vol) == (cost, min(6, value + n // vol))
    assert R.sell_proceeds(value, n, vol) == (got, max(1, value - n // vol))
