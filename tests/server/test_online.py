"""Online play on the real server (docs/online-play.md): clocks that run out and
survive a SIGKILL, resign and claim (rules 6) with every error, the computer taking
a leaver's seat, chat with its limits and history, rematch, the lobby's finished
games, cancel and expiry, and a database of schema 1 migrated at startup (to schema 3). Every
finished game's record passes `axio replay` and the independent referee."""
import json
import os
import sqlite3
import time

import unittest

from harness import (ON_POSTGRESQL, Client, Server, ServerTest, TIMEOUT, check_record,
                     play_until_over)

HUMAN = {"kind": "human"}
GREEDY = {"kind": "ai", "level": "greedy"}


def create(server, variant, seats, clock=None, name="Ann", **extra):
    body = {"variant": variant, "players": len(seats), "name": name, "seats": seats, **extra}
    if clock is not None:
        body["clock"] = clock
    status, value, _ = server.http("POST", "/api/games", body)
    assert status == 201, (status, value)
    return value


def wait_over(client, timeout=TIMEOUT):
    return client.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "over",
                           timeout)["game"]


def leave_events(client):
    return [e for e in client.events if e["ev"] == "leave"]


class Online(ServerTest):
    server_args = ("--absent-s", "1", "--msg-rate", "1000", "--request-rate", "1000")

    def two_humans(self, variant="square", clock=None):
        created = create(self.server, variant, [HUMAN, HUMAN], clock)
        game = created["game"]
        ann = self.connect(game, created["token"], 0)
        bo = self.connect(game, self.server.join(game, "Bo")["token"], 1)
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "running")
        return game, ann, bo, created["token"]

    def expect_error(self, client, message, code):
        client.send(message)
        reply = client.wait_for(lambda m: m["type"] in ("error", "chat", "rematch"))
        self.assertEqual((reply["type"], reply.get("code")), ("error", code), reply)

    # --- clocks ---

    def test_clock_settings_are_checked(self):
        bad = [{"kind": "realtime", "base_s": 0, "increment_s": 0},
               {"kind": "realtime", "base_s": 10801, "increment_s": 0},
               {"kind": "realtime", "base_s": 60, "increment_s": 601},
               {"kind": "realtime", "base_s": 60},
               {"kind": "daily", "per_move_s": 59}, {"kind": "daily", "per_move_s": 1209601},
               {"kind": "blitz"}, "3+2", 5, []]
        for clock in bad:
            with self.subTest(clock=clock):
                status, value, _ = self.server.http(
                    "POST", "/api/games", {"variant": "hex", "players": 2, "seats": [HUMAN, HUMAN],
                                           "clock": clock})
                self.assertEqual(status, 400, value)
                self.assertEqual(value["error"]["code"], "bad_message")
        self.assertEqual(self.server.http("GET", "/api/games")[1], [], "a refused game was kept")

    def test_realtime_clock_increment_and_deadline(self):
        game, ann, bo, _ = self.two_humans(clock={"kind": "realtime", "base_s": 60, "increment_s": 5})
        g = ann.state["game"]
        self.assertEqual(g["clock"], {"kind": "realtime", "base_s": 60, "increment_s": 5})
        self.assertEqual(g["clocks"][1], 60000, "the clock of the seat not to move runs")
        self.assertGreater(g["deadline"], int(time.time() * 1000))
        time.sleep(0.5)
        ann.act()
        st = ann.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] == 1)["game"]
        self.assertTrue(64000 <= st["clocks"][0] <= 64600, st["clocks"])
        self.assertEqual(st["to_move"], 1)
        self.assertLessEqual(abs(st["deadline"] - time.time() * 1000 - st["clocks"][1]), 1500)

    def test_daily_clock_gives_each_decision_its_allowance(self):
        game, ann, bo, _ = self.two_humans(clock={"kind": "daily", "per_move_s": 86400})
        time.sleep(0.3)
        ann.act()
        st = ann.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] == 1)["game"]
        self.assertGreater(st["clocks"][0], 86399000 - 1500)
        self.assertGreater(st["clocks"][1], 86400000 - 1500)

    def test_clock_runs_out(self):
        game, ann, bo, _ = self.two_humans(clock={"kind": "realtime", "base_s": 2, "increment_s": 0})
        start = time.monotonic()
        over = wait_over(bo, 10)
        elapsed = time.monotonic() - start
        self.assertTrue(1.5 <= elapsed <= 5, elapsed)
        self.assertEqual(leave_events(bo), [{"ev": "leave", "player": 0, "why": "timeout"}])
        self.assertEqual(over["end"]["reason"], "left")
        self.assertEqual(over["end"]["ranking"], [[1], [0]])
        self.assertEqual(over["seats"][0]["left"], "timeout")
        self.assertEqual(over["clocks"][0], 0)
        wait_over(ann)
        check_record(self, self.server, [ann, bo])

    # --- leaving ---

    def test_resign_ends_a_two_player_game(self):
        game, ann, bo, _ = self.two_humans("hex")
        bo.send({"type": "resign"})  # not Bo's turn: a leave is allowed at any moment
        over = wait_over(ann)
        self.assertEqual(over["end"]["ranking"], [[0], [1]])
        self.assertEqual(over["seats"][1]["left"], "resign")
        self.assertIsNone(over["seats"][1]["played_by"], "nobody plays a finished game")
        wait_over(bo)
        self.expect_error(bo, {"type": "resign"}, "unauthorized")
        self.expect_error(ann, {"type": "resign"}, "game_over")
        self.expect_error(ann, {"type": "claim"}, "game_over")
        check_record(self, self.server, [ann, bo])

    def test_resign_before_the_start_and_by_a_spectator(self):
        created = create(self.server, "square", [HUMAN, HUMAN])
        ann = self.connect(created["game"], created["token"], 0)
        self.expect_error(ann, {"type": "resign"}, "not_started")
        self.expect_error(ann, {"type": "claim"}, "not_started")
        spectator = self.connect(created["game"])
        self.expect_error(spectator, {"type": "resign"}, "unauthorized")
        self.expect_error(spectator, {"type": "claim"}, "unauthorized")

    def test_three_players_the_computer_takes_the_seat_of_a_leaver(self):
        created = create(self.server, "rota", [HUMAN, HUMAN, HUMAN])
        game = created["game"]
        ann = self.connect(game, created["token"], 0)
        bo = self.connect(game, self.server.join(game, "Bo")["token"], 1)
        cy = self.connect(game, self.server.join(game, "Cy")["token"], 2)
        bo.send({"type": "resign"})
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["seats"][1]["left"] == "resign")
        st = ann.state["game"]
        self.assertEqual(st["status"], "running")
        self.assertEqual(st["seats"][1]["played_by"], "greedy")
        for message in ({"type": "resign"}, {"type": "claim"}, {"type": "swap", "accept": True},
                        {"type": "place", "rack_index": 0, "cell": [2, 0], "rotation": 0,
                         "wild": None}):
            self.expect_error(bo, message, "unauthorized")
        bo.send({"type": "chat", "text": "good luck"})  # a leaver may still talk
        bo.wait_type("chat")
        # Ann and Cy play on; the computer plays Bo's turns.
        over = play_until_over([ann, cy], timeout=180)["game"]
        self.assertEqual(over["end"]["ranking"][-1], [1], "the leaver ranks last")
        computer_moves = [e for e in ann.events if e["ev"] == "place" and e["player"] == 1]
        self.assertGreater(len(computer_moves), 5, "the computer played for Bo")
        bo.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "over")
        check_record(self, self.server, [ann, bo, cy])

    def test_last_player_standing(self):
        created = create(self.server, "square", [HUMAN, HUMAN, HUMAN, GREEDY])
        game = created["game"]
        ann = self.connect(game, created["token"], 0)
        bo = self.connect(game, self.server.join(game, "Bo")["token"], 1)
        cy = self.connect(game, self.server.join(game, "Cy")["token"], 2)
        cy.send({"type": "resign"})
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["seats"][2]["left"])
        ann.send({"type": "resign"})
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["seats"][0]["left"])
        bo.send({"type": "resign"})
        over = wait_over(cy)
        self.assertEqual(over["end"]["reason"], "left")
        self.assertEqual(over["end"]["ranking"], [[3], [1], [0], [2]])
        for c in (ann, bo):
            wait_over(c)
        check_record(self, self.server, [ann, bo, cy])

    def test_claim(self):
        game, ann, bo, _ = self.two_humans()
        self.expect_error(bo, {"type": "claim"}, "not_absent")  # Ann is connected
        self.expect_error(ann, {"type": "claim"}, "bad_message")  # Ann is to move
        spectator = self.connect(game)
        ann.close()
        self.clients.remove(ann)
        st = bo.wait_presence(lambda g: g["seats"][0]["away_ms"] is not None)
        self.assertFalse(st["game"]["seats"][0]["connected"])
        self.assertEqual(st["game"]["absent_s"], 1)
        self.expect_error(spectator, {"type": "claim"}, "unauthorized")
        time.sleep(1.2)
        bo.send({"type": "claim"})
        over = wait_over(bo)
        self.assertEqual(leave_events(bo), [{"ev": "leave", "player": 0, "why": "absent"}])
        self.assertEqual(over["end"]["ranking"], [[1], [0]])
        wait_over(spectator)
        check_record(self, self.server, [bo, spectator])

    def test_no_claim_against_a_computer(self):
        created = create(self.server, "hex", [HUMAN, {"kind": "ai", "level": "strong"}])
        ann = self.connect(created["game"], created["token"], 0)
        ann.act()
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["to_move"] == 1)
        self.expect_error(ann, {"type": "claim"}, "not_absent")

    # --- chat ---

    def test_chat(self):
        game, ann, bo, _ = self.two_humans()
        spectator = self.connect(game)
        self.assertEqual(spectator.wait_type("chat_history")["messages"], [])
        text = "<b>hi</b> <script>alert(1)</script> Ünïcödé ☺ 漢字"
        ann.send({"type": "chat", "text": text})
        for c in (ann, bo, spectator):
            msg = c.wait_type("chat")
            self.assertEqual(msg["text"], text)
            self.assertEqual(msg["from"], {"seat": 0, "name": "Ann"})
            self.assertIsInstance(msg["at"], int)
        spectator.send({"type": "chat", "text": "x" * 500})
        for c in (ann, bo, spectator):
            msg = c.wait_type("chat")
            self.assertEqual(msg["from"], {"seat": None, "name": "spectator"})
        for bad in ["", "x" * 501, "a\nb", "tab\t", "del\x7f", "c1\x85", 5, None, ["x"]]:
            with self.subTest(text=bad):
                self.expect_error(ann, {"type": "chat", "text": bad}, "bad_message")
        self.expect_error(ann, {"type": "chat"}, "bad_message")
        # the rate limit: a burst of five, then refused
        codes = []
        for i in range(8):
            bo.send({"type": "chat", "text": f"m{i}"})
            codes.append(bo.wait_for(lambda m: m["type"] in ("chat", "error") and (
                m["type"] == "error" or m["from"]["seat"] == 1))["type"])
        self.assertIn("error", codes)
        # kept with the game: the history after a restart
        self.server.stop()
        self.server = Server(self.db, *self.server_args)
        again = Client(self.server, game)
        self.clients = [again]
        again.wait_type("history")
        history = again.wait_type("chat_history")["messages"]
        self.assertEqual(history[0]["text"], text)
        self.assertEqual(history[1]["text"], "x" * 500)
        self.assertEqual(len(history), 2 + codes.count("chat"))

    # --- rematch ---

    def test_rematch(self):
        created = create(self.server, "square", [HUMAN, HUMAN, GREEDY],
                         clock={"kind": "realtime", "base_s": 600, "increment_s": 0})
        game = created["game"]
        ann = self.connect(game, created["token"], 0)
        bo = self.connect(game, self.server.join(game, "Bo")["token"], 1)
        self.expect_error(ann, {"type": "rematch"}, "not_over")
        spectator = self.connect(game)
        ann.send({"type": "resign"})
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["seats"][0]["left"])
        bo.send({"type": "resign"})
        wait_over(ann)
        wait_over(bo)
        check_record(self, self.server, [ann, bo])
        self.expect_error(spectator, {"type": "rematch"}, "unauthorized")
        ann.send({"type": "rematch"})
        first = ann.wait_type("rematch")
        self.assertEqual(first["seat"], 1, "seat 0 moves on to seat 1")
        st = bo.wait_for(lambda m: m["type"] == "state" and m["game"]["rematch_seats"] == [0])
        self.assertEqual(st["game"]["rematch"], first["game"])
        status, value, _ = self.server.http("POST", f"/api/games/{first['game']}/join", {"name": "Eve"})
        self.assertEqual((status, value["error"]["code"]), (409, "full"), "the seats are reserved")
        bo.send({"type": "rematch"})
        second = bo.wait_type("rematch")
        self.assertEqual((second["game"], second["seat"]), (first["game"], 2))
        status, new, _ = self.server.http("GET", f"/api/games/{first['game']}")
        self.assertEqual(new["status"], "running")
        self.assertEqual([s["name"] for s in new["seats"]], ["greedy (AI)", "Ann", "Bo"])
        self.assertEqual([s["kind"] for s in new["seats"]], ["ai", "human", "human"])
        self.assertEqual(new["clock"], {"kind": "realtime", "base_s": 600, "increment_s": 0})
        self.assertEqual(new["rematch_of"], game)
        # asking again: the same seat with a fresh token; the old token stops working
        ann.send({"type": "rematch"})
        third = ann.wait_type("rematch")
        self.assertEqual((third["game"], third["seat"]), (first["game"], 1))
        self.assertNotEqual(third["token"], first["token"])
        Client(self.server, first["game"], third["token"], 1).close()
        # the link survives a restart
        self.server.stop()
        self.server = Server(self.db, *self.server_args)
        self.clients = []
        status, old, _ = self.server.http("GET", f"/api/games/{game}")
        self.assertEqual(old["rematch"], first["game"])
        self.assertEqual(old["rematch_seats"], [0, 1])

    # --- the lobby ---

    def test_finished_games_and_my_games(self):
        game, ann, bo, token = self.two_humans()
        bo.send({"type": "resign"})
        wait_over(ann)
        status, finished, _ = self.server.http("GET", "/api/games?status=over")
        self.assertEqual(status, 200)
        self.assertEqual([g["id"] for g in finished], [game])
        self.assertEqual(finished[0]["end"]["reason"], "left")
        self.assertEqual(finished[0]["end"]["ranking"], [[0], [1]])
        self.assertIsInstance(finished[0]["ended"], int)
        self.assertEqual(self.server.http("GET", "/api/games")[1], [], "finished games leave the lobby")
        status, mine, _ = self.server.http("GET", f"/api/games?ids={game},nosuchgame00,,x")
        self.assertEqual([g["id"] for g in mine], [game])
        self.assertEqual(mine[0]["end"], {"reason": "left", "ranking": [[0], [1]]})
        self.assertEqual([s["left"] for s in mine[0]["seats"]], [None, "resign"])
        self.assertEqual(self.server.http("GET", "/api/games?status=later")[0], 400)

    def test_cancel(self):
        created = create(self.server, "hex", [HUMAN, HUMAN])
        game, token = created["game"], created["token"]
        ann = self.connect(game, token, 0)
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": token}):
            status, value, _ = self.server.http("DELETE", f"/api/games/{game}", headers=headers)
            self.assertEqual((status, value["error"]["code"]), (401, "unauthorized"), headers)
        status, value, _ = self.server.http("DELETE", f"/api/games/{game}",
                                            headers={"Authorization": f"Bearer {token}"})
        self.assertEqual((status, value), (200, {"status": "cancelled"}))
        st = ann.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "cancelled")
        self.assertEqual(self.server.http("GET", "/api/games")[1], [])
        status, value, _ = self.server.http("POST", f"/api/games/{game}/join", {"name": "Bo"})
        self.assertEqual((status, value["error"]["code"]), (409, "cancelled"))
        status, value, _ = self.server.http("DELETE", f"/api/games/{game}",
                                            headers={"Authorization": f"Bearer {token}"})
        self.assertEqual((status, value["error"]["code"]), (409, "not_waiting"))
        self.expect_error(ann, {"type": "place", "rack_index": 0, "cells": [[0, 0], [0, 1]]},
                          "game_over")
        # a running game is not cancelled, not even by its creator
        game2, ann2, bo2, token2 = self.two_humans()
        status, value, _ = self.server.http("DELETE", f"/api/games/{game2}",
                                            headers={"Authorization": f"Bearer {token2}"})
        self.assertEqual((status, value["error"]["code"]), (409, "not_waiting"))
        joined = self.server.http("GET", f"/api/games/{game2}")[1]
        self.assertEqual(joined["status"], "running")

    def test_malformed_utf8_in_json_gets_its_error(self):
        created = create(self.server, "hex", [HUMAN, HUMAN])
        ann = self.connect(created["game"], created["token"], 0)
        raw = b'{"type":"ping","x":"\\\xc3\xa9"}'
        ann.ws.send_frame(1, raw)
        reply = ann.wait_type("error")
        self.assertEqual(reply["code"], "bad_json")
        status, value, _ = self.server.http("POST", "/api/games", raw=raw,
                                            headers={"Content-Type": "application/json"})
        self.assertEqual((status, value["error"]["code"]), (400, "bad_json"))
        for raw in (b'{"a":"\xff"}', b'{"a":"\xed\xa0\x80"}', b'{"\\u00', b'["\xc3'):
            status, value, _ = self.server.http("POST", "/api/games", raw=raw)
            self.assertEqual(status, 400, raw)


