"""test_people.py - a game follows its player (docs/accounts.md, "Your games on every
device", "Friends, search", "Challenges and quick pairing"; docs/online-play.md,
"Aborting", "Taking back", "Games nobody finishes"), on the real server:

- a signed-in player's seat is played on another device with the session alone (no seat
  token), and GET /api/me/games lists the account's games there;
- a rated game aborted after one move each: status aborted, both ratings unchanged; no
  abort once a person has placed twice;
- a game of people only, without a clock, that everybody left: gone from the public list
  after --absent-s, expired after --waiting-ttl-s;
- take-backs against the computer (the person's last decision and the computer's reply
  gone, the record without them), never with people, never rated;
- follows with who is online, the search by the start of a name;
- challenges: sent, seen, accepted into a game both play with their sessions; declined
  with a reason; taken back;
- quick pairing: two seekers of similar rating get one game; a lone seeker gets the
  computer level nearest in rating after 15 s.
"""
import time
import unittest

from accounts_lib import CLOCK, call, create, register, signed_in  # noqa: F401
from harness import Client, ServerTest, check_record

PW = "correct horse"
HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "level": "random"}


def connect_as(server, game, session, seat=None):
    """A connection with the session cookie and no token: the account's seat (the seat
    expected, for the harness's checks; None: a spectator)."""
    c = Client(server, game, None, seat, session=session)
    c.wait_type("history")
    return c


def play_one(test, c):
    """Plays one decision of c's (it must be its turn) and waits for the state after it."""
    if not c.my_turn():
        c.wait_for(lambda m: m["type"] == "state" and c.my_turn())
    ply = c.state["game"]["ply"]
    c.act()
    c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)


def play_turn(clients):
    """The one of clients whose turn it is plays a decision; every client sees the state
    after it. Returns who played."""
    from harness import ready
    while not any(c.my_turn() for c in clients):
        for c in ready(clients, 5.0):
            c.recv()
    mover = next(c for c in clients if c.my_turn())
    ply = mover.state["game"]["ply"]
    mover.act()
    for c in clients:
        c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
    return mover


