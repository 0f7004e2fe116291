#!/usr/bin/env python3
"""load.py - load generator for `axio serve`: many clients playing games against each
other over real WebSocket connections, or against the server's computer players.

Usage:
    python3 bench/load.py --axio build/axio [--games 200] [--players 2] [--spectators 3]
    python3 bench/load.py --axio build/axio --ai-games 50 --level strong [--think 0 0]
                          [--duration S] [--json FILE]
    python3 bench/load.py --url http://127.0.0.1:8080 ...   (a server already running)
    python3 bench/load.py --axio build/axio --cluster 3 ...  (one site: nginx, 3 instances,
                                                              PostgreSQL; tests/cluster)

With --axio it starts its own server on a free port with a temporary database and
limits raised for one address (every client comes from 127.0.0.1), and stops it at
the end. It then
  1. creates the games over HTTP (every seat human) and joins every seat,
  2. opens every connection, seats with ?hint=1 and spectators, and waits until all
     are in (2 players + 3 spectators x 200 games = 1,000 connections),
  3. plays: each seat, when a state says it is to move, thinks for a random time in
     --think (seconds, like a person; 0 0 for no pause) and sends the legal decision
     the server hinted at (`you.hint`, drawn with ax_random_move over the legal moves),
  4. runs until every game is over (or --duration); then sends no new decision, waits
     (--drain seconds at most) for the answers to the ones in flight, and checks with
     the server that every decision it acknowledged is in the game (no lost moves).

Reported: decisions per second; move latency from sending a decision to receiving
the state broadcast after it, at the mover (p50/p99/max) and at the last of all the
game's connections (p50/p99/max); errors (error messages, failed or dropped
connections); lost moves (acknowledged to a client, then missing on the server) and
unanswered ones (sent, and no answer even after the drain); with --axio, the server's
CPU (share of one core while playing) and its memory: resident size before the clients
connect and with all of them connected, and the difference per connection.
With --ai-games N --level L it plays N games of one person (this client, moving
from the hints after --think) against the computer player L instead, and reports
`ai_reply_ms` (p50/p99/max): from the state in which the computer is to move to
the state with its decision, as the person sees it — queueing for the server's AI
workers included. `ai_hurried` counts the states that said the computer had less
than its full time because the server was busy.

Every latency is also reported per --window seconds (10 by default) of the run, so
that a tail can be placed in time (a burst of moves at the start, a garbage
collection, an instance killed).

Floods, from addresses of their own (127.0.0.2 and up, --flood-addresses of them,
--flood-games games each), while the clients above (the victims, 127.0.0.1) play:
  --flood hints    each flooding game keeps a hint asked for ({"type":"hint"}: the
                   judge, --judge-playouts a decision), asking again the moment one
                   is answered or refused (a second later);
  --flood expert   each flooding game is against expert, answered at once from its
                   hint, so expert always has a decision to make.
What the flood got (hints answered, refused; its games' moves) is reported apart.

--split (with --cluster 2 or more): each game's seats connect straight to different
instances (seat k to instance k), not through nginx: one player is passed on to the
game's holder by the instance it reached (docs/server.md, "Several servers").

--browser: a chromium page (bench/browser.mjs, Debian's chromium through
playwright-core) plays games against the computer by clicking, beside the load, and
reports the time from its click to the board showing the tile.

Latencies are measured on this one Python thread, so they include the client's own
delays: an upper bound of the server's.

On a site of several servers (--cluster, or --url of one) a game is held by one of them:
a request that reaches another while the game moves there is answered "moving" (HTTP 503
game_moving, a WebSocket `moving` message before the close) and is asked again, as the web
client does; the server's CPU and memory are then not reported.

One asyncio loop, a minimal RFC 6455 client on asyncio streams: frames from the
server are read whole; JSON is parsed only where the client needs it (a seat's
`you`, the ply), which keeps 1,000 connections on one core.
"""
import argparse
import asyncio
import base64
import gc
import http.client
import multiprocessing
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

PLY = re.compile(rb'"ply":(\d+)')
TO_MOVE = re.compile(rb'"to_move":(\d+|null)')
STATUS_OVER = b'"status":"over"'


class Stats:
    def __init__(self):
        self.stopping = False  # --duration is over: no new decisions
        self.samples = []  # (send time, seconds to the mover's state)
        self.lag = []  # seconds the client's loop woke up late
        self.mover = []  # seconds, send -> the mover's state
        self.everyone = []  # seconds, send -> the last connection's state
        self.sent = 0
        self.acked = 0
        self.errors = []
        self.messages = 0
        self.bytes = 0
        self.ai_reply = []  # seconds from the computer's turn to its decision
        self.ai_samples = []  # (time of the computer's turn, seconds to its decision)
        self.ai_hurried = 0
        self.reconnects = 0  # a game moved between the servers of a site (1012/1013)


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100.0 * len(values) + 0.5)) - 1))
    return values[k]


