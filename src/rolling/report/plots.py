"""The report's plots: matplotlib figures rendered to PNG ``data:`` URIs, so the page is one file.

Figures are built with :class:`matplotlib.figure.Figure` directly (no pyplot: no global state, no
GUI backend). Every function returns the ``data:image/png;base64,...`` text of one picture.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

#: one colour per series, in order (matplotlib's tab10, readable on white and in print)
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")
DPI = 110


def figure(width: float = 7.0, height: float = 3.2, ncols: int = 1, nrows: int = 1, sharey: bool = False,
           sharex: bool = False):
    """A new figure and its axes (a flat list), with the report's look."""
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    axes = fig.subplots(nrows, ncols, sharex=sharex, sharey=sharey, squeeze=False).ravel().tolist()
    for ax in axes:
        ax.grid(True, axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    return fig, axes


def png(fig: Figure) -> str:
    """The figure as a PNG ``data:`` URI."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _errors(values: Sequence[float], lows: Sequence[float], highs: Sequence[float]):
    # rounding can put an interval's end a hair beyond its value (a rate of 0): never below 0
    below = [0 if math.isnan(lo) or math.isnan(v) else max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)]
    above = [0 if math.isnan(hi) or math.isnan(v) else max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]
    return [below, above]


def bars_with_intervals(panels: Sequence[Mapping], labels: Sequence[str], xlabel: str = "",
                        width: float = 7.0) -> str:
    """Side-by-side bar charts sharing their categories ``labels``, each bar with its 95% interval.

    Each panel: ``{"title", "values", "lows", "highs"}`` and optionally ``"percent": True`` (values
    are rates in [0, 1], drawn as %) and ``"baseline"`` (a dashed red reference line, e.g. the
    fair win rate 1/n, for the caption to name).
    """
    fig, axes = figure(width, 3.0, ncols=len(panels))
    x = list(range(len(labels)))
    for ax, panel in zip(axes, panels, strict=True):
        scale = 100 if panel.get("percent") else 1
        values = [v * scale for v in panel["values"]]
        lows = [v * scale for v in panel["lows"]]
        highs = [v * scale for v in panel["highs"]]
        ax.bar(x, values, color=COLOURS[0], alpha=0.85, width=0.65)
        ax.errorbar(x, values, yerr=_errors(values, lows, highs), fmt="none", ecolor="#222222", capsize=4,
                    linewidth=1.2)
        if panel.get("baseline") is not None:
            # said in the caption: a legend would hide bars
            ax.axhline(panel["baseline"] * scale, color="#d62728", linestyle="--", linewidth=1)
        ax.set_xticks(x, labels, fontsize=8, rotation=30 if max(len(s) for s in labels) > 8 else 0,
                      ha="right" if max(len(s) for s in labels) > 8 else "center")
        ax.set_title(panel["title"], fontsize=10)
        if panel.get("percent"):
            ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0f}%")
        if xlabel:
            ax.set_xlabel(xlabel, fontsize=9)
        ax.tick_params(labelsize=8)
    return png(fig)


def histograms(series: Mapping[str, Sequence[float]], xlabel: str, discrete: bool = True,
               marks: Mapping[str, float] | None = None, width: float = 7.0) -> str:
    """Overlaid step histograms of each named series (share of observations per bin, so series of
    different sizes compare), with optional vertical ``marks`` (name -> x, e.g. percentiles)."""
    fig, (ax,) = figure(width, 3.0)
    allv = [v for values in series.values() for v in values]
    if not allv:
        return png(fig)
    lo, hi = min(allv), max(allv)
    if discrete and hi - lo <= 60:
        bins = [b - 0.5 for b in range(int(lo), int(hi) + 2)]
    else:
        bins = 40
    for k, (name, values) in enumerate(series.items()):
        if len(values):
            ax.hist(values, bins=bins, histtype="step", linewidth=1.6, color=COLOURS[k % len(COLOURS)],
                    weights=[100 / len(values)] * len(values), label=f"{name} (n={len(values):,})")
    for k, (name, x) in enumerate((marks or {}).items()):
        ax.axvline(x, color="#444444", linestyle=":" if k % 2 else "--", linewidth=1)
        ax.annotate(name, (x, 1), xycoords=("data", "axes fraction"), xytext=(2, -10), textcoords="offset points",
                    fontsize=7, color="#444444")
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel("% of observations", fontsize=9)
    ax.tick_params(labelsize=8)
    if len(series) > 1 or not marks:
        ax.legend(fontsize=8, frameon=False)
    return png(fig)


def small_multiples(panels: Mapping[str, Mapping[str, Sequence[float]]], xlabel: str, ylabel: str,
                    ncols: int = 4) -> str:
    """A grid of line charts, one per panel name: each panel has ``"x"``, ``"mean"`` and
    optionally ``"low"``/``"high"`` (a shaded band) and ``"note"`` (text in the corner)."""
    names = list(panels)
    nrows = max(1, -(-len(names) // ncols))
    fig, axes = figure(7.5, 1.9 * nrows + 0.4, ncols=ncols, nrows=nrows, sharey=True, sharex=True)
    for ax, name in zip(axes, names, strict=False):
        p = panels[name]
        if len(p["x"]):
            if "low" in p:
                ax.fill_between(p["x"], p["low"], p["high"], color=COLOURS[0], alpha=0.18, linewidth=0)
            ax.plot(p["x"], p["mean"], color=COLOURS[0], linewidth=1.6)
        ax.set_title(name, fontsize=9)
        if p.get("note"):
            ax.annotate(p["note"], (0.02, 0.97), xycoords="axes fraction", va="top", fontsize=7, color="#555555")
        ax.tick_params(labelsize=7)
        ax.xaxis.get_major_locator().set_params(integer=True)
    for ax in axes[len(names):]:
        ax.set_visible(False)
    fig.supxlabel(xlabel, fontsize=9)
    fig.supylabel(ylabel, fontsize=9)
    return png(fig)


def lines_by_group(groups: Mapping[str, tuple[Sequence, Sequence[float], Sequence[float], Sequence[float]]],
                   xlabel: str, ylabel: str, percent: bool = False, baseline: float | None = None) -> str:
    """One line per group, ``name -> (x, values, lows, highs)``, with 95% interval bars; ``percent``
    draws rates in [0, 1] as %; ``baseline`` a dashed reference line."""
    fig, (ax,) = figure(7.0, 3.2)
    scale = 100 if percent else 1
    for k, (name, (x, values, lows, highs)) in enumerate(groups.items()):
        v = [a * scale for a in values]
        err = _errors(v, [a * scale for a in lows], [a * scale for a in highs])
        offset = (k - (len(groups) - 1) / 2) * 0.06
        ax.errorbar([xi + offset for xi in x], v, yerr=err, marker="o", markersize=4, capsize=3, linewidth=1.4,
                    color=COLOURS[k % len(COLOURS)], label=name)
    if baseline is not None:
        ax.axhline(baseline * scale, color="#999999", linestyle="--", linewidth=1)
    if percent:
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0f}%")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=9)
    ax.tick_params(labelsize=8)
    ax.legend(fontsize=8, frameon=False)
    return png(fig)
