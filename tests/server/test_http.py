"""The HTTP side: health, lobby, create and join with their validation, the public
state and the record endpoint, static files and path tricks, request limits, and
`axio serve`'s own usage errors."""
import json
import os
import signal
import subprocess
import tempfile
import unittest
import urllib.request

from harness import (AXIO, TIMEOUT, Client, HandshakeError, Server, ServerTest, new_database,
                     play_until_over)

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "random"}


class Api(ServerTest):
    server_args = ("--request-rate", "1000", "--max-games-per-ip", "1000")

    def test_health(self):
        status, body, headers = self.server.http("GET", "/api/health")
        # a loopback-only server (the default --bind 127.0.0.1) gives its loopback URL
        port = self.server.port
        instance = body.pop("instance", "")
        self.assertRegex(instance, r"^[0-9a-f]{16}$")
        self.assertEqual((status, body), (200, {"ok": True, "version": "0.1.0",
                                                "urls": [f"http://localhost:{port}/"],
                                                "queues": {"computers": 0, "hints": 0,
                                                           "analyses": 0}}))
        self.assertTrue(headers["content-type"].startswith("application/json"))

    def test_create_join_list(self):
        created = self.server.create("hex", [HUMAN, AI, HUMAN], name="Ann")
        self.assertEqual(created["seat"], 0)
        self.assertGreaterEqual(len(created["token"]), 22)  # >= 128 bits in base64url
        game = created["game"]
        status, games, _ = self.server.http("GET", "/api/games")
        self.assertEqual(status, 200)
        entry = next(g for g in games if g["id"] == game)
        self.assertEqual((entry["variant"], entry["players"], entry["mode"], entry["status"]),
                         ("hex", 3, "standard", "waiting"))
        self.assertEqual([s["taken"] for s in entry["seats"]], [True, True, False])
        self.assertEqual([s["kind"] for s in entry["seats"]], ["human", "ai", "human"])
        self.assertNotIn(created["token"], str(games))
        joined = self.server.join(game, "Cy")
        self.assertEqual(joined["seat"], 2)
        self.assertNotEqual(joined["token"], created["token"])
        status, body, _ = self.server.http("POST", f"/api/games/{game}/join", {"name": "Dee"})
        self.assertEqual(status, 409)
        self.assertEqual(body["error"]["code"], "full")
        status, state, _ = self.server.http("GET", f"/api/games/{game}")
        self.assertEqual(status, 200)
        self.assertEqual(state["status"], "running")
        self.assertNotIn("you", state)
        self.assertNotIn("seed", state)
        self.assertNotIn(created["token"], str(state))
        self.assertNotIn(joined["token"], str(state))
        self.assertEqual(len(state["seed_hash"]), 64)

    def test_defaults(self):
        status, body, _ = self.server.http("POST", "/api/games", {"variant": "rota", "players": 1})
        self.assertEqual(status, 201)
        _, state, _ = self.server.http("GET", f"/api/games/{body['game']}")
        self.assertEqual((state["mode"], state["status"]), ("solo", "running"))
        status, body, _ = self.server.http("POST", "/api/games", {"variant": "square", "players": 2})
        _, state, _ = self.server.http("GET", f"/api/games/{body['game']}")
        self.assertEqual((state["mode"], state["status"]), ("standard", "waiting"))
        self.assertEqual(state["seats"][0]["name"], "Player 1")
        status, joined, _ = self.server.http("POST", f"/api/games/{body['game']}/join", raw="")
        self.assertEqual(status, 200)

    def test_create_validation(self):
        bad = [
            {}, [], "square", {"variant": "chess", "players": 2},
            {"variant": "square", "players": 5}, {"variant": "square", "players": 0},
            {"variant": "square", "players": "2"}, {"variant": "square", "players": 2.0},
            {"variant": "square", "players": 2, "mode": "team"},
            {"variant": "hex", "players": 1, "mode": "standard"},
            {"variant": "hex", "players": 2, "mode": 3},
            {"variant": "square", "players": 2, "seats": [HUMAN]},
            {"variant": "square", "players": 2, "seats": "human"},
            {"variant": "square", "players": 2, "seats": [AI, AI]},
            {"variant": "square", "players": 2, "seats": [HUMAN, {"kind": "ai", "level": "godlike"}]},
            {"variant": "square", "players": 2, "seats": [HUMAN, {"kind": "ai"}]},
            {"variant": "square", "players": 2, "seats": [HUMAN, {"kind": "robot"}]},
            {"variant": "square", "players": 2, "seats": [HUMAN, 7]},
            {"variant": "square", "players": 2, "name": "x" * 33},
            {"variant": "square", "players": 2, "name": "a\nb"},
            {"variant": "square", "players": 2, "name": 12},
        ]
        for body in bad:
            with self.subTest(body=body):
                status, reply, _ = self.server.http("POST", "/api/games", body)
                self.assertEqual(status, 400, reply)
                self.assertEqual(reply["error"]["code"], "bad_message")
        for raw in ["{", "nope", '{"variant":"square","variant":"hex"}']:
            status, reply, _ = self.server.http("POST", "/api/games", raw=raw)
            self.assertEqual((status, reply["error"]["code"]), (400, "bad_json"), raw)
        status, reply, _ = self.server.http("POST", "/api/games", raw='{"players":1e999}')
        self.assertEqual((status, reply["error"]["code"]), (400, "bad_message"))
        status, games, _ = self.server.http("GET", "/api/games")
        self.assertEqual(games, [])
        body = {"variant": "square", "players": 2, "seats": [HUMAN, {"kind": "ai", "level": "godlike"}]}
        reply = self.server.http("POST", "/api/games", body)[1]
        self.assertIn("random, greedy, strong, expert", reply["error"]["message"])

    def test_every_level_plays_and_is_a_rated_player(self):
        for level in ("random", "greedy", "strong", "expert"):
            with self.subTest(level=level):
                body = {"variant": "hex", "players": 2, "seats": [HUMAN, {"kind": "ai", "level": level}]}
                status, created, _ = self.server.http("POST", "/api/games", body)
                self.assertEqual(status, 201, created)
                game = self.server.http("GET", f"/api/games/{created['game']}")[1]
                self.assertEqual(game["seats"][1]["level"], level)
                status, player, _ = self.server.http("GET", f"/api/players/{level}")
                self.assertEqual((status, player["computer"]), (200, True))

    def test_too_large(self):
        status, reply, _ = self.server.http("POST", "/api/games", raw="{" + " " * 5000 + "}")
        self.assertEqual((status, reply["error"]["code"]), (413, "too_large"))
        self.assertEqual(self.server.http("GET", "/api/health")[0], 200)

    def test_not_found_and_methods(self):
        for path in ["/api/games/AAAAAAAAAAAA", "/api/games/nope", "/api/games/AAAAAAAAAAAA/record",
                     "/api/nothing", "/api/games/" + "A" * 200, "/api/games/%2e%2e%2fetc"]:
            status, reply, _ = self.server.http("GET", path)
            self.assertEqual((status, reply["error"]["code"]), (404, "not_found"), path)
        status, reply, _ = self.server.http("POST", "/api/games/AAAAAAAAAAAA/join", {})
        self.assertEqual(status, 404)
        created = self.server.create("square", [HUMAN, AI])
        for method, path in [("POST", "/api/health"), ("GET", f"/api/games/{created['game']}/join"),
                             ("POST", f"/api/games/{created['game']}")]:
            status, reply, _ = self.server.http(method, path, raw="{}" if method == "POST" else None)
            self.assertEqual(status, 405, (method, path))
        for method in ["PUT", "DELETE"]:
            status, _, _ = self.server.http(method, "/api/games")
            self.assertGreaterEqual(status, 400)

    def test_record_only_after_the_end(self):
        created = self.server.create("rota", [HUMAN])
        game = created["game"]
        status, reply, _ = self.server.http("GET", f"/api/games/{game}/record")
        self.assertEqual((status, reply["error"]["code"]), (403, "forbidden"))
        me = self.connect(game, created["token"], 0)
        self.server.proc  # noqa: B018
        play_until_over([me])
        status, text, headers = self.server.http("GET", f"/api/games/{game}/record")
        self.assertEqual(status, 200)
        self.assertIn('"ev":"end"', text.splitlines()[-1])
        # finished games leave the lobby but stay reachable
        _, games, _ = self.server.http("GET", "/api/games")
        self.assertNotIn(game, [g["id"] for g in games])
        self.assertEqual(self.server.http("GET", f"/api/games/{game}")[1]["status"], "over")

    def test_plain_get_on_websocket_path(self):
        created = self.server.create("square", [HUMAN, AI])
        status, reply, _ = self.server.http("GET", f"/ws/{created['game']}")
        self.assertEqual(status, 400)


