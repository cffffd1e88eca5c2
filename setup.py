"""The compiled parts of the package (everything else is in pyproject.toml).

``rolling.core._splitmix``: the steps of the games' random number generator (SplitMix64,
:class:`rolling.core.rng.Rng`) in C (issue 34), optional like the others: where it is not built
the same stream is drawn in Python.
``rolling.games.freight._walk``: the payment-front walk of Rolling Freight in C (issue 34),
``rolling.games.freight._routes``: its major-route search in C,
``rolling.games.freight._stockpile``: its stockpile options in C,
``rolling.games.freight._listing``: a seat's construction moves and prices in C, and
``rolling.games.freight._turn``: the end of its turns (steps F, G, H) in C. They are optional: where no C
compiler is found the install goes on without them and the same walk and search run in Python
(:mod:`rolling.games.freight.payways`, :mod:`rolling.games.freight.routes`,
:mod:`rolling.games.freight.stockpile`, :mod:`rolling.games.freight.legal`,
:mod:`rolling.games.freight.turn`), with the same answers.

The rule modules of Rolling Freight that every turn runs through (:data:`FREIGHT_COMPILED`) are
also compiled, by Cython, from their own ``.py`` files: the same code, about 1.4 times sooner
(issue 34). They are optional too, and next to each the build writes the SHA-256 of the source it
was compiled from (``<module>.sha256``): :mod:`rolling.games.freight.compiled` imports a compiled
module only while its source is unchanged (an edited rule takes effect without a rebuild).
"""

import hashlib
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:  # a build requirement (pyproject.toml); missing only where setup.py is run by hand
    from Cython.Build import cythonize
except ImportError:
    cythonize = None

FREIGHT = "src/rolling/games/freight"
# the reads of Python objects the four C parts share (a header: a rebuild when it changes; in the sdist)
CREAD_H = f"{FREIGHT}/_cread.h"
#: SplitMix64's steps, shared by the generator's own C part and the end of a Freight turn
SPLITMIX_H = "src/rolling/core/_splitmix.h"
#: the Freight rule modules a turn runs through (listing, paying, applying, ending the turn);
#: the opening draft, setup, previews and the chooser of compiled modules stay plain Python
FREIGHT_COMPILED = ("actions", "components", "construction", "contracts", "dice", "events", "improvements",
                    "legal", "payment", "payways", "phases", "refill", "routes", "state", "stations",
                    "stockpile", "turn")


def _sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class BuildExt(build_ext):
    """``build_ext`` that writes ``<module>.sha256`` (the source's SHA-256) next to each rule module
    it compiled, in the build folder and, for an editable install, in the source tree."""

    def build_extension(self, ext):
        super().build_extension(ext)  # raises (and the module is skipped) where it cannot be built
        source = getattr(ext, "rolling_source", None)
        if source:
            with open(self._sidecar(os.path.dirname(self.get_ext_fullpath(ext.name)), ext), "w") as f:
                f.write(_sha256(source) + "\n")

    def copy_extensions_to_source(self):
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            if not getattr(ext, "rolling_source", None):
                continue
            package = ext.name.rpartition(".")[0]
            built = self._sidecar(os.path.join(self.build_lib, *package.split(".")), ext)
            if os.path.exists(built):
                self.copy_file(built, self._sidecar(build_py.get_package_dir(package), ext))

    @staticmethod
    def _sidecar(folder: str, ext) -> str:
        """The ``<module>.sha256`` of rule module ``ext`` in ``folder``."""
        return os.path.join(folder, ext.name.rpartition(".")[2] + ".sha256")


def _rule_modules() -> list:
    if cythonize is None:
        return []
    exts = [Extension(f"rolling.games.freight.{m}", [f"{FREIGHT}/{m}.py"], extra_compile_args=["-O2", "-g0"])
            for m in FREIGHT_COMPILED]
    try:
        built = cythonize(exts, build_dir="build/cython", quiet=True,
                          # the annotations document; they are not checked at run time (the plain
                          # Python the tests also run never checks them)
                          compiler_directives={"language_level": 3, "annotation_typing": False})
    except Exception as e:  # optional like the C parts: the same rules then run as plain Python
        print(f"setup.py: the Freight rule modules stay plain Python (Cython: {e})")
        return []
    for ext, m in zip(built, FREIGHT_COMPILED, strict=True):
        ext.optional = True
        ext.rolling_source = f"{FREIGHT}/{m}.py"
    return built


setup(
    cmdclass={"build_ext": BuildExt},
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
    ext_modules=[
        Extension(
            "rolling.core._splitmix",
            ["src/rolling/core/_splitmix.c"],
            depends=[SPLITMIX_H],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "rolling.games.freight._walk",
            ["src/rolling/games/freight/_walk.c"],
            depends=[CREAD_H],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "rolling.games.freight._stockpile",
            ["src/rolling/games/freight/_stockpile.c"],
            depends=[CREAD_H],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "rolling.games.freight._listing",
            ["src/rolling/games/freight/_listing.c"],
            depends=[CREAD_H],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "rolling.games.freight._routes",
            ["src/rolling/games/freight/_routes.c"],
            depends=[CREAD_H],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "rolling.games.freight._turn",
            ["src/rolling/games/freight/_turn.c"],
            depends=[SPLITMIX_H, CREAD_H],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        *_rule_modules(),
    ],
)
