"""test_group_challenges.py - challenges to two or three accounts at once for a game of 3 or
4 seats (issue 49; docs/accounts.md "Challenges", docs/bot-api.md) on the real server:

- a person challenges a bot and a person to a 3-seat game: each invited sees it (the bot on
  its event stream, with `players` and `invited`), the first acceptance waits for the other,
  the last one's makes the game, every seat bound to its account; played to its end (the
  bot through the Bot API with `axio engine`, the people over WebSocket), the record
  replays;
- one decline ends it for all, saying who declined and why; a withdrawal ends it for all;
- a 4-seat hex team game with two bots and two people;
- the refusals (too many names, a name twice, oneself, nobody, a computer, players not
  matching the names, a mode the variant has not at that count): each a clear error, nothing
  stored; the two-player form unchanged.
"""
import json
import time
import unittest

from accounts_lib import CLOCK, call, register
from botlib import PW, Engine, Stream, api, make_bot, to_decide
from harness import Client, ServerTest, check_record, ready


class Group(ServerTest):
    server_args = ("--absent-s", "60", "--request-rate", "1000", "--msg-rate", "1000")

    def setUp(self):
        super().setUp()
        self.streams = []
        self.engine = None

    def tearDown(self):
        for s in self.streams:
            s.close()
        if self.engine:
            self.engine.close()
        super().tearDown()

    def stream(self, path, token):
        s = Stream(self.server, path, token)
        self.streams.append(s)
        return s

    def challenge(self, session, to, **terms):
        body = {"to": to, "variant": "square", **terms}
        status, reply, _ = api(self.server, "POST", "/api/challenges", body, session=session)
        self.assertEqual(status, 201, reply)
        return reply["challenge"]

    def accept(self, cid, token=None, session=None):
        status, body, _ = api(self.server, "POST", f"/api/challenges/{cid}/accept", {},
                              token=token, session=session)
        self.assertEqual(status, 200, body)
        return body

    def play_out(self, game, people, bots, timeout=240):
        """Plays game to its end: people (name -> session) over WebSocket with their hints,
        bots (name -> token) through the Bot API with `axio engine`. The people's clients."""
        seats = call(self.server, "GET", f"/api/games/{game}")[1]["seats"]
        seat_of = {s["name"]: i for i, s in enumerate(seats)}
        clients = []
        for name, session in people.items():
            c = Client(self.server, game, None, seat_of[name], session=session)
            self.clients.append(c)
            clients.append(c)
        streams = {name: self.stream(f"/api/bot/game/stream/{game}", token)
                   for name, token in bots.items()}
        self.engine = self.engine or Engine()
        over = set()
        deadline = time.monotonic() + timeout
        while len(over) < len(clients) + len(streams):
            self.assertLess(time.monotonic(), deadline, "the game did not end in time")
            for c in clients:
                if c.state and c.state["game"]["status"] == "over":
                    over.add(c.seat)
                elif c.my_turn():
                    c.act()
            for c in ready(clients, 0.05):
                msg = c.recv()
                self.assertNotEqual(msg["type"], "error", msg)
            for name, s in streams.items():
                if name in over:
                    continue
                try:
                    line = s.next(0.05)
                except AssertionError:
                    continue
                except EOFError:  # ended after the game's last state
                    self.assertEqual(call(self.server, "GET", f"/api/games/{game}")[1]["status"],
                                     "over")
                    over.add(name)
                    continue
                if line["type"] != "state":
                    continue
                seat = line["you"]["seat"]
                self.assertEqual(seat, seat_of[name])
                for i, other in enumerate(line["position"]["seats"]):
                    if i != seat:  # never another seat's tiles
                        self.assertIsInstance(other["rack"], int)
                if line["game"]["status"] != "running":
                    over.add(name)
                    continue
                if not to_decide(line):
                    continue
                if line["game"]["phase"] != "place":
                    move = {"type": "swap", "accept": True}
                else:
                    move = {"move": self.engine.decide(line["position"])}
                status, body, _ = api(self.server, "POST", f"/api/bot/game/{game}/move", move,
                                      token=bots[name])
                self.assertIn(status, (200, 409), body)  # 409: the turn passed meanwhile
        return clients

    def test_a_person_challenges_a_bot_and_a_person_to_three_seats(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        _, robo = make_bot(self.server, "Robo")
        events = self.stream("/api/bot/stream/event", robo)
        sent = self.challenge(ann, ["Robo", "Bo"], players=3, clock=CLOCK, rated=True)
        self.assertEqual((sent["players"], sent["mode"], sent["to"], sent["status"]),
                         (3, "standard", "Robo", "open"))
        self.assertEqual(sent["invited"], [{"name": "Robo", "bot": True, "accepted": False},
                                           {"name": "Bo", "accepted": False}])
        line = events.wait(lambda l: l["type"] == "challenge")
        self.assertEqual((line["challenge"]["id"], line["challenge"]["players"]), (sent["id"], 3))
        self.assertEqual([i["name"] for i in line["challenge"]["invited"]], ["Robo", "Bo"])
        mine = call(self.server, "GET", "/api/me/challenges", token=bo)[1]
        self.assertEqual([c["id"] for c in mine["received"]], [sent["id"]])
        self.assertEqual(mine["sent"], [])
        self.assertEqual([c["id"] for c in call(self.server, "GET", "/api/me/challenges",
                                                 token=ann)[1]["sent"]], [sent["id"]])
        # the bot first: no game yet, the challenge says who accepted
        first = self.accept(sent["id"], token=robo)
        self.assertEqual((first["game"], first["seat"]), (None, None))
        self.assertEqual([i["accepted"] for i in first["challenge"]["invited"]], [True, False])
        again = self.accept(sent["id"], token=robo)  # twice: the same
        self.assertIsNone(again["game"])
        seen = call(self.server, "GET", f"/api/challenges/{sent['id']}", token=ann)[1]["challenge"]
        self.assertEqual((seen["status"], [i["accepted"] for i in seen["invited"]]),
                         ("open", [True, False]))
        # the sender accepts nothing; another account sees nothing
        self.assertEqual(api(self.server, "POST", f"/api/challenges/{sent['id']}/accept", {},
                             session=ann)[0], 403)
        cy = register(self.server, "Cy", PW)
        self.assertEqual(call(self.server, "GET", f"/api/challenges/{sent['id']}", token=cy)[0],
                         404)
        # the last one's acceptance makes the game
        last = self.accept(sent["id"], session=bo)
        game = last["game"]
        self.assertTrue(game)
        start = events.wait(lambda l: l["type"] == "gameStart")
        self.assertEqual((start["game"]["id"], start["game"]["players"], start["game"]["rated"]),
                         (game, 3, True))
        info = call(self.server, "GET", f"/api/games/{game}")[1]
        self.assertEqual((info["players"], info["status"]), (3, "running"))
        names = [s["name"] for s in info["seats"]]
        self.assertEqual(sorted(names), ["Ann", "Bo", "Robo"])
        self.assertEqual(names.index("Bo"), last["seat"])
        self.assertEqual(names.index("Robo"), start["game"]["seat"])
        self.assertTrue(info["seats"][names.index("Robo")].get("bot"))
        settled = call(self.server, "GET", f"/api/challenges/{sent['id']}", token=bo)[1]
        self.assertEqual((settled["challenge"]["status"], settled["challenge"]["game"]),
                         ("accepted", game))
        # too late to decline
        self.assertEqual(api(self.server, "POST", f"/api/challenges/{sent['id']}/decline",
                             {"reason": "later"}, session=bo)[0], 409)
        clients = self.play_out(game, {"Ann": ann, "Bo": bo}, {"Robo": robo})
        self.assertEqual(clients[0].state["game"]["status"], "over")
        check_record(self, self.server, clients)
        finish = events.wait(lambda l: l["type"] == "gameFinish")
        self.assertEqual((finish["game"]["id"], finish["game"]["players"]), (game, 3))

    def test_one_decline_ends_it_for_all(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        _, robo = make_bot(self.server, "Robo")
        events = self.stream("/api/bot/stream/event", robo)
        sent = self.challenge(ann, ["Robo", "Bo"], variant="hex")
        events.wait(lambda l: l["type"] == "challenge" and l["challenge"]["id"] == sent["id"])
        self.accept(sent["id"], token=robo)
        status, _, _ = api(self.server, "POST", f"/api/challenges/{sent['id']}/decline",
                           {"reason": "later"}, session=bo)
        self.assertEqual(status, 204)
        line = events.wait(lambda l: l["type"] == "challengeDeclined")
        self.assertEqual((line["challenge"]["id"], line["challenge"]["declined_by"],
                          line["challenge"]["reason"]), (sent["id"], "Bo", "later"))
        for who in (ann, bo):
            c = call(self.server, "GET", f"/api/challenges/{sent['id']}", token=who)[1]["challenge"]
            self.assertEqual((c["status"], c["declined_by"], c["reason"], c["game"]),
                             ("declined", "Bo", "later", None))
        self.assertEqual(api(self.server, "POST", f"/api/challenges/{sent['id']}/accept", {},
                             token=robo)[0], 409)
        self.assertEqual(call(self.server, "GET", "/api/me/games", token=ann)[1].get("games", []),
                         [])
        # withdrawn by the sender: ended for every invited
        other = self.challenge(ann, ["Robo", "Bo"], variant="rota")
        events.wait(lambda l: l["type"] == "challenge" and l["challenge"]["id"] == other["id"])
        self.assertEqual(api(self.server, "DELETE", f"/api/challenges/{other['id']}",
                             session=bo)[0], 403)
        self.assertEqual(api(self.server, "DELETE", f"/api/challenges/{other['id']}",
                             session=ann)[0], 204)
        gone = events.wait(lambda l: l["type"] == "challengeCanceled")
        self.assertEqual(gone["challenge"]["id"], other["id"])
        self.assertEqual(api(self.server, "POST", f"/api/challenges/{other['id']}/accept", {},
                             session=bo)[0], 409)

    def test_a_hex_team_game_with_two_bots(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        _, r1 = make_bot(self.server, "Robo")
        _, r2 = make_bot(self.server, "Rita")
        sent = self.challenge(ann, ["Robo", "Bo", "Rita"], variant="hex", players=4, mode="team",
                              clock=CLOCK)
        self.assertEqual((sent["players"], sent["mode"]), (4, "team"))
        self.assertIsNone(self.accept(sent["id"], token=r2)["game"])
        self.assertIsNone(self.accept(sent["id"], session=bo)["game"])
        game = self.accept(sent["id"], token=r1)["game"]
        info = call(self.server, "GET", f"/api/games/{game}")[1]
        self.assertEqual((info["variant"], info["players"], info["mode"]), ("hex", 4, "team"))
        self.assertEqual(sorted(s["name"] for s in info["seats"]), ["Ann", "Bo", "Rita", "Robo"])
        clients = self.play_out(game, {"Ann": ann, "Bo": bo}, {"Robo": r1, "Rita": r2}, 400)
        check_record(self, self.server, clients)

    def test_refusals_store_nothing(self):
        ann = register(self.server, "Ann", PW)
        register(self.server, "Bo", PW)
        make_bot(self.server, "Robo")
        make_bot(self.server, "Rita")
        for body, code, words in (
                ({"to": ["Robo", "Bo", "Rita", "Cy"]}, 400, "one to three"),
                ({"to": []}, 400, "one to three"),
                ({"to": ["Robo", 7]}, 400, "names"),
                ({"to": {"name": "Robo"}}, 400, "name"),
                ({"to": ["Robo", "robo"]}, 400, "named twice"),
                ({"to": ["Robo", "Ann"]}, 400, "yourself"),
                ({"to": ["Robo", "Nobody"]}, 404, "Nobody"),
                ({"to": ["Robo", "strong"]}, 400, "computer"),
                ({"to": ["Robo", "Bo"], "players": 4}, 400, "players"),
                ({"to": ["Robo", "Bo"], "players": 2}, 400, "players"),
                ({"to": "Robo", "players": 3}, 400, "players"),
                ({"to": ["Robo", "Bo"], "players": 5}, 400, "2, 3 or 4"),
                ({"to": ["Robo", "Bo"], "players": "3"}, 400, "2, 3 or 4"),
                ({"to": ["Robo", "Bo"], "variant": "hex", "mode": "team"}, 400, "not played so"),
                ({"to": ["Robo", "Bo", "Rita"], "mode": "team"}, 400, "not played so"),
                ({"to": ["Robo", "Bo"], "mode": "solo"}, 400, "not played so"),
                ({"to": ["Robo", "Bo"], "mode": "teams"}, 400, "mode"),
                ({"to": ["Robo", "Bo"], "rated": True}, 400, "clock")):
            body = {"variant": "square", **body}
            status, reply, _ = api(self.server, "POST", "/api/challenges", body, session=ann)
            self.assertEqual(status, code, (body, reply))
            self.assertIn(words, reply["error"]["message"], body)
        mine = call(self.server, "GET", "/api/me/challenges", token=ann)[1]
        self.assertEqual((mine["sent"], mine["received"]), ([], []))
        # the two-player form as before, and a list of one is the same
        for to in ("Bo", ["Bo"]):
            c = self.challenge(ann, to)
            self.assertEqual((c["players"], c["mode"], c["to"]), (2, "standard", "Bo"))
            self.assertEqual(c["invited"], [{"name": "Bo", "accepted": False}])


if __name__ == "__main__":
    unittest.main()
