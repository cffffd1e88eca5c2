"""The sections every game's report has: the batch, failures, win rate and score by seat entry,
by bot and by player-order position, and the distributions of scores and of game lengths.

``df`` is the results table (:mod:`rolling.sim.table`) of one or more files, with a ``batch``
column (the file's number, one *run* of ``rolling simulate``) so that a game is ``(batch, index)``,
and a ``seats`` column (:func:`with_groups`); ``ok`` its rows of games that ended.

A *context* (a group of games) is what must never be pooled: games of one seat list, map (Freight),
edition and variants (Stars) and player count. A win rate pooled over a seat list where a bot wins
every game and one where it wins 30% would read 65%, true of neither (issue 33 item 7), so every
figure is per context; runs of the same context are pooled, and the page says which.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pandas as pd

from rolling.report import plots
from rolling.report.page import Page, fmt_mean, fmt_rate
from rolling.report.stats import by_group, mean_interval, percentiles
from rolling.sim.table import seat_list

#: rows shown of the failed games
MAX_FAILURES = 20


def games_of(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game (its first seat entry)."""
    return df[df["entry"] == 0]


#: the columns that split a table into contexts, in the order their labels name them
CONTEXT = ("map", "edition", "variants", "players", "seats")
#: the game options a failed game's rows lack (only ended games have them): taken from its run
RUN_OPTIONS = ("map", "edition", "variants")


def with_groups(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with a ``seats`` column, each game's seat list (:func:`rolling.sim.table.seat_list`
    of its bots in entry order, ``heuristic×3,random``), and the options of its failed games
    (:data:`RUN_OPTIONS`) taken from the games of the same run that ended, when they agree."""
    df = df.copy()
    seats = (df.sort_values("entry").groupby(["batch", "index"], sort=False)["bot"]
             .agg(lambda b: seat_list(list(b))).rename("seats"))
    df = df.join(seats, on=["batch", "index"])
    failed = df["error"] != ""
    for col in RUN_OPTIONS:
        if col not in df.columns or not failed.any():
            continue
        runs = df[~failed].groupby("batch")[col].agg(lambda v: v.iloc[0] if v.nunique() == 1 else pd.NA)
        fill = df["batch"].map(runs)
        take = failed & fill.notna()
        df.loc[take, col] = fill[take]
    return df


def context_columns(df: pd.DataFrame) -> list[str]:
    """The columns that split the table into contexts (:data:`CONTEXT`: those it has)."""
    return [c for c in CONTEXT if c in df.columns]


def fair_share(part: pd.DataFrame) -> float:
    """The win rate of a seat entry exactly as strong as the others: the winners of a game over its
    players, 1/n; in the Stars two-handed variant both hands of the winning person win (001,
    Two-player two-handed variant), 2 of 4. Over rows of mixed games, the mean of the rows' shares."""
    winners = pd.Series(1.0, index=part.index)
    if "variants" in part.columns:
        two = part["variants"].fillna("").astype(str).str.split(",").apply(lambda v: "two-handed" in v)
        winners = winners.where(~two, 2.0)
    shares = (winners / part["players"]).unique()
    return float(shares[0]) if len(shares) == 1 else float((winners / part["players"]).mean())


def context_label(key, columns=("map", "players")) -> str:
    """``"southern, 4 players, seats heuristic×4"``: a group key of ``columns`` in words (an
    edition as ``"edition stars"``, variants as ``"variants two-handed"`` and none left out)."""
    parts = key if isinstance(key, tuple) else (key,)
    words = []
    for col, value in zip(columns, parts, strict=True):
        if col == "players":
            words.append(f"{value} player" + ("" if str(value) == "1" else "s"))
        elif col == "edition":
            words.append(f"edition {value}")
        elif col == "variants":
            if value:
                words.append(f"variants {value}")
        elif col == "seats":
            words.append(f"seats {value}")
        else:
            words.append(str(value))
    return ", ".join(words)


