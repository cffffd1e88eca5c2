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
    """One event of every kind with the text it reads as: players named from 1, dice numbered
    from 1, links by card and number, routes by the cities they pass through."""
    st, ln, city = _board()
    pay = (("d", 0), ("d", 3), ("m", 0))
    n = {k: f"{k} L{st.map.links[i].id}" for k, i in ln.items()}
    return st, [
        ((E.SETUP, E.PUBLIC, "U.S. West Coast", 3, 0),
         "Rolling Freight, U.S. West Coast map, 3 players; Player 1 is the start player"),
        ((E.STARTING_CARGO, E.PUBLIC, ((city["Fresno"], ("blue",)), (city["Reno"], ("gray", "red")))),
         "  starting cargo: Fresno blue, Reno gray red"),
        ((E.OPENING_ROLL, E.PUBLIC, 1, ("red", "wild")), "  Player 2 rolls red wild"),
        ((E.DRAFT_CONTRACT, E.PUBLIC, 1, ln["Red 3A"]), f"Player 2 drafts contract {n['Red 3A']}"),
        ((E.DRAFT_IMPROVEMENT, E.PUBLIC, 0, "Acquisition Expert"), "Player 1 drafts improvement Acquisition Expert"),
        ((E.DRAFT_DIE, E.PUBLIC, 2, "Black Die", "wild"), "Player 3 drafts improvement Black Die and rolls wild"),
        ((E.DRAFT_PASS, E.PUBLIC, 2), "Player 3 has nothing to draft"),
        ((E.TURN, E.PUBLIC, 7, 1, 0, ("red", "blue/gray", "wild")),
         "Turn 7, phase B: Player 1 has dice red blue/gray wild"),
        ((E.TAKE_CONTRACT, E.PUBLIC, 0, ln["Blue 4A"], pay),
         f"Player 1 takes contract {n['Blue 4A']} paying dice 1, 4 and a blue marker"),
        ((E.TAKE_CONTRACT, E.PUBLIC, 0, ln["Blue 4A"], ()), f"Player 1 takes contract {n['Blue 4A']} paying nothing"),
        ((E.BUILD, E.PUBLIC, 1, 2, ln["Gray 2A"], (("d", 0), ("d", 1))),
         f"Player 2 builds 2 cube(s) on {n['Gray 2A']} paying dice 1, 2"),
        ((E.STEADY_BUILD, E.PUBLIC, 1, ln["Gray 2A"]), f"Player 2 adds a free cube to {n['Gray 2A']} (Steady Builder)"),
        ((E.COMPLETE, E.PUBLIC, 1, ln["Gray 2A"], 6),
         f"  Player 2 completes {n['Gray 2A']} (San Francisco-Eureka, length 6) and scores $6"),
        ((E.ROUTE, E.PUBLIC, 0, "blue", city["Fresno"], city["Los Angeles"],
          tuple(_path(st, "Fresno", "Sacramento", "Oakland", "San Francisco", "Santa Cruz", "Santa Maria", "Los Angeles")),
          5, 9, 4, pay),
         "Player 1 ships blue cargo from Fresno to Los Angeles via Sacramento, Oakland, San Francisco, Santa Cruz, "
         "Santa Maria (6 links) for 5 dice (9 less 4 for stations), paying dice 1, 4 and a blue marker"),
        ((E.LINK_INCOME, E.PUBLIC, 2, 2, 2), "  Player 3 earns $2 for 2 link(s)"),
        ((E.LINK_INCOME_FRIENDLY, E.PUBLIC, 2, 3, 2), "  Player 3 earns $3 for 2 link(s) (Friendly)"),
        ((E.DISTANCE_BONUS, E.PUBLIC, 0, 2), "  Player 1 earns a distance bonus of $2"),
        ((E.DISTANCE_AND_DICE_BONUS, E.PUBLIC, 0, 0, 2),
         "  Player 1 earns a distance bonus of $0 and $2 for bonus dice"),
        ((E.STATION, E.PUBLIC, 0, 2, ()), "Player 1 builds switching station 2 paying nothing"),
        ((E.BUY_IMPROVEMENT, E.PUBLIC, 1, "Friendly", (("m", 1), ("m", 1))), "Player 2 buys Friendly paying 2 gray markers"),
        ((E.RETURN_IMPROVEMENT, E.PUBLIC, 1, "Steady Builder"),
         "  Player 2 returns Steady Builder to the bottom of the deck"),
        ((E.STOCKPILE, E.PUBLIC, 0, (0, 0, 3, 1)), "  Player 1 stockpiles 3 red, 1 yellow"),
        ((E.CONTRACT_DRAWN, E.PUBLIC, ln["Red 3A"]),
         f"  contract {n['Red 3A']} (San Francisco-Santa Cruz, length 2) comes onto the track"),
        ((E.IMPROVEMENT_DRAWN, E.PUBLIC, "Friendly"), "  improvement Friendly comes onto the track"),
        ((E.IMPROVEMENT_DUPLICATE, E.PUBLIC, "Friendly"),
         "  improvement Friendly is drawn, already on the track: it goes to the bottom of the deck"),
        ((E.END_OF_PHASE_DRAWN, E.PUBLIC, 2),
         "  Player 3 draws the End of Phase card: every player takes one more turn"),
        ((E.END_OF_PHASE_AGAIN, E.PUBLIC, 2), "  Player 3 draws another End of Phase card; it takes effect next phase"),
        ((E.CARGO_SCORE, E.PUBLIC, 0, 6, 2), "  Player 1 scores $6 for 2 cargo marker(s)"),
        ((E.PHASE_END, E.PUBLIC, 0, ((0, 12), (1, 9), (2, 15))), "End of phase A: Player 1 $12, Player 2 $9, Player 3 $15"),
        ((E.CUBE_SCORE, E.PUBLIC, 1, 4, 4), "  Player 2 scores $4 for 4 cube(s) on unfinished contracts"),
        ((E.GAME_OVER, E.PUBLIC, ((2, 40), (0, 31), (1, 31))), "Game over: Player 3 $40, Player 1 $31, Player 2 $31"),
        ((E.PHASE_BEGINS, E.PUBLIC, 2), "Phase C begins"),
        ((E.CITY_GROWS, E.PUBLIC, city["Reno"], "gray", "red"), "  Reno grows: wants gray, offers red cargo"),
        ((E.CONTRACT_REMOVED, E.PUBLIC, ln["Red 3A"]),
         f"  the lowest contract, {n['Red 3A']} (San Francisco-Santa Cruz, length 2), goes to the bottom of the deck"),
        ((E.IMPROVEMENT_REMOVED, E.PUBLIC, "Friendly"),
         "  the lowest improvement, Friendly, goes to the bottom of the deck"),
    ]


