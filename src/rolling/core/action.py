"""Actions: small frozen records with a JSON form.

Every game defines its actions as frozen, slotted dataclasses subclassing :class:`Action`, and
registers them with :func:`action_type` under a short name. ``to_json`` gives
``{"type": name, **fields}``; :func:`action_from_json` reverses it for a game's registry.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any

from .errors import IllegalAction, RecordError


class Action:
    """Base class of all actions. Subclasses are frozen dataclasses with ``slots=True``."""

    __slots__ = ()
    type_name: str = "action"
    #: fields added to an action after records were written: left out of the JSON form while they
    #: hold their default, so older records and their digests stay as they were
    optional_fields: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return ``{"type": name, field: value, ...}`` with JSON-able values (fields in declared
        order; an ``optional_fields`` field left out while it holds its default)."""
        write = _WRITERS.get(type(self))
        if write is None:
            write = _WRITERS[type(self)] = _writer(type(self))
        return write(self)


def action_type(registry: dict[str, type], name: str):
    """Class decorator: give an action class its JSON ``type`` name and add it to ``registry``."""

    def deco(cls):
        cls.type_name = name
        registry[name] = cls
        return cls

    return deco


#: the plain kinds a field may declare, by the name in its annotation, and how a message says each
_KINDS = {"int": (int, "an integer"), "bool": (bool, "true or false"), "str": (str, "a string")}
#: action class -> ((field name, kind, words), ...) for its int, bool and str fields
_FIELD_KINDS: dict[type, tuple[tuple[str, type, str], ...]] = {}
#: action class -> a function telling whether an action of that class holds exactly the declared
#: kinds (the fast test on the hot path of every ``apply``; see :func:`check_fields`)
_CHECKS: dict[type, Any] = {}


def field_kinds(cls: type) -> tuple[tuple[str, type, str], ...]:
    """``(name, kind, words)`` for each field of action class ``cls`` declared ``int``, ``bool`` or
    ``str`` (other fields, such as a deal's transactions, check themselves); ``()`` for anything
    that is not a dataclass. Worked out once per class."""
    kinds = _FIELD_KINDS.get(cls)
    if kinds is None:
        kinds = ()
        if dataclasses.is_dataclass(cls):
            for f in dataclasses.fields(cls):
                name = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
                if name in _KINDS:
                    kinds += ((f.name, *_KINDS[name]),)
        _FIELD_KINDS[cls] = kinds
    return kinds


def _exact_check(cls: type):
    """``ok(action)``: whether each int, bool and str field of a ``cls`` action is exactly of its
    kind. Built as one expression per class (as :mod:`dataclasses` builds ``__init__``): about
    twice as fast as a loop over the fields, and it runs on every action applied."""
    kinds = field_kinds(cls)
    test = " and ".join(f"type(a.{name}) is {kind.__name__}" for name, kind, _ in kinds) or "True"
    namespace: dict[str, Any] = {}
    exec(f"def ok(a):\n    return {test}\n", {"type": type, "int": int, "bool": bool, "str": str}, namespace)
    return namespace["ok"]


def exact_check(cls: type):
    """``ok(action)``: whether each int, bool and str field of a ``cls`` action holds exactly its
    kind (no ``bool`` for an ``int``, no subclass of ``str``); built once per class. True means
    :func:`check_fields` would pass; False, that it must look closer (it may still pass)."""
    ok = _CHECKS.get(cls)
    if ok is None:
        ok = _CHECKS[cls] = _exact_check(cls)
    return ok


def check_fields(action: Any, rule: str) -> None:
    """Check that each ``int`` field of ``action`` holds an ``int`` that is not a ``bool`` (amounts
    are whole $; seats, slots and dice are counted), each ``bool`` field a ``bool`` and each
    ``str`` field a ``str``; the engines call it first in ``apply``. Nothing for an object that is
    not a dataclass (the engine refuses it as no action of its game).

    Raises:
        IllegalAction: ``rule`` and the field named, e.g. "field 'amount' must be an integer, got 8.5".
    """
    if exact_check(type(action))(action):
        return
    for name, kind, words in field_kinds(type(action)):
        v = getattr(action, name)
        if not _holds(v, kind):
            raise IllegalAction(rule, f"field {name!r} must be {words}, got {v!r}")


