"""A picture of a Rolling Freight board (matplotlib, Agg backend): for ``rolling freight board``.

Cities sit at their real longitude and latitude (longitude scaled by the cosine of the map's mean
latitude). Each link is drawn as its squares in its colour (ocean links dashed teal); cubes on a
link under construction fill squares in the builder's colour; a completed link gets a thick
band in its owner's colour. Around each city: open demand rings in the wanted colour, saturated
demands as black dots, demands still under a B/C marker as faint letters; cargo markers as
coloured diamonds.
"""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

LINK_COLOURS = {"blue": "#2b6cc4", "gray": "#8a8a8a", "red": "#d62728", "yellow": "#e8b500", "ocean": "#19a7b8"}
PLAYER_COLOURS = ["#8e44ad", "#ff7f0e", "#2ca02c", "#8c564b", "#e377c2"]


def _xy(city, coslat: float) -> tuple[float, float]:
    return city.lon * coslat, city.lat


def draw_board(state, out: str, names: list[str] | None = None) -> None:
    """Draw ``state``'s board to ``out`` (.svg or .png).

    Raises:
        OSError: the file cannot be written.
    """
    m = state.map
    lats = [c.lat for c in m.cities]
    coslat = math.cos(math.radians(sum(lats) / len(lats)))
    pos = {c.index: _xy(c, coslat) for c in m.cities}
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    scale = 13 / max(w, h)
    fig_w, fig_h = max(8.0, w * scale + 4.5), max(7.0, h * scale + 1.5)
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6 + 4.0 / scale)
    ax.set_ylim(min(ys) - 0.5, max(ys) + 0.5)
    names = names or [f"Player {i + 1}" for i in range(state.n)]

    # Parallel links between the same pair of cities are drawn side by side.
    groups: dict[frozenset, list] = {}
    for ln in m.links:
        groups.setdefault(frozenset((ln.a, ln.b)), []).append(ln)
    for pair_links in groups.values():
        k = len(pair_links)
        for j, ln in enumerate(pair_links):
            (x0, y0), (x1, y1) = pos[ln.a], pos[ln.b]
            dx, dy = x1 - x0, y1 - y0
            dist = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / dist, dx / dist
            off = (j - (k - 1) / 2) * 0.13
            x0o, y0o, x1o, y1o = x0 + nx * off, y0 + ny * off, x1 + nx * off, y1 + ny * off
            colour = LINK_COLOURS[ln.colour]
            owner = state.owner[ln.index]
            holder = state.holder[ln.index]
            if owner >= 0:
                ax.plot([x0o, x1o], [y0o, y1o], color=PLAYER_COLOURS[owner], lw=7, alpha=0.55,
                        solid_capstyle="butt", zorder=1)
            ax.plot([x0o, x1o], [y0o, y1o], color=colour, lw=1.2,
                    ls=(0, (3, 2)) if ln.colour == "ocean" else "-", zorder=2)
            n = ln.length
            for s in range(n):
                t = 0.18 + 0.64 * (s + 0.5) / n
                px, py = x0o + dx * t, y0o + dy * t
                filled = holder >= 0 and s < state.cubes[ln.index]
                face = PLAYER_COLOURS[holder] if filled else ("white" if owner < 0 else colour)
                ax.scatter([px], [py], marker="s", s=26, c=[face], edgecolors=colour, linewidths=1.2, zorder=3)
            mx, my = x0o + dx * 0.5 + nx * 0.09, y0o + dy * 0.5 + ny * 0.09
            ax.text(mx, my, str(ln.id), fontsize=5.5, color="#333333", ha="center", va="center", zorder=4)

    # The "RR X-ing" construction markers: the links of the contracts on the track.
    for card in state.contract_track:
        if card is None:
            continue
        ln = m.links[card]
        k = len(groups[frozenset((ln.a, ln.b))])
        j = groups[frozenset((ln.a, ln.b))].index(ln)
        (x0, y0), (x1, y1) = pos[ln.a], pos[ln.b]
        dist = math.hypot(x1 - x0, y1 - y0) or 1.0
        off = (j - (k - 1) / 2) * 0.13
        mx = (x0 + x1) / 2 - (y1 - y0) / dist * off
        my = (y0 + y1) / 2 + (x1 - x0) / dist * off
        ax.scatter([mx], [my], marker="X", s=110, c="black", edgecolors="white", linewidths=0.8, zorder=8)

    for c in m.cities:
        x, y = pos[c.index]
        ax.scatter([x], [y], s=60, c="black", zorder=5)
        # A close neighbour to the east pushes the name to the west; with neighbours on both
        # sides it goes below the city, so that every name stays readable.
        east = any(0 < pos[o.index][0] - x < 0.9 and abs(pos[o.index][1] - y) < 0.3 for o in m.cities)
        west = any(0 < x - pos[o.index][0] < 0.5 and abs(pos[o.index][1] - y) < 0.3 for o in m.cities)
        if east and west:
            tx, ty, ha = x + 0.05, y - 0.38, "left"
        elif east:
            tx, ty, ha = x - 0.09, y + 0.14, "right"
        else:
            tx, ty, ha = x + 0.09, y + 0.09, "left"
        ax.text(tx, ty, c.name, fontsize=8, fontweight="bold", zorder=7, ha=ha,
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.7})
        # demand rings below the name, cargo diamonds to the left
        rx = x + 0.12
        for colour, phase, saturated in state.rings[c.index]:
            if phase > state.phase:
                ax.text(rx, y - 0.16, "BC"[phase - 1], fontsize=6, color=LINK_COLOURS[colour], alpha=0.6,
                        ha="center", va="center", zorder=6)
            elif saturated:
                ax.scatter([rx], [y - 0.16], s=45, facecolors="black", edgecolors=LINK_COLOURS[colour],
                           linewidths=1.5, zorder=6)
            else:
                ax.scatter([rx], [y - 0.16], s=55, facecolors="none", edgecolors=LINK_COLOURS[colour],
                           linewidths=2.2, zorder=6)
            rx += 0.15
        cx = x - 0.14
        for colour in state.cargo[c.index]:
            ax.scatter([cx], [y - 0.02], marker="D", s=36, c=LINK_COLOURS[colour], edgecolors="black",
                       linewidths=0.6, zorder=6)
            cx -= 0.14

    phase = "ABC"[min(state.phase, 2)]
    status = "game over" if state.is_over else ("opening draft" if state.stage == "draft" else f"turn {state.turn}")
    ax.set_title(f"Rolling Freight - {m.title} - phase {phase}, {status}", fontsize=13)
    handles = []
    for i, p in enumerate(state.players):
        handles.append(Line2D([0], [0], color=PLAYER_COLOURS[i], lw=6, alpha=0.7,
                              label=f"{names[i] if i < len(names) else f'Player {i + 1}'}: ${p.stock}, {p.stations} stations, "
                                    f"{p.links_owned} links"))
    for colour, hex_ in LINK_COLOURS.items():
        handles.append(Line2D([0], [0], color=hex_, marker="s", markerfacecolor="white", lw=1.2,
                              ls="--" if colour == "ocean" else "-", label=f"{colour} link"))
    handles.append(Line2D([0], [0], marker="D", color="w", markerfacecolor="#999999", markeredgecolor="black",
                          label="cargo marker"))
    handles.append(Line2D([0], [0], marker="X", color="w", markerfacecolor="black", markersize=9,
                          label="RR X-ing: contract on the track"))
    handles.append(Line2D([0], [0], marker="o", color="w", markerfacecolor="none", markeredgecolor="#555555",
                          markeredgewidth=2, markersize=8, label="open demand (ring colour)"))
    handles.append(Line2D([0], [0], marker="o", color="w", markerfacecolor="black", markersize=7,
                          label="saturated demand"))
    ax.legend(handles=handles, loc="upper right", fontsize=8, framealpha=0.9)
    track = [m.links[c].label for c in state.contract_track if c is not None]
    imps = [x for x in state.improvement_track if x]
    ax.text(0.99, 0.02, "Contract track: " + ", ".join(track) + "\nImprovements: " + ", ".join(imps),
            transform=ax.transAxes, ha="right", va="bottom", fontsize=8,
            bbox={"boxstyle": "round", "fc": "white", "ec": "#999999"})
    fig.tight_layout()
    try:
        fig.savefig(out, dpi=110)
    finally:
        plt.close(fig)