class InviteUrls(unittest.TestCase):
    """GET /api/health "urls": where a friend reaches this server, the same addresses
    `axio serve` prints at start."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def start(self, *args):
        """The server's health urls and every line it printed on stdout."""
        server = Server(new_database(self.tmp.name), *args)
        try:
            status, body, _ = server.http("GET", "/api/health")
            self.assertEqual(status, 200)
            for url in body["urls"]:  # each one answers (a public URL is not ours to try)
                if "--public-url" not in args:
                    with urllib.request.urlopen(url + "api/health", timeout=TIMEOUT) as r:
                        self.assertEqual(json.loads(r.read())["ok"], True, url)
        finally:
            server.proc.send_signal(signal.SIGTERM)
            printed = server.proc.stdout.read().splitlines()
            self.assertEqual(server.stop(), 0, server.errors())
        return body["urls"], printed, server.port

    def test_public_url(self):
        urls, printed, _ = self.start("--public-url", "https://example.org/axio/")
        self.assertEqual(urls, ["https://example.org/axio/"])
        self.assertIn("axio serve: players open https://example.org/axio/", printed)

    def test_all_addresses(self):
        urls, printed, port = self.start("--bind", "0.0.0.0")
        network = [line.split(" open ")[1] for line in printed if "friends on your network" in line]
        self.assertIn(f"axio serve: open http://localhost:{port}/ on this computer", printed)
        if network:  # this computer's own addresses, as printed, loopback left out
            self.assertEqual(urls, network)
            for url in urls:
                self.assertRegex(url, rf"^http://\d+\.\d+\.\d+\.\d+:{port}/$")
                self.assertFalse(url.startswith("http://127."), url)
        else:  # no network: this computer is all there is
            self.assertEqual(urls, [f"http://localhost:{port}/"])


class StaticFiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        web = os.path.join(self.tmp.name, "web")
        os.makedirs(os.path.join(web, "js"))
        with open(os.path.join(web, "index.html"), "w") as f:
            f.write("<!doctype html><title>axio</title>")
        with open(os.path.join(web, "js", "main.js"), "w") as f:
            f.write("console.log('axio');")
        with open(os.path.join(web, ".secret"), "w") as f:
            f.write("hidden")
        with open(os.path.join(self.tmp.name, "outside.txt"), "w") as f:
            f.write("outside")
        self.server = Server(new_database(self.tmp.name), web=web)

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.tmp.cleanup()

    def test_files(self):
        status, body, headers = self.server.http("GET", "/")
        self.assertEqual(status, 200)
        self.assertIn("<title>axio</title>", body)
        self.assertTrue(headers["content-type"].startswith("text/html"))
        status, body, headers = self.server.http("GET", "/js/main.js")
        self.assertEqual(status, 200)
        self.assertIn("javascript", headers["content-type"])
        self.assertEqual(self.server.http("GET", "/missing.html")[0], 404)

    def test_no_escape(self):
        for path in ["/../outside.txt", "/js/../../outside.txt", "/.secret", "/%2e%2e/outside.txt",
                     "/js/%2e%2e/%2e%2e/outside.txt", "//etc/passwd", "/..%2foutside.txt",
                     "/js/..\\..\\outside.txt"]:
            status, body, _ = self.server.http("GET", path)
            self.assertNotIn("outside", str(body), path)
            self.assertNotIn("hidden", str(body), path)


class Limits(ServerTest):
    server_args = ("--max-games-per-ip", "3", "--request-rate", "2", "--max-conns-per-ip", "6")

    def test_games_per_address(self):
        codes = [self.server.http("POST", "/api/games", {"variant": "hex", "players": 1})[0]
                 for _ in range(4)]
        self.assertEqual(codes[:3], [201, 201, 201])
        self.assertEqual(codes[3], 429)

    def test_request_rate(self):
        codes = [self.server.http("GET", "/api/health")[0] for _ in range(30)]
        self.assertIn(429, codes)
        self.assertEqual(codes[0], 200)

    def test_connections_per_address(self):
        created = self.server.create("square", [HUMAN, AI])
        open_ = []
        refused = 0
        for _ in range(10):
            try:
                c = Client(self.server, created["game"])
                c.wait_type("history")
                open_.append(c)
            except (HandshakeError, OSError, Exception):
                refused += 1
        self.assertLessEqual(len(open_), 6)
        self.assertGreater(refused, 0)
        for c in open_:
            c.close()


class Usage(unittest.TestCase):
    def run_serve(self, *args):
        return subprocess.run([AXIO, "serve", *args], capture_output=True, text=True, timeout=TIMEOUT)

    def test_help(self):
        r = self.run_serve("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--port", r.stdout)
        self.assertIn("(default 6000)", r.stdout, "the judge's playouts behind hints and analyses")

    def test_bad_usage(self):
        for args in [["--port", "abc"], ["--port", "70000"], ["--port"], ["--bogus"], ["extra"],
                     ["--web", "/nonexistent/dir"], ["--sync", "sometimes"], ["--msg-rate", "0"],
                     ["--db", ""], ["--judge-playouts", "99"], ["--judge-playouts", "1000001"],
                     ["--judge-playouts", "fast"], ["--judge-playouts"]]:
            with self.subTest(args=args):
                r = self.run_serve(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertTrue(r.stderr.startswith("axio serve: "), r.stderr)

    def test_port_in_use(self):
        with tempfile.TemporaryDirectory() as tmp:
            first = Server(new_database(tmp, "a.db"))
            try:
                r = self.run_serve("--port", str(first.port), "--db", new_database(tmp, "b.db"))
                self.assertEqual(r.returncode, 1)
                self.assertIn("cannot listen", r.stderr)
            finally:
                self.assertEqual(first.stop(), 0, first.errors())


if __name__ == "__main__":
    unittest.main()
