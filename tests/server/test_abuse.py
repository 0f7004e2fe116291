"""test_abuse.py - people who try to break the server, each from addresses of its own
(127.0.0.2 and up: every 127.x.y.z is this machine) while a victim plays on 127.0.0.1.

One test per way in: connecting and disconnecting in a loop, chatting by reconnecting,
headers sent a byte at a time, a burst of sign-ups, another site's page logging a visitor
in, a player who left reading the tiles of the seat the computer now plays, a rated seat
taken with an old seat token, a seat token in a URL, a password with NUL, a name that
looks like a reserved one, pages that another site could frame. Each failed on the server
before these limits (run it with AXIO set to an older build to see).
"""
import http.client
import json
import os
import socket
import sys
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import CLOCK, call, create, login, register, session_of  # noqa: E402
from harness import HOST, TIMEOUT, Client, ServerTest, play_until_over  # noqa: E402
from wsclient import Closed, HandshakeError, WebSocket  # noqa: E402

PW = "correct horse"
HUMAN, AI = {"kind": "human"}, {"kind": "ai", "level": "random"}


def http_from(server, source, method, path, body=None, headers=None, timeout=TIMEOUT):
    """(status, parsed body, headers) of a request from a local address of our choosing."""
    conn = http.client.HTTPConnection(HOST, server.port, timeout=timeout,
                                      source_address=(source, 0))
    data = json.dumps(body) if body is not None else None
    h = dict(headers or {})
    if body is not None:
        h.setdefault("Content-Type", "application/json")
    conn.request(method, path, body=data, headers=h)
    resp = conn.getresponse()
    text = resp.read().decode(errors="replace")
    conn.close()
    value = json.loads(text) if resp.getheader("content-type", "").startswith("application/json") else text
    return resp.status, value, dict(resp.getheaders())


def two_humans(server):
    created = server.create("square", [HUMAN, HUMAN])
    joined = server.join(created["game"])
    return created["game"], created["token"], joined["token"]


class Churn(ServerTest):
    """Connecting and disconnecting as a spectator in a loop."""

    def test_churn_costs_the_players_little(self):
        game, t0, t1 = two_humans(self.server)
        victim = self.connect(game, t0, 0)
        self.connect(game, t1, 1)
        victim.drain(0.5)
        got, bytes_before = [], sum(len(t) for t in victim.raw)
        accepted = refused = 0
        t_start = time.monotonic()
        while time.monotonic() - t_start < 3.0:
            try:
                ws = WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                                       source="127.0.0.2")
                accepted += 1
                ws.close()
            except HandshakeError as e:
                refused += 1
                self.assertIn(e.status, (429, None), e.head)
            except (ConnectionError, OSError):
                refused += 1
        elapsed = time.monotonic() - t_start
        while True:
            try:
                got.append(victim.recv(1.0))
            except TimeoutError:
                break
        # upgrades count as requests of their address: a burst of 40, then 20 a second
        self.assertGreater(refused, 0)
        self.assertLessEqual(accepted, 40 + 20 * elapsed + 5, (accepted, refused))
        # the victim hears of it as a few small presence updates, never a whole state
        kinds = [m["type"] for m in got]
        self.assertNotIn("state", kinds, kinds)
        self.assertLessEqual(len(got), 2 * (elapsed + 1) + 2, kinds)
        self.assertLess(sum(len(t) for t in victim.raw) - bytes_before, 4000)
        # and the game goes on
        self.assertEqual(victim.state["game"]["spectators"], 0)
        victim.act()
        victim.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] >= 1)


