"""Issue 28 item 4 in the web app: in the two-handed variant (001, Two-player two-handed variant:
"To win, your lower ranked simulated player must be better than the lower ranked simulated player
of your opponent") the game document's standings mark both hands of the winning person, and with
secret money a person's browser sees both of that person's hands' cash, never the other person's."""

from __future__ import annotations

from .conftest import doc_of, make_game, tok

#: seats 0 and 3 are person A's hands, 1 and 2 person B's
HANDS = {"A": (0, 3), "B": (1, 2)}


def rule_winner(rank: dict[int, int]) -> str:
    return min(HANDS, key=lambda person: max(rank[seat] for seat in HANDS[person]))


def test_finished_two_handed_games_mark_the_winning_persons_hands(client):
    best_hand_lost = 0
    for seed in range(1, 7):
        g = make_game(client, ["random"] * 4, seed=seed, config={"variants": ["two-handed"]})
        d = doc_of(client, g["id"])
        assert d["over"]
        rank = {r["seat"]: r["rank"] for r in d["standings"]}
        winner = rule_winner(rank)
        assert {r["seat"] for r in d["standings"] if r["win"]} == set(HANDS[winner])
        assert {r["seat"]: r["hand"] for r in d["standings"]} == {0: "A", 1: "B", 2: "B", 3: "A"}
        assert d["view"]["standings"] == d["standings"]
        best_hand_lost += min(rank, key=rank.get) not in HANDS[winner]
    assert best_hand_lost >= 1


def test_two_handed_secret_money_browser_sees_both_hands_cash(client):
    g = make_game(client, ["human", "human", "human", "human"], seed=4,
                  config={"variants": ["two-handed", "secret-money"]})
    for held in ((0,), (3,), (0, 3), (1,), (2,), (1, 2)):
        person = "A" if held[0] in HANDS["A"] else "B"
        d = doc_of(client, g["id"], *(tok(g, k) for k in held))
        cash = {p["seat"]: p["cash"] for p in d["view"]["players"]}
        assert {k for k, v in cash.items() if v is not None} == set(HANDS[person]), held
    assert all(p["cash"] is None for p in doc_of(client, g["id"])["view"]["players"])
