"""A game being played by people and bots, for any game and any front end.

:class:`PlaySession` holds a game's record and its live state (with the event log on), who sits
where, the bots, and where the record is saved. Every action goes through :meth:`PlaySession.apply`,
which applies it, appends it to the record and saves the record atomically, so a crash or Ctrl-C
loses nothing. :meth:`PlaySession.undo` takes a person back to just before their previous decision
by replaying the record up to there; it never reaches back past what that person learned since (a
*reveal*: a card drawn, dice rolled; another seat's move, a bot's answer or another person's
decision, even at one keyboard: :mod:`rolling.core.reveal`), nor past the end of the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from rolling.bots import HUMAN, default_names, make_bot
from rolling.bots.base import History
from rolling.bots.reasons import shown_reason
from rolling.core.errors import RecordError
from rolling.core.events import segment_lines
from rolling.core.record import GameRecord, replay_steps, save_record
from rolling.core.reveal import UndoFloor, actor
from rolling.core.whole import parse_whole
from rolling.games import get_game


class BotReason(NamedTuple):
    """A bot's reason for an action of the record: the action's index ``n`` (from 0), the size of
    the log after it (``mark``, events), the bot's ``seat`` and its ``text`` (``last_reason``: a
    :class:`rolling.bots.reasons.Reason`, public and private parts, or a plain ``str``)."""

    n: int
    mark: int
    seat: int
    text: str


def default_save_name(game: str, seed: int) -> str:
    """The file a game with people at the table is saved to unless told otherwise."""
    return f"rolling-{game}-{seed}.json"


def log_lines(state: Any, seat: int | None, start: int) -> list[str]:
    """The lines of ``state``'s event log from event ``start`` on, as ``seat`` may read them
    (``None``: an onlooker): every game renders its events per seat (secret money stays secret)."""
    return state.log_lines(seat, start)


def log_size(state: Any) -> int:
    """How many events ``state``'s log holds (0 with the log off)."""
    return len(getattr(state, "log", None) or ())


def read_decisions(data: Any) -> dict[int, list[int]]:
    """A saved ``meta["decisions"]``, ``{"SEAT": [position, ...]}``, as seat -> positions.

    Raises:
        RecordError: a seat that is not ASCII digits, or a position that is not an integer.
    """
    if not isinstance(data, dict):
        raise RecordError("'decisions' must be an object")
    out: dict[int, list[int]] = {}
    for k, marks in data.items():
        seat = parse_whole(k)
        if seat is None or not isinstance(marks, list) or any(type(m) is not int for m in marks):
            raise RecordError(f"'decisions' of seat {k!r}: a seat number and a list of positions, got {marks!r}")
        out[seat] = list(marks)
    return out