class Chat(ServerTest):
    server_args = ("--request-rate", "1000")

    def chat_rounds(self, game, source, rounds, per_round):
        """Reconnects `rounds` times from source, sending per_round messages each time;
        how many were accepted."""
        accepted = 0
        for _ in range(rounds):
            c = Client(self.server, game, source=source, hint=False)
            c.wait_type("chat_history")
            for i in range(per_round):
                c.send({"type": "chat", "text": f"spam {i}"})
            deadline = time.monotonic() + 2.0
            seen = 0
            while seen < per_round and time.monotonic() < deadline:
                try:
                    m = c.recv(0.5)
                except TimeoutError:
                    continue
                if m["type"] == "chat" and m["text"].startswith("spam"):
                    accepted += 1
                    seen += 1
                elif m["type"] == "error":
                    self.assertEqual(m["code"], "rate_limited", m)
                    seen += 1
            c.close()
        return accepted

    def test_reconnecting_does_not_refill_the_chat(self):
        game, t0, _ = two_humans(self.server)
        victim = self.connect(game, t0, 0)
        accepted = self.chat_rounds(game, "127.0.0.3", rounds=6, per_round=5)
        self.assertLessEqual(accepted, 7, "the limit is per address and game, not per connection")
        # another address chats as before
        self.assertEqual(self.chat_rounds(game, "127.0.0.4", rounds=1, per_round=3), 3)
        victim.send({"type": "chat", "text": "gg"})
        victim.wait_for(lambda m: m["type"] == "chat" and m["text"] == "gg")

    def test_no_spectator_chat_after_the_end(self):
        created = self.server.create("square", [HUMAN, AI])
        me = self.connect(created["game"], created["token"], 0)
        watcher = Client(self.server, created["game"], source="127.0.0.5", hint=False)
        watcher.wait_type("history")
        me.send({"type": "resign"})
        watcher.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] == "over")
        watcher.send({"type": "chat", "text": "hello"})
        err = watcher.wait_type("error")
        self.assertEqual(err["code"], "forbidden")
        # the players still may
        me.send({"type": "chat", "text": "gg"})
        me.wait_for(lambda m: m["type"] == "chat" and m["text"] == "gg")
        watcher.close()

    def test_a_games_chat_is_capped(self):
        game, t0, _ = two_humans(self.server)
        victim = self.connect(game, t0, 0)
        stored = 0
        # 1,000 messages from 200 addresses, five each (each address's burst)
        for k in range(200):
            ws = WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                                   source=f"127.0.{1 + k // 250}.{1 + k % 250}")
            for i in range(5):
                ws.send_json({"type": "chat", "text": f"m{k}.{i}"})
            ws.send_json({"type": "ping"})
            while True:
                m = json.loads(ws.recv(TIMEOUT))
                if m["type"] == "pong":
                    break
            ws.close()
        deadline = time.monotonic() + TIMEOUT
        while stored < 1000 and time.monotonic() < deadline:
            m = victim.recv(TIMEOUT)
            stored += m["type"] == "chat"
        self.assertEqual(stored, 1000)
        victim.send({"type": "chat", "text": "one more"})
        self.assertEqual(victim.wait_type("error")["code"], "chat_full")


class SlowHeaders(ServerTest):
    def test_slow_headers_starve_nobody(self):
        held = []
        request = b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 200 + b"\r\n\r\n"
        for a in range(10):
            for _ in range(30):
                s = socket.socket()
                s.setblocking(False)
                s.bind((f"127.0.0.{20 + a}", 0))
                try:
                    s.connect((HOST, self.server.port))
                except BlockingIOError:
                    pass
                held.append(s)
        stop = threading.Event()

        def dribble():
            i = 0
            while not stop.is_set() and i < len(request):
                for s in held:
                    try:
                        s.send(request[i:i + 1])
                    except OSError:
                        pass
                i += 1
                stop.wait(0.3)
        t = threading.Thread(target=dribble, daemon=True)
        t.start()
        try:
            time.sleep(1.0)
            worst = 0.0
            for _ in range(5):
                t0 = time.monotonic()
                status, _, _ = http_from(self.server, "127.0.0.1", "GET", "/api/health", timeout=15)
                worst = max(worst, time.monotonic() - t0)
                self.assertEqual(status, 200)
                time.sleep(0.2)
            self.assertLess(worst, 1.0, "a victim's request waited for the slow headers")
            # and the slow ones are dropped after the header timeout (5 s)
            time.sleep(6.0)
            open_ones = 0
            for s in held:
                try:
                    s.send(b"a")
                    data = s.recv(1)
                    open_ones += data != b""
                except BlockingIOError:
                    open_ones += 1
                except OSError:
                    pass
            self.assertEqual(open_ones, 0)
        finally:
            stop.set()
            t.join()
            for s in held:
                s.close()


