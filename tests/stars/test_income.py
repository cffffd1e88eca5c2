"""Phase 5: Income, Collect Income, synergies and cost of ownership (with the rule book's numbers)."""

from rolling.games.stars import data as D
from rolling.games.stars.procedures import income_breakdown, income_of, synergy_pairs
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR

from .conftest import blank, corp, give, goto, idx, stack_deck

SYN = ["DSB", "MS", "BPM", "BSE"]


def synergistic():
    s = blank(3, cash=[30, 30, 30])
    c = corp(s, "S", SYN, 22, cash=21, issued=3, holders={0: 2})
    return s, c


def test_synergy_example_synergistic_earns_18():
    """Synergy example: DSB, MS, BPM, BSE: base 11, synergies 2+1+1+1 = 5, four markers +2: $18."""
    s, c = synergistic()
    inc = income_breakdown(s, CORP_BASE + c)
    assert inc["printed"] == 11 and inc["synergy"] == 5 and inc["bonus"] == 2 and inc["total"] == 18
    assert len(synergy_pairs([idx(x) for x in SYN])) == 4, "each pair counts once"


def test_cost_of_ownership_examples():
    """Cost of ownership examples: green top card $14, blue top card $6, game end card front -$10;
    closing the reds under a blue top card still gives $6; with only the DSB left at $7: -$2."""
    s, c = synergistic()
    stack_deck(s, "SZD")
    assert income_of(s, CORP_BASE + c) == 14
    stack_deck(s, "HH")
    assert income_of(s, CORP_BASE + c) == 6
    s.deck = []
    assert income_of(s, CORP_BASE + c) == -10
    stack_deck(s, "HH")
    s.company_owner[idx("BPM")] = -3
    s.company_owner[idx("BSE")] = -3
    assert income_of(s, CORP_BASE + c) == 6
    s.deck = []
    s.company_owner[idx("MS")] = -3
    assert income_of(s, CORP_BASE + c) == -2


def test_no_synergy_for_players_or_foreign_investor():
    """Easily missed rules: synergies are only possible within a corporation."""
    s = blank(3)
    for code in SYN:
        give(s, code, 0)
    assert income_of(s, 0) == 11
    s2 = blank(3)
    for code in SYN:
        give(s2, code, FOREIGN_INVESTOR)
    assert income_of(s2, FOREIGN_INVESTOR) == 11 + 5, "the foreign investor adds $5"


def test_prussian_railway_doppler_vintage():
    """Collect Income: Prussian Railway +$1 per company; Doppler AG doubles the printed income of its
    highest face value company; Vintage Machinery reduces its cost of ownership by up to $10."""
    s = blank(3)
    pr = corp(s, "PR", ["BME", "KME"], 11, holders={0: 1})
    assert income_of(s, CORP_BASE + pr) == 1 + 2 + 1 + 2  # incomes, BME-KME synergy 1, +1 per company
    da = corp(s, "DA", ["WT", "DSB"], 20, holders={1: 1})
    assert income_of(s, CORP_BASE + da) == 3 + 5 + 5
    vm = corp(s, "VM", ["BY", "BD", "HE", "AKE"], 16, holders={2: 1})
    s.deck = []  # game end card front: $7 on red, orange, yellow
    inc = income_breakdown(s, CORP_BASE + vm)
    assert inc["cost"] == 28 - 10
    s.company_owner[idx("BY")] = s.company_owner[idx("BD")] = s.company_owner[idx("HE")] = -3
    assert income_breakdown(s, CORP_BASE + vm)["cost"] == 0, "cannot become negative"


def test_phase_5_pays_and_bankrupts_a_corporation_that_cannot_pay():
    """Collect Income: a negative result is paid; a corporation unable to pay Goes Bankrupt."""
    s = blank(3, cash=[10, 0, 0])
    give(s, "BME", 0)
    c = corp(s, "JS", ["KME", "AKE"], 11, cash=3, holders={1: 1})
    s.deck = []
    goto(s, 5)
    assert s.cash[0] == 10 - 6
    assert not s.corp_active[c]
    assert s.fi_cash == 4 + 5


def test_cost_of_ownership_by_top_card():
    """Glossary, Cost of Ownership: green top card: red $2; blue: red and orange $4; game end card
    front $7 on red, orange, yellow; flipped $10 on green too."""
    s = blank(3)
    stack_deck(s, "SZD")
    assert s.cost_of_ownership() == (2, 1 << D.RED)
    stack_deck(s, "HH")
    assert s.cost_of_ownership()[0] == 4
    s.deck = []
    assert s.company_cost(idx("DR")) == 7 and s.company_cost(idx("SZD")) == 0
    s.end_flipped = True
    assert s.company_cost(idx("SZD")) == 10 and s.company_cost(idx("HH")) == 0


def test_phase_5_pays_what_income_of_says_for_every_entity():
    """Collect Income (issue 34, replay speed: phase 5 sums players' and the foreign investor's
    income in one pass from a table per cost of ownership): at every phase 5 of random games, with
    every cost of ownership the deck and the end card set, each player, the foreign investor and
    each corporation that can pay receives exactly income_of's total."""
    from rolling.core.rng import Rng
    from rolling.games.stars import Config, income, new_game

    seen = set()
    for seed in range(10):
        rng = Rng(seed)
        s = new_game(Config(players=2 + seed % 5), seed)
        while not s.over:
            if s.phase == 4:  # the state phase 5 starts from, once every closing is done
                t = s.clone()
                t.done = (1 << t.n) - 1
                t.phase = 5
                seen.add(t.cost_of_ownership())
                want = {o: income_of(t, o) for o in [*range(t.n), FOREIGN_INVESTOR]}
                corps = {c: income_of(t, CORP_BASE + c) for c in range(D.N_CORPS) if t.corp_active[c]}
                before = (list(t.cash), t.fi_cash, list(t.corp_cash))
                income.enter(t)
                assert [t.cash[p] - before[0][p] for p in range(t.n)] == [want[p] for p in range(t.n)]
                assert t.fi_cash - before[1] == want[FOREIGN_INVESTOR]
                for c, inc in corps.items():
                    if before[2][c] + inc >= 0:
                        assert t.corp_cash[c] - before[2][c] == inc
                    else:
                        assert not t.corp_active[c]  # Go Bankrupt
            seat = rng.choice(s.to_act)
            m = rng.choice(s.legal_moves(seat))
            s.apply(m.action(rng.randint(m.lo, m.hi) if m.field else None))
    assert len(seen) >= 4
