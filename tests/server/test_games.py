"""Full games through the real server: every variant against computer seats, solo,
a hex team game, two humans, with a spectator watching. Each ends with the record
checked (axio replay, the independent checker, each viewer's events equal to its
view of the record, seed_hash, the seed hidden until the end)."""
import unittest

from harness import ServerTest, check_record, play_until_over

AI = {"kind": "ai", "level": "random"}
GREEDY = {"kind": "ai", "level": "greedy"}
HUMAN = {"kind": "human"}


class FullGames(ServerTest):
    server_args = ("--msg-rate", "1000")  # the tests play as fast as they can

    def play_vs_ai(self, variant, seats, mode=None, spectator=False):
        created = self.server.create(variant, seats, mode=mode)
        me = self.connect(created["game"], created["token"], created["seat"])
        clients = [me]
        if spectator:
            clients.append(self.connect(created["game"]))
        final = play_until_over(clients)
        self.assertEqual(final["game"]["status"], "over")
        self.assertEqual(final["game"]["phase"], "over")
        self.assertIsNotNone(final["game"]["end"])
        check_record(self, self.server, clients)
        return final

    def test_square_two_players_vs_greedy(self):
        self.play_vs_ai("square", [HUMAN, GREEDY], spectator=True)

    def test_square_four_players(self):
        self.play_vs_ai("square", [AI, HUMAN, AI, AI])

    def test_rota_two_players(self):
        self.play_vs_ai("rota", [HUMAN, AI], spectator=True)

    def test_rota_three_players(self):
        self.play_vs_ai("rota", [AI, HUMAN, GREEDY])

    def test_hex_two_players(self):
        self.play_vs_ai("hex", [HUMAN, AI])

    def test_hex_team(self):
        final = self.play_vs_ai("hex", [HUMAN, AI, AI, AI], mode="team", spectator=True)
        scores = [s["score"] for s in final["game"]["seats"]]
        self.assertEqual(scores[0], scores[2])
        self.assertEqual(scores[1], scores[3])

    def test_solo_every_variant(self):
        for variant in ("square", "rota", "hex"):
            with self.subTest(variant=variant):
                final = self.play_vs_ai(variant, [HUMAN])
                self.assertEqual(final["game"]["mode"], "solo")
                self.assertIsInstance(final["game"]["end"]["result"], int)

    def test_two_humans_and_a_spectator(self):
        created = self.server.create("square", [HUMAN, HUMAN], name="Ann")
        game = created["game"]
        ann = self.connect(game, created["token"], 0)
        self.assertEqual(ann.state["game"]["status"], "waiting")
        joined = self.server.join(game, "Bo")
        self.assertEqual(joined["seat"], 1)
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "running")
        bo = self.connect(game, joined["token"], 1)
        watcher = self.connect(game)
        self.assertEqual([s["name"] for s in bo.state["game"]["seats"]], ["Ann", "Bo"])
        play_until_over([ann, bo, watcher])
        check_record(self, self.server, [ann, bo, watcher])

    def test_moves_list(self):
        for variant in ("square", "rota", "hex"):
            with self.subTest(variant=variant):
                created = self.server.create(variant, [HUMAN, AI])
                me = self.connect(created["game"], created["token"], 0, moves=True)
                you = me.state["you"]
                self.assertGreater(len(you["moves"]), 1)
                # identical rack tiles are listed once, so the hint may name the other copy
                for move in [you["hint"]] + you["moves"][:: max(1, len(you["moves"]) // 10)]:
                    me.send(dict(move, type="preview"))
                    self.assertTrue(me.wait_type("preview")["legal"], move)
                me.send(you["moves"][-1])
                state = me.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > 0)
                self.assertEqual(state["game"]["last"]["player"], 0)
                me.close()
                self.clients.remove(me)


if __name__ == "__main__":
    unittest.main()
