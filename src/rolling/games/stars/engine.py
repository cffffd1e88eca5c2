"""The turn sequence of Rolling Stock Stars: dispatching actions to the phase that owns them and
running every automatic step until a player must decide.

Each phase module offers ``enter(s)`` (start of the phase, automatic work), ``step(s) -> bool``
(automatic work; True when the phase is over), ``to_act(s)``, ``moves(s, seat)`` and
``apply(s, action)`` (checks everything, raises IllegalAction before changing anything).
"""

from __future__ import annotations

from rolling.core.action import check_fields, exact_check
from rolling.core.errors import IllegalAction

from . import closing, deals, dividends, end_card, income, investment, ipo, issue_shares, wrap_up
from . import events as E
from .actions import (
    ACTIONS,
    WORDS,
    Bid,
    BuyShare,
    Close,
    Deal,
    DeclineIpo,
    Dividend,
    Done,
    FormCorporation,
    Issue,
    LeaveAuction,
    Offer,
    Pass,
    Respond,
    RespondDeal,
    SellShare,
    StartAuction,
)
from .config import Config
from .moves import Move
from .setup import setup
from .state import PHASE_NAMES, StarsState
from .view import view

PHASES = {
    1: investment,
    2: wrap_up,
    3: deals,  # phase 3: Acquisition (module acquisition), with the variant deals when it is on
    4: closing,
    5: income,
    6: dividends,
    7: end_card,
    8: issue_shares,
    9: ipo,
}


def new_game(config: Config | None = None, seed: int = 0, draw=None) -> StarsState:
    """A new game after setup, waiting for the first decision of phase 1.

    Args:
        config: the setup (default: 4 players, Rolling Stock Stars edition).
        seed: seeds the player order and the deck.
        draw: an :class:`~rolling.core.rng.Rng` whose uniform draws deal the deck and the player
            order instead (see :func:`.setup.deal_deck`; the OpenSpiel games' chance nodes).

    Raises:
        RecordError: an invalid config.
    """
    config = (config or Config()).validate()
    s = setup(config, seed, draw)
    investment.enter(s)
    run(s)
    return s


def run(s: StarsState, on_phase=None) -> None:
    """Run automatic steps and phases until a decision is needed or the game is over.

    ``on_phase(s)``, if given, is called as each phase begins, after its automatic start (an
    importer uses it to see phases the engine runs through without a decision).
    """
    while not s.over:
        if not _STEPS[s.phase](s):
            return
        if s.phase == 9:
            s.turn += 1
            s.phase = 1
        else:
            s.phase += 1
        if s.log is not None:
            s.log.append((E.PHASE, E.PUBLIC, s.turn, s.phase))
        PHASES[s.phase].enter(s)
        if on_phase is not None:
            on_phase(s)


def to_act(s: StarsState) -> tuple[int, ...]:
    """Seats that may act now (several in the any-order phases 3 and 4); empty when over. Also the
    property ``StarsState.to_act``."""
    if s.over:
        return ()
    return PHASES[s.phase].to_act(s)


def legal_moves(s: StarsState, seat: int) -> list[Move]:
    """The legal actions of ``seat`` in compact form (empty if it may not act): a list of
    :class:`~.moves.Move`, each an action template with an optional inclusive range for its one
    numeric field. Also the method ``StarsState.legal_moves(seat)``."""
    if s.over or not 0 <= seat < s.n:
        return []
    return PHASES[s.phase].moves(s, seat)


def legal_actions(s: StarsState, seat: int) -> list:
    """Every legal action of ``seat``, numeric ranges enumerated (see :func:`legal_moves`). Also
    the method ``StarsState.legal_actions(seat)``."""
    out = []
    for m in legal_moves(s, seat):
        out.extend(m.actions())
    return out


def apply(s: StarsState, action, on_phase=None) -> None:
    """Apply a legal action, then every automatic step until a seat must decide (``on_phase``:
    see :func:`run`). This is also the method ``StarsState.apply(action)``.

    Raises:
        IllegalAction: the action breaks a rule (named in the error); nothing changed.
    """
    if s.over:
        raise IllegalAction("Game End", "the game is over")
    phase = s.phase
    exact = _EXACT[phase].get(type(action))  # the fast test of check_fields, by phase and class
    if exact is None:
        if type(action) not in _CLASSES:
            raise IllegalAction("Actions", f"{action!r} is not a Rolling Stock Stars action")
        raise IllegalAction(f"Phase {phase}: {PHASE_NAMES[phase]}", wrong_phase(s, action))
    if not exact(action):
        check_fields(action, "Actions")  # e.g. Glossary, Money: "Only integer ● amounts of money are possible"
    if not 0 <= action.seat < s.n:
        raise IllegalAction("Actions", f"there is no seat {action.seat}")
    _APPLIES[phase](s, action)
    run(s, on_phase)


def wrong_phase(s: StarsState, action) -> str | None:
    """Why ``action`` is no action of the phase being played, in the rule book's words ("you
    cannot buy shares in phase 3 (Acquisition)"), or None when it is one."""
    if type(action) in _PHASE_CLASSES[s.phase]:
        return None
    return f"you cannot {WORDS.get(type(action), 'do that')} in phase {s.phase} ({PHASE_NAMES[s.phase]})"


#: the actions each phase takes (phases 2, 5 and 7 take none: they never wait for a decision)
PHASE_ACTIONS: dict[int, tuple[type, ...]] = {
    1: (Pass, StartAuction, Bid, LeaveAuction, BuyShare, SellShare),
    3: (Offer, Respond, Done, Deal, RespondDeal),
    4: (Close, Done),
    6: (Dividend,),
    8: (Issue,),
    9: (FormCorporation, DeclineIpo),
}
_CLASSES = frozenset(ACTIONS.values())
_PHASE_CLASSES = tuple(frozenset(PHASE_ACTIONS.get(k, ())) for k in range(10))
# by phase, the exact-kind test (check_fields' fast path) of each action class the phase takes:
# one lookup says both whether the phase takes the action and how to test its fields
_EXACT = tuple({cls: exact_check(cls) for cls in PHASE_ACTIONS.get(k, ())} for k in range(10))
# PHASES' functions by phase number, looked up once (the dispatch of every action)
_STEPS = (None, *(PHASES[k].step for k in range(1, 10)))
_APPLIES = (None, *(getattr(PHASES[k], "apply", None) for k in range(1, 10)))  # 2, 5, 7 never wait

# The state's rule methods, bound here at the top so that the state (at the bottom) imports none
# of the rules: a reader follows the imports one way (docs/stars-engine.md, "Layers").
StarsState.to_act = property(to_act)  # type: ignore[assignment]
StarsState.legal_actions = legal_actions  # type: ignore[attr-defined]
StarsState.legal_moves = legal_moves  # type: ignore[attr-defined]
StarsState.apply = apply  # type: ignore[attr-defined]
StarsState.view = view  # type: ignore[attr-defined]
StarsState.enable_log = E.enable_log  # type: ignore[attr-defined]
StarsState.log_lines = E.lines  # type: ignore[attr-defined]
