"""The Rolling Freight log as structured events: small tuples, text per kind, all public, and
nothing built when the log is off."""

from __future__ import annotations

import pytest

from rolling.core import events as core
from rolling.core.rng import Rng
from rolling.games.freight import Config, FreightState, new_game
from rolling.games.freight import events as E


def play(seed: int, players: int = 3, log: bool = True, map_name: str = "west-coast", each=None) -> FreightState:
    """A game of random legal moves (no bot needed), its log on or off; ``each(state, start)``
    is called after every move with the index of the move's first event."""
    st = new_game(Config(map_name, players), seed)
    if log:
        st.enable_log()
    rng = Rng(seed)
    while not st.is_over:
        seat = st.to_act[0]
        moves = st.legal_actions(seat)
        start = len(st.log) if log else 0
        st.apply(moves[rng.below(len(moves))])
        if each:
            each(st, start)
    return st


def _small(value) -> bool:
    if isinstance(value, tuple):
        return all(_small(v) for v in value)
    return isinstance(value, int | str)


def test_events_are_small_tuples_with_their_kinds_fields():
    """Each event is (kind, visibility, *fields): a known kind, as many fields as its text names,
    and only ints, strings and tuples of them (no text built from them, no engine objects)."""
    st = play(0)
    assert st.log
    for ev in st.log:
        kind, vis, *fields = ev
        assert type(ev) is tuple and kind in E.TEXT and isinstance(vis, int)
        assert len(fields) == len(E.TEXT[kind][1]), kind
        assert _small(tuple(fields)), ev
    assert st.log_lines()[-1].startswith("Game over: ")


def _board():
    st = new_game(Config("west-coast", 3), 0)
    links = {ln.label: ln.index for ln in st.map.links}
    cities = st.map.city_index
    return st, links, cities


def _samples():
    """One event of every kind with the text it reads as (the wording the log has always had)."""
    st, ln, city = _board()
    pay = (("d", 0), ("d", 3), ("m", 0))
    return st, [
        ((E.DRAFT_CONTRACT, E.PUBLIC, 1, ln["Red 3A"]), "P1 drafts contract Red 3A"),
        ((E.DRAFT_IMPROVEMENT, E.PUBLIC, 0, "Acquisition Expert"), "P0 drafts improvement Acquisition Expert"),
        ((E.DRAFT_DIE, E.PUBLIC, 2, "Black Die", "wild"), "P2 drafts improvement Black Die and rolls wild"),
        ((E.DRAFT_PASS, E.PUBLIC, 2), "P2 has nothing to draft"),
        ((E.TURN, E.PUBLIC, 7, 1, 0, ("red", "blue/gray", "wild")), "Turn 7, phase B: P0 has dice red blue/gray wild"),
        ((E.TAKE_CONTRACT, E.PUBLIC, 0, ln["Blue 4A"], pay), "P0 takes contract Blue 4A paying 0 3 blue"),
        ((E.TAKE_CONTRACT, E.PUBLIC, 0, ln["Blue 4A"], ()), "P0 takes contract Blue 4A paying nothing"),
        ((E.BUILD, E.PUBLIC, 1, 2, ln["Gray 2A"], (("d", 0), ("d", 1))), "P1 builds 2 cube(s) on Gray 2A paying 0 1"),
        ((E.STEADY_BUILD, E.PUBLIC, 1, ln["Gray 2A"]), "P1 adds a free cube to Gray 2A (Steady Builder)"),
        ((E.COMPLETE, E.PUBLIC, 1, ln["Gray 2A"], 6),
         "  P1 completes Gray 2A (San Francisco-Eureka, length 6) and scores $6"),
        ((E.ROUTE, E.PUBLIC, 0, "blue", city["Fresno"], city["Los Angeles"], (1, 2, 3, 4, 5, 6), 5, 9, 4, pay),
         "P0 ships blue cargo Fresno -> Los Angeles over 6 link(s) for 5 dice (9 less 4 for stations), paying 0 3 blue"),
        ((E.LINK_INCOME, E.PUBLIC, 2, 2, 2), "  P2 earns $2 for 2 link(s)"),
        ((E.LINK_INCOME_FRIENDLY, E.PUBLIC, 2, 3, 2), "  P2 earns $3 for 2 link(s) (Friendly)"),
        ((E.DISTANCE_BONUS, E.PUBLIC, 0, 2), "  P0 earns a distance bonus of $2"),
        ((E.DISTANCE_AND_DICE_BONUS, E.PUBLIC, 0, 0, 2), "  P0 earns a distance bonus of $0 and $2 for bonus dice"),
        ((E.STATION, E.PUBLIC, 0, 2, ()), "P0 builds switching station 2 paying nothing"),
        ((E.BUY_IMPROVEMENT, E.PUBLIC, 1, "Friendly", pay), "P1 buys Friendly paying 0 3 blue"),
        ((E.RETURN_IMPROVEMENT, E.PUBLIC, 1, "Steady Builder"), "  P1 returns Steady Builder to the bottom of the deck"),
        ((E.STOCKPILE, E.PUBLIC, 0, (0, 0, 3, 1)), "  P0 stockpiles 3 red, 1 yellow"),
        ((E.CONTRACT_DRAWN, E.PUBLIC, ln["Red 3A"]), "  contract Red 3A comes onto the track"),
        ((E.END_OF_PHASE_DRAWN, E.PUBLIC, 2), "  P2 draws the End of Phase card: every player takes one more turn"),
        ((E.END_OF_PHASE_AGAIN, E.PUBLIC, 2), "  P2 draws another End of Phase card; it takes effect next phase"),
        ((E.CARGO_SCORE, E.PUBLIC, 0, 6, 2), "  P0 scores $6 for 2 cargo marker(s)"),
        ((E.PHASE_END, E.PUBLIC, 0, ((0, 12), (1, 9), (2, 15))), "End of phase A: P0 $12, P1 $9, P2 $15"),
        ((E.CUBE_SCORE, E.PUBLIC, 1, 4, 4), "  P1 scores $4 for 4 cube(s) on unfinished contracts"),
        ((E.GAME_OVER, E.PUBLIC, ((2, 40), (0, 31), (1, 31))), "Game over: P2 $40, P0 $31, P1 $31"),
        ((E.PHASE_BEGINS, E.PUBLIC, 2), "Phase C begins"),
        ((E.CITY_GROWS, E.PUBLIC, city["Reno"], "gray", "red"), "  Reno grows: wants gray, offers red cargo"),
    ]