class Signups(ServerTest):
    server_args = ("--max-signups-per-ip", "5")

    def test_a_burst_of_signups_starves_no_login(self):
        status, _, _ = http_from(self.server, "127.0.0.1", "POST", "/api/accounts",
                                 {"name": "Victim", "password": PW})
        self.assertEqual(status, 201)
        results = []

        def signup(i):
            try:
                results.append(http_from(self.server, "127.0.0.6", "POST", "/api/accounts",
                                         {"name": f"bot{i}", "password": PW})[0])
            except OSError:  # refused at once: too many connections from that address
                results.append("refused")
        threads = [threading.Thread(target=signup, args=(i,)) for i in range(30)]
        for t in threads:
            t.start()
        logins = [http_from(self.server, "127.0.0.1", "POST", "/api/login",
                            {"name": "Victim", "password": PW})[0] for _ in range(3)]
        for t in threads:
            t.join()
        self.assertEqual(logins, [200, 200, 200])
        self.assertLessEqual(results.count(201), 5, results)
        self.assertEqual(results.count(201) + results.count(429) + results.count("refused"), 30,
                         results)


class Csrf(ServerTest):
    def test_another_sites_page_cannot_log_a_visitor_in(self):
        register(self.server, "Ann", PW)
        for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                        {"Origin": "null"}):
            status, body, hdrs = http_from(self.server, "127.0.0.7", "POST", "/api/login",
                                           {"name": "Ann", "password": PW}, headers=headers)
            self.assertEqual((status, body["error"]["code"]), (403, "forbidden"), headers)
            self.assertNotIn("Set-Cookie", hdrs)
            status, _, _ = http_from(self.server, "127.0.0.7", "POST", "/api/games",
                                     {"variant": "square", "players": 2}, headers=headers)
            self.assertEqual(status, 403)
        # a text/plain body (a form or fetch another site may send without asking) is not JSON
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            status, body, hdrs = call(self.server, "POST", "/api/login",
                                      raw=json.dumps({"name": "Ann", "password": PW}),
                                      headers={"Content-Type": ctype,
                                               "Origin": f"http://{HOST}:{self.server.port}"})
            self.assertEqual((status, body["error"]["code"]), (415, "unsupported_media_type"), ctype)
            self.assertNotIn("Set-Cookie", hdrs)
        # this site's pages, and scripts that send no Origin, log in
        self.assertEqual(call(self.server, "POST", "/api/login", {"name": "Ann", "password": PW},
                              headers={"Origin": f"http://{HOST}:{self.server.port}"})[0], 200)
        self.assertEqual(call(self.server, "POST", "/api/login", raw=json.dumps(
            {"name": "Ann", "password": PW}))[0], 200)

    def test_another_sites_page_cannot_open_a_game_socket(self):
        game, _, _ = two_humans(self.server)
        with self.assertRaises(HandshakeError) as refused:
            WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                              headers={"Origin": "http://evil.example"}, source="127.0.0.8")
        self.assertIn(refused.exception.status, (403, None))
        ok = WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                               headers={"Origin": f"http://{HOST}:{self.server.port}"})
        self.assertEqual(json.loads(ok.recv(TIMEOUT))["type"], "state")
        ok.close()


class Leaver(ServerTest):
    server_args = ("--msg-rate", "1000")

    def test_a_leaver_sees_what_a_spectator_sees(self):
        created = self.server.create("square", [HUMAN, HUMAN, HUMAN])
        j1, j2 = self.server.join(created["game"], "Bo"), self.server.join(created["game"], "Cy")
        # the harness checks every message: a leaver's `you` has no rack, the drawn tiles
        # of the seat the computer plays for it arrive as counts
        leaver = self.connect(created["game"], created["token"], 0)
        others = [self.connect(created["game"], j["token"], j["seat"]) for j in (j1, j2)]
        leaver.send({"type": "resign"})
        leaver.wait_for(lambda m: m["type"] == "state" and m["game"]["seats"][0]["left"])
        later = self.connect(created["game"], created["token"], 0)  # after leaving, too
        self.assertEqual(later.state["you"], {"seat": 0, "left": True})
        play_until_over(others + [leaver, later])
        draws = [e for e in leaver.events if e["ev"] == "draw" and e["player"] == 0]
        self.assertTrue(draws)
        left_at = next(i for i, e in enumerate(leaver.events) if e["ev"] == "leave")
        for e in leaver.events[left_at:]:
            if e["ev"] == "draw":
                self.assertIsInstance(e["tiles"], int, e)
        for text in leaver.raw[left_at:] + later.raw:
            self.assertNotIn('"rack"', text)


