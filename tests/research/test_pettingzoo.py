"""Issue 15: the PettingZoo AEC environments of Rolling Stock Stars and Rolling Freight."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from rolling.core.errors import RecordError  # noqa: E402
from rolling.envs import freight_v0, stars_v0  # noqa: E402
from rolling.envs.aec import final_rewards, next_seat  # noqa: E402
from rolling.games.freight import Config as FreightConfig  # noqa: E402
from rolling.games.freight import new_game as new_freight  # noqa: E402
from rolling.games.freight.actions import EstablishRoute  # noqa: E402
from rolling.games.stars import Config as StarsConfig  # noqa: E402
from rolling.games.stars import Deal  # noqa: E402
from rolling.games.stars import new_game as new_stars  # noqa: E402
from rolling.research import freight_codec as F  # noqa: E402
from rolling.research import stars_codec as S  # noqa: E402

STARS_SETUPS = [
    dict(players=2),
    dict(players=3, variants=("secret-money",)),
    dict(players=4, variants=("two-handed", "open-companies")),
    dict(players=5, edition="v2.2", variants=("deals",)),
    dict(players=6, reward="score"),
    dict(players=3, variants=("deals", "secret-money")),
    dict(players=6, variants=("deals", "open-companies")),
]
FREIGHT_SETUPS = [
    dict(map="west-coast", players=2),
    dict(map="west-coast", players=3, reward="score"),
    dict(map="west-coast", players=4),
    dict(map="southern", players=3),
    dict(map="southern", players=4),
    dict(map="southern", players=5, reward="score"),
]


def play_random(env, seed: int, check=None) -> int:
    """Play one game with uniformly random legal actions; returns the number of steps."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size, f"{agent} was chosen with no legal action"
            action = int(rng.choice(legal))
            if check is not None:
                check(env, agent, obs, action)
        env.step(action)
        steps += 1
    return steps


@pytest.mark.parametrize("kwargs", STARS_SETUPS, ids=lambda k: f"{k['players']}p-{'-'.join(k.get('variants', ()))}")
def test_stars_api_and_seed(kwargs):
    api_test(stars_v0.env(**kwargs), num_cycles=400)
    seed_test(lambda: stars_v0.env(**kwargs), num_cycles=400)


@pytest.mark.parametrize("kwargs", FREIGHT_SETUPS, ids=lambda k: f"{k['map']}-{k['players']}p")
def test_freight_api_and_seed(kwargs):
    api_test(freight_v0.env(**kwargs), num_cycles=400)
    seed_test(lambda: freight_v0.env(**kwargs), num_cycles=400)


def test_full_games_run_to_the_end():
    for kwargs in STARS_SETUPS:
        kwargs = {k: v for k, v in kwargs.items() if k != "reward"}
        env = stars_v0.env(**kwargs)
        for seed in range(3):
            play_random(env, seed)
            assert env.agents == []
            assert env.unwrapped.table.state.is_over
    env = freight_v0.env(map="southern", players=3)
    play_random(env, 0)
    assert env.agents == []


def test_rank_rewards_run_from_one_to_minus_one_and_ties_share():
    rows = [{"seat": 2, "rank": 1, "score": 90}, {"seat": 0, "rank": 2, "score": 50}, {"seat": 1, "rank": 2, "score": 50}]
    assert final_rewards(rows, 3, "rank") == {2: 1.0, 0: 0.0, 1: 0.0}
    assert final_rewards(rows, 3, "score") == {2: 90.0, 0: 50.0, 1: 50.0}


def test_final_rewards_reach_every_agent_through_last():
    env = stars_v0.env(players=3)
    env.reset(seed=5)
    seen = {}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            seen[agent] = reward
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    standings = env.unwrapped.table.state.standings()
    assert seen == {f"player_{r['seat']}": (3 + 1 - 2 * r["rank"]) / 2 for r in standings}