def _holds(v: Any, kind: type) -> bool:
    """Whether ``v`` is of ``kind`` (a subclass of ``str`` is a string; ``bool`` is no integer)."""
    return type(v) is kind or (kind is str and isinstance(v, str))


def action_from_json(registry: dict[str, type], data: Any) -> Action:
    """Build an action of a game's ``registry`` from its JSON form (see :func:`json_reader`).

    Raises:
        RecordError: unknown ``type``, missing or unexpected fields, or values of the wrong kind
            (the field named; see :func:`_build_checked`).
    """
    return json_reader(registry)(data)


def json_reader(registry: dict[str, type]):
    """``from_json(data)``: the reader of a game's actions (``registry``: type name -> class),
    made once per registry. It looks ``data["type"]`` up in a table of readers, one generated per
    action class (:func:`reader`), so no field is introspected per call; whatever the table does
    not hold (an unknown type, no action at all) takes the checked path, which raises the error.
    ``from_json.read_all(list)`` reads a list of them, as ``[from_json(d) for d in list]`` does
    (the same actions, the same error), with one call fewer per action (used by
    :func:`rolling.core.record.replay`).

    Raises (the reader):
        RecordError: see :func:`action_from_json`.
    """
    entry = _TABLES.get(id(registry))
    if entry is None or entry[0] is not registry:
        table: dict[str, Any] = {}

        def from_json(data: Any) -> Action:
            """Build an action of this game from its JSON form (raises RecordError)."""
            try:
                read = table[data["type"]]
            except (KeyError, TypeError, IndexError):
                return _read_checked(registry, table, data)
            return read(data)

        def read_all(datas: list) -> list[Action]:
            """``[from_json(d) for d in datas]`` with the table looked up inline (one call fewer per
            action: replay reads a whole record at once, issue 34); raises what that raises."""
            try:
                return [table[d["type"]](d) for d in datas]
            except Exception:  # an action the table does not hold: read one by one, to raise its error
                return [from_json(d) for d in datas]

        from_json.read_all = read_all  # type: ignore[attr-defined]
        entry = _TABLES[id(registry)] = (registry, from_json)
    return entry[1]


#: id(registry) -> (the registry, kept alive so its id stays its own; its reader)
_TABLES: dict[int, tuple[dict[str, type], Any]] = {}
#: action class -> its reader / writer (generated once, on first use)
_READERS: dict[type, Any] = {}
_WRITERS: dict[type, Any] = {}


def _read_checked(registry: dict[str, type], table: dict[str, Any], data: Any) -> Action:
    """Build an action from its JSON form, checking one thing after another (the path for what
    ``table``, the dispatch table of :func:`json_reader`, does not hold); first fill the table
    with a reader for each class of ``registry`` (again if classes were registered since).

    Raises:
        RecordError: see :func:`action_from_json`.
    """
    if len(table) != len(registry) or any(table.get(name) is not reader(cls) for name, cls in registry.items()):
        table.clear()
        table.update({name: reader(cls) for name, cls in registry.items()})
    if not isinstance(data, dict) or "type" not in data:
        raise RecordError(f"an action must be an object with a 'type', got {data!r}")
    cls = registry.get(data["type"]) if isinstance(data["type"], str) else None
    if cls is None:
        raise RecordError(f"unknown action type {data['type']!r}")
    return _build_checked(cls, data)


def _build_checked(cls: type, data: dict) -> Action:
    """The action of class ``cls`` from its JSON object ``data``, checked field by field: what a
    generated reader accepts is exactly what this accepts, and it raises the errors that name the
    field for everything else (a generated reader hands those cases here).

    Raises:
        RecordError: a missing field, a value of the wrong kind, an unknown key.
    """
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise RecordError(f"action {data['type']!r} lacks field {f.name!r}")
        kwargs[f.name] = data[f.name]
    for name, kind, words in field_kinds(cls):
        if name in kwargs and not _holds(kwargs[name], kind):
            raise RecordError(f"action {data['type']!r}: field {name!r} must be {words}, got {kwargs[name]!r}")
    extra = set(data) - {"type"} - {f.name for f in dataclasses.fields(cls)}
    if extra:
        raise RecordError(f"action {data['type']!r} has unknown fields {sorted(extra, key=str)}")
    return cls(**kwargs)


