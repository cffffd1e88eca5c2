"""Every line of a game's log carries its time (issue 31, "timestamps in the log"): the document's
``log_times`` are runs ``{"line", "at", "server"?}`` covering the whole log: the setup's lines at
the game's creation, each action's lines at that action's time (as the history says), each of the
server's own lines at its own."""

from __future__ import annotations

import time

import pytest

from .conftest import act, doc_of, make_game, tok


def line_time(doc, i):
    """The time of line ``i`` of the document's log (the last run starting at or before it)."""
    runs = [t for t in doc["log_times"] if t["line"] <= i]
    assert runs, f"line {i} has no time"
    return runs[-1]["at"]


@pytest.mark.parametrize("spread", [True, False], ids=["actions-seconds-apart", "actions-in-one-second"])
def test_every_log_line_has_the_time_of_what_wrote_it(client, monkeypatch, spread):
    """issue 31 (follow-up): the log's lines carry the times of the actions that wrote them, not
    only the server's lines; checked line by line against the history's per-action times, with a
    server's line in the middle of the game (inside a run when the actions share a second) and at
    its end."""
    if spread:
        clock = [time.time()]

        def tick() -> float:  # every reading of the clock 7 s after the one before: no two actions share a second
            clock[0] += 7
            return clock[0]

        monkeypatch.setattr(time, "time", tick)
    g = make_game(client, ["human", "human", "bot:heuristic"], seed=5)
    gid = g["id"]
    both = [tok(g, 0), tok(g, 1)]
    for k in range(12):
        if k == 6:  # a line of the server's mid-game
            r = client.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "heuristic"}, headers={"X-Seat-Tokens": tok(g, 1)})
            assert r.status_code == 200, r.text
        d = doc_of(client, gid, *both)
        seat = d["to_act"][0]
        assert act(client, g, seat, doc=d, tokens=both).status_code == 200
    assert client.post(f"/api/games/{gid}/stop", headers={"X-Creator-Token": g["creator_token"]}).status_code == 200
    doc = doc_of(client, gid)  # a spectator, as the history below
    history = client.get(f"/api/games/{gid}/history").json()["actions"]
    created = next(x["created"] for x in client.get("/api/games").json()["games"] if x["id"] == gid)
    log = doc["log"]
    assert [t["line"] for t in doc["log_times"]] == sorted({t["line"] for t in doc["log_times"]})
    assert doc["log_times"][0]["line"] == 0 and all(t["at"].endswith("+00:00") for t in doc["log_times"])
    # walk the log: the setup's lines, then each action's lines (the history's text), the server's in between
    i, setup = 0, []
    while i < len(log) and (line_time(doc, i) == created if spread else i == 0):  # the setup's: when the game was made
        assert line_time(doc, i) == created
        setup.append(log[i])
        i += 1
    assert setup == ["-- Turn 1, phase 1: Investment --"]
    checked, servers = 0, 0
    for h in history:
        if not h["text"]:
            continue
        while log[i].startswith("— "):  # a server's line: its own entry, marked
            assert next(t for t in doc["log_times"] if t["line"] == i).get("server") is True
            i += 1
            servers += 1
        got = list(setup) if h["n"] == 1 else []  # (the history's first text begins with the setup's lines)
        while " ".join(got) != h["text"]:
            assert len(" ".join(got)) < len(h["text"]), (got, h["text"])
            assert line_time(doc, i) == h["at"], (i, log[i], h)
            got.append(log[i])
            i += 1
            checked += 1
    assert checked > 12 and servers == 1
    if spread:
        assert len({t["at"] for t in doc["log_times"]}) > 12  # (distinct times: the check tells)
    rest = log[i:]
    assert rest and all(x.startswith("— ") for x in rest)  # the creator ended the game
    assert doc["log_times"][-1] == {"line": len(log) - 1, "at": doc["log_times"][-1]["at"], "server": True}
    assert history[-1]["at"] <= line_time(doc, len(log) - 1)
