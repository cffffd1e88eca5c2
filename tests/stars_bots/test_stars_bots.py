"""Rolling Stock Stars bots: they only ever play legal actions, finish their games, never change the
state they are shown, and are deterministic given their seeds."""

from __future__ import annotations

import pytest

from rolling.bots import Bot, UnknownBot, bot_names, get_bot_class, make_bot, register
from rolling.games.stars import Config, new_game
from rolling.sim.stars import pick_seat


def is_legal(state, seat, action) -> bool:
    """True if ``action`` is one of the actions of ``seat``'s compact legal moves."""
    for m in state.legal_moves(seat):
        if type(action) is not m.kind or action.seat != seat:
            continue
        if any(getattr(action, k) != v for k, v in m.args.items()):
            continue
        if m.field is None or m.lo <= getattr(action, m.field) <= m.hi:
            return True
    return False


def play_checked(labels, seed, max_actions=50_000):
    """Play one game, checking every action the bots choose; return (state, actions)."""
    s = new_game(Config(players=len(labels)), seed)
    bots = {seat: make_bot("stars", labels[seat], seed * 10 + seat) for seat in range(len(labels))}
    actions = []
    last = -1
    while not s.is_over:
        seat = pick_seat(s, last)
        assert seat in s.to_act
        before = s.digest()
        a = bots[seat].choose(s, seat)
        assert s.digest() == before, f"{labels[seat]} bot changed the state"
        assert is_legal(s, seat, a), f"{labels[seat]} bot chose an illegal action {a!r} in phase {s.phase}"
        s.apply(a)
        actions.append(a)
        last = seat
        assert len(actions) < max_actions, "the game does not end"
    return s, actions


def test_registry_names_and_errors():
    assert {"random", "heuristic"} <= set(bot_names("stars"))
    assert bot_names("no-such-game") == []
    for name in ("random", "heuristic"):
        bot = make_bot("stars", name, 3)
        assert isinstance(bot, Bot) and bot.name == name
    with pytest.raises(UnknownBot, match="unknown stars bot"):
        make_bot("stars", "genius")


def test_register_another_games_bot(monkeypatch):
    import rolling.bots as registry

    # the registry is restored afterwards, so other tests see only the real games
    monkeypatch.setattr(registry, "BOTS", {game: dict(bots) for game, bots in registry.BOTS.items()})
    monkeypatch.setattr(registry, "STRONGEST", dict(registry.STRONGEST))

    class Echo:
        name = "echo"

        def __init__(self, seed=0):
            self.seed = seed

        def choose(self, state, seat):
            return state

    register("test-game", "echo", Echo)
    assert get_bot_class("test-game", "echo") is Echo
    assert make_bot("test-game", "echo", 5).seed == 5
    assert make_bot("test-game", "bot", 5).name == "echo"  # its first bot is its strongest
    register("test-game", "lazy", "rolling.bots.stars_random:StarsRandomBot")
    assert make_bot("test-game", "lazy", 1).name == "random"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_finish_with_legal_actions(players):
    for seed in range(3):
        s, _ = play_checked(["random"] * players, seed)
        rows = s.standings()
        assert s.is_over and sorted(r["rank"] for r in rows) == list(range(1, players + 1))


@pytest.mark.parametrize("labels", [
    ["heuristic", "random", "random", "random"],
    ["heuristic", "heuristic", "heuristic"],
    ["random", "heuristic", "random", "heuristic", "random"],
    ["heuristic"] * 6,
    ["heuristic", "heuristic"],
    ["random", "heuristic"],
])
def test_heuristic_plays_only_legal_actions(labels):
    for seed in (11, 12):
        s, _ = play_checked(labels, seed)
        assert s.is_over


@pytest.mark.parametrize(
    "labels,seeds",
    [(["random", "heuristic", "random"], (4, 7)), (["heuristic", "random"], (5, 6)), (["random"] * 4, (0, 1, 2))],
)
def test_bots_play_the_deals_variant_with_legal_actions(labels, seeds):
    """Variant deals (002, 3.1): the random bot proposes swaps, both bots answer deals, every
    action chosen is one of the listed legal actions, and the games end (seeds where swaps arise)."""
    from rolling.games.stars import Deal, RespondDeal

    kinds = set()
    for seed in seeds:
        s = new_game(Config(players=len(labels), variants=("deals",)), seed)
        bots = {seat: make_bot("stars", labels[seat], seed * 10 + seat) for seat in range(len(labels))}
        last, n = -1, 0
        while not s.is_over:
            seat = pick_seat(s, last)
            a = bots[seat].choose(s, seat)
            if isinstance(a, (Deal, RespondDeal)):
                kinds.add(type(a))
                assert a in s.legal_actions(seat), f"{labels[seat]} chose an unlisted {a!r}"
            else:
                assert is_legal(s, seat, a), f"{labels[seat]} bot chose an illegal action {a!r}"
            s.apply(a)
            last, n = seat, n + 1
            assert n < 50_000
    assert Deal in kinds and RespondDeal in kinds


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bots_are_deterministic(name):
    labels = [name, "random", name, "random"]
    s1, a1 = play_checked(labels, 21)
    s2, a2 = play_checked(labels, 21)
    assert a1 == a2 and s1.digest() == s2.digest()


def test_different_bot_seeds_play_differently():
    s = new_game(Config(players=4), 5)
    seat = s.to_act[0]
    picks = {make_bot("stars", "random", k).choose(s, seat) for k in range(30)}
    assert len(picks) > 1


def test_bot_with_no_legal_action_raises():
    s = new_game(Config(players=4), 5)
    idle = next(seat for seat in range(4) if seat not in s.to_act)
    for name in ("random", "heuristic"):
        with pytest.raises(ValueError):
            make_bot("stars", name).choose(s, idle)


def test_heuristic_beats_random_on_a_few_games():
    """Not the 80% measurement (that is `rolling simulate stars`): a smoke check that the heuristic
    bot plays to win."""
    from rolling.sim import simulate

    stats = simulate("stars", ["heuristic", "random", "random", "random"], 8, seed=100)
    assert stats["seats"][0]["wins"] >= 6
