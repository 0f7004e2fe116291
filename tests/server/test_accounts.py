"""test_accounts.py - accounts and sessions over HTTP (docs/accounts.md): every
endpoint and error code, names and passwords, sessions and their cookie, the
cross-site check, login throttling per address and per name, seats bound to
accounts, rated games' creation and joining rules, deletion, a client that
goes away while its password is checked, and no password or session token in
the database files or the log."""
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import (CLOCK, call, cookie_attrs, create, join, login, me, signed_in,  # noqa: E402
                          play_to_end, register, session_of, set_cookie)
from harness import (HOST, ON_POSTGRESQL, Server, ServerTest, db_query,  # noqa: E402
                     new_database, pg_cluster)

PW = "correct horse"


def error_code(body):
    return body["error"]["code"] if isinstance(body, dict) and "error" in body else None


class Register(ServerTest):
    def test_names_of_many_scripts(self):
        for name, shown in [("Zoe\u0308", "Zo\u00eb"), ("李小龙", "李小龙"), ("Мария", "Мария"),
                            ("محمد", "محمد"), ("नमस्ते", "नमस्ते"), ("  Ann   Lee ", "Ann Lee"),
                            ("x_y-z.1", "x_y-z.1")]:
            status, body, headers = call(self.server, "POST", "/api/accounts",
                                         {"name": name, "password": PW})
            self.assertEqual(status, 201, (name, body))
            self.assertEqual(body, {"name": shown})
            token = session_of(headers)
            self.assertEqual(len(token), 32)
            status, body, _ = me(self.server, token)
            self.assertEqual((status, body["name"]), (200, shown))

    def test_refused_names_change_nothing(self):
        for name in ["", " ", "a" * 25, "Ann<b>", "semi;colon", "tab\there", "nul\u0000x", 7, None,
                     ["Ann"]]:
            status, body, headers = call(self.server, "POST", "/api/accounts",
                                         {"name": name, "password": PW})
            self.assertEqual((status, error_code(body)), (400, "bad_message"), name)
            self.assertTrue(body["error"]["message"])
            self.assertIsNone(set_cookie(headers))
        status, _, _ = self.server.http("GET", "/api/players/Ann%3Cb%3E")
        self.assertEqual(status, 404)
        self.assertEqual(self.server.stop(), 0)
        self.assertEqual(db_query(self.db, "SELECT count(*) FROM accounts WHERE computer = 0"),
                         [(0,)])

    def test_passwords(self):
        # the refused ones with the reason's id (clients translate it); None: no reason given
        cases = [("seven77", 400, "password_short"), ("ääää", 400, "password_short"),
                 ("ääääääää", 201, None), ("12345678", 201, None), ("x" * 1024, 201, None),
                 ("x" * 1025, 400, "password_long"), ("abc\u0000defgh", 400, "password_nul"),
                 (12345678, 400, None), (None, 400, None)]
        for i, (password, want, reason) in enumerate(cases):
            status, body, _ = call(self.server, "POST", "/api/accounts",
                                   {"name": f"P{i}", "password": password})
            self.assertEqual(status, want, (password, body))
            if want == 400:
                self.assertEqual(error_code(body), "bad_message")
                self.assertEqual(body["error"].get("reason"), reason, password)
                if isinstance(password, str) and len(password) > 3:
                    self.assertNotIn(password[:6], body["error"]["message"])
        self.assertIn("8 characters", call(self.server, "POST", "/api/accounts",
                                           {"name": "Q", "password": "short"})[1]["error"]["message"])

    def test_bad_bodies_never_quote_the_password(self):
        for raw in ['{"name":"Ann","password":"hunter2hunter2', '{"name":"Ann","password":"hunter2hunter2",}',
                    '["hunter2hunter2"]', '{"name":"Ann","password":"hunter2hunter2","password":"x"}']:
            status, body, _ = call(self.server, "POST", "/api/accounts", raw=raw)
            self.assertEqual(status, 400, raw)
            self.assertIn(error_code(body), ("bad_json", "bad_message"))
            self.assertNotIn("hunter2", str(body))
            status, body, _ = call(self.server, "POST", "/api/login", raw=raw)
            self.assertEqual(status, 400, raw)
            self.assertNotIn("hunter2", str(body))

    def test_names_taken_regardless_of_case(self):
        register(self.server, "Straße", PW)
        register(self.server, "árpád", PW)
        for name in ["STRASSE", "straße", "ÁRPÁD", "Árpád", "random", "Greedy", "STRONG",
                     "former player", "Former  Player"]:
            status, body, headers = call(self.server, "POST", "/api/accounts",
                                         {"name": name, "password": PW})
            self.assertEqual((status, error_code(body)), (409, "name_taken"), name)
            self.assertIsNone(set_cookie(headers))
        # computer players cannot log in
        status, body, _ = login(self.server, "greedy", "")
        self.assertEqual(status, 401)

    def test_methods(self):
        for path in ["/api/accounts", "/api/login", "/api/logout", "/api/me/password",
                     "/api/me/delete"]:
            self.assertEqual(self.server.http("GET", path)[0], 405, path)
        self.assertEqual(self.server.http("POST", "/api/me", {})[0], 405)
        self.assertEqual(self.server.http("POST", "/api/leaderboard", {})[0], 405)