def contexts_of(ok: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``(label, rows)`` of each context of ``ok`` in sorted order (:func:`context_label`)."""
    ctx = context_columns(ok)
    return [(context_label(key, ctx), part) for key, part in ok.groupby(ctx, sort=True)]


@dataclass
class ContextPage:
    """A view of a :class:`Page` for one context of several: its sections are titled with the
    context (``"Corporations: 4 players, seats heuristic×4"``) and anchored apart (``corporations-2``)."""

    page: Page
    label: str
    number: int

    def section(self, title: str, anchor: str):
        """Add and return a new section of the page, for this context."""
        return self.page.section(f"{title}: {self.label}", f"{anchor}-{self.number}")


def per_context(page: Page, ok: pd.DataFrame) -> Iterator[tuple[Page | ContextPage, pd.DataFrame]]:
    """For a game's sections that pool their rows: ``(page, ok)`` when ``ok`` is one context, else
    ``(a ContextPage, its rows)`` for each context, so that the sections are repeated per context."""
    contexts = contexts_of(ok)
    if len(contexts) == 1:
        yield page, ok
        return
    for k, (label, part) in enumerate(contexts, 1):
        yield ContextPage(page, label, k), part


def entry_label(entry: int, bot: str) -> str:
    """``"1 heuristic"``: a seat entry, numbered from 1 as ``--seats`` lists them, and its bot."""
    return f"{entry + 1} {bot}"


def group_table(stats: pd.DataFrame, label: str, labels: list[str], fair: float | None = None) -> pd.DataFrame:
    """The shown table of :func:`rolling.report.stats.by_group` results, one row per label."""
    out = pd.DataFrame({
        label: labels,
        "seats played": [f"{n:,}" for n in stats["n"]],
        "win rate (95% CI)": [fmt_rate(r, lo, hi) for r, lo, hi in zip(stats["win_rate"], stats["win_low"],
                                                                          stats["win_high"], strict=True)],
        "mean score (95% CI)": [fmt_mean(m, lo, hi) for m, lo, hi in zip(stats["mean_score"], stats["score_low"],
                                                                           stats["score_high"], strict=True)],
        "median score": [f"{m:g}" for m in stats["median_score"]],
        "mean rank": [f"{m:.2f}" for m in stats["mean_rank"]],
    })
    if fair is not None:
        out.insert(3, "fair share", f"{fair * 100:.1f}%")
    return out


def win_and_score_figure(stats: pd.DataFrame, labels: list[str], fair: float | None, xlabel: str) -> str:
    """Two bar charts with 95% intervals: win rate (with the fair share) and mean score."""
    return plots.bars_with_intervals([
        {"title": "win rate", "values": stats["win_rate"], "lows": stats["win_low"], "highs": stats["win_high"],
         "percent": True, "baseline": fair},
        {"title": "mean score", "values": stats["mean_score"], "lows": stats["score_low"],
         "highs": stats["score_high"]},
    ], labels, xlabel)


def overview(page: Page, df: pd.DataFrame, files: list[str]) -> None:
    """The page's facts: files, games, failures, seat lists, player counts, the groups of games
    reported apart (and the runs each pools), the versions of rolling that played them."""
    games = games_of(df)
    failed = int((games["error"] != "").sum())
    seat_lists = games["seats"].value_counts()
    page.facts["results"] = ", ".join(files)
    page.facts["games"] = f"{len(games) - failed:,} ended" + (f", {failed:,} failed" if failed else ", none failed")
    page.facts["seat lists"] = "; ".join(f"{s} ({n:,} games)" for s, n in seat_lists.items())
    page.facts["players"] = ", ".join(str(p) for p in sorted(set(games["players"])))
    page.facts["actions"] = f"{int(games['actions'].sum()):,} in the games that ended"
    page.facts["groups"] = groups_note(games, files)
    page.facts["rolling version"] = versions_note(games)


def groups_note(games: pd.DataFrame, files: list[str]) -> str:
    """How the runs (files) were grouped: ``"2 groups, reported apart (each seat list, ...): A (1
    run, 10 games); B (2 runs pooled: b.csv, c.csv; 20 games)"``, one row per game in ``games``."""
    ctx = context_columns(games)
    parts = []
    for key, part in games.groupby(ctx, sort=True):
        runs = sorted(set(part["batch"]))
        which = f"{len(runs)} runs pooled: {', '.join(files[r] for r in runs)}" if len(runs) > 1 else "1 run"
        parts.append(f"{context_label(key, ctx)} ({which}; {len(part):,} games)")
    head = (f"{len(parts)} groups, reported apart (games of one seat list, map, player count, edition and "
            f"variants are never pooled with others)" if len(parts) > 1 else "1 group")
    return f"{head}: {'; '.join(parts)}"


