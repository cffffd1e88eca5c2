"""Optional dependencies: pyproject's extras and the one-line message when one is missing.

A player's install (``pip install rolling``) plays, simulates to CSV and serves the web app; the
research environments, the balance report, Parquet files and board pictures need an extra. Those
packages are imported only inside the functions that use them, so the light install never loads
them; when one is missing, :func:`missing_extra` turns the import error into :class:`MissingExtra`,
whose message names the extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from rolling.core.errors import UsageError

#: the optional packages (top-level import names) and the extra of pyproject.toml that brings each
OPTIONAL: dict[str, str] = {
    "gymnasium": "research",
    "pettingzoo": "research",
    "pandas": "report",
    "pyarrow": "report",
    "matplotlib": "report",
    "pyspiel": "research",
    "greenlet": "research",
    "ray": "ray",
    "psycopg": "postgres",
    "psycopg_pool": "postgres",
    "procrastinate": "postgres",
    "cma": "train",
}


class MissingExtra(UsageError, ImportError):
    """An optional package that is not installed; the message says which extra brings it, e.g.
    ``pandas is not installed: pip install 'rolling[report]'``.

    A :class:`~rolling.core.errors.UsageError` (front ends print it as one line) and an
    ``ImportError`` (``except ImportError`` around an optional import still works).

    Attributes:
        package: the top-level name of the missing package (``"pandas"``).
        extra: the extra that brings it (``"report"``).
    """

    def __init__(self, package: str, extra: str):
        super().__init__(f"{package} is not installed: pip install 'rolling[{extra}]'")
        self.name = package
        self.package = package
        self.extra = extra


def missing_extra(error: ImportError) -> MissingExtra | None:
    """The :class:`MissingExtra` that ``error`` means, or ``None`` when the module it could not
    import is not one of :data:`OPTIONAL` (a genuine bug, to be raised as it is)."""
    if isinstance(error, MissingExtra):
        return error
    if not isinstance(error, ModuleNotFoundError) or not error.name:
        return None
    top = error.name.split(".")[0]
    return MissingExtra(top, OPTIONAL[top]) if top in OPTIONAL else None


def import_optional(name: str) -> ModuleType:
    """Import the module ``name`` (a module of this package that needs an extra, or an optional
    package itself) and return it.

    Raises:
        MissingExtra: an optional package it needs is not installed.
    """
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        missing = missing_extra(e)
        if missing is None:
            raise
        raise missing from None
