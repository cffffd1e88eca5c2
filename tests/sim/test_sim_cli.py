"""``rolling simulate GAME --workers K --ray [ADDRESS] --out FILE``: errors are one line, failed games
are counted, Ctrl-C keeps the games finished, and --ray writes the rows one process writes."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import pytest

from rolling.cli.batch import LOCAL_RAY, optional_ray_address
from rolling.cli.main import main
from rolling.sim.files import read_results
from rolling.sim.table import seat_list

CMD = [sys.executable, "-m", "rolling.cli.main"]


def run(args, timeout=300):
    return subprocess.run(CMD + args, capture_output=True, text=True, timeout=timeout)


def test_a_bare_ray_means_a_local_ray():
    assert optional_ray_address(["simulate", "stars", "--ray"]) == ["simulate", "stars", f"--ray={LOCAL_RAY}"]
    assert optional_ray_address(["--ray", "--json"]) == [f"--ray={LOCAL_RAY}", "--json"]
    assert optional_ray_address(["--ray", "10.0.0.5:6379", "--json"]) == ["--ray", "10.0.0.5:6379", "--json"]
    assert optional_ray_address(["--ray=auto"]) == ["--ray=auto"]
    assert seat_list(["heuristic", "heuristic", "random", "heuristic"]) == "heuristic×2,random,heuristic"


@pytest.mark.parametrize("args,message", [
    (["--workers", "0"], "rolling: --workers must be 1 or more, not 0"),
    (["--workers", "many"], "rolling: Invalid value for '--workers'"),
    (["--out", "r.xlsx"], "rolling: r.xlsx: the results file must end in .csv or .parquet, not '.xlsx'"),
    (["--out", "no/such/folder/r.csv"], "rolling: cannot write no/such/folder/r.csv: No such file or directory"),
    (["--ray="], "rolling: --ray=: give a Ray address"),
])
def test_bad_batch_options_are_one_line(tmp_path, args, message):
    r = subprocess.run(CMD + ["simulate", "market", "--games", "2"] + args, capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_ray_missing_is_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(SystemExit) as e:
        main(["simulate", "market", "--games", "2", "--ray"])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == "rolling: --ray needs Ray: pip install 'rolling[ray]'"


def test_failed_games_are_counted_and_kept(monkeypatch, capsys, tmp_path):
    import rolling.sim.market as market

    deal = market.deal

    def broken(players, game_seed, index):
        if index in (1, 3):
            raise ZeroDivisionError("no dice")
        return deal(players, game_seed, index)

    monkeypatch.setattr(market, "deal", broken)
    out = tmp_path / "m.csv"
    with pytest.raises(SystemExit) as e:
        main(["simulate", "market", "--games", "5", "--workers", "1", "--out", str(out), "--json"])
    assert e.value.code == 1
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["games"] == 3 and summary["failed"] == 2
    assert captured.err.splitlines()[-1].startswith(
        f"rolling: 2 of 5 games failed (first: game 1, seed {market.game_seed(0, 1)}: ZeroDivisionError: no dice (at ")
    table = read_results(out)
    assert list(table["index"]) == [0, 1, 2, 3, 4]
    assert list(table["error"] != "") == [False, True, False, True, False]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_the_games_finished(tmp_path, workers):
    out = tmp_path / "r.csv"
    p = subprocess.Popen(CMD + ["simulate", "stars", "--games", "5000", "--seats", "bot,bot,bot,bot", "--workers",
                                workers, "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         # as from a terminal: a suite started in the background (nohup, &) would
                         # otherwise hand the command an ignored SIGINT
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        # the header and at least one game (four rows) written: then Ctrl-C
        while not (out.exists() and out.read_text().count("\n") >= 5):
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("rolling: interrupted after ") and last.endswith(f" of 5000 games; kept in {out}")
    played = int(last.split()[3])
    table = read_results(out)
    assert 1 <= played < 5000 and len(table) == 4 * played
    assert sorted(set(table["index"])) == list(table["index"][::4]) and (table["error"] == "").all()
    assert f", {played} games, seed 1, rolling " in stdout  # the summary of the games finished


def test_ray_writes_the_rows_one_process_writes(tmp_path):
    pytest.importorskip("ray")
    common = ["simulate", "freight", "--games", "3", "--seats", "bot,bot:random,bot", "--seed", "9"]
    one = run(common + ["--workers", "1", "--out", str(tmp_path / "one.csv")])
    ray = run(common + ["--ray", "--out", str(tmp_path / "ray.csv")])
    assert one.returncode == 0 and ray.returncode == 0, ray.stderr
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "ray.csv").read_bytes()
    assert ", ray, " in ray.stdout


def test_without_a_terminal_progress_is_plain_lines(monkeypatch, capsys):
    """Issue 14: a batch whose stderr is a log, not a terminal, still shows its progress: plain
    lines with games/s and the time left, the last one at the end; stdout stays the summary."""
    import rolling.cli.batch as batch

    monkeypatch.setattr(batch, "LOG_EVERY", 0.0)
    main(["simulate", "market", "--games", "40", "--workers", "1", "--json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 40
    lines = err.splitlines()
    assert lines and all(line.startswith("market heuristic: ") for line in lines), err
    assert lines[-1].startswith("market heuristic: 40/40 games, ") and lines[-1].endswith(" games/s")
    assert any(" left" in line for line in lines[:-1])
    assert sum(" 40/40 games" in line for line in lines) == 1
    assert "\x1b" not in err  # no terminal codes in a log


def test_a_short_batch_without_a_terminal_prints_no_progress(capsys):
    main(["simulate", "market", "--games", "5", "--workers", "1", "--json"])
    assert capsys.readouterr().err == ""


def test_in_a_terminal_the_progress_is_a_bar_with_games_per_second_and_time_left():
    """Issue 14: run from a terminal, simulate draws a bar with games/s and the time left."""
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "rolling.cli.main", "simulate", "stars", "--games", "40",
                                           "--seats", "bot,bot,bot,bot", "--workers", "1"],
                          encoding="utf-8", timeout=120, dimensions=(30, 120))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    bars = re.findall(r"stars heuristic×4 [━╺╸ ]+ *(\d+)/40 ([\d,.]+) games/s (\d+:\d\d:\d\d)", screen)
    assert bars and int(bars[-1][0]) > 0, screen[:500]


def test_the_summary_has_95_percent_intervals(capsys):
    """Issue 33 item 7: each seat's win rate has Wilson's 95% interval and its mean score Student's t
    interval, in --json and in the table."""
    from rolling.report.stats import mean_interval, t95, wilson
    from rolling.sim import simulate

    assert abs(t95(1) - 12.7062) < 1e-4 and abs(t95(4) - 2.7764) < 1e-4 and abs(t95(10**6) - 1.96) < 1e-3
    stats = simulate("freight", "bot,bot:random", 4, seed=3, map="west-coast")
    for row in stats["seats"]:
        low, high = wilson(row["wins"], 4)
        assert (row["win_rate_low"], row["win_rate_high"]) == (round(low, 4), round(high, 4))
        assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
        assert row["mean_score_low"] < row["mean_score"] < row["mean_score_high"]
    one = simulate("market", "bot", 1, seed=3)["seats"][0]  # one game: no interval of a mean
    assert one["mean_score_low"] is None and one["mean_score_high"] is None and one["win_rate_low"] is not None
    # Student's t, not the normal 1.96: with 4 games the interval is 3.18 standard errors each way
    _, low, high = mean_interval([10, 20, 30, 40])
    assert round(high - 25, 3) == round(t95(3) * 12.9099445 / 2, 3)
    main(["simulate", "freight", "--games", "4", "--seed", "3", "--seats", "bot,bot:random", "--workers", "1"])
    text = capsys.readouterr().out
    assert "win rate (95% CI)" in text and "mean score (95% CI)" in text
    first = stats["seats"][0]
    assert f"{first['win_rate'] * 100:.1f}% ({first['win_rate_low'] * 100:.1f}–{first['win_rate_high'] * 100:.1f})" in text
    assert "95% intervals: Wilson's for win rates, Student's t for mean scores." in text


def test_the_summary_needs_no_pandas():
    """simulate is part of a player's install (numpy, no pandas): its intervals come from
    rolling.report.stats, which imports without pandas."""
    code = ("import sys; sys.modules['pandas'] = None\n"
            "from rolling.sim import simulate\n"
            "print(simulate('market', 'bot', 3, seed=1)['seats'][0]['mean_score_low'] is not None)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout == "True\n", r.stderr


@pytest.mark.parametrize("game,players", [("stars", 4), ("freight", 3)])
def test_the_default_seats_are_a_fair_table(game, players):
    """Issue 33 item 7: without --seats every seat is the same bot, simulate's bot (the heuristic),
    not one heuristic against random bots."""
    r = run(["simulate", game, "--games", "1", "--workers", "1", "--json"])
    assert r.returncode == 0, r.stderr
    assert [row["bot"] for row in json.loads(r.stdout)["seats"]] == ["heuristic"] * players


def test_results_carry_the_version(tmp_path):
    """Issue 33 item 7: --json says which version of rolling played, and so does every row of --out."""
    from rolling import __version__

    out = tmp_path / "r.csv"
    r = run(["simulate", "market", "--games", "3", "--workers", "1", "--json", "--out", str(out)])
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["version"] == __version__
    df = read_results(out)
    assert list(df["version"]) == [__version__] * 3
    text = run(["simulate", "market", "--games", "2", "--workers", "1"])
    assert f", rolling {__version__} (" in text.stdout.splitlines()[0]
