"""test_ratings.py - rated games over WebSocket to their end (docs/ratings.md):
the ratings in the final state, GET /api/players and GET /api/leaderboard,
computer levels as rated players, a leaver ranked last, four players and the
hex team game, casual games that change nothing, a restart that keeps it all,
and a database of schema 3 (before accounts) migrated with its games
playable."""
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import CLOCK, call, create, join, login, me, play_to_end, register, session_of  # noqa: E402
from harness import ON_POSTGRESQL, Server, ServerTest, SRC, db_query  # noqa: E402

PW = "correct horse"


def rated(variant, players, seats, mode=None):
    body = {"variant": variant, "players": players, "seats": seats, "clock": CLOCK, "rated": True}
    if mode:
        body["mode"] = mode
    return body


def human():
    return {"kind": "human"}


def ai(level):
    return {"kind": "ai", "level": level}


def places(state):
    """Each seat's 1-based place from the end's ranking."""
    out = {}
    for i, group in enumerate(state["end"]["ranking"]):
        for seat in group:
            out[seat] = i + 1
    return out


class RatedGames(ServerTest):
    server_args = ("--msg-rate", "1000")  # the tests play as fast as they can

    def check_profile(self, name, game_id, variant, state, seat, computer=False):
        status, p, _ = self.server.http("GET", f"/api/players/{name}")
        self.assertEqual(status, 200, p)
        self.assertEqual(p["computer"], computer)
        self.assertEqual(set(p["ratings"]), {"square", "rota", "hex"})
        entry = next(g for g in p["games"] if g["id"] == game_id)
        self.assertEqual(set(entry), {"id", "variant", "players", "mode", "rated", "place",
                                      "rating_change", "rating_after", "ended"})
        s = state["seats"][seat]
        self.assertEqual(entry["variant"], variant)
        self.assertTrue(entry["rated"])
        self.assertEqual(entry["rating_change"], s["rating_change"])
        self.assertEqual(entry["rating_after"], s["rating"])
        self.assertEqual(entry["rating_after"], p["ratings"][variant]["rating"])
        self.assertEqual(entry["place"], places(state)[seat])
        self.assertGreater(entry["ended"], 0)
        return p

    def test_account_against_a_computer(self):
        ann = register(self.server, "Ann", PW)
        game = create(self.server, ann, rated("square", 2, [human(), ai("random")]))
        state = play_to_end(self, [(game["game"], game["token"], 0, ann)])
        self.assertTrue(state["rated"])
        self.assertEqual(state["status"], "over")
        for s in state["seats"]:
            self.assertTrue(s["account"])
            self.assertIsInstance(s["rating_change"], int)
            self.assertEqual(s["rating"], 1500 + s["rating_change"])  # both were new
        # docs/ratings.md's first worked example: two newcomers
        changes = sorted(s["rating_change"] for s in state["seats"])
        self.assertIn(changes, ([-158, 158], [0, 0]))
        self.check_profile("ann", game["game"], "square", state, 0)
        computer = self.check_profile("RANDOM", game["game"], "square", state, 1, computer=True)
        self.assertEqual(computer["name"], "random")
        self.assertEqual(computer["ratings"]["square"]["games"], 1)
        self.assertEqual(computer["ratings"]["hex"], {"rating": 1500, "deviation": 500, "games": 0})
        status, board, _ = self.server.http("GET", "/api/leaderboard?variant=square")
        self.assertEqual(status, 200)
        self.assertEqual({e["name"] for e in board}, {"Ann", "random"})
        for e in board:
            self.assertEqual(set(e), {"name", "rating", "deviation", "games", "computer", "provisional"})
            self.assertTrue(e["provisional"])  # D 484 > 200
            self.assertEqual(e["computer"], e["name"] == "random")
            self.assertEqual(e["deviation"], 484)
        self.assertGreaterEqual(board[0]["rating"], board[1]["rating"])
        self.assertEqual(self.server.http("GET", "/api/leaderboard?variant=hex")[1], [])
        for bad in ["", "?variant=chess", "?variant="]:
            status, body, _ = self.server.http("GET", "/api/leaderboard" + bad)
            self.assertEqual((status, body["error"]["code"]), (400, "bad_message"), bad)
        self.assertEqual(self.server.http("GET", "/api/players/nobody")[0], 404)
        # the lobby's finished games, the state and ?ids= agree
        over = self.server.http("GET", "/api/games?status=over")[1][0]
        self.assertTrue(over["rated"])
        self.assertEqual([s["rating_change"] for s in over["seats"]],
                         [s["rating_change"] for s in state["seats"]])
        entry = self.server.http("GET", f"/api/games?ids={game['game']}")[1][0]
        self.assertEqual([s["rating"] for s in entry["seats"]], [s["rating"] for s in state["seats"]])
        me_now = me(self.server, ann)[1]
        self.assertEqual(me_now["ratings"]["square"]["games"], 1)

        # a restart keeps the accounts, the sessions, the ratings and the games
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.server = Server(self.db)
        self.assertEqual(me(self.server, ann)[1], me_now)
        self.assertEqual(login(self.server, "Ann", PW)[0], 200)
        self.assertEqual(self.server.http("GET", "/api/leaderboard?variant=square")[1], board)
        again = self.server.http("GET", f"/api/games/{game['game']}")[1]
        self.assertEqual([(s["rating"], s["rating_change"], s["account"]) for s in again["seats"]],
                         [(s["rating"], s["rating_change"], s["account"]) for s in state["seats"]])
        self.check_profile("Ann", game["game"], "square", state, 0)

    def test_rated_rematch(self):
        ann = register(self.server, "Ann", PW)
        game = create(self.server, ann, rated("rota", 2, [human(), ai("greedy")]))
        play_to_end(self, [(game["game"], game["token"], 0, ann)])
        c = self.clients[0]
        c.send({"type": "rematch"})
        msg = c.wait_type("rematch")
        self.assertEqual(msg["seat"], 1)
        again = self.server.http("GET", f"/api/games/{msg['game']}")[1]
        self.assertTrue(again["rated"])
        self.assertEqual([(s["name"], s["account"]) for s in again["seats"]],
                         [("greedy (AI)", True), ("Ann", True)])
        self.assertEqual(again["seats"][1]["rating"],
                         self.server.http("GET", "/api/players/Ann")[1]["ratings"]["rota"]["rating"])
        final = play_to_end(self, [(msg["game"], msg["token"], 1, ann)])
        self.assertEqual(self.server.http("GET", "/api/players/Ann")[1]["ratings"]["rota"]["games"], 2)
        self.assertIsInstance(final["seats"][0]["rating_change"], int)

    def test_casual_games_change_no_rating(self):
        ann, bo = register(self.server, "Ann", PW), register(self.server, "Bo", PW)
        game = create(self.server, ann, {"variant": "rota", "players": 2, "clock": CLOCK})
        joined = join(self.server, bo, game["game"])
        state = play_to_end(self, [(game["game"], game["token"], 0), (game["game"], joined["token"], 1)])
        self.assertFalse(state["rated"])
        self.assertEqual([s["rating_change"] for s in state["seats"]], [None, None])
        self.assertEqual([s["rating"] for s in state["seats"]], [1500, 1500])
        for name, seat in (("Ann", 0), ("Bo", 1)):
            p = self.server.http("GET", f"/api/players/{name}")[1]
            self.assertEqual(p["ratings"]["rota"], {"rating": 1500, "deviation": 500, "games": 0})
            g = p["games"][0]
            self.assertEqual((g["id"], g["rated"], g["rating_change"], g["rating_after"]),
                             (game["game"], False, None, None))
            self.assertEqual(g["place"], places(state)[seat])
        self.assertEqual(self.server.http("GET", "/api/leaderboard?variant=rota")[1], [])

    def test_a_leaver_is_ranked_last(self):
        ann, bo = register(self.server, "Ann", PW), register(self.server, "Bo", PW)
        game = create(self.server, ann, rated("square", 3, [human(), human(), ai("random")]))
        joined = join(self.server, bo, game["game"])
        resigned = []

        def resign_first(c):
            if c.seat != 0:
                return None
            if not resigned:  # Ann resigns instead of her first move, then never acts again
                resigned.append(True)
                c.send({"type": "resign"})
            return False
        state = play_to_end(self, [(game["game"], game["token"], 0, ann),
                                   (game["game"], joined["token"], 1, bo)], before_move=resign_first)
        self.assertEqual(state["seats"][0]["left"], "resign")
        # last and alone; its place is 3, or 2 when the other two tie (places are dense)
        self.assertEqual(state["end"]["ranking"][-1], [0])
        self.assertEqual(places(state)[0], len(state["end"]["ranking"]))
        self.assertLess(state["seats"][0]["rating_change"], 0)
        for s in state["seats"]:
            self.assertIsInstance(s["rating_change"], int)
        p = self.server.http("GET", "/api/players/Ann")[1]
        self.assertEqual((p["games"][0]["place"], p["ratings"]["square"]["games"]), (places(state)[0], 1))
        # the computer that finished Ann's seat is not rated for it
        self.assertEqual(self.server.http("GET", "/api/players/greedy")[1]["ratings"]["square"]["games"], 0)

    def test_four_players(self):
        tokens = [register(self.server, n, PW) for n in ("Ann", "Bo", "Cy")]
        game = create(self.server, tokens[0], rated("square", 4, [human(), human(), human(), ai("greedy")]))
        seats = [(game["game"], game["token"], 0, tokens[0])]
        for t in tokens[1:]:
            j = join(self.server, t, game["game"])
            seats.append((game["game"], j["token"], j["seat"], t))
        state = play_to_end(self, seats)
        changes = [s["rating_change"] for s in state["seats"]]
        self.assertTrue(all(isinstance(c, int) for c in changes), changes)
        self.assertLessEqual(abs(sum(changes)), 3)  # equal newcomers: changes add up to zero
        place = places(state)
        for a in range(4):
            for b in range(4):
                if place[a] < place[b]:
                    self.assertGreater(changes[a], changes[b], (place, changes))
        board = self.server.http("GET", "/api/leaderboard?variant=square")[1]
        self.assertEqual(len(board), 4)
        self.assertEqual([e["computer"] for e in board if e["name"] == "greedy"], [True])
        self.assertEqual([e["rating"] for e in board], sorted((e["rating"] for e in board), reverse=True))

    def test_hex_team_game(self):
        ann, bo = register(self.server, "Ann", PW), register(self.server, "Bo", PW)
        game = create(self.server, ann, rated("hex", 4, [human(), human(), ai("random"), ai("greedy")],
                                              mode="team"))
        j = join(self.server, bo, game["game"])
        state = play_to_end(self, [(game["game"], game["token"], 0, ann), (game["game"], j["token"], 1, bo)])
        changes = [s["rating_change"] for s in state["seats"]]
        place = places(state)
        self.assertEqual(place[0], place[2])
        self.assertEqual(place[1], place[3])
        self.assertEqual(changes[0], changes[2])  # partners, equally new, share the change
        self.assertEqual(changes[1], changes[3])
        for name in ("Ann", "Bo", "random", "greedy"):
            self.assertEqual(self.server.http("GET", f"/api/players/{name}")[1]["ratings"]["hex"]["games"], 1)


