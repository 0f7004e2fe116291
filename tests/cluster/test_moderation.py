"""test_moderation.py - moderation on a site of three servers (docs/moderation.md, issue 51):
three `axio serve` on one PostgreSQL behind the shipped nginx (cluster.py).

- A chat timeout given on one server silences the player's open game connection held by
  another within 2 s: the connection is told (`moderation`, `timeout`) and its next chat
  line is refused; the undo, given on a third server, reaches it as fast.
- A closed account's open game connection on another server is closed within 2 s; a rename
  given on one server shows in the game another holds.
- The role comes from `axio admin grant`, run beside the running servers.
"""
import os
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from cluster import Site  # noqa: E402
from accounts_lib import call, create, join, register  # noqa: E402
from harness import AXIO, Client, Closed  # noqa: E402

PW = "correct horse"
HUMAN = {"kind": "human"}
WITHIN_S = 2.0


class Moderation(unittest.TestCase):
    def setUp(self):
        self.site = Site(3, args=["--quiet"])
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        errors = self.site.errors()
        self.site.stop()
        self.assertNotIn("AddressSanitizer", errors)
        self.assertNotIn("runtime error", errors)

    def test_a_timeout_on_one_server_silences_a_socket_on_another(self):
        zero = self.site.instances[0]
        mo, ann, bo = (register(zero, n, PW) for n in ("Mo", "Ann", "Bo"))
        r = subprocess.run([AXIO, "admin", "grant", "Mo", "moderator", "--db", self.site.db],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        game = create(zero, ann, {"variant": "square", "players": 2, "seats": [HUMAN, HUMAN]})
        joined = join(zero, bo, game["game"])
        holder = self.site.holder(game["game"])
        self.assertIsNotNone(holder)
        here = self.site.instances[holder]
        elsewhere = [self.site.instances[(holder + k) % 3] for k in (1, 2)]
        a = Client(here, game["game"], game["token"], 0, session=ann)
        b = Client(here, game["game"], joined["token"], 1, session=bo)
        self.clients += [a, b]
        a.wait_type("history")
        b.wait_type("history")
        # given on another server
        start = time.monotonic()
        status, t, _ = call(elsewhere[0], "POST", "/api/mod/actions",
                            {"action": "timeout", "player": "Ann", "reason": "spam",
                             "minutes": 10}, token=mo)
        self.assertEqual(status, 201, t)
        told = a.wait_type("moderation", timeout=WITHIN_S)
        self.assertLess(time.monotonic() - start, WITHIN_S)
        self.assertEqual((told["chat"], told["until"]), ("timeout", t["until"]))
        a.send({"type": "chat", "text": "can I?"})
        self.assertEqual(a.wait_type("error", timeout=WITHIN_S)["code"], "chat_timeout")
        # undone on the third server
        start = time.monotonic()
        status, value, _ = call(elsewhere[1], "POST", f"/api/mod/actions/{t['id']}/undo",
                                {"reason": "enough"}, token=mo)
        self.assertEqual(status, 200, value)
        self.assertEqual(a.wait_type("moderation", timeout=WITHIN_S)["chat"], "open")
        self.assertLess(time.monotonic() - start, WITHIN_S)
        a.send({"type": "chat", "text": "thanks"})
        self.assertEqual(b.wait_type("chat", timeout=WITHIN_S)["text"], "thanks")
        # a rename given elsewhere: the game's holder shows the new name
        status, value, _ = call(elsewhere[0], "POST", "/api/mod/actions",
                                {"action": "rename", "player": "Ann", "reason": "name",
                                 "name": "Player 7"}, token=mo)
        self.assertEqual(status, 201, value)
        b.wait_for(lambda m: m["type"] == "state" and m["game"]["seats"][0]["name"] == "Player 7",
                   timeout=WITHIN_S)
        # a closed account's connection is closed, wherever it is held
        start = time.monotonic()
        status, value, _ = call(elsewhere[1], "POST", "/api/mod/actions",
                                {"action": "close", "player": "Bo", "reason": "abuse"}, token=mo)
        self.assertEqual(status, 201, value)
        err = b.wait_type("error", timeout=WITHIN_S)
        self.assertEqual(err["code"], "account_closed")
        with self.assertRaises(Closed):
            b.recv(WITHIN_S)
        self.assertLess(time.monotonic() - start, 2 * WITHIN_S)
        # and the log, read on any server, has all three
        log = call(zero, "GET", "/api/mod/log", token=mo)[1]["log"]
        self.assertEqual([e["action"] for e in log], ["close", "rename", "undo", "timeout"])


if __name__ == "__main__":
    unittest.main()
