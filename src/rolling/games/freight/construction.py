"""B: Constructing links, and scoring a completed contract.

Each die spent must show the link's colour (a split die pays either of its colours, or an ocean
link) and adds one cube; a stockpile marker pays as a die of its colour. The improvement dice's
*cubes* symbol adds one or two cubes to one contract (the player's choice), the *wild* symbol
one cube to any link. Every cube comes from the player's supply of 20 (Equipment): cubes on
unfinished contracts are out of it until the contract completes, so a build may add no more
cubes than are left. A contract completes the moment its last square fills: it scores at once
from the table (length by contracts in progress, the completed one included), the cubes come
back and a link stick marks the link as the player's.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import events as E
from .actions import Build, SteadyBuild
from .payment import auto_build, build_range, parse_pay, spend

RULE = "B: Constructing Links"


def contract_score(comp, length: int, in_progress: int) -> int:
    """Stock for completing a contract of ``length`` (2-8) with ``in_progress`` contracts (1-3).

    Example from the text: length 6 with two contracts in progress scores 6.
    """
    return comp.scoring[in_progress][length]


def cubes_left(state, seat: int) -> int:
    """Construction cubes in the seat's supply: 20 (Equipment) less those on its unfinished contracts."""
    return state.comp.box["cubes_per_player"] - state.cubes_in_use(seat)


def _own_contract(state, seat: int, link_id: int, rule: str):
    links = state.map.links
    for i in state.players[seat].contracts:  # the seat's (at most three) contracts: the usual case
        if links[i].id == link_id:
            return links[i]
    state.link_by_id(link_id)  # raises for no such link on this map (a map's link ids are distinct)
    raise IllegalAction(rule, f"you have no contract on link {link_id}")


def complete(state, seat: int, index: int) -> None:
    """Score a completed contract: stock, cubes back, a stick on the link."""
    p = state.players[seat]
    link = state.map.links[index]
    pts = contract_score(state.comp, link.length, len(p.contracts))
    p.stock += pts
    p.contracts.remove(index)
    state.holder[index] = -1
    state.cubes[index] = 0
    state.owner[index] = seat
    p.links_owned += 1
    state.completed.append(index)
    if state.log is not None:
        state.log.append((E.COMPLETE, E.PUBLIC, seat, index, pts))


def build(state, a: Build) -> None:
    """Add ``a.cubes`` cubes (0: as many as the payment can) to one of your contracts.

    With an empty ``pay`` the engine chooses the dice (:func:`.payment.auto_build`), never more
    than the link's empty squares or the cubes left in your supply.

    Raises:
        IllegalAction: not your contract, a die or marker that cannot build this link, a die that
            would add no cube (beyond the last square or the cubes left), a number of cubes the
            payment cannot add, or no construction cube left in your supply.
    """
    link, tokens, added = plan_build(state, a)
    seat = a.seat
    index = link.index
    if state.log is not None:
        state.log.append((E.BUILD, E.PUBLIC, seat, added, index, tuple(tokens)))
    spend(state, seat, tokens)
    cubes = state.cubes
    cubes[index] += added
    if cubes[index] >= link.length:
        complete(state, seat, index)


def plan_build(state, a: Build) -> tuple:
    """Check a build without making it: ``(link, payment tokens, cubes it adds)``.

    Raises:
        IllegalAction: as :func:`build`.
    """
    seat = a.seat
    asked = a.cubes
    link = _own_contract(state, seat, a.link, RULE)
    p = state.players[seat]
    remaining = link.length - state.cubes[link.index]
    left = cubes_left(state, seat)
    if asked < 0:
        raise IllegalAction(RULE, f"cannot add {asked} cubes")
    if left <= 0:
        raise IllegalAction(RULE, f"all {state.comp.box['cubes_per_player']} of your construction cubes are on "
                                  "your unfinished contracts")
    cap = min(remaining, left)
    colour = link.colour
    if a.pay.strip():
        tokens = parse_pay(a.pay, p, RULE)
    else:
        tokens, _ = auto_build(p, colour, min(cap, asked) if asked else cap)
    if not tokens:
        raise IllegalAction(RULE, f"you have no die that can build {link.label}")
    lo, hi = build_range(p, tokens, colour, RULE)
    if lo > remaining:
        raise IllegalAction(RULE, f"{link.label} has {remaining} empty square(s); these dice add at least {lo} cubes")
    if lo > left:
        raise IllegalAction(RULE, f"you have {left} construction cube(s) left; these dice add at least {lo}")
    if asked:
        if not lo <= asked <= hi:
            raise IllegalAction(RULE, f"these dice add {lo}" + (f" to {hi}" if hi > lo else "") + f" cubes, not {asked}")
        if asked > remaining:
            raise IllegalAction(RULE, f"{link.label} has only {remaining} empty square(s)")
        if asked > left:
            raise IllegalAction(RULE, f"you have only {left} construction cube(s) left")
        added = asked
    else:
        added = min(hi, cap)
    return link, tokens, added


def steady_build(state, a: SteadyBuild) -> None:
    """Steady Builder: once per turn per card, add a cube to a link you are constructing.

    Raises:
        IllegalAction: no Steady Builder left to use this turn, or not your contract.
    """
    rule = "E. Purchasing Improvements: Steady Builder"
    seat = a.seat
    if state.steady_used >= state.players[seat].has("Steady Builder"):
        raise IllegalAction(rule, "no Steady Builder left to use this turn")
    link = _own_contract(state, seat, a.link, rule)
    if cubes_left(state, seat) <= 0:
        raise IllegalAction(rule, f"all {state.comp.box['cubes_per_player']} of your construction cubes are on "
                                  "your unfinished contracts")
    index = link.index
    state.steady_used += 1
    cubes = state.cubes
    cubes[index] += 1
    if state.log is not None:
        state.log.append((E.STEADY_BUILD, E.PUBLIC, seat, index))
    if cubes[index] >= link.length:
        complete(state, seat, index)