class Leaderboard(ServerTest):
    def test_order_and_provisional(self):
        """Settled players (D <= 200) first by R, then the provisional ones."""
        self.assertEqual(self.server.stop(), 0)
        rows = [("Low", 1400.0, 150.0, 40), ("High", 1700.0, 190.0, 35), ("New", 1900.0, 450.0, 2),
                ("Newer", 1600.0, 480.0, 1), ("Tie", 1700.0, 120.0, 50)]
        for i, (name, mu, sigma, games) in enumerate(rows):
            db_query(self.db, "INSERT INTO accounts(id, name, name_key, password_hash, computer,"
                     " created_at) VALUES(?, ?, ?, 'x', 0, 0)", 100 + i, name, name.lower())
            db_query(self.db, "INSERT INTO ratings VALUES(?, 'rota', ?, ?, ?)", 100 + i, mu, sigma,
                     games)
        self.server = Server(self.db)
        board = self.server.http("GET", "/api/leaderboard?variant=rota")[1]
        self.assertEqual([(e["name"], e["provisional"]) for e in board],
                         [("Tie", False), ("High", False), ("Low", False), ("New", True),
                          ("Newer", True)])


@unittest.skipIf(ON_POSTGRESQL, "SQLite's schema 3; PostgreSQL databases start at 6")
class Migration(unittest.TestCase):
    """A database written by the release before accounts (schema 3) opens,
    migrates to the newest schema and keeps its games playable."""

    def test_schema_3_is_migrated(self):
        fixtures = os.path.join(SRC, "tests", "server", "fixtures")
        with open(os.path.join(fixtures, "schema3.json")) as f:
            fx = json.load(f)
        tmp = tempfile.TemporaryDirectory()
        db = os.path.join(tmp.name, "old.db")
        shutil.copy(os.path.join(fixtures, "schema3.db"), db)
        con = sqlite3.connect(db)
        self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], 3)
        con.close()
        server = Server(db, "--msg-rate", "1000")
        try:
            test = _Player(server)
            over = server.http("GET", f"/api/games/{fx['over']['game']}")[1]
            self.assertEqual(over["status"], "over")
            self.assertFalse(over["rated"])
            self.assertEqual([(s["name"], s["account"], s["rating"], s["rating_change"])
                              for s in over["seats"]],
                             [("Cy", False, None, None), ("Di", False, None, None)])
            self.assertEqual(server.http("GET", f"/api/games/{fx['over']['game']}/record")[0], 200)
            listed = server.http("GET", "/api/games?status=over")[1]
            self.assertEqual([g["rated"] for g in listed], [False])
            # the waiting game takes an account; the running one plays on to its end
            ann = register(server, "Ann", PW)
            joined = join(server, ann, fx["waiting"]["game"])
            self.assertEqual(joined["seat"], 1)
            state = server.http("GET", f"/api/games/{fx['waiting']['game']}")[1]
            self.assertEqual([(s["name"], s["account"]) for s in state["seats"]],
                             [("Bo", False), ("Ann", True)])
            running = fx["running"]
            final = play_to_end(test, [(running["game"], running["token"], running["seat"])])
            self.assertEqual(final["status"], "over")
            self.assertFalse(final["rated"])
            test.close()
            self.assertEqual(server.stop(), 0, server.errors())
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            try:
                self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], 10)
                self.assertEqual(con.execute("SELECT count(*) FROM games").fetchone()[0], 3)
                self.assertEqual([r[0] for r in con.execute(
                    "SELECT name FROM accounts WHERE computer = 1 ORDER BY id")],
                    ["random", "greedy", "strong", "expert"])  # one rated player per level
            finally:
                con.close()
        finally:
            server.kill()
            tmp.cleanup()


class _Player:
    """What play_to_end needs of a test: connect() that keeps its clients."""

    def __init__(self, server):
        self.server = server
        self.clients = []

    def connect(self, game, token=None, seat=None, **kw):
        from harness import Client
        c = Client(self.server, game, token, seat, **kw)
        self.clients.append(c)
        c.wait_type("history")
        return c

    def close(self):
        for c in self.clients:
            c.close()


if __name__ == "__main__":
    unittest.main()
