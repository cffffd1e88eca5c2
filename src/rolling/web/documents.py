"""Documents: what each viewer (a seat's holder, a hotseat table, a spectator) reads of a game: the
game document of the page and the WebSocket, the log with the bots' reasons and the server's events
placed in it, the history, a past position, the charts and the lobby's summaries."""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson
from sqlalchemy import func, select

from rolling.bots.reasons import shown_reason
from rolling.core.events import segment_lines
from rolling.core.record import GameRecord

from . import automation as A
from . import decisions as D
from .errors import NotFound
from .live import NOTHING_TO_UNDO, Live, LogSoFar, _iso, waiting
from .models import ActionRow, Game, Seat
from .stale import basis as decision_basis

log = logging.getLogger("rolling.web")


def _shown(reasons: list[dict[str, Any]], over: bool) -> list[dict[str, Any]]:
    """The bots' reasons ``{n, seat, line, text}`` as every viewer reads them: the public parts while
    the game goes on, the full texts once it is over (:func:`rolling.bots.reasons.shown_reason`);
    a reason with nothing to show is left out."""
    out = []
    for r in reasons:
        text = shown_reason(r["text"], over)
        if text is not None:
            out.append({**r, "text": text})
    return out



#: the log events that open a section of the log: a phase (Stars), a turn or phase (Freight), a turn
#: (Market)
_HEADINGS = frozenset({"phase", "turn", "phase_begins"})


def _heading_after(log: list[tuple] | None, start: int, end: int) -> int:
    """The index of the first section heading among the events ``start + 1`` to ``end - 1`` of
    ``log`` (the events of one action, whose first is its own), else ``end``."""
    for k in range(start + 1, end if log is not None else start):
        if log[k][0] in _HEADINGS:
            return k
    return end



