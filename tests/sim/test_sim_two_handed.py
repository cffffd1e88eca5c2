"""Issue 28 item 4: in the two-handed variant a win is the person's win (001, Two-player two-handed
variant: "To win, your lower ranked simulated player must be better than the lower ranked simulated
player of your opponent"), for both hands of the winner, in ``rolling simulate`` (summary, --json,
--out rows) and in the report built from the rows."""

from __future__ import annotations

import json

import pytest

from rolling.cli.main import main
from rolling.sim.files import read_results

#: seats 0 and 3 are person A's hands, 1 and 2 person B's (001: A in positions 1 and 4)
HANDS = {"A": (0, 3), "B": (1, 2)}


def rule_winner(rank: dict[int, int]) -> str:
    """The person whose lower-ranked hand (the larger rank number) ranks better, by the rule's words."""
    return min(HANDS, key=lambda person: max(rank[seat] for seat in HANDS[person]))


def test_simulate_counts_a_two_handed_win_for_both_hands_of_the_winner(tmp_path, capsys):
    out = tmp_path / "two.csv"
    args = ["simulate", "stars", "--variant", "two-handed", "--seats", "random,random,random,random",
            "--games", "6", "--seed", "1", "--workers", "1", "--json", "--out", str(out)]
    try:
        main(args)
    except SystemExit as e:
        assert e.code in (0, None)
    summary = json.loads(capsys.readouterr().out)
    table = read_results(out)
    assert summary["games"] == 6 and len(table) == 24
    best_hand_lost = 0
    for _, game in table.groupby("index"):
        rank = dict(zip(game["seat"], game["rank"], strict=True))
        winner = rule_winner(rank)
        assert {s for s, w in zip(game["seat"], game["win"], strict=True) if w} == set(HANDS[winner])
        best = min(rank, key=rank.get)
        best_hand_lost += best not in HANDS[winner]
    assert best_hand_lost >= 1  # a game where the best single hand belongs to the person who loses
    wins = table.groupby("entry")["win"].sum()
    assert [s["wins"] for s in summary["seats"]] == [int(wins[j]) for j in range(4)]
    assert sum(s["wins"] for s in summary["seats"]) == 2 * 6


def test_report_fair_share_of_a_two_handed_context_is_one_half(tmp_path):
    """Two of the four seats win every two-handed game, so an even entry wins half of them."""
    pytest.importorskip("pandas")
    from rolling.report.common import fair_share

    out = tmp_path / "two.csv"
    for variants, expected in (("two-handed", 0.5), ("", 0.25)):
        args = ["simulate", "stars", "--seats", "random,random,random,random", "--games", "2", "--workers", "1",
                "--json", "--out", str(out)] + (["--variant", variants] if variants else [])
        try:
            main(args)
        except SystemExit as e:
            assert e.code in (0, None)
        table = read_results(out)
        assert fair_share(table) == expected
        assert table.groupby("index")["win"].sum().eq(round(expected * 4)).all()


def test_report_of_two_handed_games_shows_the_fair_share_of_one_half(tmp_path, capsys):
    out = tmp_path / "two.csv"
    try:
        main(["simulate", "stars", "--variant", "two-handed", "--seats", "random,random,random,random", "--games",
              "4", "--workers", "1", "--json", "--out", str(out)])
    except SystemExit as e:
        assert e.code in (0, None)
    capsys.readouterr()
    md = tmp_path / "r.md"
    try:
        main(["report", str(out), "--out", str(md)])
    except SystemExit as e:
        assert e.code in (0, None)
    shares, column = [], None
    for line in md.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            column = None
        elif "fair share" in cells:
            column = cells.index("fair share")
        elif column is not None and not set(cells[column]) <= set("-: "):
            shares.append(cells[column])
    assert len(shares) == 8 and set(shares) == {"50.0%"}  # 4 entries and 4 positions