def test_next_seat_is_round_robin_after_the_last_actor():
    assert next_seat((0, 1, 2, 3), 1, 4) == 2
    assert next_seat((0, 1, 3), 1, 4) == 3
    assert next_seat((0, 1), 3, 4) == 0
    assert next_seat((2,), 2, 4) == 2
    with pytest.raises(ValueError):
        next_seat((), 0, 4)


def test_any_order_phases_starve_nobody():
    """While a seat may act, at most n - 1 decisions of other seats pass before it is chosen."""
    for kwargs in (dict(players=4), dict(players=6), dict(players=3, variants=("secret-money",))):
        env = stars_v0.env(**kwargs)
        n = kwargs["players"]
        for seed in range(4):
            waited = {}
            several = 0

            def check(env, agent, obs, action, waited=waited, n=n):
                nonlocal several
                table = env.unwrapped.table
                chosen = env.unwrapped.agent_name_mapping[agent]
                several += len(table.to_act) > 1
                for seat in table.to_act:
                    waited[seat] = 0 if seat == chosen else waited.get(seat, 0) + 1
                    assert waited[seat] <= n - 1, f"seat {seat} waited {waited[seat]} decisions"
                for seat in list(waited):
                    if seat not in table.to_act:
                        del waited[seat]

            play_random(env, seed, check)
            assert several, "the game never reached an any-order phase"


def test_illegal_action_raises_and_changes_nothing():
    env = stars_v0.env(players=3)
    env.reset(seed=2)
    obs, *_ = env.last()
    before = env.unwrapped.table.state.digest()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        env.step(illegal)
    assert env.unwrapped.table.state.digest() == before
    fenv = freight_v0.env(players=2)
    fenv.reset(seed=2)
    obs, *_ = fenv.last()
    before = fenv.unwrapped.table.state.digest()
    with pytest.raises(ValueError):
        fenv.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert fenv.unwrapped.table.state.digest() == before


def test_bad_setups_are_refused_with_the_engines_reason():
    with pytest.raises(RecordError, match="2 to 6 players"):
        stars_v0.env(players=7)
    with pytest.raises(RecordError, match="3 to 6"):
        stars_v0.env(players=2, edition="v2.2")
    with pytest.raises(RecordError, match="not in the research action space"):
        stars_v0.env(players=3, compat=("18xx-fi-standing-offer",))
    with pytest.raises(RecordError, match="2-4 players"):
        freight_v0.env(map="west-coast", players=5)
    with pytest.raises(ValueError, match="reward"):
        freight_v0.env(reward="money")


def test_secret_money_hides_other_players_cash():
    env = stars_v0.env(players=4, variants=("secret-money",))
    env.reset(seed=3)
    cash, seen = S.OBS["cash"], S.OBS["cash_visible"]
    for seat, agent in enumerate(env.possible_agents):
        o = env.observe(agent)["observation"]
        assert list(o[seen][:4]) == [1.0 if p == seat else 0.0 for p in range(4)]
        assert all(o[cash][p] == 0 for p in range(4) if p != seat)
        assert o[cash][seat] > 0
    open_env = stars_v0.env(players=4)
    open_env.reset(seed=3)
    assert (open_env.observe("player_0")["observation"][cash][:4] > 0).all()


def test_the_deck_order_is_seen_only_with_open_companies():
    hidden = new_stars(StarsConfig(players=4), 11)
    other = hidden.clone()
    # same companies, same top card: a different order below the top must not show
    other.deck[:-1] = other.deck[:-1][::-1]
    assert other.deck != hidden.deck
    assert (S.observe(S.StarsTable(hidden), 0) == S.observe(S.StarsTable(other), 0)).all()
    opened = new_stars(StarsConfig(players=4, variants=("open-companies",)), 11)
    pos = S.observe(S.StarsTable(opened), 0)[S.OBS["deck_position"]]
    assert sorted(pos[pos > 0]) == list(range(1, len(opened.deck) + 1))


