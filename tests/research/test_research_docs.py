"""docs/research.md documents the indices the code uses: the observation tables are the layouts'
own, and the index formulas of its action tables hold."""

from __future__ import annotations

from pathlib import Path

from rolling.envs import stars_v0
from rolling.games.stars.actions import BuyShare, Deal, FormCorporation, Issue, Offer, Respond, RespondDeal
from rolling.research import freight_codec as F
from rolling.research import stars_codec as S

DOC = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")


def test_observation_tables_are_the_layouts():
    assert S.OBS.table() in DOC
    assert F.OBS.table() in DOC
    assert f"Observation: {S.OBS.size} float32" in DOC
    assert f"Observation: {F.OBS.size} float32" in DOC


def test_stars_action_formulas():
    assert f"Discrete({S.N_ACTIONS})" in DOC
    # the PettingZoo environment's docstring gives the sizes too
    assert f"Discrete({S.N_ACTIONS})" in stars_v0.__doc__ and f"({S.OBS.size} float32)" in stars_v0.__doc__
    for c in range(8):
        for i in range(36):
            assert S.TEMPLATE_INDEX[(Offer, c, i)] == 64 + 36 * c + i
            assert S.TEMPLATE_INDEX[(Respond, c, i, True)] == 352 + 72 * c + 2 * i
            assert S.TEMPLATE_INDEX[(Respond, c, i, False)] == 352 + 72 * c + 2 * i + 1
            assert S.TEMPLATE_INDEX[(FormCorporation, i, c)] == 988 + 8 * i + c
            assert S.TEMPLATE_INDEX[(S.AddPurchase, c, i)] == 1312 + 36 * c + i
        assert S.TEMPLATE_INDEX[(BuyShare, c, True)] == 40 + 2 * c + 1
        assert S.TEMPLATE_INDEX[(Issue, c, False)] == 972 + 2 * c + 1
    assert S.TEMPLATE_INDEX[(Deal,)] == 1600 and S.TEMPLATE_INDEX[(S.DiscardDeal,)] == 1601
    assert S.MAX_OPEN_DEALS == 6 and "slot `d` (0-5)" in DOC and "At most 6 deals are open" in DOC
    for d in range(S.MAX_OPEN_DEALS):
        assert S.TEMPLATE_INDEX[(RespondDeal, d, True)] == 1602 + 2 * d
        assert S.TEMPLATE_INDEX[(RespondDeal, d, False)] == 1602 + 2 * d + 1
    assert S.N_TEMPLATES == 1614 and "Indices 0-1613 are *templates*" in DOC
    assert S.AMOUNT0 == 1614 and S.action_text(S.AMOUNT0 + 12) == "amount $12"
    assert f"| {S.AMOUNT0}-{S.N_ACTIONS - 1} | the amount `$v` of the selected template | {S.AMOUNT0} + v |" in DOC


def test_freight_action_formulas():
    assert f"Discrete({F.N_ACTIONS})" in DOC
    for name, (start, size) in F.BLOCK.items():
        rng = str(start) if size == 1 else f"{start}-{start + size - 1}"
        assert f"| {rng} |" in DOC, name
    assert F.gains_index((1, 2, 3, 4)) == F.BLOCK["end_turn"][0] + 343 + 98 + 21 + 4
    assert F.build_index(5, 3, 2) == F.BLOCK["build"][0] + (5 * F.N_TOKENS + 3) * 3 + 2
    assert F.action_text(F.build_index(5, 0, 0)) == "build link #5 auto"


def test_action_layout_tables_are_in_the_docs():
    """Issue 33 item 5: the action layouts docs/research.md prints are the code's."""
    from rolling.research.layout import action_layout

    assert action_layout("stars").table() in DOC
    assert action_layout("freight").table() in DOC
    assert "| range |" in DOC and "$2000" in DOC and f"{S.MONEY_CAP}" == "2000" and F.MONEY_CAP == 2000