class Documents:
    """The documents' part of :class:`~rolling.web.service.GameService` (a mix-in)."""

    # -- chat ----------------------------------------------------------------------------------------
    def _chat_json(self, live: Live, seat: int, text: str, at: float) -> dict[str, Any]:
        name = live.seats[seat]["name"] if 0 <= seat < len(live.seats) else "?"
        return {"seat": seat, "name": name, "text": text, "at": _iso(at)}


    # -- reading -------------------------------------------------------------------------------------
    def _lines(self, live: Live, viewer: int | None) -> LogSoFar:
        """The log as ``viewer`` may read it, with the bots' reasons placed after the lines of their
        actions and the time of every line (the game's creation for the setup's, each action's own
        for its lines); rendered once and extended as the game goes on (a new object when it grows:
        a document made before keeps what it had)."""
        s = live.state
        size = len(getattr(s, "log", None) or ())
        so_far = live.lines.get(viewer) or LogSoFar()
        if so_far.events < size or so_far.actions < live.played:
            lines, reasons, times = list(so_far.lines), list(so_far.reasons), list(so_far.times)
            events = so_far.events

            def render(end: int, when: float) -> None:
                nonlocal events
                if end <= events:
                    return
                new = s.log_lines(viewer, events) if end >= size else segment_lines(s, viewer, events, end)
                at = _iso(when)  # (to the second: actions within one second make one run)
                if new and (not times or times[-1][1] != at):
                    times.append((len(lines), at))
                lines.extend(new)
                events = end

            if so_far.actions == 0:
                render(min(live.log_base, size), live.created)  # the setup's lines
            for n in range(so_far.actions + 1, live.played + 1):
                at = live.times[n - 1]
                mark = live.log_marks[n - 1]
                reason = live.reasons.get(n)
                if reason is not None:
                    # the reason goes under the bot's own lines, before the heading of a phase (or turn)
                    # its move began: it belongs to the phase it was given in (issue 29)
                    own = live.log_marks[n - 2] if n >= 2 else 0  # where the move's own events begin
                    render(_heading_after(getattr(s, "log", None), max(events, own), mark), at)
                    reasons.append({"n": n, "seat": reason[0], "line": len(lines), "text": reason[1]})
                render(mark, at)
            render(size, live.times[-1] if live.times else live.created)
            so_far = LogSoFar(live.played, size, lines, reasons, times)
            live.lines[viewer] = so_far
        return so_far

    def document(self, live: Live, held: tuple[int, ...]) -> dict[str, Any]:
        """The game document (see docs/web.md) as the seats ``held`` see it (none: a spectator).

        ``view`` is ``state.view(seat)`` for ``view_seat``: the first held seat that may act, else
        the first held seat, else ``None`` (a spectator: no secret money)."""
        key = held
        cached = live.docs.get(key)
        if cached is not None and cached[0] == live.rev:
            return cached[1]
        s = live.state
        to_act = list(s.to_act) if not s.is_over else []
        acting = [k for k in held if k in to_act]
        viewer = acting[0] if acting else (held[0] if held else None)
        decisions = {} if live.watch_only or waiting(live) else {str(k): D.decisions(live.game, s, k) for k in acting}
        # each acting seat's decision basis, sent back with its action (a stale one may still count)
        bases = {k: decision_basis(live.game, s, int(k)) for k in decisions}
        undo: dict[str, bool] = {}
        undo_refused = None
        if not live.watch_only and held:
            keep, why = self._undo_point(live, held)
            if keep is None and why != NOTHING_TO_UNDO:
                undo_refused = why
            undo = {str(k): keep is not None and live.by[keep][0] == k for k in held}
            if keep is not None and len(held) > 1:
                undo = {str(k): True for k in held}  # hotseat: any decision at the table
        deadline = A.deadline(live) if live.game == "stars" else None
        log_lines, log_reasons, log_times = self._with_events(live, viewer)
        doc = {
            "id": live.id,
            "game": live.game,
            "title": live.title,
            "version": live.version,
            "played": live.played,
            "over": bool(s.is_over),
            "to_act": to_act,
            "you": list(held),
            "view_seat": viewer,
            "seats": [{"seat": x["seat"], "name": x["name"], "kind": x["kind"]} for x in live.seats],
            "view": s.view(viewer),
            "log": log_lines,
            "reasons": _shown(log_reasons, s.is_over),
            # when every line of the log happened, and the latest action (issue 31)
            "log_times": log_times,
            "last_action_at": _iso(live.times[-1]) if live.times else None,
            "decisions": decisions,
            "basis": {k: b for k, b in bases.items() if b is not None},
            "standings": s.standings() if s.is_over else None,
            "chat": live.chat[-200:],
            "programs": [{"seat": p["seat"], "kind": p["kind"], "limit": p["limit"],
                          **({"company": p["assumption"]["company"]} if "company" in p["assumption"] else {})}
                         for p in live.programs.values() if p["seat"] in held],
            "undo": undo,
            "undo_refused": undo_refused,
            "time_limit": ({"phase": getattr(s, "phase", None), "deadline": _iso(deadline),
                            "seconds_left": max(0, round(deadline - time.time()))} if deadline else None),
            "watch_only": live.watch_only,
            "meta": {k: v for k, v in live.meta.items() if k in ("source", "site_game_id", "match", "import_error")},
            "stopped": live.broken,
            "closed": live.meta.get("closed"),
            "open": [x["seat"] for x in live.seats if x["kind"] == "open"],
        }
        if deadline is None:
            live.docs[key] = (live.rev, doc)
        return doc

    def document_json(self, live: Live, held: tuple[int, ...]) -> bytes:
        """:meth:`document` as UTF-8 JSON, kept until the game changes (every page of the same seats
        shares it; serialising the document is most of the cost of a request)."""
        key = ("json", held)
        cached = live.docs.get(key)
        if cached is not None and cached[0] == live.rev:
            return cached[1]
        doc = self.document(live, held)
        body = orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS)
        if doc["time_limit"] is None:
            live.docs[key] = (live.rev, body)
        return body

    def summary(self, live: Live) -> dict[str, Any]:
        """One game of the lobby's list."""
        s = live.state
        return {"id": live.id, "game": live.game, "title": live.title, "created": _iso(live.created),
                "version": live.version, "played": live.played, "over": bool(s.is_over), "to_act": list(s.to_act) if not s.is_over else [],
                "seats": [{"seat": x["seat"], "name": x["name"], "kind": x["kind"]} for x in live.seats],
                "watch_only": live.watch_only, "closed": live.meta.get("closed")}

    def list_games(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest games (at most ``limit``), from the database's summaries (no replay)."""
        with self.Session() as db:
            games = db.execute(select(Game).order_by(Game.created.desc()).limit(limit)).scalars().all()
            ids = [g.id for g in games]
            seats = db.execute(select(Seat).where(Seat.game_id.in_(ids)).order_by(Seat.seat)).scalars().all() if ids else []
            played = dict(db.execute(select(ActionRow.game_id, func.count()).where(ActionRow.game_id.in_(ids))
                                     .group_by(ActionRow.game_id)).all()) if ids else {}
        by_game: dict[str, list[dict[str, Any]]] = {}
        for x in seats:
            by_game.setdefault(x.game_id, []).append({"seat": x.seat, "name": x.name, "kind": x.kind})
        return [{"id": g.id, "game": g.game, "title": g.title, "created": _iso(g.created), "version": g.version,
                 "played": int(played.get(g.id, 0)), "over": g.over, "to_act": [] if g.over else list(g.to_act or []), "seats": by_game.get(g.id, []),
                 "watch_only": g.watch_only, "closed": (g.meta or {}).get("closed")} for g in games]

    def history(self, live: Live, held: tuple[int, ...]) -> dict[str, Any]:
        """Every action with who took it and its log text (as the first held seat reads it)."""
        viewer = held[0] if held else None
        s = live.state
        out = []
        prev = 0
        for i, data in enumerate(live.actions):
            mark = live.log_marks[i] if i < len(live.log_marks) else prev
            text = " ".join(segment_lines(s, viewer, prev, mark))
            seat, by = live.by[i]
            reason = live.reasons.get(i + 1)
            out.append({"n": i + 1, "seat": seat, "by": by, "action": data, "text": text, "at": _iso(live.times[i]),
                        "reason": shown_reason(reason[1], s.is_over) if reason else None})
            prev = mark
        return {"actions": out, "version": live.version, "played": live.played, "over": bool(s.is_over)}

    def document_at(self, live: Live, n: Any, held: tuple[int, ...]) -> dict[str, Any]:
        """The game document as of after action ``n`` (0: the start), without decisions.

        Raises:
            NotFound: ``n`` is not between 0 and the version.
        """
        if not isinstance(n, int) or not 0 <= n <= live.played:
            raise NotFound(f"no action {n} in this game (0 to {live.played})")
        past = self._replayed(live, n)
        doc = self.document(past, held)
        doc.update({"version": live.version, "played": live.played, "at": n, "watch_only": live.watch_only, "undo": {}, "undo_refused": None, "decisions": {},
                    "chat": [], "programs": [],
                    # the game's own end, not the past position's, says whether the plans may show
                    "reasons": _shown(self._lines(past, doc["view_seat"]).reasons, live.state.is_over)})
        return doc

    def charts(self, live: Live) -> dict[str, Any]:
        """The game's charts over the turns (:func:`rolling.web.charts.charts`), kept until the next change."""
        if live.charts is not None and live.charts[0] == live.version:
            return live.charts[1]
        from .charts import charts

        out = charts(GameRecord(live.game, live.config, live.seed, live.actions), [x["name"] for x in live.seats])
        live.charts = (live.version, out)
        return out


    def _with_events(self, live: Live, viewer: int | None) -> tuple[list[str], list[dict[str, Any]], list[dict[str, Any]]]:
        """The viewer's log lines with the server's events (:meth:`_event`) placed after the
        lines of the actions before them, the bots' reasons moved to match, and when every line
        happened (the document's ``log_times``, issue 31): ``[{"line", "at", "server"?}]`` in order
        of ``line``, each entry the time (ISO 8601 UTC, to the second) of line ``line`` and of the
        lines after it up to the next entry's; ``server`` marks one of the server's own lines (a
        seat taken, handed to a bot, the game ended), each its own entry."""
        so_far = self._lines(live, viewer)
        events = [e for e in live.meta.get("events", ()) if e["n"] <= live.played]
        lines, reasons = so_far.lines, so_far.reasons
        placed: list[tuple[int, str | None]] = []  # (the line of the viewer's log it goes before, its time)
        if events:
            s = live.state
            lines, reasons = list(so_far.lines), [dict(r) for r in so_far.reasons]
            for k, e in enumerate(events):
                n = e["n"]
                if n == live.played:
                    at = len(so_far.lines)
                else:  # (before the first action: after the lines the game's setup wrote)
                    at = len(segment_lines(s, viewer, 0, live.log_marks[n - 1] if n > 0 else live.log_base))
                at = min(at + k, len(lines))  # after the events before it
                lines.insert(at, f"— {e['text']}")
                placed.append((at - k, e.get("at")))
                for r in reasons:
                    if r["n"] > n:
                        r["line"] += 1
        # the runs of the viewer's lines, the server's lines placed among them (each its own entry)
        stamps: list[dict[str, Any]] = []

        def run(line: int, at: str) -> None:
            if not stamps or stamps[-1].get("server") or stamps[-1]["at"] != at:
                stamps.append({"line": line, "at": at})

        k = 0  # the server's lines placed so far

        def server(upto: int) -> None:  # the server's lines that go before line ``upto`` of the viewer's log
            nonlocal k
            while k < len(placed) and placed[k][0] <= upto:
                stamps.append({"line": placed[k][0] + k, "at": placed[k][1], "server": True})
                k += 1

        runs = so_far.times
        for j, (line, at) in enumerate(runs):
            end = runs[j + 1][0] if j + 1 < len(runs) else len(so_far.lines)
            server(line)
            run(line + k, at)
            while k < len(placed) and placed[k][0] < end:  # inside the run: it goes on after them
                base = placed[k][0]
                server(base)
                run(base + k, at)
        server(len(so_far.lines))
        return lines, reasons, stamps
