"""Which Freight rule modules run compiled (issue 34).

``setup.py`` compiles the rule modules a turn runs through with Cython, from their own ``.py``
files, where a C compiler is found: the same code and the same games, about 1.4 times sooner.
Next to each compiled module it writes ``<module>.sha256``, the SHA-256 of the source it was
compiled from.

A compiled module is imported only while its source is the one it was compiled from and
``ROLLING_PURE_PYTHON`` is not set; otherwise :class:`SourceWhereStale` imports the ``.py`` file
itself (the finder is installed when this module is imported, which the package does first). So an
edited rule takes effect at once, without a rebuild, and the tests can run the plain-Python rules
where the compiled ones are built. ``ROLLING_PURE_PYTHON`` (read once, at import) also turns off
the compiled payment walk and route search (:func:`.payways.compiled`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

PACKAGE = __name__.rpartition(".")[0]
HERE = os.path.dirname(os.path.abspath(__file__))
#: ``ROLLING_PURE_PYTHON`` set: every rule module from its ``.py`` file
PURE = bool(os.environ.get("ROLLING_PURE_PYTHON"))
#: how a compiled module's file name ends here
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def built() -> tuple[str, ...]:
    """The names of the rule modules with a compiled file here beside their ``.py`` file, sorted;
    ``()`` where none was built (no C compiler at install)."""
    names = set()
    for entry in os.listdir(HERE):
        if entry.endswith(_SUFFIXES):
            short = entry.split(".", 1)[0]
            if os.path.exists(os.path.join(HERE, short + ".py")):
                names.add(short)
    return tuple(sorted(names))


def fresh(short: str) -> bool:
    """Whether rule module ``short`` (``"legal"``...) was compiled from its ``.py`` file as it is now
    (its ``.sha256`` says so; a compiled file without one, built by hand, is not vouched for)."""
    try:
        with open(os.path.join(HERE, short + ".sha256")) as f:
            want = f.read().strip()
        with open(os.path.join(HERE, short + ".py"), "rb") as f:
            have = hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return False
    return want == have


def in_use() -> tuple[str, ...]:
    """The rule modules of :func:`built` that this process runs compiled (each imported if it was
    not yet: what :class:`SourceWhereStale` let through), sorted."""
    return tuple(m for m in built() if importlib.import_module(f"{PACKAGE}.{m}").__file__.endswith(_SUFFIXES))


class SourceWhereStale(importlib.abc.MetaPathFinder):
    """Finds a compiled rule module's ``.py`` file where the compiled one must not be used (the
    module text); leaves every other import to Python's own finders, which prefer the compiled
    file."""

    def __init__(self) -> None:
        self.compiled = set(built())

    def find_spec(self, fullname, path=None, target=None):
        """The spec of ``fullname``'s ``.py`` file, or ``None`` (the usual finders then decide)."""
        package, _, short = fullname.rpartition(".")
        if package != PACKAGE or short not in self.compiled or (not PURE and fresh(short)):
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(HERE, short + ".py"))


def install() -> None:
    """Put :class:`SourceWhereStale` first among the import system's finders (once)."""
    if not any(isinstance(f, SourceWhereStale) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceWhereStale())


install()
