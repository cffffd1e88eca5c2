"""A bot's memory is the record's, not the process's (issue 30: "kill -9 of any process loses
nothing"; the rule "Deterministic: the same seed and actions give the same game"): the heuristic and
search Stars bots remember the proposals their seat made this phase (a rejected offer is not made
again), and the search bot the companies seen; a worker that loads the game mid-phase, another
process catching up, or the game after an undo elsewhere must make the same moves as an
uninterrupted run (:meth:`rolling.bots.stars_heuristic.StarsHeuristicBot.recall`,
:func:`rolling.web.automation.decision_bot`)."""

from __future__ import annotations

import asyncio
import functools
import tempfile

from rolling.games.stars import Config, new_game
from rolling.games.stars import data as D
from rolling.games.stars.state import GONE
from rolling.sim.stars import pick_seat
from rolling.web import automation as A
from rolling.web.db import open_database
from rolling.web.errors import UndoRefused
from rolling.web.service import GameService

from .conftest import pick

HEURISTICS = ["heuristic"] * 4
#: seed 1, four heuristic bots: the first proposal rejected is action 58 (turn 2, phase 3), and
#: the game has dozens more (a bot that forgot them offers the same again, and again)
SEED = 1
#: the first turns only (three acquisition phases, rejected proposals in each): a restarted worker
#: replays the whole record for every decision, and on PostgreSQL each action is a round trip
ACTIONS = 200


def _service(db_url) -> GameService:
    # the task queue's web process ("defer"): no bot moves within a request, the tests step them
    return GameService(open_database(db_url), bot_pace=0, start_workers=False, queue="defer")


def _create(svc, seats, seed=SEED) -> tuple[str, list[str]]:
    live, tokens = asyncio.run(svc.create("stars", {"players": len(seats)}, seats, seed=seed))
    return live.id, [tokens[k] for k in sorted(tokens)]


def _rejections(actions) -> int:
    return sum(1 for a in actions if a.get("type") == "respond" and a.get("accept") is False)


@functools.cache
def _uninterrupted(seats: tuple[str, ...], limit: int) -> list[dict]:
    """The game's first ``limit`` actions played by one process that never lets it go (the
    baseline, on a SQLite database of its own, made once per module)."""
    svc = _service(f"sqlite:///{tempfile.mkdtemp()}/straight.db")
    gid, _ = _create(svc, seats)
    live = svc.get(gid)
    while live.played < limit and svc._step(live, timers=False):
        pass
    assert live.played == limit
    return live.actions


def _first_difference(a, b) -> int | None:
    return next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)


def _play_restarting(svc, gid: str, limit: int):
    """Play the game's bots to ``limit`` actions, the cached game dropped and read again from the
    database before every decision (the process that played the last move is gone)."""
    while True:
        svc.cache.pop(gid, None)
        live = svc.get(gid)
        if live.played >= limit or not svc._step(live, timers=False):
            return live


def test_a_restarted_worker_plays_the_bots_of_the_uninterrupted_game(db_url):
    """issue 30: the cached game dropped before every bot decision and read again from the database
    (a worker restarted, or kill -9 and a new one) plays what the uninterrupted process played,
    rejected offers and all."""
    straight = _uninterrupted(tuple(HEURISTICS), ACTIONS)
    assert _rejections(straight) >= 5
    svc = _service(db_url)
    gid, _ = _create(svc, HEURISTICS)
    live = _play_restarting(svc, gid, ACTIONS)
    assert _first_difference(straight, live.actions) is None
    assert live.actions == straight


def test_workers_taking_turns_play_the_bots_of_the_uninterrupted_game(db_url):
    """issue 30: two processes taking the game's jobs in turn (``rolling worker --processes 2``),
    each catching up on the moves the other made, play the game as one process does."""
    straight = _uninterrupted(tuple(HEURISTICS), ACTIONS)
    one, two = _service(db_url), _service(db_url)
    gid, _ = _create(one, HEURISTICS)
    k = 0
    while True:
        svc = (one, two)[k % 2]
        live = svc.get(gid)
        svc._catch_up(live)
        if live.played >= ACTIONS or not svc._step(live, timers=False):
            break
        k += 1
    assert _first_difference(straight, live.actions) is None
    assert live.actions == straight


