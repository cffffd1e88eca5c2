"""``python -m rolling``: the ``rolling`` command (:mod:`rolling.cli.main`)."""

from rolling.cli.main import main

if __name__ == "__main__":
    main()