class RatedSeat(ServerTest):
    server_args = ("--msg-rate", "1000")

    def test_a_rated_seat_needs_its_accounts_session(self):
        ann = register(self.server, "Ann", PW)
        game = create(self.server, ann, {"variant": "square", "players": 2, "clock": CLOCK,
                                         "rated": True, "seats": [HUMAN, {"kind": "ai", "level": "random"}]})
        # the seat token alone, from elsewhere: refused
        thief = WebSocket.connect(HOST, self.server.port, f"/ws/{game['game']}?token={game['token']}",
                                  timeout=TIMEOUT, source="127.0.0.9")
        msg = json.loads(thief.recv(TIMEOUT))
        self.assertEqual((msg["type"], msg["code"]), ("error", "unauthorized"))
        with self.assertRaises(Closed):
            thief.recv(TIMEOUT)
        # Ann with her session plays to the end
        me = self.connect(game["game"], game["token"], 0, session=ann)
        play_until_over([me])
        # she logs out and changes nothing else: her open page cannot take a rated rematch
        # any more, nor can anyone with her old seat token
        self.assertEqual(call(self.server, "POST", "/api/logout", token=ann)[0], 204)
        me.send({"type": "rematch"})
        self.assertEqual(me.wait_type("error")["code"], "unauthorized")
        thief = WebSocket.connect(HOST, self.server.port, f"/ws/{game['game']}?token={game['token']}",
                                  timeout=TIMEOUT, source="127.0.0.9")
        self.assertEqual(json.loads(thief.recv(TIMEOUT))["code"], "unauthorized")
        thief.close()
        # logged in again: the rematch is hers
        again = session_of(login(self.server, "Ann", PW)[2])
        back = self.connect(game["game"], game["token"], 0, session=again)
        back.send({"type": "rematch"})
        self.assertEqual(back.wait_type("rematch")["seat"], 1)


class TokenInHeader(ServerTest):
    def test_the_seat_token_in_a_header(self):
        game, t0, _ = two_humans(self.server)
        c = self.connect(game, t0, 0, token_in="header")
        self.assertEqual(c.state["you"]["seat"], 0)
        self.assertIn("rack", c.state["you"])
        # a wrong token there is refused like one in the URL
        ws = WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                               headers={"Sec-WebSocket-Protocol": "axio-protocol-1, axio-token." + "A" * 64})
        self.assertEqual(json.loads(ws.recv(TIMEOUT))["code"], "unauthorized")
        ws.close()


class Passwords(ServerTest):
    def test_nul_ends_no_password(self):
        register(self.server, "Ann", PW)
        for body in ({"name": "Ann", "password": PW + "\u0000anything"},
                     {"name": "Ann", "password": PW + "\u0000"}):
            status, value, hdrs = call(self.server, "POST", "/api/login", body)
            self.assertEqual((status, value["error"].get("reason")), (400, "password_nul"))
            self.assertNotIn("Set-Cookie", hdrs)
        status, value, _ = call(self.server, "POST", "/api/accounts",
                                {"name": "Bo", "password": "abc\u0000defghij"})
        self.assertEqual((status, value["error"].get("reason")), (400, "password_nul"))


class LookAlikes(ServerTest):
    def test_names_that_look_like_others_are_refused(self):
        register(self.server, "Ann", PW)
        for name in ("\u0455trong",          # Cyrillic dze: "ѕtrong"
                     "gr\u0435edy",          # Cyrillic ie: "greеdy"
                     "\u0410nn",             # Cyrillic A: "Аnn"
                     "ANN"):                 # case: the same name
            status, value, _ = call(self.server, "POST", "/api/accounts", {"name": name, "password": PW})
            self.assertEqual((status, value["error"]["code"]), (409, "name_taken"), name)
        status, value, _ = call(self.server, "POST", "/api/accounts", {"name": "\u0410nn", "password": PW})
        self.assertEqual(value["error"]["reason"], "name_confusable")
        # a name of its own in another script is fine
        self.assertEqual(call(self.server, "POST", "/api/accounts",
                              {"name": "Анна", "password": PW})[0], 201)
        self.assertEqual(call(self.server, "POST", "/api/accounts",
                              {"name": "Strongest", "password": PW})[0], 201)


class Headers(ServerTest):
    def test_security_headers_on_every_answer(self):
        web = os.path.join(os.environ.get("SRC", ""), "web")
        server = self.server
        paths = ["/api/health", "/api/games", "/api/nothing"]
        if os.path.isdir(web):
            paths += ["/", "/js/main.js"]
        for path in paths:
            status, _, h = server.http("GET", path)
            h = {k.lower(): v for k, v in h.items()}
            self.assertIn("frame-ancestors 'none'", h.get("content-security-policy", ""), path)
            self.assertIn("script-src 'self'", h["content-security-policy"], path)
            self.assertEqual(h.get("x-frame-options"), "DENY", path)
            self.assertEqual(h.get("referrer-policy"), "no-referrer", path)
            self.assertEqual(h.get("x-content-type-options"), "nosniff", path)


