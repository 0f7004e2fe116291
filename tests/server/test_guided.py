"""Guided first games (POST /api/games {"variant","guided":true}): two players, the
learner on seat 0 against the `random` computer, dealt from the variant's fixed seed.
Two guided games of a variant start with the same rack, and the same decisions give
the same game (the computer is seeded from the deal too); every other game gets another
deal; options that contradict a guided game are refused and create nothing; the
computer's tiles still reach nobody (the harness checks every message) and the record
checks out. Previews carry the scoring lines the guide draws, and they add up to the
points."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import CLOCK, call, register  # noqa: E402
from harness import ServerTest, check_record, play_until_over  # noqa: E402

VARIANTS = ("square", "rota", "hex")
HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "random"}


class Guided(ServerTest):
    server_args = ("--msg-rate", "1000", "--judge-playouts", "1000")  # quick hints

    def guided(self, variant, **extra):
        status, value, _ = self.server.http("POST", "/api/games", {"variant": variant, "guided": True, **extra})
        self.assertEqual(status, 201, value)
        return value

    def open_games(self):
        status, games, _ = self.server.http("GET", "/api/games")
        self.assertEqual(status, 200)
        return games

    def test_the_same_deal_every_time(self):
        for variant in VARIANTS:
            with self.subTest(variant=variant):
                a, b = self.guided(variant, name="Ann"), self.guided(variant, name="Bo")
                self.assertEqual(a["seat"], 0)
                ca = self.connect(a["game"], a["token"], 0)
                cb = self.connect(b["game"], b["token"], 0)
                ga, gb = ca.state["game"], cb.state["game"]
                self.assertTrue(ga["guided"])
                self.assertEqual((ga["players"], ga["mode"], ga["status"], ga["to_move"]),
                                 (2, "standard", "running", 0))
                self.assertEqual([s["kind"] for s in ga["seats"]], ["human", "ai"])
                self.assertEqual(ga["seats"][1]["level"], "random")
                self.assertEqual(ga["seats"][0]["name"], "Ann")
                self.assertFalse(ga["rated"])
                self.assertIsNone(ga["clock"])
                self.assertEqual(ca.state["you"]["rack"], cb.state["you"]["rack"])
                self.assertEqual(ga["seed_hash"], gb["seed_hash"])
                if variant == "rota":
                    self.assertEqual(ga["tiles"], gb["tiles"])
                # Any other game of the variant has a deal of its own, and is not guided.
                other = self.server.create(variant, [HUMAN, AI])
                co = self.connect(other["game"], other["token"], 0)
                self.assertFalse(co.state["game"]["guided"])
                self.assertNotEqual(co.state["game"]["seed_hash"], ga["seed_hash"])

    def test_same_decisions_same_game(self):
        """The learner's decisions of one guided game, sent again in a second one,
        give the same record: the computer answers the same way."""
        a = self.guided("rota")
        first = self.connect(a["game"], a["token"], 0)
        mine = []
        play_until_over([first], before_move=lambda c: mine.append(c.state["you"]["hint"]))
        record_a = check_record(self, self.server, [first])
        b = self.guided("rota")
        second = self.connect(b["game"], b["token"], 0, hint=False)
        sent = 0
        while second.state["game"]["status"] != "over":
            g = second.state["game"]
            if g["to_move"] == 0 and g["ply"] > second.acted_ply:
                self.assertLess(sent, len(mine), "the second game asks for more decisions")
                second.acted_ply = g["ply"]
                second.send(mine[sent])
                sent += 1
            msg = second.recv()
            self.assertNotEqual(msg["type"], "error", msg)
        record_b = check_record(self, self.server, [second])
        self.assertEqual(sent, len(mine))
        self.assertGreater(sent, 10)
        self.assertEqual(record_a[1:], record_b[1:])
        self.assertEqual(record_a[0]["seed"], record_b[0]["seed"])

    def test_the_advice_is_the_same_every_time(self):
        """A guided game's hint is a fixed search from a seed of the position: two
        guided games at the same position get the same advice, move after move."""
        for variant in VARIANTS:
            with self.subTest(variant=variant):
                games = [self.guided(variant) for _ in range(2)]
                clients = [self.connect(g["game"], g["token"], 0) for g in games]
                for _ in range(3):
                    hints = []
                    for c in clients:
                        c.send({"type": "hint"})
                        hints.append(c.wait_type("hint", timeout=60)["move"])
                    self.assertEqual(hints[0], hints[1])
                    for c in clients:  # play it; the computer answers alike in both games
                        ply = c.state["game"]["ply"]
                        c.send(hints[0])
                        c.wait_for(lambda m, p=ply: m["type"] == "state" and m["game"]["ply"] > p
                                   and m["game"]["to_move"] == 0 or m["type"] == "error"
                                   or m["type"] == "state" and m["game"]["status"] == "over")
                    self.assertEqual(clients[0].state["you"]["rack"], clients[1].state["you"]["rack"])

    def test_whole_game_hides_the_computers_tiles(self):
        for variant in ("square", "hex"):
            with self.subTest(variant=variant):
                created = self.guided(variant, name="Ann")
                me = self.connect(created["game"], created["token"], 0)
                watcher = self.connect(created["game"])
                final = play_until_over([me, watcher])
                self.assertEqual(final["game"]["status"], "over")
                self.assertTrue(final["game"]["guided"])
                lines = check_record(self, self.server, [me, watcher])
                self.assertTrue(any(e["ev"] == "draw" and e["player"] == 1 for e in lines))

    def test_bad_combinations_are_refused(self):
        before = len(self.open_games())
        cases = [
            ({"variant": "square", "guided": "yes"}, "guided must be true or false"),
            ({"variant": "chess", "guided": True}, "variant"),
            ({"guided": True}, "variant"),
            ({"variant": "square", "guided": True, "players": 3}, "two players"),
            ({"variant": "hex", "guided": True, "mode": "team"}, "standard"),
            ({"variant": "rota", "guided": True, "seats": [HUMAN, AI]}, "seats"),
            ({"variant": "square", "guided": True, "clock": CLOCK}, "clock"),
            ({"variant": "square", "guided": True, "rated": True}, "rated"),
            ({"variant": "square", "guided": True, "name": "x" * 30}, ""),
        ]
        for body, words in cases:
            with self.subTest(body=body):
                status, value, _ = self.server.http("POST", "/api/games", body)
                self.assertEqual(status, 400, value)
                self.assertEqual(value["error"]["code"], "bad_message")
                self.assertIn(words, value["error"]["message"])
        self.assertEqual(len(self.open_games()), before, "a refused request created a game")
        # What does not contradict a guided game is accepted.
        ok = self.guided("hex", players=2, mode="standard", clock=None, rated=False)
        self.assertEqual(ok["seat"], 0)
        # guided false is an ordinary game.
        status, value, _ = self.server.http("POST", "/api/games", {"variant": "square", "players": 1,
                                                                   "guided": False})
        self.assertEqual(status, 201, value)

    def test_an_account_plays_under_its_name(self):
        session = register(self.server, "Learner", "password123")
        status, created, _ = call(self.server, "POST", "/api/games", {"variant": "square", "guided": True},
                                  token=session)
        self.assertEqual(status, 201, created)
        me = self.connect(created["game"], created["token"], 0)
        self.assertEqual(me.state["game"]["seats"][0]["name"], "Learner")
        self.assertTrue(me.state["game"]["seats"][0]["account"])

    def test_preview_lines_add_up(self):
        """Lines of legal previews: colour by colour their points are the preview's
        (no pyramids on a first move), a square/hex line starts on a half of the tile
        and holds its colour; an illegal preview has none."""
        for variant in VARIANTS:
            with self.subTest(variant=variant):
                created = self.guided(variant)
                me = self.connect(created["game"], created["token"], 0, moves=True)
                moves = me.state["you"]["moves"]
                scored = 0
                for move in moves[:: max(1, len(moves) // 40)]:
                    me.send(dict(move, type="preview"))
                    pv = me.wait_type("preview")
                    self.assertTrue(pv["legal"])
                    sums = {c: 0 for c in pv["points"]}
                    for line in pv["lines"]:
                        self.assertGreater(line["points"], 0)
                        sums[line["color"]] += line["points"]
                        if variant == "rota":
                            self.assertEqual(line["cell"], move["cell"])
                            self.assertIn(line["corner"], range(4))
                        else:
                            self.assertIn(line["cells"][0], move["cells"])
                            self.assertEqual(len(line["cells"]), line["points"] + 1)
                    self.assertEqual(sums, pv["points"])
                    scored += bool(pv["lines"])
                self.assertGreater(scored, 0, "no sampled first move scored")
                far = {"cell": [40, 40]} if variant == "rota" else {"cells": [[2, 2], [4, 4]]}
                bad = dict(moves[0], type="preview", **far)
                me.send(bad)
                pv = me.wait_type("preview")
                self.assertFalse(pv["legal"])
                self.assertEqual(pv["lines"], [])



if __name__ == "__main__":
    unittest.main()
