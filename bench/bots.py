#!/usr/bin/env python3
"""bots.py - many bots playing each other at once on one `axio serve` through the Bot API
(docs/bot-api.md): how many decisions a second one instance carries, its CPU per decision,
and how long a bot's decision takes to reach its opponent.

Usage:
    python3 bench/bots.py --axio build/axio [--games 200] [--duration 600] [--seed 1]
                          [--engines 4] [--json FILE]

It starts its own server on a free port (SQLite in a temporary folder; the per-address
limits raised with the server's flags, since every bot comes from 127.0.0.1) and stops it
at the end. Then
  1. signs up 2 x --games accounts, gives each a personal token (every scope) and makes it
     a bot: one bot account per seat, so that no bot's own limit binds (a bot plays at
     most 50 games at once and 100 games a day against bots; a token's 60 requests in
     10 s are then one game's decisions, and any 429 is counted and waited out);
  2. in each pair, the first bot challenges the second (POST /api/challenges: square,
     casual, no clock) and the second accepts: --games games;
  3. opens every bot's game stream (NDJSON over HTTP/1.1, chunked) and plays every game
     to its end: when a `state` line says the bot is to move, its `position` goes to
     `axio engine --player random` over axio-engine/1 (a pool of --engines processes
     shared by all bots, seeded from --seed) and the decision is sent with
     POST /api/bot/game/{id}/move {"move": decision} on the bot's own keep-alive
     connection (a new one once it has been idle for 4 s: the server closes one idle
     for 5 s, and a request crossing that close is lost);
  4. stops when every game is over (or after --duration seconds: then no new decision).

Reported: decisions per second over the play (accepted decisions / seconds from the
first stream opened to the last game over); the server's CPU seconds (/proc/PID/stat,
user + system, over the play) per decision; the latency from a bot's POST .../move being
written to the opponent's stream showing a state with a later ply, p50/p99/max over the
run and per --window seconds (by send time); the mover's own round trip (POST to its
200); errors (non-200 answers, streams ended before their game, 429s waited out); games
finished.

One asyncio loop on one thread: 2 x --games streams and as many keep-alive connections.
A stream's lines are parsed as JSON only when the bot is to move (else a regular
expression reads the ply), which keeps 400 streams within one core. Latencies are
measured on that loop, so they include the client's own delays: an upper bound of the
server's. The engines are separate processes; their time is part of the decision rate
but not of the latency (the clock starts when the decision is written).
"""
import argparse
import asyncio
import json
import os
import random
import re
import resource
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import cpu_seconds, pct, print_windows, rss_kib, start_server, windows  # noqa: E402

PLY = re.compile(rb'"ply":(\d+)')
TO_MOVE = re.compile(rb'"to_move":(\d+|null)')
STATUS = re.compile(rb'"status":"(\w+)"')
PASSWORD = "correct horse battery"


class Stats:
    def __init__(self):
        self.decisions = 0  # accepted (200)
        self.sent = 0
        self.latency = []  # (send time, seconds to the opponent's stream)
        self.round_trip = []  # seconds, POST to its 200 at the mover
        self.engine = []  # seconds, go to decision
        self.errors = []
        self.retried_429 = 0
        self.lines = 0
        self.stopping = False
        self.play_429 = 0  # of retried_429, while playing
        self.not_over = 0  # games the server does not hold as over at the end
        self.lost = 0  # decisions acknowledged, then missing on the server


# --- a minimal HTTP/1.1 client on asyncio streams ---