def windows(samples, t0, width):
    """Per `width` seconds from t0: (start s, n, p50 ms, p99 ms, max ms) of the latencies of
    the samples (time, seconds) whose time falls in it."""
    rows = {}
    for t, v in samples:
        rows.setdefault(int((t - t0) // width), []).append(v)
    return [(k * width, len(v), 1000 * pct(v, 50), 1000 * pct(v, 99), 1000 * max(v))
            for k, v in sorted(rows.items())]


def print_windows(title, rows):
    print(f"{title}, per window:")
    print("    from s     n    p50 ms    p99 ms    max ms")
    for start, n, p50, p99, top in rows:
        print(f"    {start:6.0f} {n:5d} {p50:9.1f} {p99:9.1f} {top:9.1f}")


# --- a minimal WebSocket client on asyncio streams ---

class WsConn:
    def __init__(self, game, seat, source=None):
        self.game = game
        self.seat = seat  # None: spectator
        self.source = source  # the local address to connect from, or any
        self.reader = self.writer = None
        self.acted_ply = -1
        self.closed = False
        self.opened = 0  # how many times it connected: a decision is sent on the socket it was made for

    async def open(self, host, port, path):
        """Connects; a server that says the game is `moving` here is asked again."""
        self.host, self.port_now, self.path = host, port, path
        self.first = None
        deadline = time.perf_counter() + 60
        while True:
            await self.open_once(host, port, path)
            self.opened += 1
            opcode, payload = await self.recv()
            if not payload.startswith(b'{"type":"moving"'):
                self.first = (opcode, payload)
                return
            self.writer.close()
            if time.perf_counter() > deadline:
                raise ConnectionError("the game did not come to the server")
            await asyncio.sleep(json.loads(payload)["retry_ms"] / 1000 + random.uniform(0, 0.1))

    async def open_once(self, host, port, path):
        self.reader, self.writer = await asyncio.open_connection(
            host, port, local_addr=(self.source, 0) if self.source else None)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(f"handshake refused: {head[:80]!r}")

    async def send_text(self, text):
        payload = text.encode()
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
        self.writer.write(head + mask + masked)
        await self.writer.drain()

    async def recv(self):
        """(opcode, payload) of the next frame."""
        if getattr(self, "first", None):
            first, self.first = self.first, None
            return first
        b0, b1 = await self.reader.readexactly(2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        payload = await self.reader.readexactly(n)
        opcode = b0 & 0x0F
        if opcode == 9:  # ping: answer
            self.writer.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
        return opcode, payload

    def close(self):
        if self.writer and not self.closed:
            self.closed = True
            try:
                self.writer.write(bytes([0x88, 0x82]) + b"\0\0\0\0" + (1000).to_bytes(2, "big"))
                self.writer.close()
            except (OSError, RuntimeError):
                pass


# --- games ---

class Game:
    def __init__(self, gid, stats):
        self.id = gid
        self.stats = stats
        self.conns = []
        self.pending = {}  # ply a decision was sent at -> (send time, mover, {conns that saw it})
        self.over = asyncio.Event()
        self.acked = 0
        self.over_seen = set()
        self.ai_seats = set()
        self.ai_wait = None  # (ply, time) since the computer is to move

    def on_ai_state(self, ply, to_move, now, hurried):
        """--ai-games: times each computer decision as the person sees it."""
        if self.ai_wait and ply > self.ai_wait[0]:
            self.stats.ai_reply.append(now - self.ai_wait[1])
            self.stats.ai_samples.append((self.ai_wait[1], now - self.ai_wait[1]))
            self.ai_wait = None
        if hurried:
            self.stats.ai_hurried += 1
        if to_move in self.ai_seats and self.ai_wait is None:
            self.ai_wait = (ply, now)

    def sent(self, ply, conn):
        self.pending[ply] = (time.perf_counter(), conn, set())

    def on_state(self, conn, ply, now, over):
        for sent_ply in [p for p in self.pending if p < ply]:
            t0, mover, seen = self.pending[sent_ply]
            if conn in seen:
                continue
            seen.add(conn)
            if conn is mover:
                self.stats.mover.append(now - t0)
                self.stats.samples.append((t0, now - t0))
                self.stats.acked += 1
                self.acked += 1
            if len(seen) == len(self.conns):
                self.stats.everyone.append(now - t0)
                del self.pending[sent_ply]
        if over:
            self.over_seen.add(conn)
            if len(self.over_seen) == len(self.conns):
                self.over.set()


async def conn_loop(conn, game, args, stats):
    try:
        while True:
            opcode, payload = await conn.recv()
            if opcode == 8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                if code in (1012, 1013) and not game.over.is_set() and not stats.stopping:
                    # the game moved to another server of the site: back at once, as the
                    # web client comes back
                    stats.reconnects += 1
                    conn.writer.close()
                    await conn.open(conn.host, conn.port_now, conn.path)
                    conn.acted_ply = -1
                    continue
                if not game.over.is_set():
                    stats.errors.append(f"game {game.id}: connection closed by the server "
                                        f"(code {code}, {payload[2:80].decode(errors='replace')!r})")
                return
            if opcode != 1:
                continue
            stats.messages += 1
            stats.bytes += len(payload)
            if payload.startswith(b'{"type":"state"'):
                now = time.perf_counter()
                ply = int(PLY.search(payload).group(1))
                over = STATUS_OVER in payload[:300]
                game.on_state(conn, ply, now, over)
                if game.ai_seats and conn.seat is not None:
                    m = TO_MOVE.search(payload)
                    to_move = None if over or m.group(1) == b"null" else int(m.group(1))
                    game.on_ai_state(ply, to_move, now, b'"ai_hurried":true' in payload)
                if over or conn.seat is None:
                    continue
                you = json.loads(payload[payload.rindex(b'"you":') + 6:-1])
                if "hint" in you and ply > conn.acted_ply:
                    conn.acted_ply = ply
                    asyncio.get_running_loop().create_task(play(conn, game, ply, you["hint"], args, stats))
            elif payload.startswith(b'{"type":"error"'):
                stats.errors.append(f"game {game.id}: {payload[:200].decode(errors='replace')}")
    except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
        if not game.over.is_set():
            stats.errors.append(f"game {game.id}: connection lost: {e!r}")


async def play(conn, game, ply, hint, args, stats):
    opened = conn.opened
    think = random.uniform(*args.think) if args.think[1] > 0 else 0
    if think:
        await asyncio.sleep(think)
    if stats.stopping or conn.closed or conn.opened != opened:
        return  # the connection it was made for closed: the new one's state decides again
    game.sent(ply, conn)
    stats.sent += 1
    try:
        await conn.send_text(json.dumps(hint, separators=(",", ":")))
    except (ConnectionError, OSError) as e:
        if not stats.stopping:
            stats.errors.append(f"game {game.id}: sending failed: {e!r}")


async def watch_lag(stats):
    """How late this client's own loop runs: its share of measured latency."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.lag.append(time.perf_counter() - t - 0.01)


# --- HTTP ---

def http_json(host, port, method, path, body=None):
    """(status, JSON); a game moving between the servers of a site is asked again."""
    for _ in range(200):
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json"} if body is not None else {})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        value = json.loads(data) if data else None
        if resp.status != 503 or (value or {}).get("error", {}).get("code") != "game_moving":
            break
        time.sleep(0.3)
    return resp.status, value


def victim_source(args, i):
    """With --flood, each person against the computer has an address of its own (127.0.1.x
    and up), as people do: the site's budgets per address are for them as they are."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}" if args.flood else None


def create_ai_games(host, port, args):
    """--ai-games: [(game id, [(seat, token)], {computer seats})], a person against L."""
    games = []
    for i in range(args.ai_games):
        variant = args.variants[i % len(args.variants)]
        body = {"variant": variant, "players": 2, "name": f"p{i}",
                "seats": [{"kind": "human"}, {"kind": "ai", "level": args.level}]}
        source = victim_source(args, i)
        status, created = (http_json_from(host, port, source, "POST", "/api/games", body) if source
                           else http_json(host, port, "POST", "/api/games", body))
        if status != 201:
            raise SystemExit(f"creating a game failed: {status} {created}")
        games.append((created["game"], [(created["seat"], created["token"])], {1}))
    return games


def create_games(host, port, args):
    """[(game id, [(seat, token)], {computer seats})]"""
    if args.ai_games:
        return create_ai_games(host, port, args)
    games = []
    for i in range(args.games):
        variant = args.variants[i % len(args.variants)]
        status, created = http_json(host, port, "POST", "/api/games", {
            "variant": variant, "players": args.players, "name": f"p{i}-0",
            "seats": [{"kind": "human"}] * args.players})
        if status != 201:
            raise SystemExit(f"creating a game failed: {status} {created}")
        seats = [(created["seat"], created["token"])]
        for k in range(1, args.players):
            status, joined = http_json(host, port, "POST", f"/api/games/{created['game']}/join",
                                       {"name": f"p{i}-{k}"})
            if status != 200:
                raise SystemExit(f"joining a game failed: {status} {joined}")
            seats.append((joined["seat"], joined["token"]))
        games.append((created["game"], seats, set()))
    return games


# --- a flood, from addresses of its own (--flood) ---

def http_json_from(host, port, source, method, path, body=None):
    conn = http.client.HTTPConnection(host, port, timeout=30, source_address=(source, 0))
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json"} if body is not None else {})
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, json.loads(data) if data else None


async def flood_game(host, port, source, created, args, got, stop):
    """One flooding game: keeps a hint asked for (hints), or moves at once (expert)."""
    game = Game(created["game"], Stats())
    conn = WsConn(game, created["seat"], source)
    try:
        await conn.open(host, port, f"/ws/{created['game']}?token={created['token']}&hint=1")
    except (ConnectionError, OSError, asyncio.IncompleteReadError) as e:
        got["errors"] += 1
        got["error"] = repr(e)
        return
    asked = False
    try:
        while not stop.is_set():
            opcode, payload = await conn.recv()
            if opcode == 8:
                break
            if payload.startswith(b'{"type":"hint"'):
                got["hints"] += 1
                asked = False
            elif payload.startswith(b'{"type":"error"'):
                got["refused"] += 1
                got["refusal"] = payload[:160].decode(errors="replace")
                asked = False
                await asyncio.sleep(1.0)
            elif payload.startswith(b'{"type":"state"'):
                if STATUS_OVER in payload[:300]:
                    break
                you = json.loads(payload[payload.rindex(b'"you":') + 6:-1])
                if "hint" not in you:
                    continue
                if args.flood == "expert":
                    await conn.send_text(json.dumps(you["hint"], separators=(",", ":")))
                    got["moves"] += 1
                    continue
            else:
                continue
            if args.flood == "hints" and not asked:
                asked = True
                await conn.send_text('{"type":"hint"}')
    except (asyncio.IncompleteReadError, ConnectionError, OSError):
        pass
    finally:
        conn.close()


async def flood_run(host, port, args, pipe):
    got = {"games": 0, "refused_games": 0, "hints": 0, "refused": 0, "moves": 0, "errors": 0}
    games = []
    level = "expert" if args.flood == "expert" else "random"
    for a in range(args.flood_addresses):
        source = f"127.0.0.{2 + a}"
        for _ in range(args.flood_games):
            status, created = http_json_from(host, port, source, "POST", "/api/games", {
                "variant": "square", "players": 2, "name": "flood",
                "seats": [{"kind": "human"}, {"kind": "ai", "level": level}]})
            if status == 201:
                got["games"] += 1
                games.append((source, created))
            else:
                got["refused_games"] += 1
    stop = asyncio.Event()
    tasks = [asyncio.create_task(flood_game(host, port, s, c, args, got, stop)) for s, c in games]
    pipe.send(("ready", got["games"]))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, pipe.recv)  # "stop"
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(("done", got))


def flood_worker(host, port, args, pipe):
    asyncio.run(flood_run(host, port, args, pipe))


# --- a person in a browser beside the load (--browser) ---

def start_browser(host, port, args):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "browser.mjs")
    env = dict(os.environ, AXIO_URL=f"http://{host}:{port}", AXIO_SECONDS=str(args.duration + 60),
               SRC=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    return subprocess.Popen(["node", script], stdout=subprocess.PIPE, env=env, text=True)


def stop_browser(proc):
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=120)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"errors": ["the browser printed nothing"]}


