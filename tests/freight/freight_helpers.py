"""Helpers for the Rolling Freight tests: states at a chosen point, and the components' invariants."""

from __future__ import annotations

from collections.abc import Iterator

from rolling.core.rng import Rng
from rolling.games.freight import Config, legal, new_game
from rolling.games.freight.components import COLOURS, END_OF_PHASE


def after_draft(map_name: str = "west-coast", players: int = 3, seed: int = 1):
    """A new game with the opening draft played (first listed pick each time), then cleared:
    no contracts in progress, no improvements, so a test can set up exactly what it needs."""
    st = new_game(Config(map_name, players), seed)
    while st.stage == "draft":
        seat = st.to_act[0]
        st.apply(st.legal_actions(seat)[0])
    for seat, p in enumerate(st.players):
        for i in p.contracts:
            st.holder[i] = -1
            st.cubes[i] = 0
            st.contract_deck.insert(0, i)
        p.contracts = []
        for name in p.improvements + p.pending:
            st.improvement_deck.insert(0, name)
        p.improvements = []
        p.pending = []
        set_dice(st, seat, ["blue", "gray", "red", "yellow", "blue/gray", "red/yellow"])
    return st


def turn_decisions(map_name: str, players: int, seed: int) -> Iterator:
    """The state at each turn decision (the draft's left out) of the random game ``seed``:
    every move drawn by :func:`.legal.random_move` with ``Rng(seed)``, applied after the caller
    has looked at the state yielded."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    while not state.is_over:
        seat = state.to_act[0]
        if state.stage != "draft":
            yield state
        state.apply(legal.random_move(state, seat, rng))


def set_dice(st, seat: int, faces: list[str], kinds: list[str] | None = None) -> None:
    """Give a player exactly these dice, unspent (basic dice unless ``kinds`` says otherwise)."""
    p = st.players[seat]
    p.dice = list(faces)
    p.die_kinds = list(kinds) if kinds else ["basic"] * len(faces)
    p.spent = [False] * len(faces)


def link(st, a: str, b: str, colour: str):
    """The link of ``colour`` between cities ``a`` and ``b``."""
    ia, ib = st.map.city_index[a], st.map.city_index[b]
    for ln in st.map.links:
        if {ln.a, ln.b} == {ia, ib} and ln.colour == colour:
            return ln
    raise KeyError((a, b, colour))


def give_contract(st, seat: int, ln, cubes: int) -> None:
    """Put ``ln``'s contract on ``seat``'s mat with ``cubes`` cubes on it (from the deck or the track)."""
    if ln.index in st.contract_deck:
        st.contract_deck.remove(ln.index)
    if ln.index in st.contract_track:
        st.contract_track[st.contract_track.index(ln.index)] = st.contract_deck.pop()
    st.players[seat].contracts.append(ln.index)
    st.holder[ln.index] = seat
    st.cubes[ln.index] = cubes


def own(st, ln, seat: int) -> None:
    """Mark a link completed by ``seat``."""
    st.owner[ln.index] = seat
    st.completed.append(ln.index)
    st.players[seat].links_owned += 1
    for tr in (st.contract_track,):
        if ln.index in tr:
            tr[tr.index(ln.index)] = None
    if ln.index in st.contract_deck:
        st.contract_deck.remove(ln.index)


def check_invariants(st) -> None:
    """The components are never broken: cubes, sticks, markers, cargo, saturation, cards, dice."""
    box = st.comp.box
    m = st.map
    n_links = len(m.links)
    # Cards: every contract card is in the deck, on the track, on a mat, completed, or under the deck.
    cards = [c for c in st.contract_deck if c != END_OF_PHASE] + [c for c in st.contract_track if c is not None]
    for p in st.players:
        cards += p.contracts
    cards += st.completed
    assert sorted(cards) == list(range(n_links))
    eops = st.contract_deck.count(END_OF_PHASE)
    assert eops + st.eop_removed + (1 if st.eop_holder >= 0 else 0) + st.eop_pending == 3 or st.is_over
    assert len([c for c in st.contract_track if c is not None]) <= box["contract_track"]
    # Improvements: 17 (or 14) cards in deck, track, or held; no duplicates on the track.
    imps = st.improvement_deck + [c for c in st.improvement_track if c is not None]
    for p in st.players:
        imps += p.improvements + p.pending
    assert len(imps) == sum(m.improvement_counts.values())
    track = [c for c in st.improvement_track if c is not None]
    assert len(track) <= box["improvement_track"]
    for seat, p in enumerate(st.players):
        assert len(p.contracts) <= box["max_contracts"]
        assert len(p.improvements) + len(p.pending) <= box["max_improvements"]
        used = 0
        for i in p.contracts:
            assert st.holder[i] == seat and st.owner[i] == -1
            assert 1 <= st.cubes[i] < m.links[i].length
            used += st.cubes[i]
        assert used <= box["cubes_per_player"]
        owned = sum(1 for o in st.owner if o == seat)
        assert owned == p.links_owned <= box["sticks_per_player"]
        dice = 6 + sum(1 for name in p.improvements if st.comp.improvements[name].die)
        assert len(p.dice) == len(p.spent) == len(p.die_kinds)
        if st.stage == "turn" and seat != st.current:
            assert len(p.dice) == dice and not any(p.spent)
        assert p.stations <= len(st.comp.station_costs)
        assert all(x >= 0 for x in p.markers)
    for i in range(n_links):
        if st.holder[i] < 0:
            assert st.cubes[i] == 0
        assert not (st.holder[i] >= 0 and st.owner[i] >= 0)
    for k in range(4):
        assert st.supply[k] + sum(p.markers[k] for p in st.players) == box["stockpile_markers"]
        assert st.supply[k] >= 0
    cargo = len(st.bag) + sum(len(c) for c in st.cargo) + sum(len(p.cargo) for p in st.players) + st.cargo_returned
    assert cargo == sum(box["cargo"].values())
    for col in COLOURS:
        assert st.bag.count(col) <= box["cargo"][col]
    saturated = sum(1 for rs in st.rings for r in rs if r[2])
    assert saturated + st.saturation == box["saturation_markers"]
    for rs in st.rings:
        for r in rs:
            assert not r[2] or r[1] <= st.phase
