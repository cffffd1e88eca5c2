"""Where the web app keeps its data unless told otherwise."""

from __future__ import annotations

from pathlib import Path

import platformdirs

#: the bot pace of ``rolling serve``: seconds between a move and a bot's answer, so people see it
DEFAULT_BOT_PACE = 0.3


def default_db_path() -> Path:
    """``platformdirs.user_data_dir("rolling")/rolling.db`` (on Linux ``~/.local/share/rolling/rolling.db``)."""
    return Path(platformdirs.user_data_dir("rolling")) / "rolling.db"


def default_db_url() -> str:
    """The SQLAlchemy URL of the default SQLite database (its folder is created when needed)."""
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"