def _stars_states(seeds, **config):
    rng = np.random.default_rng(0)
    for seed in seeds:
        s = new_stars(StarsConfig(**config), seed)
        while not s.is_over:
            yield s
            seat = int(rng.choice(s.to_act))
            acts = [a for a in s.legal_actions(seat) if not isinstance(a, Deal)]
            s.apply(acts[int(rng.integers(len(acts)))])


def test_every_stars_action_has_an_index_path_to_the_same_state():
    checked = 0
    for k, s in enumerate(_stars_states(range(3), players=4)):
        if k % 3:
            continue
        for seat in s.to_act:
            for a in s.legal_actions(seat):
                want = s.clone()
                want.apply(a)
                table = S.StarsTable(s.clone())
                tmpl, _, _ = S.template_key(next(m for m in s.legal_moves(seat) if a in m.actions()))
                table.apply_index(seat, S.TEMPLATE_INDEX[tmpl])
                if table.pending is not None:
                    amount = next(getattr(a, f) for kind, f in S.AMOUNT_FIELD.items() if isinstance(a, kind))
                    assert table.mask(seat)[S.AMOUNT0 + amount]
                    table.apply_index(seat, S.AMOUNT0 + amount)
                assert table.state.digest() == want.digest(), a
                checked += 1
    assert checked > 500


def _freight_states(seeds, **config):
    rng = np.random.default_rng(0)
    for seed in seeds:
        s = new_freight(FreightConfig(**config), seed)
        while not s.is_over:
            yield s
            seat = s.to_act[0]
            acts = s.legal_actions(seat)
            routes = [a for a in acts if isinstance(a, EstablishRoute)]
            pick = routes if routes and rng.random() < 0.7 else acts
            s.apply(pick[int(rng.integers(len(pick)))])