class InvisibleLookAlikes(ServerTest):
    """Names that look like a taken one through invisible code points or fullwidth letters
    (finding 7 of issue 46): each was an account of its own beside "Victim"."""

    def test_invisible_and_fullwidth_names_are_taken(self):
        status, _, _ = http_from(self.server, "127.0.0.1", "POST", "/api/accounts",
                                 {"name": "Victim", "password": PW})
        self.assertEqual(status, 201)
        for i, name in enumerate(("Victim\ufe0f",      # a variation selector
                                  "Victim\u034f",      # the combining grapheme joiner
                                  "Victim\u180b",      # a Mongolian free variation selector
                                  "Victim\u17b4",      # a Khmer inherent vowel
                                  "Vic\u034ftim",      # inside the name
                                  "\uff36\uff49\uff43\uff54\uff49\uff4d",   # fullwidth "Ｖｉｃｔｉｍ"
                                  "\uff36\uff29\uff23\uff34\uff29\uff2d")):  # "ＶＩＣＴＩＭ"
            status, value, hdrs = http_from(self.server, f"127.0.0.{40 + i}", "POST", "/api/accounts",
                                            {"name": name, "password": PW})
            error = value.get("error", {})
            self.assertEqual((status, error.get("code"), error.get("reason")),
                             (409, "name_taken", "name_confusable"), ascii(name))
            self.assertNotIn("Set-Cookie", hdrs)
        # a name of invisible characters only is no name
        for name in ("\ufe0f", "\u034f\u180b", "\u17b4", "\u3164", "\u115f"):
            status, value, _ = http_from(self.server, "127.0.0.50", "POST", "/api/accounts",
                                         {"name": name, "password": PW})
            self.assertEqual((status, value["error"]["code"]), (400, "bad_message"), ascii(name))
        # the victim is the only one of them; its name still works
        status, value, _ = http_from(self.server, "127.0.0.1", "POST", "/api/login",
                                     {"name": "victim", "password": PW})
        self.assertEqual((status, value["name"]), (200, "Victim"))
        for name in ("Victim\ufe0f", "\uff36\uff49\uff43\uff54\uff49\uff4d"):
            self.assertEqual(http_from(self.server, "127.0.0.1", "GET",
                                       "/api/players/" + urllib.parse.quote(name))[0], 404)


def raw_exchange(server, source, request, timeout=5.0):
    """Sends raw bytes from source; (everything the server answered, whether it closed the
    connection within timeout)."""
    sock = socket.create_connection((HOST, server.port), timeout=timeout, source_address=(source, 0))
    sock.sendall(request)
    data, closed = b"", False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                closed = True
                break
            data += chunk
    except (socket.timeout, TimeoutError):
        pass
    except ConnectionResetError:
        closed = True
    finally:
        sock.close()
    return data, closed


class ChunkedBodies(ServerTest):
    """A body sent with Transfer-Encoding: chunked was read as empty, and its bytes held the
    connection for 10 to 20 s (finding 8 of issue 46): it is refused at once, unread, and
    the connection closed."""

    def test_a_chunked_body_is_refused_at_once(self):
        game, t0, _ = two_humans(self.server)
        victim = self.connect(game, t0, 0)
        body = json.dumps({"variant": "square", "players": 2, "name": "Mallory"}).encode()
        for path, extra in (("/api/games", b""), ("/api/login", b""),
                            ("/api/games", b"Content-Length: %d\r\n" % len(body))):
            request = (b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n" + extra
                       + b"\r\n" + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n")
            data, closed = raw_exchange(self.server, "127.0.0.60", request)
            self.assertTrue(data.startswith(b"HTTP/1.1 411 "), data[:200])
            self.assertIn(b'"code":"length_required"', data)
            self.assertTrue(closed, "the connection was held after the answer")
        # nothing was created, and the victim's game goes on
        self.assertEqual([g["id"] for g in self.server.http("GET", "/api/games")[1]], [game])
        victim.act()
        victim.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] >= 1)


