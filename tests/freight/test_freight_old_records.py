"""A saved Freight game is never lost (issue 28 item 5): ``pay=""`` is resolved by the payment
order the game's config names, and a config written before item 5 (no ``payment``) gets the old
chooser, so a record made then replays to the very same game.

The two records under tests/fixtures/freight were made with the code of commit cdcd327 (before
item 5) by ``rolling play freight --seats heuristic,heuristic,random --seed 3 --save FILE -q`` and
``rolling play freight --map southern --seats random,heuristic,random,random --seed 5 --save FILE
-q``; their final digests were computed there. With the new order for ``pay=""`` both diverge and
end in an illegal action (a die already spent)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, load_record, replay
from rolling.games import get_game
from rolling.games.freight import Config, config_from_json, new_game, record_config_from_json
from rolling.games.freight.actions import BuildStation
from rolling.games.freight.payment import auto_purchase
from rolling.games.freight.payways import best_payment, payments

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "freight"

# (file, actions, final digest at cdcd327, final scores)
OLD = [
    ("before-item5-west-coast-seed3.json", 281,
     "d11bcc10bbe7d2825199431356a2d6bc4faf1453f0de317b001b88b556c2f64e", [134, 147, 47]),
    ("before-item5-southern-seed5.json", 507,
     "c5d2c3ea0d177bc0a20c691d73bf27c66c395c0b694c351b6acc69ef576c1c75", [104, 239, 117, 69]),
]


@pytest.mark.parametrize(("name", "n", "digest", "scores"), OLD)
def test_a_record_made_before_item_5_replays_to_its_final_digest(name, n, digest, scores):
    record = load_record(FIXTURES / name)
    assert "payment" not in record.config and len(record.actions) == n
    state = replay(record)
    assert state.is_over and state.config.payment == "legacy"
    assert state.digest() == digest
    assert [r["score"] for r in sorted(state.standings(), key=lambda r: r["seat"])] == scores


def test_a_stored_config_without_payment_reads_as_legacy_and_a_new_one_writes_kept():
    # a stored config (a record, a save, a web game's row) without "payment" predates item 5...
    assert record_config_from_json({"map": "west-coast", "players": 3}).payment == "legacy"
    assert get_game("freight").read_record_config({"map": "west-coast", "players": 3}).payment == "legacy"
    # ...while a new game's options without it (the lobby, the API, the research environments) get the new order
    assert config_from_json({"map": "west-coast", "players": 3}).payment == "kept"
    new = Config("southern", 4)
    assert new.payment == "kept" and new.to_json()["payment"] == "kept"
    assert config_from_json(new.to_json()) == new
    old = record_config_from_json({"map": "west-coast", "players": 3, "names": ["A", "B", "C"]})
    assert old.to_json()["payment"] == "legacy" and config_from_json(old.to_json()) == old
    with pytest.raises(RecordError, match="unknown payment 'best'"):
        config_from_json({"map": "west-coast", "players": 3, "payment": "best"})


def test_a_new_record_replays_with_the_new_order():
    """A game played now (payment "kept") and saved replays with the order it was played with."""
    state = new_game(Config("west-coast", 3), 12)
    rng = random.Random(12)
    actions = []
    while not state.is_over:
        a = rng.choice(state.legal_actions(state.to_act[0]))
        actions.append(a.to_json())
        state.apply(a)
    record = GameRecord("freight", state.config.to_json(), 12, actions)
    assert record.config["payment"] == "kept"
    assert replay(GameRecord.from_json(record.to_json())).digest() == state.digest()


def _kept(p):
    """What a player keeps: unspent dice faces with their kinds, and markers."""
    return sorted((f, k) for f, k, s in zip(p.dice, p.die_kinds, p.spent, strict=True) if not s), list(p.markers)


def _walk_legacy(seed: int, check) -> int:
    state = new_game(Config("west-coast", 3, payment="legacy"), seed)
    rng = random.Random(seed)
    seen = 0
    while not state.is_over:
        seat = state.to_act[0]
        acts = state.legal_actions(seat)
        seen += check(state, seat, acts)
        state.apply(rng.choice(acts))
    return seen


def test_a_legacy_game_pays_blank_the_old_way_and_lists_every_other_payment():
    """In a legacy game ``pay=""`` is the old chooser's payment; the listing names each payment of
    the front that keeps something else, each legal, none keeping what ``""`` keeps."""

    def check(state, seat, acts):
        n = 0
        for a in acts:
            if type(a).__name__ != "TakeContract" or a.pay:
                continue
            link = state.map.links[state.contract_track[a.slot]]
            cost = max(0, link.cost - state.players[seat].has("Acquisition Expert"))
            old = auto_purchase(state, seat, link.colour, cost, "contract")
            assert best_payment(state, seat, link.colour, cost, "contract", take=link) == old
            named = [b for b in acts if type(b).__name__ == "TakeContract" and b.slot == a.slot and b.pay]
            front = payments(state, seat, link.colour, cost, "contract", take=link)
            assert len(named) in (len(front), len(front) - 1)
            ref = state.clone()
            ref.apply(a)
            for b in named:
                trial = state.clone()
                trial.apply(b)  # legal
                assert _kept(trial.players[seat]) != _kept(ref.players[seat])
            n += 1
        return n

    assert _walk_legacy(4, check) > 20


def test_a_legacy_blank_that_cannot_pay_is_refused_and_changes_nothing():
    state = new_game(Config("west-coast", 3, payment="legacy"), 2)
    while state.stage == "draft":
        state.apply(state.legal_actions(state.to_act[0])[0])
    seat = state.to_act[0]
    p = state.players[seat]
    p.spent = [True] * len(p.dice)
    p.markers = [0, 0, 0, 0]
    before = state.digest()
    with pytest.raises(IllegalAction):
        state.apply(BuildStation(seat))
    assert state.digest() == before


def test_the_terminal_saves_a_new_game_with_the_new_order(tmp_path):
    import json
    import subprocess
    import sys

    out = tmp_path / "rec.json"
    subprocess.run([sys.executable, "-m", "rolling.cli.main", "play", "freight", "--seats", "random,random,random",
                    "--seed", "1", "--save", str(out), "-q"], check=True, capture_output=True, timeout=300)
    record = json.loads(out.read_text())
    assert record["config"]["payment"] == "kept"
    assert replay(GameRecord.from_json(record)).is_over
