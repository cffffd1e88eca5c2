"""Batch simulation: many bot games, with statistics (one module per game, e.g. :mod:`.stars`)."""