class Http:
    """One keep-alive connection; request() answers (status, headers, body bytes)."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None
        self.reconnects = 0  # requests sent again: the kept-alive connection had closed
        self.used = 0.0  # when a request last went out on it
        self.fresh = True  # the last request went out on a new connection

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    def close(self):
        if self.writer:
            self.writer.close()
            self.writer = None

    async def send(self, method, path, body=None, headers=None):
        # the server (libwebsockets' default keepalive_timeout) closes a kept-alive
        # connection idle for 5 s: one idle for 4 s is not used again
        if self.writer is None or self.reader.at_eof() or time.monotonic() - self.used > 4:
            self.close()
            await self.open()
            self.fresh = True
        else:
            self.fresh = False
        self.used = time.monotonic()
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)

    async def head(self):
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            headers.setdefault(k.strip().lower(), []).append(v.strip())
        return status, headers

    async def chunks(self):
        """A chunked body's chunks as they come."""
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()
                return
            data = await self.reader.readexactly(size)
            await self.reader.readexactly(2)
            yield data

    async def request(self, method, path, body=None, headers=None):
        await self.send(method, path, body, headers)
        try:
            status, hdrs = await self.head()
        except (ConnectionError, asyncio.IncompleteReadError):
            if self.fresh:
                raise
            # a kept-alive connection the server closed as the request went out:
            # no answer came, so it was not taken (a decision taken twice would be
            # answered 409 and counted an error)
            self.close()
            self.reconnects += 1
            await self.send(method, path, body, headers)
            status, hdrs = await self.head()
        if "chunked" in ",".join(hdrs.get("transfer-encoding", [])):
            data = b"".join([c async for c in self.chunks()])
        else:
            data = await self.reader.readexactly(int(hdrs.get("content-length", ["0"])[0]))
        if "close" in ",".join(hdrs.get("connection", [])).lower():
            self.close()
        return status, hdrs, data


async def api(conn, method, path, body=None, token=None, session=None, stats=None):
    """A request, waiting out 429s (counted); (status, JSON or None, headers)."""
    headers = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if session:
        headers["Cookie"] = f"axio_session={session}"
    for _ in range(30):
        status, hdrs, data = await conn.request(method, path, body, headers)
        if status != 429:
            break
        if stats:
            stats.retried_429 += 1
        await asyncio.sleep(float(hdrs.get("retry-after", ["1"])[0]))
    try:
        value = json.loads(data) if data else None
    except ValueError:
        value = data.decode(errors="replace")
    return status, value, hdrs


# --- the engines ---

class Engines:
    """A pool of `axio engine` processes; decide(position) answers a decision."""

    def __init__(self, axio, n, seed):
        self.axio, self.n, self.seed = axio, n, seed
        self.queue = asyncio.Queue()
        self.procs, self.tasks = [], []

    async def start(self):
        for i in range(self.n):
            p = await asyncio.create_subprocess_exec(
                self.axio, "engine", "--player", "random", "--seed", str(self.seed * 100 + i + 1),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 22)
            p.stdin.write(b'{"type":"hello","protocol":"axio-engine/1"}\n')
            line = await p.stdout.readline()
            if json.loads(line).get("type") != "ready":
                raise SystemExit(f"axio engine did not answer hello: {line!r}")
            self.procs.append(p)
            self.tasks.append(asyncio.create_task(self.serve(p)))

    async def serve(self, p):
        while True:
            position, fut = await self.queue.get()
            p.stdin.write(json.dumps({"type": "go", "position": position}).encode() + b"\n")
            await p.stdin.drain()
            answer = json.loads(await p.stdout.readline())
            if answer.get("type") == "decision":
                fut.set_result(answer["move"])
            else:
                fut.set_exception(RuntimeError(f"the engine answered {answer}"))

    async def decide(self, position):
        fut = asyncio.get_running_loop().create_future()
        await self.queue.put((position, fut))
        return await fut

    async def stop(self):
        for t in self.tasks:
            t.cancel()
        for p in self.procs:
            p.stdin.close()
            try:
                await asyncio.wait_for(p.wait(), 10)
            except asyncio.TimeoutError:
                p.kill()


# --- setting up: accounts, tokens, bots, games ---

async def make_bot(host, port, name, stats):
    conn = Http(host, port)
    status, body, hdrs = await api(conn, "POST", "/api/accounts",
                                   {"name": name, "password": PASSWORD}, stats=stats)
    if status != 201:
        raise SystemExit(f"sign-up of {name}: {status} {body}")
    cookie = next(c for c in hdrs.get("set-cookie", []) if c.startswith("axio_session="))
    session = cookie.split(";")[0].split("=", 1)[1]
    status, body, _ = await api(conn, "POST", "/api/me/tokens",
                                {"label": "bench", "scopes": ["bot:play", "challenge:write",
                                                              "game:read"]}, session=session)
    if status != 201:
        raise SystemExit(f"a token for {name}: {status} {body}")
    token = body["secret"]
    status, body, _ = await api(conn, "POST", "/api/bot/account/upgrade",
                                {"about": "bench/bots.py; axio engine --player random"},
                                token=token, stats=stats)
    if status != 200:
        raise SystemExit(f"upgrading {name}: {status} {body}")
    return Bot(name, token, conn)


