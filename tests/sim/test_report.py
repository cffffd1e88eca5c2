"""``rolling report``: a self-contained HTML page with every section and its pictures, looked at in
Chromium; bad input is one line."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rolling.report import build_report
from rolling.sim.batch import Batch, run_batch
from rolling.sim.files import open_results
from rolling.sim.table import columns

CMD = [sys.executable, "-m", "rolling.cli.main"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: each game's small batch, and the sections its report must have (anchors)
CASES = {
    "stars": (Batch("stars", ("heuristic", "random", "heuristic"), 6, 2),
              ["bots", "positions", "scores", "length", "corporations", "founder-edges", "share-prices", "endings"]),
    "freight": (Batch("freight", ("heuristic", "random"), 4, 2, {"map": "west-coast"}),
                ["bots", "positions", "scores", "length", "maps", "last-round", "contracts"]),
    "market": (Batch("market", ("heuristic",), 60, 2), ["length", "percentiles", "closed"]),
}


def results(tmp_path: Path, game: str, suffix: str = ".parquet", failed: int | None = None) -> Path:
    """A small results file of ``game``; game ``failed`` (an index) is marked as failed."""
    batch, _ = CASES[game]
    path = tmp_path / f"{game}{suffix}"
    with open_results(path, columns(game)) as out:
        def sink(rows):
            if failed is not None:
                rows = [{k: v for k, v in row.items() if k in ("game", "version", "index", "seed", "entry", "bot", "players")}
                        | {"error": "KeyError: 3 (at engine.py:12)"} if row["index"] == failed else row for row in rows]
            out.write(rows)
        run_batch(batch, sink)
    return path


@pytest.mark.parametrize("game", sorted(CASES))
def test_report_has_every_section_and_its_pictures(tmp_path, game):
    page = build_report([results(tmp_path, game)])
    _, anchors = CASES[game]
    for anchor in anchors:
        assert f'<section id="{anchor}">' in page, anchor
    images = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) >= len(anchors) - 1
    # self-contained: nothing is fetched when the page opens
    assert "<script" not in page and "<link" not in page and not re.search(r'src="(?!data:)', page)
    assert "failures" not in page
    assert build_report([results(tmp_path, game)]) == page  # the same files, the same page


def test_failed_games_have_their_section(tmp_path):
    page = build_report([results(tmp_path, "stars", ".csv", failed=1)])
    assert '<section id="failures">' in page and "KeyError: 3 (at engine.py:12)" in page
    assert "5 ended, 1 failed" in page


def test_several_files_of_one_game_are_reported_together(tmp_path):
    a = results(tmp_path, "freight", ".csv")
    b = tmp_path / "southern.parquet"
    with open_results(b, columns("freight")) as out:
        run_batch(Batch("freight", ("heuristic", "random", "random"), 3, 5, {"map": "southern"}), out.write)
    page = build_report([a, b])
    assert "west-coast, 2 players" in page and "southern, 3 players" in page


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH")
def test_the_report_in_chromium(tmp_path):
    import os

    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("ROLLING_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "stars.html"
    r = subprocess.run(CMD + ["report", str(results(tmp_path, "stars")), "--out", str(out)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout == f"wrote {out}\n", r.stderr
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(out.as_uri())
        page.screenshot(path=str(shots / "report-stars.png"), full_page=True)
        # every picture drawn, nothing wider than the window
        assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 300)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1100
        assert page.locator("h2").all_inner_texts()[:2] == ["Win rate and score by seat entry and bot",
                                                             "Win rate and score by player-order position"]
        browser.close()


def test_report_errors_are_one_line(tmp_path):
    stars = results(tmp_path, "stars", ".csv")
    market = results(tmp_path, "market", ".csv")
    (tmp_path / "junk.csv").write_text("x,y\n1,2\n")
    for args, message in [
        ([str(tmp_path / "none.csv")], "rolling: no such results file: "),
        ([str(stars), str(market)], "rolling: the results files hold games of market, stars: report one game at a time"),
        ([str(stars), "--out", str(tmp_path / "r.txt")], "rolling: --out must end in .html or .md, not '.txt'"),
        ([str(tmp_path / "junk.csv")], "rolling: "),
        ([str(tmp_path / "r.xlsx")], "rolling: no such results file"),
    ]:
        r = subprocess.run(CMD + ["report", *args], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and r.stdout == "", r.stderr
        assert r.stderr.startswith(message) and r.stderr.count("\n") == 1, r.stderr
    assert not list(tmp_path.glob("*.html"))


def test_markdown_report_has_the_same_tables(tmp_path):
    """--out FILE.md: the same sections and tables as Markdown, for documents (docs/balance.md)."""
    path = results(tmp_path, "stars")
    out = tmp_path / "r.md"
    r = subprocess.run(CMD + ["report", str(path), "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    md = out.read_text()
    assert md.startswith("# Rolling Stock Stars: balance report")
    for title in ("## Win rate and score by player-order position", "## Corporations"):
        assert title in md
    assert "| position | seats played | win rate (95% CI) |" in md
    assert "<" not in md and "data:image" not in md
    assert "*(Plot in the HTML report:" in md


def _founding(game: int, position: int, formed: str, win: bool, paths: dict[str, str]) -> dict:
    return {"game": game, "position": position, "formed": formed, "win": win,
            **{f"path_{sym}": paths.get(sym, "- - -") for sym in ("PR", "DA", "S", "VM", "SI", "SM", "JS", "OS")}}


def test_founder_edges_compare_foundings_of_the_same_turn_and_seat():
    """The corporation edges of the report: each founding is compared with the other corporations'
    foundings of its turn and position, never with its own corporation's."""
    import pandas as pd

    from rolling.report.stars import founder_edges
    rows = []
    # turn 1, position 1: VM founders win 1 of 4, DA founders 3 of 4
    for g in range(4):
        rows.append(_founding(g, 1, "VM", g == 0, {"VM": "20 21 22"}))
        rows.append(_founding(10 + g, 1, "DA", g != 0, {"DA": "20 21 22"}))
    # turn 3, position 2: only SM, nothing to compare it with
    rows.append(_founding(20, 2, "SM", True, {"SM": "- - 30"}))
    edges = founder_edges(pd.DataFrame(rows)).set_index("corporation")
    assert edges.loc["VM", "observed"] == 0.25 and edges.loc["VM", "expected"] == 0.75
    assert edges.loc["VM", "edge"] == -0.5 and edges.loc["DA", "edge"] == 0.5
    assert edges.loc["VM", "low"] < -0.5 < edges.loc["VM", "high"]
    assert edges.loc["VM", "turn"] == 1.0 and edges.loc["SM", "turn"] == 3.0
    assert edges.loc["SM", "compared"] == 0.0 and pd.isna(edges.loc["SM", "edge"])
    assert list(edges.index) == ["DA", "VM", "SM"]  # CORP_SYMBOLS order


