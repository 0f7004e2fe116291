"""Names in any script over HTTP and WebSocket: games created and joined with names of
many scripts show them back, normalized (NFC, spaces trimmed and collapsed), in
GET /api/games/{id}, the lobby, the WebSocket state, the history's start line, chat and
the record, also after a restart (the longest name: 24 characters of 4 bytes); names
the server refuses get `400 bad_message` with the reason and change nothing."""
import json
import unicodedata

from accounts_lib import login, register
from harness import Server, ServerTest, db_query, play_until_over

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "strong"}
LONGEST = "\U00020000" * 24  # 24 letters of CJK Extension B, 4 bytes each
BAD_CHAR = "name may hold letters, digits, spaces and _ - . only"
BAD_LENGTH = "name must be 1 to 24 characters"


class Names(ServerTest):
    server_args = ("--msg-rate", "1000", "--request-rate", "1000")

    def game(self, game_id):
        status, game, _ = self.server.http("GET", f"/api/games/{game_id}")
        self.assertEqual(status, 200, game)
        return game

    def test_four_scripts_in_one_game(self):
        names = ["Őrség", "山田", "देवनागरी", "สมชาย"]
        created = self.server.create("hex", [HUMAN] * 4, name=names[0], mode="team")
        game = created["game"]
        tokens = [created["token"]]
        for name in names[1:]:
            tokens.append(self.server.join(game, name)["token"])
        self.assertEqual([s["name"] for s in self.game(game)["seats"]], names)
        lobby = self.server.http("GET", "/api/games")[1]
        self.assertEqual([s["name"] for s in lobby[0]["seats"]], names)
        clients = [self.connect(game, t, i) for i, t in enumerate(tokens)]
        for c in clients:
            self.assertEqual([s["name"] for s in c.state["game"]["seats"]], names)
            start = next(e for e in c.events if e["ev"] == "start")
            self.assertEqual(start["names"], names)

    def test_normalized_form_is_stored_and_shown(self):
        typed = {
            "A\u030angstro\u0308m": "Ångström",  # decomposed (NFD) comes back composed
            "  Ann   Bo  ": "Ann Bo",
            "Μαρία Δ.": "Μαρία Δ.",
            "Дмитрий_2": "Дмитрий_2",
            "محمد": "محمد",
            "مُحَمَّد": "مُحَمَّد",
            "Łucja-Żółć": "Łucja-Żółć",
            "山" * 24: "山" * 24,
            LONGEST: LONGEST,
        }
        for raw, want in typed.items():
            with self.subTest(name=want):
                created = self.server.create("square", [HUMAN, HUMAN], name="Ann")
                joined = self.server.join(created["game"], raw)
                game = self.game(created["game"])
                self.assertEqual(game["seats"][1]["name"], want)
                self.assertEqual(unicodedata.normalize("NFC", game["seats"][1]["name"]), want)
                c = self.connect(created["game"], joined["token"], 1)
                self.assertEqual(c.state["game"]["seats"][1]["name"], want)
                c.close()
                self.clients.remove(c)

    def test_refused_names(self):
        refused = {
            "<b>Ann</b>": BAD_CHAR,
            "Ann 😀": BAD_CHAR,
            "😀": BAD_CHAR,
            "a\tb": BAD_CHAR,
            "a\u0007b": BAD_CHAR,
            "a\u200bb": BAD_CHAR,
            "\u3164": BAD_CHAR,
            "O'Brien": BAD_CHAR,
            "a" * 25: BAD_LENGTH,
            "山" * 25: BAD_LENGTH,
            "\U00020000" * 25: BAD_LENGTH,
            "   ": BAD_LENGTH,
            "\u0301a": "a combining mark in a name must follow a letter",
        }
        # the reason's id, which clients translate, goes with its text
        ids = {BAD_CHAR: "name_chars", BAD_LENGTH: "name_length",
               "a combining mark in a name must follow a letter": "name_mark"}
        waiting = self.server.create("square", [HUMAN, HUMAN], name="Ann")["game"]
        for name, reason in refused.items():
            with self.subTest(name=name):
                want = (400, {"code": "bad_message", "message": reason, "reason": ids[reason]})
                body = {"variant": "square", "players": 2, "name": name}
                status, reply, _ = self.server.http("POST", "/api/games", body)
                self.assertEqual((status, reply["error"]), want)
                status, reply, _ = self.server.http("POST", f"/api/games/{waiting}/join", {"name": name})
                self.assertEqual((status, reply["error"]), want)
                status, reply, _ = self.server.http("POST", "/api/accounts", {"name": name, "password": "x" * 8})
                self.assertEqual((status, reply["error"]), want)
        # invalid UTF-8 never gets past the JSON parser
        raw = b'{"variant":"square","players":2,"name":"\xff\xfe"}'
        status, reply, _ = self.server.http("POST", "/api/games", raw=raw,
                                            headers={"Content-Type": "application/json"})
        self.assertEqual((status, reply["error"]["code"]), (400, "bad_json"))
        # nothing changed: one game, its second seat still free
        lobby = self.server.http("GET", "/api/games")[1]
        self.assertEqual([g["id"] for g in lobby], [waiting])
        self.assertEqual([s["taken"] for s in self.game(waiting)["seats"]], [True, False])

    def test_computer_seats_keep_their_names(self):
        created = self.server.create("square", [HUMAN, AI, {"kind": "ai", "level": "greedy"}], name="Ann")
        names = [s["name"] for s in self.game(created["game"])["seats"]]
        self.assertEqual(names, ["Ann", "strong (AI)", "greedy (AI)"])

    def test_longest_name_in_chat_and_record_survives_a_restart(self):
        created = self.server.create("rota", [HUMAN, HUMAN], name=LONGEST)
        game = created["game"]
        joined = self.server.join(game, "देवनागरी")
        ann = self.connect(game, created["token"], 0)
        bo = self.connect(game, joined["token"], 1)
        ann.send({"type": "chat", "text": "नमस्ते"})
        msg = bo.wait_type("chat")
        self.assertEqual(msg["from"], {"seat": 0, "name": LONGEST})
        play_until_over([ann, bo])
        status, text, _ = self.server.http("GET", f"/api/games/{game}/record")
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(text.splitlines()[0])["names"], [LONGEST, "देवनागरी"])
        for c in self.clients:
            c.close()
        self.clients = []
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.server = Server(self.db, *self.server_args)
        self.assertEqual([s["name"] for s in self.game(game)["seats"]], [LONGEST, "देवनागरी"])
        c = self.connect(game)
        history = c.wait_type("chat_history")
        self.assertEqual([(m["from"]["name"], m["text"]) for m in history["messages"]],
                         [(LONGEST, "नमस्ते")])