class Bot:
    def __init__(self, name, token, conn):
        self.name, self.token, self.conn = name, token, conn
        self.game = None  # Game
        self.seat = None
        self.acted = -1  # the last ply this bot decided at
        self.lock = asyncio.Lock()  # one request at a time on its connection


class Game:
    def __init__(self, gid):
        self.id = gid
        self.bots = [None, None]  # by seat
        self.pending = [[], []]  # per sender seat: (ply before, send time) not yet seen
        self.over = False
        self.ply = 0
        self.acked = 0  # plies the server acknowledged (the last 200's ply + 1)


async def make_games(host, port, args, stats):
    sem = asyncio.Semaphore(8)  # the server hashes passwords on its own workers

    async def one(name):
        async with sem:
            return await make_bot(host, port, name, stats)

    bots = await asyncio.gather(*[one(f"Bench{i // 2:04d}{'ab'[i % 2]}")
                                  for i in range(2 * args.games)])
    games = []

    async def pair(a, b):
        async with sem:
            status, body, _ = await api(a.conn, "POST", "/api/challenges",
                                        {"to": b.name, "variant": "square"}, token=a.token,
                                        stats=stats)
            if status != 201:
                raise SystemExit(f"{a.name} challenging {b.name}: {status} {body}")
            cid = body["challenge"]["id"]
            status, body, _ = await api(b.conn, "POST", f"/api/challenges/{cid}/accept",
                                        token=b.token, stats=stats)
            if status != 200:
                raise SystemExit(f"{b.name} accepting {cid}: {status} {body}")
            g = Game(body["game"])
            b.seat, a.seat = body["seat"], 1 - body["seat"]
            for bot in (a, b):
                bot.game = g
                g.bots[bot.seat] = bot
            games.append(g)

    await asyncio.gather(*[pair(bots[i], bots[i + 1]) for i in range(0, len(bots), 2)])
    return bots, games


# --- playing ---

async def play_bot(host, port, bot, engines, stats, opened):
    """The bot's game stream: read every line, decide when to move, until the game ends."""
    g = bot.game
    conn = Http(host, port)
    await conn.send("GET", f"/api/bot/game/stream/{g.id}",
                    headers={"Authorization": f"Bearer {bot.token}"})
    status, _ = await conn.head()
    opened.release()
    if status != 200:
        stats.errors.append(f"{bot.name}: the game stream answered {status}")
        conn.close()
        return
    other = 1 - bot.seat
    buf = b""
    try:
        async for chunk in conn.chunks():
            now = time.perf_counter()
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if not line.startswith(b'{"type":"state"'):
                    continue
                stats.lines += 1
                ply = int(PLY.search(line).group(1))
                g.ply = max(g.ply, ply)
                seen = g.pending[other]
                while seen and seen[0][0] < ply:  # the opponent's decisions this state shows
                    stats.latency.append((seen[0][1], now - seen[0][1]))
                    seen.pop(0)
                status_m = STATUS.search(line)
                if status_m and status_m.group(1) != b"running":
                    g.over = True
                    continue
                to_move = TO_MOVE.search(line).group(1)
                if to_move == str(bot.seat).encode() and ply > bot.acted and not stats.stopping:
                    bot.acted = ply
                    asyncio.create_task(decide(bot, json.loads(line), ply, engines, stats))
    except (OSError, asyncio.IncompleteReadError, ValueError) as e:
        stats.errors.append(f"{bot.name}: the game stream failed: {e!r}")
    finally:
        conn.close()
    if not g.over and not stats.stopping:
        stats.errors.append(f"{bot.name}: the game stream ended before game {g.id} did")