def test_a_restarted_worker_plays_the_search_bot_of_the_uninterrupted_game(db_url):
    """issue 30, the search bot (a small iteration budget: deterministic): its memory of the
    proposals made this phase (its own and its heuristic's) is rebuilt from the record."""
    seats = ["search:2", "heuristic", "heuristic", "heuristic"]
    limit = 160
    straight = _uninterrupted(tuple(seats), limit)
    offers = [k for k, a in enumerate(straight) if a.get("type") == "offer" and a["seat"] == 0]
    rejected = [k for k in offers if any(b.get("type") == "respond" and not b["accept"] and b["company"] == straight[k]["company"]
                                         for b in straight[k + 1:k + 4])]
    assert rejected and any(k > rejected[0] for k in offers)  # it offered again after a rejection
    svc = _service(db_url)
    gid, _ = _create(svc, seats)
    live = _play_restarting(svc, gid, limit)
    assert _first_difference(straight, live.actions) is None
    assert live.actions == straight


def test_after_an_undo_elsewhere_the_bot_proposes_what_it_proposed_the_first_time(db_url):
    """issue 30: a worker's bot works out a proposal, but a person's undo on another process commits
    first (the proposal is void); the person plays the same again: the bot proposes what it
    proposed the first time (a proposal never played is not remembered as tried)."""
    seats = ["human", "heuristic", "heuristic", "heuristic"]
    web, worker = _service(db_url), _service(db_url)
    gid, tokens = _create(web, seats)

    async def run() -> int:
        tested = 0
        for _ in range(600):
            live_w = await worker.load(gid)
            await worker._acatch_up(live_w)
            if live_w.state.is_over:
                break
            if A.bot_to_act(live_w) is not None:
                await worker._astep(live_w, timers=False)
                continue
            live = await web.load(gid)
            await web._acatch_up(live)
            action = pick(web.document(live, web.held(live, tokens)), 0)  # the page's first decision
            await web.act(gid, tokens, 0, live.version, action)
            await worker._acatch_up(live_w)
            due = A.bot_to_act(live_w)
            if live_w.state.phase != 3 or due is None:
                continue
            first = await worker._think(live_w)  # the worker's bot decides, not yet committed
            if type(first[1]).__name__ != "Offer":
                continue
            try:
                await web.undo(gid, tokens, 0, live.version)  # another process's undo commits first
            except UndoRefused:
                await worker._astep(live_w, timers=False, chosen=first)
                continue
            assert not await worker._astep(live_w, timers=False, chosen=first)  # void: the game moved on
            await web.act(gid, tokens, 0, live.version, action)  # the same decision again
            await worker._acatch_up(live_w)
            again = await worker._think(live_w)
            assert again[0] == first[0] and again[1] == first[1]
            tested += 1
            await worker._astep(live_w, timers=False, chosen=again)
            if tested >= 2:
                break
        return tested

    assert asyncio.run(run()) >= 1


def test_the_search_bot_recalls_every_company_drawn():
    """The search bot's companies seen (what its redeal of the Deck leaves out) rebuilt from the
    record equal those a bot that watched every decision saw, closed companies included (a fresh
    bot that only looked at the state now would deal a closed company back into the Deck)."""
    from rolling.bots import make_bot
    from rolling.bots.base import History
    from rolling.bots.stars_search import StarsSearchBot, drawn
    from rolling.games.stars import GAME

    s = new_game(Config(players=4), 3)
    first = s.clone()

    bots = [make_bot("stars", "heuristic", k) for k in range(4)]
    watcher = StarsSearchBot(0, "1")
    game = watcher._game(0)
    actions, phases = [], []
    last = -1
    closed = False
    while not s.is_over and not (closed and s.phase == 1 and 0 in s.to_act):
        game.observe(s)
        k = pick_seat(s, last)
        a = bots[k].choose(s, k)
        phases.append((s.turn, s.phase))
        s.apply(a)
        actions.append(a.to_json())
        last = k
        closed = closed or any(s.company_owner[i] == GONE and first.company_owner[i] != GONE for i in range(D.N_COMPANIES))
    assert closed
    game.observe(s)
    fresh = StarsSearchBot(0, "1")
    fresh.recall(History(s, actions, phases, GAME.phase(s), GAME.action_from_json, lambda: first.clone()), 0)
    assert fresh._game(0).seen == game.seen == drawn(first, s)
    # a company drawn and since closed: seen, though the state now cannot tell it from one set aside
    assert any(s.company_owner[i] == GONE and game.seen >> i & 1 for i in range(D.N_COMPANIES))
