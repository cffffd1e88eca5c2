"""Bots: legal moves only, games end, the heuristic beats random players; records narrate."""

from __future__ import annotations

import json

import pytest

from rolling.bots import UnknownBot, make_bot
from rolling.bots.freight import FreightHeuristicBot, FreightRandomBot
from rolling.core.record import GameRecord
from rolling.games.freight import Config, new_game
from rolling.sim import play_game
from rolling.ui.narrate import print_replay


@pytest.mark.parametrize("map_name", ["west-coast", "southern"])
def test_heuristic_beats_two_random_bots(map_name):
    """The heuristic wins at least 5 of 6 three-player games against two random bots (seats rotate)."""
    wins = 0
    for g in range(6):
        pos = g % 3
        bots = [FreightRandomBot(g * 3 + i) for i in range(3)]
        bots[pos] = FreightHeuristicBot(g)
        st = new_game(Config(map_name, 3), 100 + g)
        play_game(st, bots)
        wins += st.standings()[0]["seat"] == pos
    assert wins >= 5


def test_heuristic_self_play_ends_and_view_is_json():
    """Four heuristic bots play the Southern map to the end; views are JSON-able throughout."""
    st = new_game(Config("southern", 4), 9)
    bots = [make_bot("freight", "heuristic", i) for i in range(4)]
    n = 0
    while not st.is_over:
        seat = st.to_act[0]
        st.apply(bots[seat].choose(st, seat))
        n += 1
        if n % 50 == 0:
            json.dumps(st.view(seat))
    assert st.eop_removed == 3 and max(p.stock for p in st.players) > 0
    with pytest.raises(UnknownBot):
        make_bot("freight", "genius")


def test_replay_narrates_a_freight_game():
    """rolling replay: the state's log gives readable lines for every event."""
    st = new_game(Config("west-coast", 2), 4)
    acts = play_game(st, [FreightHeuristicBot(1), FreightRandomBot(2)])
    rec = GameRecord("freight", st.config.to_json(), 4, [a.to_json() for a in acts])
    lines: list[str] = []
    print_replay(rec, out=lines.append)
    text = "\n".join(lines)
    assert "drafts" in text and "End of phase A" in text and "Game over" in text
