"""test_push.py - Web Push from the real server (issue 52, docs/notifications.md).

A push service of the test's own (an HTTP server on this machine; the server runs with
--push-http) receives what the server sends, checks the VAPID signature (RFC 8292: an
ES256 JWT for the push service's origin, signed with the key GET /api/push/key gives) and
decrypts the body (RFC 8291 aes128gcm) with the subscription's private key, as a browser
would. It shows:

- the API: the site's key, subscribing (bad endpoints and keys refused, at most 5 per
  account, the newest kept), unsubscribing, preferences per kind and channel, language;
- "your turn" is not sent while a tab of the player watches the game, and is sent (in the
  account's language) when none does, after --push-delay-s;
- game over with the player's place; a challenge;
- an event's table game: "a tournament game waiting", naming the event, to a player with no
  tab open, after the delay; not to one whose tab watches the game by then;
- an endpoint that answers 410 is forgotten; one that answers 503 is asked again;
- without --push-http: only https:// endpoints, and none on this machine is connected to;
- the daily e-mail digest through --smtp (a sink of the test's own): the address confirmed
  by a link, one digest listing the game waiting, not a second the same day, RFC 8058
  one-click unsubscribe; without --smtp the API says it is unavailable.
"""
import base64
import http.server
import json
import os
import queue
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import call, create, register  # noqa: E402
from eventlib import event, new_event  # noqa: E402
from harness import Client, Server, ServerTest, db_query  # noqa: E402

try:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
except ImportError:  # Debian's python3-cryptography (scripts/install-deps.sh)
    print("test_push: needs python3-cryptography", file=sys.stderr)
    sys.exit(77)

PW = "correct horse"
HUMAN = {"kind": "human"}
DELAY_S = 1


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class Browser:
    """A browser's side of a subscription: its P-256 key and auth secret."""

    def __init__(self, endpoint):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint
        self.public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    def subscription(self, lang=None):
        sub = {"endpoint": self.endpoint, "keys": {"p256dh": b64u(self.public), "auth": b64u(self.auth)}}
        if lang:
            sub["lang"] = lang
        return sub

    def decrypt(self, body):
        """RFC 8291 / RFC 8188: the plaintext of a one-record aes128gcm body."""
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        assert idlen == 65 and rs >= 18, (rs, idlen)
        as_public = body[21:21 + idlen]
        record = body[21 + idlen:]
        assert len(record) <= rs
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public)
        secret = self.key.exchange(ec.ECDH(), peer)
        ikm = hkdf(self.auth, secret, b"WebPush: info\0" + self.public + as_public, 32)
        cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\0", 16)
        nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\0", 12)
        plain = AESGCM(cek).decrypt(nonce, record, None)
        assert plain.endswith(b"\x02"), "the last record's delimiter"
        return plain[:-1]


class PushService:
    """A push service on this machine: every POST to /push/NAME is recorded with its
    headers and body; NAME's answer is 201, or what answers[NAME] says (a list: one
    status per request, then 201)."""

    def __init__(self):
        self.received = queue.Queue()
        self.answers = {}
        self.counts = {}
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                name = self.path.rsplit("/", 1)[-1]
                service.counts[name] = service.counts.get(name, 0) + 1
                planned = service.answers.get(name, [])
                status = planned.pop(0) if planned else 201
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                service.received.put((name, status, dict(self.headers), body))

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, name):
        return f"{self.origin}/push/{name}"

    def next(self, timeout=10.0):
        """(name, status answered, headers, body) of the next request, or None."""
        try:
            return self.received.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def check_vapid(test, headers, site_key, origin):
    """The Authorization header: vapid t=JWT, k=KEY; the JWT is ES256 over its first two
    parts with the site's key, for the push service's origin, expiring within a day."""
    auth = headers["Authorization"]
    test.assertTrue(auth.startswith("vapid t="), auth)
    t_part, k_part = auth[len("vapid "):].split(", ")
    jwt, key = t_part[2:], k_part[2:]
    test.assertEqual(key, site_key)
    head, claims, sig = jwt.split(".")
    test.assertEqual(json.loads(unb64u(head)), {"typ": "JWT", "alg": "ES256"})
    claims = json.loads(unb64u(claims))
    test.assertEqual(claims["aud"], origin)
    test.assertEqual(claims["sub"], "mailto:ops@example.org")
    test.assertTrue(time.time() < claims["exp"] <= time.time() + 86400, claims)
    raw = unb64u(sig)
    test.assertEqual(len(raw), 64)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, jwt.rsplit(".", 1)[0].encode(), ec.ECDSA(hashes.SHA256()))
    test.assertEqual(headers["Content-Encoding"], "aes128gcm")
    test.assertGreater(int(headers["TTL"]), 0)