def _path(st, *names):
    """The link indices of a route through the named cities (the first land link between each pair)."""
    idx = [st.map.city_index[x] for x in names]
    out = []
    for a, b in zip(idx, idx[1:], strict=False):
        out.append(next(ln.index for ln in st.map.links if {ln.a, ln.b} == {a, b}))
    return out


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


def test_no_event_names_a_card_before_it_is_face_up():
    """Setting Up / G: the contract deck is face down, its order hidden. An event names a contract
    only once it has been face up: dealt onto the track at the start or drawn onto it since (its
    own event says so). A contract moved to the bottom of the deck at the start of phase B or C was
    face up on the track until then; an improvement named is on the track, on a mat, or was just
    drawn face up."""
    named = {"link", "contract"}

    for seed, players, map_name in ((2, 3, "west-coast"), (3, 5, "southern")):
        st = new_game(Config(map_name, players), seed)
        face_up = {c for c in st.contract_track if c is not None}
        seen = {"n": 0}

        def check(st, start, face_up=face_up, seen=seen):
            for ev in st.log[seen["n"]:]:
                if ev[0] == E.CONTRACT_DRAWN:
                    face_up.add(ev[2])
                for name, value in zip(E.TEXT[ev[0]][1], ev[2:], strict=True):
                    if name in named:
                        assert value in face_up, ev
                    if name == "path":
                        assert all(st.owner[i] >= 0 for i in value)
            seen["n"] = len(st.log)

        play(seed, players=players, map_name=map_name, each=check)


