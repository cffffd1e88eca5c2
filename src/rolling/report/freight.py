"""The Rolling Freight sections of a report: scores by map and player count, the start player's
edge with equal turns and with one more, and contracts, routes and stations (the Freight columns of :mod:`rolling.sim.freight`)."""

from __future__ import annotations

import pandas as pd

from rolling.report import plots
from rolling.report.common import context_label, games_of
from rolling.report.page import Page, fmt_mean, fmt_pm, fmt_rate
from rolling.report.stats import mean_interval, wilson

#: a row of these tables is the games of one context (never pooled: issue 33 item 7)
KEYS = ["map", "players", "seats"]

#: the per-seat counts of the Freight table, with the words the report uses for them
COUNTS = {"contracts_taken": "contracts taken", "contracts": "contracts completed", "routes": "routes",
          "stations": "stations", "improvements": "improvements"}



def count_means(part) -> dict[str, str]:
    """Each of :data:`COUNTS` over the rows ``part``: its mean ± the half width of its 95% interval."""
    return {words: fmt_pm(*mean_interval(part[col])) for col, words in COUNTS.items()}

def seats_cell(ok: pd.DataFrame, seats: str) -> dict[str, str]:
    """``{"seat list": seats}`` when the games of ``ok`` have several seat lists (a row names its
    own), else nothing (the page's facts name the one)."""
    return {"seat list": seats} if ok["seats"].nunique() > 1 else {}


def maps_and_players(page: Page, ok: pd.DataFrame) -> None:
    """Per map and player count: games, scores, the winner's score, the start player's win rate, length."""
    s = page.section("Scores by map and player count", "maps")
    s.text("The start player is position 1 (seat 0 in the engine: Setting Up). Fair share: 1/n. Scores are "
           "stock ($).")
    rows = []
    for (map_name, players, seats), part in ok.groupby(KEYS, sort=True):
        games = games_of(part)
        first = part[part["position"] == 1]
        w = int(first["win"].astype(bool).sum())
        lo, hi = wilson(w, len(first))
        m, m_lo, m_hi = mean_interval(part["score"])
        wm, wm_lo, wm_hi = mean_interval(part[part["rank"] == 1].groupby(["batch", "index"])["score"].first())
        rows.append({"map": map_name, "players": players, **seats_cell(ok, seats), "games": f"{len(games):,}",
                     "mean score (95% CI)": fmt_mean(m, m_lo, m_hi),
                     "winner's score (95% CI)": fmt_mean(wm, wm_lo, wm_hi),
                     "start player wins (95% CI)": fmt_rate(w / len(first) if len(first) else float("nan"), lo, hi),
                     "fair share": f"{100 / players:.1f}%",
                     "mean turns": f"{games['turns'].mean():.1f}"})
    s.table(pd.DataFrame(rows))
    keys = KEYS if ok["seats"].nunique() > 1 else KEYS[:2]
    series = {context_label(k, keys): part["score"].astype(float).tolist() for k, part in ok.groupby(keys, sort=True)}
    s.figure(plots.histograms(series, "score (stock $)", discrete=False), "score histograms by map and player count",
             "Share of seats per score bin, by map and player count.")


def last_round(page: Page, ok: pd.DataFrame) -> None:
    """The start player's and the last position's win rates in games where every player took the
    same number of turns, and in games where the earlier positions took one more."""
    s = page.section("The last round: equal turns or not", "last-round")
    s.text("The game ends after every player takes one more turn from the one who drew the last End of Phase "
           "card, that player included (Ending Phase C), so the positions up to that player take one more "
           "turn than those after it, unless the card came to the last position. Equal turns: games where "
           "every player took the same number of turns; in the others the start player took one more turn "
           "than the last position.")
    # player turn t (from 1) is seat (t - 1) mod n's from the start player on, so with T turns in
    # all the first T mod n positions took one more turn than the rest: none when T mod n is 0
    rows = []
    for (map_name, players, seats), part in ok.groupby(KEYS, sort=True):
        games = games_of(part)
        equal = games["turns"] % players == 0
        row = {"map": map_name, "players": players, **seats_cell(ok, seats), "games": f"{len(games):,}",
               "equal turns": f"{equal.mean() * 100:.1f}%", "fair share": f"{100 / players:.1f}%"}
        for position, who, other in ((1, "start player", "one more turn"), (players, "last position", "one turn fewer")):
            seats = part[part["position"] == position]
            same = seats["turns"] % players == 0
            for label, chosen in (("equal turns", seats[same]), (other, seats[~same])):
                w = int(chosen["win"].astype(bool).sum())
                lo, hi = wilson(w, len(chosen))
                row[f"{who} wins: {label}"] = fmt_rate(w / len(chosen) if len(chosen) else float("nan"), lo, hi)
        rows.append(row)
    s.table(pd.DataFrame(rows))


def contracts_and_routes(page: Page, ok: pd.DataFrame) -> None:
    """Contracts, routes, stations and improvements per seat, by context and position, and their spread."""
    s = page.section("Contracts and routes", "contracts")
    s.text("Per seat and game: contracts taken (in the opening draft and with A), completed (links owned), "
           "routes established (C), switching stations built, improvements in effect at the end. Means ± the "
           "half width of their 95% interval.")
    rows = []
    for (map_name, players, seat_list, position), part in ok.groupby([*KEYS, "position"], sort=True):
        row = {"map": map_name, "players": players, **seats_cell(ok, seat_list), "position": position,
               "seats played": f"{len(part):,}", **count_means(part)}
        rows.append(row)
    s.table(pd.DataFrame(rows))
    s.heading("Winners and the others")
    rows = []
    for (map_name, players, seat_list), context in ok.groupby(KEYS, sort=True):
        for name, part in (("winners", context[context["rank"] == 1]), ("the others", context[context["rank"] != 1])):
            row = {"map": map_name, "players": players, **seats_cell(ok, seat_list), "of the seats": name,
                   "n": f"{len(part):,}", **count_means(part)}
            rows.append(row)
    s.table(pd.DataFrame(rows))
    s.figure(plots.histograms({"contracts completed": ok["contracts"].tolist(), "routes": ok["routes"].tolist()},
                              "count per seat and game"),
             "histograms of contracts completed and routes per seat",
             "Contracts completed and routes per seat and game, every group of games (map, player count, seat list) together.")


def sections(page: Page, ok: pd.DataFrame) -> None:
    """Every Freight section."""
    maps_and_players(page, ok)
    last_round(page, ok)
    contracts_and_routes(page, ok)
