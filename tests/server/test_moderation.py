"""test_moderation.py - keeping order (docs/moderation.md, issue 51), on the real server:

- blocks: private; a blocked player is refused joining the blocker's open game and
  challenging the blocker, is not paired with the blocker by quick pairing, and the blocker
  no longer gets its chat; unblocking undoes it;
- reports of a player, a game and a chat line: checked, limited to a few an hour, never
  shown to the reported player;
- the moderator role from `axio admin grant NAME moderator` (and revoke); every moderator
  endpoint refuses a guest, a player who is no moderator, and another site's page;
- each action and its undo: warn (seen at the next visit), chat timeout (site-wide and in one
  game), shadow mute (the line reaches its writer only: not the other player, not a
  spectator, and is never stored), rename (the old name held back), close (off the
  leaderboard, refused at login, its seats "closed account"); each written to the log, which
  the database keeps append-only;
- the word lists refuse an offensive name and report a chat line; the sandbagging rules
  (rated games lost at once, several times; five rated games lost to one opponent) file a
  report with the games.
"""
import json
import os
import subprocess
import time
import unittest

from accounts_lib import CLOCK, call, create, join, login, me, register, session_of
from harness import AXIO, SRC, Client, Server, ServerTest, db_query

PW = "correct horse"
HUMAN = {"kind": "human"}
WORDS = os.path.join(SRC, "data", "wordlist")


def admin(db, *args):
    return subprocess.run([AXIO, "admin", *args, "--db", db], capture_output=True, text=True,
                          timeout=60)


def error_code(value):
    return value.get("error", {}).get("code") if isinstance(value, dict) else None


