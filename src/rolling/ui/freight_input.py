"""What a Rolling Freight player types, read into engine actions (for :mod:`.freight`).

Everything a player types counts from 1, as the screen shows it: menu moves, dice (``pay 1 4
blue``), the slots of the contract and improvement tracks (``take 2``). The engine's actions
count dice and slots from 0; :func:`parse` converts. A link is named as the screen names it: by
its card (``Gray 2A``), its printed number (``L28`` or ``28``) or both (``Gray 2A L28``); a city
by its name, in any case (``san francisco``). A bad line raises ``ValueError`` with one line in
the rule book's words and nothing changes.
"""

from __future__ import annotations

from rolling.core.whole import parse_whole
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    DraftContract,
    DraftImprovement,
    EndTurn,
    EstablishRoute,
)
from rolling.games.freight.actions import TakeContract as TakeContract
from rolling.games.freight.components import COLOURS, OCEAN
from rolling.games.freight.routes import link_cost

#: words that may stand between the stops of a typed route, for reading ease
ROUTE_FILLERS = {"from", "to", "via", "->", ">", "-", "then"}
#: the card names' colour words (Slash: an ocean link)
CARD_COLOURS = {"blue": "blue", "gray": "gray", "grey": "gray", "red": "red", "yellow": "yellow", "slash": OCEAN}


# -- names --------------------------------------------------------------------------------------


def read_link(st, words: list[str], i: int):
    """Read a link named at ``words[i]``: ``L28``, ``28``, ``Gray 2A`` or ``Gray 2A L28``.

    Returns:
        ``(link, next index)``, or ``(None, i)`` when no link is named there.

    Raises:
        ValueError: a card name and a number that name two different links, or a card or
            number that is not on this map.
    """
    links = st.map.links
    w = words[i].lower() if i < len(words) else ""
    if w in CARD_COLOURS and i + 1 < len(words):
        label = f"{words[i].capitalize() if w != 'grey' else 'Gray'} {words[i + 1].upper()}"
        found = next((ln for ln in links if ln.label.lower() == label.lower()), None)
        if found is None:
            raise ValueError(f"there is no contract card {label} on this map")
        j = i + 2
        # after a card's name only ``L28`` is its number: a bare number there is a count of cubes
        if j < len(words) and words[j][:1] in "lL" and _link_number(words[j]) is not None:
            if _link_number(words[j]) != found.id:
                raise ValueError(f"{found.label} is link L{found.id}, not {words[j]}")
            j += 1
        return found, j
    n = _link_number(w)
    if n is None:
        return None, i
    for ln in links:
        if ln.id == n:
            return ln, i + 1
    raise ValueError(f"there is no link L{n} on this map (L1-L{max(ln.id for ln in links)})")


def _link_number(word: str) -> int | None:
    w = word.lower()
    return parse_whole(w[1:] if w.startswith("l") else w)


def read_city(st, words: list[str], i: int) -> tuple[int | None, int]:
    """Read a city's full name (one to three words, any case) at ``words[i]``: ``(index, next
    index)``, or ``(None, i)``."""
    names = {c.name.lower(): c.index for c in st.map.cities}
    for k in (3, 2, 1):
        if i + k <= len(words):
            idx = names.get(" ".join(words[i:i + k]).lower())
            if idx is not None:
                return idx, i + k
    return None, i


def find_city(st, text: str) -> int:
    """The city named (or uniquely begun) by ``text``, any case.

    Raises:
        ValueError: no such city, or several cities begin so.
    """
    want = " ".join(text.split()).lower()
    cities = st.map.cities
    exact = [c.index for c in cities if c.name.lower() == want]
    if exact:
        return exact[0]
    begun = [c for c in cities if c.name.lower().startswith(want)]
    if len(begun) == 1:
        return begun[0].index
    if begun:
        raise ValueError(f"{text!r} could be {', '.join(c.name for c in begun)}: say which")
    raise ValueError(f"there is no city {text!r} on the {st.map.title} map")


