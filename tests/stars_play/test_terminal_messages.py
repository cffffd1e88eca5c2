"""Issue 11, defects 6 and 7 without a terminal: the warnings a careful player gives before phase
5 (Collect Income) and before an IPO, and messages in the rule book's words."""

import pytest

from rolling.core.errors import IllegalAction
from rolling.games.stars import (
    BuyShare,
    Close,
    Dividend,
    Done,
    FormCorporation,
    Issue,
    LeaveAuction,
    Pass,
    StartAuction,
    actions,
    previews,
)
from rolling.games.stars import data as D
from rolling.games.stars.engine import PHASE_ACTIONS
from rolling.games.stars.state import CORP_BASE
from rolling.ui.stars_input import InputError, cautions, check_phase

from .scenarios import reach


def presides_in_phase4(s):
    return (s.phase == 4 and len(s.to_act) == 1 and any(m.kind is Done for m in s.legal_moves(s.to_act[0]))
            and any(s.president[c] == s.to_act[0] for c in range(D.N_CORPS) if s.corp_active[c]))


def broke(s, c):
    """Make corporation ``c`` unable to pay: the game end card's back ($10 on red to green) on top,
    and no money."""
    s.deck = []
    s.end_flipped = True
    s.corp_cash[c] = 0


def test_defect6_done_in_phase4_warns_of_a_corporation_that_cannot_pay_phase5_collect_income():
    """Collect Income: a corporation that cannot pay a negative income goes bankrupt. Before its
    president declares done in phase 4 they are told, and phase 5 then does what was said."""
    _, s = reach(presides_in_phase4)
    seat = s.to_act[0]
    c = next(c for c in s.active_corps() if s.president[c] == seat)
    broke(s, c)
    income = previews.income(s, CORP_BASE + c).total
    assert income < 0, "the end card's cost makes the corporation's income negative"
    assert CORP_BASE + c in [f.owner for f in previews.phase5_shortfalls(s)]
    question, then = cautions(s, seat, Done(seat))
    assert f"{D.CORP_SYMBOLS[c]} has $0 and an income of -${-income}: it could not pay in phase 5" in question
    assert question.endswith("Done anyway?") and then == [Done(seat)]
    s.enable_log()
    s.apply(Done(seat))  # the last to be done: phase 5 follows
    assert f"{s.corp_name(c)} cannot pay its negative income of ${-income}." in s.log_lines()
    assert not s.corp_active[c]


def test_defect6_no_warning_when_everyone_can_pay():
    _, s = reach(presides_in_phase4)
    seat = s.to_act[0]
    for c in s.active_corps():
        s.corp_cash[c] = 1000
    for p in range(s.n):
        s.cash[p] = 1000
    assert previews.phase5_shortfalls(s) == [] and cautions(s, seat, Done(seat)) is None


def test_defect6_ipo_warns_when_the_player_could_not_pay_phase9_ipo():
    """Form Corporation: the player pays the new corporation; left with too little for the negative
    income of their other companies, they are told before the IPO."""
    _, s = reach(lambda s: s.phase == 9 and any(m.kind is FormCorporation for m in s.legal_moves(s.to_act[0])))
    seat = s.to_act[0]
    m = next(m for m in s.legal_moves(seat) if m.kind is FormCorporation)
    i = D.INDEX[m.args["company"]]
    pay = previews.ipo(D.FACE[i], m.args["price"]).pay
    spare = next(j for j in range(D.N_COMPANIES) if s.company_owner[j] < 0 and D.COLOR[j] == D.RED)
    s.company_owner[spare] = seat
    s.deck, s.end_flipped = [], True  # red companies pay $10 each
    s.cash[seat] = pay
    action = m.action()
    short = previews.ipo_shortfalls(s, seat, i, D.CORP_INDEX[m.args["corporation"]], m.args["price"])
    assert [f.owner for f in short][:1] == [seat] and short[0].cash == 0
    question, then = cautions(s, seat, action)
    assert "You would have $0 and an income of -$" in question and "in the next phase 5" in question
    assert question.endswith("Form it anyway?") and then == [action]


@pytest.mark.parametrize("phase", [1, 3, 4, 6, 8, 9])
def test_defect7_an_action_of_another_phase_is_refused_in_words_not_class_names(phase):
    """The engine and the terminal say "You cannot buy shares in phase 3 (Acquisition)", never a
    class name."""
    _, s = reach(lambda s: s.phase == phase)
    seat = s.to_act[0]
    for cls, words in actions.WORDS.items():
        if cls in PHASE_ACTIONS[phase]:
            continue
        action = {BuyShare: BuyShare(seat, "PR"), Pass: Pass(seat), StartAuction: StartAuction(seat, "BME", 1),
                  LeaveAuction: LeaveAuction(seat), Close: Close(seat, "BME"), Dividend: Dividend(seat, "PR", 1),
                  Issue: Issue(seat, "PR", True), Done: Done(seat)}.get(cls)
        if action is None:
            continue
        with pytest.raises(IllegalAction) as e:
            s.apply(action)
        assert cls.__name__ not in str(e.value) and f"you cannot {words} in phase {phase}" in e.value.reason
        with pytest.raises(InputError, match=f"^You cannot {words}"):
            check_phase(s, action)


def test_defect7_buy_share_in_phase3_reads_as_the_rule_book_says():
    _, s = reach(lambda s: s.phase == 3)
    with pytest.raises(InputError) as e:
        check_phase(s, BuyShare(s.to_act[0], "PR"))
    assert str(e.value) == "You cannot buy shares in phase 3 (Acquisition)."


def test_defect7_an_automatic_leave_says_why_auction():
    """Auction: a player who "cannot raise the bid ... automatically leaves the auction": the log
    says why (their money), to everyone when money is open; with secret money the others read a
    plain leave."""
    _, s = reach(lambda s: any("cannot raise the bid" in x for x in s.log_lines()), log=True)
    line = next(x for x in s.log_lines() if "cannot raise the bid" in x)
    assert line.endswith("(a bid may not exceed their money).") and " leaves the auction: " in line


def test_defect7_no_line_of_a_game_is_logged_twice_in_a_row():
    """What a player reads before a decision is the log: no event is told twice."""
    _, s = reach(lambda s: s.turn == 6, log=True)
    for viewer in (None, 0, 1):
        lines = s.log_lines(viewer)
        assert len(lines) > 100
        assert all(a != b for a, b in zip(lines, lines[1:], strict=False))
