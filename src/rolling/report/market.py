"""The Rolling Market sections of a report: the score distribution with its percentiles, and the
effect of closed-market turns (the Market columns of :mod:`rolling.sim.market`)."""

from __future__ import annotations

import pandas as pd

from rolling.report import plots
from rolling.report.page import Page, fmt_mean
from rolling.report.stats import mean_interval, percentiles

#: the percentiles shown
QS = (1, 5, 10, 25, 50, 75, 90, 95, 99)
#: games with this many closed-market turns or more are counted together
CLOSED_CAP = 12


def score_percentiles(page: Page, ok: pd.DataFrame) -> None:
    """Per bot: mean with its interval and the percentiles of the final cash; a histogram with them marked."""
    s = page.section("Score percentiles", "percentiles")
    s.text("The score is the final cash ($); shares still held at the end are worth nothing.")
    rows, series = [], {}
    for bot, part in ok.groupby("bot", sort=True):
        m, lo, hi = mean_interval(part["score"])
        rows.append({"bot": bot, "games": f"{len(part):,}", "mean $ (95% CI)": fmt_mean(m, lo, hi, 2),
                     **{q: f"{v:g}" for q, v in percentiles(part["score"], QS).items()}})
        series[bot] = part["score"].astype(float).tolist()
    s.table(pd.DataFrame(rows))
    marks = None
    if len(series) == 1:
        p = percentiles(ok["score"], (5, 25, 50, 75, 95))
        marks = {"p5": p["p5"], "p25": p["p25"], "median": p["p50"], "p75": p["p75"], "p95": p["p95"]}
    s.figure(plots.histograms(series, "final cash $", discrete=False, marks=marks), "histogram of scores",
             "Share of games per score bin" + ("; dashed and dotted: the 5th, 25th, 50th, 75th, 95th percentiles."
                                               if marks else "."))


def closed_turns(page: Page, ok: pd.DataFrame) -> None:
    """Mean score by the number of closed-market turns in the game."""
    s = page.section("Closed-market turns", "closed")
    s.text("A closed-market turn (volatility die 1 or 6) allows no trades; more of them mean more rolls of "
           "the market between trades.")
    closed = ok["closed_turns"].clip(upper=CLOSED_CAP)
    rows, lines = [], {}
    for bot, part in ok.assign(closed=closed).groupby("bot", sort=True):
        xs, means, lows, highs = [], [], [], []
        for k, group in part.groupby("closed", sort=True):
            m, lo, hi = mean_interval(group["score"])
            label = f"{k}+" if k == CLOSED_CAP else str(k)
            rows.append({"bot": bot, "closed-market turns": label, "games": f"{len(group):,}",
                         "share": f"{len(group) / len(part) * 100:.1f}%", "mean $ (95% CI)": fmt_mean(m, lo, hi, 2)})
            xs.append(int(k))
            means.append(m)
            lows.append(lo)
            highs.append(hi)
        lines[bot] = (xs, means, lows, highs)
    s.table(pd.DataFrame(rows))
    s.figure(plots.lines_by_group(lines, f"closed-market turns in the game ({CLOSED_CAP} = {CLOSED_CAP} or more)",
                                  "mean final cash $"),
             "mean score by closed-market turns", "Mean final cash by the game's closed-market turns, with 95% intervals.")


def sections(page: Page, ok: pd.DataFrame) -> None:
    """Every Market section."""
    score_percentiles(page, ok)
    closed_turns(page, ok)
