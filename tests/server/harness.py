"""harness.py - what the server tests share: a real `axio serve` process, HTTP
calls, protocol clients that check every message they receive, and a loop that
plays games through the server's move hints.

Environment (set by ctest): AXIO, the built command; SRC, the source tree;
PYTHON3; AXIO_TEST_DB, the database the servers use: `sqlite` (default: a file in
the test's folder) or `postgresql` (a new database for each server in a
PostgreSQL cluster this process starts, pgcluster.py). Tests get their databases
from `new_database` and look into them with `db_query`, so the same tests run on
both. Every wait polls with a generous deadline: a loaded machine makes the
tests slower, never wrong.

The leak check (`check_message`) runs on every message a client receives: a
state's `game` has only known keys, counts instead of the bag, stacks and other
racks, no seed before the end; `you` is the client's own seat; another seat's
`draw` and `swap` tiles are counts. When a game ends, `check_seed_absent` looks
for the revealed seed in the raw text of everything received before the end.
"""
import atexit
import hashlib
import http.client
import json
import os
import re
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import Closed, HandshakeError, WebSocket  # noqa: E402

AXIO = os.environ.get("AXIO", "axio")
SRC = os.environ.get("SRC", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _schema_version():
    """The store's schema version this tree's server writes (src/server/store/sql.h)."""
    with open(os.path.join(SRC, "src", "server", "store", "sql.h")) as f:
        return int(re.search(r"#define SQL_SCHEMA_VERSION (\d+)", f.read()).group(1))


SCHEMA_VERSION = _schema_version()
PYTHON3 = os.environ.get("PYTHON3", sys.executable)
HOST = "127.0.0.1"
TIMEOUT = 30.0  # generous: sanitizer builds on a loaded 2-core machine
DB_KIND = os.environ.get("AXIO_TEST_DB", "sqlite")
if DB_KIND not in ("sqlite", "postgresql"):
    raise SystemExit(f"AXIO_TEST_DB must be sqlite or postgresql, not {DB_KIND!r}")
ON_POSTGRESQL = DB_KIND == "postgresql"
_cluster = None


def pg_cluster():
    """This process's PostgreSQL cluster, started at the first use, stopped at exit."""
    global _cluster
    if _cluster is None:
        from pgcluster import Cluster
        _cluster = Cluster()
        atexit.register(_cluster.stop)
    return _cluster


def new_database(folder, name="axio.db"):
    """A new, empty database for a server, as --db takes it: a file in folder, or on
    PostgreSQL a new database of the cluster."""
    if ON_POSTGRESQL:
        return pg_cluster().new_database()
    return os.path.join(folder, name)


def _literal(v):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (int, float)):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def db_query(db, statement, *args):
    """Runs one statement (with ? parameters) on a server's database, committed; the rows
    as tuples. The server must not be running on an SQLite file (its lock)."""
    if not db.startswith(("postgresql://", "postgres://")):
        con = sqlite3.connect(db)
        try:
            rows = con.execute(statement, args).fetchall()
            con.commit()
            return rows
        finally:
            con.close()
    parts = statement.split("?")
    assert len(parts) == len(args) + 1, "one argument for each ?"
    sql = parts[0] + "".join(_literal(a) + p for a, p in zip(args, parts[1:]))
    if not sql.lstrip().upper().startswith("SELECT"):
        pg_cluster().psql(db, sql)
        return []
    rows = pg_cluster().psql(db, "SELECT coalesce(json_agg(row_to_json(q)), '[]') FROM ("
                             + sql + ") q")
    return json.loads(rows[0][0], object_pairs_hook=lambda pairs: tuple(v for _, v in pairs))

GAME_KEYS = {
    "id", "variant", "players", "mode", "rules", "status", "phase", "to_move", "bonus", "ply",
    "colors", "area", "fields", "cells", "pyramids", "dead", "tiles", "frontier", "last",
    "seats", "spectators", "bag", "seed_hash", "end", "seed",
    "created", "creator", "clock", "clocks", "deadline", "absent_s", "rematch", "rematch_seats",
    "rematch_of", "ai_hurried", "rated", "guided", "aborted_by", "event",
}
SEAT_KEYS = {"name", "kind", "level", "taken", "connected", "rack_size", "score", "stack",
             "left", "played_by", "away_ms", "account", "rating", "rating_change",
             "bot"}  # "bot": true for a bot's seat (docs/bot-api.md)