def test_removals_at_the_start_of_phases_b_and_c_and_every_refill_are_logged():
    """Beginning Phase B/C: the lowest contract and improvement go to the bottom of their decks,
    and the tracks refill; every card that comes onto a track is logged, whenever it comes."""
    st = play(4)
    kinds = [ev[0] for ev in st.log]
    assert kinds.count(E.PHASE_BEGINS) == 2
    assert kinds.count(E.CONTRACT_REMOVED) == 2 and kinds.count(E.IMPROVEMENT_REMOVED) == 2
    for k, ev in enumerate(st.log):
        if ev[0] == E.PHASE_BEGINS:
            after = kinds[k:k + 40]
            assert E.CONTRACT_REMOVED in after and E.IMPROVEMENT_REMOVED in after
    # the log holds the whole life of both tracks, from the deal on: replaying its track events
    # from empty tracks gives the tracks the state shows at the end
    assert [ev[0] for ev in st.log[:2]] == [E.SETUP, E.STARTING_CARGO]
    contracts: list[int] = []
    improvements: list[str] = []
    for ev in st.log:
        if ev[0] == E.CONTRACT_DRAWN:
            contracts.append(ev[2])
        elif ev[0] in (E.DRAFT_CONTRACT, E.TAKE_CONTRACT, E.CONTRACT_REMOVED):
            contracts.remove(ev[3] if ev[0] != E.CONTRACT_REMOVED else ev[2])
        elif ev[0] == E.IMPROVEMENT_DRAWN:
            improvements.append(ev[2])
        elif ev[0] in (E.DRAFT_IMPROVEMENT, E.DRAFT_DIE, E.BUY_IMPROVEMENT):
            improvements.remove(ev[3])
        elif ev[0] == E.IMPROVEMENT_REMOVED:
            improvements.remove(ev[2])
    assert sorted(contracts) == sorted(c for c in st.contract_track if c is not None)
    assert sorted(improvements) == sorted(c for c in st.improvement_track if c is not None)


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


def test_the_log_starts_with_the_set_up():
    """A game's log starts with the set-up: the map and start player, the starting cargo, the four
    contracts and three improvements dealt (duplicates put back said), every player's opening roll;
    only on a game not yet begun, and the same whether the log was on from the start or not."""
    fresh = new_game(Config("southern", 4), 9)
    fresh.enable_log()
    logged = new_game(Config("southern", 4), 9, log=True)
    assert fresh.log == logged.log and fresh.digest() == logged.digest()
    kinds = [ev[0] for ev in fresh.log]
    assert kinds[:2] == [E.SETUP, E.STARTING_CARGO]
    assert kinds.count(E.CONTRACT_DRAWN) == 4 and kinds.count(E.IMPROVEMENT_DRAWN) == 3
    assert kinds.count(E.OPENING_ROLL) == 4
    cargo = dict(fresh.log[1][2])
    assert {c: list(v) for c, v in cargo.items()} == {c: v for c, v in enumerate(fresh.cargo) if v}
    lines = fresh.log_lines()
    assert lines[0] == "Rolling Freight, Southern U.S. map, 4 players; Player 1 is the start player"
    assert any(x.startswith("  Player 4 rolls ") for x in lines)
    st = new_game(Config("west-coast", 3), 9)
    st.apply(st.legal_actions(st.to_act[0])[0])
    st.enable_log()
    assert st.log == []  # begun: the set-up is not in it
