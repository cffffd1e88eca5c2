"""Balance reports of batches of bot games: ``rolling report RESULTS... --out report.html``.

:func:`build_report` reads one or more results files of ``rolling simulate GAME --out`` (CSV or
Parquet, :mod:`rolling.sim.files`) of the same game and returns a self-contained HTML page: the
batch (the runs, grouped by seat list, map, player count, edition and variants: each group is
reported apart, never pooled with another; the versions of rolling that played them), failed games, win rate and mean score by seat entry, by bot and by player-order position
(with 95% intervals), score and game-length distributions, and each game's own sections
(:mod:`rolling.report.stars`, :mod:`~rolling.report.freight`, :mod:`~rolling.report.market`).
Plots are matplotlib PNGs embedded in the page; tables are pandas.

The page holds nothing that changes from run to run (no date), so the same files give the same page.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported when a report is built: rolling.report.stats serves simulate without it
    import pandas as pd

TITLES = {"stars": "Rolling Stock Stars", "freight": "Rolling Freight", "market": "Rolling Market"}
#: what a game's ``turns`` count (rolling.sim runners' ``turns``)
TURN_UNITS = {"stars": "turns", "freight": "player turns", "market": "turns (buy/sell and closed-market)"}


def load(paths: Sequence[str | Path]) -> pd.DataFrame:
    """The results files as one table, with a ``batch`` column (the file's number, from 0).

    Raises:
        ValueError: no file, a file that is not a results table, files of different games, or no rows.
        OSError: a file cannot be read.
    """
    import pandas as pd

    from rolling.sim.files import read_results

    if not paths:
        raise ValueError("give at least one results file")
    frames = []
    for k, path in enumerate(paths):
        df = read_results(path)
        if df.empty:
            raise ValueError(f"{path}: no games in this results file")
        frames.append(df.assign(batch=k))
    games = sorted({g for df in frames for g in set(df["game"])})
    if len(games) > 1:
        raise ValueError(f"the results files hold games of {', '.join(games)}: report one game at a time")
    return pd.concat(frames, ignore_index=True)


def build_report(paths: Sequence[str | Path], markdown: bool = False, analyses: Sequence[dict] = ()) -> str:
    """The HTML page of the results files ``paths`` (see the module docstring); with
    ``markdown``, the same as Markdown (tables and text, plots named by their captions);
    ``analyses`` (``rolling analyze --json`` outputs) add their evaluation graphs at the end
    (:mod:`rolling.report.analysis`).

    Raises:
        ValueError, OSError: as :func:`load`.
    """
    from rolling.report import common
    from rolling.report.page import Page

    df = common.with_groups(load(paths))
    game = str(df["game"].iloc[0])
    ok = df[df["error"] == ""].copy()
    page = Page(f"{TITLES[game]}: balance report")
    common.overview(page, df, [Path(p).name for p in paths])
    common.failures(page, df)
    if ok.empty:
        page.section("No game ended", "none").text("Every game of these files failed; see above.")
        return page.markdown() if markdown else page.render()
    common.by_entry_and_bot(page, ok)
    common.by_position(page, ok)
    common.scores(page, ok)
    common.lengths(page, ok, TURN_UNITS[game])
    importlib.import_module(f"rolling.report.{game}").sections(page, ok)
    if analyses:
        from rolling.report import analysis

        for a in analyses:
            analysis.sections(page, a)
    return page.markdown() if markdown else page.render()


def write_report(paths: Sequence[str | Path], out: str | Path, analyses: Sequence[dict] = ()) -> Path:
    """Write the report of ``paths`` (and ``analyses``, see :func:`build_report`) to ``out``:
    Markdown when ``out`` ends in ``.md``, else HTML; return its path.

    Raises:
        ValueError, OSError: as :func:`load`, or ``out`` cannot be written.
    """
    out = Path(out)
    text = build_report(paths, markdown=out.suffix.lower() == ".md", analyses=analyses)
    out.write_text(text, encoding="utf-8")
    return out
