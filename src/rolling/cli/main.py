"""Entry point of the ``rolling`` command.

Each game's commands live in their own module (``rolling.cli.<game>``) with a
``register(app, groups)`` function; they parse their options and call the shared layers
(:mod:`rolling.cli.shared`, :mod:`rolling.ui`, :mod:`rolling.sim`, :mod:`rolling.bots`). This module
only assembles them, reads the options of every command (``--version``, ``--log-level``, shell
completion) and turns every error into a one-line message and a non-zero exit, never a traceback;
a command that needs an extra that is not installed says which (:mod:`rolling.core.extras`).
"""

from __future__ import annotations

import importlib
import logging
import sys
from enum import StrEnum

import typer

import rolling
from rolling.core.errors import IllegalAction, RecordError, UsageError
from rolling.core.extras import missing_extra

# Recent typer releases carry their own copy of click (and do not depend on click); older ones use
# click itself. Catch the errors of whichever is there.
_CLICK_ERRORS: tuple[type, ...] = ()
_EXITS: tuple[type, ...] = (typer.Exit,)
_ABORTS: tuple[type, ...] = (typer.Abort,)
try:
    from typer._click.exceptions import ClickException as _TyperClickException  # type: ignore[import-not-found]

    _CLICK_ERRORS += (_TyperClickException,)
except ImportError:  # pragma: no cover - older typer
    pass
try:
    import click

    _CLICK_ERRORS += (click.ClickException,)
    _EXITS += (click.exceptions.Exit,)
    _ABORTS += (click.exceptions.Abort,)
except ImportError:  # pragma: no cover - newer typer without click
    pass

app = typer.Typer(
    name="rolling",
    help="Play, replay, simulate and benchmark the Rolling family of train games.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
simulate_app = typer.Typer(help="Run many bot games and report statistics.", no_args_is_help=True)
bench_app = typer.Typer(help="Measure engine speed.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(simulate_app, name="simulate")
app.add_typer(bench_app, name="bench")



class LogLevel(StrEnum):
    """The levels of ``--log-level`` (the stdlib's, in lower case)."""

    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"
    critical = "critical"


#: how a log record looks on stderr
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _StderrHandler(logging.StreamHandler):
    """A handler writing to whatever ``sys.stderr`` is when a record comes (not the one at set-up),
    so that redirecting stderr later (tests, a caller of :func:`main`) is followed."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:  # logging.StreamHandler.__init__ sets it
        pass


def configure_logging(level: str) -> None:
    """Send the log records of ``level`` (``"debug"`` ... ``"critical"``) and above, of every
    logger (``rolling.*``, uvicorn's), to stderr as ``TIME LEVEL LOGGER: message`` lines.

    Called once per command; calling it again only changes the level.
    """
    root = logging.getLogger()
    if not any(isinstance(h, _StderrHandler) for h in root.handlers):
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
        root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))


def _print_version(value: bool) -> None:
    if value:
        print(f"rolling {rolling.__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="print the version and exit"),
    log_level: LogLevel = typer.Option(LogLevel.warning, "--log-level", envvar="ROLLING_LOG_LEVEL",
                                       case_sensitive=False,
                                       help="the least important log records shown on stderr (the web "
                                            "server and simulate log at info)"),
) -> None:
    """Play, replay, simulate and benchmark the Rolling family of train games."""
    configure_logging(log_level.value)


#: the command groups a module may add commands to
GROUPS = {"play": play_app, "simulate": simulate_app, "bench": bench_app}

#: modules whose ``register(app, GROUPS)`` adds commands
COMMAND_MODULES = [
    "rolling.cli.common",
    "rolling.cli.stars",
    "rolling.cli.market",
    "rolling.cli.freight",
    "rolling.cli.serve",
    "rolling.cli.worker",
    "rolling.cli.report",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app, GROUPS)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; errors become one line on stderr and exit status 2."""
    from rolling.cli.batch import optional_ray_address

    try:
        rv = app(args=optional_ray_address(sys.argv[1:] if argv is None else list(argv)), prog_name="rolling",
                 standalone_mode=False)
    except _EXITS as e:
        raise SystemExit(e.exit_code) from None
    except _ABORTS:
        print("rolling: aborted", file=sys.stderr)
        raise SystemExit(130) from None
    except _CLICK_ERRORS as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # `rolling` or `rolling play` alone: the help, as it is
            print(e.format_message(), file=sys.stderr)
            raise SystemExit(2) from None
        msg = e.format_message().replace("\n", " ")
        print(f"rolling: {msg}", file=sys.stderr)
        raise SystemExit(e.exit_code if e.exit_code else 2) from None
    except (RecordError, IllegalAction, UsageError) as e:
        print(f"rolling: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except ModuleNotFoundError as e:
        missing = missing_extra(e)
        if missing is None:
            raise
        print(f"rolling: {missing}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        print("\nrolling: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    except BrokenPipeError:
        raise SystemExit(1) from None
    if isinstance(rv, int) and rv:
        raise SystemExit(rv)


if __name__ == "__main__":
    main()
