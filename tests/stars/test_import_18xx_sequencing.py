"""How `rolling import-18xx` follows the site's sequencing where it differs from our engine's
without a different rule (docs/18xx-compatibility.md, "How the importer adapts")."""

import gzip
import json
from pathlib import Path

import pytest

from rolling.core.record import replay
from rolling.games.stars import Config
from rolling.games.stars.state import GONE
from rolling.interop.e18xx import COMPAT, TITLE, _Importer, effective_actions, import_export, load_export

from .conftest import blank, corp, give, goto, idx

RANDOM = sorted((Path(__file__).parent.parent / "fixtures" / "18xx" / "random").glob("*.json.gz"))
STRESS = sorted((Path(__file__).parent.parent / "fixtures" / "18xx" / "stress").glob("*.json.gz"))


@pytest.mark.parametrize("path", RANDOM, ids=lambda p: p.name.split(".")[0])
def test_random_site_games_import_to_their_recorded_scores(path):
    """Issue 10, A: 150 random legal games played in the 18xx.games engine (2-6 players) import to
    the site's recorded scores, and our record of each replays to the same standings."""
    result = import_export(load_export(path))
    assert result.match, result.error
    recorded = json.loads(gzip.decompress(path.read_bytes()))["result"]
    assert {str(p["id"]): p["score"] for p in result.players} == {str(k): v for k, v in recorded.items()}
    again = replay(result.record)
    assert again.digest() == result.state.digest()


def test_the_random_corpus_is_complete():
    assert len(RANDOM) == 150 and len(STRESS) == 3


@pytest.mark.parametrize("path", STRESS, ids=lambda p: p.name.split(".")[0])
def test_site_games_with_undo_redo_and_quiet_phases_import(path):
    """Games with "Undo to Here" then Redo, and share sales after which the engine runs on through
    phases nobody decides (tests/fixtures/18xx/stress/README.md), import to the recorded scores."""
    result = import_export(load_export(path))
    assert result.match, result.error


def test_redo_restores_everything_an_undo_to_here_took_back():
    """18xx.games (Game::Base.filtered_actions): an undo naming an action takes back every later
    action as one group, and a redo restores the whole group; a new action forgets the undos."""
    acts = [{"type": "pass", "id": k} for k in range(1, 6)]
    acts += [{"type": "undo", "id": 6, "action_id": 2}, {"type": "undo", "id": 7}, {"type": "redo", "id": 8}]
    flat, _ = effective_actions(acts)
    assert [a["id"] for a in flat] == [1, 2]
    flat, _ = effective_actions(acts + [{"type": "redo", "id": 9}])
    assert [a["id"] for a in flat] == [1, 2, 3, 4, 5]
    flat, _ = effective_actions(acts + [{"type": "pass", "id": 9}, {"type": "redo", "id": 10}])
    assert [a["id"] for a in flat] == [1, 2, 9]
    flat, _ = effective_actions(acts[:5] + [{"type": "undo", "id": 6, "action_id": 0}, {"type": "redo", "id": 7}])
    assert [a["id"] for a in flat] == [1, 2, 3, 4, 5]


def test_share_price_is_checked_right_after_the_trade():
    """The site records the share price a trade leads to; our engine may run on through phases
    nobody decides within the same action, so the check uses the price right after the trade."""
    path = STRESS[0].parent / "rss_7094.json.gz"  # the sale at id 95 is followed by a quiet turn
    data = load_export(path)
    assert import_export(data).match
    bad = json.loads(json.dumps(data))
    sale = next(a for a in bad["actions"] if a["id"] == 95)
    sale["share_price"] += 1
    assert "the site's share price is" in import_export(bad).error


def importer(s):
    """An importer whose game is the hand-laid table ``s`` (seats 0.. are site players 1..)."""
    export = {
        "title": TITLE,
        "players": [{"id": k + 1, "name": "ABCDEF"[k]} for k in range(s.n)],
        "settings": {"seed": 1},
        "actions": [],
    }
    imp = _Importer(export)
    s.config = Config(players=s.n, compat=COMPAT, names=s.config.names)
    imp.state = s
    return imp


