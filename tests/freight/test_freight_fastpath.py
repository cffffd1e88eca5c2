"""Issue 34 (a faster Freight engine) and issue 33 item 1 (OpenSpiel search on Freight): what the
speed-ups keep, so that a stale cache or a shared list changed in place would show.

- the OpenSpiel Freight listing (every legal action index along random games) and the research
  codec's options (each index with the engine action it stands for) pinned, recorded with main at
  39c3ad1 before these changes;
- ``parse_path`` keeps the paths it read: the same answer as reading them afresh, lists the
  caller may change, and a bad path refused every time; ``path_text`` keeps the paths it wrote
  only where their text reads back as them;
- a clone shares each city's cargo and demand rings with its original: applying any move to a
  clone leaves the original exactly as it was, along whole random games;
- ``legal.turn_listing`` gives the listing's EndTurn moves with their markers: the same markers
  as reading each store back (what the research codec did before).
"""

from __future__ import annotations

import hashlib
import random
from types import SimpleNamespace

import pytest

from rolling.core.errors import IllegalAction
from rolling.games.freight import Config, legal, new_game, routes, stockpile
from rolling.games.freight.actions import EstablishRoute

# (map, players, seed) -> (decisions, digest of every legal index list, returns), recorded at 39c3ad1
SPIEL_LISTINGS = [
    ("west-coast", 3, 31, (513, "a581916f2c3a985a", [-1.0, 1.0, 0.0])),
    ("southern", 4, 33, (776, "eb7b25102a03aaf2", [-1 / 3, 1.0, -1.0, 1 / 3])),
]


@pytest.mark.parametrize(("map_name", "players", "seed", "expected"), SPIEL_LISTINGS)
def test_spiel_listing_is_pinned(map_name, players, seed, expected):
    """Issue 33 item 1 / issue 34: a faster codec lists the very same action indices."""
    np = pytest.importorskip("numpy")
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("greenlet")
    import rolling.spiel  # noqa: F401 - registers the games

    game = pyspiel.load_game("python_rolling_freight", {"players": players, "map": map_name})
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    h = hashlib.sha256()
    n = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
            continue
        listed = s.legal_actions()
        h.update((",".join(map(str, listed)) + "\n").encode())
        n += 1
        s.apply_action(int(rng.choice(listed)))
    decisions, digest, returns = expected
    assert (n, h.hexdigest()[:16]) == (decisions, digest)
    assert s.returns() == pytest.approx(returns)


# (map, players, seed) -> (decisions, digest of every FreightTable._options), recorded at 39c3ad1
CODEC_OPTIONS = [
    ("west-coast", 3, 45, (416, "7f9fd609deaf6426")),
    ("southern", 5, 46, (548, "dd649893b214f140")),
]


