"""Seat tokens: the secret in each seat's link. Only their SHA-256 hashes are stored, so a copy of
the database gives nobody a seat."""

from __future__ import annotations

import hashlib
import hmac
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
