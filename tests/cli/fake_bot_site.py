#!/usr/bin/env python3
"""A fake site of the Bot API (docs/bot-api.md), for the tests of `axio bot`.

It serves what a bridge uses, as the contract says it: bearer tokens, the event
stream (pending challenges and running games first, then events, an empty line
every `keepalive_s`; one per token, a newer one ends the older), the game stream (a `state` from the bot's seat first with
the engine protocol's `position` of that seat, `chat_history`, then `event` and
`state` lines per decision; it ends after the game), decisions, resigning,
accepting and declining challenges, 401/403/404/409 and 429 with Retry-After.

The games are real: each is held by tests/cli/bot_referee.c (the engine), which
checks every decision and writes the positions and the record. Seats that are
not bots (the challenger, extra seats) are played at once by `greedy`. Clocks
run for bot seats only: realtime (base, increment) and daily, and a bot whose
clock runs out leaves with `timeout`.

Decisions are taken in an engine's form, `{"move": {"ev":"place",...}}`, as the
site takes them; the WebSocket's form, which the site takes too, is refused
(400) here: the bridge never sends it. An illegal decision is
`400 illegal_move` with the engine's reason. Unlike the site (so far), the fake
also makes games of three and four seats from a challenge to several bots.

Tests drive it from Python (FakeSite) and inject failures: `drop_streams`
(connections cut mid-game), `restart` (the listening socket closed and opened
again after a pause), `fail_next` (the next matching requests answered with a
status, e.g. 429 and its Retry-After), `lose_next_answers` (the next decisions
taken, their connections then cut unanswered, as a server killed after its
commit does; logged with status 0). `requests` logs every request.

As the site does, a decision that names its `ply` is taken only while that
decision is due (else 409 not_your_turn): one sent again after a lost answer
is not taken twice.

Alone: fake_bot_site.py --token-file F [--port P] [--challenge hex ...] serves
a bot account whose token is in F, and sends it the challenges named.
"""
import argparse
import http.server
import itertools
import json
import os
import queue
import random
import select
import socket
import subprocess
import sys
import threading
import time

DROP = object()  # cut a stream's connection, as a lost network does
END = object()  # end a stream properly (its last chunk)


def now_ms():
    return int(time.time() * 1000)


