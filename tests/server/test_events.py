"""test_events.py - events on the site (docs/tournaments.md, "Events on the site"), on the
real server:

- creating: settings read and shown back; every bad setting refused with a message naming
  it and nothing stored; a session needed; another site's Origin refused; the limit of
  events an account organises; settings locked (a started Swiss takes no one);
- the organiser cancels before the start (nobody else does), and starts early (not with
  fewer than two players); an event due with fewer than two cancels itself;
- joining and withdrawing, again and again; the entry conditions (minimum rated games,
  bots) refused with their reason; GET /api/me/events;
- a small Swiss (6 accounts over the WebSocket, 3 a table, 2 rounds) played to its end:
  each table's points follow from its record, each record replays, the standings after a
  restart (recomputed from the store) equal the live ones;
- a no-show loses its games and after two misses is withdrawn and paired no more;
- a Swiss round whose deadline passes while a table still plays: the next round is paired,
  and the late game does not count;
- a short arena: finished players paired again at once; it ends; games still running at
  the end do not count.
"""
import time
import unittest

from accounts_lib import call, register
from botlib import make_bot
from eventlib import PW, Driver, accounts, check_standings, event, new_event
from harness import ON_POSTGRESQL, Server, ServerTest, db_query  # noqa: F401

HOUR = 3600 * 1000


def now_ms():
    return int(time.time() * 1000)


class EventTest(ServerTest):
    server_args = ("--absent-s", "2")

    def listed(self):
        status, value, _ = call(self.server, "GET", "/api/events")
        self.assertEqual(status, 200)
        return value["events"]


