"""The ``rolling`` command line (typer): each module declares its game's options and calls the
shared layers (:mod:`rolling.cli.shared`, :mod:`rolling.ui`, :mod:`rolling.sim`, :mod:`rolling.bots`)."""
