"""A copy of an OpenSpiel state at a chance node replays the action on a table of its own, which
must not keep the legal options it worked out before the action: OpenSpiel's MCTSBot (random
rollouts, which copy chance nodes) then played the opening draft's options in a turn
(``IllegalAction: DraftImprovement is not a move during a turn``; issue 34, measuring the MCTSBot
game of issue 33 item 1)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import rolling.spiel  # noqa: E402,F401 - registers the games
from rolling.research import freight_codec as F  # noqa: E402
from rolling.spiel import base as B  # noqa: E402


def test_a_replayed_copy_keeps_no_options_of_the_position_before_the_action():
    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    rng = np.random.default_rng(4)
    s = game.new_initial_state()
    copies = 0
    while not s.is_terminal() and copies < 5:
        if s.is_chance_node():
            if s._waiting is not B._SETUP:
                # a chance node after a decision: a copy replays that action with its outcomes
                seat = s._waiting[0]
                c = s.clone()
                while c.is_chance_node():
                    c.apply_action(0)
                if c.is_terminal():
                    break
                fresh = F.FreightTable(c.table.state)
                for p in range(3):
                    assert set(c.table._options(p)) == set(fresh._options(p)), (seat, p)
                copies += 1
            s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert copies == 5
