"""The Rolling Freight search bot (``search``): legal whole games, determinism, determinizations
that hide only what the rules hide, and reasons that name the alternatives."""

from __future__ import annotations

import pytest

from rolling.bots import make_bot
from rolling.bots.freight import FreightHeuristicBot
from rolling.bots.freight_search import MAX_CANDIDATES, FreightSearch, FreightSearchBot
from rolling.core.rng import Rng
from rolling.games.freight import Config, new_game


def play(map_name: str, seed: int, budget: str = "3", search_seat: int = 0):
    """A three-player game, ``search:budget`` at ``search_seat`` and heuristics elsewhere;
    returns the final state and every action taken as ``(seat, action)``."""
    st = new_game(Config(map_name, 3), seed)
    bots = [make_bot("freight", "heuristic", seed + k) for k in range(3)]
    bots[search_seat] = make_bot("freight", f"search:{budget}", seed)
    actions = []
    while not st.is_over:
        seat = st.to_act[0]
        a = bots[seat].choose(st, seat)
        if seat == search_seat:
            assert a in st.legal_actions(seat), a
        st.apply(a)
        actions.append((seat, a))
    return st, actions


def heuristic_until(map_name: str, seed: int, done) -> object:
    """A heuristic game played until ``done(state)`` holds (and the game is not over)."""
    st = new_game(Config(map_name, 3), seed)
    bots = [FreightHeuristicBot(k) for k in range(3)]
    while not done(st):
        assert not st.is_over
        seat = st.to_act[0]
        st.apply(bots[seat].choose(st, seat))
    return st


@pytest.mark.parametrize("map_name", ["west-coast", "southern"])
def test_whole_game_against_heuristics_only_legal_moves(map_name):
    """A whole game on each map ("Setting Up the Game Board" to "Ending Phase C") with
    ``search:3`` in one seat: every move it makes is one of ``legal_actions`` and the engine
    accepts it; the game reaches its end with final standings."""
    st, actions = play(map_name, 11, search_seat=1)
    assert st.is_over
    assert any(seat == 1 for seat, _ in actions)
    assert len(st.standings()) == 3


def test_same_seed_and_iterations_give_the_same_game():
    """With an iteration budget the bot is deterministic: the same seed gives the same actions
    (the dice and cargo draws, "H. Rolling Your Dice", come from the game's seed)."""
    _, first = play("west-coast", 4, budget="3")
    _, second = play("west-coast", 4, budget="3")
    assert first == second


def _deck_marks(deck):
    return [k for k, card in enumerate(deck) if card < 0]


def test_determinize_resamples_only_the_hidden_order():
    """"Setting Up the Game Board": each contract set is shuffled separately and stacked between
    End of Phase cards, and the improvement deck is shuffled; "Beginning Phase B" moves the lowest
    contract and improvement to the bottom face down (seen by all). A determinization keeps the
    root state unchanged, the public view, both decks' contents, the End of Phase cards' places
    and the known bottom cards, and does reorder the hidden stretches."""
    st = heuristic_until("west-coast", 3, lambda s: s.phase == 1 and s.stage == "turn")
    seat = st.to_act[0]
    before = st.digest()
    game = FreightSearch(seat, 0)
    rng = Rng(9)
    marks = _deck_marks(st.contract_deck)
    assert marks and marks[0] > 0  # a contract returned at Phase B's start lies below the lowest card
    orders = set()
    for _ in range(12):
        d = game.determinize(st, seat, rng)
        assert st.digest() == before
        assert d.view(seat) == st.view(seat)
        assert sorted(d.contract_deck) == sorted(st.contract_deck)
        assert _deck_marks(d.contract_deck) == marks
        assert d.contract_deck[:marks[0]] == st.contract_deck[:marks[0]]
        assert sorted(d.improvement_deck) == sorted(st.improvement_deck)
        assert d.improvement_deck[:st.eop_removed] == st.improvement_deck[:st.eop_removed]
        assert d.rng.state != st.rng.state
        orders.add((tuple(d.contract_deck), tuple(d.improvement_deck)))
    assert len(orders) > 1


