"""Issue 28 item 7: a bot's reason has a public part and a private part (its limits, valuations and
search statistics); one rule (:func:`rolling.bots.reasons.shown_reason`) says who reads which."""

from __future__ import annotations

import pickle

import pytest

from rolling.bots import make_bot
from rolling.bots.reasons import Reason, decode, encode, shown_reason
from rolling.games import get_game
from rolling.games.freight import Config as FreightConfig
from rolling.games.stars.config import Config as StarsConfig
from rolling.sim.stars import pick_seat

#: words of a bot's plan, which no public part may hold
PLAN = ("up to $", "worth $", "visits", "iterations", "gains $", "lose $", "standing pat (", "keeping $",
        "high on its list", "contracts going", " worth ")


def reasons_of(game, config, seats, seed, limit=400):
    """The reasons the bots of ``seats`` give in a game of ``game`` (at most ``limit`` decisions)."""
    spec = get_game(game)
    s = spec.new_game(config, seed)
    bots = [make_bot(game, kind, seed=k) for k, kind in enumerate(seats)]
    out, last = [], -1
    for _ in range(limit):
        if s.is_over:
            break
        seat = pick_seat(s, last) if game == "stars" else s.to_act[0]
        s.apply(bots[seat].choose(s, seat))
        last = seat
        if bots[seat].last_reason:
            out.append(bots[seat].last_reason)
    return out


@pytest.mark.parametrize("game,config,seats", [
    ("stars", StarsConfig(players=4), ["heuristic"] * 4),
    ("stars", StarsConfig(players=3, variants=("secret-money",)), ["heuristic"] * 3),
    ("stars", StarsConfig(players=2), ["search:8", "heuristic"]),
    ("freight", FreightConfig("west-coast", 3), ["heuristic", "heuristic", "search:8"]),
    ("market", None, ["heuristic"]),
    ("market", None, ["policy"]),
    ("market", None, ["value"]),
])
def test_every_reason_has_a_public_part_without_the_bots_plan(game, config, seats):
    reasons = reasons_of(game, config, seats, 3)
    assert len(reasons) > 5
    assert all(isinstance(r, Reason) for r in reasons), [r for r in reasons if not isinstance(r, Reason)]
    leaks = [r.public for r in reasons if any(w in r.public for w in PLAN)]
    assert leaks == []
    assert any(r.public for r in reasons)
    # the full texts keep the plan: they are what the game's end shows
    assert any(any(w in str(r) for w in PLAN) for r in reasons)


def test_the_one_rule():
    r = Reason("bids up to $12 for MS: synergies", "bids for MS: synergies")
    assert shown_reason(r, over=False) == "bids for MS: synergies"
    assert shown_reason(r, over=True) == "bids up to $12 for MS: synergies"
    assert shown_reason(r, over=False, private_ok=True) == "bids up to $12 for MS: synergies"
    # a plain str is all private; an empty public part shows nothing while the game goes on
    assert shown_reason("bids up to $12", over=False) is None
    assert shown_reason(Reason("rejects: would lose $3", ""), over=False) is None
    assert shown_reason(None, over=True) is None


def test_stored_reasons_keep_both_parts():
    r = Reason("bids up to $12  for MS", "bids for MS")
    back = decode(encode(r))
    assert (str(back), back.public) == ("bids up to $12 for MS", "bids for MS")
    assert decode(encode("an older, plain reason")).public == ""
    assert decode(encode(r, 6)) == "bids u" and decode(encode(r, 6)).public == "bids f"
    again = pickle.loads(pickle.dumps(r))
    assert (str(again), again.public) == (str(r), r.public)
