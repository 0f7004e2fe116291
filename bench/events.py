#!/usr/bin/env python3
"""events.py - events on one `axio serve` (docs/tournaments.md, issue 50): an arena of many
players, and the pairing of a big Swiss round.

Usage:
    python3 bench/events.py --axio build/axio [--arena-players 500] [--duration 300]
                            [--think 0.5 1.5] [--swiss-players 1000] [--swiss-seats 3]
                            [--skip-arena] [--skip-swiss] [--json FILE]

Each part starts its own server on a free port (SQLite in a temporary folder, the
per-address limits raised since every player comes from 127.0.0.1) and stops it after.

Arena: signs up --arena-players accounts, creates an arena (square, 2 seats, 3+2 clock,
--duration seconds), joins them all and starts it. One asyncio loop plays every account:
it asks GET /api/events/ID every --poll seconds (one spectator of the event page), opens
a WebSocket with the account's session to each new game of an account (`&hint=1`) and
plays the hint after a think time drawn from --think. Reported:
  - pairing latency: from a player's client seeing its game's final state to the event
    page showing the player's next table, p50/p99/max (it includes up to one --poll of
    the client's own asking, and the time the player waits for an opponent to finish);
  - the server's CPU (user + system, /proc/PID/stat) over the arena, as a share of one
    core, and per game; games played; the event page's answer time and size at the end.

Swiss: signs up --swiss-players accounts, creates a Swiss (--swiss-seats a table, 2
rounds) and starts it; nobody comes to the games, so every table ends by its no-shows
(--absent-s 1), which gives round 2 players with different scores. Reported: the server's
own log line of each round, "N tables in T ms (pairing P ms, games G ms)": P is
tn_swiss_pair, G making the round's games and storing its tables.
"""
import argparse
import asyncio
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import WsConn, cpu_seconds, pct  # noqa: E402

PW = "correct horse"
HOST = "127.0.0.1"


