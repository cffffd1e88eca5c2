"""The Rolling Stock Stars sections of a report: corporations (how often each is formed, the win
rate of the player who formed it, of its president at the end), share price trajectories, and how
games end. The facts come from the Stars columns of :mod:`rolling.sim.stars`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rolling.games.stars.data import CORP_ABILITY, CORP_NAMES, CORP_SYMBOLS
from rolling.report import plots
from rolling.report.common import games_of
from rolling.report.page import Page, fmt_mean, fmt_rate
from rolling.report.stats import mean_interval, wilson

#: a turn is drawn in a share price trajectory when at least this many games had the corporation
#: then (fewer in a batch of fewer than ten times as many games: one in ten of them, at least one)
MIN_GAMES_PER_TURN = 10


def _has(words: pd.Series, sym: str) -> pd.Series:
    return words.str.split().apply(lambda w: sym in w)


def corporations(page: Page, ok: pd.DataFrame) -> None:
    """How often each corporation is formed, and how its founder and final president fare."""
    games = games_of(ok)
    n_games = len(games)
    fair = 1 / ok["players"].mean() if ok["players"].nunique() == 1 else None
    s = page.section("Corporations", "corporations")
    s.text("Formed: the share of games in which the corporation was formed at least once (Phase 9, IPO). "
           "Founder: the player who formed it; president at the end: who held its President's Share when the "
           "game ended. Their win rates are over the games where they had that role; compare them with the "
           "fair share 1/n. Final share price: over the games where the corporation was active at the end.")
    rows, formed_rate, founder = [], [], []
    for sym, name in zip(CORP_SYMBOLS, CORP_NAMES["stars"], strict=True):
        formed = int(_has(games["corporations"], sym).sum())
        f_lo, f_hi = wilson(formed, n_games)
        founders = ok[_has(ok["formed"], sym)]
        w = int(founders["win"].astype(bool).sum())
        w_lo, w_hi = wilson(w, len(founders))
        presidents = ok[_has(ok["presides"], sym)]
        p = int(presidents["win"].astype(bool).sum())
        p_lo, p_hi = wilson(p, len(presidents))
        price = games[f"price_{sym}"].dropna()
        m, m_lo, m_hi = mean_interval(price)
        rows.append({
            "corporation": f"{sym} {name}",
            "formed (95% CI)": fmt_rate(formed / n_games if n_games else np.nan, f_lo, f_hi),
            "founder wins (95% CI)": fmt_rate(w / len(founders) if len(founders) else np.nan, w_lo, w_hi),
            "president at the end wins": fmt_rate(p / len(presidents) if len(presidents) else np.nan, p_lo, p_hi),
            "active at the end": f"{len(price) / n_games * 100:.1f}%" if n_games else "–",
            "final share price $": fmt_mean(m, m_lo, m_hi),
        })
        formed_rate.append((formed / n_games if n_games else np.nan, f_lo, f_hi))
        founder.append((w / len(founders) if len(founders) else np.nan, w_lo, w_hi))
    s.table(pd.DataFrame(rows), notes=list(CORP_ABILITY))
    s.figure(plots.bars_with_intervals([
        {"title": "formed in % of games", "values": [r[0] for r in formed_rate], "lows": [r[1] for r in formed_rate],
         "highs": [r[2] for r in formed_rate], "percent": True},
        {"title": "founder's win rate", "values": [r[0] for r in founder], "lows": [r[1] for r in founder],
         "highs": [r[2] for r in founder], "percent": True, "baseline": fair},
    ], list(CORP_SYMBOLS), "corporation", width=8.0), "corporations formed and their founders' win rates",
        "How often each corporation is formed, and its founder's win rate, with 95% intervals"
        + ("; dashed: the fair share 1/n." if fair else "."))


def share_prices(page: Page, ok: pd.DataFrame) -> None:
    """Each corporation's share price at the end of every turn: mean and middle half, over the games
    where it was active then."""
    games = games_of(ok)
    least = max(1, min(MIN_GAMES_PER_TURN, len(games) // 10))
    s = page.section("Share price trajectories", "share-prices")
    s.text("The share price of each corporation at the end of each turn, over the games in which it was "
           "active at that moment: the line is the mean, the band holds the middle half (25th to 75th "
           f"percentile). Turns with fewer than {least} such games are left out.")
    panels = {}
    for sym, name in zip(CORP_SYMBOLS, CORP_NAMES["stars"], strict=True):
        paths = games[f"path_{sym}"].str.split()
        width = int(paths.str.len().max()) if len(paths) else 0
        grid = np.full((len(paths), width), np.nan)
        for i, path in enumerate(paths):
            for t, price in enumerate(path):
                if price != "-":
                    grid[i, t] = float(price)
        counts = (~np.isnan(grid)).sum(axis=0)
        turns = [t for t in range(width) if counts[t] >= least]
        cols = grid[:, turns]
        with np.errstate(all="ignore"):
            mean = np.nanmean(cols, axis=0) if turns else []
            low = np.nanpercentile(cols, 25, axis=0) if turns else []
            high = np.nanpercentile(cols, 75, axis=0) if turns else []
        panels[f"{sym} {name}"] = {"x": [t + 1 for t in turns], "mean": mean, "low": low, "high": high,
                                   "note": "" if turns else "too rarely formed"}
    s.figure(plots.small_multiples(panels, "turn", "share price $"), "share price by turn for each corporation",
             "Share price at the end of each turn: mean (line) and 25th-75th percentile (band).")


def endings(page: Page, ok: pd.DataFrame) -> None:
    """How games end, and how long each kind of ending takes."""
    games = games_of(ok)
    s = page.section("How games end", "endings")
    rows = []
    for reason, part in games.groupby("end_reason", sort=True):
        lo, hi = wilson(len(part), len(games))
        m, m_lo, m_hi = mean_interval(part["turns"])
        rows.append({"end": reason, "games": f"{len(part):,}", "share (95% CI)": fmt_rate(len(part) / len(games), lo, hi),
                     "mean turns (95% CI)": fmt_mean(m, m_lo, m_hi)})
    s.table(pd.DataFrame(rows))


def sections(page: Page, ok: pd.DataFrame) -> None:
    """Every Stars section."""
    corporations(page, ok)
    share_prices(page, ok)
    endings(page, ok)