# -- payments -----------------------------------------------------------------------------------


def engine_pay(st, seat: int, words: list[str]) -> str:
    """A typed payment (dice numbered from 1, markers by colour) as the engine's ``pay`` string
    (dice from 0).

    Raises:
        ValueError: a die that is not there, already spent or named twice, or a word that is
            neither a die nor a colour.
    """
    p = st.players[seat]
    out = []
    seen: set[int] = set()
    for word in " ".join(words).replace(",", " ").split():
        w = word.lower()
        n = parse_whole(w)
        if n is not None:
            if not 1 <= n <= len(p.dice):
                raise ValueError(f"there is no die {n}: your dice are 1-{len(p.dice)}")
            if p.spent[n - 1] or n in seen:
                raise ValueError(f"die {n} is already spent")
            seen.add(n)
            out.append(str(n - 1))
        elif w in COLOURS:
            out.append(w)
        else:
            raise ValueError(f"cannot pay with {word!r}: name dice by number (from 1) and markers by colour")
    return " ".join(out)


def _split_pay(st, seat: int, words: list[str]) -> tuple[list[str], str]:
    low = [w.lower() for w in words]
    if "pay" not in low:
        return words, ""
    k = low.index("pay")
    if k + 1 == len(words):
        raise ValueError("'pay' needs dice numbers or marker colours after it")
    return words[:k], engine_pay(st, seat, words[k + 1:])


# -- the commands -------------------------------------------------------------------------------


def parse(line: str, st, moves: list):
    """A typed line: ``(kind, action_or_argument)``.

    ``kind`` is ``"move"`` (an action to apply), ``"map"`` (argument: a city index or ``None``
    for the whole map), ``"board"`` (argument: a file name or ``None``), ``"dice"`` or ``"menu"``.

    Raises:
        ValueError: with one line for the player; nothing has changed.
    """
    words = line.strip().split()
    if not words:
        raise ValueError("type a move number or a command ('help' lists them)")
    cmd = words[0].lower()
    if cmd in ("dice", "menu", "m"):
        return ("menu" if cmd == "m" else cmd), None
    if cmd == "map":
        return "map", (find_city(st, " ".join(words[1:])) if len(words) > 1 else None)
    if cmd == "board":
        if len(words) > 2:
            raise ValueError("write it as 'board' or 'board FILE.png'")
        return "board", (words[1] if len(words) == 2 else None)
    seat = st.to_act[0]
    words, pay = _split_pay(st, seat, words)
    if cmd.isdigit():  # any script's digits: _menu_move reads ASCII ones only
        return "move", _menu_move(words, moves, pay)
    if cmd in ("take", "t"):
        return "move", _take(st, seat, words, pay)
    if cmd in ("buy",):
        return "move", _buy(st, seat, words, pay)
    if cmd in ("build", "b"):
        return "move", _build(st, seat, words, pay)
    if cmd in ("ship", "route", "r"):
        return "move", ship(st, seat, words[1:], pay, moves)
    if cmd in ("station", "s"):
        if len(words) > 1:
            raise ValueError(f"write it as '{cmd}' or '{cmd} pay ...'")
        return "move", BuildStation(seat, pay)
    if cmd in ("end", "e", "done", "d"):
        if pay:
            raise ValueError("ending the turn takes no payment; 'end blue' stockpiles a split die as blue")
        return "move", EndTurn(seat, ",".join(w.lower() for w in words[1:]))
    raise ValueError(f"unknown command {words[0]!r} ('help' lists them)")


def _menu_move(words: list[str], moves: list, pay: str):
    n = parse_whole(words[0])
    if n is None:
        raise ValueError(f"{words[0]!r} is not a move number: type it with the digits 0-9")
    if len(words) > 1:
        raise ValueError(f"write it as '{n}' or '{n} pay ...'")
    if not 1 <= n <= len(moves):
        raise ValueError(f"there is no move {n} (the menu has 1-{len(moves)})")
    a = moves[n - 1]
    if pay:
        if not hasattr(a, "pay"):
            raise ValueError("that move takes no payment")
        a = type(a)(**{**{f: getattr(a, f) for f in a.__dataclass_fields__}, "pay": pay})
    return a


