"""Errors raised by the rules engines."""


class IllegalAction(Exception):
    """An action that the rules do not allow in the current state.

    The state it was applied to is left exactly as it was.

    Attributes:
        rule: the rule section that forbids the action, e.g. ``"Auction"`` or ``"Phase 3: Acquisition"``.
        reason: a sentence saying what is wrong.
    """

    def __init__(self, rule: str, reason: str):
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class RecordError(ValueError):
    """A game record (JSON) that cannot be read: wrong shape, unknown game or unknown action."""


class UsageError(ValueError):
    """A request a front end cannot carry out as given (conflicting options, an unknown seat or bot
    name); the message is one line for the person who made it."""
