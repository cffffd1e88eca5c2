"""The database tables (SQLAlchemy 2 declarative models); the schema itself is made by the Alembic
migrations in :mod:`rolling.web.migrations`, which must be kept in step with this module.

A game is its record: ``games`` holds the config and seed, ``actions`` the actions in order, one
row each, keyed ``(game_id, n)`` with ``n`` counting from 1, so two writers can never both add
action ``n``. Times are seconds since the epoch (UTC), as floats, the same in SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of the web app's tables."""


class Game(Base):
    """A game: what is needed to rebuild it (game, config, seed) and a summary kept up to date with
    every action (``version``, ``over``, ``to_act``) so that the lobby lists games without replaying.

    ``time_limits``: ``{"3": seconds, "4": seconds}`` for the any-order phases (Stars), or ``{}``.
    ``meta``: free facts (``source`` of an imported game, its site id; ``closed``: who ended a game
    before its end and when; ``events``: the server's lines of its log, such as a seat handed to a
    bot); ``watch_only``: an imported game, which nobody plays on. ``creator_hash``: the SHA-256 of
    the creator's token, which may stop or delete the game (none for an imported or older game).
    ``due_at``: when the game's next automated action is due (issue 30), kept with every change.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float, index=True)
    time_limits: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    watch_only: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    over: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    to_act: Mapped[list[int]] = mapped_column(JSON, default=list)
    updated: Mapped[float] = mapped_column(Float)
    creator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: when the next automated action (a bot's, a programmed action, a phase's time running out) is
    #: due, seconds since the epoch; None: nothing automated is due (``rolling worker``'s sweeper)
    due_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)


class Seat(Base):
    """One seat of a game: its name, who plays it (``human``, a bot's registry name, or ``import``
    for the players of an imported game) and the SHA-256 of its token (people only)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ActionRow(Base):
    """Action ``n`` (from 1) of a game, in its JSON form, with who took it: ``by`` is ``human``,
    ``program`` (a programmed action of ``seat``), ``bot``, ``timer`` (a phase's time ran out) or
    ``import``. The primary key ``(game_id, n)`` makes two writers of the same ``n`` impossible."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "n", name="uq_actions_game_n"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    by: Mapped[str] = mapped_column(String(16))
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """A chat line of a game (``seat`` ``None``: a spectator's line is not allowed, so always set)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


class ProgramRow(Base):
    """A programmed action of a seat (see :mod:`rolling.web.programs`): ``kind``, its ``limit`` ($,
    auctions only) and the situation it assumed (``assumption``), which cancels it once changed."""

    __tablename__ = "programs"
    __table_args__ = (UniqueConstraint("game_id", "seat", "kind", name="uq_programs_game_seat_kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    assumption: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created: Mapped[float] = mapped_column(Float)


class BotReasonRow(Base):
    """A bot's reason for action ``n`` of a game (its ``last_reason``, one line): kept beside the
    action, not in it, so that the actions stay the game's record and a game without reasons (an
    older one, a person's action) simply has no row. Gone with the action on undo."""

    __tablename__ = "bot_reasons"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