async def decide(bot, state, ply, engines, stats):
    g = bot.game
    t0 = time.perf_counter()
    try:
        move = await engines.decide(state["position"])
    except RuntimeError as e:
        stats.errors.append(f"{bot.name} at ply {ply}: {e}")
        return
    stats.engine.append(time.perf_counter() - t0)
    try:
        async with bot.lock:  # its previous request answered: the clock starts at the write
            t1 = time.perf_counter()
            g.pending[bot.seat].append((ply, t1))
            stats.sent += 1
            status, body, _ = await api(bot.conn, "POST", f"/api/bot/game/{g.id}/move",
                                        {"move": move}, token=bot.token, stats=stats)
    except (OSError, asyncio.IncompleteReadError, ConnectionError) as e:
        stats.errors.append(f"{bot.name} at ply {ply}: the move's request failed: {e!r}")
        return
    if status == 200:
        stats.decisions += 1
        g.acked = max(g.acked, ply + 1)
        stats.round_trip.append(time.perf_counter() - t1)
    else:
        stats.errors.append(f"{bot.name} at ply {ply}: {status} {json.dumps(body)[:200]}")
        g.pending[bot.seat] = [p for p in g.pending[bot.seat] if p[0] != ply]


async def run(host, port, args, server_pid):
    stats = Stats()
    t0 = time.perf_counter()
    engines = Engines(args.axio, args.engines, args.seed)
    await engines.start()
    bots, games = await make_games(host, port, args, stats)
    t_games = time.perf_counter()
    print(f"{len(bots)} bot accounts, {len(games)} games in {t_games - t0:.1f} s "
          f"(one account per seat: no bot's own limit binds)", flush=True)
    setup_429 = stats.retried_429
    cpu0 = cpu_seconds(server_pid)
    sched0 = sched(server_pid)
    t_play = time.perf_counter()
    opened = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(play_bot(host, port, b, engines, stats, opened)) for b in bots]
    for _ in bots:
        await opened.acquire()
    t_open = time.perf_counter()
    print(f"{len(bots)} game streams open in {t_open - t_play:.1f} s", flush=True)
    done, rest = await asyncio.wait(tasks, timeout=args.duration)
    if rest:
        stats.stopping = True
        _, rest = await asyncio.wait(rest, timeout=10)  # decisions in flight are answered
        for t in rest:
            t.cancel()
    t_end = time.perf_counter()
    cpu = cpu_seconds(server_pid) - cpu0
    stats.sched = [b - a for a, b in zip(sched0, sched(server_pid))]
    stats.reconnects = sum(b.conn.reconnects for b in bots)
    stats.play_429 = stats.retried_429 - setup_429
    # what the server holds: every game over, no acknowledged decision missing
    for g in games:
        status, body, _ = await api(bots[0].conn, "GET", f"/api/games/{g.id}")
        if status != 200 or body.get("status") != "over":
            stats.not_over += 1
        if status != 200 or body.get("ply", 0) < g.acked:
            stats.lost += g.acked - (body.get("ply", 0) if status == 200 else 0)
    for b in bots:
        b.conn.close()
    await engines.stop()
    return stats, games, t_end - t_play, cpu, t_play


