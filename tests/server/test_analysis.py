"""Post-game analysis on request: GET /api/games/{id}/analysis?seat=S answers 202
with the progress while the server's analysing thread judges the seat's
decisions, then 200 with them (the same judgements as `axio analyse --json`, each
with the loss's standard error and whether it is a mistake); the result is kept with
the game: the same answer again, after a restart too; one stored by an earlier judge
is judged again. The hints and the analysis are one judge: a game played by
following every hint has no mistake, and every hinted decision is the judge's best.
Errors: a game not over (403), a bad or missing seat (400), no such game (404), too
many analyses at once (503)."""
import json
import time
import unittest

from harness import Server, ServerTest, play_until_over

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "random"}


class Analysis(ServerTest):
    server_args = ("--msg-rate", "1000", "--judge-playouts", "1000",  # the default 6000 is slow under ASan
                   "--trusted-proxy", "127.0.0.1")

    def finished_game(self, variant="square", seats=(HUMAN, AI), mode=None):
        created = self.server.create(variant, list(seats), mode=mode)
        me = self.connect(created["game"], created["token"], created["seat"])
        play_until_over([me])
        return created["game"]

    def wait_analysis(self, game, seat, timeout=120):
        deadline = time.monotonic() + timeout
        seen_progress = []
        while True:
            status, value, _ = self.server.http("GET", f"/api/games/{game}/analysis?seat={seat}")
            if status == 200:
                return value, seen_progress
            self.assertEqual(status, 202, value)
            self.assertEqual(value["status"], "working")
            self.assertLessEqual(value["judged"], value["total"])
            seen_progress.append(value)
            self.assertLess(time.monotonic(), deadline, "the analysis did not finish")
            time.sleep(0.3)

    def check_result(self, result, game, seat, value_kind):
        self.assertEqual(result["game"], game)
        self.assertEqual(result["seat"], seat)
        self.assertEqual(result["value"], value_kind)
        self.assertGreater(len(result["decisions"]), 0)
        plies = [d["ply"] for d in result["decisions"]]
        self.assertEqual(plies, sorted(plies))
        for d in result["decisions"]:
            self.assertEqual(set(d), {"ply", "kind", "played", "best", "value_played", "value_best",
                                      "loss_se", "mistake", "samples", "candidates"})
            self.assertIn(d["kind"], ("place", "bonus", "swap"))
            self.assertGreaterEqual(d["value_best"], d["value_played"] - 1e-9)
            self.assertGreaterEqual(d["loss_se"], 0)
            loss = d["value_best"] - d["value_played"]
            judge = result["judge"]
            # a mistake is a loss clearly above the threshold, never within the noise
            self.assertEqual(d["mistake"], loss - judge["sigmas"] * d["loss_se"] > judge["threshold"], d)
            for m in (d["played"], d["best"]):
                self.assertIn(m["ev"], ("place", "swap"))
                self.assertEqual(m["player"], seat)

    def test_analysis_of_a_finished_game_is_computed_once_and_kept(self):
        game = self.finished_game()
        status, first, _ = self.server.http("GET", f"/api/games/{game}/analysis?seat=0")
        self.assertEqual(status, 202, first)
        self.assertEqual(first["judged"], 0)
        total = first["total"]
        self.assertGreater(total, 0)
        result, _ = self.wait_analysis(game, 0)
        self.check_result(result, game, 0, "win_chance")
        self.assertEqual(result["judge"], {"playouts": 1000, "threshold": 0.02, "sigmas": 3.0},
                         "the server's judge (its default is 6000: test_http)")
        self.assertEqual(len(result["decisions"]), total)
        status, again, _ = self.server.http("GET", f"/api/games/{game}/analysis?seat=0")
        self.assertEqual((status, again), (200, result))
        # the other seat (the computer's) is analysed on its own
        other, _ = self.wait_analysis(game, 1)
        self.check_result(other, game, 1, "win_chance")
        # a restart keeps both: answered at once from the store
        self.assertEqual(self.server.stop(), 0)
        self.server = Server(self.db, *self.server_args)
        for seat, expected in ((0, result), (1, other)):
            status, kept, _ = self.server.http("GET", f"/api/games/{game}/analysis?seat={seat}")
            self.assertEqual((status, kept), (200, expected))

    def test_solo_analysis_values_the_result(self):
        game = self.finished_game("rota", (HUMAN,), mode="solo")
        result, _ = self.wait_analysis(game, 0)
        self.check_result(result, game, 0, "solo_result")

    def test_errors(self):
        created = self.server.create("square", [HUMAN, AI])
        running = created["game"]
        status, value, _ = self.server.http("GET", f"/api/games/{running}/analysis?seat=0")
        self.assertEqual((status, value["error"]["code"]), (403, "forbidden"))
        game = self.finished_game()
        for query in ("", "?seat=", "?seat=2", "?seat=-1", "?seat=x", "?seat=0x1", "?seat=99999999999"):
            status, value, _ = self.server.http("GET", f"/api/games/{game}/analysis{query}")
            self.assertEqual((status, value["error"]["code"]), (400, "bad_message"), query)
        status, value, _ = self.server.http("GET", "/api/games/nosuchgame/analysis?seat=0")
        self.assertEqual((status, value["error"]["code"]), (404, "not_found"))
        status, value, _ = self.server.http("POST", f"/api/games/{game}/analysis?seat=0", {})
        self.assertEqual(status, 405)

    def test_too_many_at_once(self):
        """Eight requests (of eight addresses) wait at most; an address has two at a time."""
        games = [self.finished_game() for _ in range(10)]
        answers = [self.server.http("GET", f"/api/games/{g}/analysis?seat=0",
                                    headers={"X-Forwarded-For": f"10.9.0.{i}"})[:2]
                   for i, g in enumerate(games[:9])]
        self.assertEqual([s for s, _ in answers[:8]], [202] * 8)
        self.assertEqual(answers[8][0], 503)
        self.assertEqual(answers[8][1]["error"]["code"], "busy")
        status, value, headers = self.server.http("GET", f"/api/games/{games[9]}/analysis?seat=0",
                                                  headers={"X-Forwarded-For": "10.9.0.0"})
        self.assertEqual((status, value["error"]["code"]), (503, "busy"))
        self.assertEqual({k.lower(): v for k, v in headers.items()}.get("retry-after"), "30")


