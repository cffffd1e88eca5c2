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


# -- community (issue 31): accounts, seats bound to accounts, notifications ---------------------------


class Account(Base):
    """A person's account: ``name`` (unique, compared case-blind through ``name_key``), ``email``,
    the argon2id hash of the password (:mod:`rolling.web.accounts`), and ``notify``: where they are
    told of their turns (``{"urls": [apprise URLs], "email": bool, "push": [Web Push subscriptions]}``).
    An account holds its seats through its seat key (:func:`rolling.web.accounts.seat_key`), whose
    SHA-256 is the seat's ``token_hash``: the seats of accounts and of links are one mechanism."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)
    notify: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class SessionRow(Base):
    """A logged-in browser: the SHA-256 of the session's random id (the cookie carries the id,
    signed), its account and when it was made (sessions expire after ``session_days``)."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created: Mapped[float] = mapped_column(Float)


class PasswordReset(Base):
    """A password reset sent by email: the SHA-256 of its one-time token, until ``expires``."""

    __tablename__ = "password_resets"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    expires: Mapped[float] = mapped_column(Float)


class ServerKey(Base):
    """A key the server made at its first start and every process shares: ``secret`` (signs the
    session cookies, derives the accounts' seat keys) and the Web Push VAPID key pair."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class GameOptions(Base):
    """A game's community options: ``private`` (not in the lobby; joined through its invite link,
    whose code's SHA-256 is ``invite_hash``), the account that made it (``creator_account``: may
    start it early, replace or reopen an idle seat, change its settings) and ``idle_seconds`` (a
    seat idle this long may be replaced by the creator; 0: never). A game's own bot pace is kept
    in ``games.meta["bot_pace"]``, which every process reads."""

    __tablename__ = "game_options"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    creator_account: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    idle_seconds: Mapped[float] = mapped_column(Float, default=0.0)


class SeatAccount(Base):
    """Which account took a seat (joined it from the lobby or an invite, or made the game seated
    in it): kept for "my games" and the account's record even once the seat is handed on."""

    __tablename__ = "seat_accounts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    joined: Mapped[float] = mapped_column(Float)


class OutboxRow(Base):
    """A notification to deliver (:mod:`rolling.web.notify`): ``key`` is unique, so the same event of
    the same game version is queued once however many workers see it; ``event`` is ``turn``,
    ``over``, ``mention`` or ``reset`` (a password reset email, whose link is in ``payload``).
    ``status``: ``pending`` until ``sent``, ``dropped`` (no longer true when its time came, e.g.
    the turn was taken) or ``failed`` (after the last try); ``due`` is when it is tried next."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer, default=0)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created: Mapped[float] = mapped_column(Float)
    due: Mapped[float] = mapped_column(Float, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    sent: Mapped[float | None] = mapped_column(Float, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class AnalysisRow(Base):
    """The analysis of a finished game (``rolling analyze``'s JSON, :mod:`rolling.web.analysis`),
    computed once by a background job: ``status`` ``queued``, ``running``, ``done`` or ``failed``
    (``error`` says why); ``version``: the game's number of actions when it was asked for;
    ``budget``: the evaluation's budget per decision."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer)
    budget: Mapped[str] = mapped_column(String(32))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


class GameResult(Base):
    """A seat's result in a finished game (issue 31, "games played and won"): its ``rank``, whether
    it wins (``win``: the standings' ``win``) and its final ``score`` (the game's own unit: $, stock,
    cash). Written in the transaction of the game's last action, so an account's record is read,
    never replayed; a game finished before these rows existed gets them the first time it is
    counted (:meth:`rolling.web.seating.Seating.games_of`)."""

    __tablename__ = "game_results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    rank: Mapped[int] = mapped_column(Integer)
    win: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[float] = mapped_column(Float)