class PlaySession:
    """A game at the table: its record, state, seats, bots and save file.

    Args:
        record: the game record; its actions are replayed to build the state.
        seats: ``"human"`` or a bot's registry name, one per seat (see :mod:`rolling.bots.seats`).
        path: where the record is saved after every action (``None``: not saved).

    Attributes:
        state: the live state, log on.
        names: the players' names, seat by seat (``record.meta["names"]``, or ``Player 1``...).
        bots: seat -> bot, for the seats bots play (seeded from the record's seed and the seat).
        decisions: seat -> the record positions where that seat's person decided (kept in
            ``record.meta["decisions"]`` so that undo works after ``--resume``).
        seen: seat -> how much of the log that seat has been shown (its own moves and what
            followed them are news to it until shown).
        seen_at: seat -> how many actions the record held when that seat was last shown the news
            (the bots' reasons of the later actions are news to it).
        reasons: the bots' reasons for the actions taken since the session began (a resumed game
            starts without those of the actions before), in record order.
        floor: how far back undo may reach (:class:`rolling.core.reveal.UndoFloor`).
        phases: the phase (``GameSpec.phase``) each action of the record was played in, from which
            a bot rebuilds its memory (:meth:`decision_bot`).

    Raises:
        RecordError: the record cannot be replayed.
    """

    def __init__(self, record: GameRecord, seats: list[str], path: str | Path | None):
        self.record = record
        self.game = record.game
        self.seats = list(seats)
        self.path = Path(path) if path is not None else None
        names = record.meta.get("names")
        if not (isinstance(names, list) and len(names) == len(seats)):
            names = default_names(seats)
        self.names = [str(n) for n in names]
        self.bots = {k: make_bot(record.game, kind, seed=record.seed * 101 + k)
                     for k, kind in enumerate(seats) if kind != HUMAN}
        self.decisions: dict[int, list[int]] = read_decisions(record.meta.get("decisions", {}))
        self.reasons: list[BotReason] = []
        self.rebuild(len(record.actions))
        # a new game shows its setup; a resumed one starts from where it stands
        start = log_size(self.state) if record.actions else 0
        self.seen = {k: start for k in range(len(seats))}
        self.seen_at = {k: len(record.actions) for k in range(len(seats))}

    # -- who is who --------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [k for k, kind in enumerate(self.seats) if kind == HUMAN]

    def next_seat(self) -> int:
        """Who acts next: a bot that may act goes first; otherwise the first person to act."""
        acting = self.state.to_act
        for seat in acting:
            if self.seats[seat] != HUMAN:
                return seat
        return acting[0]

    # -- the record ----------------------------------------------------------------------------------
    def rebuild(self, upto: int) -> None:
        """Replay the record's first ``upto`` actions (the rest are dropped); find the latest reveal.

        Raises:
            RecordError: an action of the record is malformed or illegal.
        """
        self.record.actions = self.record.actions[:upto]
        self.reasons = [r for r in self.reasons if r.n < upto]
        actions = self.record.actions
        spec = get_game(self.game)
        self.phases = []
        mover = None
        for n, state in enumerate(replay_steps(self.record, log=True)):
            if n:
                self.floor.after(n, state, mover)
            else:
                self.floor = UndoFloor(state)
            if n < len(actions):  # who takes the next action, read before it is applied (one state object)
                mover = actor(actions[n], state)
                self.phases.append(spec.phase(state))
            self.state = state

    def save(self) -> None:
        """Write the record, with who sits where, to its file (atomically); nothing without a file."""
        if self.path is None:
            return
        self.record.meta["seats"] = self.seats
        self.record.meta["names"] = self.names
        self.record.meta["decisions"] = {str(k): v for k, v in self.decisions.items() if v}
        if self.state.is_over and self.reasons:
            # the bots' whole reasons, plans included, belong to the record only once the game is
            # over (issue 28 item 7); actions ``n`` from 1, as in the web app's history
            self.record.meta["reasons"] = [{"n": r.n + 1, "seat": r.seat, "text": str(r.text)} for r in self.reasons]
        save_record(self.record, self.path)

    def apply(self, action: Any, decided_by: int | None = None) -> None:
        """Apply ``action``, record it and save the record.

        Args:
            decided_by: the seat of the person who chose it (``None`` for a bot's action).

        Raises:
            IllegalAction: the rules forbid it; nothing has changed.
        """
        seat = actor(action, self.state)
        phase = get_game(self.game).phase(self.state)
        self.state.apply(action)
        self.phases.append(phase)
        mark = len(self.record.actions)
        self.record.actions.append(action.to_json())
        self.floor.after(len(self.record.actions), self.state, seat)
        if decided_by is not None:
            self.decisions.setdefault(decided_by, []).append(mark)
        self.save()

    def decision_bot(self, seat: int) -> Any:
        """The bot of ``seat``, ready for its next decision: a bot with memory has it rebuilt from
        the record (:class:`rolling.bots.base.History`), so that a game resumed from its file
        (``--resume``) or taken back by an undo plays on as the same game played straight through."""
        bot = self.bots[seat]
        recall = getattr(bot, "recall", None)
        if recall is not None:
            rec = self.record
            recall(History.from_record(rec.game, rec.config, rec.seed, self.state, rec.actions, self.phases), seat)
        return bot

    def note_reason(self, seat: int, reason: str | None) -> None:
        """Keep the reason the bot at ``seat`` gave for the action just applied (its
        ``last_reason``; ``None`` or an empty one: nothing to keep)."""
        if reason and self.record.actions:
            self.reasons.append(BotReason(len(self.record.actions) - 1, log_size(self.state), seat, reason))

    def mark_seen(self, seat: int) -> None:
        """``seat`` has been shown everything that happened so far."""
        self.seen[seat] = log_size(self.state)
        self.seen_at[seat] = len(self.record.actions)

    def undo_refusal(self, seat: int) -> str | None:
        """Why :meth:`undo` of ``seat`` is refused now, in one line (the rule of
        :meth:`rolling.core.reveal.UndoFloor.refusal`: never back past a reveal, another seat's move
        or the game's end; ``"there is no decision of yours to take back"`` without one), or
        ``None``. The party is ``seat`` alone: with several people at one keyboard each sees the
        others' decisions, so none takes them back."""
        marks = self.decisions.get(seat)
        if not marks:
            return "there is no decision of yours to take back"
        return self.floor.refusal(marks[-1], self.state, (seat,), self.names)

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` has a decision to take back (:meth:`undo_refusal` is ``None``)."""
        return self.undo_refusal(seat) is None

    def undo(self, seat: int) -> bool:
        """Take ``seat`` back to just before its previous decision (and drop every action since, all
        its own); False if it may not (:meth:`undo_refusal` says why)."""
        if not self.can_undo(seat):
            return False
        mark = self.decisions[seat].pop()
        for marks in self.decisions.values():
            while marks and marks[-1] >= mark:
                marks.pop()
        self.rebuild(mark)
        size = log_size(self.state)
        for k in self.seen:
            self.seen[k] = min(self.seen[k], size)
            self.seen_at[k] = min(self.seen_at[k], mark)
        self.mark_seen(seat)  # start again from the restored point
        self.save()
        return True

    def news(self, seat: int | None, start: int | None = None) -> list[str]:
        """What ``seat`` has not been shown of the log yet (``start``: from that event instead)."""
        return log_lines(self.state, seat, self.seen.get(seat, 0) if start is None else start)

    def news_with_reasons(self, seat: int | None, start: int | None = None,
                          start_at: int | None = None) -> list[tuple[str, bool]]:
        """:meth:`news`, with each bot's reason right after the lines of its action: ``(line,
        False)`` for a line of the log, ``(name + " " + reason, True)`` for a reason, as
        :func:`rolling.bots.reasons.shown_reason` lets it be read: while the game goes on, with
        a person at the table, only its public part (a bot's limits and valuations stay its own);
        once the game is over, or with bots alone at the table (nobody to use them), all of it.

        Args:
            start: from that event instead of what ``seat`` has seen.
            start_at: the reasons of the actions from that index on (default: those after what
                ``seat`` has seen).
        """
        start = self.seen.get(seat, 0) if start is None else start
        start_at = self.seen_at.get(seat, len(self.record.actions)) if start_at is None else start_at
        out: list[tuple[str, bool]] = []
        over, alone = self.state.is_over, not self.humans
        for r in self.reasons:
            if r.n < start_at or r.mark < start:
                continue
            text = shown_reason(r.text, over, private_ok=alone)
            if text is None:
                continue
            out.extend((line, False) for line in segment_lines(self.state, seat, start, r.mark))
            out.append((f"{self.names[r.seat]} {text}", True))
            start = r.mark
        out.extend((line, False) for line in log_lines(self.state, seat, start))
        return out