def _slot(track: list, words: list[str], what: str, cmd: str) -> int:
    """A slot typed from 1 (as the screen shows the tracks), to the engine's index from 0."""
    s = parse_whole(words[1]) if len(words) == 2 else None
    if s is None:
        raise ValueError(f"write it as '{cmd} S' (S: the {what} track's slot, 1-{len(track)}), optionally 'pay ...'")
    if not 1 <= s <= len(track) or track[s - 1] is None:
        raise ValueError(f"there is no {what} in slot {s} of the {what} track")
    return s - 1


def _take(st, seat: int, words: list[str], pay: str):
    """``take S`` or ``take LINK``: the contract in that slot (in the opening draft, a free pick)."""
    track = st.contract_track
    if len(words) >= 2 and not words[1].isdigit():  # a slot: see _slot
        ln, j = read_link(st, words, 1)
        if ln is None or j != len(words):
            raise ValueError(f"write it as '{words[0]} S' (a slot, 1-{len(track)}) or '{words[0]} Gray 2A'")
        if ln.index not in track:
            raise ValueError(f"{ln.label} L{ln.id} is not on the contract track")
        slot = track.index(ln.index)
    else:
        slot = _slot(track, words, "contract", words[0])
    if st.stage == "draft":
        if pay:
            raise ValueError("a draft pick is free: it takes no payment")
        return DraftContract(seat, slot)
    return TakeContract(seat, slot, pay)


def _buy(st, seat: int, words: list[str], pay: str):
    """``buy S`` or ``buy NAME``: the improvement in that slot (in the opening draft, a free pick)."""
    track = st.improvement_track
    if len(words) >= 2 and not words[1].isdigit():  # a slot: see _slot
        name = " ".join(words[1:]).lower()
        slots = [k for k, m in enumerate(track) if m and m.lower() == name]
        if not slots:
            raise ValueError(f"there is no improvement {' '.join(words[1:])!r} on the improvement track")
        slot = slots[0]
    else:
        slot = _slot(track, words, "improvement", "buy")
    if st.stage == "draft":
        if pay:
            raise ValueError("a draft pick is free: it takes no payment")
        return DraftImprovement(seat, slot)
    return BuyImprovement(seat, slot, -1, pay)


def _build(st, seat: int, words: list[str], pay: str):
    """``build LINK [CUBES]``."""
    usage = (f"write it as '{words[0]} L' (L: your contract's link, 'Gray 2A', 'L28' or '28') or "
             f"'{words[0]} L CUBES', optionally 'pay ...'")
    if len(words) < 2:
        raise ValueError(usage)
    ln, j = read_link(st, words, 1)
    if ln is None:
        raise ValueError(usage)
    cubes = 0
    if j < len(words):
        cubes = parse_whole(words[j]) if j + 1 == len(words) else None
        if cubes is None or cubes < 1:
            raise ValueError(usage)
    if ln.index not in st.players[seat].contracts:
        raise ValueError(f"you have no contract on {ln.label} L{ln.id}: you build only on your own contracts")
    return Build(seat, ln.id, pay, cubes)


