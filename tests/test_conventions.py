"""issue 28 item 12: the Python conventions a user expects: ``python -m rolling``, ``--version`` from
one source, ``py.typed``, the research and report libraries in extras (a player's install stays
light, and a command that needs a missing extra says which in one line), ``--log-level``, shell
completion, line editing and history at the prompt, and tables whose columns line up."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import textwrap
import time
import tomllib
import urllib.request
from pathlib import Path

import pexpect

import rolling
from rolling.cli.batch import print_summary
from rolling.sim.batch import Outcome

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
FIXTURES = ROOT / "tests" / "fixtures" / "18xx"

#: what a player's install does without (the extras research and report)
HEAVY = ("gymnasium", "pettingzoo", "pandas", "pyarrow", "matplotlib")


def rolling_cmd(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rolling", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=cwd)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    """The one line on stderr of a failed command (no traceback)."""
    assert proc.returncode != 0, proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_python_m_rolling_is_the_rolling_command():
    proc = rolling_cmd("play", "market", "--seats", "heuristic", "--seed", "1", "-q")
    assert proc.returncode == 0, proc.stderr
    assert "Final standings" in proc.stdout
    assert rolling_cmd("--help").stdout.startswith("Usage: rolling ")


def test_a_command_group_alone_shows_its_help_as_it_is():
    """``rolling`` or ``rolling play`` alone prints the help with its lines (it used to come as one
    long error line)."""
    for args in ((), ("play",)):
        proc = rolling_cmd(*args)
        assert proc.returncode == 2
        lines = proc.stderr.splitlines()
        assert lines[0].startswith("Usage: rolling ") and "Commands:" in lines and len(lines) > 8, proc.stderr


def test_version_comes_from_one_source():
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "rolling.__version__"}
    proc = rolling_cmd("--version")
    assert proc.returncode == 0 and proc.stdout == f"rolling {rolling.__version__}\n"


def test_py_typed_ships_in_the_package():
    assert (ROOT / "src" / "rolling" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]


def test_research_and_report_libraries_are_extras():
    names = [re.split(r"[<>=\[ ]", d)[0] for d in PYPROJECT["project"]["dependencies"]]
    assert not set(names) & set(HEAVY)
    extras = PYPROJECT["project"]["optional-dependencies"]
    # issue 33 item 6: one research extra holds everything the research interfaces need
    assert {re.split(r"[<>=]", d)[0] for d in extras["research"]} == {"gymnasium", "pettingzoo", "open_spiel", "greenlet"}
    assert {re.split(r"[<>=]", d)[0] for d in extras["report"]} == {"pandas", "pyarrow", "matplotlib"}
    assert "rolling[research,report]" in extras["test"]  # the tests use both
    assert extras["spiel"] == ["rolling[research]"]  # the former OpenSpiel extra, an alias kept for installs
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install --quiet -e '.[test,ray,bench]'" in ci  # test brings research, so OpenSpiel too


def test_playing_and_simulating_import_no_research_or_report_library(tmp_path):
    """Importing the CLI, playing each game, simulating to CSV and the web app's pages (the Market
    score distribution and charts included) load none of gymnasium, pettingzoo, pandas, pyarrow,
    matplotlib."""
    script = textwrap.dedent(f"""
        import sys
        from rolling.cli.main import main

        def run(*argv):
            try:
                main(list(argv))
            except SystemExit as e:
                assert not e.code, (argv, e.code)

        run("play", "stars", "--seats", "heuristic,heuristic,heuristic", "--seed", "1", "-q")
        run("play", "freight", "--seats", "heuristic,heuristic,heuristic", "--seed", "1", "-q")
        run("play", "market", "--seats", "heuristic", "--seed", "1", "-q")
        run("simulate", "stars", "--games", "4", "--workers", "1", "--out", {str(tmp_path / "x.csv")!r})

        from fastapi.testclient import TestClient
        from rolling.web.app import create_app

        app = create_app({f"sqlite:///{tmp_path / 'web.db'}"!r}, bot_pace=0, start_workers=False)
        with TestClient(app) as client:
            assert client.get("/").status_code == 200
            game = client.post("/api/games", json={{"game": "market", "seats": ["human"], "seed": 1}}).json()
            for path in (f"/api/games/{{game['id']}}/charts", f"/g/{{game['id']}}/history", "/data/stars.json",
                         "/data/freight/west-coast.json"):
                assert client.get(path).status_code == 200, path
        print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r}))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == "loaded: []"


#: a sitecustomize-like start: the research and report libraries cannot be imported, as in a
#: player's install (``pip install rolling``)
WITHOUT_EXTRAS = f"""
import importlib.abc, runpy, sys

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {HEAVY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
sys.argv = ["rolling", *sys.argv[1:]]
runpy.run_module("rolling", run_name="__main__", alter_sys=True)
"""