# --- the run ---

async def play_slice(host, port, args, created, connected=None, go=None):
    """Plays the games `created` (a slice of them with --procs): opens their connections,
    says so (connected()), waits for go(), plays until they are over or --duration, drains,
    and returns what it measured as plain data."""
    stats = Stats()
    games = []
    opens = []
    for n, (gid, seats, ai_seats) in enumerate(created):
        game = Game(gid, stats)
        game.ai_seats = ai_seats
        games.append(game)
        for seat, token in seats:
            conn = WsConn(game, seat, victim_source(args, args.first_game + n) if ai_seats else None)
            # --split: each seat straight to an instance of its own
            conn.port = args.instance_ports[seat % len(args.instance_ports)] if args.split else port
            game.conns.append(conn)
            opens.append((conn, f"/ws/{gid}?token={token}&hint=1"))
        for _ in range(args.spectators):
            conn = WsConn(game, None)
            game.conns.append(conn)
            opens.append((conn, f"/ws/{gid}"))
    # open in batches, then start reading: every state before play is ignored
    for i in range(0, len(opens), 100):
        batch = opens[i:i + 100]
        results = await asyncio.gather(*(c.open(host, getattr(c, "port", port), p) for c, p in batch),
                                       return_exceptions=True)
        for (c, _), r in zip(batch, results):
            if isinstance(r, Exception):
                stats.errors.append(f"connect failed: {r!r}")
    nconns = sum(1 for c, _ in opens if c.writer)
    if connected:
        connected(nconns)
    if go:
        await asyncio.get_running_loop().run_in_executor(None, go)
    gc.collect()
    gc.freeze()  # the setup's objects are never collected: fewer, shorter pauses
    gc.set_threshold(100000, 50, 100)
    t_play = time.perf_counter()
    lag = asyncio.create_task(watch_lag(stats))
    readers = [asyncio.create_task(conn_loop(c, c.game, args, stats)) for c, _ in opens if c.writer]
    try:
        await asyncio.wait_for(asyncio.gather(*(g.over.wait() for g in games)), args.duration)
    except asyncio.TimeoutError:
        pass
    t_end = time.perf_counter()
    # no new decisions; the ones in flight are answered (or not) before anything is counted
    stats.stopping = True
    drain_end = time.perf_counter() + args.drain
    while time.perf_counter() < drain_end and stats.sent > stats.acked:
        await asyncio.sleep(0.05)
    for c, _ in opens:
        c.close()
    lag.cancel()
    for r in readers:
        r.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "samples": stats.samples, "lag": stats.lag, "mover": stats.mover,
        "everyone": stats.everyone, "sent": stats.sent, "acked": stats.acked,
        "errors": stats.errors, "messages": stats.messages, "bytes": stats.bytes,
        "ai_reply": stats.ai_reply, "ai_samples": stats.ai_samples, "ai_hurried": stats.ai_hurried,
        "reconnects": stats.reconnects,
        "t_play": t_play,
        "games": [(g.id, g.acked, g.over.is_set()) for g in games],
        "connections": nconns, "seconds": t_end - t_play,
        "cpu": own.ru_utime + own.ru_stime,
    }


