"""The ``rolling`` command line (typer)."""