class Expiry(ServerTest):
    server_args = ("--waiting-ttl-s", "1")

    def test_waiting_games_expire_when_their_creator_is_gone(self):
        created = create(self.server, "square", [HUMAN, HUMAN])
        kept = create(self.server, "square", [HUMAN, HUMAN])
        keeper = self.connect(kept["game"], kept["token"], 0)  # stays connected
        ids = lambda: [g["id"] for g in self.server.http("GET", "/api/games")[1]]
        self.assertEqual(set(ids()), {created["game"], kept["game"]})
        deadline = time.monotonic() + 15
        while created["game"] in ids():
            self.assertLess(time.monotonic(), deadline, "the abandoned game never expired")
            time.sleep(0.3)
        self.assertEqual(ids(), [kept["game"]])
        status, value, _ = self.server.http("POST", f"/api/games/{created['game']}/join", {"name": "B"})
        self.assertEqual((status, value["error"]["code"]), (409, "expired"))
        self.assertEqual(self.server.http("GET", f"/api/games/{created['game']}")[1]["status"], "expired")
        # expired stays expired after a restart, and is not resumed
        self.server.stop()
        self.server = Server(self.db, *self.server_args)
        self.clients = []
        self.assertNotIn(created["game"], ids())
        keeper.close()


class ClockAcrossRestart(ServerTest):
    def test_sigkill_does_not_charge_the_downtime(self):
        created = create(self.server, "hex", [HUMAN, HUMAN],
                         clock={"kind": "realtime", "base_s": 8, "increment_s": 0})
        game = created["game"]
        ann = self.connect(game, created["token"], 0)
        bo_token = self.server.join(game, "Bo")["token"]
        ann.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "running")
        time.sleep(2.0)
        self.server.kill()
        self.clients = []
        time.sleep(3.0)  # downtime: charged to no one
        self.server = Server(self.db)
        bo = self.connect(game, bo_token, 1)
        # from when the game is back: at once on SQLite, once the killed server's lease
        # ran out on PostgreSQL (docs/server.md, "Several servers")
        restarted = time.monotonic()
        left = bo.state["game"]["clocks"][0]
        # 8 s less the 2 s before the kill; the clocks are saved twice a second
        self.assertTrue(5700 <= left <= 6900, f"Ann had about 6 s left, the state says {left} ms")
        over = wait_over(bo, 20)
        ran_out_after = time.monotonic() - restarted
        self.assertTrue(left / 1000 - 0.5 <= ran_out_after <= left / 1000 + 2.0,
                        f"{left} ms left, ran out after {ran_out_after:.1f} s")
        self.assertEqual(leave_events(bo), [{"ev": "leave", "player": 0, "why": "timeout"}])
        self.assertEqual(over["end"]["ranking"], [[1], [0]])


