"""The statistics of a balance report: rates and means with 95% confidence intervals, by group.

- A rate (a win rate, how often a corporation is formed) has Wilson's score interval, which stays
  inside [0, 1] and is sound for rates near 0 or 1 and for few games.
- A mean (a mean score) has Student's t interval mean ± t · s / √n (s the sample standard
  deviation, t the 97.5th percentile of Student's t with n - 1 degrees of freedom): sound for a
  few games as for the thousands a study uses, where t is the normal 1.96.

Only :func:`by_group` and :func:`percentiles` need pandas; :func:`wilson`, :func:`t95` and
:func:`mean_interval` need numpy only, so ``rolling simulate`` uses them without the extra ``report``.

Both assume independent observations. Grouped by player-order position or by seat entry, each game
gives one observation per group, and games are independent. Grouped by bot, several seats of one
game can fall in the same group; those are not independent, and the report says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054
#: points of the grid on which :func:`t95` integrates Student's t density
T_GRID = 40_001
#: the grid's end: above t95(1) = 12.706, the largest 95% quantile (one degree of freedom)
T_GRID_END = 16.0


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate: ``(low, high)`` in [0, 1]; ``(nan, nan)`` for n = 0."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@lru_cache(maxsize=256)
def t95(df: int) -> float:
    """The 97.5th percentile of Student's t with ``df`` degrees of freedom (1 or more): the factor
    of a two-sided 95% interval (12.706 for 1, 2.776 for 4, 1.984 for 99, 1.960 in the limit).

    The density is integrated on a grid of :data:`T_GRID` points (Simpson's rule, from 0 to
    :data:`T_GRID_END`) and the 0.475 point of the integral interpolated: exact to about 1e-6,
    with numpy only (SciPy is no dependency of ``rolling``).

    Raises:
        ValueError: ``df`` below 1.
    """
    if df < 1:
        raise ValueError(f"Student's t needs 1 or more degrees of freedom, not {df}")
    x = np.linspace(0.0, T_GRID_END, T_GRID)
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    pdf = np.exp(log_c - (df + 1) / 2 * np.log1p(x * x / df))
    h = x[1] - x[0]
    # Simpson's rule on each pair of steps, the cumulative integral at every other grid point
    pairs = h / 3 * (pdf[:-2:2] + 4 * pdf[1:-1:2] + pdf[2::2])
    cdf = np.concatenate(([0.0], np.cumsum(pairs)))
    return float(np.interp(0.475, cdf, x[::2]))


def mean_interval(values: Iterable[float] | pd.Series) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` (missing ones left out) and its 95% interval,
    Student's t with n - 1 degrees of freedom; the interval is ``nan`` for fewer than two values,
    everything ``nan`` for none."""
    if hasattr(values, "dropna"):  # a pandas Series, maybe of a nullable type
        v = values.dropna().to_numpy(dtype=float)
    else:
        v = np.asarray(list(values), dtype=float)
        v = v[~np.isnan(v)]
    n = len(v)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    if n < 2:
        return m, math.nan, math.nan
    half = t95(n - 1) * float(v.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def by_group(df: pd.DataFrame, by: str | list[str]) -> pd.DataFrame:
    """Win rate and mean score per group of ``df`` (rows of games that ended).

    Returns:
        one row per group (sorted), with columns ``n`` (seats played), ``wins``, ``win_rate``,
        ``win_low``, ``win_high`` (Wilson 95%), ``mean_score``, ``score_low``, ``score_high``
        (Student's t 95%), ``median_score``, ``mean_rank``.
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
    import pandas as pd

    return pd.DataFrame(rows)


def percentiles(values: pd.Series, qs=(5, 25, 50, 75, 95)) -> dict[str, float]:
    """``{"p5": ..., "p25": ..., ...}`` of ``values`` (linear interpolation)."""
    v = values.dropna().astype(float)
    return {f"p{q}": float(v.quantile(q / 100)) if len(v) else math.nan for q in qs}