class Create(EventTest):
    def test_create_and_show(self):
        ann = register(self.server, "Ann", PW)
        e = new_event(self.server, ann, name="Sunday <b>Swiss</b>", format="swiss",
                      variant="hex", seats=3, rounds=5, rated=True, min_rated_games=0,
                      bots=False)
        self.assertEqual(e["organiser"], "Ann")
        self.assertEqual(e["name"], "Sunday <b>Swiss</b>")  # text, as typed
        self.assertEqual((e["format"], e["variant"], e["mode"], e["seats"], e["rounds"]),
                         ("swiss", "hex", "standard", 3, 5))
        self.assertEqual(e["status"], "upcoming")
        self.assertIsNone(e["duration_s"])
        self.assertEqual(e["players"], 0)
        got = event(self.server, e["id"])
        self.assertEqual(got["event"], e)
        self.assertEqual(got["standings"], [])
        self.assertEqual(got["tables"], [])
        self.assertIsNone(got["you"])
        self.assertEqual([x["id"] for x in self.listed()], [e["id"]])
        status, value, _ = call(self.server, "GET", "/api/events?status=upcoming")
        self.assertEqual([x["id"] for x in value["events"]], [e["id"]])
        status, value, _ = call(self.server, "GET", "/api/events?status=finished")
        self.assertEqual(value["events"], [])
        a = new_event(self.server, ann, format="arena", duration_s=600, mode="team", seats=4, variant="hex",
                      clock={"kind": "daily", "per_move_s": 86400})
        self.assertEqual((a["duration_s"], a["rounds"], a["mode"]), (600, None, "team"))

    def test_bad_settings_change_nothing(self):
        ann = register(self.server, "Ann", PW)
        good = {"name": "E", "format": "swiss", "variant": "square", "seats": 2,
                "clock": {"kind": "realtime", "base_s": 180, "increment_s": 2},
                "starts": now_ms() + HOUR, "rounds": 3}
        daily = {"kind": "daily", "per_move_s": 86400}
        bad = [
            ({"name": None}, "name"), ({"name": ""}, "name"), ({"name": "x" * 61}, "name"),
            ({"name": "a\u0007b"}, "name"), ({"name": "   "}, "name"),
            ({"format": "knockout"}, "format"), ({"variant": "chess"}, "variant"),
            ({"seats": 5}, "seats"), ({"seats": 1}, "seats"), ({"seats": "3"}, "seats"),
            ({"mode": "team", "seats": 3}, "mode"), ({"mode": "solo"}, "mode"),
            ({"clock": None}, "clock"), ({"clock": {"kind": "realtime", "base_s": 0}}, "base_s"),
            ({"clock": daily}, "days_per_round"), ({"days_per_round": 2}, "days_per_round"),
            ({"rounds": 0}, "rounds"), ({"rounds": 21}, "rounds"), ({"rounds": None}, "rounds"),
            ({"duration_s": 600}, "duration_s"), ({"starts": now_ms() - 5 * 60000}, "starts"),
            ({"starts": now_ms() + 91 * 24 * HOUR}, "starts"), ({"starts": "soon"}, "starts"),
            ({"rated": "yes"}, "rated"), ({"bots": 1}, "bots"),
            ({"min_rated_games": -1}, "min_rated_games"), ({"prize": 100}, "prize"),
        ]
        for change, word in bad:
            body = dict(good)
            body.update(change)
            # None: the setting left out (the name: sent as null)
            body = {k: v for k, v in body.items() if v is not None or k == "name"}
            status, value, _ = call(self.server, "POST", "/api/events", body, token=ann)
            self.assertEqual(status, 400, (change, value))
            self.assertEqual(value["error"]["code"], "bad_message")
            self.assertIn(word, value["error"]["message"], change)
        arena = dict(good, format="arena")
        arena.pop("rounds")
        status, value, _ = call(self.server, "POST", "/api/events", arena, token=ann)
        self.assertEqual((status, value["error"]["code"]), (400, "bad_message"))
        self.assertIn("duration_s", value["error"]["message"])
        for raw in ("[1,2]", "{", '"x"'):
            status, value, _ = call(self.server, "POST", "/api/events", raw=raw, token=ann,
                                    headers={"Content-Type": "application/json"})
            self.assertEqual(status, 400, raw)
        # no session; another site
        status, value, _ = call(self.server, "POST", "/api/events", good)
        self.assertEqual((status, value["error"]["code"]), (401, "unauthorized"))
        status, value, _ = call(self.server, "POST", "/api/events", good, token=ann,
                                headers={"Origin": "https://evil.example"})
        self.assertEqual(status, 403)
        self.assertEqual(self.listed(), [])
        # bad arguments and paths
        for path, code in (("/api/events?status=over", 400), ("/api/events/nosuchevent1", 404),
                           ("/api/events/x", 404)):
            status, value, _ = call(self.server, "GET", path)
            self.assertEqual(status, code, path)
        status, _, _ = call(self.server, "DELETE", "/api/events", token=ann)
        self.assertEqual(status, 405)

    def test_organiser_limit(self):
        ann = register(self.server, "Ann", PW)
        for i in range(3):
            new_event(self.server, ann, name=f"E{i}", format="swiss", rounds=1)
        status, value, hdrs = call(self.server, "POST", "/api/events",
                                   {"name": "E4", "format": "swiss", "rounds": 1,
                                    "variant": "square", "seats": 2,
                                    "clock": {"kind": "realtime", "base_s": 60,
                                              "increment_s": 0},
                                    "starts": now_ms() + HOUR}, token=ann)
        self.assertEqual(status, 429)
        self.assertEqual((value["error"]["code"], value["error"]["reason"]),
                         ("rate_limited", "events"))
        self.assertEqual(len(self.listed()), 3)

    def test_cancel_start_and_lock(self):
        ann, bob, cid = (register(self.server, n, PW) for n in ("Ann", "Bob", "Cid"))
        e = new_event(self.server, ann, format="swiss", rounds=1)
        eid = e["id"]
        status, value, _ = call(self.server, "POST", f"/api/events/{eid}/cancel", {}, token=bob)
        self.assertEqual((status, value["error"]["code"]), (403, "forbidden"))
        status, value, _ = call(self.server, "POST", f"/api/events/{eid}/start", {}, token=ann)
        self.assertEqual((status, value["error"]["code"]), (409, "too_few_players"))
        self.assertEqual(event(self.server, eid)["event"]["status"], "upcoming")
        status, value, _ = call(self.server, "GET", f"/api/events/{eid}/cancel", token=ann)
        self.assertEqual(status, 405)
        status, value, _ = call(self.server, "POST", f"/api/events/{eid}/cancel", {}, token=ann)
        self.assertEqual(status, 200, value)
        self.assertEqual((value["event"]["status"], value["event"]["cancel_reason"]),
                         ("cancelled", "organiser"))
        for action in ("cancel", "start", "join"):
            status, value, _ = call(self.server, "POST", f"/api/events/{eid}/{action}", {},
                                    token=ann)
            self.assertEqual((status, value["error"]["code"]), (409, "not_open"), action)
        status, value, _ = call(self.server, "GET", "/api/events?status=finished")
        self.assertEqual([x["id"] for x in value["events"]], [eid])
        # started early by its organiser: settings locked, a Swiss takes no one more
        e = new_event(self.server, ann, format="swiss", rounds=1)
        for s in (ann, bob):
            self.assertEqual(call(self.server, "POST", f"/api/events/{e['id']}/join", {},
                                  token=s)[0], 200)
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/start", {},
                                token=bob)
        self.assertEqual(status, 403)
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/start", {},
                                token=ann)
        self.assertEqual((status, value["event"]["status"]), (200, "running"))
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/join", {}, token=cid)
        self.assertEqual((status, value["error"]["code"]), (409, "not_open"))
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/cancel", {},
                                token=ann)
        self.assertEqual((status, value["error"]["code"]), (409, "not_open"))
        # its first round is paired within a moment: one table, both seats bound
        deadline = time.monotonic() + 10
        while not event(self.server, e["id"])["tables"]:
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.2)
        got = event(self.server, e["id"], session=bob)
        self.assertEqual(got["event"]["round"], 1)
        self.assertEqual(sorted(got["tables"][0]["players"]), ["Ann", "Bob"])
        self.assertEqual(got["you"]["game"], got["tables"][0]["game"])
        self.assertEqual(got["tables"][0]["players"][got["you"]["seat"]], "Bob")
        status, value, _ = call(self.server, "GET", "/api/me/games", token=bob)
        self.assertIn(got["you"]["game"], [g["id"] for g in value["games"]])

    def test_due_with_too_few_cancels_itself(self):
        ann = register(self.server, "Ann", PW)
        e = new_event(self.server, ann, format="arena", duration_s=600, starts=now_ms() + 1500)
        self.assertEqual(call(self.server, "POST", f"/api/events/{e['id']}/join", {},
                              token=ann)[0], 200)
        deadline = time.monotonic() + 10
        while event(self.server, e["id"])["event"]["status"] == "upcoming":
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.2)
        got = event(self.server, e["id"])["event"]
        self.assertEqual((got["status"], got["cancel_reason"]), ("cancelled", "too_few_players"))