def start(axio, folder, extra=()):
    db = os.path.join(folder, "events.db")
    cmd = [axio, "serve", "--port", "0", "--bind", HOST, "--db", db,
           "--max-conns-per-ip", "100000", "--max-games-per-ip", "100000000",
           "--request-rate", "1000000", "--msg-rate", "100", "--max-signups-per-ip", "1000000",
           "--max-header-waits-per-ip", "100000",
           *extra]
    err = open(os.path.join(folder, "server.log"), "w")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    line = proc.stdout.readline()
    if "listening on" not in line:
        raise SystemExit(f"the server did not start: {line!r}")
    port = int(line.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
    return proc, port, os.path.join(folder, "server.log")


def call(port, method, path, body=None, session=None):
    for _ in range(100):
        c = http.client.HTTPConnection(HOST, port, timeout=120)
        h = {"Content-Type": "application/json"}
        if session:
            h["Cookie"] = f"axio_session={session}"
        c.request(method, path, json.dumps(body) if body is not None else None, h)
        r = c.getresponse()
        text = r.read()
        c.close()
        if r.status == 429:  # a password check budget: wait it out
            time.sleep(float(r.getheader("Retry-After", "1")))
            continue
        cookie = r.getheader("Set-Cookie") or ""
        return r.status, (json.loads(text) if text else None), cookie, len(text)
    raise SystemExit(f"{path}: still limited")


def sign_up(port, names):
    def one(name):
        status, body, cookie, _ = call(port, "POST", "/api/accounts", {"name": name, "password": PW})
        assert status == 201, (status, body)
        return name, cookie.split(";")[0].split("=", 1)[1]
    with ThreadPoolExecutor(8) as ex:
        return dict(ex.map(one, names))


def new_event(port, sessions, settings):
    first = next(iter(sessions.values()))
    status, body, _, _ = call(port, "POST", "/api/events", settings, first)
    assert status == 201, (status, body)
    eid = body["event"]["id"]

    def join(s):
        status, body, _, _ = call(port, "POST", f"/api/events/{eid}/join", {}, s)
        assert status == 200, (status, body)
    with ThreadPoolExecutor(8) as ex:
        list(ex.map(join, sessions.values()))
    status, body, _, _ = call(port, "POST", f"/api/events/{eid}/start", {}, first)
    assert status == 200, (status, body)
    return body["event"]


class Seat(WsConn):
    def __init__(self, game, seat, session):
        super().__init__(game, seat)
        self.session = session

    async def open_once(self, host, port, path):
        import base64
        self.reader, self.writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Cookie: axio_session={self.session}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(f"handshake refused: {head[:80]!r}")


PLY = re.compile(rb'"ply":(\d+)')
STATUS = re.compile(rb'"status":"(\w+)"')  # the game's: the first in a state


class Arena:
    def __init__(self, port, eid, sessions, args):
        self.port, self.eid, self.sessions, self.args = port, eid, sessions, args
        self.seated = set()  # (game, name)
        self.ended_at = {}  # name -> when its client saw its game end
        self.latency = []
        self.games_over = set()
        self.errors = []
        self.page = []  # (seconds, bytes) of GET /api/events/ID
        self.last = None
        self.tasks = set()

    async def poll(self):
        loop = asyncio.get_running_loop()
        while True:
            t = time.perf_counter()
            status, body, _, size = await loop.run_in_executor(
                None, call, self.port, "GET", f"/api/events/{self.eid}")
            self.page.append((time.perf_counter() - t, size))
            now = time.perf_counter()
            self.last = body
            for table in body["tables"]:
                for seat, name in enumerate(table["players"]):
                    key = (table["game"], name)
                    if key in self.seated:
                        continue
                    self.seated.add(key)
                    if name in self.ended_at:
                        self.latency.append(now - self.ended_at.pop(name))
                    task = loop.create_task(self.play(table["game"], seat, name))
                    self.tasks.add(task)  # held: asyncio keeps only weak references
                    task.add_done_callback(self.tasks.discard)
            if body["event"]["status"] != "running":
                return
            await asyncio.sleep(self.args.poll)

    async def play(self, game, seat, name):
        conn = Seat(game, seat, self.sessions[name])
        try:
            await conn.open(HOST, self.port, f"/ws/{game}?hint=1&seat={seat}")
            while True:
                opcode, payload = await conn.recv()
                if opcode == 8:
                    return
                if opcode == 1 and payload.startswith(b'{"type":"error"'):
                    self.errors.append(f"{game} {name}: {payload[:200]!r}")
                    conn.acted_ply = -1  # not taken: decided again at the next state
                if opcode != 1 or not payload.startswith(b'{"type":"state"'):
                    continue
                status = STATUS.search(payload)
                if status and status.group(1) != b"running":
                    self.ended_at[name] = time.perf_counter()
                    self.games_over.add(game)
                    return
                ply = int(PLY.search(payload).group(1))
                you = json.loads(payload[payload.rindex(b'"you":') + 6:-1])
                if you and "hint" in you and ply > conn.acted_ply:
                    conn.acted_ply = ply
                    await asyncio.sleep(random.uniform(*self.args.think))
                    await conn.send_text(json.dumps(you["hint"], separators=(",", ":")))
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
            self.errors.append(f"{game} {name}: {e!r}")
        finally:
            conn.close()


def arena(args):
    folder = tempfile.mkdtemp(prefix="axio-bench-events.")
    proc, port, log = start(args.axio, folder, [] if args.keep else ["--quiet"])
    try:
        t = time.perf_counter()
        sessions = sign_up(port, [f"A{i:04d}" for i in range(args.arena_players)])
        print(f"arena: {len(sessions)} accounts in {time.perf_counter() - t:.0f} s", flush=True)
        settings = {"name": "Bench arena", "format": "arena", "variant": "square", "seats": 2,
                    "clock": {"kind": "realtime", "base_s": 180, "increment_s": 2},
                    "starts": int(time.time() * 1000) + 3600 * 1000,
                    "duration_s": args.duration}
        cpu0, wall0 = cpu_seconds(proc.pid), time.perf_counter()
        ev = new_event(port, sessions, settings)
        a = Arena(port, ev["id"], sessions, args)
        asyncio.run(a.poll())
        cpu, wall = cpu_seconds(proc.pid) - cpu0, time.perf_counter() - wall0
        status, body, _, size = call(port, "GET", f"/api/events/{ev['id']}")
        t = time.perf_counter()
        call(port, "GET", f"/api/events/{ev['id']}")
        page_s = time.perf_counter() - t
        games = len({r["game"] for x in body["standings"] for r in x["results"] if r["game"]})
        lat = sorted(a.latency)
        out = {
            "players": args.arena_players, "duration_s": args.duration, "games": games,
            "pairings_measured": len(lat),
            "latency_p50_s": pct(lat, 50), "latency_p99_s": pct(lat, 99),
            "latency_max_s": lat[-1] if lat else None,
            "cpu_s": cpu, "wall_s": wall, "cpu_share": cpu / wall,
            "cpu_ms_per_game": 1000 * cpu / max(games, 1),
            "page_bytes_end": size, "page_s_end": page_s,
            "page_s_p50": pct(sorted(p[0] for p in a.page), 50), "errors": len(a.errors),
        }
        print("arena: " + json.dumps(out), flush=True)
        for e in a.errors[:5]:
            print("  error:", e)
        return out
    finally:
        proc.terminate()
        proc.wait(60)
        if args.keep:
            print("kept:", folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def swiss(args):
    folder = tempfile.mkdtemp(prefix="axio-bench-events.")
    proc, port, log = start(args.axio, folder, ["--absent-s", "1"])
    try:
        t = time.perf_counter()
        sessions = sign_up(port, [f"S{i:04d}" for i in range(args.swiss_players)])
        print(f"swiss: {len(sessions)} accounts in {time.perf_counter() - t:.0f} s", flush=True)
        settings = {"name": "Bench Swiss", "format": "swiss", "variant": "square",
                    "seats": args.swiss_seats,
                    "clock": {"kind": "realtime", "base_s": 180, "increment_s": 2},
                    "starts": int(time.time() * 1000) + 3600 * 1000, "rounds": 2}
        ev = new_event(port, sessions, settings)
        lines = []
        deadline = time.time() + 900
        while len(lines) < 2 and time.time() < deadline:
            time.sleep(1)
            with open(log) as f:
                lines = [x.strip() for x in f if "paired:" in x]
        out = {"players": args.swiss_players, "seats": args.swiss_seats, "rounds": []}
        for x in lines:
            m = re.search(r"round (\d+) of (\d+) players paired: (\d+) tables in ([\d.]+) ms "
                          r"\(pairing ([\d.]+) ms, games ([\d.]+) ms\)", x)
            if m:
                out["rounds"].append({"round": int(m[1]), "tables": int(m[3]),
                                      "total_ms": float(m[4]), "pairing_ms": float(m[5]),
                                      "games_ms": float(m[6])})
        print("swiss: " + json.dumps(out), flush=True)
        return out
    finally:
        proc.terminate()
        proc.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--axio", required=True)
    ap.add_argument("--arena-players", type=int, default=500)
    ap.add_argument("--duration", type=int, default=300, help="the arena's, seconds")
    ap.add_argument("--think", type=float, nargs=2, default=[0.5, 1.5], metavar=("MIN", "MAX"))
    ap.add_argument("--poll", type=float, default=0.25, help="seconds between two asks of the page")
    ap.add_argument("--swiss-players", type=int, default=1000)
    ap.add_argument("--swiss-seats", type=int, default=3)
    ap.add_argument("--skip-arena", action="store_true")
    ap.add_argument("--skip-swiss", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="the arena's server logs, and its folder kept")
    ap.add_argument("--json")
    args = ap.parse_args()
    random.seed(args.seed)
    results = {}
    if not args.skip_swiss:
        results["swiss"] = swiss(args)
    if not args.skip_arena:
        results["arena"] = arena(args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