class Referee:
    """One game in tests/cli/bot_referee.c."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)

    def ask(self, **req):
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if "error" in answer:
            raise RuntimeError("referee: %s for %s" % (answer["error"], req))
        return answer

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(timeout=5)


class Game:
    def __init__(self, site, gid, terms, seats, seed):
        self.site, self.id, self.terms, self.seats = site, gid, terms, seats
        self.referee = Referee(site.referee_path)
        self.referee.ask(cmd="new", variant=terms["variant"], players=terms["players"],
                         mode=terms["mode"], seed=str(seed), names=[s["name"] for s in seats])
        self.status = "running"
        self.seq = 0
        self.streams = []  # (seat, queue) of the open game streams
        clock = terms.get("clock")
        self.clocks = None
        if clock:
            start = clock["base_s"] if clock["kind"] == "realtime" else clock["per_move_s"]
            self.clocks = [start * 1000.0] * len(seats)
        self.turn_started = time.monotonic()
        self.decisions = []  # (seat, ply, ms left on the clock when decided) of bots
        self.record = None
        self.bot_seats = [i for i, s in enumerate(seats) if s["kind"] == "bot"]

    # -- what a bot sees --
    def status_now(self):
        return self.referee.ask(cmd="status")

    def clocks_now(self, st):
        if self.clocks is None:
            return None
        out = list(self.clocks)
        if self.status == "running" and self.charged(st["to_move"]):
            out[st["to_move"]] -= (time.monotonic() - self.turn_started) * 1000.0
        return [max(0, int(ms)) for ms in out]

    def charged(self, seat):
        return self.clocks is not None and self.seats[seat]["kind"] == "bot"

    def state(self, seat):
        st = self.status_now()
        pos = self.referee.ask(cmd="position", seat=seat)["position"]
        self.seq += 1
        left = st["left"]
        game = {
            "id": self.id, "variant": self.terms["variant"], "players": self.terms["players"],
            "mode": self.terms["mode"], "rules": "axio-rules/1", "status": self.status,
            "phase": st["phase"] if self.status == "running" else "over",
            "to_move": st["to_move"] if self.status == "running" else None,
            "bonus": pos["bonus"], "ply": st["ply"],
            "seats": [{"name": s["name"], "kind": "human", "bot": s["kind"] == "bot",
                       "connected": True, "rack_size": (len(p["rack"]) if isinstance(p["rack"], list)
                                                        else p["rack"]),
                       "score": p["score"], "left": left[i]}
                      for i, (s, p) in enumerate(zip(self.seats, pos["seats"]))],
            "bag": pos["bag"], "clock": self.terms.get("clock"), "clocks": self.clocks_now(st),
            "rated": self.terms["rated"], "end": st["end"],
        }
        for key in ("area", "fields", "cells", "pyramids", "dead", "frontier"):
            if key in pos:
                game[key] = pos[key]
        if "display" in pos:
            game["tiles"] = pos["display"]
        you = {"seat": seat, "left": True} if left[seat] else \
            {"seat": seat, "rack": pos["seats"][seat]["rack"]}
        return {"type": "state", "seq": self.seq, "game": game, "you": you, "position": pos}

    def game_json(self, seat):
        return {"id": self.id, "seat": seat, "variant": self.terms["variant"],
                "players": self.terms["players"], "mode": self.terms["mode"],
                "rated": self.terms["rated"], "clock": self.terms.get("clock"),
                "status": self.status}

    # -- play --
    def broadcast(self, views):
        """Each bot's stream: its events, then a fresh state."""
        viewers = [seat for seat, _ in self.streams]
        for (seat, q), events in zip(self.streams, views):
            for ev in events:
                self.seq += 1
                q.put({"type": "event", "seq": self.seq, "event": ev})
            q.put(self.state(seat))
        return viewers

    def viewers(self):
        return [seat for seat, _ in self.streams]

    def after_decision(self, seat, answer):
        if seat is not None and self.clocks is not None and self.charged(seat):
            clock = self.terms["clock"]
            self.clocks[seat] -= (time.monotonic() - self.turn_started) * 1000.0
            if clock["kind"] == "realtime":
                self.clocks[seat] += clock["increment_s"] * 1000.0
            else:
                self.clocks[seat] = clock["per_move_s"] * 1000.0
        self.turn_started = time.monotonic()
        st = self.status_now()
        if st["phase"] == "over":
            self.status = "over"
        self.broadcast(answer["views"])
        if self.status == "over":
            self.finish()

    def play_others(self):
        """Seats that are not bots decide at once (greedy)."""
        while self.status == "running":
            st = self.status_now()
            if self.seats[st["to_move"]]["kind"] == "bot":
                return
            answer = self.referee.ask(cmd="ai", viewers=self.viewers())
            self.after_decision(None, answer)

    def leave(self, seat, why):
        answer = self.referee.ask(cmd="leave", seat=seat, why=why, viewers=self.viewers())
        self.after_decision(None, answer)
        self.play_others()

    def finish(self):
        self.record = self.referee.ask(cmd="record")["record"]
        self.referee.close()
        for _, q in self.streams:
            q.put(END)
        for seat in self.bot_seats:
            self.site.event(self.seats[seat]["name"],
                            {"type": "gameFinish", "game": self.game_json(seat)})
        self.site.finished.append(self.id)

    def check_clock(self):
        if self.status != "running" or self.clocks is None:
            return
        st = self.status_now()
        seat = st["to_move"]
        if self.charged(seat) and self.clocks_now(st)[seat] <= 0:
            self.clocks[seat] = 0
            self.site.timeouts.append((self.id, seat))
            self.leave(seat, "timeout")