def test_text_of_every_kind():
    """Text per kind: every kind has a template, and each reads as the log always read."""
    st, samples = _samples()
    assert {ev[0] for ev, _ in samples} == set(E.TEXT)
    for ev, text in samples:
        assert E.render(st, ev) == text
        assert E.render(st, ev, 1) == text, "public: every seat reads the same"


def test_every_event_is_public_and_every_seat_reads_the_whole_log():
    """Rolling Freight has no hidden money and everything on the table is open: every event is
    public, so every seat and an onlooker read the same lines."""
    st = play(1, players=4)
    assert all(ev[1] == E.PUBLIC for ev in st.log)
    text = st.log_lines()
    assert len(text) == len(st.log)
    for seat in range(4):
        assert st.log_lines(seat) == text


def test_no_event_names_a_card_still_face_down_in_the_deck():
    """Setting Up / G: the contract deck is face down, its order hidden. An event names a contract
    only once it is face up: on the track, on a mat, or completed, never still in the deck."""
    named = {"link", "contract"}

    def check(st, start):
        for ev in st.log[start:]:
            for name, value in zip(E.TEXT[ev[0]][1], ev[2:], strict=True):
                if name in named:
                    assert value not in st.contract_deck, ev
                if name == "path":
                    assert all(st.owner[i] >= 0 for i in value)

    play(2, players=3, each=check)
    play(3, players=5, map_name="southern", each=check)


def test_log_off_builds_no_event_and_no_text(monkeypatch):
    """Speed: with the log off the rules make neither events nor names nor text for them."""

    def refuse(*args, **kwargs):
        raise AssertionError("text or an event built with the log off")

    monkeypatch.setattr(E, "render", refuse)
    monkeypatch.setattr(E, "_field", refuse)
    monkeypatch.setattr(core, "text_of", refuse)
    monkeypatch.setattr(FreightState, "name", refuse)
    for seed in range(3):
        st = play(seed, players=2 + seed, log=False)
        assert st.log is None and st.log_lines() == []


def test_log_is_only_narration():
    """The log changes nothing in the game: the same moves give the same digest with it on or off."""
    assert play(5).digest() == play(5, log=False).digest()


def test_log_lines_from_a_start_index():
    """log_lines(seat, start) gives the lines from event ``start`` on (a screen shows only new ones)."""
    st = play(6)
    assert st.log_lines(None, len(st.log) - 2) == st.log_lines()[-2:]


@pytest.mark.parametrize("kind", sorted(E.TEXT))
def test_every_template_names_only_its_fields(kind):
    """Each template uses exactly the fields its kind lists (none unused, none missing)."""
    import string

    template, names = E.TEXT[kind]
    used = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    assert used == set(names)
