"""Actions: small frozen records with a JSON form.

Every game defines its actions as frozen, slotted dataclasses subclassing :class:`Action`, and
registers them with :func:`action_type` under a short name. ``to_json`` gives
``{"type": name, **fields}``; :func:`action_from_json` reverses it for a game's registry.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .errors import RecordError


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


def action_from_json(registry: dict[str, type], data: Any) -> Action:
    """Build an action from its JSON form.

    Raises:
        RecordError: unknown ``type``, missing or unexpected fields, or values of the wrong kind.
    """
    if not isinstance(data, dict) or "type" not in data:
        raise RecordError(f"an action must be an object with a 'type', got {data!r}")
    cls = registry.get(data["type"])
    if cls is None:
        raise RecordError(f"unknown action type {data['type']!r}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise RecordError(f"action {data['type']!r} lacks field {f.name!r}")
        v = data[f.name]
        want = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
        if want == "int" and (not isinstance(v, int) or isinstance(v, bool)):
            raise RecordError(f"action {data['type']!r}: field {f.name!r} must be an integer, got {v!r}")
        if want == "bool" and not isinstance(v, bool):
            raise RecordError(f"action {data['type']!r}: field {f.name!r} must be true or false, got {v!r}")
        if want == "str" and not isinstance(v, str):
            raise RecordError(f"action {data['type']!r}: field {f.name!r} must be a string, got {v!r}")
        kwargs[f.name] = v
    extra = set(data) - {"type"} - {f.name for f in dataclasses.fields(cls)}
    if extra:
        raise RecordError(f"action {data['type']!r} has unknown fields {sorted(extra)}")
    return cls(**kwargs)
