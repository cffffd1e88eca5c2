"""Issue 11, "One shape": every game's bots in one registry, one seat vocabulary, one batch runner
and one terminal table (the same commands, save file and end of game) for all three games."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rolling.bots import (
    STRONGEST,
    Bot,
    SeatError,
    UnknownBot,
    bot_names,
    default_names,
    make_bot,
    parse_seats,
)
from rolling.games.freight import Config as FreightConfig
from rolling.games.freight import new_game as new_freight
from rolling.games.market import MarketState
from rolling.games.stars import Config as StarsConfig
from rolling.games.stars import new_game as new_stars
from rolling.sim import play_game, simulate
from rolling.sim.stars import pick_seat

#: every bot of every game
ALL_BOTS = {
    "stars": ["random", "heuristic", "search", "vsearch"],
    "freight": ["random", "heuristic", "search", "vsearch"],
    "market": ["random", "heuristic", "policy", "value"],
}

#: the strongest bot of each game for batches, what the seat ``bot`` means in ``simulate``
STRONGEST_OF = {"stars": "heuristic", "freight": "heuristic", "market": "value"}
#: what the seat ``bot`` means where people play (play, web)
PLAY_OF = {"stars": "vsearch:0.5s", "freight": "vsearch:0.5s", "market": "value"}

#: a seat list of each game's bots for ``simulate`` (Rolling Market is solitaire)
SIM_SEATS = {"stars": "bot,bot:random,random", "freight": "bot,bot:random,random", "market": "bot"}


def rolling(args, stdin="", cwd=None, timeout=300):
    """Run ``rolling ARGS``; returns the completed process (text)."""
    p = subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], input=stdin, capture_output=True,
                       text=True, cwd=cwd, timeout=timeout)
    assert "Traceback" not in p.stdout + p.stderr
    return p


# -- one bot registry -------------------------------------------------------------------------------


def test_make_bot_returns_every_bot_of_every_game():
    """make_bot(game, name, seed) knows every bot of every game; ``bot`` is the strongest."""
    assert {game: bot_names(game) for game in ALL_BOTS} == ALL_BOTS
    for game, names in ALL_BOTS.items():
        for name in names:
            for word in (name, f"bot:{name}", name.upper()):
                bot = make_bot(game, word, seed=3)
                assert isinstance(bot, Bot) and bot.name == name and bot.last_reason is None
        assert STRONGEST[game] == STRONGEST_OF[game]
        assert make_bot(game, "bot", 1).name == STRONGEST_OF[game]


@pytest.mark.parametrize("game,name,message", [
    ("stars", "genius", "unknown stars bot 'genius' (known: random, heuristic, search, vsearch; "
                        "bot = vsearch:0.5s where people play, heuristic in simulate)"),
    ("freight", "bot:genius", "unknown freight bot 'bot:genius' (known: random, heuristic, search, vsearch; "
                              "bot = vsearch:0.5s where people play, heuristic in simulate)"),
    ("chess", "random", "no bots for game 'chess' (games with bots: freight, market, stars)"),
])
def test_unknown_bot_names_the_known_ones(game, name, message):
    with pytest.raises(UnknownBot) as e:
        make_bot(game, name)
    assert str(e.value) == message


@pytest.mark.parametrize("game", ALL_BOTS)
def test_every_bot_finishes_a_game_of_its_own(game):
    """Each bot of each game plays whole games with legal actions only (the engine refuses others)."""
    for name in ALL_BOTS[game]:
        bot = f"{name}:1" if name in ("search", "vsearch") else name  # one playout per decision: the rules, not the strength
        stats = simulate(game, [bot] * (1 if game == "market" else 3), 2, seed=5)
        assert stats["games"] == 2 and stats["actions"] > 0


# -- one seat vocabulary ----------------------------------------------------------------------------


def test_seat_vocabulary_is_the_same_for_every_game():
    for game in ALL_BOTS:
        best, play = STRONGEST_OF[game], PLAY_OF[game]
        assert parse_seats(game, "human,bot,bot:random,Heuristic, random") == [
            "human", play, "random", "heuristic", "random"]
        assert parse_seats(game, None, players=3) == ["human", play, play]
        assert parse_seats(game, None, default_players=1) == ["human"]
        assert parse_seats(game, ["bot", "random"], humans=False) == [best, "random"]


@pytest.mark.parametrize("spec,kwargs,message", [
    ("human,robot", {}, "unknown seat 'robot' (seat 2): use human, bot, bot:NAME or NAME; freight bots: random, heuristic, search, vsearch; "
                          "bot = vsearch:0.5s where people play, heuristic in simulate"),
    ("bot,bot:robot", {"humans": False}, "unknown bot 'bot:robot' (seat 2): use bot, bot:NAME or NAME"),
    ("human,bot", {"humans": False}, "seat 1 is human, but only bots play here"),
    ("human,bot", {"players": 3}, "--players 3 but --seats names 2 seats"),
    (",", {}, "no seats given"),
])
def test_bad_seats_are_one_line_errors(spec, kwargs, message):
    with pytest.raises(SeatError) as e:
        parse_seats("freight", spec, **kwargs)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_players_are_numbered_from_one():
    assert default_names(["human", "heuristic", "random", "human"]) == ["Player 1", "Heuristic 2", "Random 3", "Player 4"]


# -- bots' reasons ----------------------------------------------------------------------------------


def test_stars_heuristic_says_why_it_bids_naming_synergies():
    """Bots may attach a one-line reason to their move: the Stars heuristic's bid limit is what the
    company is worth to it, with the synergies that make it so, and it bids within it."""
    s = new_stars(StarsConfig(players=4), 1)
    bots = [make_bot("stars", "heuristic", k) for k in range(4)]
    last, reasons = -1, []
    while not s.is_over and not any("synergies with" in r for r in reasons):
        seat = pick_seat(s, last)
        action = bots[seat].choose(s, seat)
        reason = bots[seat].last_reason
        if reason and reason.startswith("bids up to $"):
            assert "\n" not in reason
            assert action.amount <= int(reason.split("$")[1].split()[0])
            reasons.append(reason)
        s.apply(action)
        last = seat
    assert "bids up to $17 for AKE: synergies with BPM in VM" in reasons


def test_freight_and_market_heuristics_give_reasons():
    """The Freight heuristic explains its builds, contracts and routes; the Market heuristic compares
    the trade it makes with standing pat."""
    st = new_freight(FreightConfig("west-coast", 3), 2)
    bots = [make_bot("freight", "heuristic", k) for k in range(3)]
    reasons = []
    while not st.is_over and len(reasons) < 30:
        seat = st.to_act[0]
        st.apply(bots[seat].choose(st, seat))
        if bots[seat].last_reason:
            reasons.append(bots[seat].last_reason)
    assert any(r.startswith("builds on ") for r in reasons) and any(r.startswith("takes ") for r in reasons)
    m = MarketState(7)
    bot = make_bot("market", "heuristic", 1)
    action = bot.choose(m, 0)
    word = {"buy": "buys", "sell": "sells", "done": "done"}[action.type_name]
    assert bot.last_reason.startswith(word) and "standing pat" in bot.last_reason


# -- one batch runner -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ALL_BOTS)
def test_simulate_any_game_same_shape(game):
    """``rolling simulate GAME --seats bot,bot:random,...`` for all three games: one JSON shape."""
    p = rolling(["simulate", game, "--games", "2", "--seats", SIM_SEATS[game], "--seed", "4", "--json"])
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert {"game", "games", "seed", "actions", "seats"} <= set(data) and data["game"] == game
    assert data == simulate(game, SIM_SEATS[game], 2, 4)
    for row in data["seats"]:
        assert set(row) == {"bot", "win_rate", "win_rate_low", "win_rate_high", "wins", "mean_rank", "mean_score",
                            "mean_score_low", "mean_score_high", "median_score", "p5_score", "p95_score"}
    text = rolling(["simulate", game, "--games", "2", "--seats", SIM_SEATS[game]])
    assert text.returncode == 0 and "win rate" in text.stdout and "mean score" in text.stdout


def test_play_game_is_shared():
    """One runner plays any game: a Freight game by two bots ends, the actions returned replay it."""
    st = new_freight(FreightConfig("west-coast", 2), 8)
    actions = play_game(st, [make_bot("freight", "random", 1), make_bot("freight", "heuristic", 2)])
    assert st.is_over and actions


# -- one terminal table -----------------------------------------------------------------------------


PLAY = {
    "freight": ["--seats", "human,heuristic,bot:random"],
    "market": [],
    "stars": ["--seats", "human,heuristic,bot:random,bot:heuristic"],
}


@pytest.mark.parametrize("game", PLAY)
def test_play_starts_saves_to_the_default_file_and_quits(game, tmp_path):
    """The acceptance commands start; the prompt is the player's name; ``help`` lists the shared
    commands; ``save`` and ``quit`` write ``rolling-<game>-<seed>.json``; --resume continues."""
    p = rolling(["play", game, *PLAY[game], "--seed", "12"], "help\nsave\nquit\n", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    path = tmp_path / f"rolling-{game}-12.json"
    assert f"saving to rolling-{game}-12.json after every action" in out
    assert "Player 1> " in out
    for line in ("undo            back to your previous decision", "save            save the game now",
                 "quit            save and leave"):
        assert line in out
    assert f"Saved to rolling-{game}-12.json." in out
    assert f"resume with: rolling play {game} --resume rolling-{game}-12.json" in out
    record = json.loads(path.read_text())
    assert record["game"] == game and record["meta"]["names"][0] == "Player 1"
    again = rolling(["play", game, "--resume", path.name], "quit\n", cwd=tmp_path)
    assert again.returncode == 0 and "Player 1> " in again.stdout
    assert json.loads(path.read_text())["actions"] == record["actions"]


@pytest.mark.parametrize("game,args", [
    ("stars", ["--seats", "heuristic,bot:random"]),
    ("freight", ["--seats", "heuristic,bot:random"]),
    ("market", ["--seats", "bot"]),
])
def test_bots_only_game_ends_with_one_end_block(game, args, tmp_path):
    """The same end of game in every game, printed once; bots-only games are not saved unless asked,
    and their narration carries the strongest bot's reasons."""
    p = rolling(["play", game, *args, "--seed", "2"], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("Game over.") == 1 and p.stdout.count("Final standings") == 1
    speaker = f"({STRONGEST_OF[game].capitalize()} 1 "
    assert speaker in p.stdout
    assert list(tmp_path.iterdir()) == []
    quiet = rolling(["play", game, *args, "--seed", "2", "--quiet", "--save", "g.json"], cwd=tmp_path)
    assert quiet.returncode == 0 and speaker not in quiet.stdout
    assert quiet.stdout.count("Final standings") == 1 and "Game record: g.json" in quiet.stdout


def test_undo_never_reaches_back_past_a_roll(tmp_path):
    """Rolling Market: after 'done' (a roll of the dice) undo is refused, saying why (issue 28
    item 6); a trade of this turn can be undone."""
    p = rolling(["play", "market", "--seed", "8"], "done\nundo\nbuy A 1\ny\nundo\nquit\n", cwd=tmp_path)
    assert "Not undone: undo would go back past a roll of the dice." in p.stdout
    assert "Undone. Back to Player 1's previous decision." in p.stdout
    assert len(json.loads((tmp_path / "rolling-market-8.json").read_text())["actions"]) == 1


@pytest.mark.parametrize("args,message", [
    (["play", "market", "--seats", "human,bot"], "Rolling Market is solitaire: give one seat, not 2"),
    (["play", "stars", "--seats", "human,robot"], "unknown seat 'robot' (seat 2)"),
    (["play", "stars", "--resume", "x.json", "--edition", "v2.2"], "--edition cannot be used with --resume"),
    (["play", "freight", "--names", "Ann,Bob", "--seats", "human,bot,bot"], "--names gives 2 names, but 3 are needed (one per seat)"),
    (["play", "market", "--resume", "nowhere.json"], "cannot read nowhere.json"),
    (["simulate", "stars", "--seats", "human,bot"], "seat 1 is human, but only bots play here"),
    (["simulate", "market", "--seats", "bot,bot"], "Rolling Market is solitaire"),
])
def test_bad_command_lines_are_one_line_errors(args, message, tmp_path):
    p = rolling(args, cwd=tmp_path)
    assert p.returncode == 2 and message in p.stderr and p.stderr.count("\n") == 1


# -- the layout -------------------------------------------------------------------------------------

#: package -> what it may not import (docs/layout.md: imports point downward only)
FORBIDDEN = {
    "core": ("rolling.interop", "rolling.bots", "rolling.sim", "rolling.envs", "rolling.ui", "rolling.cli", "rich", "typer"),
    "games": ("rolling.interop", "rolling.bots", "rolling.sim", "rolling.envs", "rolling.ui", "rolling.cli", "rich", "typer"),
    "interop": ("rolling.bots", "rolling.sim", "rolling.envs", "rolling.ui", "rolling.cli"),
    "bots": ("rolling.ui", "rolling.cli", "rich", "typer"),
    "sim": ("rolling.ui", "rolling.cli", "rich", "typer"),
    "envs": ("rolling.ui", "rolling.cli", "rich", "typer"),
    "ui": ("rolling.cli", "typer"),
}


@pytest.mark.parametrize("package", FORBIDDEN)
def test_layers_import_downward_only(package):
    """Rules engines know nothing of bots, batch runs or terminals; bots and batch runs nothing of
    screens; screens nothing of the command line."""
    import ast
    from pathlib import Path

    import rolling

    root = Path(rolling.__file__).parent / package
    bad = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
            bad += [f"{path.relative_to(root.parent)}: {n}" for n in names
                    if any(n == f or n.startswith(f + ".") for f in FORBIDDEN[package])]
    assert bad == []


@pytest.mark.parametrize("module,loader,name", [
    ("value", "model", "stars_value.npz"), ("freight_value", "model", "freight_value.npz"),
    ("market_policy", "shipped_params", "market_policy.npz"), ("market_value", "shipped_model", "market_value.npz"),
])
def test_every_shipped_model_is_read_by_one_helper(module, loader, name, monkeypatch):
    """Review: the four shipped-model loaders open their file with ``rolling.bots.data.open_shipped``
    (not each its own ``importlib.resources`` read) and load the same model from it."""
    import importlib
    import pickle
    from importlib import resources

    from rolling.bots import data

    bots = importlib.import_module(f"rolling.bots.{module}")
    load = getattr(bots, loader)
    before = pickle.dumps(load())
    opened = []

    def recording(file_name):
        opened.append(file_name)
        return data.open_shipped(file_name)

    monkeypatch.setattr(bots, "open_shipped", recording)
    load.cache_clear()
    try:
        assert pickle.dumps(load()) == before
    finally:
        load.cache_clear()
    assert opened == [name]
    with data.open_shipped(name) as f:
        assert f.read() == resources.files("rolling.bots.data").joinpath(name).read_bytes()
