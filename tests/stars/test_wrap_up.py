"""Phase 2: Wrap-up."""

from rolling.games.stars.state import FOREIGN_INVESTOR

from .conftest import blank, goto, idx, offer_up, stack_deck


def test_new_player_order_by_cash_ties_by_old_order():
    """Wrap-up example: Amy $9 (1), Brian $12 (2), Crystal $9 (3) -> Brian 1, Amy 2, Crystal 3."""
    s = blank(3, cash=[9, 12, 9])
    goto(s, 2)
    assert s.order[:3] == [1, 0, 2]


def test_foreign_investor_buys_in_ascending_face_value_while_it_can():
    """Phase 2: the foreign investor buys available companies in ascending face value order at face
    value, drawing a new (unavailable) company for each; then all become available."""
    s = blank(3, cash=[30, 30, 30])
    s.fi_cash = 8
    offer_up(s, "KME", "BME", "BSE", "AKE", unavailable=["AKE"])
    stack_deck(s, "BPM", "MHE", "WT")
    goto(s, 2)
    owned = [i for i in range(36) if s.company_owner[i] == FOREIGN_INVESTOR]
    assert owned == [idx("BME"), idx("BSE"), idx("KME")]
    assert s.fi_cash == 0
    assert idx("AKE") in s.offering, "unavailable companies are not bought"
    assert idx("BPM") in s.offering and idx("MHE") in s.offering and idx("WT") in s.offering
    assert s.unavailable == 0, "all offered companies become available"