class PushTest(ServerTest):
    server_args = ("--push-http", "--push-delay-s", str(DELAY_S),
                   "--push-contact", "mailto:ops@example.org")

    def setUp(self):
        super().setUp()
        self.push = PushService()
        status, body, _ = call(self.server, "GET", "/api/push/key")
        self.assertEqual(status, 200, body)
        self.site_key = body["key"]
        self.assertEqual(len(unb64u(self.site_key)), 65)

    def tearDown(self):
        self.push.close()
        super().tearDown()

    def subscribe(self, session, name, lang=None):
        browser = Browser(self.push.url(name))
        status, body, _ = call(self.server, "POST", "/api/me/push", browser.subscription(lang),
                               token=session)
        self.assertEqual(status, 201, body)
        return browser

    def received(self, browser, timeout=10.0):
        """The next message the push service got, checked and decrypted for browser."""
        got = self.push.next(timeout)
        self.assertIsNotNone(got, "nothing was pushed")
        name, status, headers, body = got
        self.assertEqual(self.push.url(name), browser.endpoint)
        check_vapid(self, headers, self.site_key, self.push.origin)
        return json.loads(browser.decrypt(body))

    def nothing_pushed(self, seconds):
        got = self.push.next(seconds)
        self.assertIsNone(got, f"pushed: {got and got[:2]}")

    def game_of_two(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        game = create(self.server, ann, {"variant": "square", "players": 2,
                                         "clock": {"kind": "daily", "per_move_s": 86400},
                                         "seats": [HUMAN, HUMAN]})
        joined = call(self.server, "POST", f"/api/games/{game['game']}/join", {}, token=bo)[1]
        return ann, bo, game["game"], joined

    def connect_seat(self, game, session, seat):
        c = Client(self.server, game, None, seat, session=session)
        self.clients.append(c)
        c.wait_type("history")
        return c


class Api(PushTest):
    def test_subscriptions_and_preferences(self):
        ann = register(self.server, "Ann", PW)
        good = Browser(self.push.url("a")).subscription()
        self.assertEqual(call(self.server, "POST", "/api/me/push", good)[0], 401)
        bad_key = dict(good, keys={"p256dh": b64u(b"\x04" + bytes(64)), "auth": good["keys"]["auth"]})
        for body in ({"endpoint": "ftp://x/y", "keys": good["keys"]},
                     {"endpoint": "http://a b/", "keys": good["keys"]},
                     {"keys": good["keys"]},
                     bad_key,
                     dict(good, keys={"p256dh": good["keys"]["p256dh"], "auth": "short"}),
                     dict(good, lang="fr"),
                     dict(good, endpoint="https://x/" + "a" * 1100)):
            status, value, _ = call(self.server, "POST", "/api/me/push", body, token=ann)
            self.assertEqual(status, 400, (body, value))
            self.assertEqual(value["error"]["code"], "bad_message")
        status, prefs, _ = call(self.server, "GET", "/api/me/notifications", token=ann)
        self.assertEqual((status, prefs["subscriptions"], prefs["lang"]), (200, 0, "en"))
        self.assertEqual(prefs["prefs"]["turn"], {"push": True, "email": False})
        # at most five: the newest stay
        for i in range(6):
            self.subscribe(ann, f"dev{i}", lang="hu")
        prefs = call(self.server, "GET", "/api/me/notifications", token=ann)[1]
        self.assertEqual((prefs["subscriptions"], prefs["lang"]), (5, "hu"))
        gone = self.push.url("dev0")
        self.assertEqual(call(self.server, "DELETE", f"/api/me/push?endpoint={gone}", token=ann)[0], 404)
        one = self.push.url("dev3")
        self.assertEqual(call(self.server, "DELETE", f"/api/me/push?endpoint={one}", token=ann)[0], 204)
        self.assertEqual(call(self.server, "DELETE", f"/api/me/push?endpoint={one}", token=ann)[0], 404)
        # another account cannot take away Ann's
        bo = register(self.server, "Bo", PW)
        two = self.push.url("dev4")
        self.assertEqual(call(self.server, "DELETE", f"/api/me/push?endpoint={two}", token=bo)[0], 404)
        self.assertEqual(call(self.server, "GET", "/api/me/notifications", token=ann)[1]["subscriptions"], 4)
        # preferences: per kind and channel; a bad one changes nothing
        status, prefs, _ = call(self.server, "POST", "/api/me/notifications",
                                {"prefs": {"turn": {"push": False}}, "lang": "de"}, token=ann)
        self.assertEqual(status, 200, prefs)
        self.assertEqual(prefs["prefs"]["turn"], {"push": False, "email": False})
        self.assertEqual(prefs["prefs"]["over"], {"push": True, "email": False})
        self.assertEqual(prefs["lang"], "de")
        for body in ({"prefs": {"moves": {"push": True}}}, {"prefs": {"turn": {"push": 1}}},
                     {"prefs": {"turn": {"sms": True}}}, {"lang": "xx"}, {}, [],
                     {"prefs": {"turn": {"push": True}}, "lang": 3}):
            status, value, _ = call(self.server, "POST", "/api/me/notifications", body, token=ann)
            self.assertEqual(status, 400, (body, value))
        prefs = call(self.server, "GET", "/api/me/notifications", token=ann)[1]
        self.assertEqual((prefs["lang"], prefs["prefs"]["turn"]["push"]), ("de", False))
        self.assertEqual(call(self.server, "GET", "/api/me/notifications")[0], 401)
        self.assertEqual(call(self.server, "POST", "/api/push/key", {})[0], 405)
        # no --smtp: no e-mail
        self.assertFalse(call(self.server, "GET", "/api/me/email", token=ann)[1]["available"])
        self.assertEqual(call(self.server, "POST", "/api/me/email", {"address": "ann@example.org"},
                              token=ann)[0], 503)
        self.nothing_pushed(0.2)


class Turns(PushTest):
    def test_your_turn_only_when_no_tab_watches(self):
        ann, bo, game, joined = self.game_of_two()
        browser = self.subscribe(ann, "ann", lang="de")
        a = self.connect_seat(game, ann, 0)
        b = self.connect_seat(game, bo, joined["seat"])
        # while Ann's tab watches, her turns are not pushed
        for _ in range(2):
            mover = b if b.my_turn() else a
            ply = mover.state["game"]["ply"]
            mover.act()
            for c in (a, b):
                c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        if not a.my_turn():  # Ann to move: Bo plays once more
            ply = b.state["game"]["ply"]
            b.act()
            a.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        self.nothing_pushed(DELAY_S + 1.5)
        # Ann plays and closes her tab; Bo's reply makes it her turn: pushed, in German
        ply = a.state["game"]["ply"]
        a.act()
        b.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        a.close()
        self.clients.remove(a)
        self.nothing_pushed(0.3)
        ply = b.state["game"]["ply"]
        b.act()
        b.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        started = time.monotonic()
        msg = self.received(browser)
        self.assertGreaterEqual(time.monotonic() - started, DELAY_S - 0.3)
        self.assertEqual(msg["kind"], "turn")
        self.assertEqual(msg["title"], "Du bist am Zug")
        self.assertIn("AXIO", msg["body"])
        self.assertEqual(msg["url"], f"/#/game/{game}?seat=0")
        self.nothing_pushed(DELAY_S + 0.5)  # once
        # Bo resigns: the game is over and Ann, not watching, hears her place
        b.send({"type": "resign"})
        msg = self.received(browser)
        self.assertEqual((msg["kind"], msg["title"]), ("over", "Partie beendet"))
        self.assertIn("Platz 1 von 2", msg["body"])

    def test_preferences_are_obeyed(self):
        ann, bo, game, joined = self.game_of_two()
        self.subscribe(ann, "ann")
        self.assertEqual(call(self.server, "POST", "/api/me/notifications",
                              {"prefs": {"turn": {"push": False}, "over": {"push": False}}},
                              token=ann)[0], 200)
        b = self.connect_seat(game, bo, joined["seat"])
        if b.my_turn():
            ply = b.state["game"]["ply"]
            b.act()
            b.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        b.send({"type": "resign"})
        b.wait_for(lambda m: m["type"] == "state" and m["game"]["status"] != "running")
        self.nothing_pushed(DELAY_S + 1.5)


class Events(PushTest):
    # long enough for the test to open a tab on the new game before it runs out
    server_args = ("--push-http", "--push-delay-s", "3", "--push-contact", "mailto:ops@example.org")

    def test_event_game_waiting(self):
        ann = register(self.server, "Ann", PW)
        bob = register(self.server, "Bob", PW)
        self.subscribe(ann, "ann")
        browser = self.subscribe(bob, "bob", lang="hu")
        e = new_event(self.server, ann, name="Winter Cup", format="swiss", rounds=1)
        for s in (ann, bob):
            self.assertEqual(call(self.server, "POST", f"/api/events/{e['id']}/join", {},
                                  token=s)[0], 200)
        status, value, _ = call(self.server, "POST", f"/api/events/{e['id']}/start", {},
                                token=ann)
        self.assertEqual(status, 200, value)
        started = time.monotonic()
        while not event(self.server, e["id"])["tables"]:
            self.assertLess(time.monotonic() - started, 10)
            time.sleep(0.05)
        # Ann opens her game at once: her tab watches it when the delay is over
        mine = event(self.server, e["id"], session=ann)["you"]
        a = Client(self.server, mine["game"], None, mine["seat"], session=ann)
        self.clients.append(a)
        a.wait_type("history")
        self.assertLess(time.monotonic() - started, 2.5, "too slow to tell")
        # Bob has no tab open: told, in Hungarian, naming the event; the notice opens his game
        his = event(self.server, e["id"], session=bob)["you"]
        self.assertEqual(his["game"], mine["game"])
        msg = self.received(browser)
        self.assertGreaterEqual(time.monotonic() - started, 2.5)
        self.assertEqual(msg["kind"], "event")
        self.assertEqual(msg["title"], "Vár egy versenyjátszma")
        self.assertIn("Winter Cup", msg["body"])
        self.assertIn("AXIO", msg["body"])
        self.assertEqual(msg["url"], f"/#/game/{his['game']}?seat={his['seat']}")
        self.assertEqual(msg["tag"], f"event-{his['game']}")
        # nothing for Ann, whose tab watches (a realtime game: no "your turn" either)
        self.nothing_pushed(2)


class Delivery(PushTest):
    def test_challenge_gone_and_retried(self):
        ann = register(self.server, "Ann", PW)
        bo = register(self.server, "Bo", PW)
        kept = self.subscribe(bo, "kept", lang="hu")
        self.push.answers["gone"] = [410]
        self.push.answers["flaky"] = [503]
        self.subscribe(bo, "gone")
        flaky = self.subscribe(bo, "flaky")
        status, _, _ = call(self.server, "POST", "/api/challenges", {"to": "Bo", "variant": "hex"},
                            token=ann)
        self.assertEqual(status, 201)
        got = {}
        deadline = time.monotonic() + 20
        while len(got) < 4 and time.monotonic() < deadline:
            item = self.push.next(deadline - time.monotonic())
            if item:
                got.setdefault(item[0], []).append(item)
        self.assertEqual(sorted((n, [i[1] for i in v]) for n, v in got.items()),
                         [("flaky", [503, 201]), ("gone", [410]), ("kept", [201])])
        msg = json.loads(kept.decrypt(got["kept"][0][3]))
        self.assertEqual((msg["kind"], msg["title"]), ("challenge", "Kihívás"))
        self.assertIn("Ann", msg["body"])
        self.assertIn("AXIO Hex", msg["body"])
        self.assertEqual(json.loads(flaky.decrypt(got["flaky"][1][3]))["kind"], "challenge")
        for _, _, headers, _ in got["flaky"]:
            check_vapid(self, headers, self.site_key, self.push.origin)
        # the 410 endpoint is forgotten, the others stay
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            n = call(self.server, "GET", "/api/me/notifications", token=bo)[1]["subscriptions"]
            if n == 2:
                break
            time.sleep(0.1)
        self.assertEqual(n, 2)
        gone = self.push.url("gone")
        self.assertEqual(call(self.server, "DELETE", f"/api/me/push?endpoint={gone}", token=bo)[0], 404)

    def test_the_key_survives_a_restart(self):
        key = self.site_key
        self.assertEqual(self.server.stop(), 0)
        self.server = Server(self.db, *self.server_args)
        self.assertEqual(call(self.server, "GET", "/api/push/key")[1]["key"], key)


class Restarts(PushTest):
    """A "your turn" still waiting for its delay when the server stops is not lost: the
    game loaded again waits for it again; one sent long before is not sent again."""
    server_args = ("--push-http", "--push-delay-s", "3", "--push-contact", "mailto:ops@example.org")

    def restart(self, crash, before=None):
        if crash:
            self.server.kill()
        else:
            self.assertEqual(self.server.stop(), 0)
        for c in self.clients:
            c.close()
        self.clients.clear()
        if before:
            before()
        self.server = Server(self.db, *self.server_args)

    def test_your_turn_waiting_when_the_server_stops(self):
        ann, bo, game, joined = self.game_of_two()
        browser = self.subscribe(ann, "ann")
        a = self.connect_seat(game, ann, 0)
        b = self.connect_seat(game, bo, joined["seat"])
        while a.my_turn():
            ply = a.state["game"]["ply"]
            a.act()
            b.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        a.close()
        self.clients.remove(a)
        while b.my_turn():  # acknowledged: stored; then Ann's turn, its notice due in 3 s
            ply = b.state["game"]["ply"]
            b.act()
            b.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        self.restart(crash=True)
        msg = self.received(browser, timeout=15)
        self.assertEqual((msg["kind"], msg["url"]), ("turn", f"/#/game/{game}?seat=0"))
        self.nothing_pushed(4)  # once
        # a turn whose notice was due minutes before the server started is not news again
        self.restart(crash=False, before=lambda: db_query(
            self.db, "UPDATE decisions SET at = at - 600 WHERE game_id = ?", game))
        self.nothing_pushed(5)


class PrivateAddresses(ServerTest):
    """Without --push-http only https:// endpoints are taken, and the server never
    connects to this machine or a private network for a subscription."""
    server_args = ("--push-contact", "mailto:ops@example.org")

    def test_no_connection_to_this_machine(self):
        import socket
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(0.2)
        port = listener.getsockname()[1]
        try:
            ann = register(self.server, "Ann", PW)
            bo = register(self.server, "Bo", PW)
            plain = Browser(f"http://127.0.0.1:{port}/push/x").subscription()
            status, value, _ = call(self.server, "POST", "/api/me/push", plain, token=bo)
            self.assertEqual(status, 400, value)
            self.assertIn("https", value["error"]["message"])
            sub = Browser(f"https://127.0.0.1:{port}/push/x").subscription()
            self.assertEqual(call(self.server, "POST", "/api/me/push", sub, token=bo)[0], 201)
            self.assertEqual(call(self.server, "POST", "/api/challenges", {"to": "Bo", "variant": "rota"},
                                  token=ann)[0], 201)
            accepted = 0
            deadline = time.monotonic() + 3.5  # the first attempt and the retry after 2 s
            while time.monotonic() < deadline:
                try:
                    conn, _ = listener.accept()
                    conn.close()
                    accepted += 1
                except socket.timeout:
                    pass
            self.assertEqual(accepted, 0, "the server connected to 127.0.0.1")
            # still subscribed: a refused connection is not a 410
            self.assertEqual(call(self.server, "GET", "/api/me/notifications", token=bo)[1]["subscriptions"], 1)
        finally:
            listener.close()


class SmtpSink:
    """A mail server on this machine that keeps every message: (sender, recipients,
    the message's text)."""

    def __init__(self):
        import socketserver
        self.messages = queue.Queue()
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                self.wfile.write(b"220 sink ESMTP\r\n")
                sender, rcpts = None, []
                while True:
                    line = self.rfile.readline()
                    if not line:
                        return
                    cmd = line.decode(errors="replace").strip()
                    verb = cmd.split(" ")[0].upper()
                    if verb in ("EHLO", "HELO"):
                        self.wfile.write(b"250-sink\r\n250 8BITMIME\r\n")
                    elif verb == "MAIL":
                        sender, rcpts = cmd.split(":", 1)[1].strip(), []
                        self.wfile.write(b"250 ok\r\n")
                    elif verb == "RCPT":
                        rcpts.append(cmd.split(":", 1)[1].strip())
                        self.wfile.write(b"250 ok\r\n")
                    elif verb == "DATA":
                        self.wfile.write(b"354 go on\r\n")
                        data = b""
                        while not data.endswith(b"\r\n.\r\n"):
                            chunk = self.rfile.readline()
                            if not chunk:
                                return
                            data += chunk
                        sink.messages.put((sender, rcpts, data[:-5].decode()))
                        self.wfile.write(b"250 queued\r\n")
                    elif verb == "QUIT":
                        self.wfile.write(b"221 bye\r\n")
                        return
                    else:
                        self.wfile.write(b"250 ok\r\n")

        class Server(socketserver.ThreadingTCPServer):
            allow_reuse_address = True
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self, timeout=15.0):
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def parse_mail(text):
    """(headers as a dict, the body) of a message; RFC 2047 subjects decoded."""
    import email
    import email.header
    import email.policy
    msg = email.message_from_string(text, policy=email.policy.default)
    headers = {k: str(v) for k, v in msg.items()}
    return headers, msg.get_content()