def versions_note(games: pd.DataFrame) -> str:
    """The versions of rolling that played ``games`` (one row per game), with their games:
    ``"0.1.0"``, or ``"0.1.0 (10 games), 0.2.0 (20 games)"``; files without the column say so."""
    versions = games["version"].fillna("") if "version" in games.columns else pd.Series("", index=games.index)
    counts = versions.replace("", "not recorded").value_counts().sort_index()
    if len(counts) == 1:
        return str(counts.index[0])
    return ", ".join(f"{v} ({n:,} games)" for v, n in counts.items())


def failures(page: Page, df: pd.DataFrame) -> None:
    """A section listing failed games (only when there are some)."""
    bad = games_of(df)
    bad = bad[bad["error"] != ""]
    if bad.empty:
        return
    s = page.section("Failed games", "failures")
    s.text(f"{len(bad):,} games raised an error and are left out of every figure below. Each is a bug to "
           "fix; replay it with its seed.")
    by_error = bad.groupby("error").size().sort_values(ascending=False).reset_index(name="games")
    s.table(by_error[["games", "error"]])
    first = bad.head(MAX_FAILURES)[["batch", "index", "seed", "error"]]
    s.heading(f"The first {len(first)}")
    s.table(first.astype({"seed": "string"}))


def by_entry_and_bot(page: Page, ok: pd.DataFrame) -> None:
    """Win rate and mean score by seat entry and, when a bot holds several seats among others, by
    bot; per context (:func:`contexts_of`)."""
    if ok["players"].max() < 2:
        return
    s = page.section("Win rate and score by seat entry and bot", "bots")
    s.text("A seat entry is one word of --seats; the entries rotate through the player-order positions from "
           "game to game, so each spends the same number of games in each. A win is rank 1 after the rules' "
           "tie-breaks (two-handed: both hands of the winning person, so the fair share is 1/2). Intervals are "
           "95%: Wilson's for rates, Student's t for means.")
    contexts = contexts_of(ok)
    if len(contexts) > 1:
        s.text(f"The games fall into {len(contexts)} groups of one seat list, map, player count, edition and "
               "variants; each has its own table, since a rate pooled over different tables would be true of "
               "none of them.")
    for label, part in contexts:
        stats = by_group(part, ["entry", "bot"])
        labels = [entry_label(e, b) for e, b in zip(stats["entry"], stats["bot"], strict=True)]
        fair = fair_share(part)
        if len(contexts) > 1:
            s.heading(label)
        s.table(group_table(stats, "seat entry", labels, fair))
        if len(contexts) == 1:
            s.figure(win_and_score_figure(stats, labels, fair, "seat entry"), "win rate and mean score by seat entry",
                     "Win rate and mean score by seat entry, with 95% intervals; dashed: the fair share 1/n.")
        if 1 < part["bot"].nunique() < part["entry"].nunique():  # a bot holds several seats: sum them up
            stats = by_group(part, "bot")
            s.heading("By bot" + (f" ({label})" if len(contexts) > 1 else ""))
            s.table(group_table(stats, "bot", list(stats["bot"])))
            s.text("Every seat a bot played counts here; two seats of one game are not independent, so these "
                   "intervals are narrower than they should be when a bot holds several seats.", note=True)