class FakeSite:
    def __init__(self, referee_path, keepalive_s=6.0, seed=1):
        self.referee_path = referee_path
        self.keepalive_s = keepalive_s
        self.lock = threading.RLock()
        self.rng = random.Random(seed)
        self.accounts = {}  # name -> {"token", "bot"}
        self.challenges = {}  # id -> challenge (the API's C, plus "accepted")
        self.games = {}
        self.event_streams = {}  # name -> list of queues
        self.requests = []  # {"t","method","path","status","body"}
        self.failures = []  # [prefix, status, body, headers, count]
        self.answers_to_lose = 0  # decisions taken whose answer is lost
        self.finished, self.timeouts, self.restarts = [], [], []
        self.ids = itertools.count(1)
        self.after_move = None  # called (game, seat, ply) after a bot's decision
        self.server = None
        self.port = 0
        self.stopping = False
        self.down = False
        threading.Thread(target=self.tick, daemon=True).start()

    # -- accounts and challenges (what people do on the site) --
    def add_account(self, name, token, bot=True):
        self.accounts[name] = {"token": token, "bot": bot}

    def event(self, name, msg):
        for q in self.event_streams.get(name, []):
            q.put(msg)

    def challenge(self, to, variant="hex", players=2, mode="standard", clock=None,
                  rated=False, frm="Ann"):
        with self.lock:
            cid = "c%d" % next(self.ids)
            c = {"id": cid, "from": frm, "to": to, "variant": variant, "players": players,
                 "mode": mode, "rated": rated, "clock": clock, "status": "open", "game": None,
                 "reason": None, "created": now_ms(), "expires": now_ms() + 600000,
                 "accepted": []}
            self.challenges[cid] = c
            for name in self.targets(c):
                self.event(name, {"type": "challenge", "challenge": self.public(c)})
            return cid

    def cancel(self, cid):
        with self.lock:
            c = self.challenges[cid]
            c["status"] = "cancelled"
            for name in self.targets(c):
                self.event(name, {"type": "challengeCanceled", "challenge": self.public(c)})

    @staticmethod
    def targets(c):
        return c["to"] if isinstance(c["to"], list) else [c["to"]]

    @staticmethod
    def public(c):
        return {k: v for k, v in c.items() if k != "accepted"}

    def start_game(self, c):
        names = [c["from"]] + self.targets(c)
        seats = [{"name": c["from"], "kind": "ai"}] + \
                [{"name": n, "kind": "bot"} for n in self.targets(c)]
        while len(seats) < c["players"]:
            seats.append({"name": "greedy%d" % len(seats), "kind": "ai"})
        self.rng.shuffle(seats)
        gid = "g%d" % next(self.ids)
        g = Game(self, gid, c, seats, self.rng.randrange(1 << 62))
        self.games[gid] = g
        c["status"], c["game"] = "accepted", gid
        g.play_others()
        for seat in g.bot_seats:
            self.event(seats[seat]["name"], {"type": "gameStart", "game": g.game_json(seat)})
        del names
        return g

    # -- failures to inject --
    def fail_next(self, prefix, status, count=1, code="rate_limited", retry_after=None,
                  reason=None):
        body = {"error": {"code": code, "message": "injected by the test"}}
        if reason:
            body["error"]["reason"] = reason
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        with self.lock:
            self.failures.append([prefix, status, body, headers, count])

    def lose_next_answers(self, count=1):
        with self.lock:
            self.answers_to_lose += count

    def drop_streams(self, events=True, games=True):
        with self.lock:
            if events:
                for qs in self.event_streams.values():
                    for q in qs:
                        q.put(DROP)
            if games:
                for g in self.games.values():
                    for _, q in g.streams:
                        q.put(DROP)

    def restart(self, down_s):
        """Every connection cut, then no connection at all for down_s."""
        self.down = True  # a request that slips in meanwhile is cut too
        self.server.shutdown()
        self.server.server_close()
        self.drop_streams()
        time.sleep(down_s)
        self.restarts.append(time.monotonic())
        self.down = False
        self.listen(self.port)

    # -- the server --
    def listen(self, port=0):
        site = self

        class Server(http.server.ThreadingHTTPServer):
            allow_reuse_address = True
            daemon_threads = True
            request_queue_size = 128

        class Handler(BotHandler):
            pass

        Handler.site = site
        self.server = Server(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self.port

    def url(self):
        return "http://127.0.0.1:%d" % self.port

    def stop(self):
        self.stopping = True
        self.drop_streams()
        if self.server:
            self.server.shutdown()
            self.server.server_close()
        for g in self.games.values():
            if g.status == "running":
                g.referee.close()

    def tick(self):
        while not self.stopping:
            time.sleep(0.02)
            with self.lock:
                for g in list(self.games.values()):
                    g.check_clock()

    def log(self, method, path, status, body):
        self.requests.append({"t": time.monotonic(), "method": method, "path": path,
                              "status": status, "body": body})


class BotHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    site = None

    def log_message(self, fmt, *args):
        pass

    # -- answers --
    def answer(self, status, body=None, headers=None, method="POST", req=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.site.log(method, self.path, status, req)

    def fail(self, status, code, message, reason=None, method="POST", req=None, headers=None):
        body = {"error": {"code": code, "message": message}}
        if reason:
            body["error"]["reason"] = reason
        self.answer(status, body, headers, method, req)

    def account(self, method, req=None):
        auth = self.headers.get("Authorization", "")
        for name, a in self.site.accounts.items():
            if auth == "Bearer " + a["token"]:
                if not a["bot"]:
                    self.fail(403, "not_a_bot", "this account is not a bot", method=method,
                              req=req)
                    return None
                return name
        self.fail(401, "unauthorized", "no valid token", method=method, req=req)
        return None

    def injected(self, method, req):
        site = self.site
        with site.lock:
            for f in site.failures:
                if f[4] > 0 and self.path.startswith(f[0]):
                    f[4] -= 1
                    self.fail(f[1], f[2]["error"]["code"], f[2]["error"]["message"],
                              f[2]["error"].get("reason"), method, req, f[3])
                    return True
        return False

    # -- streams --
    def stream(self, q, first, on_close):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(data):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        try:
            for msg in first:
                chunk(json.dumps(msg).encode() + b"\n")
            quiet_since = time.monotonic()
            while not self.site.stopping:
                try:
                    msg = q.get(timeout=0.1)
                except queue.Empty:
                    if self.client_gone():
                        break
                    if time.monotonic() - quiet_since >= self.site.keepalive_s:
                        chunk(b"\n")
                        quiet_since = time.monotonic()
                    continue
                quiet_since = time.monotonic()
                if msg is DROP:
                    self.connection.shutdown(socket.SHUT_RDWR)
                    break
                if msg is END:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    break
                chunk(json.dumps(msg).encode() + b"\n")
        except OSError:
            pass
        finally:
            with self.site.lock:
                on_close()
            self.close_connection = True

    def client_gone(self):
        """The client closed its connection (a stream's client sends nothing)."""
        readable, _, _ = select.select([self.connection], [], [], 0)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def cut_if_down(self):
        if self.site.down:
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        return self.site.down

    def do_GET(self):
        site = self.site
        if self.cut_if_down() or self.injected("GET", None):
            return
        name = self.account("GET")
        if not name:
            return
        if self.path == "/api/bot/stream/event":
            with site.lock:
                if self.cut_if_down():
                    return
                for older in site.event_streams.get(name, []):
                    older.put(END)  # a token has one event stream: the newer keeps it
                q = queue.Queue()
                site.event_streams.setdefault(name, []).append(q)
                first = [{"type": "challenge", "challenge": site.public(c)}
                         for c in site.challenges.values()
                         if c["status"] == "open" and name in site.targets(c)
                         and name not in c["accepted"]]
                for g in site.games.values():
                    if g.status == "running":
                        for seat in g.bot_seats:
                            if g.seats[seat]["name"] == name:
                                first.append({"type": "gameStart", "game": g.game_json(seat)})
                site.log("GET", self.path, 200, None)
            return self.stream(q, first, lambda: site.event_streams[name].remove(q))
        prefix = "/api/bot/game/stream/"
        if self.path.startswith(prefix):
            gid = self.path[len(prefix):]
            with site.lock:
                if self.cut_if_down():
                    return
                g = site.games.get(gid)
                if not g:
                    return self.fail(404, "not_found", "no such game", method="GET")
                seat = next((s for s in g.bot_seats if g.seats[s]["name"] == name), None)
                if seat is None:
                    return self.fail(403, "forbidden", "not a seat of yours", method="GET")
                first = [g.state(seat), {"type": "chat_history", "messages": []}]
                q = queue.Queue()
                if g.status == "running":
                    g.streams.append((seat, q))
                else:
                    q.put(END)
                site.log("GET", self.path, 200, None)
            return self.stream(q, first, lambda: g.streams.remove((seat, q))
                               if (seat, q) in g.streams else None)
        self.fail(404, "not_found", "no such page", method="GET")

    def do_POST(self):
        site = self.site
        if self.cut_if_down():
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        req = None
        if raw:
            if self.headers.get("Content-Type", "").split(";")[0] != "application/json":
                return self.fail(415, "unsupported_media_type", "a JSON body is needed")
            try:
                req = json.loads(raw)
            except ValueError:
                return self.fail(400, "bad_json", "not JSON")
        if self.injected("POST", req):
            return
        name = self.account("POST", req)
        if not name:
            return
        parts = self.path.strip("/").split("/")
        with site.lock:
            if parts[:2] == ["api", "challenges"] and len(parts) == 4:
                return self.on_challenge(name, parts[2], parts[3], req)
            if parts[:3] == ["api", "bot", "game"] and len(parts) == 5:
                return self.on_game(name, parts[3], parts[4], req)
        self.fail(404, "not_found", "no such request", req=req)

    def on_challenge(self, name, cid, what, req):
        site = self.site
        c = site.challenges.get(cid)
        if not c or name not in site.targets(c):
            return self.fail(404, "not_found", "no such challenge", req=req)
        if c["status"] != "open" or name in c["accepted"]:
            return self.fail(409, "not_open", "the challenge is settled", req=req)
        if what == "decline":
            reason = (req or {}).get("reason", "generic")
            if reason not in ("generic", "later", "variant", "timeControl", "rated", "casual",
                              "tooFast", "tooSlow"):
                return self.fail(400, "bad_message", "no such reason", req=req)
            c["status"], c["reason"] = "declined", reason
            return self.answer(204, None, req=req)
        if what != "accept":
            return self.fail(404, "not_found", "no such request", req=req)
        c["accepted"].append(name)
        if len(c["accepted"]) < len(site.targets(c)):
            return self.answer(200, {"game": None, "seat": None}, req=req)
        g = site.start_game(c)
        seat = next(s for s in g.bot_seats if g.seats[s]["name"] == name)
        return self.answer(200, {"game": g.id, "seat": seat}, req=req)

    def on_game(self, name, gid, what, req):
        g = self.site.games.get(gid)
        if not g:
            return self.fail(404, "not_found", "no such game", req=req)
        seat = next((s for s in g.bot_seats if g.seats[s]["name"] == name), None)
        if seat is None:
            return self.fail(403, "forbidden", "not a seat of yours", req=req)
        if g.status != "running":
            return self.fail(409, "game_over", "the game is over", req=req)
        st = g.status_now()
        if st["left"][seat]:
            return self.fail(401, "unauthorized", "you left this game", req=req)
        if what == "resign":
            g.leave(seat, "resign")
            return self.answer(200, {"ok": True}, req=req)
        if what != "move":
            return self.fail(404, "not_found", "no such request", req=req)
        move = (req or {}).get("move")
        if not isinstance(move, dict):
            return self.fail(400, "bad_message", "the fake site takes {\"move\": {...}} only",
                             req=req)
        if st["to_move"] != seat:
            return self.fail(409, "not_your_turn", "not your turn", req=req)
        if "ply" in req and req["ply"] != st["ply"]:
            return self.fail(409, "not_your_turn", "that decision is not due", req=req)
        left_ms = g.clocks_now(st)[seat] if g.clocks is not None else None
        answer = g.referee.ask(cmd="play", move=move, viewers=g.viewers())
        if not answer["ok"]:
            return self.fail(400, "illegal_move", answer["message"], answer["reason"], req=req)
        g.decisions.append((seat, st["ply"], left_ms))
        with self.site.lock:
            lose = self.site.answers_to_lose > 0
            self.site.answers_to_lose -= lose
        if lose:
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            self.site.log("POST", self.path, 0, req)
        else:
            self.answer(200, {"ok": True}, req=req)
        g.after_decision(seat, answer)
        g.play_others()
        if self.site.after_move:
            self.site.after_move(g, seat, st["ply"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--token-file", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--referee", default=os.environ.get("BOT_REFEREE", "bot_referee"))
    ap.add_argument("--challenge", action="append", default=[],
                    help="a variant to challenge the bot to (repeatable)")
    args = ap.parse_args()
    site = FakeSite(args.referee)
    with open(args.token_file) as f:
        site.add_account("Bot", f.read().strip())
    site.listen(args.port)
    print(site.url(), flush=True)
    for variant in args.challenge:
        site.challenge("Bot", variant=variant)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        site.stop()


if __name__ == "__main__":
    sys.exit(main())
