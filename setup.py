"""The compiled parts of the package (everything else is in pyproject.toml).

``rolling.games.freight._walk``: the payment-front walk of Rolling Freight in C (issue 34), and
``rolling.games.freight._routes``: its major-route search in C. They are optional: where no C
compiler is found the install goes on without them and the same walk and search run in Python
(:mod:`rolling.games.freight.payways`, :mod:`rolling.games.freight.routes`), with the same answers.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rolling.games.freight._walk",
            ["src/rolling/games/freight/_walk.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "rolling.games.freight._routes",
            ["src/rolling/games/freight/_routes.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