class Devices(ServerTest):
    def test_a_seat_follows_its_account(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        game = create(self.server, ann, {"variant": "square", "players": 2, "clock": CLOCK,
                                         "rated": True, "seats": [HUMAN, HUMAN]})
        joined = call(self.server, "POST", f"/api/games/{game['game']}/join", {}, token=bo)[1]
        # another browser: the same account logged in again, no token at all
        ann2 = call(self.server, "POST", "/api/login", {"name": "Ann", "password": PW})[2]
        from accounts_lib import session_of
        ann2 = session_of(ann2)
        status, mine, _ = call(self.server, "GET", "/api/me/games", token=ann2)
        self.assertEqual(status, 200)
        self.assertEqual([(g["id"], g["seat"]) for g in mine["games"]], [(game["game"], 0)])
        a = connect_as(self.server, game["game"], ann2, 0)
        b = Client(self.server, game["game"], joined["token"], joined["seat"], session=bo)
        b.wait_type("history")
        self.assertEqual(a.state["you"]["seat"], 0)
        movers = {play_turn([a, b]), play_turn([a, b])}
        self.assertIn(a, movers, "the seat was played from the other device")
        # a guest without a token only watches; another account too
        watcher = Client(self.server, game["game"], None, None)
        watcher.wait_type("history")
        self.assertIsNone(watcher.state["you"])
        cy = register(self.server, "Cy", PW)
        other = connect_as(self.server, game["game"], cy)
        self.assertIsNone(other.state["you"])
        self.assertEqual(call(self.server, "GET", "/api/me/games", token=cy)[1]["games"], [])
        for c in (a, b, watcher, other):
            c.close()


class Aborting(ServerTest):
    def test_an_aborted_rated_game_changes_no_rating(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        game = create(self.server, ann, {"variant": "square", "players": 2, "clock": CLOCK,
                                         "rated": True, "seats": [HUMAN, HUMAN]})
        joined = call(self.server, "POST", f"/api/games/{game['game']}/join", {}, token=bo)[1]
        a = connect_as(self.server, game["game"], ann, 0)
        b = Client(self.server, game["game"], joined["token"], joined["seat"], session=bo)
        b.wait_type("history")
        play_turn([a, b])  # one tile each
        play_turn([a, b])
        before = {n: call(self.server, "GET", f"/api/players/{n}")[1]["ratings"] for n in ("Ann", "Bo")}
        b.send({"type": "abort"})
        st = a.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "aborted")
        self.assertEqual(st["game"]["aborted_by"], b.seat)
        after = {n: call(self.server, "GET", f"/api/players/{n}")[1]["ratings"] for n in ("Ann", "Bo")}
        self.assertEqual(before, after)
        listed = self.server.http("GET", f"/api/games?ids={game['game']}")[1][0]
        self.assertEqual((listed["status"], listed["end"]), ("aborted", {"reason": "aborted", "by": b.seat}))
        a.close()
        b.close()

    def test_no_abort_once_in_play(self):
        created = self.server.create("square", [HUMAN, RANDOM])
        me = self.connect(created["game"], created["token"], 0)
        play_one(self, me)
        play_one(self, me)  # two tiles of the person
        if not me.my_turn():
            me.wait_for(lambda m: m["type"] == "state" and me.my_turn())
        me.send({"type": "abort"})
        err = me.wait_for(lambda m: m["type"] == "error")
        self.assertEqual(err["code"], "forbidden")
        spectator = self.connect(created["game"])
        spectator.send({"type": "abort"})
        self.assertEqual(spectator.wait_for(lambda m: m["type"] == "error")["code"], "unauthorized")


class Dormant(ServerTest):
    server_args = ("--absent-s", "2", "--waiting-ttl-s", "8")

    def test_a_game_nobody_comes_back_to_leaves_the_list(self):
        created = self.server.create("square", [HUMAN, HUMAN])
        joined = self.server.join(created["game"])
        for token, seat in ((created["token"], 0), (joined["token"], 1)):
            Client(self.server, created["game"], token, seat).close()
        time.sleep(0.5)
        self.assertIn(created["game"], [g["id"] for g in self.server.http("GET", "/api/games")[1]])
        time.sleep(3)  # --absent-s with nobody connected
        self.assertNotIn(created["game"], [g["id"] for g in self.server.http("GET", "/api/games")[1]])
        entry = self.server.http("GET", f"/api/games?ids={created['game']}")[1][0]
        self.assertEqual((entry["status"], entry["dormant"]), ("running", True))
        # its players may come back meanwhile; after --waiting-ttl-s it expires
        deadline = time.monotonic() + 20
        while self.server.http("GET", f"/api/games/{created['game']}")[1]["status"] != "expired":
            self.assertLess(time.monotonic(), deadline, "the game did not expire")
            time.sleep(0.5)


class TakeBack(ServerTest):
    server_args = ("--msg-rate", "1000")

    def test_a_take_back_against_the_computer(self):
        created = self.server.create("square", [HUMAN, RANDOM])
        me = self.connect(created["game"], created["token"], 0, moves=True)
        if not me.my_turn():
            me.wait_for(lambda m: m["type"] == "state" and me.my_turn())
        rack_before = me.state["you"]["rack"]
        play_one(self, me)
        if not me.my_turn():
            me.wait_for(lambda m: m["type"] == "state" and me.my_turn())
        ply_after = me.state["game"]["ply"]
        me.send({"type": "undo"})
        st = me.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] < ply_after)
        self.assertEqual(st["game"]["ply"], 0)
        hist = me.wait_type("history")
        self.assertNotIn("place", [e["ev"] for e in hist["events"]])
        # the rack as it was dealt (a drawn tile may equal the placed one, so the rack after
        # the move can look the same: compare with the deal, not with that)
        self.assertEqual(sorted(me.state["you"]["rack"]), sorted(rack_before))
        # nothing to take back now; play on to the end, the record has no trace of it
        me.send({"type": "undo"})
        self.assertEqual(me.wait_for(lambda m: m["type"] == "error")["code"], "bad_message")
        from harness import play_until_over
        me.acted_ply = -1  # the plies were taken back: this client plays them again
        play_until_over([me])
        check_record(self, self.server, [me])

    def test_never_with_people_or_rated(self):
        created = self.server.create("square", [HUMAN, HUMAN])
        joined = self.server.join(created["game"])
        a = self.connect(created["game"], created["token"], 0)
        b = self.connect(created["game"], joined["token"], 1)
        mover = a if a.my_turn() else b
        play_one(self, mover)
        mover.send({"type": "undo"})
        self.assertEqual(mover.wait_for(lambda m: m["type"] == "error")["code"], "forbidden")
        ann = register(self.server, "Ann", PW)
        rated = create(self.server, ann, {"variant": "square", "players": 2, "clock": CLOCK,
                                          "rated": True, "seats": [HUMAN, RANDOM]})
        me = connect_as(self.server, rated["game"], ann, 0)
        me.send({"type": "undo"})
        self.assertEqual(me.wait_for(lambda m: m["type"] == "error")["code"], "forbidden")