class StoredSkeletons(ServerTest):
    """The look-alike keys of accounts stored by an older server (which let "Victim" with a
    variation selector and fullwidth "Ｖｉｃｔｉｍ" be accounts beside "Victim") are
    recomputed when the server starts: both accounts stay and sign in, the clash is said
    once on stderr, and no new name may look like either."""

    def test_older_keys_are_recomputed_and_clashes_kept(self):
        pw = "correct horse"
        register(self.server, "Victim", pw)
        register(self.server, "Other", pw)
        register(self.server, "Third", pw)
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        # as an older server stored them: its skeletons, which kept invisible code points
        # and fullwidth letters
        db_query(self.db, "UPDATE accounts SET name = ?, name_key = ?, name_skeleton = ?"
                 " WHERE name = 'Other'", "Victim\ufe0f", "victim\ufe0f", "victirn\ufe0f")
        db_query(self.db, "UPDATE accounts SET name = ?, name_key = ?, name_skeleton = ?"
                 " WHERE name = 'Third'", "\uff36\uff49\uff43\uff54\uff49\uff4d",
                 "\uff56\uff49\uff43\uff54\uff49\uff4d", "\uff36ic\uff54i\uff4d")
        self.server = Server(self.db)
        said = [line for line in self.server.errors().splitlines() if "look alike" in line]
        self.assertEqual(len(said), 2, said)
        self.assertIn('"Victim\ufe0f" and "Victim"', said[0] + said[1])
        # each signs in with its own name, as before
        for name in ("Victim", "Victim\ufe0f", "\uff36\uff49\uff43\uff54\uff49\uff4d"):
            status, value, _ = login(self.server, name, pw)
            self.assertEqual((status, value["name"]), (200, name), ascii(name))
        status, value, _ = self.server.http("POST", "/api/accounts",
                                            {"name": "VICTIM\u034f", "password": pw})
        self.assertEqual((status, value["error"].get("reason")), (409, "name_confusable"))
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        skeletons = db_query(self.db, "SELECT name_skeleton FROM accounts"
                             " WHERE computer = 0 ORDER BY id")
        self.assertEqual(skeletons, [("victirn",)] * 3)
        # said once: the next start finds every key as it should be
        self.server = Server(self.db)
        self.assertNotIn("look alike", self.server.errors())


if __name__ == "__main__":
    import unittest
    unittest.main()
