"""How much could a Rolling Market player with perfect foresight of the dice make? (beam search)

Rolling Market's dice do not depend on the player's trades: every roll draws four fluctuation dice
and, before the last two turns, the volatility die, whatever was bought or sold. So a game's seed
fixes the whole dice sequence, and a *clairvoyant* player that knows it in advance can plan all
twelve turns at once. No real player can do better on average, so the clairvoyant's mean final cash
bounds every policy's mean from above.

The search: after each turn's roll, the set of reachable (values, shares) positions, each with the
most cash it can be reached with (more cash never hurts, so only the richest copy of a position is
kept). A turn's trades are a sell then a buy of different companies (selling first frees cash and
the two companies' prices do not interact, so it is never worse than buying first), or two sells in
the last two turns. To keep the search small only the ``beam`` most promising positions survive
each turn (cash plus what the holdings would bring if sold at volatility 3 after the next roll's
known values); the positions the given bots reach are always kept, so the result is at least
every given bot's score on that seed. With a finite beam the result is therefore a lower estimate
of the clairvoyant optimum; docs/market-policy.md shows how it grows with the beam.

Usage::

    nice python scripts/market_clairvoyant.py --games 200 --beam 300 --out runs/clairvoyant.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from rolling.bots import make_bot
from rolling.core.rng import Rng
from rolling.games.market import rules as R
from rolling.games.market.state import MarketState
from rolling.sim.market import game_seeds

N = R.N_COMPANIES


def dice_schedule(seed: int) -> list[tuple[list[tuple[int, ...]], int]]:
    """The rolls of game ``seed``, grouped by buy/sell turn: ``[(rolls, volatility)]`` x 12.

    ``rolls`` are the four fluctuation dice of each roll leading to the turn (closed turns first,
    then the turn's own roll). Draws the dice exactly as :meth:`MarketState.roll` does.
    """
    rng = Rng(seed)
    turns_left = R.BUY_SELL_TURNS
    out = []
    pending: list[tuple[int, ...]] = []
    while turns_left > 0:
        final = turns_left <= R.FINAL_TURNS
        dice = tuple(rng.randint(1, 6) for _ in range(N))
        vdie = 0 if final else rng.randint(1, 6)
        pending.append(dice)
        if not final and R.is_closed(vdie):
            continue
        turns_left -= 1
        out.append((pending, R.FINAL_VOLATILITY if final else vdie))
        pending = []
    return out


def apply_rolls(values, shares, cash, rolls):
    """Values, shares and cash after ``rolls`` (fluctuations, splits, overflow sales)."""
    values, shares = list(values), list(shares)
    for dice in rolls:
        for c in range(N):
            v, s, split = R.fluctuate(values[c], dice[c], shares[c])
            if split:
                s, _, got = R.overflow_sale(v, s)
                cash += got
            values[c], shares[c] = v, s
    return tuple(values), tuple(shares), cash


def roll_tables(rolls) -> list[list[list[tuple[int, int, int]]]]:
    """``T[c][v][s] = (value, shares, cash gained)`` of company ``c`` after ``rolls``.

    The companies' fluctuations are independent of each other, so a position's next roll is four
    look-ups (:func:`apply_rolls` for one position, this for the thousands the search meets).
    """
    out = []
    for c in range(N):
        by_value = []
        for v in range(R.MAX_VALUE + 1):
            row = []
            for s in range(R.MAX_SHARES + 1):
                if v == 0:
                    row.append((0, s, 0))
                    continue
                vv, ss, cash = v, s, 0
                for dice in rolls:
                    vv, ss, split = R.fluctuate(vv, dice[c], ss)
                    if split:
                        ss, _, got = R.overflow_sale(vv, ss)
                        cash += got
                row.append((vv, ss, cash))
            by_value.append(row)
        out.append(by_value)
    return out


def turn_results(values, shares, cash, vol, final):
    """Every (values, shares, cash) one turn's trades can leave (see the module docstring)."""
    sells = [(None, values, shares, cash)]
    for c in range(N):
        for m in range(1, shares[c] + 1):
            got, after = R.sell_proceeds(values[c], m, vol)
            vs, ss = list(values), list(shares)
            vs[c], ss[c] = after, ss[c] - m
            sells.append((c, tuple(vs), tuple(ss), cash + got))
    out = []
    for sold, vs, ss, money in sells:
        out.append((vs, ss, money))
        for c in range(N):
            if c == sold:
                continue
            for n in range(1, R.MAX_SHARES - ss[c] + 1):
                cost, after = R.buy_cost(vs[c], n, vol)
                if cost > money:
                    break
                v2, s2 = list(vs), list(ss)
                v2[c], s2[c] = after, s2[c] + n
                out.append((tuple(v2), tuple(s2), money - cost))
            if final and sold is not None:
                for m in range(1, ss[c] + 1):
                    got, after = R.sell_proceeds(vs[c], m, vol)
                    v2, s2 = list(vs), list(ss)
                    v2[c], s2[c] = after, s2[c] - m
                    out.append((tuple(v2), tuple(s2), money + got))
    return out


def bot_positions(seed: int, bot_name: str) -> list[tuple[tuple, tuple, int]]:
    """The (values, shares, cash) a bot stands at when each buy/sell turn's trading starts."""
    state = MarketState(seed)
    bot = make_bot("market", bot_name)
    out = []
    turn = state.turns_left
    out.append((tuple(state.values), tuple(state.shares), state.cash))
    while not state.over:
        state.apply(bot.choose(state, 0))
        if not state.over and state.turns_left != turn:
            turn = state.turns_left
            out.append((tuple(state.values), tuple(state.shares), state.cash))
    return out


def clairvoyant(seed: int, beam: int, keep_bots: tuple[str, ...] = ("heuristic",)) -> int:
    """The best final cash the beam search finds for game ``seed`` (dollars)."""
    schedule = dice_schedule(seed)
    kept = [bot_positions(seed, name) for name in keep_bots]
    v0, s0, c0 = apply_rolls((R.START_VALUE,) * N, (0,) * N, R.START_CASH, schedule[0][0])
    layer = {(v0, s0): c0}
    for k, (_rolls, vol) in enumerate(schedule):
        for path in kept:
            v, s, c = path[k]
            if layer.get((v, s), -1) < c:
                layer[(v, s)] = c
        final = k >= R.BUY_SELL_TURNS - R.FINAL_TURNS
        if k == R.BUY_SELL_TURNS - 1:
            # the last turn: selling everything of the two best companies is the best there is
            best = 0
            for (v, s), cash in layer.items():
                gains = sorted((R.sell_proceeds(v[c], s[c], vol)[0] for c in range(N)), reverse=True)
                best = max(best, cash + gains[0] + gains[1])
            return best
        nxt: dict[tuple, int] = {}
        ta, tb, tc, td = roll_tables(schedule[k + 1][0])
        for (v, s), cash in layer.items():
            for vs, ss, money in turn_results(v, s, cash, vol, final):
                a, b, c, d = ta[vs[0]][ss[0]], tb[vs[1]][ss[1]], tc[vs[2]][ss[2]], td[vs[3]][ss[3]]
                key = ((a[0], b[0], c[0], d[0]), (a[1], b[1], c[1], d[1]))
                m2 = money + a[2] + b[2] + c[2] + d[2]
                if nxt.get(key, -1) < m2:
                    nxt[key] = m2
        if len(nxt) > beam:
            def score(item):
                (v, s), cash = item
                return cash + sum(R.sell_proceeds(v[c], s[c], R.FINAL_VOLATILITY)[0] for c in range(N))
            nxt = dict(sorted(nxt.items(), key=score, reverse=True)[:beam])
        layer = nxt
    raise AssertionError("a game has 12 buy/sell turns")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--beam", type=int, nargs="+", default=[300])
    ap.add_argument("--seed", type=int, default=0, help="run seed (the games of `rolling simulate market --seed`)")
    ap.add_argument("--bots", default="heuristic,policy", help="bots whose positions the beam always keeps")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    bots = tuple(b for b in args.bots.split(",") if b)
    seeds = game_seeds(args.seed, args.games)
    result = {"games": args.games, "seed": args.seed, "bots_kept": list(bots), "beams": []}
    for beam in args.beam:
        t = time.time()
        scores = [clairvoyant(s, beam, bots) for s in seeds]
        row = {"beam": beam, "mean": statistics.fmean(scores), "stdev": statistics.stdev(scores),
               "wall_s": round(time.time() - t, 1), "scores": scores}
        result["beams"].append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "scores"}), flush=True)
    if args.out:
        args.out.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