def test_every_freight_route_is_reachable_link_by_link():
    """A listed route: a route start, then one legal link action per link, and when the route has
    several listed payments its payment's rank (issue 28 item 5), ends in the same state."""
    routes = paid = 0
    for s in _freight_states(range(3), map="southern", players=3):
        seat = s.to_act[0]
        listed = [a for a in s.legal_actions(seat) if isinstance(a, EstablishRoute)]
        # up to six of each position's routes, spread over the listing (the longest included)
        for a in listed[:: max(1, len(listed) // 6)] + sorted(listed, key=lambda r: len(r.path))[-1:]:
            want = s.clone()
            want.apply(a)
            table = F.FreightTable(s.clone())
            origin = s.map.city_index[a.origin]
            start = F.BLOCK["route_start"][0] + origin * 4 + F.COLOURS.index(a.colour)
            table.apply_index(seat, start)
            for link_id in a.path.split(","):
                k = F.BLOCK["route_link"][0] + s.link_by_id(int(link_id)).index
                assert table.mask(seat)[k]
                assert table.mask(seat).sum() >= 1
                table.apply_index(seat, k)
            ways = [b.pay for b in listed if replace(b, pay="") == replace(a, pay="")]
            if len(ways) > 1:
                mask = table.mask(seat)
                assert mask.sum() == len(ways) and all(mask[F.BLOCK["route_pay"][0] + r] for r in range(len(ways)))
                table.apply_index(seat, F.BLOCK["route_pay"][0] + ways.index(a.pay))
                paid += 1
            assert table.route is None
            assert table.state.digest() == want.digest()
            routes += 1
    assert routes > 50 and paid > 5


def test_every_other_freight_action_has_one_index():
    checked = alts = 0
    for k, s in enumerate(_freight_states(range(2), map="west-coast", players=3)):
        if k % 4:
            continue
        seat = s.to_act[0]
        table = F.FreightTable(s)
        opts = table._options(seat)
        engine = [a for a in s.legal_actions(seat) if not isinstance(a, EstablishRoute)]
        singles = {i: a for i, a in opts.items() if not isinstance(a, list)}
        # every engine action is indexed, except end-turn stores giving the same markers as another;
        # every listed payment of a contract, station or improvement too (issue 28 item 5)
        assert {a for a in engine if a.type_name != "end_turn"} <= set(singles.values())
        alts += sum(1 for i in singles if i >= F.BLOCK["take_contract_alt"][0])
        for i, a in singles.items():
            assert 0 <= i < F.N_ACTIONS and a in engine
            checked += 1
    assert checked > 300 and alts > 20


#: two-handed seats: person A holds 0 and 3, B 1 and 2 (001, Two-player two-handed variant)
HANDS = {"A": (0, 3), "B": (1, 2)}


def rule_winner(rank: dict[int, int]) -> str:
    """001: "To win, your lower ranked simulated player must be better than the lower ranked
    simulated player of your opponent"."""
    return min(HANDS, key=lambda person: max(rank[seat] for seat in HANDS[person]))


def test_two_handed_rewards_follow_the_person_who_wins():
    """Issue 28 item 4: in random two-handed games the rank reward is +1 for both hands of the person
    whose lower-ranked hand is better, -1 for the other two, also when the best single hand loses;
    the score reward is the score of the person's lower-ranked hand."""
    best_hand_lost = 0
    for seed in range(6):
        for kind in ("rank", "score"):
            env = stars_v0.env(players=4, variants=("two-handed",), reward=kind)
            seen = {}
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for agent in env.agent_iter():
                obs, reward, term, trunc, _ = env.last()
                if term or trunc:
                    seen[int(agent.split("_")[1])] = reward
                    env.step(None)
                else:
                    env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            rows = env.unwrapped.table.state.standings()
            rank = {r["seat"]: r["rank"] for r in rows}
            score = {r["seat"]: r["score"] for r in rows}
            winner = rule_winner(rank)
            if kind == "rank":
                assert seen == {p: 1.0 if p in HANDS[winner] else -1.0 for p in range(4)}
                best_hand_lost += min(rank, key=rank.get) not in HANDS[winner]
            else:
                lower = {person: min(score[p] for p in HANDS[person]) for person in HANDS}
                assert seen == {p: float(lower["A" if p in HANDS["A"] else "B"]) for p in range(4)}
    assert best_hand_lost >= 1


def test_two_handed_final_rewards_of_a_constructed_ending():
    """The best single hand (seat 0, A) with A's other hand last: B wins, both of B's hands get +1."""
    s = new_stars(StarsConfig(players=4, variants=("two-handed",)), 3)
    s.order = [0, 1, 2, 3]
    s.cash = [100, 50, 49, 10]
    assert final_rewards(s.standings(), 4, "rank") == {0: -1.0, 1: 1.0, 2: 1.0, 3: -1.0}
    companies_and_shares = {r["seat"]: r["score"] - r["cash"] for r in s.standings()}
    assert companies_and_shares == {0: 0, 1: 0, 2: 0, 3: 0}
    assert final_rewards(s.standings(), 4, "score") == {0: 10.0, 1: 49.0, 2: 49.0, 3: 10.0}


def test_two_handed_secret_money_observations_show_both_hands_cash():
    """Issue 28 item 4: with two-handed and secret money a hand's observation holds its partner
    hand's cash (one person holds both); the other person's cash stays hidden."""
    env = stars_v0.env(players=4, variants=("two-handed", "secret-money"))
    env.reset(seed=3)
    cash, seen = S.OBS["cash"], S.OBS["cash_visible"]
    for seat, agent in enumerate(env.possible_agents):
        mine = HANDS["A"] if seat in HANDS["A"] else HANDS["B"]
        o = env.observe(agent)["observation"]
        assert list(o[seen][:4]) == [1.0 if p in mine else 0.0 for p in range(4)]
        assert all(o[cash][p] == 0 for p in range(4) if p not in mine)
        assert all(o[cash][p] > 0 for p in mine)
