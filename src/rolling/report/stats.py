"""The statistics of a balance report: rates and means with 95% confidence intervals, by group.

- A rate (a win rate, how often a corporation is formed) has Wilson's score interval, which stays
  inside [0, 1] and is sound for rates near 0 or 1 and for few games.
- A mean (a mean score) has the normal interval mean ± 1.96 · s / √n (s the sample standard
  deviation); with the thousands of games a study uses, the central limit theorem makes it sound.

Both assume independent observations. Grouped by player-order position or by seat entry, each game
gives one observation per group, and games are independent. Grouped by bot, several seats of one
game can fall in the same group; those are not independent, and the report says so.
"""

from __future__ import annotations

import math

import pandas as pd

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate: ``(low, high)`` in [0, 1]; ``(nan, nan)`` for n = 0."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: pd.Series, z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)`` of the normal 95% interval of the mean; the interval is ``nan`` for
    fewer than two values, everything ``nan`` for none."""
    v = values.dropna().astype(float)
    n = len(v)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    if n < 2:
        return m, math.nan, math.nan
    half = z * float(v.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def by_group(df: pd.DataFrame, by: str | list[str]) -> pd.DataFrame:
    """Win rate and mean score per group of ``df`` (rows of games that ended).

    Returns:
        one row per group (sorted), with columns ``n`` (seats played), ``wins``, ``win_rate``,
        ``win_low``, ``win_high`` (Wilson 95%), ``mean_score``, ``score_low``, ``score_high``
        (normal 95%), ``median_score``, ``mean_rank``.
    """
    rows = []
    for key, g in df.groupby(by, sort=True, observed=True):
        n = len(g)
        wins = int(g["win"].astype(bool).sum())
        low, high = wilson(wins, n)
        mean, s_low, s_high = mean_interval(g["score"])
        rows.append({
            **dict(zip([by] if isinstance(by, str) else by, key if isinstance(key, tuple) else (key,), strict=True)),
            "n": n, "wins": wins, "win_rate": wins / n, "win_low": low, "win_high": high,
            "mean_score": mean, "score_low": s_low, "score_high": s_high,
            "median_score": float(g["score"].median()), "mean_rank": float(g["rank"].mean()),
        })
    return pd.DataFrame(rows)


def percentiles(values: pd.Series, qs=(5, 25, 50, 75, 95)) -> dict[str, float]:
    """``{"p5": ..., "p25": ..., ...}`` of ``values`` (linear interpolation)."""
    v = values.dropna().astype(float)
    return {f"p{q}": float(v.quantile(q / 100)) if len(v) else math.nan for q in qs}