def player_pass(seat):
    return {"type": "pass", "entity_type": "player", "entity": seat + 1, "id": 1}


def company_pass(code):
    return {"type": "pass", "entity_type": "company", "entity": code, "id": 1}


def test_ipo_question_with_only_one_answer_is_a_no_op():
    """Issue 10, A.2: the site asks about a company whose owner cannot afford any free price card
    of its colour and records a company pass; our engine never asks (phase 9 passes it over), so the
    pass neither is refused nor declines another company still pending."""
    s = blank(3, cash=[30, 0, 30])
    give(s, "DR", 0)  # face $29, owner can pay
    give(s, "BME", 1)  # face $2, owner has $0
    goto(s, 9)
    imp = importer(s)
    before = s.digest()
    assert s.ipo_cursor == idx("DR")
    imp.feed(company_pass("BME"))
    assert s.digest() == before and s.ipo_cursor == idx("DR")
    imp.feed(company_pass("DR"))
    assert s.company_owner[idx("DR")] == 0 and s.phase == 1


def solo_president_table(bankrupt=False, last_turn=False):
    """P0 presides PR, one company and no private one: the site asks P0 in phase 4 (it holds phase
    4 because JS, in receivership, owns two companies), our engine does not (P0 has nothing to
    close). ``bankrupt``: PR cannot pay its costs in phase 5 and nobody else owns anything, so our
    engine has no decision before the next phase 1 (or, on the ``last_turn``, before the game
    ends); otherwise P1 owns BME, and both ask P1 in phase 4."""
    s = blank(3, cash=[30, 30, 30])  # enough to buy a share of JS in the next phase 1
    corp(s, "JS", ["DSB", "KK"], 10, cash=50, holders={})
    if bankrupt:
        corp(s, "PR", ["MHE"], 5, cash=0, holders={0: 1})
        s.deck = []
        s.company_owner[idx("SBB")] = GONE
        s.end_flipped = True  # $10 cost of ownership
        if not last_turn:
            s.end_flipped = False
            s.deck = [idx("CDG")]  # a blue card on top: red companies pay
            s.company_owner[idx("CDG")] = -1
    else:
        corp(s, "PR", ["MHE"], 11, cash=10, holders={0: 1})
        give(s, "BME", 1)
    goto(s, 3)
    return s


def test_late_phase_4_pass_is_dropped_in_a_later_phase():
    """Issue 10, A.4: the site records a phase-4 pass for a player our engine never asked (P0, whose
    only corporation has one company); it arrives while our engine is in phase 6. Each participant
    passes once per any-order phase, so it is told from other passes and dropped."""
    s = solo_president_table()
    imp = importer(s)
    imp.feed(player_pass(0))  # phase 3 pass
    imp.feed(player_pass(1))  # P1: phase 4 (owns BME, asked by both)
    assert s.phase == 6
    before = s.digest()
    imp.feed(player_pass(0))  # P0's phase 4 pass, late
    assert s.digest() == before


def test_late_phase_4_pass_is_not_a_phase_1_pass():
    """Issue 10, A.4: with PR bankrupt in phase 5, our engine is in phase 1 of the next turn when
    P0's phase-4 pass arrives: it is dropped, and P0's next pass is a phase 1 pass."""
    s = solo_president_table(bankrupt=True)
    imp = importer(s)
    imp.feed(player_pass(0))  # phase 3
    assert s.phase == 1 and s.turn == 2 and not s.corp_active[0]
    before = s.digest()
    imp.feed(player_pass(0))  # late phase 4 pass
    assert s.digest() == before
    first = s.to_act[0]
    imp.feed(player_pass(first))
    assert s.passed >> first & 1


def test_late_phase_4_pass_after_our_game_ended_is_dropped():
    """Issue 10, A.4: not reported as "game already over"."""
    s = solo_president_table(bankrupt=True, last_turn=True)
    imp = importer(s)
    imp.feed(player_pass(0))  # phase 3
    assert s.over
    imp.feed(player_pass(0))
    assert s.over