def without_extras(*args: str, cwd: Path, typed: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT_EXTRAS, *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, input=typed)


def test_a_players_install_plays_and_names_the_missing_extra(tmp_path):
    """Without the extras: play and simulate to CSV work; report, Parquet and board pictures say
    in one line which extra to install (exit 2, no traceback)."""
    for game in ("stars", "freight"):
        proc = without_extras("play", game, "--seats", "heuristic,heuristic,heuristic", "--seed", "1", "-q",
                              cwd=tmp_path)
        assert proc.returncode == 0 and "Final standings" in proc.stdout, proc.stderr
    proc = without_extras("simulate", "stars", "--games", "4", "--workers", "1", "--out", "x.csv", cwd=tmp_path)
    assert proc.returncode == 0 and "win rate" in proc.stdout, proc.stderr
    assert (tmp_path / "x.csv").is_file()

    line = one_line_error(without_extras("report", "x.csv", cwd=tmp_path))
    assert line == "rolling: pandas is not installed: pip install 'rolling[report]'"
    line = one_line_error(without_extras("simulate", "market", "--games", "2", "--out", "x.parquet", cwd=tmp_path))
    assert line == "rolling: pyarrow is not installed: pip install 'rolling[report]'"
    assert not (tmp_path / "x.parquet").exists()
    proc = without_extras("play", "freight", "--seats", "heuristic,heuristic", "--seed", "2", "-q",
                          "--save", "game.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    line = one_line_error(without_extras("freight", "board", "game.json", "--out", "b.png", cwd=tmp_path))
    assert line == "rolling: matplotlib is not installed: pip install 'rolling[report]'"
    # at the table, `board` says so and the game goes on
    proc = without_extras("play", "freight", "--seats", "human,heuristic", "--seed", "2", "--save", "t.json",
                          cwd=tmp_path, typed="board\nquit\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "matplotlib is not installed: pip install 'rolling[report]'" in proc.stdout
    assert "Saved to" in proc.stdout and not list(tmp_path.glob("*.png"))


def test_log_level_shows_simulates_log_on_stderr():
    proc = rolling_cmd("--log-level", "info", "simulate", "market", "--games", "3", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    logged = [line for line in proc.stderr.splitlines() if " INFO rolling.simulate: " in line]
    assert len(logged) == 2 and "simulate market: 3 games of heuristic, seed 0" in logged[0]
    assert "3 of 3 games played (0 failed)" in logged[1]
    quiet = rolling_cmd("simulate", "market", "--games", "3", "--workers", "1")  # default: warning
    assert quiet.returncode == 0 and "INFO" not in quiet.stderr
    env = dict(os.environ, ROLLING_LOG_LEVEL="INFO")
    assert " INFO rolling.simulate: " in rolling_cmd("simulate", "market", "--games", "2", env=env).stderr
    line = one_line_error(rolling_cmd("--log-level", "loud", "simulate", "market"))
    assert "--log-level" in line and "'loud'" in line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_logs_its_requests_through_log_level(tmp_path):
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "rolling", "--log-level", "info", "serve", "--port", str(port),
                               "--db", f"sqlite:///{tmp_path / 'web.db'}"],
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/options", timeout=5) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
    finally:
        server.terminate()
        err = server.communicate(timeout=30)[1]
    assert re.search(r" INFO uvicorn\.access: .*\"GET /api/games/options HTTP/1\.1\" 200", err), err


def test_shell_completion_is_on():
    helped = rolling_cmd("--help").stdout
    assert "--install-completion" in helped and "--show-completion" in helped
    env = dict(os.environ, _ROLLING_COMPLETE="complete_bash", COMP_WORDS="rolling play fr", COMP_CWORD="2")
    proc = rolling_cmd(env=env)
    assert proc.returncode == 0 and proc.stdout.split() == ["freight"], proc.stderr


def test_the_prompt_edits_lines_and_keeps_their_history(tmp_path):
    """At a terminal: Ctrl-A goes to the start of the line, the up arrow brings back the last line,
    and the lines are kept in the user data folder for the next game."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "rolling", "play", "market", "--seed", "3", "--save",
                                           str(tmp_path / "m.json")],
                          env=env, cwd=str(tmp_path), encoding="utf-8", timeout=60, dimensions=(30, 100))
    child.expect("Player 1> ")
    child.send("elp\x01h\r")  # "elp", Ctrl-A, "h": "help" when the line can be edited
    child.expect("this text")
    child.expect("Player 1> ")
    child.send("\x1b[A\r")  # up arrow: "help" again
    child.expect("this text")
    child.expect("Player 1> ")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    history = (tmp_path / "data" / "rolling" / "history").read_text().split()
    assert history == ["help", "quit"]  # a line repeated at once is kept once


def cells(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a table line: runs of text separated by two spaces or more."""
    return [m.span() for m in re.finditer(r"\S+(?: \S+)*", line)]


def assert_columns_line_up(lines: list[str], right: int) -> None:
    """Every line has the header's cells; the first ``right`` columns from the left start where
    the header's do (left-aligned), the others end where the header's do (right-aligned)."""
    head = cells(lines[0])
    for line in lines[1:]:
        row = cells(line)
        assert len(row) == len(head), (lines[0], line)
        assert [s for s, _ in row[:right]] == [s for s, _ in head[:right]], (lines[0], line)
        assert [e for _, e in row[right:]] == [e for _, e in head[right:]], (lines[0], line)


def test_simulate_summary_columns_line_up_with_long_bot_names(capsys):
    stats = {"games": 1000, "failed": 0, "seed": 1, "version": "0.1.0", "seats": [
        {"bot": bot, "win_rate": w, "win_rate_low": w * 0.9, "win_rate_high": min(1.0, w * 1.1), "wins": round(1000 * w),
         "mean_rank": r, "mean_score": s, "mean_score_low": s - 1.5, "mean_score_high": s + 1.5, "median_score": s,
         "p5_score": s / 2, "p95_score": s * 2}
        for bot, w, r, s in [("search:0.125s", 0.9, 1.1, 312.5), ("search:100000", 0.1, 1.9, 1234.0),
                             ("random", 0.0, 3.0, 9.0)]]}
    print_summary("Rolling Stock Stars", stats, Outcome(1000, False, "2 workers", 12.0))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Rolling Stock Stars, 3 players, 1000 games, seed 1, rolling 0.1.0")
    table = lines[1:5]
    assert len(lines) == 6 and table[0].split() == ["seat", "bot", "win", "rate", "(95%", "CI)", "wins", "mean", "rank",
                                                    "mean", "score", "(95%", "CI)", "median", "p5", "p95"]
    assert table[1].split()[:5] == ["1", "search:0.125s", "90.0%", "(81.0–99.0)", "900"]
    assert_columns_line_up(table, right=2)


def test_import_18xx_columns_line_up_with_long_player_names(tmp_path):
    export = json.loads((FIXTURES / "rss_1001.json").read_text())
    export["players"][0]["name"] = "Someone With A Very Long Name Indeed"
    (tmp_path / "long.json").write_text(json.dumps(export))
    proc = rolling_cmd("import-18xx", str(tmp_path / "long.json"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    table = lines[:lines.index(next(x for x in lines if "actions applied" in x))]
    assert table[0].split() == ["player", "score", "recorded"] and len(table) == len(export["players"]) + 1
    assert "Someone With A Very Long Name Indeed (" in table[1]
    assert_columns_line_up(table, right=1)


def test_simulate_prints_aligned_columns_from_the_command_line():
    proc = rolling_cmd("simulate", "market", "--games", "3", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    table, notes = lines[1:3], lines[3:]
    assert len(notes) == 1 and "95% intervals" in notes[0]
    assert_columns_line_up(table, right=2)


def test_readme_and_help_say_what_bot_means_where_people_play():
    """issue 28 item 11: `bot` and the default opponents where people play are PLAY's search bot,
    not the heuristic (the README's Stars seats said "the heuristic bot")."""
    from rolling.bots import PLAY, resolve_bot
    from rolling.bots.seats import default_seats

    readme = (ROOT / "README.md").read_text()
    assert PLAY["stars"] == PLAY["freight"] == "vsearch:0.5s"  # issue 34: the learned evaluation
    for game in ("stars", "freight"):
        assert resolve_bot(game, "bot", play=True) == PLAY[game]
        assert default_seats(game, 4) == ["human"] + [PLAY[game]] * 3
        helped = " ".join(rolling_cmd("play", game, "--help").stdout.split())
        assert f"bot (the strongest bot: {PLAY[game]})" in helped
        assert f"(default: you, then the search bot {PLAY[game]} in every other seat)" in helped
    stars_seats = " ".join(readme.split("### Play in the terminal", 1)[1].split("**The screen**", 1)[0].split())
    assert f"`bot` (the search bot at 0.5 s per decision, `{PLAY['stars']}`)" in stars_seats
    assert f"Without `--seats` you play against the search bot `{PLAY['stars']}` in every other seat" in stars_seats
    assert "the heuristic bot" not in stars_seats
    assert "you play against three heuristic" not in " ".join(readme.split())
