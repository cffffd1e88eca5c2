"""The one compiled part of the package (everything else is in pyproject.toml).

``rolling.games.freight._walk``: the payment-front walk of Rolling Freight in C (issue 34). It
is optional: where no C compiler is found the install goes on without it and the same walk runs
in Python (:mod:`rolling.games.freight.payways`), with the same answers.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rolling.games.freight._walk",
            ["src/rolling/games/freight/_walk.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