@unittest.skipIf(ON_POSTGRESQL, "SQLite's schema 1; PostgreSQL databases start at 6")
class Migration(ServerTest):
    """A database written by the release before online play opens and migrates."""

    def setUp(self):
        import tempfile
        self.tmp = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.tmp.name, "old.db")
        con = sqlite3.connect(self.db)
        con.executescript(
            "CREATE TABLE games(id TEXT PRIMARY KEY, variant TEXT NOT NULL, players INTEGER NOT NULL,"
            " mode TEXT NOT NULL, seed TEXT NOT NULL, status TEXT NOT NULL,"
            " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);"
            "CREATE INDEX games_status ON games(status, created_at);"
            "CREATE TABLE seats(game_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,"
            " level TEXT, name TEXT NOT NULL, token_hash TEXT, PRIMARY KEY(game_id, seat));"
            "CREATE TABLE decisions(game_id TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL,"
            " decision TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY(game_id, ply));"
            "PRAGMA application_id = 1096304975; PRAGMA user_version = 1;")
        con.execute("INSERT INTO games VALUES('oldgame00001','square',2,'standard','42','running',1,1)")
        con.execute("INSERT INTO seats VALUES('oldgame00001',0,'human',NULL,'Ann','ab')")
        con.execute("INSERT INTO seats VALUES('oldgame00001',1,'ai','greedy','greedy (AI)',NULL)")
        con.commit()
        con.close()
        self.server = Server(self.db)
        self.clients = []

    def test_schema_1_is_migrated(self):
        status, game, _ = self.server.http("GET", "/api/games/oldgame00001")
        self.assertEqual(status, 200, game)
        self.assertEqual(game["status"], "running")
        self.assertIsNone(game["clock"])
        # a game stored before rules versions was played under the only rules there were
        self.assertEqual(game["rules"], "axio-rules/1")
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], 10)
            self.assertEqual(con.execute("SELECT rules, damage FROM games").fetchall(),
                             [("axio-rules/1", None)])
        finally:
            con.close()


if __name__ == "__main__":
    import unittest
    unittest.main()