class Friends(ServerTest):
    def test_follow_online_and_search(self):
        ann = register(self.server, "Ann", PW)
        register(self.server, "Annika", PW)
        bo = register(self.server, "Bo", PW)
        self.assertEqual(call(self.server, "POST", "/api/me/follows", {"name": "bo"}, token=ann)[0], 204)
        self.assertEqual(call(self.server, "POST", "/api/me/follows", {"name": "Nobody"}, token=ann)[0], 404)
        self.assertEqual(call(self.server, "POST", "/api/me/follows", {"name": "Ann"}, token=ann)[0], 400)
        self.assertEqual(call(self.server, "GET", "/api/me/follows")[0], 401)
        call(self.server, "GET", "/api/me", token=bo)  # Bo is seen
        follows = call(self.server, "GET", "/api/me/follows", token=ann)[1]["follows"]
        self.assertEqual(follows, [{"name": "Bo", "computer": False, "online": True}])
        self.assertEqual(call(self.server, "DELETE", "/api/me/follows/Bo", token=ann)[0], 204)
        self.assertEqual(call(self.server, "GET", "/api/me/follows", token=ann)[1]["follows"], [])
        found = self.server.http("GET", "/api/players?q=an")[1]["players"]
        self.assertEqual([p["name"] for p in found], ["Ann", "Annika"])
        self.assertEqual(self.server.http("GET", "/api/players?q=ANNI")[1]["players"][0]["name"], "Annika")
        self.assertEqual(self.server.http("GET", "/api/players?q=zz")[1]["players"], [])
        self.assertEqual(self.server.http("GET", "/api/players")[0], 400)


