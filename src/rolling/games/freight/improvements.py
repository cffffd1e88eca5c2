"""E. Purchasing improvements, and what each improvement does.

Pay the card's cost in any-colour dice (one fewer with Acquisition Expert). Bought improvements
take effect at the very end of the turn (after stockpiling, before the roll). A player holds at
most three: taking a fourth returns one of the four to the bottom of the deck. Effects, each
applied where its rule lives:

- Acquisition Expert: one fewer die to take a contract, buy an improvement or build a station
  (:mod:`.contracts`, here, :mod:`.stations`), never for routes.
- Friendly: others pay one die, not two, for each of your links in a route, and you score $1
  more each time another player's route uses your links (:mod:`.routes`). Copies do not add up.
- Efficient Storage: one marker per die, no one-die penalty; with two, basic dice showing two
  colours store both (:mod:`.stockpile`).
- Steady Builder: once per turn per card, one free cube (:mod:`.construction`).
- Extra Resources (Black/Yellow/Red/Blue/Gray Die): the die joins the player's dice from the next
  roll (:mod:`.dice`); a die drafted in the opening draft is rolled at once.

A returned improvement stops working at once, except that a die already rolled stays usable
until the end of the turn.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import events as E
from .actions import BuyImprovement
from .payment import _c_affordable, check_purchase, parse_pay, spend
from .payways import best_payment

RULE = "E. Purchasing Improvements"


def improvement_cost(state, seat: int, name: str) -> int:
    """Any-colour dice to buy improvement ``name``."""
    return _price(state.comp.improvements[name].cost, state.players[seat].has("Acquisition Expert"))


def _price(printed: int, experts: int) -> int:
    """The dice an improvement of ``printed`` cost takes from a player holding ``experts``
    Acquisition Experts: one fewer each, never below none (E)."""
    return max(0, printed - experts)


def affordable(state, seat: int, budget: int) -> list[tuple[int, int]]:
    """``(slot, cost)`` of each improvement on the track that ``seat`` can afford with ``budget``
    dice pips, in track order: :func:`improvement_cost` of each, the Acquisition Expert discount
    read once for them all (issue 34). Read by the C part ``_listing`` where it is built, by
    :func:`_affordable_py`, the reference, where not or where it answers None."""
    if _c_affordable is not None:
        got = _c_affordable(state, seat, budget)
        if got is not None:
            return got
    return _affordable_py(state, seat, budget)


def _affordable_py(state, seat: int, budget: int) -> list[tuple[int, int]]:
    """:func:`affordable` in Python."""
    cards = state.comp.improvements
    off = state.players[seat].improvements.count("Acquisition Expert")  # Player.has, without a method call
    out = []
    for slot, name in enumerate(state.improvement_track):
        if name is not None:
            cost = _price(cards[name].cost, off)
            if cost <= budget:
                out.append((slot, cost))
    return out


def held(state, seat: int) -> list[str]:
    """Improvements the seat holds: those in effect, then those bought this turn."""
    p = state.players[seat]
    return p.improvements + p.pending


def buy(state, a: BuyImprovement) -> None:
    """Buy the improvement in ``a.slot``.

    Raises:
        IllegalAction: no card there; a fourth improvement without a valid ``discard`` (or a
            ``discard`` when none is needed); a wrong payment.
    """
    track = state.improvement_track
    if not 0 <= a.slot < len(track) or track[a.slot] is None:
        raise IllegalAction(RULE, f"there is no improvement in slot {a.slot} of the track")
    name = track[a.slot]
    p = state.players[a.seat]
    n = len(p.improvements) + len(p.pending) + 1  # those held (:func:`held`) and this one
    limit = state.comp.box["max_improvements"]
    if n > limit and not 0 <= a.discard < n:
        raise IllegalAction(RULE, f"you may hold only {limit} improvements: choose one of the {n} to return (discard 0-{n - 1})")
    if n <= limit and a.discard != -1:
        raise IllegalAction(RULE, "you return an improvement only when taking a fourth")
    # improvement_cost, the player already read (Player.has written out, as in affordable: issue 34)
    cost = _price(state.comp.improvements[name].cost, p.improvements.count("Acquisition Expert"))
    if a.pay.strip():
        tokens = parse_pay(a.pay, p, RULE)
        check_purchase(p, tokens, None, cost, "improvement", RULE)
    else:
        tokens = best_payment(state, a.seat, None, cost, "improvement")
        if tokens is None:
            raise IllegalAction(RULE, f"{name} costs {cost} dice; you cannot pay them")
    spend(state, a.seat, tokens)
    track[a.slot] = None
    p.pending.append(name)
    if state.log is not None:
        state.log.append((E.BUY_IMPROVEMENT, E.PUBLIC, a.seat, name, tuple(tokens)))
    if n > limit:
        k = a.discard
        if k < len(p.improvements):
            gone = p.improvements.pop(k)
        else:
            gone = p.pending.pop(k - len(p.improvements))
        state.improvement_deck.insert(0, gone)
        if state.log is not None:
            state.log.append((E.RETURN_IMPROVEMENT, E.PUBLIC, a.seat, gone))