class UnmaskedFrames(ServerTest):
    """A client's frame without its mask was read as a good one (finding 8 of issue 46): the
    connection is closed with 1002 (protocol error) at once, and the message goes nowhere."""

    def unmasked(self, game, first_byte, payload):
        ws = WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                               source="127.0.0.61")
        while json.loads(ws.recv(TIMEOUT))["type"] != "chat_history":
            pass
        ws.sock.sendall(bytes([first_byte, len(payload)]) + payload)
        with self.assertRaises(Closed) as closed:
            while True:
                ws.recv(5.0)
        ws.close()
        return closed.exception.code

    def test_an_unmasked_frame_closes_with_1002(self):
        game, t0, _ = two_humans(self.server)
        victim = self.connect(game, t0, 0)
        victim.drain(0.3)
        chat = json.dumps({"type": "chat", "text": "unmasked"}).encode()
        self.assertEqual(self.unmasked(game, 0x81, chat), 1002)  # a text frame
        self.assertEqual(self.unmasked(game, 0x89, b"hi"), 1002)  # a ping
        self.assertEqual(self.unmasked(game, 0x81, b""), 1002)  # empty
        # its chat reached nobody; masked frames go on as ever
        victim.send({"type": "chat", "text": "gg"})
        got = victim.wait_for(lambda m: m["type"] == "chat")
        self.assertEqual(got["text"], "gg")


def silent_spectator(server, game, source, rcvbuf=4096):
    """A spectator's socket that never reads after its handshake (a small receive buffer, as
    a phone that stopped reading would advertise)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.settimeout(TIMEOUT)
    sock.connect((HOST, server.port))
    sock.sendall((f"GET /ws/{game} HTTP/1.1\r\nHost: {HOST}:{server.port}\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


class SlowReaders(ServerTest):
    """Readers that never read, on a game with a long chat (finding 4 of issue 46): a
    connecting client got the whole chat of the last 200 messages (400 KB, written out for
    each connection), and a reader was dropped only 8 MiB behind, its kernel buffer growing
    to megabytes besides. Now the history is the newest messages that fit in 16 KiB, and a
    reader 256 KiB behind is dropped."""

    server_args = ("--request-rate", "1000")

    def flood_chat(self, game, addresses, text_len=480):
        """Five long chat messages (about 2 KB each) from each address; their texts."""
        sent = []
        for k in range(addresses):
            ws = WebSocket.connect(HOST, self.server.port, f"/ws/{game}", timeout=TIMEOUT,
                                   source=f"127.0.{3 + k // 250}.{1 + k % 250}")
            for i in range(5):
                text = f"{k}.{i} " + "\U00020000" * text_len
                ws.send_text(json.dumps({"type": "chat", "text": text}, ensure_ascii=False))
                sent.append(text)
            ws.send_json({"type": "ping"})
            while json.loads(ws.recv(TIMEOUT))["type"] != "pong":
                pass
            ws.close()
        return sent

    def test_slow_readers_are_dropped_and_the_history_is_small(self):
        game, t0, _ = two_humans(self.server)
        victim = self.connect(game, t0, 0)
        slow = [silent_spectator(self.server, game, f"127.0.2.{1 + i}") for i in range(3)]
        got = []

        def read_victim():  # the victim reads as it comes
            deadline = time.monotonic() + 2 * TIMEOUT
            while len(got) < 500 and time.monotonic() < deadline:
                try:
                    m = victim.recv(1.0)
                except TimeoutError:
                    continue
                if m["type"] == "chat":
                    got.append(m["text"])
        reader = threading.Thread(target=read_victim, daemon=True)
        reader.start()
        sent = self.flood_chat(game, 100)  # 500 messages, about 1 MB to every reader
        reader.join()
        self.assertEqual(got, sent)
        # each silent reader got a part of it, then the server closed its connection
        for sock in slow:
            received, closed = 0, False
            sock.settimeout(5.0)
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        closed = True
                        break
                    received += len(chunk)
            except (socket.timeout, TimeoutError):
                pass
            except ConnectionResetError:
                closed = True
            sock.close()
            self.assertTrue(closed, f"a silent reader is still connected after {received} bytes")
            self.assertLess(received, sum(len(t.encode()) for t in sent) // 2)
        # a connecting client gets the newest messages only, in at most 16 KiB
        late = self.connect(game)
        history = late.wait_type("chat_history")
        texts = [m["text"] for m in history["messages"]]
        self.assertLessEqual(len(late.raw[-1].encode()), 16384 + 64)
        self.assertGreaterEqual(len(texts), 5)
        self.assertEqual(texts, sent[-len(texts):])
        # and the game goes on
        victim.act()
        victim.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] >= 1)


if __name__ == "__main__":
    unittest.main()
