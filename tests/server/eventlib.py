"""eventlib.py - what the events' tests and benchmarks share (docs/tournaments.md,
"Events on the site"): accounts that join an event and play every game it gives them over
the WebSocket with their session, from the server's move hints (`&hint=1`, a random legal
decision: the fastest way to play), and the checks of an event's standings against its
games' records.

A Driver plays an event for many accounts from one thread: it asks the event for its
running tables (GET /api/events/ID, on any server of a site), connects each seat of its
accounts to a new table's game as the web client does (the session cookie, no token),
plays the hints, and when a server goes away connects again through another.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import call, register  # noqa: E402
from harness import AXIO, TIMEOUT, Client, ready  # noqa: E402
from wsclient import Closed, HandshakeError  # noqa: E402

PW = "correct horse"
UNITS = 12  # a point, as the server counts (src/tournament/tournament.h)
PLACE_POINTS = {2: [2, 0], 3: [3, 1, 0], 4: [4, 2, 1, 0]}


def new_event(server, session, **settings):
    """Creates an event (201 asserted); its JSON."""
    body = {"name": "Test event", "variant": "square", "seats": 2,
            "clock": {"kind": "realtime", "base_s": 300, "increment_s": 0},
            "starts": int(time.time() * 1000) + 3600 * 1000}
    body.update(settings)
    status, value, _ = call(server, "POST", "/api/events", body, token=session)
    assert status == 201, (status, value)
    return value["event"]


def accounts(server, names):
    """{name: session} of new accounts."""
    return {n: register(server, n, PW) for n in names}


def event(server, eid, session=None):
    status, value, _ = call(server, "GET", f"/api/events/{eid}", token=session)
    assert status == 200, (status, value)
    return value


class Driver:
    """Plays an event's games for the accounts in `players` ({name: session}); those in
    `absent` never come to their games. servers(): the servers to use now (a list; the
    first that answers is asked)."""

    def __init__(self, servers, eid, players, absent=(), before_move=None, pace=0.125):
        self.servers = servers if callable(servers) else (lambda: servers)
        self.eid = eid
        self.players = players
        self.absent = set(absent)
        self.before_move = before_move
        self.pace = pace  # seconds between two decisions of a connection at least
        self.clients = {}  # (game, seat) -> Client
        self.finished = set()  # games seen over
        self.last = None  # the last answer of GET /api/events/ID
        self.polled = 0.0
        self.moves = 0
        self.reconnects = 0

    def _get(self, path):
        for server in self.servers():
            try:
                status, value, _ = server.http("GET", path)
            except OSError:
                continue
            if status == 200:
                return value
        return None

    def poll(self):
        value = self._get(f"/api/events/{self.eid}")
        if value is None:
            return
        self.last = value
        for t in value["tables"]:
            for seat, name in enumerate(t["players"]):
                key = (t["game"], seat)
                if name in self.players and name not in self.absent and key not in self.clients \
                        and t["game"] not in self.finished:
                    self._connect(key, name)

    def _connect(self, key, name):
        game, seat = key
        for server in self.servers():
            try:
                c = Client(server, game, None, seat, session=self.players[name])
                self.clients[key] = c
                return
            except (OSError, Closed, HandshakeError):
                continue

    def _drop(self, key):
        c = self.clients.pop(key)
        try:
            c.close()
        except OSError:
            pass

    def step(self, timeout=0.5):
        now = time.monotonic()
        if now - self.polled > 0.4:
            self.polled = now
            self.poll()
        for key, c in list(self.clients.items()):
            # at most 1/pace decisions a second a connection: a server allows 10 messages
            if c.my_turn() and now >= getattr(c, "next_act", 0) and \
                    (self.before_move is None or self.before_move(c) is not False):
                try:
                    c.act()
                    c.next_act = now + self.pace
                    self.moves += 1
                except OSError:
                    self._drop(key)
                    self.reconnects += 1
        live = list(self.clients.values())
        if not live:
            time.sleep(min(timeout, 0.2))
            return
        for c in ready(live, timeout):
            key = (c.game, c.seat)
            try:
                msg = c.recv(TIMEOUT)
            except (Closed, OSError, TimeoutError):
                self._drop(key)  # its server went away, or moved the game: come back
                self.reconnects += 1
                continue
            if msg["type"] == "moving":
                self._drop(key)
                continue
            if msg["type"] == "error" and msg.get("code") == "rate_limited":
                c.acted_ply = -1  # not taken: sent again after a pause
                c.next_act = time.monotonic() + 1.0
                continue
            if msg["type"] == "error" and msg.get("code") not in ("not_your_turn",):
                raise AssertionError(f"{key} got an error: {msg}")
            if msg["type"] == "state" and msg["game"]["status"] != "running":
                self.finished.add(c.game)
                self._drop(key)

    def run(self, until="finished", timeout=300.0):
        """Plays until the event's status is `until` (or until(answer) holds); the last
        answer of GET /api/events/ID."""
        deadline = time.monotonic() + timeout
        done = until if callable(until) else (lambda v: v["event"]["status"] == until)
        while True:
            self.step()
            if self.last is not None and done(self.last):
                return self.last
            assert time.monotonic() < deadline, f"the event did not get there in time: " \
                f"{self.last and self.last['event']}"

    def close(self):
        for key in list(self.clients):
            self._drop(key)


def record_of(server, game):
    status, text, _ = server.http("GET", f"/api/games/{game}/record")
    assert status == 200, (status, text)
    return text


def replays(text):
    """Whether `axio replay` finds the record consistent: (ok, output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([AXIO, "replay", path], capture_output=True, text=True, timeout=TIMEOUT)
        return r.returncode == 0, r.stdout + r.stderr
    finally:
        os.unlink(path)


def table_points(lines):
    """The points (in UNITS) of each seat of a finished game, worked out from its record
    as docs/tournaments.md states the rule: by place (2 seats 2/0, 3 seats 3/1/0, 4 seats
    4/2/1/0; tied places share), a no-show (left absent or by the clock without a decision
    of its own) nothing."""
    start, end = lines[0], lines[-1]
    assert start["ev"] == "start" and end["ev"] == "end", (start, end)
    seats = start["players"]
    decided = set()
    gone = set()
    for e in lines:
        # a leaver's later decisions are the computer's that plays for it
        if e["ev"] in ("place", "swap") and e["player"] not in gone:
            decided.add(e["player"])
        if e["ev"] == "leave" and e.get("why") in ("absent", "timeout"):
            gone.add(e["player"])
    absent = gone - decided
    table = PLACE_POINTS[seats]
    points = [0] * seats
    place = 0
    for group in end["ranking"]:
        group = group if isinstance(group, list) else [group]
        share = sum(table[place:place + len(group)]) * UNITS // len(group)
        for s in group:
            points[s] = share
        place += len(group)
    for s in absent:
        points[s] = 0
    return points, absent


def check_standings(test, server, answer):
    """Every finished game's points in the standings follow from its record (and each
    record replays); every line's points are the sum of its results (a Swiss, no streaks).
    Returns the number of records checked."""
    checked = 0
    for line in answer["standings"]:
        total = 0.0
        for r in line["results"]:
            total += r["points"] if r["counted"] else 0
        test.assertAlmostEqual(line["points"], total, places=3, msg=line)
    games = {}
    for line in answer["standings"]:
        for r in line["results"]:
            if r["game"]:
                games.setdefault(r["game"], []).append((line["name"], r))
    for game, rows in games.items():
        status, value, _ = call(server, "GET", f"/api/games/{game}")
        if status == 200 and value["status"] == "aborted":  # nobody came: no record, no points
            test.assertTrue(all(r["points"] == 0 and r["place"] is None for _, r in rows), rows)
            continue
        text = record_of(server, game)
        ok, out = replays(text)
        test.assertTrue(ok, f"{game}: {out}")
        lines = [json.loads(x) for x in text.splitlines()]
        points, _ = table_points(lines)
        names = lines[0]["names"]
        for name, r in rows:
            test.assertAlmostEqual(r["points"], points[names.index(name)] / UNITS, places=3,
                                   msg=f"{game} {name}")
        checked += 1
    return checked