class Sessions(ServerTest):
    server_args = ("--msg-rate", "1000")  # one test plays a whole game at full speed

    def test_login_logout_me(self):
        first = register(self.server, "Ann Lee", PW)
        status, body, headers = login(self.server, "ANN LEE", PW)
        self.assertEqual((status, body), (200, {"name": "Ann Lee"}))  # its own spelling
        second = session_of(headers)
        self.assertNotEqual(first, second)
        status, body, _ = me(self.server, second)
        self.assertEqual(status, 200)
        self.assertEqual(body["name"], "Ann Lee")
        self.assertEqual(set(body["ratings"]), {"square", "rota", "hex"})
        for r in body["ratings"].values():
            self.assertEqual(r, {"rating": 1500, "deviation": 500, "games": 0})
        # logout revokes that session only; its cookie is cleared
        status, body, headers = call(self.server, "POST", "/api/logout", token=second)
        self.assertEqual(status, 204)
        self.assertEqual(session_of(headers), "")
        self.assertEqual(cookie_attrs(headers)["max-age"], "0")
        self.assertIsNone(signed_in(self.server, second))
        self.assertEqual(me(self.server, first)[0], 200)
        # logging out without a session is harmless
        self.assertEqual(call(self.server, "POST", "/api/logout")[0], 204)

    def test_me_without_session(self):
        register(self.server, "Bo", PW)
        for token in [None, "", "x", "A" * 32, "A" * 31 + "!", "é" * 32]:
            headers = {} if token is None else {"Cookie": f"axio_session={token}"}
            status, body, _ = self.server.http("GET", "/api/me", headers=headers)
            # a guest: no error (every page asks), nobody
            self.assertEqual((status, body), (200, {"name": None, "ratings": None}), token)
        token = register(self.server, "Cy", PW)
        status, body, _ = self.server.http("GET", "/api/me",
                                           headers={"Cookie": f"a=1; axio_session={token}; b=2"})
        self.assertEqual((status, body["name"]), (200, "Cy"))

    def test_wrong_pairs(self):
        register(self.server, "Di", PW)
        wrong = login(self.server, "Di", "not the password")
        unknown = login(self.server, "Nobody", "not the password")
        self.assertEqual(wrong[0], 401)
        self.assertEqual(wrong[1], unknown[1])  # the same answer
        self.assertIsNone(set_cookie(wrong[2]))
        self.assertEqual(login(self.server, "Di", PW)[0], 200)

    def test_unknown_names_take_as_long(self):
        """Verified against a dummy hash: no name check answers faster."""
        register(self.server, "Ed", PW)

        def timed(name):
            t = time.monotonic()
            status = login(self.server, name, "wrong password")[0]
            self.assertEqual(status, 401)
            return time.monotonic() - t
        # two of each: five failures from one address are allowed
        known = statistics.median(timed("Ed") for _ in range(2))
        unknown = statistics.median(timed(f"Ghost{i}") for i in range(2))
        self.assertGreater(unknown, 0.3 * known, (known, unknown))

    def test_cookie_flags(self):
        status, _, headers = call(self.server, "POST", "/api/accounts", {"name": "Flo", "password": PW})
        attrs = cookie_attrs(headers)
        self.assertTrue(attrs.get("httponly"))
        self.assertEqual(attrs.get("samesite"), "Lax")
        self.assertEqual(attrs.get("path"), "/")
        self.assertEqual(attrs.get("max-age"), "2592000")
        self.assertNotIn("secure", attrs)  # plain http
        self.assertGreaterEqual(len(session_of(headers)) * 6, 128)

    def test_password_change_revokes_other_sessions(self):
        a = register(self.server, "Gil", PW)
        b = session_of(login(self.server, "Gil", PW)[2])
        status, body, _ = call(self.server, "POST", "/api/me/password",
                               {"password": "wrong one", "new_password": "new password"}, token=a)
        self.assertEqual((status, error_code(body)), (401, "unauthorized"))
        status, body, _ = call(self.server, "POST", "/api/me/password",
                               {"password": PW, "new_password": "short"}, token=a)
        self.assertEqual((status, error_code(body), body["error"].get("reason")),
                         (400, "bad_message", "password_short"))
        status, body, _ = call(self.server, "POST", "/api/me/password",
                               {"password": PW}, token=a)
        self.assertEqual((status, error_code(body)), (400, "bad_message"))
        status, body, _ = call(self.server, "POST", "/api/me/password",
                               {"password": PW, "new_password": "new password"})
        self.assertEqual((status, error_code(body)), (401, "unauthorized"))
        self.assertEqual(me(self.server, b)[0], 200)  # nothing changed so far
        status, _, _ = call(self.server, "POST", "/api/me/password",
                            {"password": PW, "new_password": "new password"}, token=a)
        self.assertEqual(status, 204)
        self.assertEqual(me(self.server, a)[0], 200)
        self.assertIsNone(signed_in(self.server, b))
        self.assertEqual(login(self.server, "Gil", PW)[0], 401)
        self.assertEqual(login(self.server, "Gil", "new password")[0], 200)

    def test_delete(self):
        token = register(self.server, "Hal", PW)
        other = session_of(login(self.server, "Hal", PW)[2])
        waiting = create(self.server, token, {"variant": "hex", "players": 2})
        game = create(self.server, token, {"variant": "square", "players": 2,
                                           "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
        play_to_end(self, [(game["game"], game["token"], game["seat"])])
        self.assertEqual(call(self.server, "GET", "/api/players/hal")[1]["games"][0]["id"], game["game"])
        status, body, _ = call(self.server, "POST", "/api/me/delete", {"password": "wrong"}, token=token)
        self.assertEqual((status, error_code(body)), (401, "unauthorized"))
        self.assertEqual(me(self.server, token)[0], 200)
        status, _, headers = call(self.server, "POST", "/api/me/delete", {"password": PW}, token=token)
        self.assertEqual(status, 204)
        self.assertEqual(session_of(headers), "")
        self.assertIsNone(signed_in(self.server, token))
        self.assertIsNone(signed_in(self.server, other))
        self.assertEqual(self.server.http("GET", "/api/players/Hal")[0], 404)
        for g in (game["game"], waiting["game"]):
            status, state, _ = self.server.http("GET", f"/api/games/{g}")
            self.assertEqual(status, 200)
            self.assertEqual(state["seats"][0]["name"], "former player")
            self.assertFalse(state["seats"][0]["account"])
            self.assertIsNone(state["seats"][0]["rating"])
        finished = self.server.http("GET", "/api/games?status=over")[1]
        self.assertEqual(finished[0]["seats"][0]["name"], "former player")
        # the seat token still plays, the name is free again
        self.connect(waiting["game"], token=waiting["token"], seat=0)
        register(self.server, "hal", PW)
        self.assertEqual(call(self.server, "GET", "/api/players/Hal")[1]["games"], [])
        # the database keeps nothing of it
        self.assertEqual(self.server.stop(), 0)
        self.assertEqual(db_query(self.db, "SELECT count(*) FROM seats WHERE name = 'Hal'"), [(0,)])


class SecureCookie(ServerTest):
    server_args = ("--public-url", "https://axio.example/play")

    def test_secure_behind_tls(self):
        _, _, headers = call(self.server, "POST", "/api/accounts", {"name": "Ivy", "password": PW})
        attrs = cookie_attrs(headers)
        self.assertTrue(attrs.get("secure"))
        self.assertTrue(attrs.get("httponly"))
        token = session_of(headers)
        # the own origin is the public URL's
        ok = call(self.server, "POST", "/api/games", {"variant": "square", "players": 2}, token=token,
                  headers={"Origin": "https://axio.example"})
        self.assertEqual(ok[0], 201, ok[1])
        # the address the request was sent to (its Host) is this site too; another is not
        same = call(self.server, "POST", "/api/games", {"variant": "square", "players": 2},
                    token=token, headers={"Origin": f"http://{HOST}:{self.server.port}"})
        self.assertEqual(same[0], 201, same[1])
        refused = call(self.server, "POST", "/api/games", {"variant": "square", "players": 2},
                       token=token, headers={"Origin": f"https://{HOST}:{self.server.port}"})
        self.assertEqual((refused[0], error_code(refused[1])), (403, "forbidden"))
        _, _, headers = call(self.server, "POST", "/api/logout", token=token,
                             headers={"Origin": "https://axio.example"})
        self.assertTrue(cookie_attrs(headers).get("secure"))


class CrossSite(ServerTest):
    def test_cross_site_requests_with_the_cookie_are_refused(self):
        token = register(self.server, "Jo", PW)
        before = self.server.http("GET", "/api/games")[1]
        evil = [{"Origin": "https://evil.example"}, {"Origin": "null"},
                {"Sec-Fetch-Site": "cross-site"},
                {"Origin": f"http://{HOST}:{self.server.port + 1}"}]
        for headers in evil:
            for method, path, body in [("POST", "/api/logout", None),
                                       ("POST", "/api/games", {"variant": "square", "players": 2}),
                                       ("POST", "/api/me/password",
                                        {"password": PW, "new_password": "changed!!"}),
                                       ("POST", "/api/me/delete", {"password": PW}),
                                       ("POST", "/api/login", {"name": "Jo", "password": PW})]:
                status, value, hdrs = call(self.server, method, path, body, token=token,
                                           headers=headers)
                self.assertEqual((status, error_code(value)), (403, "forbidden"), (headers, path))
                self.assertIsNone(set_cookie(hdrs))
        # nothing changed
        self.assertEqual(me(self.server, token)[0], 200)
        self.assertEqual(self.server.http("GET", "/api/games")[1], before)
        self.assertEqual(login(self.server, "Jo", PW)[0], 200)
        # without the cookie too: another site's page may not create games or log in
        # a visitor (login CSRF)
        status, _, _ = self.server.http("POST", "/api/games", {"variant": "square", "players": 2},
                                        headers={"Origin": "https://evil.example"})
        self.assertEqual(status, 403)
        # the own origin, and no Origin at all (curl, bots), are accepted
        for headers in [{"Origin": f"http://{HOST}:{self.server.port}"}, {},
                        {"Sec-Fetch-Site": "same-origin"}]:
            status, value, _ = call(self.server, "POST", "/api/games",
                                    {"variant": "square", "players": 2}, token=token, headers=headers)
            self.assertEqual(status, 201, (headers, value))
            self.assertEqual(self.server.http("GET", f"/api/games/{value['game']}")[1]["seats"][0]["name"], "Jo")


class Throttle(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1")

    def test_per_address(self):
        register(self.server, "Kim", PW)
        for i in range(5):
            status, _, _ = login(self.server, f"Guess{i}", "wrong password", ip="10.0.0.1")
            self.assertEqual(status, 401)
        status, body, headers = login(self.server, "Kim", PW, ip="10.0.0.1")
        self.assertEqual((status, error_code(body)), (429, "rate_limited"))
        self.assertIsNone(set_cookie(headers))
        # what is locked and for how long: every name from this address, 15 minutes
        self.assertEqual(body["error"]["reason"], "login_address")
        self.assertTrue(890 <= body["error"]["retry_after_s"] <= 901, body)
        self.assertIn("from this address; try again in 15 minutes", body["error"]["message"])
        self.assertEqual(login(self.server, "Kim", PW, ip="10.0.0.2")[0], 200)

    def test_per_name(self):
        register(self.server, "Lou", PW)
        for i in range(5):
            self.assertEqual(login(self.server, "Lou", "wrong password", ip=f"10.1.0.{i}")[0], 401)
        status, body, _ = login(self.server, "LOU", PW, ip="10.1.0.9")
        self.assertEqual((status, error_code(body)), (429, "rate_limited"))
        self.assertEqual(body["error"]["reason"], "login_name")
        self.assertTrue(890 <= body["error"]["retry_after_s"] <= 901, body)
        register(self.server, "Max", PW)
        self.assertEqual(login(self.server, "Max", PW, ip="10.1.0.9")[0], 200)

    def test_successes_do_not_count(self):
        register(self.server, "Ned", PW)
        for _ in range(7):
            self.assertEqual(login(self.server, "Ned", PW, ip="10.2.0.1")[0], 200)

    def test_parallel_guesses_count(self):
        register(self.server, "Oz", PW)
        results = []

        def guess(i):
            results.append(login(self.server, "Oz", f"wrong {i}", ip=f"10.3.0.{i}")[0])
        threads = [threading.Thread(target=guess, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertLessEqual(results.count(401), 5, results)
        self.assertEqual(results.count(401) + results.count(429), 12)


class Seats(ServerTest):
    def test_seats_bound_to_accounts(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        game = create(self.server, ann, {"variant": "square", "players": 3, "name": "Someone else",
                                         "seats": [{"kind": "human"}, {"kind": "human"},
                                                   {"kind": "ai", "level": "greedy"}]})
        join(self.server, bo, game["game"])
        state = self.server.http("GET", f"/api/games/{game['game']}")[1]
        self.assertFalse(state["rated"])
        self.assertEqual([s["name"] for s in state["seats"]], ["Ann", "Bo", "greedy (AI)"])
        self.assertEqual([s["account"] for s in state["seats"]], [True, True, False])
        self.assertEqual([s["rating"] for s in state["seats"]], [1500, 1500, None])
        self.assertEqual([s["rating_change"] for s in state["seats"]], [None, None, None])
        entry = self.server.http("GET", f"/api/games?ids={game['game']}")[1][0]
        self.assertFalse(entry["rated"])
        self.assertEqual([s["account"] for s in entry["seats"]], [True, True, False])
        # the seat token proves the seat as before
        c = self.connect(game["game"], token=game["token"], seat=game["seat"])
        self.assertEqual(c.state["you"]["seat"], 0)
        # a guest still joins a casual game with a name
        casual = create(self.server, None, {"variant": "square", "players": 2, "name": "Guest"})
        status, value, _ = self.server.http("POST", f"/api/games/{casual['game']}/join", {"name": "Pat"})
        self.assertEqual(status, 200)
        seats = self.server.http("GET", f"/api/games/{casual['game']}")[1]["seats"]
        self.assertEqual([(s["name"], s["account"], s["rating"]) for s in seats],
                         [("Guest", False, None), ("Pat", False, None)])

    def test_rated_creation_rules(self):
        ann = register(self.server, "Ann", PW)
        before = len(self.server.http("GET", "/api/games")[1])
        two = [{"kind": "human"}, {"kind": "ai", "level": "random"}]
        cases = [
            ({"variant": "square", "players": 2, "seats": two, "rated": True}, ann, "clock"),
            ({"variant": "square", "players": 1, "mode": "solo", "clock": CLOCK, "rated": True}, ann,
             "solo"),
            ({"variant": "square", "players": 2, "seats": two, "clock": CLOCK, "rated": True}, None,
             "log in"),
            ({"variant": "square", "players": 2, "seats": two, "clock": CLOCK, "rated": "yes"}, ann,
             "rated"),
            ({"variant": "square", "players": 3, "clock": CLOCK, "rated": True,
              "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"},
                        {"kind": "ai", "level": "random"}]}, ann, "computer"),
        ]
        for body, token, why in cases:
            status, value, _ = call(self.server, "POST", "/api/games", body, token=token)
            self.assertEqual((status, error_code(value)), (400, "bad_message"), body)
            self.assertIn(why, value["error"]["message"])
        self.assertEqual(len(self.server.http("GET", "/api/games")[1]), before)
        ok = create(self.server, ann, {"variant": "square", "players": 2, "seats": two,
                                       "clock": CLOCK, "rated": True})
        state = self.server.http("GET", f"/api/games/{ok['game']}")[1]
        self.assertTrue(state["rated"])
        self.assertEqual([s["account"] for s in state["seats"]], [True, True])
        self.assertEqual([s["rating"] for s in state["seats"]], [1500, 1500])

    def test_joining_rated_games(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        game = create(self.server, ann, {"variant": "rota", "players": 2, "clock": CLOCK, "rated": True})
        status, body, _ = self.server.http("POST", f"/api/games/{game['game']}/join", {"name": "Guest"})
        self.assertEqual((status, error_code(body)), (401, "unauthorized"))
        self.assertIn("log in", body["error"]["message"])
        status, body, _ = call(self.server, "POST", f"/api/games/{game['game']}/join", {}, token=ann)
        self.assertEqual((status, error_code(body)), (409, "already_seated"))
        self.assertEqual(self.server.http("GET", f"/api/games/{game['game']}")[1]["status"], "waiting")
        joined = join(self.server, bo, game["game"])
        self.assertEqual(joined["seat"], 1)
        state = self.server.http("GET", f"/api/games/{game['game']}")[1]
        self.assertEqual(state["status"], "running")
        self.assertEqual([(s["name"], s["account"]) for s in state["seats"]], [("Ann", True), ("Bo", True)])


class Robustness(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1")

    def test_client_gone_while_its_password_is_checked(self):
        register(self.server, "Una", PW)
        for path in ["/api/login", "/api/accounts"]:
            for i in range(6):
                body = '{"name":"Gone%d","password":"%s"}' % (i, PW)
                s = socket.create_connection((HOST, self.server.port))
                s.sendall((f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           f"X-Forwarded-For: 10.8.0.{i}\r\n"
                           f"Content-Length: {len(body)}\r\n\r\n{body}").encode())
                s.close()
        time.sleep(1.0)
        self.assertEqual(login(self.server, "Una", PW)[0], 200)
        # nothing was done for the clients that went away
        self.assertEqual(self.server.http("GET", "/api/players/Gone0")[0], 404)

    def test_a_flood_of_logins_is_bounded(self):
        register(self.server, "Vic", PW)
        results = []

        def attempt(i):
            results.append(login(self.server, f"Flood{i}", "whatever!", ip=f"10.9.0.{i}")[0])
        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(30)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(set(results) - {401, 429}, set(), results)
        self.assertEqual(login(self.server, "Vic", PW, ip="10.9.1.1")[0], 200)


def files_of(folder):
    """Every file under folder (SQLite: the database, -wal, -shm; PostgreSQL: the cluster's
    tables, WAL and log), by path."""
    found = {}
    for root, _, names in os.walk(folder):
        for name in names:
            try:
                with open(os.path.join(root, name), "rb") as f:
                    found[os.path.join(root, name)] = f.read()
            except OSError:
                pass  # a file PostgreSQL removed meanwhile
    return found


class NoSecretsStored(unittest.TestCase):
    """Neither the database files nor the log hold a password or a session token."""

    def test_no_secret_in_files_or_log(self):
        tmp = tempfile.TemporaryDirectory()
        db = new_database(tmp.name)
        where = pg_cluster().dir if ON_POSTGRESQL else tmp.name
        server = Server(db, quiet=False)
        try:
            passwords = ["pässwörd-one-1", "second secret 2", "third:secret#3", "new password 4"]
            tokens = []
            for i, pw in enumerate(passwords[:3]):
                tokens.append(register(server, f"User{i}", pw))
                tokens.append(session_of(login(server, f"User{i}", pw)[2]))
                login(server, f"User{i}", pw + "x")  # a failure too
            call(server, "POST", "/api/me/password",
                 {"password": passwords[0], "new_password": passwords[3]}, token=tokens[0])
            tokens.append(session_of(login(server, "User0", passwords[3])[2]))
            call(server, "POST", "/api/logout", token=tokens[2])
            create(server, tokens[4], {"variant": "square", "players": 2})
            self.assertTrue(all(tokens))
            running = files_of(where)
            self.assertEqual(server.stop(), 0)
            log = server.errors()
            self.assertIn("shutting down", log)  # the log was on
            files = list(files_of(where).values())
            if ON_POSTGRESQL:  # the session token hashes were written
                self.assertTrue(any("/pg_wal/" in n for n in running), list(running)[:20])
            else:
                self.assertTrue(any(n.endswith("-wal") for n in running), list(running))
            for secret in passwords + tokens:
                for blob in list(running.values()) + files:
                    self.assertNotIn(secret.encode(), blob)
                self.assertNotIn(secret, log)
        finally:
            server.kill()
            tmp.cleanup()


if __name__ == "__main__":
    unittest.main()
