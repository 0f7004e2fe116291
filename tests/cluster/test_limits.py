"""test_limits.py - a site's limits are the site's (docs/server.md, "Limits"): on three
`axio serve` behind the shipped nginx (cluster.py, its limits per address as shipped),
one address gets what it would get from one server, however nginx spreads its requests:
30 games an hour, 5 accounts, 5 wrong passwords for a name, and 20 API requests a second
(bursts of 40, nginx's limit_req). Before, each instance counted its own: 90 games, 15
accounts, 15 guesses, 237 requests in 2 s went through. The attacker is 127.0.0.2 and up;
everything else is 127.0.0.1.
"""
import http.client
import json
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster import Site  # noqa: E402
from harness import HOST, TIMEOUT  # noqa: E402

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "level": "random"}


def http_from(site, source, method, path, body=None):
    conn = http.client.HTTPConnection(HOST, site.port, timeout=TIMEOUT, source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    resp = conn.getresponse()
    text = resp.read().decode(errors="replace")
    conn.close()
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    return resp.status, value


class Limits(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = Site(3, args=["--quiet"], limits=True)

    @classmethod
    def tearDownClass(cls):
        errors = cls.site.errors()
        cls.site.stop()
        assert "AddressSanitizer" not in errors and "runtime error" not in errors, errors

    def paced(self, source, method, path, body=None):
        """A request that nginx's rate limit lets through (the test asks slowly enough)."""
        time.sleep(0.06)
        return http_from(self.site, source, method, path, body)

    def test_games_per_address(self):
        made = [self.paced("127.0.0.2", "POST", "/api/games",
                           {"variant": "square", "players": 2, "name": "M", "seats": [HUMAN, RANDOM]})
                for _ in range(31)]
        statuses = [s for s, _ in made]
        self.assertEqual(statuses[:30], [201] * 30, made[:30])
        self.assertEqual(statuses[30], 429, made[30])
        self.assertEqual(made[30][1]["error"]["reason"], "games")
        # the games were made by all three instances, which counted them together
        holders = {self.site.holder(v["game"]) for s, v in made[:30]}
        self.assertGreaterEqual(len(holders - {None}), 2, holders)
        # another address is not concerned
        self.assertEqual(self.paced("127.0.0.3", "POST", "/api/games",
                                    {"variant": "square", "players": 2, "seats": [HUMAN, HUMAN]})[0],
                         201)

    def test_signups_and_guesses_per_address_and_name(self):
        made = [self.paced("127.0.0.4", "POST", "/api/accounts",
                           {"name": f"Mal{i}", "password": "correct horse"})[0] for i in range(6)]
        self.assertEqual(made, [201] * 5 + [429])
        self.assertEqual(self.paced("127.0.0.5", "POST", "/api/accounts",
                                    {"name": "Victim", "password": "correct horse"})[0], 201)
        # wrong passwords for one name from addresses that change: five in all
        guesses = [self.paced(f"127.0.1.{i}", "POST", "/api/login",
                              {"name": "Victim", "password": f"wrong {i}"}) for i in range(8)]
        self.assertEqual([s for s, _ in guesses], [401] * 5 + [429] * 3)
        self.assertEqual(guesses[5][1]["error"]["reason"], "login_name")

    def test_requests_per_address(self):
        """As fast as it can for 2 s: about 20 a second and a burst of 40, not three times."""
        statuses = []
        end = time.monotonic() + 2.0
        conn = http.client.HTTPConnection(HOST, self.site.port, timeout=TIMEOUT,
                                          source_address=("127.0.0.9", 0))
        while time.monotonic() < end:
            conn.request("GET", "/api/games")
            resp = conn.getresponse()
            resp.read()
            statuses.append(resp.status)
        conn.close()
        passed = statuses.count(200)
        self.assertGreater(statuses.count(429), 0)
        self.assertLessEqual(passed, 40 + 2 * 20 + 5, f"{passed} of {len(statuses)} passed")
        # the victim, from its own address, is answered
        self.assertEqual(http_from(self.site, "127.0.0.1", "GET", "/api/games")[0], 200)


if __name__ == "__main__":
    unittest.main()