class Join(EventTest):
    def test_join_withdraw(self):
        ann, bob = register(self.server, "Ann", PW), register(self.server, "Bob", PW)
        e = new_event(self.server, ann, format="swiss", rounds=2)
        path = f"/api/events/{e['id']}"
        status, value, _ = call(self.server, "POST", path + "/join", {})
        self.assertEqual(status, 401)
        status, value, _ = call(self.server, "POST", path + "/withdraw", {}, token=bob)
        self.assertEqual((status, value["error"]["code"]), (409, "not_joined"))
        for _ in range(2):
            status, value, _ = call(self.server, "POST", path + "/join", {}, token=bob)
            self.assertEqual(status, 200)
            self.assertEqual(value["you"], {"joined": True, "withdrawn": False, "misses": 0,
                                            "game": None, "seat": None})
        self.assertEqual(event(self.server, e["id"])["event"]["players"], 1)
        self.assertEqual([x["name"] for x in event(self.server, e["id"])["standings"]], ["Bob"])
        status, value, _ = call(self.server, "GET", "/api/me/events", token=bob)
        self.assertEqual([x["id"] for x in value["events"]], [e["id"]])
        self.assertTrue(value["events"][0]["you"]["joined"])
        status, value, _ = call(self.server, "POST", path + "/withdraw", {}, token=bob)
        self.assertEqual((status, value["you"]["withdrawn"]), (200, True))
        self.assertEqual(event(self.server, e["id"])["event"]["players"], 0)
        status, value, _ = call(self.server, "GET", "/api/me/events", token=bob)
        self.assertEqual(value["events"], [])
        status, value, _ = call(self.server, "POST", path + "/withdraw", {}, token=bob)
        self.assertEqual((status, value["error"]["code"]), (409, "not_joined"))
        status, value, _ = call(self.server, "POST", path + "/join", {}, token=bob)
        self.assertEqual((status, value["you"]["withdrawn"]), (200, False))
        status, value, _ = call(self.server, "GET", "/api/me/events")
        self.assertEqual(status, 401)
        status, value, _ = call(self.server, "POST", "/api/events/AAAAAAAAAAAA/join", {}, token=bob)
        self.assertEqual(status, 404)
        status, value, _ = call(self.server, "POST", path + "/leave", {}, token=bob)
        self.assertEqual(status, 404)

    def test_entry_conditions(self):
        ann = register(self.server, "Ann", PW)
        e = new_event(self.server, ann, format="arena", duration_s=600, min_rated_games=1)
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/join", {}, token=ann)
        self.assertEqual(status, 403)
        self.assertEqual((value["error"]["code"], value["error"]["reason"]),
                         ("forbidden", "min_rated_games"))
        self.assertEqual(event(self.server, e["id"])["event"]["players"], 0)
        _, token = make_bot(self.server, "Robo")
        people = new_event(self.server, ann, format="arena", duration_s=600)
        status, value, _ = call(self.server, "POST", f"/api/events/{people['id']}/join", {},
                                headers={"Authorization": f"Bearer {token}"})
        self.assertEqual((status, value["error"]["reason"]), (403, "bots"))
        self.assertEqual(event(self.server, people["id"])["event"]["players"], 0)
        bots = new_event(self.server, ann, format="arena", duration_s=600, bots=True)
        status, value, _ = call(self.server, "POST", f"/api/events/{bots['id']}/join", {},
                                headers={"Authorization": f"Bearer {token}"})
        self.assertEqual(status, 200, value)
        line = event(self.server, bots["id"])["standings"][0]
        self.assertEqual((line["name"], line["bot"]), ("Robo", True))