def test_determinize_at_the_start_keeps_the_three_sets_apart():
    """At set-up the deck is End of Phase / C / End of Phase / B / End of Phase / A ("Setting Up
    the Game Board"): a determinization reorders each set only among its own cards."""
    st = new_game(Config("southern", 4), 2)
    d = FreightSearch(0, 0).determinize(st, st.to_act[0], Rng(1))
    marks = _deck_marks(st.contract_deck)
    assert _deck_marks(d.contract_deck) == marks
    bounds = marks + [len(st.contract_deck)]
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        assert sorted(d.contract_deck[lo:hi]) == sorted(st.contract_deck[lo:hi])
    assert d.contract_deck != st.contract_deck


def test_candidates_are_short_legal_and_start_with_the_heuristic():
    """At every decision of a heuristic game the candidates are legal moves ("On Your Turn",
    A-E and the end of the turn, or a draft pick in "Beginning the Game"), at most
    MAX_CANDIDATES, distinct, and the first is the heuristic's own choice."""
    st = new_game(Config("west-coast", 3), 6)
    bots = [FreightHeuristicBot(k) for k in range(3)]
    game = FreightSearch(0, 0)
    several = 0
    while not st.is_over:
        seat = st.to_act[0]
        cands = game.candidates(st, seat, FreightHeuristicBot(0))
        legal = st.legal_actions(seat)
        assert 1 <= len(cands) <= MAX_CANDIDATES
        assert len({k for k, _ in cands}) == len(cands)
        assert all(a in legal for _, a in cands)
        assert cands[0][1] == FreightHeuristicBot(0).choose(st, seat)
        texts = [game.describe(st, a) for _, a in cands]
        assert len(set(texts)) == len(texts), texts  # a reason can tell the alternatives apart
        several += len(cands) > 1
        st.apply(bots[seat].choose(st, seat))
    assert several > 20


def test_reason_lists_alternatives_with_visits():
    """After a searched decision the reason names the iterations and the top alternatives, each
    with its visits and value; a decision with one candidate is played without search and keeps
    the heuristic's reason."""
    st = heuristic_until("west-coast", 8, lambda s: s.stage == "turn" and s.turn >= 4)
    seat = st.to_act[0]
    bot = FreightSearchBot(seed=1, budget="20")
    bot.choose(st, seat)
    assert bot.last_result is not None and bot.last_result.iterations == 20
    assert bot.last_reason.startswith("search (20 iterations")
    assert bot.last_reason.count(" visits ") >= 2 and " | " in bot.last_reason
    assert sum(v for _, _, v, _ in bot.last_result.ranked) == 20

    # the end of a final round: a player with nothing to do but end the turn
    alone = None
    probe = new_game(Config("west-coast", 3), 8)
    players = [FreightHeuristicBot(k) for k in range(3)]
    while not probe.is_over:
        s = probe.to_act[0]
        if probe.stage == "turn" and len(probe.legal_actions(s)) == 1:
            alone = probe
            break
        probe.apply(players[s].choose(probe, s))
    assert alone is not None
    s = alone.to_act[0]
    action = bot.choose(alone, s)
    assert bot.last_result is None
    assert action == alone.legal_actions(s)[0]
    heuristic = FreightHeuristicBot(0)
    assert heuristic.choose(alone, s) == action
    assert bot.last_reason == heuristic.last_reason


def test_the_last_turn_is_searched_exactly():
    """"Ending Phase C": after the End of Phase holder's final turn the game is over, so in that
    turn no hidden card or roll can change a playout: the search is exact there (one playout per
    candidate) and not before."""
    st = heuristic_until("west-coast", 5, lambda s: s.phase == 2 and s.final_left == 1)
    game = FreightSearch(st.to_act[0], 0)
    assert game.exact(st)
    assert not game.exact(heuristic_until("west-coast", 5, lambda s: s.stage == "turn" and s.turn >= 3))
    bot = FreightSearchBot(seed=0, budget="50")
    seat = st.to_act[0]
    bot.choose(st, seat)
    assert bot.last_result is not None
    assert bot.last_result.iterations == len(bot.last_result.ranked) <= MAX_CANDIDATES
