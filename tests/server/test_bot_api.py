"""test_bot_api.py - the Bot API end to end on the real server (docs/bot-api.md):

- personal tokens: shown once, listed without the secret, revoked (401 from then on, an
  open event stream closed), never a session cookie and no session a token, scopes;
- an account becomes a bot once, never after a rated game; BOT wherever its name shows
  (a game's seats, its profile, the bots' leaderboard apart, GET /api/bots);
- a person challenges a bot: the bot's event stream says so; declined with a reason, then
  accepted into a game that starts on the stream; a challenge of the bot's that a person
  declines comes back declined;
- the game stream: the state of the bot's seat first, with the engine's position; never a
  tile of another seat; an illegal move refused with its reason and nothing changed; the
  stream opened again mid-game starts with the state of now; the game played to its end
  by `axio engine` through POST .../move, and the stream ends after it;
- 429 with Retry-After once a token's requests are spent.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from accounts_lib import CLOCK, call, register, session_of
from botlib import PW, Engine, Stream, api, make_bot, new_token, to_decide
from harness import AXIO, Client, ServerTest, check_record, ready


def challenge(server, session, to, **terms):
    body = {"to": to, "variant": "square", **terms}
    status, reply, _ = api(server, "POST", "/api/challenges", body, session=session)
    assert status == 201, (status, reply)
    return reply["challenge"]


def tiles_of(rack):
    return sorted(json.dumps(t) for t in rack)


class Tokens(ServerTest):
    # the address's own limit (20 requests a second) out of the way of the token's
    server_args = ("--request-rate", "1000")

    def test_a_token_is_shown_once_and_revoked(self):
        ann = register(self.server, "Ann", PW)
        secret, tid = new_token(self.server, ann, ["game:read"], label="reader")
        self.assertTrue(secret.startswith("axio_"))
        status, listed, _ = api(self.server, "GET", "/api/me/tokens", session=ann)
        self.assertEqual(status, 200)
        self.assertEqual([(t["id"], t["label"], t["scopes"]) for t in listed["tokens"]],
                         [(tid, "reader", ["game:read"])])
        self.assertNotIn(secret, json.dumps(listed))
        # the token reads; it is no session cookie, and a session is no token
        self.assertEqual(api(self.server, "GET", "/api/me/challenges", token=secret)[0], 200)
        self.assertEqual(api(self.server, "GET", "/api/me/games", token=secret)[0], 200)
        self.assertEqual(call(self.server, "GET", "/api/me/tokens", token=secret)[0], 401)
        self.assertEqual(api(self.server, "GET", "/api/me/challenges",
                             headers={"Authorization": f"Bearer {ann}"})[0], 401)
        # a scope it was not given
        status, body, _ = api(self.server, "POST", "/api/challenges",
                              {"to": "Bo", "variant": "hex"}, token=secret)
        self.assertEqual((status, body["error"]["reason"]), (401, "scope"))
        self.assertEqual(api(self.server, "DELETE", f"/api/me/tokens/{tid}", session=ann)[0], 204)
        self.assertEqual(api(self.server, "GET", "/api/me/challenges", token=secret)[0], 401)
        self.assertEqual(api(self.server, "DELETE", f"/api/me/tokens/{tid}", session=ann)[0], 404)

    def test_bad_token_requests_change_nothing(self):
        ann = register(self.server, "Ann", PW)
        for body in ({"label": "", "scopes": ["bot:play"]}, {"label": "x", "scopes": []},
                     {"label": "x", "scopes": ["root"]}, {"label": "a\u0007b", "scopes": ["bot:play"]},
                     {"label": "x" * 61, "scopes": ["bot:play"]}):
            self.assertEqual(api(self.server, "POST", "/api/me/tokens", body, session=ann)[0], 400)
        self.assertEqual(api(self.server, "GET", "/api/me/tokens", session=ann)[1], {"tokens": []})
        self.assertEqual(api(self.server, "POST", "/api/me/tokens",
                             {"label": "x", "scopes": ["bot:play"]})[0], 401)

    def test_requests_are_counted_per_token(self):
        ann = register(self.server, "Ann", PW)
        secret, _ = new_token(self.server, ann, ["game:read"])
        statuses = [api(self.server, "GET", "/api/me/challenges", token=secret)
                    for _ in range(61)]
        self.assertEqual([s for s, _, _ in statuses[:60]], [200] * 60,
                         [b for s, b, _ in statuses if s != 200][:1])
        status, body, headers = statuses[60]
        self.assertEqual((status, body["error"]["reason"]), (429, "requests"))
        headers = {k.lower(): v for k, v in headers.items()}
        self.assertGreaterEqual(int(headers["retry-after"]), 1)


class Bots(ServerTest):
    def test_an_account_becomes_a_bot_once(self):
        session, token = make_bot(self.server, "Robo", about="run by Ann <b>; axio strong")
        status, body, _ = api(self.server, "POST", "/api/bot/account/upgrade", {}, token=token)
        self.assertEqual((status, body["error"]["code"]), (409, "already_bot"))
        profile = call(self.server, "GET", "/api/players/Robo")[1]
        self.assertEqual((profile["bot"], profile["about"]), (True, "run by Ann <b>; axio strong"))
        self.assertIn("Robo", [b["name"] for b in call(self.server, "GET", "/api/bots")[1]["bots"]])
        # a bot plays through the Bot API only
        status, _, _ = call(self.server, "POST", "/api/games",
                            {"variant": "hex", "seats": [{"kind": "human"}, {"kind": "ai",
                                                                               "level": "random"}]},
                            token=session)
        self.assertEqual(status, 403)

    def test_no_bot_after_a_rated_game(self):
        ann = register(self.server, "Ann", PW)
        status, game, _ = call(self.server, "POST", "/api/games",
                               {"variant": "square", "rated": True, "clock": CLOCK,
                                "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]},
                               token=ann)
        self.assertEqual(status, 201, game)
        c = Client(self.server, game["game"], game["token"], 0, session=ann)
        c.wait_type("history")
        c.send({"type": "resign"})
        c.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "over")
        c.close()
        token, _ = new_token(self.server, ann)
        status, body, _ = api(self.server, "POST", "/api/bot/account/upgrade", {}, token=token)
        self.assertEqual((status, body["error"]["code"]), (409, "has_rated_games"))
        status, body, _ = api(self.server, "GET", "/api/bot/stream/event", token=token)
        self.assertEqual((status, body["error"]["code"]), (403, "not_a_bot"))


class Play(ServerTest):
    # the person of the tests moves at once from its hints, as fast as a bot answers: more
    # than the 10 messages a second a connection may send (a refused move stalled the game)
    server_args = ("--absent-s", "30", "--msg-rate", "1000")

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

    def test_a_person_plays_a_bot(self):
        ann = register(self.server, "Ann", PW)
        _, bot = make_bot(self.server, "Robo")
        events = self.stream("/api/bot/stream/event", bot)
        self.assertEqual(events.status, 200)
        self.assertEqual(events.headers["content-type"], "application/x-ndjson")
        # declined with a reason, then accepted
        first = challenge(self.server, ann, "Robo", variant="hex")
        self.assertEqual((first.get("to_bot"), first.get("from_bot")), (True, None))
        found = call(self.server, "GET", "/api/players?q=rob", token=ann)[1]["players"]
        self.assertEqual([(p["name"], p.get("bot")) for p in found], [("Robo", True)])
        line = events.wait(lambda l: l["type"] == "challenge")
        self.assertEqual((line["challenge"]["id"], line["challenge"]["from"]), (first["id"], "Ann"))
        status, _, _ = api(self.server, "POST", f"/api/challenges/{first['id']}/decline",
                           {"reason": "variant"}, token=bot)
        self.assertEqual(status, 204)
        seen = api(self.server, "GET", f"/api/challenges/{first['id']}", session=ann)[1]
        self.assertEqual((seen["challenge"]["status"], seen["challenge"]["reason"]),
                         ("declined", "variant"))
        second = challenge(self.server, ann, "Robo", variant="square", clock=CLOCK, rated=True)
        events.wait(lambda l: l["type"] == "challenge" and l["challenge"]["id"] == second["id"])
        status, accepted, _ = api(self.server, "POST", f"/api/challenges/{second['id']}/accept",
                                  token=bot)
        self.assertEqual(status, 200, accepted)
        start = events.wait(lambda l: l["type"] == "gameStart")
        game, seat = start["game"]["id"], start["game"]["seat"]
        self.assertEqual((game, seat), (accepted["game"], accepted["seat"]))
        # the bot's seat shows BOT to the person
        person = Client(self.server, game, None, 1 - seat, session=ann)
        self.clients.append(person)
        person.wait_type("history")
        self.assertTrue(person.state["game"]["seats"][seat].get("bot"))
        self.assertNotIn("bot", person.state["game"]["seats"][1 - seat])

        stream = self.stream(f"/api/bot/game/stream/{game}", bot)
        state = stream.next()
        self.assertEqual((state["type"], state["you"]["seat"]), ("state", seat))
        self.check_own_view(state, seat)
        self.engine = Engine()
        illegal_done = reopened = False
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            # the person moves when its turn comes, the bot when a state line asks it to
            for _ in range(5):
                try:
                    person.recv(0.02)
                except Exception:  # noqa: BLE001 - nothing more now
                    break
            if person.my_turn():
                person.act()
            try:
                line, state = (state, None) if state else (stream.next(0.2), None)
            except AssertionError:
                continue
            if line["type"] != "state":
                continue
            self.check_own_view(line, seat)
            if line["game"]["status"] != "running":
                break
            if not to_decide(line):
                continue
            if line["game"]["phase"] != "place":
                status, body, _ = api(self.server, "POST", f"/api/bot/game/{game}/move",
                                      {"type": "swap", "accept": True}, token=bot)
                self.assertEqual(status, 200, body)
                continue
            if not illegal_done:  # a cell off the board: refused, nothing changes
                ply = line["game"]["ply"]
                status, body, _ = api(self.server, "POST", f"/api/bot/game/{game}/move",
                                      {"type": "place", "rack_index": 0,
                                       "cells": [[99, 99], [99, 100]]}, token=bot)
                self.assertEqual((status, body["error"]["code"]), (400, "illegal_move"))
                self.assertEqual(call(self.server, "GET", f"/api/games/{game}")[1]["ply"], ply)
                illegal_done = True
            if line["game"]["ply"] > 10 and not reopened:
                # the stream again, mid-game: it starts with the state of now
                stream.close()
                stream = self.stream(f"/api/bot/game/stream/{game}", bot)
                again = stream.next()
                self.assertEqual((again["type"], again["game"]["ply"]),
                                 ("state", line["game"]["ply"]))
                reopened = True
            move = self.engine.decide(line["position"])
            status, body, _ = api(self.server, "POST", f"/api/bot/game/{game}/move",
                                  {"move": move}, token=bot)
            self.assertEqual(status, 200, body)
        self.assertLess(time.monotonic(), deadline, "the game did not end in 180 s: last line "
                        f"{json.dumps(line)[:300]}, the person's state {json.dumps(person.state)[:600]}")
        self.assertEqual(line["game"]["status"], "over")
        self.assertTrue(illegal_done and reopened)
        # the stream ends after the game; the event stream says it finished
        with self.assertRaises(EOFError):
            while True:
                stream.next(10)
        finish = events.wait(lambda l: l["type"] == "gameFinish")
        self.assertEqual((finish["game"]["id"], finish["game"]["status"]), (game, "over"))
        board = call(self.server, "GET", "/api/leaderboard?variant=square&bots=1")[1]
        self.assertEqual([(p["name"], p.get("bot")) for p in board], [("Robo", True)])
        people = call(self.server, "GET", "/api/leaderboard?variant=square")[1]
        self.assertNotIn("Robo", [p["name"] for p in people])

    def check_own_view(self, state, seat):
        """The bot's view: its own rack as tiles, every other rack as a count."""
        position = state["position"]
        self.assertEqual(position["seat"], seat)
        for i, s in enumerate(position["seats"]):
            if i == seat:
                self.assertEqual(tiles_of(s["rack"]), tiles_of(state["you"]["rack"]))
            else:
                self.assertIsInstance(s["rack"], int)

    def test_a_declined_challenge_of_the_bot_comes_back(self):
        ann = register(self.server, "Ann", PW)
        _, bot = make_bot(self.server, "Robo")
        events = self.stream("/api/bot/stream/event", bot)
        status, sent, _ = api(self.server, "POST", "/api/challenges",
                              {"to": "Ann", "variant": "rota"}, token=bot)
        self.assertEqual(status, 201, sent)
        status, _, _ = api(self.server, "POST", f"/api/challenges/{sent['challenge']['id']}/decline",
                           {"reason": "later"}, session=ann)
        self.assertEqual(status, 204)
        line = events.wait(lambda l: l["type"] == "challengeDeclined")
        self.assertEqual((line["challenge"]["id"], line["challenge"]["reason"]),
                         (sent["challenge"]["id"], "later"))

    def test_the_python_bot_of_the_docs_plays_a_game(self):
        """docs/bot-api.md's bot, as printed there, accepts a person's challenge and plays
        the game to its end with `axio engine`."""
        doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                                "bot-api.md")).read()
        code = doc.split("## A bot in 60 lines of Python")[1].split("```python\n")[1]
        code = code.split("```")[0]
        tmp = tempfile.mkdtemp()
        with open(os.path.join(tmp, "bot.py"), "w") as f:
            f.write(code)
        _, token = make_bot(self.server, "Pybot")
        with open(os.path.join(tmp, "token"), "w") as f:
            f.write(token + "\n")
        env = dict(os.environ, AXIO_URL=f"http://127.0.0.1:{self.server.port}",
                   AXIO_TOKEN_FILE=os.path.join(tmp, "token"),
                   AXIO_ENGINE=f"{AXIO} engine --player random")
        env["PYTHONUNBUFFERED"] = "1"  # its prints reach us even when it is killed
        bot = subprocess.Popen([sys.executable, os.path.join(tmp, "bot.py")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = ""
        try:
            ann = register(self.server, "Ann", PW)
            sent = challenge(self.server, ann, "Pybot", variant="hex")
            # Generous: a loaded machine (browser tests alongside) starts Python slowly.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                seen = api(self.server, "GET", f"/api/challenges/{sent['id']}", session=ann)[1]
                if seen["challenge"]["game"]:
                    break
                time.sleep(0.2)
            game = seen["challenge"]["game"]
            self.assertTrue(game, "the bot did not accept")
            seats = call(self.server, "GET", f"/api/games/{game}")[1]["seats"]
            mine = [i for i, seat in enumerate(seats) if seat["name"] == "Ann"][0]
            person = Client(self.server, game, None, mine, session=ann)
            self.clients.append(person)
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                if person.state and person.state["game"]["status"] == "over":
                    break
                if person.my_turn():
                    person.act()
                for c in ready([person], 0.2):
                    msg = c.recv(1)
                    self.assertNotEqual(msg["type"], "error", msg)
            self.assertEqual(person.state["game"]["status"], "over", (
                "ply", person.state["game"]["ply"], "to move", person.state["game"]["to_move"],
                "the person's seat", mine))
            check_record(self, self.server, [person])
        except AssertionError as e:
            bot.kill()
            out = bot.communicate()[0]
            raise AssertionError(f"{e}\n--- the bot printed ---\n{out}") from e
        finally:
            if bot.returncode is None:
                bot.kill()
                out = bot.communicate()[0]
        self.assertNotIn("Traceback", out)

    def test_a_revoked_token_ends_its_stream_and_a_newer_stream_the_older(self):
        session = register(self.server, "Robo", PW)
        token, tid = new_token(self.server, session)
        self.assertEqual(api(self.server, "POST", "/api/bot/account/upgrade", {}, token=token)[0],
                         200)
        older = self.stream("/api/bot/stream/event", token)
        newer = self.stream("/api/bot/stream/event", token)
        self.assertTrue(older.ended.wait(10), "the older stream of the token goes on")
        self.assertFalse(newer.ended.is_set())
        self.assertEqual(api(self.server, "DELETE", f"/api/me/tokens/{tid}", session=session)[0],
                         204)
        self.assertTrue(newer.ended.wait(10), "a revoked token's stream goes on")
        status, _, _ = api(self.server, "GET", "/api/bot/stream/event", token=token)
        self.assertEqual(status, 401)


if __name__ == "__main__":
    unittest.main()