class QuickAnalysis(ServerTest):
    """`axio serve --judge-playouts N` sets the judge's playouts per decision (the browser
    tests use few); the result says which it was. The hints are the same judge's best:
    a game played on the hints has no mistake, and each hinted decision is the best."""
    # three games played on hints ask for 50 to 70: more than an address's 60 in 10 minutes
    server_args = ("--msg-rate", "1000", "--judge-playouts", "400", "--max-hints-per-ip", "1000")

    def test_playouts_per_decision_are_the_option(self):
        created = self.server.create("square", [HUMAN, AI])
        me = self.connect(created["game"], created["token"], created["seat"])
        play_until_over([me])
        started = time.monotonic()
        deadline = started + 60
        while True:
            status, value, _ = self.server.http("GET", f"/api/games/{created['game']}/analysis?seat=0")
            if status == 200:
                break
            self.assertEqual(status, 202, value)
            self.assertLess(time.monotonic(), deadline, "the analysis did not finish")
            time.sleep(0.1)
        self.assertEqual(value["judge"]["playouts"], 400)
        self.assertGreater(len(value["decisions"]), 0)

    def test_a_game_played_on_the_hints_has_no_mistake(self):
        for variant, seats in (("square", [HUMAN, {"kind": "ai", "level": "greedy"}]),
                               ("hex", [HUMAN, {"kind": "ai", "level": "greedy"}]),
                               ("rota", [HUMAN])):
            with self.subTest(variant=variant):
                created = self.server.create(variant, seats, mode="solo" if len(seats) == 1 else None)
                me = self.connect(created["game"], created["token"], created["seat"], hint=False)
                hinted = {}
                while True:
                    if me.state is None or me.state["game"]["status"] == "running" and \
                            me.state["game"]["to_move"] != 0:
                        me.wait_for(lambda m: m["type"] == "state" and (m["game"]["status"] == "over" or
                                                                        m["game"]["to_move"] == 0))
                    g = me.state["game"]
                    if g["status"] == "over":
                        break
                    me.send({"type": "hint"})
                    hint = me.wait_for(lambda m: m["type"] in ("hint", "error"))
                    self.assertEqual(hint["type"], "hint", hint)
                    hinted[g["ply"]] = hint["move"]
                    me.send(hint["move"])
                    me.wait_for(lambda m, p=g["ply"]: m["type"] == "state" and m["game"]["ply"] > p)
                deadline = time.monotonic() + 120
                while True:
                    status, value, _ = self.server.http("GET", f"/api/games/{created['game']}/analysis?seat=0")
                    if status == 200:
                        break
                    self.assertLess(time.monotonic(), deadline)
                    time.sleep(0.2)
                self.assertEqual(len(value["decisions"]), len(hinted))
                for d in value["decisions"]:
                    self.assertFalse(d["mistake"], d)
                    self.assertEqual(d["value_best"], d["value_played"], d)
                    self.assertEqual(d["best"], d["played"], "the hint is the judge's best")


if __name__ == "__main__":
    unittest.main()