class Play(EventTest):
    def test_small_swiss(self):
        names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
        players = accounts(self.server, names)
        e = new_event(self.server, players["Ann"], format="swiss", seats=3, rounds=2,
                      clock={"kind": "realtime", "base_s": 600, "increment_s": 0})
        for s in players.values():
            self.assertEqual(call(self.server, "POST", f"/api/events/{e['id']}/join", {},
                                  token=s)[0], 200)
        call(self.server, "POST", f"/api/events/{e['id']}/start", {}, token=players["Ann"])
        d = Driver([self.server], e["id"], players)
        try:
            live = d.run("finished", timeout=300)
        finally:
            d.close()
        self.assertEqual(live["event"]["round"], 2)
        self.assertEqual(live["tables"], [])
        self.assertEqual(len(live["standings"]), 6)
        for line in live["standings"]:
            self.assertEqual(len(line["results"]), 2, line)
            self.assertEqual(line["games"], 2)
        places = [x["place"] for x in live["standings"]]
        self.assertEqual(places, sorted(places))
        self.assertEqual(check_standings(self, self.server, live), 4)
        # recomputed from the store by a new server: the same
        self.server.stop()
        self.server = Server(self.db, *self.server_args)
        again = event(self.server, e["id"])
        self.assertEqual(again["standings"], live["standings"])
        self.assertEqual(again["event"], live["event"])
        # a table's game names its event (its page links back), after the restart too
        game = live["standings"][0]["results"][0]["game"]
        status, value, _ = call(self.server, "GET", f"/api/games/{game}")
        self.assertEqual((status, value["event"]), (200, e["id"]))

    def test_no_show_withdrawn_after_two(self):
        names = ["Ann", "Bob", "Cid", "Dee"]
        players = accounts(self.server, names)
        e = new_event(self.server, players["Ann"], format="swiss", seats=2, rounds=3,
                      clock={"kind": "realtime", "base_s": 600, "increment_s": 0})
        for s in players.values():
            call(self.server, "POST", f"/api/events/{e['id']}/join", {}, token=s)
        call(self.server, "POST", f"/api/events/{e['id']}/start", {}, token=players["Ann"])
        d = Driver([self.server], e["id"], players, absent={"Dee"})
        try:
            live = d.run("finished", timeout=300)
        finally:
            d.close()
        dee = next(x for x in live["standings"] if x["name"] == "Dee")
        self.assertTrue(dee["withdrawn"])
        self.assertEqual([(r["round"], r["points"], r["place"]) for r in dee["results"]],
                         [(1, 0, None), (2, 0, None)])
        status, value, _ = call(self.server, "GET", f"/api/events/{e['id']}", token=players["Dee"])
        self.assertEqual((value["you"]["misses"], value["you"]["withdrawn"]), (2, True))
        # the third round: three players, one bye; Dee not paired
        third = [(x["name"], r) for x in live["standings"] for r in x["results"] if r["round"] == 3]
        self.assertEqual(sorted(n for n, _ in third), ["Ann", "Bob", "Cid"])
        self.assertEqual(len([r for _, r in third if r["game"] is None]), 1)
        check_standings(self, self.server, live)

    def test_nobody_at_a_table_comes(self):
        # Nobody comes: the game ends without a result and both miss it (one leaving after
        # the other would have handed the last a win it never played for)
        players = accounts(self.server, ["Ann", "Bob"])
        e = new_event(self.server, players["Ann"], format="swiss", seats=2, rounds=1,
                      clock={"kind": "realtime", "base_s": 600, "increment_s": 0})
        for s in players.values():
            call(self.server, "POST", f"/api/events/{e['id']}/join", {}, token=s)
        call(self.server, "POST", f"/api/events/{e['id']}/start", {}, token=players["Ann"])
        d = Driver([self.server], e["id"], players, absent={"Ann", "Bob"})
        try:
            live = d.run("finished", timeout=120)
        finally:
            d.close()
        for line in live["standings"]:
            self.assertEqual([(r["points"], r["place"]) for r in line["results"]], [(0, None)], line)
            self.assertEqual(line["points"], 0, line)
        for name in ("Ann", "Bob"):
            status, value, _ = call(self.server, "GET", f"/api/events/{e['id']}",
                                    token=players[name])
            self.assertEqual(value["you"]["misses"], 1, name)
        game = live["standings"][0]["results"][0]["game"]
        self.assertEqual(call(self.server, "GET", f"/api/games/{game}")[1]["status"], "aborted")
        check_standings(self, self.server, live)

    def test_a_round_past_its_deadline(self):
        # Swiss: the next round is paired when the round's deadline passes, while a table
        # of the round still plays; that game ends after the deadline and does not count.
        # The deadline (4 min at the least) is moved to the past in the store, server stopped.
        players = accounts(self.server, ["Ann", "Bob", "Cid", "Dee"])
        e = new_event(self.server, players["Ann"], format="swiss", seats=2, rounds=2,
                      clock={"kind": "realtime", "base_s": 600, "increment_s": 0})
        for s in players.values():
            call(self.server, "POST", f"/api/events/{e['id']}/join", {}, token=s)
        call(self.server, "POST", f"/api/events/{e['id']}/start", {}, token=players["Ann"])
        slow = {}

        def dee_stalls(c):
            # Dee's table of round 1 stops after a few decisions of each (so nobody there
            # is a no-show); the other table plays on
            if not slow and d.last:
                slow.update((t["game"], t) for t in d.last["tables"] if "Dee" in t["players"])
            return not (c.game in slow and c.state and c.state["game"]["ply"] >= 4)

        d = Driver(lambda: [self.server], e["id"], players, before_move=dee_stalls)
        try:
            def one_table_left(v):
                done = [x for x in v["standings"] if x["results"]]
                return len(done) == 2 and len(v["tables"]) == 1 and v["event"]["round"] == 1
            live = d.run(one_table_left, timeout=120)
            stalled = live["tables"][0]
            self.assertIn("Dee", stalled["players"])
            self.server.stop()
            past = now_ms() - 1000  # the round's deadline, and its tables'
            db_query(self.db, "UPDATE events SET round_deadline = ? WHERE id = ?", past, e["id"])
            db_query(self.db, "UPDATE event_tables SET deadline = ? WHERE event_id = ? AND round = 1",
                     past, e["id"])
            self.server = Server(self.db, *self.server_args)
            # round 2 is paired with the stalled game still running; then that game ends
            live = d.run(lambda v: v["event"]["round"] == 2, timeout=60)
            self.assertIn(stalled["game"], [t["game"] for t in live["tables"]])
            self.assertEqual(len(live["tables"]), 3, live["tables"])
            d.before_move = None
            live = d.run("finished", timeout=300)
        finally:
            d.close()
        late = [r for x in live["standings"] for r in x["results"] if r["game"] == stalled["game"]]
        self.assertEqual(len(late), 2)
        self.assertTrue(all(not r["counted"] for r in late), late)
        for line in live["standings"]:
            self.assertEqual(line["games"], len([r for r in line["results"] if r["counted"]]))
        self.assertEqual(sorted(x["games"] for x in live["standings"]), [1, 1, 2, 2])
        check_standings(self, self.server, live)

    def test_arena(self):
        players = accounts(self.server, ["Ann", "Bob", "Cid", "Dee"])
        e = new_event(self.server, players["Ann"], format="arena", seats=2, duration_s=60,
                      clock={"kind": "realtime", "base_s": 300, "increment_s": 0})
        for s in players.values():
            call(self.server, "POST", f"/api/events/{e['id']}/join", {}, token=s)
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/start", {},
                                token=players["Ann"])
        ends = value["event"]["ends"]
        self.assertAlmostEqual(ends, now_ms() + 60000, delta=5000)
        # late joiners are welcome in an arena
        eve = register(self.server, "Eve", PW)
        self.assertEqual(call(self.server, "POST", f"/api/events/{e['id']}/join", {},
                              token=eve)[0], 200)
        players["Eve"] = eve

        def slow_near_the_end(c):
            # Ann and whoever she plays stop moving 8 s before the end: that game runs on
            return not (c.state and "Ann" in [s["name"] for s in c.state["game"]["seats"]]
                        and now_ms() > ends - 8000)

        d = Driver([self.server], e["id"], players, before_move=slow_near_the_end)
        try:
            live = d.run(lambda v: now_ms() > ends + 3000, timeout=120)
            self.assertEqual(live["event"]["status"], "running")  # Ann's game goes on
            self.assertTrue(live["tables"])
            d.before_move = None
            live = d.run("finished", timeout=300)
        finally:
            d.close()
        results = [r for x in live["standings"] for r in x["results"]]
        self.assertGreater(len(results), 8)  # players were paired again and again
        self.assertTrue(any(not r["counted"] for r in results))
        for line in live["standings"]:
            self.assertEqual(line["games"], len([r for r in line["results"] if r["counted"]]))
        ann = next(x for x in live["standings"] if x["name"] == "Ann")
        self.assertFalse(ann["results"][-1]["counted"])


if __name__ == "__main__":
    unittest.main()
