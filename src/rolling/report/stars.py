"""The Rolling Stock Stars sections of a report: corporations (how often each is formed, the win
rate of the player who formed it, of its president at the end, and against the founders of the
same turn and seat), share price trajectories, and how games end. The facts come from the Stars columns of :mod:`rolling.sim.stars`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rolling.games.stars.data import CORP_ABILITY, CORP_NAMES, CORP_SYMBOLS
from rolling.report import plots
from rolling.report.common import fair_share, games_of, per_context
from rolling.report.page import Page, fmt_interval, fmt_mean, fmt_rate
from rolling.report.stats import Z95, mean_interval, wilson

#: a turn is drawn in a share price trajectory when at least this many games had the corporation
#: then (fewer in a batch of fewer than ten times as many games: one in ten of them, at least one)
MIN_GAMES_PER_TURN = 10


def _has(words: pd.Series, sym: str) -> pd.Series:
    return words.str.split().apply(lambda w: sym in w)


def corporations(page: Page, ok: pd.DataFrame) -> None:
    """How often each corporation is formed, and how its founder and final president fare."""
    games = games_of(ok)
    n_games = len(games)
    fair = fair_share(ok) if ok["players"].nunique() == 1 else None
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


def formation_turns(ok: pd.DataFrame, sym: str) -> pd.Series:
    """The turn (from 1) at whose end corporation ``sym`` was first active in each row's game, from
    its ``path_SYM`` column; ``nan`` where it never was."""
    def first(path: str) -> float:
        for t, price in enumerate(path.split()):
            if price != "-":
                return float(t + 1)
        return np.nan
    return ok[f"path_{sym}"].map(first)


def founding_events(ok: pd.DataFrame) -> pd.DataFrame:
    """One row per corporation and founder (a seat whose ``formed`` names it): ``corporation``,
    ``turn`` (the turn it was first active, :func:`formation_turns`), ``position`` (the founder's
    player-order position) and ``win`` (0/1)."""
    parts = []
    for sym in CORP_SYMBOLS:
        founders = ok[_has(ok["formed"], sym)]
        if founders.empty:
            continue
        parts.append(pd.DataFrame({"corporation": sym, "turn": formation_turns(founders, sym),
                                   "position": founders["position"], "win": founders["win"].astype(bool).astype(float)}))
    columns = ["corporation", "turn", "position", "win"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


def founder_edges(ok: pd.DataFrame) -> pd.DataFrame:
    """Each corporation's founders' win rate against that of every founder of any corporation in the
    same turn and from the same player-order position (indirect standardisation).

    When a corporation is formed, and from which seat, says much about who wins: late corporations
    are formed by players who can afford them, and the first player wins more whatever he forms. The
    expected win rate of a founding is the win rate of the other corporations' foundings of the same
    turn and position; a corporation's edge is its founders' win rate minus the mean of their
    expected rates (both over the foundings that have such others),
    so timing and seat cancel out and what is left is closer to the worth of the corporation itself.

    Returns:
        one row per corporation ever founded, in CORP_SYMBOLS order: ``corporation``, ``n``
        (foundings), ``turn`` (mean turn formed), ``compared`` (the share of its foundings made in a
        turn and from a seat where another corporation was founded too: the others cannot inform
        the edge), ``observed`` (over those), ``expected`` and ``edge`` (rates
        in [0, 1]), ``low`` and ``high`` (the edge's 95% interval, normal, with the expected rates
        taken as known: each founding's variance p(1 - p)).
    """
    events = founding_events(ok).dropna(subset=["turn"])
    if events.empty:
        return pd.DataFrame(columns=["corporation", "n", "turn", "compared", "observed", "expected", "edge", "low", "high"])
    # the expected rate of a founding: the other corporations' foundings of its turn and seat (its
    # own corporation left out, or a corporation that fills a cell would be compared with itself)
    cell = events.groupby(["turn", "position"])["win"].agg(["sum", "count"])
    own = events.groupby(["turn", "position", "corporation"])["win"].agg(["sum", "count"])
    keys = pd.MultiIndex.from_frame(events[["turn", "position"]])
    own_keys = pd.MultiIndex.from_frame(events[["turn", "position", "corporation"]])
    others_wins = cell["sum"].reindex(keys).to_numpy() - own["sum"].reindex(own_keys).to_numpy()
    others_n = cell["count"].reindex(keys).to_numpy() - own["count"].reindex(own_keys).to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        events["expected"] = np.where(others_n > 0, others_wins / np.maximum(others_n, 1), np.nan)
    events["compared"] = (others_n > 0).astype(float)
    rows = []
    for sym in CORP_SYMBOLS:
        all_e = events[events["corporation"] == sym]
        if all_e.empty:
            continue
        e = all_e.dropna(subset=["expected"])
        n = len(all_e)
        p = e["expected"]
        m = len(e)
        half = Z95 * float(np.sqrt((p * (1 - p)).sum())) / m if m else np.nan
        edge = float(e["win"].mean() - p.mean()) if m else np.nan
        rows.append({"corporation": sym, "n": n, "turn": float(all_e["turn"].mean()),
                     "compared": float(all_e["compared"].mean()), "observed": float(e["win"].mean()) if m else np.nan,
                     "expected": float(p.mean()), "edge": edge, "low": edge - half, "high": edge + half})
    return pd.DataFrame(rows)


def corporation_edges(page: Page, ok: pd.DataFrame) -> None:
    """The founders' win rates with the timing and the seat of the founding taken out."""
    edges = founder_edges(ok)
    s = page.section("Corporations, founded at the same time from the same seat", "founder-edges")
    s.text("A corporation's founders win more or less often than the founders of the other corporations in "
           "the same turn and from the same player-order position: the edge below is their win rate minus that "
           "expected rate, in percentage points. Compared: the share of its foundings made in a turn and from a seat where "
           "some other corporation was founded too (only those inform the edge). Timing and seat cancel out; what is left is closer to the worth of the "
           "corporation itself, but still the worth in the hands of the bots that played, and a corporation "
           "is also chosen by how well the game goes. Interval: normal, 95%, with the expected rates taken as "
           "known.")
    names = dict(zip(CORP_SYMBOLS, CORP_NAMES["stars"], strict=True))
    rows = [{
        "corporation": f"{r.corporation} {names[r.corporation]}",
        "foundings": f"{r.n:,}",
        "mean turn formed": f"{r.turn:.1f}",
        "compared": f"{r.compared * 100:.0f}%",
        "founders win": f"{r.observed * 100:.1f}%",
        "expected from turn and seat": f"{r.expected * 100:.1f}%",
        "edge, points (95% CI)": fmt_interval(r.edge * 100, r.low * 100, r.high * 100, 1),
    } for r in edges.itertuples()]
    s.table(pd.DataFrame(rows))
    if len(edges):
        s.figure(plots.bars_with_intervals([
            {"title": "founders' edge, percentage points", "values": list(edges["edge"] * 100),
             "lows": list(edges["low"] * 100), "highs": list(edges["high"] * 100), "baseline": 0.0},
        ], list(edges["corporation"]), "corporation", width=6.0), "founders' edge by corporation",
            "Each corporation's founders' win rate minus that of the other corporations' founders of the same "
            "turn and seat, with 95% intervals; dashed: no edge.")


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
    """Every Stars section, once per context (:func:`rolling.report.common.per_context`)."""
    for view, part in per_context(page, ok):
        corporations(view, part)
        corporation_edges(view, part)
        share_prices(view, part)
        endings(view, part)
