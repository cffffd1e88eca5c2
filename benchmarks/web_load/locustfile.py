"""The scripted people of the web load benchmark (issue 30), for locust: each person plays one seat
of a game against heuristic bots, at their own pace, as a page would through the JSON API.

A person creates a game (``human`` plus bots) on one web process, then loops: look at the game
(``GET /api/games/{id}``; each request goes to a web process drawn at random, so a person's game
is served by every process; one that did not answer is left alone for two seconds, as a proxy
would), wait for their turn, think (an exponential wait of ``WEBLOAD_THINK`` seconds on
average), then act (``POST /api/games/{id}/actions`` with the version and basis the page showed). A
409 (the game moved on meanwhile) is a right answer: the person looks again. When the game is over
the person starts another.

Each acknowledged action (a 200 to ``act``) is appended to ``WEBLOAD_ACKS`` as one JSON line
``{"game", "n", "seat", "action"}``: ``run.py`` checks afterwards that the database holds exactly that
action as action ``n``. Settings, from the environment (``run.py`` sets them):

- ``WEBLOAD_HOSTS``: the web processes' base URLs, comma separated;
- ``WEBLOAD_ACKS``: the file of acknowledged actions (one per locust process: it is appended to);
- ``WEBLOAD_THINK``: a person's mean thinking time, seconds (default 2);
- ``WEBLOAD_GAME``, ``WEBLOAD_PLAYERS``: the game and its number of players (default stars, 3).

Run alone: ``WEBLOAD_HOSTS=http://127.0.0.1:8000 locust -f benchmarks/web_load/locustfile.py``.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
import time

from locust import HttpUser, between, task

HOSTS = [h.strip().rstrip("/") for h in os.environ.get("WEBLOAD_HOSTS", "http://127.0.0.1:8000").split(",") if h.strip()]
ACKS = os.environ.get("WEBLOAD_ACKS")
THINK = float(os.environ.get("WEBLOAD_THINK", "2"))
GAME = os.environ.get("WEBLOAD_GAME", "stars")
PLAYERS = int(os.environ.get("WEBLOAD_PLAYERS", "3"))
#: how long a person waits between two looks while the bots are to act, seconds
POLL = 0.25

_ack_lock = threading.Lock()
_ack_file = open(ACKS, "a", encoding="utf-8") if ACKS else None  # noqa: SIM115 (open while locust runs)
_people = itertools.count()


def _ack(game: str, n: int, seat: int, action: dict) -> None:
    if _ack_file is None:
        return
    line = json.dumps({"game": game, "n": n, "seat": seat, "action": action}, separators=(",", ":"))
    with _ack_lock:  # (gevent greenlets share the file: one line at a time, flushed at once)
        _ack_file.write(line + "\n")
        _ack_file.flush()


def choose(doc: dict, seat: int, rng: random.Random) -> dict:
    """A legal action of ``seat`` from the document's decisions, picked at random (a range decision
    gets a random amount within its bounds)."""
    d = rng.choice(doc["decisions"][str(seat)])
    if d["action"] is not None:
        return d["action"]
    return {"type": d["type"], **d["args"], d["field"]: rng.randint(d["lo"], d["hi"])}


class Person(HttpUser):
    """One person at one seat of a game against bots (see the module's docstring)."""

    host = HOSTS[0]
    wait_time = between(0, 0)  # the person's pace is in :meth:`play` (thinking, waiting for the bots)

    def on_start(self) -> None:
        self.rng = random.Random(next(_people))
        self.gid: str | None = None
        self.down: dict[str, float] = {}  # a web process that did not answer: until when to avoid it

    def _host(self) -> str:
        now = time.time()
        up = [h for h in HOSTS if self.down.get(h, 0) < now]
        self.last = self.rng.choice(up or HOSTS)
        return self.last

    def _unanswered(self, r) -> None:
        if r.status_code == 0:  # no answer at all (the process is down: kill -9)
            self.down[self.last] = time.time() + 2.0

    def _new_game(self) -> None:
        seats = ["human"] + ["heuristic"] * (PLAYERS - 1)
        with self.client.post(f"{self._host()}/api/games", name="create",
                              json={"game": GAME, "config": {"players": PLAYERS}, "seats": seats,
                                    "seed": self.rng.randrange(2**31)}, catch_response=True) as r:
            if r.status_code != 201:
                r.failure(f"create: {r.status_code}")
                self._unanswered(r)
                self.gid = None
                return
            g = r.json()
        self.gid = g["id"]
        self.headers = {"X-Seat-Tokens": g["seats"][0]["token"]}

    def _look(self) -> dict | None:
        with self.client.get(f"{self._host()}/api/games/{self.gid}", name="look", headers=self.headers,
                             catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"look: {r.status_code}")
                self._unanswered(r)
                return None
            return r.json()

    @task
    def play(self) -> None:
        """One decision: look until it is the person's turn, think, act."""
        if self.gid is None:
            self._new_game()
            if self.gid is None:
                time.sleep(0.5)  # a web process is down (kill -9): try again soon
                return
        doc = self._look()
        if doc is None:
            time.sleep(0.5)
            return
        if doc["over"] or doc.get("closed"):
            self.gid = None
            return
        if "0" not in doc["decisions"]:
            time.sleep(POLL)  # the bots are to act
            return
        time.sleep(self.rng.expovariate(1.0 / THINK) if THINK > 0 else 0)
        action = choose(doc, 0, self.rng)
        body = {"version": doc["version"], "seat": 0, "action": action}
        if "0" in doc.get("basis", {}):
            body["basis"] = doc["basis"]["0"]
        with self.client.post(f"{self._host()}/api/games/{self.gid}/actions", name="act", json=body,
                              headers=self.headers, catch_response=True) as r:
            if r.status_code == 200:
                _ack(self.gid, r.json()["played"], 0, action)
            elif r.status_code == 409:
                r.success()  # the game moved on (or the page was stale): a right answer; look again
            else:
                r.failure(f"act: {r.status_code} {(r.text or '')[:200]}")
                self._unanswered(r)