class Challenges(ServerTest):
    def test_challenge_accept_decline_take_back(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        status, sent, _ = call(self.server, "POST", "/api/challenges",
                               {"to": "Bo", "variant": "hex", "rated": True, "clock": CLOCK}, token=ann)
        self.assertEqual(status, 201, sent)
        cid = sent["challenge"]["id"]
        got = call(self.server, "GET", "/api/me/challenges", token=bo)[1]
        self.assertEqual([(c["id"], c["from"], c["status"]) for c in got["received"]], [(cid, "Ann", "open")])
        self.assertEqual(call(self.server, "POST", f"/api/challenges/{cid}/accept", {}, token=ann)[0], 403)
        status, acc, _ = call(self.server, "POST", f"/api/challenges/{cid}/accept", {}, token=bo)
        self.assertEqual(status, 200, acc)
        mine = call(self.server, "GET", "/api/me/challenges", token=ann)[1]["sent"][0]
        self.assertEqual((mine["status"], mine["game"]), ("accepted", acc["game"]))
        a = connect_as(self.server, acc["game"], ann, 1 - acc["seat"])
        b = connect_as(self.server, acc["game"], bo, acc["seat"])
        self.assertEqual(b.state["you"]["seat"], acc["seat"])
        self.assertEqual(a.state["you"]["seat"], 1 - acc["seat"])
        self.assertTrue(a.state["game"]["rated"])
        play_turn([a, b])
        self.assertEqual(call(self.server, "POST", f"/api/challenges/{cid}/accept", {}, token=bo)[0], 409)
        # declined with a reason; taken back
        cid2 = call(self.server, "POST", "/api/challenges", {"to": "Bo", "variant": "rota"}, token=ann)[1]["challenge"]["id"]
        self.assertEqual(call(self.server, "POST", f"/api/challenges/{cid2}/decline", {"reason": "soon"}, token=bo)[0], 400)
        self.assertEqual(call(self.server, "POST", f"/api/challenges/{cid2}/decline", {"reason": "later"}, token=bo)[0], 204)
        c2 = call(self.server, "GET", f"/api/challenges/{cid2}", token=ann)[1]["challenge"]
        self.assertEqual((c2["status"], c2["reason"]), ("declined", "later"))
        cid3 = call(self.server, "POST", "/api/challenges", {"to": "Bo", "variant": "rota"}, token=ann)[1]["challenge"]["id"]
        self.assertEqual(call(self.server, "DELETE", f"/api/challenges/{cid3}", token=bo)[0], 403)
        self.assertEqual(call(self.server, "DELETE", f"/api/challenges/{cid3}", token=ann)[0], 204)
        self.assertEqual(call(self.server, "POST", f"/api/challenges/{cid3}/accept", {}, token=bo)[0], 409)
        # refusals: no session, oneself, a computer, nobody, a rated game without a clock
        for body, token, code in (({"to": "Bo", "variant": "hex"}, None, 401),
                                  ({"to": "Ann", "variant": "hex"}, ann, 400),
                                  ({"to": "strong", "variant": "hex"}, ann, 400),
                                  ({"to": "Nobody", "variant": "hex"}, ann, 404),
                                  ({"to": "Bo", "variant": "hex", "rated": True}, ann, 400),
                                  ({"to": "Bo", "variant": "chess"}, ann, 400)):
            self.assertEqual(call(self.server, "POST", "/api/challenges", body, token=token)[0], code, body)
        a.close()
        b.close()


class Seeks(ServerTest):
    def test_two_seekers_meet(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        terms = {"variant": "square", "rated": True, "clock": CLOCK}
        status, s1, _ = call(self.server, "POST", "/api/seeks", terms, token=ann)
        self.assertEqual((status, s1["seek"]["status"]), (201, "waiting"))
        status, s2, _ = call(self.server, "POST", "/api/seeks", terms, token=bo)
        self.assertEqual((status, s2["seek"]["status"]), (201, "matched"))
        s1 = call(self.server, "GET", f"/api/seeks/{s1['seek']['id']}", token=ann)[1]["seek"]
        self.assertEqual((s1["status"], s1["game"]), ("matched", s2["seek"]["game"]))
        self.assertEqual({s1["seat"], s2["seek"]["seat"]}, {0, 1})
        a = connect_as(self.server, s1["game"], ann, s1["seat"])
        self.assertEqual(a.state["you"]["seat"], s1["seat"])
        self.assertEqual(call(self.server, "GET", f"/api/seeks/{s1['id']}", token=bo)[0], 404)
        self.assertEqual(call(self.server, "POST", "/api/seeks", terms)[0], 401)
        a.close()

    def test_a_lone_seeker_plays_the_nearest_computer(self):
        ann = register(self.server, "Ann", PW)
        status, s, _ = call(self.server, "POST", "/api/seeks", {"variant": "hex"}, token=ann)
        self.assertEqual(status, 201)
        deadline = time.monotonic() + 30
        while True:
            seek = call(self.server, "GET", f"/api/seeks/{s['seek']['id']}", token=ann)[1]["seek"]
            if seek["status"] != "waiting":
                break
            self.assertLess(time.monotonic(), deadline)
            time.sleep(1)
        self.assertEqual(seek["status"], "matched")
        game = self.server.http("GET", f"/api/games/{seek['game']}")[1]
        other = game["seats"][1 - seek["seat"]]
        self.assertEqual(other["kind"], "ai")
        # a new player (1500) meets the level nearest 1500
        board = self.server.http("GET", "/api/leaderboard?variant=hex")
        self.assertIn(other["level"], ("random", "greedy", "strong", "expert"), board)
        # a seek taken back pairs no more
        s2 = call(self.server, "POST", "/api/seeks", {"variant": "rota"}, token=ann)[1]["seek"]
        self.assertEqual(call(self.server, "DELETE", f"/api/seeks/{s2['id']}", token=ann)[0], 204)
        self.assertEqual(call(self.server, "GET", f"/api/seeks/{s2['id']}", token=ann)[1]["seek"]["status"],
                         "cancelled")


if __name__ == "__main__":
    unittest.main()