def reader(cls: type):
    """``read(data)``: the action of class ``cls`` from its JSON object, generated once per class
    (as :mod:`dataclasses` generates ``__init__``): it takes every field by name, tests the count
    of keys (so no unknown key passes), the exact kind of each int, bool and str field, and builds
    the action. Anything else it hands to :func:`_build_checked`, which accepts what it accepts
    and raises the error that names the field otherwise.

    Raises:
        RecordError: see :func:`action_from_json`.
    """
    read = _READERS.get(cls)
    if read is None:
        read = _READERS[cls] = _reader(cls)
    return read


#: how many values of a lone int field get a shared instance (seats are 0..5)
_POOLED = 8


def _reader(cls: type):
    """Generate :func:`reader`'s function for ``cls`` (locals are prefixed, so that no field name
    can shadow another)."""
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING]
    defaulted = [f for f in fields if f.default is not dataclasses.MISSING]
    kinds = {name: kind for name, kind, _ in field_kinds(cls)}
    # built through the slots when ``__init__`` does no more than set them (about twice as fast as
    # calling the class); otherwise (``__post_init__``, a default factory) by the class itself
    simple = (not hasattr(cls, "__post_init__")
              and all(f.init and f.default_factory is dataclasses.MISSING for f in fields)
              and all(isinstance(cls.__dict__.get(f.name), types.MemberDescriptorType) for f in fields))
    env: dict[str, Any] = {"_cls": cls, "_new": object.__new__, "_slow": lambda d: _build_checked(cls, d),
                           "type": type, "int": int, "bool": bool, "str": str}
    lines = ["def read(_d):"]
    if required:
        lines += ["    try:", *(f"        v_{f.name} = _d[{f.name!r}]" for f in required),
                  "    except KeyError:", "        return _slow(_d)"]
    count = " + ".join([str(1 + len(required)), *(f"({f.name!r} in _d)" for f in defaulted)])
    lines += [f"    if len(_d) != {count}:", "        return _slow(_d)"]
    for f in defaulted:
        env[f"D_{f.name}"] = f.default
        lines.append(f"    v_{f.name} = _d.get({f.name!r}, D_{f.name})")
    test = " and ".join(f"type(v_{f.name}) is {kinds[f.name].__name__}" for f in fields if f.name in kinds)
    if test:
        lines += [f"    if not ({test}):", "        return _slow(_d)"]
    if simple and len(fields) == 1 and kinds.get(fields[0].name) is int:
        # an action holding only a small count (a seat): one shared instance per value, as frozen
        # actions may be (no allocation for the commonest actions, pass and done)
        env["_POOL"] = tuple(cls(i) for i in range(_POOLED))
        name = fields[0].name
        lines += [f"    if 0 <= v_{name} < {_POOLED}:", f"        return _POOL[v_{name}]"]
    if simple:
        lines.append("    _a = _new(_cls)")
        for f in fields:
            env[f"S_{f.name}"] = cls.__dict__[f.name].__set__
            lines.append(f"    S_{f.name}(_a, v_{f.name})")
        lines.append("    return _a")
    else:
        lines.append(f"    return _cls({', '.join(f'{f.name}=v_{f.name}' for f in fields)})")
    exec("\n".join(lines), env)
    return env["read"]


def _writer(cls: type):
    """``write(action)``: the JSON object of an action of class ``cls`` (see :meth:`Action.to_json`),
    generated once per class."""
    env: dict[str, Any] = {}
    lines = ["def write(_a):", f"    _d = {{'type': {cls.type_name!r}}}"]
    for f in dataclasses.fields(cls):
        if f.name in cls.optional_fields:
            env[f"D_{f.name}"] = f.default
            lines += [f"    if not (_a.{f.name} == D_{f.name}):", f"        _d[{f.name!r}] = _a.{f.name}"]
        else:
            lines.append(f"    _d[{f.name!r}] = _a.{f.name}")
    lines.append("    return _d")
    exec("\n".join(lines), env)
    return env["write"]