def sched(pid):
    """Seconds the server's threads have run on a CPU and waited for one (schedstat), and
    its block I/O delay (delayacct, 0 when the kernel does not account it)."""
    run = wait = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                r, w, _ = f.read().split()
        except (OSError, ValueError):
            continue
        run += int(r)
        wait += int(w)
    with open(f"/proc/{pid}/stat") as f:
        blkio = int(f.read().rsplit(")", 1)[1].split()[39])
    return run / 1e9, wait / 1e9, blkio / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--axio", required=True, help="the axio binary whose server is measured")
    ap.add_argument("--games", type=int, default=200, help="games at once (2 bots each)")
    ap.add_argument("--duration", type=float, default=600, help="stop after this many seconds")
    ap.add_argument("--seed", type=int, default=1, help="for the engines' random choices")
    ap.add_argument("--engines", type=int, default=4, help="axio engine processes (default 4)")
    ap.add_argument("--window", type=float, default=10,
                    help="latencies are also reported per this many seconds (default 10)")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    random.seed(args.seed)
    load_before = os.getloadavg()
    tmp = tempfile.TemporaryDirectory()
    proc, port = start_server(args.axio, os.path.join(tmp.name, "bots.db"),
                              ["--max-signups-per-ip", "100000000"])
    host = "127.0.0.1"
    try:
        stats, games, elapsed, cpu, t_play = asyncio.run(run(host, port, args, proc.pid))
        rss_peak = rss_kib(proc.pid)[1]
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(60)
        if code != 0:
            print(f"the server exited with {code}", file=sys.stderr)
        tmp.cleanup()
    finished = sum(1 for g in games if g.over)
    lat = [v for _, v in stats.latency]
    ms = lambda v: round(1000 * v, 1)  # noqa: E731
    rows = windows(stats.latency, t_play, args.window)
    result = {
        "games": len(games), "games_finished": finished, "bots": 2 * len(games),
        "engines": args.engines, "seed": args.seed, "seconds": round(elapsed, 2),
        "decisions": stats.decisions,
        "decisions_per_second": round(stats.decisions / elapsed, 1) if elapsed else 0,
        "server_cpu_seconds": round(cpu, 2),
        "server_cpu_ms_per_decision": round(1000 * cpu / max(1, stats.decisions), 3),
        "server_rss_peak_kib": rss_peak,
        "to_opponent_p50_ms": ms(pct(lat, 50)), "to_opponent_p99_ms": ms(pct(lat, 99)),
        "to_opponent_max_ms": ms(max(lat, default=float("nan"))), "to_opponent_n": len(lat),
        "round_trip_p50_ms": ms(pct(stats.round_trip, 50)),
        "round_trip_p99_ms": ms(pct(stats.round_trip, 99)),
        "engine_p50_ms": ms(pct(stats.engine, 50)), "engine_p99_ms": ms(pct(stats.engine, 99)),
        "errors": len(stats.errors), "waited_out_429": stats.retried_429,
        "waited_out_429_playing": stats.play_429, "lost_decisions": stats.lost,
        "games_not_over_on_server": stats.not_over,
        "windows": [dict(zip(("from_s", "n", "p50_ms", "p99_ms", "max_ms"), r)) for r in rows],
        "server_cpu_wait_seconds": round(stats.sched[1], 2),
        "server_blkio_delay_seconds": round(stats.sched[2], 2),
        "requests_sent_again": stats.reconnects,
        "load_average_before": round(load_before[0], 2),
        "load_average_after": round(os.getloadavg()[0], 2),
    }
    print(f"{finished}/{len(games)} games finished, {stats.decisions} decisions in {elapsed:.1f} s: "
          f"{result['decisions_per_second']} decisions/s")
    print(f"server CPU: {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core), "
          f"{result['server_cpu_ms_per_decision']:.3f} ms per decision; peak resident "
          f"{rss_peak / 1024:.1f} MiB")
    print(f"server threads waiting for a CPU while playing: {stats.sched[1]:.1f} s (running "
          f"{stats.sched[0]:.1f} s); block I/O delay {stats.sched[2]:.1f} s")
    print(f"a decision's POST to the opponent's stream: p50 {result['to_opponent_p50_ms']} ms, "
          f"p99 {result['to_opponent_p99_ms']} ms, max {result['to_opponent_max_ms']} ms "
          f"({len(lat)} samples)")
    print(f"the POST's own answer at the mover:         p50 {result['round_trip_p50_ms']} ms, "
          f"p99 {result['round_trip_p99_ms']} ms")
    print(f"engine (random, {args.engines} processes) per decision, queueing included: "
          f"p50 {result['engine_p50_ms']} ms, p99 {result['engine_p99_ms']} ms")
    print_windows("a decision's POST to the opponent's stream", rows)
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"this client's CPU: {own.ru_utime + own.ru_stime:.1f} s (engines and server after they "
          f"ended: {kids.ru_utime + kids.ru_stime:.1f} s); machine load average "
          f"{load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")
    print(f"requests sent again on a new connection (the kept-alive one had closed unanswered): "
          f"{stats.reconnects}")
    print(f"errors: {len(stats.errors)}; 429s waited out: {stats.retried_429} "
          f"({stats.play_429} while playing); lost decisions: {stats.lost}; games the server "
          f"does not hold as over: {stats.not_over}")
    for e in stats.errors[:10]:
        print("  " + e)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    ok = not stats.errors and finished == len(games) and not stats.lost and not stats.not_over
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
