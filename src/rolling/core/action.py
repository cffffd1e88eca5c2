"""Actions: small frozen records with a JSON form.

Every game defines its actions as frozen, slotted dataclasses subclassing :class:`Action`, and
registers them with :func:`action_type` under a short name. ``to_json`` gives
``{"type": name, **fields}``; :func:`action_from_json` reverses it for a game's registry.
"""

from __future__ import annotations

import dataclasses
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
        """Return ``{"type": name, field: value, ...}`` with JSON-able values."""
        d: dict[str, Any] = {"type": self.type_name}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if f.name in self.optional_fields and v == f.default:
                continue
            d[f.name] = v
        return d


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


def check_fields(action: Any, rule: str) -> None:
    """Check that each ``int`` field of ``action`` holds an ``int`` that is not a ``bool`` (amounts
    are whole $; seats, slots and dice are counted), each ``bool`` field a ``bool`` and each
    ``str`` field a ``str``; the engines call it first in ``apply``. Nothing for an object that is
    not a dataclass (the engine refuses it as no action of its game).

    Raises:
        IllegalAction: ``rule`` and the field named, e.g. "field 'amount' must be an integer, got 8.5".
    """
    ok = _CHECKS.get(type(action))
    if ok is None:
        ok = _CHECKS[type(action)] = _exact_check(type(action))
    if ok(action):
        return
    for name, kind, words in field_kinds(type(action)):
        v = getattr(action, name)
        if not _holds(v, kind):
            raise IllegalAction(rule, f"field {name!r} must be {words}, got {v!r}")


def _holds(v: Any, kind: type) -> bool:
    """Whether ``v`` is of ``kind`` (a subclass of ``str`` is a string; ``bool`` is no integer)."""
    return type(v) is kind or (kind is str and isinstance(v, str))


def action_from_json(registry: dict[str, type], data: Any) -> Action:
    """Build an action from its JSON form.

    Raises:
        RecordError: unknown ``type``, missing or unexpected fields, or values of the wrong kind.
    """
    if not isinstance(data, dict) or "type" not in data:
        raise RecordError(f"an action must be an object with a 'type', got {data!r}")
    cls = registry.get(data["type"]) if isinstance(data["type"], str) else None
    if cls is None:
        raise RecordError(f"unknown action type {data['type']!r}")
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
