"""A stored game that can no longer be replayed is set aside, not fatal: with a database
holding two healthy games (one running, one waiting) and one whose decision was
corrupted with sqlite3 while the server was stopped, the server starts, says which game
it set aside and why, marks it `damaged` (never listed, never joined or played, its
state and stored decisions still served), and the healthy games play on. Also: every
game carries its rules version (`rules`), in the state, the record and the database, and
a game stored under rules this server does not know is damaged too, whether it is
resumed at start or a finished game loaded on demand."""
import json
import os
import tempfile
import unittest

from harness import TIMEOUT, Client, Closed, Server, db_query, new_database, play_until_over

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "greedy"}
FAST = ("--msg-rate", "1000", "--request-rate", "1000")
RULES = "axio-rules/1"
ILLEGAL = '{"type":"place","rack_index":0,"cells":[[40,40],[40,41]]}'


class Fixture(unittest.TestCase):
    """A server on a temporary database that the tests stop, change (db_query: sqlite3
    or psql) and start again."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = new_database(self.tmp.name)
        self.server = Server(self.db, *FAST)
        self.clients = []

    def tearDown(self):
        self.close_clients()
        if self.server:
            self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.tmp.cleanup()

    def close_clients(self):
        for c in self.clients:
            c.close()
        self.clients = []

    def client(self, game, token, seat):
        c = Client(self.server, game, token, seat)
        c.wait_type("history")
        self.clients.append(c)
        return c

    def stop(self):
        self.close_clients()
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.server = None

    def start(self):
        self.server = Server(self.db, *FAST)

    def sql(self, statement, *args):
        """Runs one statement on the database of the stopped server."""
        return db_query(self.db, statement, *args)

    def play(self, clients, moves):
        """Plays `moves` decisions of these clients, each seen by every client."""
        for _ in range(moves):
            while not any(c.my_turn() for c in clients):
                clients[0].recv()  # a computer's turn
            mover = next(c for c in clients if c.my_turn())
            ply = mover.state["game"]["ply"]
            mover.act()
            for c in clients:
                c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)

    def running_game(self, name_a, name_b, moves):
        created = self.server.create("square", [HUMAN, HUMAN], name=name_a)
        joined = self.server.join(created["game"], name_b)
        seats = [(created["token"], 0), (joined["token"], 1)]
        clients = [self.client(created["game"], t, s) for t, s in seats]
        self.play(clients, moves)
        return created["game"], seats


class Damaged(Fixture):
    def test_a_damaged_game_is_set_aside_and_the_others_play_on(self):
        running, running_seats = self.running_game("Ann", "Bo", 4)
        broken, _ = self.running_game("Cy", "Di", 3)
        waiting = self.server.create("hex", [HUMAN, HUMAN], name="Eve")
        self.close_clients()
        status, before, _ = self.server.http("GET", f"/api/games/{broken}")
        self.assertEqual((status, before["rules"]), (200, RULES))
        self.stop()

        stored = self.sql("SELECT decision FROM decisions WHERE game_id = ? ORDER BY ply", broken)
        self.assertEqual(len(stored), 3)
        self.sql("UPDATE decisions SET decision = ? WHERE game_id = ? AND ply = 1", ILLEGAL, broken)
        self.start()

        # one line on stderr (even with --quiet) names the game and the reason
        lines = [l for l in self.server.errors().splitlines() if broken in l]
        self.assertEqual(len(lines), 1, self.server.errors())
        self.assertIn("damaged", lines[0])
        self.assertIn("decision 1 is rejected by the engine", lines[0])
        for other in (running, waiting["game"]):
            self.assertNotIn(other, self.server.errors())

        # described with what can be said, never listed
        status, game, _ = self.server.http("GET", f"/api/games/{broken}")
        self.assertEqual(status, 200, game)
        self.assertEqual(game["status"], "damaged")
        self.assertEqual((game["id"], game["variant"], game["players"], game["mode"], game["rules"]),
                         (broken, "square", 2, "standard", RULES))
        self.assertEqual([s["name"] for s in game["seats"]], ["Cy", "Di"])
        self.assertIn("decision 1 is rejected by the engine", game["damaged"])
        self.assertNotIn("seed", game)
        status, lobby, _ = self.server.http("GET", "/api/games")
        self.assertEqual(sorted(g["id"] for g in lobby), sorted([running, waiting["game"]]))
        status, over, _ = self.server.http("GET", "/api/games?status=over")
        self.assertEqual(over, [])
        status, mine, _ = self.server.http("GET", f"/api/games?ids={broken},{running}")
        self.assertEqual([(g["id"], g["status"]) for g in mine],
                         [(broken, "damaged"), (running, "running")])

        # never joined, cancelled or played
        for method, path in (("POST", f"/api/games/{broken}/join"), ("DELETE", f"/api/games/{broken}")):
            status, reply, _ = self.server.http(method, path, {"name": "Zed"} if method == "POST" else None)
            self.assertEqual((status, reply["error"]["code"]), (409, "damaged"), (method, reply))
        status, reply, _ = self.server.http("GET", f"/api/games/{broken}/join")
        self.assertEqual(status, 405)
        ws = self.server.websocket(f"/ws/{broken}")
        msg = json.loads(ws.recv(TIMEOUT))
        self.assertEqual((msg["type"], msg["code"]), ("error", "damaged"))
        with self.assertRaises(Closed):
            ws.recv(TIMEOUT)
        ws.close()

        # its record: the stored configuration and decisions as stored, no seed
        status, text, headers = self.server.http("GET", f"/api/games/{broken}/record")
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("application/x-ndjson"), headers)
        lines = [json.loads(line) for line in text.splitlines()]
        start = lines[0]
        self.assertEqual({k: start[k] for k in ("ev", "format", "rules", "variant", "players", "mode",
                                                "names", "status")},
                         {"ev": "start", "format": "axio-record/1", "rules": RULES,
                          "variant": "square", "players": 2, "mode": "standard",
                          "names": ["Cy", "Di"], "status": "damaged"})
        self.assertEqual(start["seed_hash"], before["seed_hash"])
        self.assertIn("decision 1", start["damaged"])
        self.assertNotIn("seed", start)
        self.assertEqual([(l["ev"], l["ply"], l["seat"]) for l in lines[1:]],
                         [("decision", 0, 0), ("decision", 1, 1), ("decision", 2, 0)])
        self.assertEqual(lines[1]["decision"], json.loads(stored[0][0]))
        self.assertEqual(lines[2]["decision"], json.loads(ILLEGAL))
        self.assertEqual(lines[3]["decision"], json.loads(stored[2][0]))

        # the healthy games play on: the running one to its end, the waiting one starts
        clients = [self.client(running, t, s) for t, s in running_seats]
        self.assertEqual(clients[0].state["game"]["ply"], 4)
        state = play_until_over(clients)
        self.assertEqual(state["game"]["status"], "over")
        joined = self.server.join(waiting["game"], "Fay")
        eve = self.client(waiting["game"], waiting["token"], 0)
        fay = self.client(waiting["game"], joined["token"], 1)
        self.play([eve, fay], 2)
        self.assertEqual(fay.state["game"]["status"], "running")

        # the mark is stored: the next start does not look at the game again
        self.stop()
        self.assertEqual(self.sql("SELECT status FROM games WHERE id = ?", broken), [("damaged",)])
        self.start()
        self.assertNotIn(broken, self.server.errors())
        status, game, _ = self.server.http("GET", f"/api/games/{broken}")
        self.assertEqual((status, game["status"]), (200, "damaged"))

    def test_damage_of_every_kind(self):
        """Not JSON, a missing decision, an unknown variant, an unknown computer
        level: each game is set aside with its own reason."""
        damage = {
            "not JSON": ("UPDATE decisions SET decision = '{\"type\":' WHERE game_id = ? AND ply = 0",
                         "decision 0 is not JSON"),
            "missing": ("DELETE FROM decisions WHERE game_id = ? AND ply = 1", "decision 1 is missing"),
            "variant": ("UPDATE games SET variant = 'chess' WHERE id = ?", "unknown configuration"),
            "level": ("UPDATE seats SET level = 'godlike' WHERE game_id = ? AND seat = 1",
                      "no computer player called 'godlike'"),
        }
        games = {}
        for what in damage:
            created = self.server.create("square", [HUMAN, AI], name="Ann")
            c = self.client(created["game"], created["token"], 0)
            self.play([c], 2)  # two of Ann's, the computer's in between
            games[what] = created["game"]
        self.stop()
        for what, (statement, _) in damage.items():
            self.sql(statement, games[what])
        self.start()
        for what, (_, reason) in damage.items():
            with self.subTest(what=what):
                status, game, _ = self.server.http("GET", f"/api/games/{games[what]}")
                self.assertEqual((status, game["status"]), (200, "damaged"))
                self.assertIn(reason, game["damaged"])
                status, text, _ = self.server.http("GET", f"/api/games/{games[what]}/record")
                self.assertEqual(status, 200)
                self.assertEqual(json.loads(text.splitlines()[0])["ev"], "start")
                status, _, _ = self.server.http("GET", f"/api/games/{games[what]}")
                said = [l for l in self.server.errors().splitlines() if games[what] in l]
                self.assertEqual(len(said), 1, "set aside once, said once: " + "\n".join(said))
        self.assertEqual(self.server.http("GET", "/api/games")[1], [])


class RulesVersion(Fixture):
    def test_rules_in_state_record_and_database(self):
        created = self.server.create("rota", [HUMAN], name="Ann")
        game = created["game"]
        c = self.client(game, created["token"], 0)
        self.assertEqual(c.state["game"]["rules"], RULES)
        start = next(e for e in c.events if e["ev"] == "start")
        self.assertEqual(start["rules"], RULES)
        play_until_over([c])
        status, text, _ = self.server.http("GET", f"/api/games/{game}/record")
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(text.splitlines()[0])["rules"], RULES)
        self.stop()
        self.assertEqual(self.sql("SELECT rules FROM games WHERE id = ?", game), [(RULES,)])

    def test_unknown_rules_are_damaged(self):
        # a waiting game (resumed at start) and a finished one (loaded when asked for)
        waiting = self.server.create("square", [HUMAN, HUMAN], name="Ann")["game"]
        created = self.server.create("hex", [HUMAN], name="Bo")
        finished = created["game"]
        c = self.client(finished, created["token"], 0)
        play_until_over([c])
        healthy = self.server.create("square", [HUMAN, HUMAN], name="Cy")["game"]
        self.stop()
        self.sql("UPDATE games SET rules = 'axio-rules/2' WHERE id IN (?, ?)", waiting, finished)
        self.start()
        self.assertIn(waiting, self.server.errors())
        self.assertNotIn(finished, self.server.errors())  # not looked at yet
        for game in (waiting, finished):
            with self.subTest(game=game):
                status, body, _ = self.server.http("GET", f"/api/games/{game}")
                self.assertEqual((status, body["status"], body["rules"]), (200, "damaged", "axio-rules/2"))
                self.assertEqual(body["damaged"],
                                 f"played under rules 'axio-rules/2'; this server plays {RULES}")
                self.assertIn(game, self.server.errors())
        status, lobby, _ = self.server.http("GET", "/api/games")
        self.assertEqual([g["id"] for g in lobby], [healthy])
        status, over, _ = self.server.http("GET", "/api/games?status=over")
        self.assertEqual(over, [])
        status, reply, _ = self.server.http("POST", f"/api/games/{waiting}/join", {"name": "Dee"})
        self.assertEqual((status, reply["error"]["code"]), (409, "damaged"))
        status, _, _ = self.server.http("POST", f"/api/games/{healthy}/join", {"name": "Dee"})
        self.assertEqual(status, 200)

if __name__ == "__main__":
    unittest.main()
