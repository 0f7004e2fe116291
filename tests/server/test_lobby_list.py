"""The lobby's public list and the games nobody can finish (docs/online-play.md, "Games
nobody finishes"; docs/protocol.md, "The lobby"), on the real server with a short
--absent-s: a game against the computer whose players all left ends under rules 6 (they
leave as absent) and leaves the list; a game with a clock, one with a person connected and
one of people only stay; a guided game is never listed, running or finished. The list:
games with a person connected first, newest first, filtered by status and variant, paged
with a limit and a cursor; every bad argument is a 400."""
import time

from harness import Client, ServerTest, TIMEOUT, check_record

HUMAN = {"kind": "human"}
GREEDY = {"kind": "ai", "level": "greedy"}
ABSENT_S = 2
HOUSEKEEPING_S = 5  # the server's housekeeping timer


def create(server, variant, seats, name="Ann", **extra):
    body = {"variant": variant, "players": len(seats), "name": name, "seats": seats, **extra}
    status, value, _ = server.http("POST", "/api/games", body)
    assert status == 201, (status, value)
    return value


class LobbyList(ServerTest):
    server_args = ("--absent-s", str(ABSENT_S), "--msg-rate", "1000", "--request-rate", "1000",
                   "--max-games-per-ip", "100", "--max-waiting-per-ip", "100")

    def listed(self, query=""):
        status, value, _ = self.server.http("GET", "/api/games" + query)
        self.assertEqual(status, 200, value)
        return value

    def status_of(self, game):
        return self.server.http("GET", f"/api/games/{game}")[1]["status"]

    def wait_status(self, game, status, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status_of(game) == status:
                return
            time.sleep(0.25)
        self.fail(f"game {game} is {self.status_of(game)}, not {status}, after {timeout} s")

    def test_a_game_nobody_can_finish_ends(self):
        # A guest against the computer closes the tab (the connection goes).
        alone = create(self.server, "square", [HUMAN, GREEDY])
        Client(self.server, alone["game"], alone["token"], 0).close()
        # Three sides: the person leaves, the computers play it out.
        three = create(self.server, "hex", [HUMAN, GREEDY, GREEDY])
        Client(self.server, three["game"], three["token"], 0).close()
        # These stay: a person still connected; a clock (it ends the game in its own time);
        # people only (no computer could go on).
        kept = create(self.server, "rota", [HUMAN, GREEDY])
        self.connect(kept["game"], kept["token"], 0)
        timed = create(self.server, "square", [HUMAN, GREEDY],
                       clock={"kind": "realtime", "base_s": 600, "increment_s": 0})
        Client(self.server, timed["game"], timed["token"], 0).close()
        people = create(self.server, "square", [HUMAN, HUMAN])
        bo = self.server.join(people["game"], "Bo")
        Client(self.server, people["game"], people["token"], 0).close()
        Client(self.server, people["game"], bo["token"], 1).close()
        listed = {g["id"] for g in self.listed()}
        self.assertTrue({alone["game"], three["game"], kept["game"], timed["game"],
                         people["game"]} <= listed)

        limit = ABSENT_S + HOUSEKEEPING_S + 5
        self.wait_status(alone["game"], "over", limit)
        self.wait_status(three["game"], "over", limit + 60)
        for g in (kept, timed, people):
            self.assertEqual(self.status_of(g["game"]), "running", g)
        listed = {g["id"] for g in self.listed()}
        self.assertNotIn(alone["game"], listed, "an ended game leaves the running list")
        self.assertNotIn(three["game"], listed)
        over = {g["id"]: g for g in self.listed("?status=over")}
        self.assertEqual(over[alone["game"]]["end"]["reason"], "left")
        self.assertEqual(over[alone["game"]]["end"]["ranking"], [[1], [0]])

        # rules 6 in the record: the person left as absent, nothing else changed.
        watcher = self.connect(alone["game"])
        leaves = [e for e in watcher.events if e["ev"] == "leave"]
        self.assertEqual(leaves, [{"ev": "leave", "player": 0, "why": "absent"}])
        watcher3 = self.connect(three["game"])
        self.assertEqual([e for e in watcher3.events if e["ev"] == "leave"],
                         [{"ev": "leave", "player": 0, "why": "absent"}])
        self.assertNotEqual(watcher3.events[-1]["reason"], "left", "the computers played it out")
        check_record(self, self.server, [watcher])
        check_record(self, self.server, [watcher3])

    def test_guided_games_are_never_listed(self):
        status, guided, _ = self.server.http("POST", "/api/games", {"variant": "square", "guided": True})
        self.assertEqual(status, 201, guided)
        plain = create(self.server, "square", [HUMAN, GREEDY])
        for query in ("", "?status=running", "?status=open", "?limit=100", "?variant=square&limit=5"):
            with self.subTest(query=query):
                value = self.listed(query)
                games = value["games"] if isinstance(value, dict) else value
                ids = {g["id"] for g in games}
                self.assertIn(plain["game"], ids)
                self.assertNotIn(guided["game"], ids)
        # Its player still finds it among their own games.
        mine = self.listed(f"?ids={guided['game']}")
        self.assertEqual([g["id"] for g in mine], [guided["game"]])
        # Left alone it ends like any game against the computer, and is not listed then either.
        self.wait_status(guided["game"], "over", ABSENT_S + HOUSEKEEPING_S + 5)
        self.assertNotIn(guided["game"], {g["id"] for g in self.listed("?status=over")})

    def test_people_first_filters_and_pages(self):
        made = []
        for i, variant in enumerate(["square", "hex", "rota", "square", "hex", "square", "rota"]):
            g = create(self.server, variant, [HUMAN, HUMAN], name=f"P{i}")
            made.append((variant, g))
            time.sleep(1.05)  # distinct creation seconds: newest first is well defined
        # Connected: games 1 and 4 (a person holds their seat); the others' creators left.
        connected = {made[1][1]["game"], made[4][1]["game"]}
        for variant, g in made:
            c = Client(self.server, g["game"], g["token"], 0)
            if g["game"] in connected:
                self.clients.append(c)
                c.wait_type("history")
            else:
                c.close()
        time.sleep(0.5)
        newest_first = [g["game"] for _, g in reversed(made)]
        expected = [g for g in newest_first if g in connected] + [g for g in newest_first if g not in connected]
        self.assertEqual([g["id"] for g in self.listed()], expected, "people first, then newest first")

        # Pages of 3 give the same order, each game once, and end with next null.
        seen, cursor, pages = [], None, 0
        while True:
            page = self.listed("?limit=3" + (f"&cursor={cursor}" if cursor else ""))
            self.assertEqual(set(page), {"games", "next"})
            self.assertLessEqual(len(page["games"]), 3)
            seen += [g["id"] for g in page["games"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
        self.assertEqual(seen, expected)
        self.assertEqual(pages, 3)

        # A variant, a status.
        squares = [g["id"] for g in self.listed("?variant=square&limit=100")["games"]]
        self.assertEqual(squares, [g for g in expected if g in {x["game"] for v, x in made if v == "square"}])
        self.assertEqual(self.listed("?status=running&limit=10")["games"], [])
        self.assertEqual(len(self.listed("?status=waiting&variant=hex&limit=10")["games"]), 2)
        self.assertEqual(len(self.listed("?status=waiting&variant=hex")), 2, "a filter without paging: a list")

        # Bad arguments: 400 with the reason, nothing else.
        for query in ("?limit=0", "?limit=101", "?limit=x", "?limit=", "?cursor=nonsense",
                      "?cursor=2.5.AAAAAAAAAAAA", "?cursor=0.-1.AAAAAAAAAAAA", "?cursor=0.5.short",
                      "?variant=chess", "?status=finished"):
            with self.subTest(query=query):
                status, value, _ = self.server.http("GET", "/api/games" + query)
                self.assertEqual(status, 400, value)
                self.assertEqual(value["error"]["code"], "bad_message")

    def test_ids_lists_a_players_fifty_games(self):
        """The web client asks for up to 50 of its player's games at once (?ids=): every one
        comes back, in the order asked, whatever its status; unknown and malformed ids are
        left out; ids after the fiftieth are not looked at. (Before, 40 or more ids gave [].)"""
        made = [create(self.server, "square", [HUMAN, HUMAN], name=f"N{i}")["game"]
                for i in range(45)]
        cancelled = create(self.server, "hex", [HUMAN, HUMAN])
        status, _, _ = self.server.http("DELETE", f"/api/games/{cancelled['game']}",
                                        headers={"Authorization": "Bearer " + cancelled["token"]})
        self.assertEqual(status, 200)
        asked = made[:20] + ["AAAAAAAAAAAA", "short", cancelled["game"]] + made[20:45]
        self.assertEqual(len(asked), 48)
        got = self.listed("?ids=" + ",".join(asked))
        self.assertEqual([g["id"] for g in got], made[:20] + [cancelled["game"]] + made[20:45])
        self.assertEqual({g["status"] for g in got[:20]}, {"waiting"})
        self.assertEqual(got[20]["status"], "cancelled")
        self.assertEqual(got[20]["seats"][0]["name"], "Ann")
        # Fifty real ids, then more: the first fifty.
        extra = [create(self.server, "rota", [HUMAN, HUMAN])["game"] for _ in range(6)]
        fifty = made + extra[:5]
        got = self.listed("?ids=" + ",".join(fifty + extra[5:]))
        self.assertEqual([g["id"] for g in got], fifty)


if __name__ == "__main__":
    import unittest
    unittest.main()
