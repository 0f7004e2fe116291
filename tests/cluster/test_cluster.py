"""test_cluster.py - one site on three servers (docs/server.md, "Several servers"): Debian's
nginx with deploy/nginx-axio-cluster.conf in front of three `axio serve` on one PostgreSQL
(cluster.py). Games with people, computers and spectators are played through nginx over
WebSocket while each instance in turn is SIGKILLed mid-game and started again. Clients
reconnect by themselves (as the web client does); every game ends; every decision a
client saw acknowledged is in its record; every record passes `axio replay` and the
independent checker; no message to anyone shows another seat's tiles (harness's leak
check on every message). Also: every instance lists every game, and a game is decided by
one instance at a time (its lease); nginx answers every request through a rolling restart.
"""
import json
import os
import select
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster import Site  # noqa: E402
import harness  # noqa: E402
from harness import Client, check_record  # noqa: E402
from wsclient import Closed, HandshakeError  # noqa: E402

HUMAN = {"kind": "human"}
GREEDY = {"kind": "ai", "level": "greedy"}
GAME_TIMEOUT = 300.0


class Seat:
    """A client that comes back whenever its connection goes."""

    def __init__(self, site, game, token=None, seat=None):
        self.site, self.game, self.token, self.seat = site, game, token, seat
        self.acked = []  # decisions (place and leave events) this client was told of
        self.reconnects = -1
        self.connect()

    def connect(self):
        deadline = time.monotonic() + 60
        while True:
            try:
                self.c = Client(self.site, self.game, self.token, self.seat)
                self.reconnects += 1
                return
            except (Closed, HandshakeError, OSError, TimeoutError, AssertionError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)

    def fileno(self):
        return self.c.fileno()

    def pump(self):
        try:
            msg = self.c.recv(5)
        except (Closed, OSError, TimeoutError):
            self.connect()
            return
        if msg["type"] == "event" and msg["event"]["ev"] in ("place", "leave"):
            self.acked.append(msg["event"])

    def act(self):
        if self.c.my_turn():
            try:
                self.c.act()
            except OSError:
                self.connect()

    def over(self):
        st = self.c.state
        return st is not None and st["game"]["status"] == "over"


class Cluster(unittest.TestCase):
    def setUp(self):
        self.site = Site(3, args=["--quiet", "--judge-playouts", "200", "--absent-s", "600"])

    def tearDown(self):
        errors = self.site.errors()
        self.site.stop()
        self.assertNotIn("AddressSanitizer", errors)
        self.assertNotIn("runtime error", errors)

    def new_game(self, variant, seats):
        created = self.site.create(variant, seats, name="Ann")
        game = created["game"]
        clients = [Seat(self.site, game, created["token"], 0)]
        for i, s in enumerate(seats[1:], 1):
            if s["kind"] == "human":
                joined = self.site.join(game, name=f"P{i}")
                clients.append(Seat(self.site, game, joined["token"], joined["seat"]))
        clients.append(Seat(self.site, game))  # a spectator
        return game, clients

    def play(self, seats, until):
        """Plays every seat's turns until until() or every game is over."""
        deadline = time.monotonic() + GAME_TIMEOUT
        while not until() and not all(s.over() for s in seats):
            self.assertLess(time.monotonic(), deadline, "the games did not end in time")
            for s in seats:
                s.act()
            ready = [s for s in seats if s.c.first or s.c.closed_early or s.c.ws.pending()]
            if not ready:
                ready, _, _ = select.select(seats, [], [], 0.5)
            for s in ready:
                s.pump()

    def test_instances_restarted_one_after_another(self):
        """A rolling restart: each instance killed, found dead by nginx (requests spread by
        their id reach it), and started again, one after another. Every request is answered
        by a running instance; with passive health checks (max_fails=1) nginx had left them
        all out and answered 502 "no live upstreams" to everything."""
        for i in range(3):
            self.site.kill(i)
            for _ in range(20):  # each goes to the dead one with a chance of 1 in 3
                self.assertEqual(self.site.http_once("GET", "/api/health")[0], 200)
            self.site.start(i)
        statuses = [self.site.http_once("GET", "/api/health")[0] for _ in range(20)]
        self.assertEqual(statuses, [200] * 20)

    def test_three_instances_each_killed_in_turn(self):
        games = [self.new_game("square", [HUMAN, HUMAN]),
                 self.new_game("hex", [HUMAN, GREEDY]),
                 self.new_game("rota", [HUMAN, HUMAN, GREEDY]),
                 self.new_game("square", [HUMAN, GREEDY])]
        seats = [s for _, cs in games for s in cs]

        # every instance lists every game (the entries held elsewhere come from the store)
        ids = {g for g, _ in games}
        for inst in self.site.instances:
            deadline = time.monotonic() + 10
            while True:
                status, listed, _ = harness.Server.http_once(inst, "GET", "/api/games")
                self.assertEqual(status, 200)
                if ids <= {e["id"] for e in listed}:
                    break
                self.assertLess(time.monotonic(), deadline, f"instance {inst.i} lists {listed}")
                time.sleep(0.3)

        # one holder per game, and it is the one nginx sends the game's players to
        holders = self.site.pg.psql(self.site.db, "SELECT game_id, instance FROM game_owners"
                                    " WHERE instance <> ''")
        self.assertEqual(len({g for g, _ in holders} & ids), len(ids), holders)

        def ply():
            return sum(s.c.state["game"]["ply"] for _, cs in games for s in cs[:1] if s.c.state)

        resumed = []
        for k in range(3):
            start = ply()
            self.play(seats, lambda: ply() >= start + 6)
            before = ply()
            self.site.kill(k)
            killed = time.monotonic()
            self.play(seats, lambda: ply() > before + 2)
            resumed.append(time.monotonic() - killed)
            self.site.start(k)
        self.play(seats, lambda: False)

        for game, cs in games:
            self.assertTrue(all(s.over() for s in cs), game)
            lines = check_record(self, self.site, [s.c for s in cs])
            recorded = [json.dumps(e, sort_keys=True) for e in lines
                        if e["ev"] in ("place", "leave")]
            for s in cs:
                for ev in s.acked:
                    self.assertIn(json.dumps(ev, sort_keys=True), recorded,
                                  f"game {game}: an acknowledged decision is not in the record")
        self.assertGreater(sum(s.reconnects for s in seats), 0, "no client had to reconnect")
        print(f"play went on {', '.join(f'{t:.1f}' for t in resumed)} s after each kill; "
              f"{sum(s.reconnects for s in seats)} reconnections", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
