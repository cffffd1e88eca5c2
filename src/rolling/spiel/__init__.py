"""OpenSpiel games for the three Rolling games (needs the ``research`` extra: ``pip install 'rolling[research]'``).

Importing this package registers ``python_rolling_stars``, ``python_rolling_freight`` and
``python_rolling_market`` with ``pyspiel``::

    import pyspiel
    import rolling.spiel  # noqa: F401 - registers the games
    game = pyspiel.load_game("python_rolling_stars", {"players": 3, "variants": "secret-money"})

docs/research.md documents parameters, chance nodes, observations and returns.
"""

try:
    import pyspiel  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("the OpenSpiel games need open_spiel: pip install 'rolling[research]'") from e

from .games import FreightGame, MarketGame, StarsGame  # noqa: E402

__all__ = ["FreightGame", "MarketGame", "StarsGame"]