def test_freight_last_round_splits_games_by_equal_turns():
    """Ending Phase C: with T player turns the first T mod n positions took one more turn; the
    report gives the start player's and the last position's win rates both ways."""
    import pandas as pd

    from rolling.report.freight import last_round
    from rolling.report.page import Page
    rows = []
    for index, (turns, winner) in enumerate([(50, 1), (51, 1), (51, 2), (51, 1)]):
        for position in (1, 2):
            rows.append({"batch": 0, "index": index, "entry": position - 1, "map": "west-coast", "players": 2,
                         "seats": "heuristic×2", "position": position, "turns": turns, "win": position == winner})
    page = Page("t")
    last_round(page, pd.DataFrame(rows))
    md = page.markdown()
    assert "| west-coast | 2 | 4 | 25.0% | 50.0% | 100.0% (" in md  # 1 game of equal turns: the start player won
    assert "| 66.7% (" in md  # with one more turn: 2 of 3
    assert "| 0.0% (" in md and "| 33.3% (" in md  # the last position: 0 of 1, then 1 of 3


def _freight_run(path: Path, bots: tuple[str, str], first_wins: int, games: int = 10) -> Path:
    """A results file of ``games`` two-player Freight games where entry 0 (``bots[0]``) wins the first
    ``first_wins`` games."""
    rows = []
    for index in range(games):
        for entry, bot in enumerate(bots):
            win = (entry == 0) == (index < first_wins)
            rows.append({"game": "freight", "version": "0.1.0", "index": index, "seed": index, "entry": entry,
                         "bot": bot, "seat": (entry + index) % 2, "position": (entry + index) % 2 + 1, "players": 2,
                         "score": 40 if win else 30, "rank": 1 if win else 2, "win": win, "turns": 30 + index % 3,
                         "actions": 200, "error": "", "map": "west-coast", "contracts_taken": 4, "contracts": 2,
                         "routes": 2, "stations": 1, "improvements": 1})
    with open_results(path, columns("freight")) as out:
        out.write(rows)
    return path