class Mail(ServerTest):
    """The daily digest through --smtp: the address confirmed by a link, one digest listing
    the game waiting (List-Unsubscribe, RFC 8058), not a second the same day, one-click
    unsubscribe."""

    def setUp(self):
        self.sink = SmtpSink()
        self.server_args = ("--smtp", f"smtp://127.0.0.1:{self.sink.port}",
                            "--public-url", "http://axio.test", "--mail-from", "games@axio.test")
        super().setUp()

    def tearDown(self):
        super().tearDown()
        self.sink.close()

    def test_digest_once_a_day_and_unsubscribe(self):
        ann = register(self.server, "Ann", PW)
        status, value, _ = call(self.server, "GET", "/api/me/email", token=ann)
        self.assertEqual((status, value), (200, {"address": None, "verified": False, "available": True}))
        for bad in ("ann", "ann@", "@example.org", "a b@example.org", "ann@example", "<a@b.c>",
                    "ann@example.org\r\nBcc: x@y.z", "a" * 250 + "@example.org"):
            status, value, _ = call(self.server, "POST", "/api/me/email", {"address": bad}, token=ann)
            self.assertEqual(status, 400, (bad, value))
        self.assertEqual(call(self.server, "POST", "/api/me/email", {"address": "ann@example.org"})[0], 401)
        self.assertEqual(call(self.server, "POST", "/api/me/notifications", {"lang": "de"}, token=ann)[0], 200)
        status, value, _ = call(self.server, "POST", "/api/me/email", {"address": "ann@example.org"}, token=ann)
        self.assertEqual((status, value["verified"]), (202, False), value)
        sender, rcpts, text = self.sink.next()
        self.assertEqual((sender, rcpts), ("<games@axio.test>", ["<ann@example.org>"]))
        headers, body = parse_mail(text)
        self.assertEqual(headers["Subject"], "Bestätige deine E-Mail-Adresse für axio")
        self.assertIn("ann@example.org", headers["To"])
        self.assertNotIn("List-Unsubscribe", headers)
        link = next(w for w in body.split() if w.startswith("http://axio.test/api/email/verify?token="))
        token = link.split("token=")[1]
        self.assertEqual(call(self.server, "GET", "/api/email/verify?token=" + "x" * len(token))[0], 404)
        status, page, _ = call(self.server, "GET", "/api/email/verify?token=" + token)
        self.assertEqual(status, 200)
        self.assertIn("bestätigt", page)
        self.assertTrue(call(self.server, "GET", "/api/me/email", token=ann)[1]["verified"])
        # a game waits for Ann: no digest while she does not want one by e-mail
        game = create(self.server, ann, {"variant": "rota", "players": 2, "seats": [
            HUMAN, {"kind": "ai", "level": "random"}], "clock": {"kind": "daily", "per_move_s": 86400}})
        self.assertIsNone(self.sink.next(6.5))
        status, prefs, _ = call(self.server, "POST", "/api/me/notifications",
                                {"prefs": {"turn": {"email": True}}}, token=ann)
        self.assertEqual((status, prefs["prefs"]["turn"]["email"]), (200, True))
        got = self.sink.next(15)
        self.assertIsNotNone(got, "no digest")
        headers, body = parse_mail(got[2])
        self.assertEqual(headers["Subject"], "axio: Partien, die auf deinen Zug warten (1)")
        self.assertIn(f"http://axio.test/#/game/{game['game']}?seat=0", body)
        self.assertIn("AXIO ROTA", body)
        self.assertEqual(headers["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click")
        unsub = headers["List-Unsubscribe"].strip("<>")
        self.assertTrue(unsub.startswith("http://axio.test/api/email/unsubscribe?token="), unsub)
        self.assertIn(unsub, body)
        # once a day: no second digest
        self.assertIsNone(self.sink.next(7), "a second digest the same day")
        # RFC 8058: the mail program's one-click POST, a form, no session
        path = unsub[len("http://axio.test"):]
        status, page, _ = call(self.server, "POST", path, raw="List-Unsubscribe=One-Click",
                               headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 200, page)
        self.assertEqual(call(self.server, "GET", "/api/me/email", token=ann)[1]["address"], None)
        self.assertEqual(call(self.server, "POST", path, raw="List-Unsubscribe=One-Click",
                              headers={"Content-Type": "application/x-www-form-urlencoded"})[0], 404)
        # other paths still refuse a form's body
        self.assertEqual(call(self.server, "POST", "/api/me/notifications", raw="lang=de", token=ann,
                              headers={"Content-Type": "application/x-www-form-urlencoded"})[0], 415)


class Options(unittest.TestCase):
    """Bad notification options are refused with a clear line and status 2."""

    def test_bad_options(self):
        import subprocess
        from harness import AXIO
        for args, says in ((["--push-contact", "ops@example.org"], "--push-contact"),
                           (["--push-contact", "mailto:nobody"], "--push-contact"),
                           (["--push-delay-s", "0"], "--push-delay-s"),
                           (["--smtp", "http://mail.example.org"], "--smtp"),
                           (["--smtp", "smtp://127.0.0.1:25"], "--public-url"),
                           (["--mail-from", "nobody"], "--mail-from")):
            r = subprocess.run([AXIO, "serve", "--port", "0", "--db", "/nonexistent/x.db", *args],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(says, r.stderr, args)


if __name__ == "__main__":
    unittest.main()
