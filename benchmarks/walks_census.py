"""Which payment walks Rolling Freight's listings make (issue 34): a census, not a timing.

Run: ``python benchmarks/walks_census.py [FIRST] [GAMES]``. Plays the random 3-player West Coast
games ``FIRST`` .. ``FIRST + GAMES - 1`` (default 1 .. 5, the games of issue 34's callgrind
figures in docs/freight-components.md), records every walk of the fronts (:func:`rolling.games.freight.payways._fronts`;
a memo hit is no walk) and which listing (``legal._runs``) asked for it, and prints one JSON line:
the walks an action, the walks by kind (``contract``: a TakeContract's, one die of the contract's
colour and the contract taken among those to build; ``buy``: the improvements' and station's, one
walk for all their prices; ``route``: the major routes'), how many listings make 0, 1, 2, ...
contract walks, and how many contract walks repeat the colour or the colour and contract taken of
an earlier one of their listing, and how many walks repeat an earlier walk's arguments.

What it found at 1030b18 (games 1-5, 2139 actions): 2.31 walks an action, 3096 contract, 1210
buy, 642 route walks; the listings that take contracts walk 3-4 of them (479 listings 4, 258
three), each its own walk (a different colour die or contract taken; no two walks of the games
alike), so sharing one enumeration among a listing's contract walks needs the listing to ask for
them together.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from rolling.bots import make_bot
from rolling.games.freight import Config, legal, new_game, payways
from rolling.sim import play_game


def census(first: int = 1, games: int = 5) -> dict:
    """The census of the games ``first`` .. ``first + games - 1`` (module docstring)."""
    runs = legal._runs
    listings: list[list[tuple]] = []
    actions = 0
    with payways.recorded_walks() as walks:

        def counted(state, seat, listed):
            n = len(walks)
            out = runs(state, seat, listed)
            listings.append(walks[n:])
            return out

        legal._runs = counted  # the compiled legal calls it by its module's name
        try:
            for g in range(first, first + games):
                payways.clear_caches()
                state = new_game(Config("west-coast", 3), g)
                actions += len(play_game(state, [make_bot("freight", "random", g * 10 + i) for i in range(3)]))
        finally:
            legal._runs = runs
    kinds: Counter = Counter()
    per_listing: Counter = Counter()
    same_colour = same_take = 0
    for found in listings:
        contract = [w for w in found if w[2] is not None]
        per_listing[len(contract)] += 1
        colours = Counter(w[2] for w in contract)
        takes = Counter((w[2], w[5][-1]) for w in contract)
        same_colour += sum(v - 1 for v in colours.values())
        same_take += sum(v - 1 for v in takes.values())
        for w in found:
            kinds["contract" if w[2] is not None else w[3]] += 1
    seen: set = set()
    again = 0
    for w in walks:
        again += w in seen
        seen.add(w)
    return {"actions": actions, "listings": len(listings), "walks": len(walks),
            "walks_an_action": round(len(walks) / max(actions, 1), 3), "by_kind": dict(kinds),
            "contract_walks_a_listing": dict(sorted(per_listing.items())),
            "contract_same_colour": same_colour, "contract_same_take": same_take, "repeated": again}


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(census(*args)))