def merge(parts):
    """One Stats and the games' (id, acked, over) from every slice's results."""
    stats = Stats()
    games = []
    for r in parts:
        for key in ("samples", "lag", "mover", "everyone", "errors", "ai_reply", "ai_samples"):
            getattr(stats, key).extend(r[key])
        for key in ("sent", "acked", "messages", "bytes", "ai_hurried", "reconnects"):
            setattr(stats, key, getattr(stats, key) + r[key])
        games.extend(r["games"])
    return stats, games


def slice_worker(host, port, args, created, conn, index):
    """A --procs child: plays its slice and sends back the results."""
    if args.seed is not None:
        random.seed(args.seed * 1000 + index)  # each its own think times, reproducibly

    def connected(n):
        conn.send(("connected", n))

    def go():
        conn.recv()
    try:
        result = asyncio.run(play_slice(host, port, args, created, connected, go))
        conn.send(("done", result))
    except BaseException as e:  # noqa: B902 - reported to the parent, which fails the run
        conn.send(("failed", repr(e)))


def run(host, port, args):
    """Creates the games, plays them (in --procs processes), returns the merged results."""
    t0 = time.perf_counter()
    created = create_games(host, port, args)
    t_created = time.perf_counter()
    rss_games = rss_kib(args.server_pid)[0] if args.server_pid else None
    # --flood: a game's person keeps its address whatever process plays it
    args.first_game = 0
    slices = [created[i::args.procs] for i in range(args.procs)]
    if args.flood and args.procs > 1:
        raise SystemExit("--flood plays with one load process (--procs 1)")
    ctx = multiprocessing.get_context("fork")
    pipes, procs = [], []
    for index, part in enumerate(slices):
        here, there = ctx.Pipe()
        p = ctx.Process(target=slice_worker, args=(host, port, args, part, there, index), daemon=True)
        p.start()
        pipes.append(here)
        procs.append(p)
    nconns = 0
    for here in pipes:
        kind, n = here.recv()
        if kind != "connected":
            raise SystemExit(f"a load process failed: {n}")
        nconns += n
    t_connected = time.perf_counter()
    rss_connected = None
    if args.server_pid:
        time.sleep(0.5)  # the last connections' first states are sent
        rss_connected = rss_kib(args.server_pid)[0]
    print(f"{len(created)} games created in {t_created - t0:.1f} s; {nconns} connections open "
          f"in {t_connected - t_created:.1f} s ({args.procs} load process(es))", flush=True)
    for here in pipes:
        here.send("go")
    parts = []
    for here in pipes:
        kind, result = here.recv()
        if kind != "done":
            raise SystemExit(f"a load process failed: {result}")
        parts.append(result)
    for p in procs:
        p.join()
    stats, games = merge(parts)
    stats.t_play = min(r["t_play"] for r in parts)
    stats.rss_games, stats.rss_connected = rss_games, rss_connected
    stats.client_cpu = sum(r["cpu"] for r in parts)
    return stats, games, nconns, max(r["seconds"] for r in parts)


