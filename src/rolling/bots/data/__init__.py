"""The bots' shipped models, installed with the package: the learned value trees of Stars
(``stars_value.npz``) and Freight (``freight_value.npz``), Market's policy weights
(``market_policy.npz``) and value networks (``market_value.npz``). Their loaders read them with
:func:`open_shipped`."""

from __future__ import annotations

from importlib import resources
from typing import BinaryIO

__all__ = ["open_shipped"]


def open_shipped(name: str) -> BinaryIO:
    """The shipped file ``name`` (``"market_value.npz"``) of this package, open for reading bytes;
    close it (``with open_shipped(name) as f:``).

    Raises:
        FileNotFoundError: the package was installed without it.
    """
    return resources.files(__name__).joinpath(name).open("rb")