def test_runs_of_different_seat_lists_are_never_pooled(tmp_path):
    """Issue 33 item 7: a run where the heuristic wins every game and one where it wins 30% (against
    another heuristic) are two groups, each with its own rows; pooled they would read 65%, true of
    neither. The page says how the runs were grouped, and that a group pools its runs."""
    strong = _freight_run(tmp_path / "vs-random.csv", ("heuristic", "random"), 10)
    even = _freight_run(tmp_path / "vs-heuristic.csv", ("heuristic", "heuristic"), 3)
    again = _freight_run(tmp_path / "vs-heuristic-2.parquet", ("heuristic", "heuristic"), 3)
    for markdown in (False, True):
        page = build_report([strong, even], markdown=markdown)
        assert "65.0%" not in page  # entry 1's win rate pooled over both runs: 13 of 20
        assert "100.0% (" in page and "30.0% (" in page
        assert "2 groups, reported apart" in page
        assert "west-coast, 2 players, seats heuristic,random (1 run; 10 games)" in page
        assert "west-coast, 2 players, seats heuristic×2 (1 run; 10 games)" in page
    page = build_report([strong, even, again], markdown=True)
    assert "53.3%" not in page and "30.0% (" in page  # the two runs of one seat list are pooled: 6 of 20
    assert ("west-coast, 2 players, seats heuristic×2 (2 runs pooled: vs-heuristic.csv, vs-heuristic-2.parquet; "
            "20 games)") in page
    page = build_report([strong, even], markdown=True)
    # each group its own table by seat entry, and the Freight tables a row per seat list
    assert "### west-coast, 2 players, seats heuristic,random" in page and "### west-coast, 2 players, seats heuristic×2" in page
    assert "| west-coast | 2 | heuristic,random | 10 |" in page and "| west-coast | 2 | heuristic×2 | 10 |" in page
    assert "- rolling version: 0.1.0" in page


def test_stars_sections_are_repeated_per_group(tmp_path):
    """Issue 33 item 7: the Stars sections that pool their games (corporations, share prices,
    endings) are given once per group of games, anchored apart."""
    a = results(tmp_path, "stars")
    b = tmp_path / "two.csv"
    with open_results(b, columns("stars")) as out:
        run_batch(Batch("stars", ("random", "random"), 2, 3), out.write)
    page = build_report([a, b])
    for anchor in ("corporations-1", "corporations-2", "endings-1", "endings-2"):
        assert f'<section id="{anchor}">' in page
    assert "Corporations: edition stars, 2 players, seats random×2" in page
    assert "Corporations: edition stars, 3 players, seats heuristic,random,heuristic" in page


def test_failed_games_belong_to_their_run(tmp_path):
    """A failed game's rows lack the map; it is counted in its run's group, not a group of its own."""
    page = build_report([results(tmp_path, "freight", ".csv", failed=1)], markdown=True)
    assert "- groups: 1 group: west-coast, 2 players, seats heuristic,random (1 run; 4 games)" in page