def lost_moves(host, port, games):
    """Decisions acknowledged to a client but missing on the server (a game whose
    server ply is below what its clients saw acknowledged); games: (id, acked, over)."""
    lost = 0
    for gid, acked, _ in games:
        status, state = http_json(host, port, "GET", f"/api/games/{gid}")
        if status != 200 or state["ply"] < acked:
            lost += acked - (state["ply"] if status == 200 else 0)
    return lost


def rss_kib(pid):
    """Resident and peak resident memory of a process, KiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1])
    return out.get("VmRSS", 0), out.get("VmHWM", 0)


def start_server(axio, db, extra=(), bind="127.0.0.1"):
    cmd = [axio, "serve", "--port", "0", "--bind", bind, "--db", db, "--quiet",
           "--max-conns-per-ip", "100000", "--max-games-per-ip", "100000000",
           "--request-rate", "1000000", "--msg-rate", "100", *extra]
    # every client opens from 127.0.0.1: lift each per-address limit the build has (a build
    # older than a limit lacks its option), so that only the load is measured
    usage = subprocess.run([axio, "serve", "--help"], capture_output=True, text=True).stdout
    for option in ("--max-header-waits-per-ip", "--max-strong-games-per-ip", "--max-hints-per-ip",
                   "--max-waiting-per-ip", "--max-analyses-per-ip"):
        if option in usage:
            cmd += [option, "100000"]
    err = open(db + ".log", "w")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    line = proc.stdout.readline()
    if "listening on" not in line:
        raise SystemExit(f"the server did not start: {line!r}")
    port = int(line.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
    return proc, port


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--axio", help="start this axio binary's server (default: use --url)")
    ap.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8080")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--spectators", type=int, help="per game (default 3: 1,000 connections; 0 with --ai-games)")
    ap.add_argument("--variants", default="square", help="comma-separated, used in turn")
    ap.add_argument("--think", type=float, nargs=2, default=[0.5, 1.5], metavar=("MIN", "MAX"),
                    help="seconds a player waits before moving (default 0.5 1.5)")
    ap.add_argument("--duration", type=float, default=600, help="stop after this many seconds")
    ap.add_argument("--drain", type=float, default=10,
                    help="after --duration, wait this long at most for decisions in flight")
    ap.add_argument("--seed", type=int, help="for the think times")
    ap.add_argument("--procs", type=int, default=1,
                    help="load processes, each playing a share of the games (default 1)")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--samples", help="write every move's send time and latency (CSV) here")
    ap.add_argument("--ai-games", type=int, default=0,
                    help="play this many games of one person against the computer instead")
    ap.add_argument("--level", default="strong", help="the computer player of --ai-games")
    ap.add_argument("--cluster", type=int, default=0, metavar="N",
                    help="with --axio: a site of N instances on PostgreSQL behind nginx "
                         "(tests/cluster/cluster.py; durable PostgreSQL)")
    ap.add_argument("--no-fsync", action="store_true",
                    help="with --cluster: PostgreSQL without fsync, so that the servers' own "
                         "latency shows apart from the disk's")
    ap.add_argument("--server-arg", action="append", default=[],
                    help="an extra option for the server started with --axio (repeatable)")
    ap.add_argument("--window", type=float, default=10,
                    help="latencies are also reported per this many seconds (default 10)")
    ap.add_argument("--flood", choices=("hints", "expert"),
                    help="while the others play, flood from other addresses (above)")
    ap.add_argument("--flood-addresses", type=int, default=1, help="flooding addresses (default 1)")
    ap.add_argument("--flood-games", type=int, default=30, help="games per flooding address (default 30)")
    ap.add_argument("--split", action="store_true",
                    help="with --cluster: each game's seats on different instances, not through nginx")
    ap.add_argument("--browser", action="store_true",
                    help="a chromium page plays beside the load and reports (bench/browser.mjs)")
    args = ap.parse_args()
    args.variants = args.variants.split(",")
    levels = ("random", "greedy", "strong", "expert")  # src/ai/levels.c
    if args.ai_games and args.level not in levels:
        ap.error(f"--level {args.level}: not a computer level ({', '.join(levels)})")
    if args.spectators is None:
        args.spectators = 0 if args.ai_games else 3
    args.instance_ports = []
    if args.seed is not None:
        random.seed(args.seed)
    if not args.axio and not args.url:
        ap.error("give --axio PATH (start a server) or --url URL (use one)")
    if args.split and args.cluster < 2:
        ap.error("--split needs --cluster 2 or more")
    if args.no_fsync and not args.cluster:
        ap.error("--no-fsync goes with --cluster")
    proc = tmp = site = None
    args.server_pid = None
    if args.axio and args.cluster:
        os.environ["AXIO"] = os.path.abspath(args.axio)
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                        "tests", "cluster"))
        from cluster import Site
        site = Site(args.cluster, args=["--quiet", *args.server_arg], durable=not args.no_fsync)
        host, port = "127.0.0.1", site.port
        args.instance_ports = [i.port for i in site.instances]
    elif args.axio:
        tmp = tempfile.TemporaryDirectory()
        proc, port = start_server(args.axio, os.path.join(tmp.name, "load.db"), args.server_arg)
        host = "127.0.0.1"
        args.server_pid = proc.pid
    else:
        u = urllib.parse.urlparse(args.url)
        host, port = u.hostname, u.port or 80
    flood = browser = None
    flood_got = browser_got = None
    try:
        if args.flood:
            here, there = multiprocessing.get_context("fork").Pipe()
            flood = multiprocessing.get_context("fork").Process(
                target=flood_worker, args=(host, port, args, there), daemon=True)
            flood.start()
            kind, n = here.recv()
            print(f"flood: {n} games of {args.flood_addresses} address(es) ({args.flood})", flush=True)
        if args.browser:
            browser = start_browser(host, port, args)
        rss_idle = rss_kib(proc.pid)[0] if proc else None
        cpu0 = cpu_seconds(proc.pid) if proc else None
        stats, games, nconns, elapsed = run(host, port, args)
        cpu = cpu_seconds(proc.pid) - cpu0 if proc else None
        if flood:
            here.send("stop")
            flood_got = here.recv()[1]
            flood.join(30)
        if browser:
            browser_got = stop_browser(browser)
        rss_peak = rss_kib(proc.pid)[1] if proc else None
        lost = lost_moves(host, port, games)
        unanswered = stats.sent - stats.acked
        finished = sum(1 for _, _, over in games if over)
    finally:
        if site:
            site.stop()
        if proc:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(60)
            if code != 0:
                print(f"the server exited with {code}", file=sys.stderr)
            tmp.cleanup()
    ms = lambda v: f"{1000 * v:.1f}"  # noqa: E731
    result = {
        "games": len(games), "games_finished": finished, "connections": nconns,
        "seconds": round(elapsed, 2), "moves": stats.acked,
        "moves_per_second": round(stats.acked / elapsed, 1) if elapsed else 0,
        "mover_p50_ms": float(ms(pct(stats.mover, 50))), "mover_p99_ms": float(ms(pct(stats.mover, 99))),
        "mover_max_ms": float(ms(max(stats.mover, default=float("nan")))),
        "all_p50_ms": float(ms(pct(stats.everyone, 50))), "all_p99_ms": float(ms(pct(stats.everyone, 99))),
        "all_max_ms": float(ms(max(stats.everyone, default=float("nan")))),
        "messages": stats.messages, "errors": len(stats.errors), "lost_moves": lost,
        "unanswered_moves": unanswered, "instances": args.cluster or 1,
        "reconnects": stats.reconnects,
        "server_cpu_seconds": round(cpu, 1) if cpu is not None else None,
        "load_average": round(os.getloadavg()[0], 2),
        "client_lag_p99_ms": float(ms(pct(stats.lag, 99))),
    }
    if args.ai_games:
        result["level"] = args.level
        result["ai_reply_ms"] = {
            "n": len(stats.ai_reply), "p50": float(ms(pct(stats.ai_reply, 50))),
            "p99": float(ms(pct(stats.ai_reply, 99))),
            "max": float(ms(max(stats.ai_reply, default=float("nan"))))}
        result["ai_hurried"] = stats.ai_hurried
    print(f"{finished}/{len(games)} games finished, {nconns} connections, {stats.acked} moves "
          f"in {elapsed:.1f} s: {result['moves_per_second']} moves/s, {stats.messages} messages received")
    print(f"move latency at the mover:      p50 {result['mover_p50_ms']} ms, p99 {result['mover_p99_ms']} ms, "
          f"max {result['mover_max_ms']} ms")
    print(f"move latency at every viewer:   p50 {result['all_p50_ms']} ms, p99 {result['all_p99_ms']} ms, "
          f"max {result['all_max_ms']} ms")
    if args.ai_games:
        r = result["ai_reply_ms"]
        print(f"computer ({args.level}) reply:     p50 {r['p50']} ms, p99 {r['p99']} ms, max {r['max']} ms "
              f"over {r['n']} decisions; {stats.ai_hurried} states said it was hurried")
    rows = windows(stats.samples, stats.t_play, args.window)
    result["windows"] = [dict(zip(("from_s", "n", "p50_ms", "p99_ms", "max_ms"), r)) for r in rows]
    print_windows("move latency at the mover", rows)
    if args.ai_games:
        rows = windows(stats.ai_samples, stats.t_play, args.window)
        result["ai_windows"] = [dict(zip(("from_s", "n", "p50_ms", "p99_ms", "max_ms"), r))
                                for r in rows]
        print_windows(f"computer ({args.level}) reply", rows)
    if flood_got is not None:
        result["flood"] = flood_got
        print(f"flood ({args.flood}): {flood_got['games']} games made, {flood_got['refused_games']} "
              f"refused; {flood_got['hints']} hints answered, {flood_got['refused']} refused; "
              f"{flood_got['moves']} moves; {flood_got['errors']} connections failed")
        if flood_got.get("refusal"):
            print(f"  a refusal: {flood_got['refusal']}")
    if browser_got is not None:
        result["browser"] = browser_got
        b = browser_got.get("click_to_board_ms") or {}
        print(f"browser: {browser_got.get('games')} games, {browser_got.get('placements')} placements, "
              f"click to board p50 {b.get('p50')} ms, p99 {b.get('p99')} ms, max {b.get('max')} ms; "
              f"errors {browser_got.get('errors')}")
    if cpu is not None:
        print(f"server CPU: {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core), "
              f"{1000 * cpu / max(1, stats.acked):.2f} ms per move")
        conn_kib = (stats.rss_connected - stats.rss_games) / max(1, nconns)
        game_kib = (stats.rss_games - rss_idle) / max(1, len(games))
        print(f"server memory: {rss_idle / 1024:.1f} MiB idle, {stats.rss_games / 1024:.1f} MiB with "
              f"{len(games)} games ({game_kib:.1f} KiB each), {stats.rss_connected / 1024:.1f} MiB with "
              f"{nconns} connections ({conn_kib:.1f} KiB each), peak {rss_peak / 1024:.1f} MiB")
        result.update({"server_cpu_ms_per_move": round(1000 * cpu / max(1, stats.acked), 3),
                       "server_rss_idle_kib": rss_idle, "server_rss_connected_kib": stats.rss_connected,
                       "server_kib_per_connection": round(conn_kib, 2), "server_rss_peak_kib": rss_peak,
                       "server_rss_games_kib": stats.rss_games, "server_kib_per_game": round(game_kib, 2)})
    print(f"load generator loop lag: p50 {ms(pct(stats.lag, 50))} ms, p99 {ms(pct(stats.lag, 99))} ms, "
          f"max {ms(max(stats.lag, default=0))} ms")
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(f"load generator CPU: {own.ru_utime + own.ru_stime + stats.client_cpu:.1f} s; machine load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"errors: {len(stats.errors)}, lost moves: {lost}, unanswered after the drain: {unanswered}, "
          f"reconnections (a game moved): {stats.reconnects}")
    for e in stats.errors[:10]:
        print("  " + e)
    if args.samples:
        with open(args.samples, "w") as f:
            t0 = min((t for t, _ in stats.samples), default=0)
            f.write("sent_s,latency_ms\n")
            for t, lat in sorted(stats.samples):
                f.write(f"{t - t0:.4f},{1000 * lat:.2f}\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0 if not stats.errors and lost == 0 and unanswered == 0 and finished == len(games) else 1


if __name__ == "__main__":
    sys.exit(main())