def ship(st, seat: int, words: list[str], pay: str, moves: list) -> EstablishRoute:
    """C: a major route typed as ``[COLOUR] CITY STOP ... CITY``: the cargo's colour (optional
    when the first city has one cargo the last wants), then the cities it passes (``Fresno
    Stockton Oakland``) or the links it takes (``Fresno L31 L24``), or both. Given only its two
    ends, the route is the menu's one between them.

    Raises:
        ValueError: an unknown word, a stop not joined to the one before by a completed link, or
            two ends between which the menu has no route or several.
    """
    usage = "write it as 'ship [COLOUR] CITY ... CITY' (the cities or links on the way), optionally 'pay ...'"
    words = [w for w in words if w.lower() not in ROUTE_FILLERS]
    colour = None
    if words and words[0].lower() in COLOURS:
        colour = words[0].lower()
        words = words[1:]
    origin, i = read_city(st, words, 0)
    if origin is None:
        raise ValueError(usage if not words else f"a route starts at a city: {words[0]!r} is not one")
    cities = st.map.cities
    dest, j = read_city(st, words, i)
    if dest is not None and j == len(words):
        # only the ends were typed: the menu's route between them, when there is exactly one
        colour = colour or _cargo_colour(st, origin, dest)
        ends = [a for a in moves if isinstance(a, EstablishRoute) and a.origin == cities[origin].name
                and a.dest == cities[dest].name and a.colour == colour]
        if len(ends) == 1:
            return EstablishRoute(seat, ends[0].origin, colour, ends[0].dest, ends[0].path, pay)
        if len(ends) > 1:
            numbers = ", ".join(str(moves.index(a) + 1) for a in ends)
            raise ValueError(f"{len(ends)} routes take {colour} cargo from {cities[origin].name} to "
                             f"{cities[dest].name} (moves {numbers}): name the cities on the way")
        if not any(st.owner[ln.index] >= 0 and {ln.a, ln.b} == {origin, dest} for ln in st.map.links):
            raise ValueError(f"you have no major route for {colour} cargo from {cities[origin].name} to "
                             f"{cities[dest].name} now: name the cities on the way")
    here = origin
    path: list[int] = []
    while i < len(words):
        city, j = read_city(st, words, i)
        if city is not None:
            path.append(_best_link(st, seat, here, city))
            here, i = city, j
            continue
        ln, j = read_link(st, words, i)
        if ln is None:
            raise ValueError(f"{words[i]!r} is neither a city nor a link on this map")
        if here not in (ln.a, ln.b):
            raise ValueError(f"{ln.label} L{ln.id} does not leave {cities[here].name}")
        here = ln.b if here == ln.a else ln.a
        path.append(ln.index)
        i = j
    if not path:
        raise ValueError(f"name where the cargo goes: {usage}")
    if colour is None:
        colour = _cargo_colour(st, origin, here)
    links = st.map.links
    return EstablishRoute(seat, cities[origin].name, colour, cities[here].name,
                          ",".join(str(links[k].id) for k in path), pay)


def _best_link(st, seat: int, a: int, b: int) -> int:
    """The completed link joining cities ``a`` and ``b`` that costs ``seat`` the fewest dice
    (the lowest number among equals); a route's typed cities leave the choice to the player's
    purse."""
    joined = [ln for ln in st.map.links if {ln.a, ln.b} == {a, b}]
    cities = st.map.cities
    if not joined:
        raise ValueError(f"no link joins {cities[a].name} and {cities[b].name}")
    done = [ln for ln in joined if st.owner[ln.index] >= 0]
    if not done:
        raise ValueError(f"no completed link joins {cities[a].name} and {cities[b].name} "
                         "(a major route uses completed links only)")
    return min(done, key=lambda ln: (link_cost(st, seat, ln.index), ln.id)).index


def _cargo_colour(st, origin: int, dest: int) -> str:
    """The colour of the cargo in ``origin`` that ``dest`` wants, when there is one."""
    cities = st.map.cities
    have = list(dict.fromkeys(st.cargo[origin]))
    if not have:
        raise ValueError(f"there is no cargo marker in {cities[origin].name}")
    wanted = [c for c in have if st.open_demand(dest, c)]
    if len(wanted) == 1:
        return wanted[0]
    if not wanted:
        raise ValueError(f"{cities[dest].name} has no open demand for the cargo in {cities[origin].name} "
                         f"({', '.join(have)})")
    raise ValueError(f"say which cargo: {' or '.join(wanted)} (e.g. 'ship {wanted[0]} ...')")