class Moderation(ServerTest):
    server_args = ("--word-list", WORDS)

    def setUp(self):
        super().setUp()
        self.mo = register(self.server, "Mo", PW)
        self.ann = register(self.server, "Ann", PW)
        self.bo = register(self.server, "Bo", PW)
        self.cy = register(self.server, "Cy", PW)
        # the role is given on the database, with the server stopped (SQLite's lock)
        self.assertEqual(self.server.stop(), 0)
        r = admin(self.db, "grant", "Mo", "moderator")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Mo is a moderator now", r.stdout)
        self.assertEqual(admin(self.db, "grant", "Mo", "moderator").stdout.strip(),
                         "Mo is a moderator already")
        self.assertEqual(admin(self.db, "list").stdout, "Mo\tmoderator\n")
        self.assertEqual(admin(self.db, "grant", "Nobody", "moderator").returncode, 1)
        self.assertEqual(admin(self.db, "grant", "Mo", "king").returncode, 2)
        self.server = Server(self.db, *self.server_args)

    def mod(self, method, path, body=None, token=None):
        return call(self.server, method, "/api/mod" + path, body, token=token or self.mo)

    def act(self, body):
        status, value, _ = self.mod("POST", "/actions", body)
        self.assertEqual(status, 201, value)
        return value

    def undo(self, action_id, reason="a mistake"):
        status, value, _ = self.mod("POST", f"/actions/{action_id}/undo", {"reason": reason})
        self.assertEqual(status, 200, value)
        return value

    def log(self, **query):
        q = "&".join(f"{k}={v}" for k, v in query.items())
        status, value, _ = self.mod("GET", "/log" + ("?" + q if q else ""))
        self.assertEqual(status, 200, value)
        return value["log"]

    def casual_game(self, a, b):
        """A game of two accounts (no clock), both connected with their sessions, and a
        guest spectator: (game id, a's client, b's client, the spectator)."""
        game = create(self.server, a, {"variant": "square", "players": 2, "seats": [HUMAN, HUMAN]})
        joined = join(self.server, b, game["game"])
        ca = self.connect(game["game"], token=game["token"], seat=0, session=a)
        cb = self.connect(game["game"], token=joined["token"], seat=1, session=b)
        spec = self.connect(game["game"])
        return game["game"], ca, cb, spec

    def chat_lines(self, client, until_text):
        """The chat texts a client gets up to (and with) the line until_text."""
        texts = []
        while True:
            m = client.wait_type("chat")
            texts.append(m["text"])
            if m["text"] == until_text:
                return texts

    # --- players protect themselves ---

    def test_block_refuses_join_challenge_and_chat(self):
        game, ca, cb, spec = self.casual_game(self.ann, self.bo)
        status, _, _ = call(self.server, "POST", "/api/me/blocks", {"name": "Bo"}, token=self.ann)
        self.assertEqual(status, 204)
        self.assertEqual(call(self.server, "GET", "/api/me/blocks", token=self.ann)[1],
                         {"blocks": [{"name": "Bo"}]})
        # private: Bo sees nothing of it
        self.assertEqual(call(self.server, "GET", "/api/me/blocks", token=self.bo)[1], {"blocks": []})
        self.assertNotIn("blocked", str(me(self.server, self.bo)[1]))
        # Bo's chat no longer reaches Ann (the spectator still gets it), Cy's does
        cb.send({"type": "chat", "text": "from Bo"})
        self.assertEqual(self.chat_lines(spec, "from Bo"), ["from Bo"])
        ca.send({"type": "chat", "text": "from Ann"})
        self.assertEqual(self.chat_lines(ca, "from Ann"), ["from Ann"], "Bo's line reached Ann")
        # nor in the history of a new connection of Ann's
        again = self.connect(game, session=self.ann, seat=0)
        history = [m["text"] for m in again.wait_type("chat_history")["messages"]]
        self.assertEqual(history, ["from Ann"])
        spec_again = self.connect(game)
        history = [m["text"] for m in spec_again.wait_type("chat_history")["messages"]]
        self.assertEqual(history, ["from Bo", "from Ann"])
        # Bo cannot join Ann's open game, nor challenge her; Cy can
        open_game = create(self.server, self.ann, {"variant": "square", "players": 2,
                                                   "seats": [HUMAN, HUMAN]})["game"]
        status, value, _ = call(self.server, "POST", f"/api/games/{open_game}/join", {}, token=self.bo)
        self.assertEqual((status, error_code(value)), (403, "forbidden"))
        self.assertNotIn("block", value["error"]["message"])
        status, value, _ = call(self.server, "POST", "/api/challenges",
                                {"to": "Ann", "variant": "square"}, token=self.bo)
        self.assertEqual((status, error_code(value)), (403, "forbidden"))
        self.assertEqual(call(self.server, "POST", "/api/challenges",
                              {"to": "Ann", "variant": "square"}, token=self.cy)[0], 201)
        # nor in a group challenge (Ann among those invited): nothing is stored
        status, value, _ = call(self.server, "POST", "/api/challenges",
                                {"to": ["Cy", "Ann"], "variant": "square"}, token=self.bo)
        self.assertEqual((status, error_code(value)), (403, "forbidden"))
        self.assertEqual(call(self.server, "GET", "/api/me/challenges", token=self.bo)[1]["sent"], [])
        # bad blocks change nothing
        for body, code in [({"name": "Ann"}, 400), ({"name": "Nobody"}, 404), ({}, 400),
                           ({"name": "random"}, 400)]:
            self.assertEqual(call(self.server, "POST", "/api/me/blocks", body, token=self.ann)[0], code)
        self.assertEqual(call(self.server, "POST", "/api/me/blocks", {"name": "Bo"})[0], 401)
        # unblocked: Bo joins
        self.assertEqual(call(self.server, "DELETE", "/api/me/blocks/Bo", token=self.ann)[0], 204)
        self.assertEqual(call(self.server, "GET", "/api/me/blocks", token=self.ann)[1], {"blocks": []})
        self.assertEqual(call(self.server, "POST", f"/api/games/{open_game}/join", {},
                              token=self.bo)[0], 200)
        cb.send({"type": "chat", "text": "Bo again"})
        self.assertEqual(self.chat_lines(ca, "Bo again"), ["Bo again"])

    def test_blocked_players_are_not_paired(self):
        self.assertEqual(call(self.server, "POST", "/api/me/blocks", {"name": "Bo"}, token=self.ann)[0], 204)
        terms = {"variant": "square"}
        status, s1, _ = call(self.server, "POST", "/api/seeks", terms, token=self.ann)
        self.assertEqual((status, s1["seek"]["status"]), (201, "waiting"))
        status, s2, _ = call(self.server, "POST", "/api/seeks", terms, token=self.bo)
        self.assertEqual((status, s2["seek"]["status"]), (201, "waiting"), "Bo was paired with Ann")
        status, s3, _ = call(self.server, "POST", "/api/seeks", terms, token=self.cy)
        self.assertEqual((status, s3["seek"]["status"]), (201, "matched"))
        # Cy plays Ann or Bo (which one is the pairing's choice: under load Ann's seek may
        # have waited longer unpolled), never Ann and Bo together
        games = [call(self.server, "GET", f"/api/seeks/{s['seek']['id']}", token=t)[1]["seek"]["game"]
                 for s, t in ((s1, self.ann), (s2, self.bo))]
        self.assertIn(s3["seek"]["game"], games)
        self.assertNotEqual(games[0], games[1])

    def test_reports_are_checked_limited_and_private(self):
        game, ca, cb, spec = self.casual_game(self.ann, self.bo)
        ca.send({"type": "chat", "text": "you play like a potato"})
        self.chat_lines(cb, "you play like a potato")  # the game's first line: number 0
        good = {"player": "Ann", "reason": "insults", "text": "rude", "game": game, "chat": 0}
        for body, code in [({**good, "reason": "ugly"}, 400), ({**good, "player": "Nobody"}, 404),
                           ({**good, "player": "Bo"}, 400), ({**good, "text": "x" * 2001}, 400),
                           ({**good, "text": "a\u0001b"}, 400), ({**good, "chat": 7}, 404),
                           ({**good, "game": "x"}, 400), ({**good, "game": "abcdefghijkl"}, 404),
                           ({k: v for k, v in good.items() if k != "game"}, 400),
                           ({**good, "player": 5}, 400), ({**good, "player": "random"}, 404)]:
            status, value, _ = call(self.server, "POST", "/api/reports", body, token=self.bo)
            self.assertEqual(status, code, (body, value))
        self.assertEqual(call(self.server, "POST", "/api/reports", good)[0], 401)
        self.assertEqual(self.mod("GET", "/reports")[1]["reports"], [], "a bad report was stored")
        status, value, _ = call(self.server, "POST", "/api/reports", {**good, "text": "x" * 2000},
                                token=self.bo)
        self.assertEqual(status, 201, value)
        queue = self.mod("GET", "/reports")[1]["reports"]
        self.assertEqual(len(queue), 1)
        r = queue[0]
        self.assertEqual((r["player"], r["reporter"], r["reason"], r["game"], r["chat_line"],
                          r["automatic"]), ("Ann", "Bo", "insults", game, 0, False))
        self.assertEqual([line["text"] for line in r["chat"]], ["you play like a potato"])
        self.assertIn("games", r["history"])
        # a player report, and a game report, then the limit: 5 an hour
        for body in [{"player": "Ann", "reason": "other"},
                     {"player": "Ann", "reason": "stalling", "game": game},
                     {"player": "Cy", "reason": "offensive_name"},
                     {"player": "Cy", "reason": "spam"}]:
            self.assertEqual(call(self.server, "POST", "/api/reports", body, token=self.bo)[0], 201)
        status, value, _ = call(self.server, "POST", "/api/reports", {"player": "Cy", "reason": "spam"},
                                token=self.bo)
        self.assertEqual((status, error_code(value)), (429, "rate_limited"))
        # nothing of it reaches Ann
        self.assertEqual(me(self.server, self.ann)[1]["warnings"], [])
        for path in ["/api/mod/reports", "/api/mod/log"]:
            self.assertEqual(call(self.server, "GET", path, token=self.ann)[0], 403)
        self.assertNotIn("potato", str(call(self.server, "GET", "/api/players/Ann", token=self.ann)[1]))

    # --- who may moderate ---

    def test_every_moderator_endpoint_refuses_others(self):
        report = call(self.server, "POST", "/api/reports", {"player": "Ann", "reason": "spam"},
                      token=self.bo)[1]["id"]
        warn = self.act({"action": "warn", "player": "Ann", "reason": "r", "text": "t"})["id"]
        before = self.log()
        endpoints = [("GET", "/api/mod/reports", None), ("GET", "/api/mod/reports?status=all", None),
                     ("GET", "/api/mod/log", None),
                     ("POST", "/api/mod/actions", {"action": "close", "player": "Ann",
                                                   "reason": "x"}),
                     ("POST", f"/api/mod/actions/{warn}/undo", {"reason": "x"}),
                     ("POST", f"/api/mod/reports/{report}/close", {"reason": "x"})]
        evil = {"Origin": "https://evil.example"}

        def slow(*args, **kw):  # slower than the transport's requests per second
            time.sleep(0.08)
            return call(*args, **kw)
        for method, path, body in endpoints:
            self.assertEqual(slow(self.server, method, path, body)[0], 401, path)
            self.assertEqual(slow(self.server, method, path, body, headers=evil)[0],
                             401 if method == "GET" else 403, path)
            for token in (self.ann, self.bo):
                self.assertEqual(slow(self.server, method, path, body, token=token)[0], 403, path)
                self.assertEqual(slow(self.server, method, path, body, token=token,
                                      headers=evil)[0], 403, path)
            if method == "POST":  # a moderator's own cookie from another site's page
                self.assertEqual(slow(self.server, method, path, body, token=self.mo,
                                      headers=evil)[0], 403, path)
        self.assertEqual(self.log(), before, "a refused request was logged")
        self.assertEqual(len(self.mod("GET", "/reports")[1]["reports"]), 1)
        self.assertEqual(login(self.server, "Ann", PW)[0], 200, "a refused close closed")
        # a revoked moderator is refused at once
        if self.db.startswith("postgres"):
            self.assertEqual(admin(self.db, "revoke", "Mo", "moderator").returncode, 0)
            self.assertEqual(self.mod("GET", "/reports")[0], 403)

    # --- actions and their undo ---

    def test_warn_is_seen_at_the_next_visit(self):
        w = self.act({"action": "warn", "player": "Ann", "reason": "rude in chat",
                      "text": "Please be kind."})
        warnings = me(self.server, self.ann)[1]["warnings"]
        self.assertEqual([x["text"] for x in warnings], ["Please be kind."])
        self.assertEqual(me(self.server, self.bo)[1]["warnings"], [])
        self.assertEqual(call(self.server, "POST", "/api/me/warnings/seen", {}, token=self.ann)[0], 204)
        self.assertEqual(me(self.server, self.ann)[1]["warnings"], [])
        # an undone warning that was not seen is never shown
        w2 = self.act({"action": "warn", "player": "Ann", "reason": "again", "text": "Second."})
        self.undo(w2["id"])
        self.assertEqual(me(self.server, self.ann)[1]["warnings"], [])
        status, value, _ = self.mod("POST", f"/actions/{w2['id']}/undo", {"reason": "twice"})
        self.assertEqual((status, error_code(value)), (409, "undone"))
        actions = [(e["action"], e["player"], e["moderator"]) for e in self.log()]
        self.assertEqual(actions, [("undo", "Ann", "Mo"), ("warn", "Ann", "Mo"), ("warn", "Ann", "Mo")])
        self.assertEqual(self.log()[0]["reason"], "a mistake")
        self.assertEqual(w["player"], "Ann")
        # what each line did, as fields a page says in its own language
        undo, second, first = self.log()
        self.assertEqual((undo["action_id"], undo["undid"]), (w2["id"], "warn"))
        self.assertEqual((second["action_id"], second["text"]), (w2["id"], "Second."))
        self.assertEqual((first["action_id"], first["text"]), (w["id"], "Please be kind."))
        self.assertNotIn("detail", first)
        # a warning as long as allowed in 4-byte characters: the line holds it, shortened
        # to whole characters (the log's column holds 2,000 bytes)
        body = json.dumps({"action": "warn", "player": "Ann", "reason": "long",
                           "text": "\U0001F600" * 500}, ensure_ascii=False).encode()
        status, long, _ = call(self.server, "POST", "/api/mod/actions", raw=body, token=self.mo,
                               headers={"Content-Type": "application/json"})
        self.assertEqual(status, 201, long)
        line = self.log()[0]
        self.assertEqual(line["action_id"], long["id"])
        self.assertTrue(400 < len(line["text"]) < 500 and set(line["text"]) == {"\U0001F600"},
                        len(line["text"]))

    def test_bad_actions_change_nothing(self):
        for body in [{"action": "ban", "player": "Ann", "reason": "r"},
                     {"action": "warn", "player": "Ann", "reason": "r"},
                     {"action": "warn", "player": "Ann", "text": "t"},
                     {"action": "warn", "player": "Ann", "reason": "", "text": "t"},
                     {"action": "timeout", "player": "Ann", "reason": "r"},
                     {"action": "timeout", "player": "Ann", "reason": "r", "minutes": 0},
                     {"action": "timeout", "player": "Ann", "reason": "r", "minutes": 43201},
                     {"action": "timeout", "player": "Ann", "reason": "r", "minutes": 5, "game": 3},
                     {"action": "rename", "player": "Ann", "reason": "r"},
                     {"action": "rename", "player": "Ann", "reason": "r", "name": "Bo"},
                     {"action": "rename", "player": "Ann", "reason": "r", "name": "a\tb"},
                     {"action": "close", "player": "Nobody", "reason": "r"},
                     {"action": "close", "player": "Mo", "reason": "r"},
                     {"action": "close", "player": "strong", "reason": "r"},
                     {"action": "close", "player": "Ann", "reason": "r" * 501}]:
            status, value, _ = self.mod("POST", "/actions", body)
            self.assertIn(status, (400, 404, 409), (body, value))
        self.assertEqual(self.mod("POST", "/actions/999/undo", {"reason": "r"})[0], 404)
        self.assertEqual(self.mod("POST", "/actions/abc/undo", {"reason": "r"})[0], 404)
        self.assertEqual(self.mod("POST", "/reports/999/close", {"reason": "r"})[0], 404)
        self.assertEqual(self.mod("GET", "/reports?status=maybe")[0], 400)
        self.assertEqual(self.mod("GET", "/log?limit=0")[0], 400)
        self.assertEqual(self.log(), [])
        self.assertEqual(signed_name(self.server, self.ann), "Ann")

    def test_timeout_site_wide_and_in_one_game(self):
        game, ca, cb, spec = self.casual_game(self.ann, self.bo)
        t = self.act({"action": "timeout", "player": "Ann", "reason": "spam", "minutes": 10})
        self.assertGreater(t["until"], int(time.time() * 1000) + 9 * 60 * 1000)
        told = ca.wait_type("moderation")
        self.assertEqual((told["chat"], told["until"]), ("timeout", t["until"]))
        ca.send({"type": "chat", "text": "let me speak"})
        err = ca.wait_type("error")
        self.assertEqual((err["code"], err["until"]), ("chat_timeout", t["until"]))
        cb.send({"type": "chat", "text": "Bo may"})
        self.assertEqual(self.chat_lines(spec, "Bo may"), ["Bo may"])
        self.undo(t["id"])
        self.assertEqual(ca.wait_type("moderation")["chat"], "open")
        ca.send({"type": "chat", "text": "back"})
        self.assertEqual(self.chat_lines(cb, "back"), ["Bo may", "back"])
        # one game only: another game's chat goes on
        t2 = self.act({"action": "timeout", "player": "Ann", "reason": "spam", "minutes": 5,
                       "game": game})
        self.assertEqual(t2["game"], game)
        ca.send({"type": "chat", "text": "here"})
        self.assertEqual(ca.wait_type("error")["code"], "chat_timeout")
        other, oa, ob, _ = self.casual_game(self.ann, self.cy)
        oa.send({"type": "chat", "text": "there"})
        self.assertEqual(self.chat_lines(ob, "there"), ["there"])
        self.assertEqual([e["action"] for e in self.log()], ["timeout", "undo", "timeout"])
        line = self.log()[0]
        self.assertEqual((line["action_id"], line["minutes"], line["game"]), (t2["id"], 5, game))

    def test_shadow_mute_reaches_its_writer_only(self):
        game, ca, cb, spec = self.casual_game(self.ann, self.bo)
        m = self.act({"action": "shadow_mute", "player": "Ann", "reason": "troll"})
        ca.send({"type": "chat", "text": "nobody hears me"})
        self.assertEqual(ca.wait_type("chat")["text"], "nobody hears me")
        cb.send({"type": "chat", "text": "anyone?"})
        self.assertEqual(self.chat_lines(spec, "anyone?"), ["anyone?"])
        self.assertEqual(self.chat_lines(cb, "anyone?"), ["anyone?"])
        self.assertNotIn("nobody hears me", str(spec.raw) + str(cb.raw))
        # not stored: a new connection's history lacks it
        late = self.connect(game)
        self.assertNotIn("nobody hears me", str(late.raw))
        # Ann is not told
        self.assertFalse(any('"moderation"' in r for r in ca.raw))
        self.undo(m["id"])
        ca.send({"type": "chat", "text": "heard again"})
        self.assertEqual(self.chat_lines(spec, "heard again"), ["heard again"])

    def test_rename_holds_the_old_name_back(self):
        game = create(self.server, self.ann, {"variant": "square", "players": 2,
                                              "seats": [HUMAN, HUMAN]})["game"]
        r = self.act({"action": "rename", "player": "Ann", "reason": "offensive name",
                      "name": "Player 1234"})
        self.assertEqual(r["player"], "Player 1234")
        self.assertEqual(signed_name(self.server, self.ann), "Player 1234")
        self.assertEqual(self.server.http("GET", f"/api/games/{game}")[1]["seats"][0]["name"],
                         "Player 1234")
        status, value, _ = call(self.server, "POST", "/api/accounts", {"name": "ann", "password": PW})
        self.assertEqual((status, error_code(value), value["error"].get("reason")),
                         (409, "name_taken", "name_held"))
        self.assertEqual(login(self.server, "Player 1234", PW)[0], 200)
        self.undo(r["id"])
        self.assertEqual(signed_name(self.server, self.ann), "Ann")
        self.assertEqual(login(self.server, "Ann", PW)[0], 200)
        self.assertEqual([e["action"] for e in self.log(player="Ann")], ["undo", "rename"])
        self.assertEqual(self.log(player="Ann")[1]["name"], "Player 1234")

    def test_close_and_sandbagging(self):
        games = []
        for _ in range(3):  # Bo resigns three rated games at once: Ann's rating rises
            game = create(self.server, self.ann, {"variant": "square", "players": 2,
                                                  "clock": CLOCK, "rated": True,
                                                  "seats": [HUMAN, HUMAN]})
            joined = join(self.server, self.bo, game["game"])
            a = self.connect(game["game"], token=game["token"], seat=0, session=self.ann)
            b = self.connect(game["game"], token=joined["token"], seat=1, session=self.bo)
            b.send({"type": "resign"})
            a.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "over")
            games.append(game["game"])
        reports = self.mod("GET", "/reports")[1]["reports"]
        self.assertEqual(len(reports), 1, reports)
        r = reports[0]
        self.assertEqual((r["player"], r["reason"], r["automatic"], r["reporter"]),
                         ("Bo", "sandbagging", True, None))
        for g in games:
            self.assertIn(g, r["text"])
        self.assertNotIn("sandbagging", str(me(self.server, self.bo)[1]))

        def board():
            return [p["name"] for p in self.server.http("GET", "/api/leaderboard?variant=square")[1]]
        self.assertIn("Ann", board())
        casual = create(self.server, self.ann, {"variant": "square", "players": 2,
                                                "seats": [HUMAN, HUMAN]})
        held = self.connect(casual["game"], token=casual["token"], seat=0, session=self.ann)
        c = self.act({"action": "close", "player": "Ann", "reason": "abuse", "report": r["id"]})
        # her open connection is closed at once; with the seat's token alone she cannot chat
        self.assertEqual(held.wait_type("error")["code"], "account_closed")
        again = self.connect(casual["game"], token=casual["token"], seat=0)
        again.send({"type": "chat", "text": "still here"})
        self.assertEqual(again.wait_type("error")["code"], "account_closed")
        self.assertNotIn("Ann", board())
        self.assertEqual(self.mod("GET", "/reports")[1]["reports"], [], "the report was closed")
        status, value, _ = login(self.server, "Ann", PW)
        self.assertEqual((status, error_code(value)), (403, "account_closed"))
        self.assertEqual(login(self.server, "Ann", "wrong password")[0], 401)
        self.assertIsNone(me(self.server, self.ann)[1]["name"], "the session survived")
        self.assertEqual(self.server.http("GET", f"/api/games/{games[0]}")[1]["seats"][0]["name"],
                         "closed account")
        self.assertEqual(self.server.http("GET", "/api/players/Ann")[0], 404)
        self.assertEqual(self.server.http("GET", "/api/players?q=an")[1]["players"], [],
                         "a closed account is found by the search")
        status, value, _ = self.mod("POST", "/actions", {"action": "close", "player": "Ann",
                                                          "reason": "again"})
        self.assertEqual(status, 409)
        self.undo(c["id"])
        self.assertIn("Ann", board())
        status, _, hdrs = login(self.server, "Ann", PW)
        self.assertEqual(status, 200)
        self.assertEqual(self.server.http("GET", f"/api/games/{games[0]}")[1]["seats"][0]["name"], "Ann")
        self.assertEqual([e["action"] for e in self.log()], ["undo", "close"])
        # the log is the database's to keep: no row changes or goes
        for client in self.clients:
            client.close()
        self.clients = []
        self.assertEqual(self.server.stop(), 0)
        for statement in ["UPDATE mod_log SET reason = 'nothing'", "DELETE FROM mod_log"]:
            with self.assertRaises(Exception):
                db_query(self.db, statement)
        self.assertEqual(len(db_query(self.db, "SELECT id FROM mod_log")), 2)
        self.server = Server(self.db, *self.server_args)

    def test_repeated_losses_to_one_opponent(self):
        """Five rated games lost to Ann, each played a little first (no quick loss): a report."""
        from harness import ready
        games = []
        for n in range(5):
            game = create(self.server, self.ann, {"variant": "square", "players": 2,
                                                  "clock": CLOCK, "rated": True,
                                                  "seats": [HUMAN, HUMAN]})
            joined = join(self.server, self.bo, game["game"])
            a = self.connect(game["game"], token=game["token"], seat=0, session=self.ann)
            b = self.connect(game["game"], token=joined["token"], seat=1, session=self.bo)
            played = 0
            while played < 3:  # Bo decides three times, then resigns
                while not any(c.my_turn() for c in (a, b)):
                    for c in ready([a, b], 5.0):
                        c.recv()
                mover = next(c for c in (a, b) if c.my_turn())
                ply = mover.state["game"]["ply"]
                mover.act()
                played += mover is b
                for c in (a, b):
                    c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
            self.assertEqual(self.mod("GET", "/reports")[1]["reports"], [], f"a report after {n} games")
            b.send({"type": "resign"})
            a.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "over")
            games.append(game["game"])
        reports = self.mod("GET", "/reports")[1]["reports"]
        self.assertEqual(len(reports), 1, reports)
        r = reports[0]
        self.assertEqual((r["player"], r["reason"], r["automatic"]), ("Bo", "sandbagging", True))
        self.assertIn("to Ann", r["text"])
        for g in games:
            self.assertIn(g, r["text"])

    # --- the word lists ---

    def test_word_lists_refuse_a_name_and_report_a_chat_line(self):
        for name in ["Fucker", "xX_fucker_Xx", "KURVA", "Arsch Loch", "Hurensohn99"]:
            status, value, _ = call(self.server, "POST", "/api/accounts", {"name": name, "password": PW})
            self.assertEqual((status, value["error"].get("reason")), (400, "name_offensive"), name)
        self.assertEqual(call(self.server, "POST", "/api/accounts",
                              {"name": "Fuchs", "password": PW})[0], 201)
        game, ca, cb, spec = self.casual_game(self.ann, self.bo)
        ca.send({"type": "chat", "text": "good game"})
        ca.send({"type": "chat", "text": "you WANKER"})
        self.assertEqual(self.chat_lines(cb, "you WANKER"), ["good game", "you WANKER"])
        reports = self.mod("GET", "/reports")[1]["reports"]
        self.assertEqual(len(reports), 1, reports)
        r = reports[0]
        self.assertEqual((r["player"], r["reason"], r["automatic"], r["game"], r["chat_line"]),
                         ("Ann", "insults", True, game, 1))
        self.assertIn("wanker", r["text"])
        # more such lines while it is open: still one report
        ca.send({"type": "chat", "text": "fucking hell"})
        self.assertEqual(self.chat_lines(cb, "fucking hell"), ["fucking hell"])
        self.assertEqual(len(self.mod("GET", "/reports")[1]["reports"]), 1)
        # dismissed: closed and logged
        self.assertEqual(self.mod("POST", f"/reports/{r['id']}/close", {"reason": "banter"})[0], 204)
        self.assertEqual(self.mod("POST", f"/reports/{r['id']}/close", {"reason": "banter"})[0], 409)
        self.assertEqual([(e["action"], e["reason"]) for e in self.log()], [("close_report", "banter")])
        self.assertEqual(self.log()[0]["report"], r["id"])


def signed_name(server, token):
    return me(server, token)[1]["name"]


if __name__ == "__main__":
    unittest.main()
