"""Seat tokens: the secret in each seat's link. Only their SHA-256 hashes are stored, so a copy of
the database gives nobody a seat."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets


def new_token() -> str:
    """A fresh unguessable token (32 URL-safe characters, 192 random bits)."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A fresh game id (11 URL-safe characters); ids are public (the spectator link)."""
    return secrets.token_urlsafe(8)


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token, as stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` hashes to ``stored`` (compared in constant time)."""
    return stored is not None and hmac.compare_digest(hash_token(token), stored)


def split_tokens(text: str | None) -> list[str]:
    """The tokens of ``X-Seat-Tokens: a,b`` or ``?t=a,b`` (blanks dropped, at most 16 kept)."""
    if not text:
        return []
    return [t.strip() for t in text.split(",") if t.strip()][:16]


#: a seat token in a request's query string (``?t=a,b``), as it would appear in an access log
_TOKEN_QUERY = re.compile(r"([?&]t=)[^&\s]*")


def redact_tokens(path: str) -> str:
    """``path`` with the seat tokens of its query string replaced by ``***`` (``/g/1?t=ab,cd`` ->
    ``/g/1?t=***``): a token is a seat's key, and a log line is read by people who hold no seat."""
    return _TOKEN_QUERY.sub(r"\1***", path)


class RedactTokens(logging.Filter):
    """A logging filter for uvicorn's access log that takes the seat tokens out of each request
    line (its ``args`` are ``(client, method, path, http version, status)``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_tokens(args[2]), *args[3:])
        return True