class Server:
    """`axio serve` on a free port with its own database."""

    def __init__(self, db, *args, web=None, quiet=True):
        self.db = db
        # the tests sign up many accounts from one address; a test of that limit sets its own
        cmd = [AXIO, "serve", "--port", "0", "--db", db, *(["--quiet"] if quiet else []),
               "--max-signups-per-ip", "1000", *args]
        if web:
            cmd += ["--web", web]
        # stderr to a file: a pipe nobody reads could fill up and stall the server
        self.stderr = tempfile.TemporaryFile("w+")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        line = self._first_line()
        self.first_line = line
        if "listening on" not in line:
            raise RuntimeError(f"server did not start: {line!r} {self.errors()!r}")
        self.port = int(line.split("http://")[1].split("/")[0].split(":")[1])

    def _first_line(self):
        result = []
        reader = threading.Thread(target=lambda: result.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(TIMEOUT)
        return result[0] if result else ""

    def http(self, method, path, body=None, raw=None, headers=None):
        """(status, parsed JSON or text, headers). A game that is moving between the
        servers of a site (503 game_moving) is asked again, as the web client does."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            status, value, hdrs = self.http_once(method, path, body, raw, headers)
            if (status != 503 or not isinstance(value, dict)
                    or value.get("error", {}).get("code") != "game_moving"
                    or time.monotonic() > deadline):
                return status, value, hdrs
            time.sleep(0.3)

    def http_once(self, method, path, body=None, raw=None, headers=None):
        conn = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT)
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        headers = dict(headers or {})
        if body is not None and raw is None:
            headers.setdefault("Content-Type", "application/json")  # as a browser's fetch
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        text = resp.read().decode(errors="replace")
        conn.close()
        ctype = resp.getheader("content-type", "")
        value = json.loads(text) if ctype.startswith("application/json") else text
        return resp.status, value, dict(resp.getheaders())

    def create(self, variant, seats, name="Ann", players=None, mode=None):
        body = {"variant": variant, "players": players or len(seats), "name": name, "seats": seats}
        if mode:
            body["mode"] = mode
        status, value, _ = self.http("POST", "/api/games", body)
        assert status == 201, (status, value)
        return value

    def join(self, game, name="Bo"):
        status, value, _ = self.http("POST", f"/api/games/{game}/join", {"name": name})
        assert status == 200, (status, value)
        return value

    def websocket(self, path, headers=None, source=None):
        return WebSocket.connect(HOST, self.port, path, timeout=TIMEOUT, headers=headers,
                                 source=source)

    def stop(self):
        """SIGTERM; returns the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(TIMEOUT)
        finally:
            self._close_pipes()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(TIMEOUT)
        self._close_pipes()

    def errors(self):
        """What the server wrote to stderr (all of it once it has stopped)."""
        if self.stderr.closed:
            return self.stderr_text
        self.stderr.seek(0)
        return self.stderr.read()

    def _close_pipes(self):
        if self.proc.stdout:
            self.proc.stdout.close()
        if not self.stderr.closed:
            self.stderr_text = self.errors()
            self.stderr.close()


def sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()


def check_event(ev, seat):
    """An event as seat (None: spectator) may see it."""
    assert isinstance(ev, dict) and "ev" in ev, ev
    if ev["ev"] == "draw" and ev["player"] != seat:
        assert isinstance(ev["tiles"], int), f"another seat's draw is visible: {ev}"
    if ev["ev"] == "swap" and ev["player"] != seat and ev["accepted"]:
        assert isinstance(ev["returned"], int) and isinstance(ev["drawn"], int), ev


def check_state(msg, seat):
    game, you = msg["game"], msg["you"]
    unknown = set(game) - GAME_KEYS
    assert not unknown, f"unexpected keys in state: {unknown}"
    assert isinstance(game["bag"], int)
    assert ("seed" in game) == (game["status"] == "over"), "seed before the end"
    for s in game["seats"]:
        assert not set(s) - SEAT_KEYS, f"unexpected seat keys: {set(s) - SEAT_KEYS}"
        assert isinstance(s["rack_size"], int)
        assert isinstance(s.get("stack", 0), int)
    if seat is None:
        assert you is None, "a spectator got a `you`"
    elif game["seats"][seat]["left"] is not None:
        # a player who left sees what a spectator sees: which seat was theirs, no tiles
        assert you == {"seat": seat, "left": True}, f"a leaver got {you}"
    else:
        assert you["seat"] == seat, f"seat {seat} got seat {you['seat']}'s view"
        assert len(you["rack"]) == game["seats"][seat]["rack_size"]
        assert set(you) <= {"seat", "rack", "hint", "moves"}


def check_viewers(msg, players=None):
    """Who is connected: the spectators and each seat's presence, nothing else."""
    assert set(msg) == {"type", "seq", "spectators", "seats"}, msg
    assert isinstance(msg["spectators"], int) and msg["spectators"] >= 0, msg
    for p in msg["seats"]:
        assert set(p) == {"connected", "away_ms"}, msg
        assert isinstance(p["connected"], bool), msg
        assert p["away_ms"] is None or isinstance(p["away_ms"], int), msg
    if players is not None:
        assert len(msg["seats"]) == players, msg


# The engine's error ids (ax_error_id) an illegal_move's `reason` may carry.
ILLEGAL_REASONS = {"config", "over", "phase", "rack", "cell", "adjacent", "first_tile", "display",
                   "rotation", "wild", "move_kind", "seat", "left"}


def check_error(msg):
    """An error: a code and an English message; an illegal_move also the engine's reason."""
    assert isinstance(msg["code"], str) and msg["code"], msg
    assert isinstance(msg["message"], str), msg
    if msg["code"] == "illegal_move":
        assert set(msg) == {"type", "code", "message", "reason"}, msg
        assert msg["reason"] in ILLEGAL_REASONS, msg
    elif msg["code"] == "chat_timeout":  # a moderator's timeout: until when (unix ms)
        assert set(msg) == {"type", "code", "message", "until"}, msg
        assert isinstance(msg["until"], int), msg
    elif msg["code"] == "rate_limited" and "reason" in msg:  # a budget: which, and until when
        assert set(msg) == {"type", "code", "message", "reason", "retry_after_s"}, msg
        assert msg["reason"] == "hints" and msg["retry_after_s"] > 0, msg
    else:
        assert set(msg) == {"type", "code", "message"}, msg


def check_preview(msg):
    """A preview: `reason` (the engine's id) exactly when it is not legal; `lines` (where the
    points come from) only when it is."""
    assert isinstance(msg["legal"], bool), msg
    assert isinstance(msg["lines"], list), msg
    if msg["legal"]:
        assert msg["error"] is None and msg["reason"] is None, msg
    else:
        assert isinstance(msg["error"], str) and msg["reason"] in ILLEGAL_REASONS, msg
        assert msg["lines"] == [], msg


def check_message(msg, seat):
    """Everything a client receives passes here."""
    kind = msg["type"]
    if kind == "state":
        check_state(msg, seat)
    elif kind == "event":
        check_event(msg["event"], seat)
    elif kind == "history":
        for ev in msg["events"]:
            check_event(ev, seat)
            if ev["ev"] == "start" and "seed" in ev:
                assert any(e["ev"] == "end" for e in msg["events"]), "seed in a running game's history"
    elif kind == "hint":
        assert seat is not None, "a hint reached a spectator"
        assert set(msg) == {"type", "move"}, msg
        assert msg["move"]["type"] in ("place", "swap"), msg
    elif kind == "error":
        check_error(msg)
    elif kind == "preview":
        check_preview(msg)
    elif kind == "viewers":
        check_viewers(msg)
    elif kind in ("pong", "chat", "chat_history", "rematch"):
        pass
    elif kind == "moderation":  # the account's chat was timed out, or may go on (moderation.md)
        assert msg["chat"] in ("timeout", "open"), msg
        assert set(msg) == ({"type", "chat", "until"} if msg["chat"] == "timeout"
                            else {"type", "chat"}), msg
    elif kind == "moving":
        assert set(msg) == {"type", "retry_ms"} and isinstance(msg["retry_ms"], int), msg
    else:
        raise AssertionError(f"unknown message type {kind}")


class Client:
    """One protocol connection: a seat (token) or a spectator."""

    def __init__(self, server, game, token=None, seat=None, hint=True, moves=False, session=None,
                 token_in="url", source=None):
        """token_in: "url" (?token=) or "header" (Sec-WebSocket-Protocol, as the web client
        sends it); session: an account's session token, sent as its cookie."""
        args, headers = [], {}
        if token and token_in == "url":
            args.append(f"token={token}")
        elif token:
            headers["Sec-WebSocket-Protocol"] = f"axio-protocol-1, axio-token.{token}"
        if session:
            headers["Cookie"] = f"axio_session={session}"
        if hint:
            args.append("hint=1")
        if moves:
            args.append("moves=1")
        path = f"/ws/{game}" + ("?" + "&".join(args) if args else "")
        # a game held by another server of the site is on its way here: the server says
        # `moving` and closes, and the client comes back (as the web client does)
        self.first = None
        deadline = time.monotonic() + TIMEOUT
        while True:
            self.ws = server.websocket(path, headers=headers, source=source)
            self.closed_early = None
            try:
                self.first = self.ws.recv(TIMEOUT)
            except Closed as e:
                self.closed_early = e  # raised by the first recv, as it happened
                break
            msg = json.loads(self.first)
            if msg["type"] != "moving":
                break
            self.ws.close()
            assert time.monotonic() < deadline, f"game {game} did not come to this server"
            time.sleep(msg["retry_ms"] / 1000 + 0.05)
        self.seat = seat
        self.game = game
        self.state = None
        self.events = []  # history and events, in order
        self.raw = []  # every message text, for the seed check
        self.seq = None
        self.acted_ply = -1
        self.received = 0

    def fileno(self):
        return self.ws.fileno()

    def recv(self, timeout=TIMEOUT):
        if self.closed_early:
            e, self.closed_early = self.closed_early, None
            raise e
        text, self.first = (self.first, None) if self.first else (self.ws.recv(timeout), None)
        msg = json.loads(text)
        self.raw.append(text)
        self.received += 1
        check_message(msg, self.seat)
        if "seq" in msg:
            assert self.seq is None or msg["seq"] >= self.seq, "seq went back"
            self.seq = msg["seq"]
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "viewers" and self.state:
            # the state as it now is: presence changed, nothing else
            game = self.state["game"]
            game["spectators"] = msg["spectators"]
            for s, p in zip(game["seats"], msg["seats"]):
                s.update(p)
        elif msg["type"] == "history":
            self.events = list(msg["events"])
        elif msg["type"] == "event":
            self.events.append(msg["event"])
        return msg

    def wait_presence(self, pred, timeout=TIMEOUT):
        """The state once pred(its game) holds, presence updates (`viewers`) applied."""
        if self.state and pred(self.state["game"]):
            return self.state
        self.wait_for(lambda m: m["type"] in ("state", "viewers") and pred(self.state["game"]),
                      timeout)
        return self.state

    def wait_for(self, pred, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg

    def wait_type(self, kind, timeout=TIMEOUT):
        return self.wait_for(lambda m: m["type"] == kind, timeout)

    def drain(self, quiet=0.2):
        """Reads until nothing arrives for `quiet` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def send(self, obj):
        self.ws.send_json(obj)

    def my_turn(self):
        s = self.state
        return (s is not None and s["you"] is not None and "hint" in s["you"]
                and s["game"]["ply"] > self.acted_ply)

    def act(self):
        """Plays the hint of the last state."""
        self.acted_ply = self.state["game"]["ply"]
        self.send(self.state["you"]["hint"])

    def close(self):
        self.ws.close()


def ready(clients, timeout):
    """Clients with data to read, waiting at most timeout."""
    now = [c for c in clients if c.first or c.closed_early or c.ws.pending()]
    if now:
        return now
    r, _, _ = select.select(clients, [], [], timeout)
    return r


def play_until_over(clients, timeout=120.0, before_move=None):
    """Plays every client's turns from its hints until every client has seen
    the game end. before_move(client) may veto a move by returning False."""
    deadline = time.monotonic() + timeout
    done = set()
    while len(done) < len(clients):
        assert time.monotonic() < deadline, "the game did not end in time"
        for c in clients:
            if c.my_turn() and (before_move is None or before_move(c) is not False):
                c.act()
        for c in ready(clients, 1.0):
            msg = c.recv()
            if msg["type"] == "error":
                raise AssertionError(f"seat {c.seat} got an error: {msg}")
            if msg["type"] == "state" and msg["game"]["status"] == "over":
                done.add(c)
    return clients[0].state


def check_seed_absent(client, seed):
    """The seed appears in nothing received before the game ended."""
    for text in client.raw:
        msg = json.loads(text)
        if msg["type"] == "state" and msg["game"]["status"] == "over":
            return
        assert seed not in text, f"seed revealed before the end: {text[:200]}"


def view_of(ev, seat):
    """A record event as seat may see it (record.md, Views)."""
    ev = dict(ev)
    if ev["ev"] == "draw" and ev["player"] != seat:
        ev["tiles"] = len(ev["tiles"])
    if ev["ev"] == "swap" and ev["player"] != seat and ev["accepted"]:
        ev["returned"] = len(ev["returned"])
        ev["drawn"] = len(ev["drawn"])
    if ev["ev"] == "start":
        ev.pop("seed", None)
    return ev


def check_record(testcase, server, clients):
    """The record: 200 once over; it replays through `axio replay` and the
    independent checker; each client saw exactly its view of it; the seed
    matches seed_hash and stayed hidden until the end."""
    game = clients[0].game
    status, text, headers = server.http("GET", f"/api/games/{game}/record")
    testcase.assertEqual(status, 200)
    lines = [json.loads(line) for line in text.splitlines()]
    testcase.assertEqual(lines[0]["ev"], "start")
    testcase.assertEqual(lines[-1]["ev"], "end")
    seed = lines[0]["seed"]
    state = clients[0].state["game"]
    testcase.assertEqual(state["seed"], seed)
    testcase.assertEqual(state["seed_hash"], sha256(seed))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([AXIO, "replay", path], capture_output=True, text=True, timeout=TIMEOUT)
        testcase.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        checker = os.path.join(SRC, "tests", "checker", "axio_check.py")
        if os.path.exists(checker):
            r = subprocess.run([PYTHON3, checker, path], capture_output=True, text=True, timeout=120)
            testcase.assertEqual(r.returncode, 0, r.stdout + r.stderr)
    finally:
        os.unlink(path)
    for c in clients:
        check_seed_absent(c, seed)
        got = [view_of(e, c.seat) if e["ev"] == "start" else e for e in c.events]
        # a player who left sees what a spectator sees from its leave on
        left = next((i for i, e in enumerate(lines)
                     if e["ev"] == "leave" and e["player"] == c.seat), len(lines))
        want = [view_of(e, c.seat if i <= left else None) for i, e in enumerate(lines)]
        # the start line a client got before the end has no seed; names may have filled in
        testcase.assertEqual(len(got), len(want), "event count differs from the record")
        for g, w in zip(got[1:], want[1:]):
            testcase.assertEqual(g, w)
    return lines


class ServerTest(unittest.TestCase):
    """A test case with a fresh server (self.server) on a temporary database."""

    server_args = ()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = new_database(self.tmp.name)
        self.server = Server(self.db, *self.server_args)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        code = self.server.stop()
        self.tmp.cleanup()
        self.assertEqual(code, 0, "the server did not stop cleanly: " + self.server.errors())

    def connect(self, game, token=None, seat=None, **kw):
        c = Client(self.server, game, token, seat, **kw)
        self.clients.append(c)
        c.wait_type("history")
        return c
