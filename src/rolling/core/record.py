"""Game records: ``{game, config, seed, actions}`` as JSON, and exact replay.

A record holds everything needed to rebuild a game bit for bit: the game's name, its config (a
JSON object), the seed and the list of actions in the order they were applied.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IllegalAction, RecordError


@dataclass
class GameRecord:
    """A game record.

    Attributes:
        game: the game's registry name (``"stars"``, ``"market"``, ``"freight"``).
        config: the game's config as a JSON object (see each game's ``Config.to_json``).
        seed: the seed of the game's random number generator.
        actions: the actions applied, each in its JSON form.
        meta: free-form facts (player names, where the game came from); not used by replay.
    """

    game: str
    config: dict[str, Any]
    seed: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON-able dict."""
        d = {"game": self.game, "config": self.config, "seed": self.seed, "actions": self.actions}
        if self.meta:
            d["meta"] = self.meta
        return d

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from its JSON form.

        Raises:
            RecordError: if a key is missing or has the wrong kind of value.
        """
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        kinds = {"game": (str, "a string"), "config": (dict, "an object"), "seed": (int, "an integer"), "actions": (list, "a list")}
        for key, (kind, what) in kinds.items():
            if key not in data:
                raise RecordError(f"the game record lacks {key!r}")
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise RecordError(f"the game record's {key!r} must be {what}")
        return cls(data["game"], data["config"], data["seed"], list(data["actions"]), dict(data.get("meta", {})))


def check_keys(data: dict, known: tuple[str, ...], what: str = "config") -> None:
    """Refuse a JSON object (a game's config) holding a key not in ``known``, naming it: a
    misspelt key must not silently give another game ("edtion": "v2.2" is no v2.2 game).

    Raises:
        RecordError: "unknown config key 'edtion' (known: players, edition, ...)", or with no
            ``known`` key "(this game takes no options)".
    """
    extra = sorted((k for k in data if k not in known), key=repr)
    if extra:
        keys = ", ".join(repr(k) for k in extra)
        hint = f"known: {', '.join(known)}" if known else "this game takes no options"
        raise RecordError(f"unknown {what} key{'s' if len(extra) > 1 else ''} {keys} ({hint})")


def save_record(record: GameRecord, path: str | os.PathLike) -> None:
    """Write a record atomically: a temporary file in the same folder, flushed, then renamed.

    A crash mid-write leaves the previous file intact, never a half-written one.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record.to_json(), f, indent=1, ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def read_json(path: str | os.PathLike, error: type[Exception] = RecordError) -> Any:
    """Read a JSON file, gzip-compressed if its name ends in ``.gz``; an unreadable file or broken
    JSON raises ``error`` with a one-line message."""
    try:
        if str(path).endswith(".gz"):
            text = gzip.decompress(Path(path).read_bytes()).decode("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise error(f"cannot read {path}: {e.strerror or e}") from None
    except (EOFError, gzip.BadGzipFile, zlib.error, UnicodeDecodeError) as e:
        raise error(f"cannot read {path}: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise error(f"{path} is not valid JSON (line {e.lineno}, column {e.colno})") from None


def load_record(path: str | os.PathLike) -> GameRecord:
    """Read a record from a JSON file.

    Raises:
        RecordError: the file is missing, not JSON, or not a game record.
    """
    return GameRecord.from_json(read_json(path))


def new_state(record: GameRecord):
    """Build the initial state of a record's game (no actions applied).

    Raises:
        RecordError: unknown game or a config the game rejects.
    """
    from rolling.games import get_game

    game = get_game(record.game)
    config = game.read_record_config(record.config)
    return game.new_game(config, record.seed)


def replay_steps(record: GameRecord, upto: int | None = None, log: bool = False) -> Iterator:
    """Rebuild a record's game step by step: yield the state once new, then after each of its
    actions (the first ``upto`` of them, if given). The same state object is yielded each time.

    Args:
        log: switch the state's event log on before the first action (for games that keep one).

    Raises:
        RecordError: an action is malformed or illegal where the record applies it (the message
            names the action's index and the broken rule).
    """
    from rolling.games import get_game

    game = get_game(record.game)
    state = new_state(record)
    if log and hasattr(state, "enable_log"):
        state.enable_log()
    yield state
    actions = record.actions if upto is None else record.actions[:upto]
    for i, data in enumerate(actions):
        action = game.action_from_json(data)
        try:
            state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"action {i} ({data}) is illegal: {e}") from None
        yield state


def replay(record: GameRecord, upto: int | None = None, log: bool = False):
    """Rebuild the state of a record by applying its actions (the first ``upto`` of them, if given).

    The same as the last state of :func:`replay_steps`, in one loop without a generator (replay is
    timed against other engines with the reading of actions included: issue 34). Every action is
    read first and then applied: two tight loops run faster than one that alternates between them.
    What is raised is what :func:`replay_steps` raises: an action that cannot be read raises its
    error only once the actions before it have applied, so an earlier illegal action is still the
    one reported.

    Returns:
        the game state after the actions.

    Raises:
        RecordError: see :func:`replay_steps`.
    """
    from rolling.games import get_game

    read = get_game(record.game).action_from_json
    state = new_state(record)
    if log and hasattr(state, "enable_log"):
        state.enable_log()
    data = record.actions if upto is None else record.actions[:upto]
    unread = None  # the error of the first action that cannot be read, raised after those before it
    read_all = getattr(read, "read_all", None)  # a json_reader's batch form, when the game has one
    try:
        actions = read_all(data) if read_all is not None else [read(d) for d in data]
    except Exception:
        actions = []
        for d in data:
            try:
                actions.append(read(d))
            except Exception as e:
                unread = e
                break
    apply = state.apply
    i = 0
    try:
        for i, action in enumerate(actions):  # noqa: B007 (i names the action refused)
            apply(action)
    except IllegalAction as e:
        raise RecordError(f"action {i} ({data[i]}) is illegal: {e}") from None
    if unread is not None:
        raise unread
    return state