@pytest.mark.parametrize(("map_name", "players", "seed", "expected"), CODEC_OPTIONS)
def test_codec_options_are_pinned(map_name, players, seed, expected):
    """Issue 34: the research codec's cheaper ``_options`` maps each index to the same action."""
    from rolling.research.freight_codec import FreightTable

    state = new_game(Config(map_name, players), seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    n = 0
    while not state.is_over:
        seat = state.to_act[0]
        opts = FreightTable(state)._options(seat)
        h.update(repr(sorted((k, repr(v)) for k, v in opts.items())).encode())
        n += 1
        state.apply(rng.choice(state.legal_actions(seat)))
    assert (n, h.hexdigest()[:16]) == expected


def _uncached_path(state, text: str) -> list[int]:
    return [state.link_by_id(int(w)).index for w in text.split(",")]


def _random_states(seed: int, players: int = 3, map_name: str = "west-coast"):
    """Each state of a random game (with its seat and the move chosen there), in order."""
    state = new_game(Config(map_name, players), seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        move = rng.choice(state.legal_actions(seat))
        yield state, seat, move
        state.apply(move)


def test_parse_path_kept_paths_are_right_and_independent():
    """Issue 34: every listed route's path, read twice through the kept paths, is what reading
    it afresh gives, and changing the list returned changes nothing kept."""
    checked = 0
    for state, seat, _move in _random_states(41):
        if state.stage == "draft":
            continue
        for move in legal.route_moves(state, seat, alternatives=False):
            first = routes.parse_path(state, move.path)
            first.append(-1)  # the caller's list: the kept path must not see this
            assert routes.parse_path(state, move.path) == _uncached_path(state, move.path)
            checked += 1
    assert checked > 20


def test_route_move_is_the_record_its_constructor_makes():
    """Issue 34: ``legal.route_move`` sets the frozen record's fields itself; it is the record
    ``EstablishRoute(...)`` makes (equal, the same hash, repr and JSON), with every field set."""
    checked = 0
    for state, seat, _move in _random_states(43):
        if state.stage == "draft":
            continue
        for route in routes.enumerate_routes(state, seat):
            got = legal.route_move(state, seat, route)
            cities = state.map.cities
            want = EstablishRoute(seat, cities[route[0]].name, route[1], cities[route[2]].name,
                                  routes.path_text(state, route[3]))
            assert type(got) is EstablishRoute
            assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
            assert got.to_json() == want.to_json() and got.pay == ""
            checked += 1
    assert checked > 20


def test_path_text_keeps_a_path_only_where_its_text_reads_back_as_it():
    """Issue 34: ``path_text`` keeps the path it writes for ``parse_path`` (a listed route is read
    back when made) only on a map whose link ids read back as the links: not where two links
    share a printed id, whose text ``parse_path`` then reads afresh (as the first of them)."""
    state = new_game(Config("west-coast", 3), 1)
    text = routes.path_text(state, [3, 1])
    assert text == f"{state.map.links[3].id},{state.map.links[1].id}"
    assert routes._known_paths(state.map)[1][text] == (3, 1)
    assert routes.parse_path(state, text) == [3, 1] == _uncached_path(state, text)
    links = [SimpleNamespace(id=ln.id, index=ln.index, a=ln.a, b=ln.b) for ln in state.map.links]
    links[3].id = links[1].id  # two links printed alike
    twin = SimpleNamespace(map=SimpleNamespace(links=links, cities=state.map.cities),
                           link_by_id=lambda n: next(ln for ln in links if ln.id == n))
    text = routes.path_text(twin, [3, 2])
    assert not routes._known_paths(twin.map)[2] and text not in routes._known_paths(twin.map)[1]
    assert routes.parse_path(twin, text) == [1, 2]


def test_parse_path_refuses_a_bad_path_every_time():
    """Issue 34: a path that could not be read is not kept: it is refused again."""
    state = new_game(Config("west-coast", 3), 1)
    for _ in range(2):
        with pytest.raises(IllegalAction, match="no link 999"):
            routes.parse_path(state, "1,999")
        with pytest.raises(IllegalAction, match="not a link number"):
            routes.parse_path(state, "1,x")


def test_a_move_applied_to_a_clone_leaves_the_original_as_it_was():
    """Issue 34: a clone shares each city's cargo and demand rings with its original (a cheaper
    clone); a route (cargo taken, a ring saturated), a phase's growth and every other move
    applied to the clone must leave the original's digest as it was."""
    routes_seen = 0
    for seed in (42, 43):
        for state, _seat, move in _random_states(seed, 3 if seed == 42 else 4, "west-coast" if seed == 42 else "southern"):
            before = state.digest()
            clone = state.clone()
            clone.apply(move)
            assert state.digest() == before
            routes_seen += type(move).__name__ == "EstablishRoute"
    assert routes_seen > 5


#: what a clone shares with its original (immutable, or replaced rather than changed: see
#: FreightState's docstring); every other list or dict must be a copy of its own
SHARED = {"config", "map", "comp", "last_reveal"}


def _mutable(v) -> bool:
    return isinstance(v, (list, dict, set, bytearray)) or hasattr(v, "__dict__") or hasattr(v, "__slots__")


def test_a_clone_shares_no_list_the_rules_change():
    """Issue 34: the clone copies every attribute at once and then each list the rules change;
    a list (or other changeable object) left shared would let a move on the clone change the
    original. Each city's cargo and rings list is shared by design (rules replace them)."""
    for state, _seat, _move in _random_states(47):
        clone = state.clone()
        assert clone.__dict__.keys() == state.__dict__.keys()
        assert clone.digest() == state.digest()
        for name, value in state.__dict__.items():
            if name in SHARED or not _mutable(value):
                continue
            assert clone.__dict__[name] is not value, name
            if name == "players":
                for a, b in zip(value, clone.players, strict=True):
                    for slot in type(a).__slots__:
                        if _mutable(getattr(a, slot)):
                            assert getattr(a, slot) is not getattr(b, slot), slot
        if state.turn > 12:
            break


def test_turn_listing_gives_each_store_its_markers():
    """Issue 34: the markers ``turn_listing`` gives with each EndTurn move are those the store
    gives when read back (what the research codec worked out per move before), and the listing
    is ``legal_actions``."""
    checked = 0
    for state, seat, _move in _random_states(44):
        if state.stage == "draft":
            continue
        moves, ends = legal.turn_listing(state, seat)
        listed = state.legal_actions(seat)
        assert listed[: len(moves)] == moves and len(listed) == len(moves) + len(ends)
        for a, (store, g) in zip(listed[len(moves):], ends, strict=True):
            assert a.store == store
            read = stockpile.parse_store(state, seat, store) if store else []
            assert tuple(stockpile.gains(state, seat, read)) == g
            checked += 1
    assert checked > 100
