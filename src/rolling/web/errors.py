"""The web app's errors: each with its HTTP status and JSON name (``{"error", "message", "rule"?}``)."""

from __future__ import annotations

from typing import Any


class WebError(Exception):
    """An error with its HTTP status and JSON name: ``{"error": name, "message", "rule"?}``."""

    status = 400
    name = "BadRequest"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def body(self) -> dict[str, Any]:
        """The JSON error body."""
        d: dict[str, Any] = {"error": self.name, "message": self.message}
        if self.rule:
            d["rule"] = self.rule
        return d


class NotFound(WebError):
    """No such game (404)."""

    status, name = 404, "NotFound"


class Forbidden(WebError):
    """The request does not carry the token of the seat it acts for (403)."""

    status, name = 403, "Forbidden"


class StaleVersion(WebError):
    """The action was chosen on a version of the game that is no longer current (409)."""

    status, name = 409, "StaleVersion"

    def __init__(self, message: str = "the game changed, look again"):
        super().__init__(message)


class Illegal(WebError):
    """The rules forbid the action (400); ``rule`` names the rule section."""

    status, name = 400, "IllegalAction"


class Malformed(WebError):
    """The action is not an action of this game (unknown type, missing or wrong fields) (422)."""

    status, name = 422, "MalformedAction"


class UndoRefused(WebError):
    """Undo is not allowed now (403): another person or a bot moved since, a card was drawn or dice
    rolled since (:mod:`rolling.core.reveal`), the game is over, or nothing to undo; the message
    says which."""

    status, name = 403, "UndoRefused"


class Conflict(WebError):
    """The game is over or watch-only (409)."""

    status, name = 409, "GameClosed"