def by_position(page: Page, ok: pd.DataFrame) -> None:
    """Win rate and mean score by player-order position at the start, per context."""
    if ok["players"].max() < 2:
        return
    s = page.section("Win rate and score by player-order position", "positions")
    s.text("Position 1 is the first player at the start of the game. Every game gives one seat per position, "
           "so the games are independent observations for each position.")
    contexts = contexts_of(ok)
    lines_win, lines_score = {}, {}
    for label, part in contexts:
        stats = by_group(part, "position")
        fair = fair_share(part)
        labels = [f"{p}" for p in stats["position"]]
        if len(contexts) > 1:
            s.heading(label)
        s.table(group_table(stats, "position", labels, fair))
        # win rate over the fair share 1/n: contexts of different player counts on one scale
        lines_win[label] = (list(stats["position"]), stats["win_rate"] / fair, stats["win_low"] / fair,
                            stats["win_high"] / fair)
        lines_score[label] = (list(stats["position"]), stats["mean_score"], stats["score_low"], stats["score_high"])
        if len(contexts) == 1:
            s.figure(win_and_score_figure(stats, labels, fair, "player-order position"),
                     "win rate and mean score by player-order position",
                     "Win rate and mean score by position at the start, with 95% intervals; dashed: the fair share 1/n.")
    if len(contexts) > 1:
        s.figure(plots.lines_by_group(lines_win, "player-order position", "win rate ÷ fair share", baseline=1.0),
                 "win rate over the fair share by position, one line per context",
                 "Win rate by position divided by the fair share 1/n (1: fair; 1.5: half as many wins again as "
                 "fair), with 95% intervals.")
        s.figure(plots.lines_by_group(lines_score, "player-order position", "mean score"),
                 "mean score by position, one line per context", "Mean score by position, with 95% intervals.")


def scores(page: Page, ok: pd.DataFrame) -> None:
    """Score distributions: by bot when bots differ, else by position; percentiles table. (A
    solitaire game has its own, with more percentiles.)"""
    if ok["players"].max() < 2:
        return
    s = page.section("Score distribution", "scores")
    ctx = context_columns(ok)
    key = "bot" if ok["bot"].nunique() > 1 or ok["players"].max() < 2 else "position"
    multi = ok.groupby(ctx).ngroups > 1
    rows, series = [], {}
    for keys, part in ok.groupby([*ctx, key], sort=True):
        name = (f"{context_label(keys[:-1], ctx)}: " if multi else "") + (
            f"position {keys[-1]}" if key == "position" else str(keys[-1]))
        mean, lo, hi = mean_interval(part["score"])
        rows.append({"seats": name, "n": f"{len(part):,}", "mean (95% CI)": fmt_mean(mean, lo, hi),
                     **{q: f"{v:g}" for q, v in percentiles(part["score"]).items()},
                     "min": f"{part['score'].min()}", "max": f"{part['score'].max()}"})
        # several contexts: one curve per context (their scores differ more than positions' do)
        series.setdefault(context_label(keys[:-1], ctx) if multi else name, []).extend(part["score"].astype(float))
    s.table(pd.DataFrame(rows))
    s.figure(plots.histograms(series, "score", discrete=False), "score histograms",
             "Share of seats per score bin" + (", by context." if multi else "."))


def lengths(page: Page, ok: pd.DataFrame, unit: str) -> None:
    """Game length: turns and actions per game, per context."""
    s = page.section("Game length", "length")
    games = games_of(ok)
    ctx = context_columns(games)
    rows, series = [], {}
    for key, part in games.groupby(ctx, sort=True):
        name = context_label(key, ctx)
        mean, lo, hi = mean_interval(part["turns"])
        rows.append({"games": name, "n": f"{len(part):,}", f"mean {unit} (95% CI)": fmt_mean(mean, lo, hi),
                     **{q: f"{v:g}" for q, v in percentiles(part["turns"]).items()},
                     "mean actions": f"{part['actions'].mean():,.0f}"})
        series[name] = part["turns"].astype(float).tolist()
    s.table(pd.DataFrame(rows))
    s.figure(plots.histograms(series, unit), f"histogram of {unit} per game", f"Share of games by {unit}.")
