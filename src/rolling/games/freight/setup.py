"""Setting Up the Game Board and Beginning the Game: decks, cargo, tracks, first roll, draft order."""

from __future__ import annotations

from rolling.core.errors import RecordError
from rolling.core.record import check_keys
from rolling.core.rng import Rng

from . import events as E
from .components import COLOURS, END_OF_PHASE, MAP_NAMES, load_map
from .dice import roll_all
from .refill import fill_contract_track, fill_improvement_track
from .state import PAYMENTS, Config, FreightState


def config_from_json(data) -> Config:
    """Read ``{"map": ..., "players": ...}`` (and optional ``"names"``, one per player, and
    ``"payment"``, one of :data:`.state.PAYMENTS`, default ``"kept"``): a new game's config. A
    stored record's config is read by :func:`record_config_from_json`.

    Raises:
        RecordError: an unknown key (named), unknown map, a player count outside the map's range,
            names that are not one string per player, or an unknown payment.
    """
    if not isinstance(data, dict):
        raise RecordError("a Rolling Freight config must be an object")
    check_keys(data, ("map", "players", "names", "payment"))
    name = data.get("map", "west-coast")
    players = data.get("players", 3)
    if name not in MAP_NAMES:
        raise RecordError(f"unknown map {name!r} (known: {', '.join(MAP_NAMES)})")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("players must be an integer")
    m = load_map(name)
    if not m.min_players <= players <= m.max_players:
        raise RecordError(f"the {m.title} map is for {m.min_players}-{m.max_players} players, not {players}")
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise RecordError("names must be a list of strings")
    if names and len(names) != players:
        raise RecordError(f"{len(names)} names given for {players} players")
    payment = data.get("payment", "kept")
    if payment not in PAYMENTS:
        raise RecordError(f"unknown payment {payment!r} (known: {', '.join(PAYMENTS)})")
    return Config(name, players, tuple(names), payment)


def record_config_from_json(data) -> Config:
    """Read the config of a stored game (a record, a saved game, a web game's row).

    A stored config without ``"payment"`` was written before the engine paid by the order of what
    is kept (issue 28 item 5; every config written since names it): it reads as ``"legacy"``, so
    that a saved game replays with the payments it was played with.

    Raises:
        RecordError: as :func:`config_from_json`.
    """
    if isinstance(data, dict) and "payment" not in data:
        data = {**data, "payment": "legacy"}
    return config_from_json(data)


def draw_cargo(state) -> str | None:
    """Draw one cargo marker at random from the bag (``None`` if the bag is empty)."""
    bag = state.bag
    if not bag:
        return None
    i = state.rng.below(len(bag))
    bag[i], bag[-1] = bag[-1], bag[i]
    state.reveals += 1
    state.last_reveal = ("cargo", bag[-1])
    return bag.pop()


def new_game(config: Config, seed: int, log: bool = False, rng: Rng | None = None) -> FreightState:
    """Set up a game: the state right before the opening draft's first pick.

    Improvement deck per map (West Coast without Red Die, one Friendly and one Efficient
    Storage), contract deck End of Phase / C / End of Phase / B / End of Phase / A (A on top, each
    set shuffled), starting cargo (coloured and white inner circles; B/C cities covered), four
    contracts and three improvements dealt (no duplicate improvements), every player's dice
    rolled, draft order counter-clockwise from the start player's right, twice.

    ``rng``: the state's generator instead of ``Rng(seed)`` (an external chooser of the chance
    outcomes, as the OpenSpiel game's chance nodes, rolling.spiel, supply them).

    With ``log`` the state's log is on from the start and holds the set-up (see
    :func:`enable_log`).

    Raises:
        ValueError: the config names an unknown map or a player count the map does not allow.
    """
    if isinstance(config, dict):
        config = config_from_json(config)
    m = load_map(config.map)
    if not m.min_players <= config.players <= m.max_players:
        raise ValueError(f"the {m.title} map is for {m.min_players}-{m.max_players} players")
    st = FreightState(config, seed)
    if rng is not None:
        st.rng = rng
    if log:
        st.log = [(E.SETUP, E.PUBLIC, m.title, config.players, 0)]
    comp = st.comp
    box = comp.box
    st.bag = [c for c in COLOURS for _ in range(box["cargo"][c])]
    st.supply = [box["stockpile_markers"]] * 4
    st.saturation = box["saturation_markers"]

    deck = [name for name in comp.improvements for _ in range(m.improvement_counts[name])]
    st.rng.shuffle(deck)
    st.improvement_deck = deck

    sets = {s: [ln.index for ln in m.links if ln.set == s] for s in "ABC"}
    for s in "ABC":
        st.rng.shuffle(sets[s])
    # Top of the deck is the end of the list.
    st.contract_deck = [END_OF_PHASE] + sets["C"] + [END_OF_PHASE] + sets["B"] + [END_OF_PHASE] + sets["A"]

    for c in m.cities:
        rings = [[col, 0, False] for col in c.demand]
        if c.grow_b:
            rings.append([c.grow_b, 1, False])
        if c.grow_c:
            rings.append([c.grow_c, 2, False])
        st.rings[c.index] = rings
    # Coloured inner circles first, so that white ones draw from what is left.
    for c in m.cities:
        if c.surplus in COLOURS:
            st.bag.remove(c.surplus)
            st.cargo[c.index] = st.cargo[c.index] + [c.surplus]  # shared with clones: replaced
    for c in m.cities:
        if c.surplus == "white":
            col = draw_cargo(st)
            if col:
                st.cargo[c.index] = st.cargo[c.index] + [col]
    if st.log is not None:
        st.log.append((E.STARTING_CARGO, E.PUBLIC, tuple((i, tuple(cargo)) for i, cargo in enumerate(st.cargo) if cargo)))

    fill_contract_track(st, 0, False)
    fill_improvement_track(st)
    for seat in range(st.n):
        roll_all(st, seat)
        if st.log is not None:
            st.log.append((E.OPENING_ROLL, E.PUBLIC, seat, tuple(st.players[seat].dice)))
    start = 0
    order = [(start - 1 - i) % st.n for i in range(st.n)]
    st.draft_order = order + order
    st.draft_pos = 0
    st.stage = "draft"
    st.current = start
    return st


def enable_log(state: FreightState) -> None:
    """Start keeping the log of events in ``state.log`` (off by default, for speed); also the
    method ``FreightState.enable_log()``.

    The log holds events, not text (:mod:`.events`); ``log_lines`` renders them. On a game just
    set up (before the first draft pick) the log starts with the set-up: the starting cargo, the
    cards dealt onto the tracks and the opening rolls."""
    if state.log is not None:
        return
    state.log = []
    if state.stage == "draft" and state.draft_pos == 0:
        # the set-up depends on the config and the seed alone: deal it again with the log on
        twin = new_game(state.config, state.seed, log=True)
        if twin.digest() == state.digest():
            state.log = twin.log
