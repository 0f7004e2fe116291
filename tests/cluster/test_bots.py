"""test_bots.py - the Bot API on a site of several servers (docs/bot-api.md), two `axio
serve` on one PostgreSQL behind the shipped nginx (cluster.py).

- A bot's game stream opened on a server that does not hold the game is the holder's,
  passed on line by line as it is written (not when the game ends): its state first, then
  each decision's state; the bot's decisions posted there are passed on too; two bots play
  a game to its end, one from each server, and both streams end after it.
- The event stream works on any server (its events are found in the store).
- A challenge to two bots at once (issue 49) sent on one server, seen on the other, and
  accepted by both at the same moment on the two servers: one game, both told of it.
"""
import os
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from cluster import Site  # noqa: E402
from botlib import Engine, Stream, api, make_bot, to_decide  # noqa: E402


class Bots(unittest.TestCase):
    def setUp(self):
        self.site = Site(2, args=["--quiet"])
        self.streams, self.engines = [], []

    def tearDown(self):
        for s in self.streams:
            s.close()
        for e in self.engines:
            e.close()
        errors = self.site.errors()
        self.site.stop()
        self.assertNotIn("AddressSanitizer", errors)
        self.assertNotIn("runtime error", errors)

    def stream(self, server, path, token):
        s = Stream(server, path, token)
        self.streams.append(s)
        self.assertEqual(s.status, 200, getattr(s, "body", ""))
        return s

    def test_two_bots_on_two_servers(self):
        zero, one = self.site.instances
        _, ada = make_bot(zero, "Ada")
        _, bea = make_bot(zero, "Bea")
        # Bea's events on the other server: Ada's challenge reaches her there
        events = self.stream(one, "/api/bot/stream/event", bea)
        status, made, _ = api(zero, "POST", "/api/challenges", {"to": "Bea", "variant": "square"},
                              token=ada)
        self.assertEqual(status, 201, made)
        cid = made["challenge"]["id"]
        events.wait(lambda l: l["type"] == "challenge" and l["challenge"]["id"] == cid)
        status, accepted, _ = api(zero, "POST", f"/api/challenges/{cid}/accept", token=bea)
        self.assertEqual(status, 200, accepted)
        game = accepted["game"]
        events.wait(lambda l: l["type"] == "gameStart" and l["game"]["id"] == game)
        holder = self.site.holder(game)
        other = one if holder == 0 else zero
        here = zero if holder == 0 else one
        # Ada plays through the server that does not hold the game, Bea through the holder
        bots = {"Ada": (ada, other), "Bea": (bea, here)}
        players, firsts = {}, {}
        for name, (token, server) in bots.items():
            s = self.stream(server, f"/api/bot/game/stream/{game}", token)
            first = s.next()
            self.assertEqual(first["type"], "state")
            players[name] = (token, server, s, first["you"]["seat"])
            firsts[name] = first
            self.engines.append(Engine())
        engine = dict(zip(bots, self.engines))
        last = {}
        deadline = time.monotonic() + 120
        over = set()
        latest = {name: None for name in bots}
        while len(over) < 2 and time.monotonic() < deadline:
            for name, (token, server, s, seat) in players.items():
                if name in over:
                    continue
                try:
                    line = firsts.pop(name) if name in firsts else s.next(0.1)
                except AssertionError:
                    continue
                except EOFError:
                    self.fail(f"{name}'s stream ended before the game")
                if line["type"] != "state":
                    continue
                latest[name] = line
                last[name] = line["game"]["ply"]
                if line["game"]["status"] != "running":
                    over.add(name)
                    continue
                if not to_decide(line):
                    continue
                if line["game"]["phase"] != "place":
                    body = {"type": "swap", "accept": True}
                else:
                    body = {"move": engine[name].decide(line["position"])}
                status, answer, _ = api(server, "POST", f"/api/bot/game/{game}/move", body,
                                        token=token)
                self.assertEqual(status, 200, answer)
        self.assertEqual(over, {"Ada", "Bea"}, "the game did not end in 120 s")
        self.assertEqual(last["Ada"], last["Bea"])
        # the game stayed where it was, and each stream ends after the game
        self.assertEqual(self.site.holder(game), holder)
        for _, _, s, _ in players.values():
            with self.assertRaises(EOFError):
                s.next(10)
        status, state = self.site.http("GET", f"/api/games/{game}")[:2]
        self.assertEqual((status, state["status"], state["ply"]), (200, "over", last["Ada"]))
        # the relayed stream carried Ada's own view: her seat's tiles, nobody else's
        ada_seat = players["Ada"][3]
        for i, seat in enumerate(latest["Ada"]["game"]["seats"]):
            if i != ada_seat:
                self.assertNotIn("rack", seat)

    def test_two_last_acceptances_at_once_on_two_servers(self):
        zero, one = self.site.instances
        _, ada = make_bot(zero, "Ada")
        _, bea = make_bot(zero, "Bea")
        _, cyd = make_bot(zero, "Cyd")
        events = self.stream(one, "/api/bot/stream/event", bea)
        status, made, _ = api(zero, "POST", "/api/challenges",
                              {"to": ["Bea", "Cyd"], "players": 3, "variant": "hex"}, token=ada)
        self.assertEqual(status, 201, made)
        cid = made["challenge"]["id"]
        seen = events.wait(lambda l: l["type"] == "challenge" and l["challenge"]["id"] == cid)
        self.assertEqual(seen["challenge"]["players"], 3)
        answers = {}
        go = threading.Barrier(2)

        def accept(name, server, token):
            go.wait()
            answers[name] = api(server, "POST", f"/api/challenges/{cid}/accept", token=token)

        threads = [threading.Thread(target=accept, args=("Bea", one, bea)),
                   threading.Thread(target=accept, args=("Cyd", zero, cyd))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        self.assertEqual([answers[n][0] for n in ("Bea", "Cyd")], [200, 200], answers)
        games = {answers[n][1]["game"] for n in ("Bea", "Cyd")} - {None}
        self.assertEqual(len(games), 1, answers)
        game = games.pop()
        status, c, _ = api(one, "GET", f"/api/challenges/{cid}", token=ada)
        self.assertEqual((c["challenge"]["status"], c["challenge"]["game"]), ("accepted", game))
        events.wait(lambda l: l["type"] == "gameStart" and l["game"]["id"] == game)
        status, mine, _ = api(zero, "GET", "/api/me/games", token=ada)
        self.assertEqual([g["id"] for g in mine["games"]], [game])
        status, info, _ = api(one, "GET", f"/api/games/{game}")
        self.assertEqual(sorted(s["name"] for s in info["seats"]), ["Ada", "Bea", "Cyd"])


if __name__ == "__main__":
    unittest.main()
