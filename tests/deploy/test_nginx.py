"""test_nginx.py - docs/deploy.md, done: axio behind Debian's nginx with TLS.

Starts `axio serve` with the command line of deploy/axio.service (its port, database
and web directory replaced) and nginx with deploy/nginx-axio.conf (its ports,
certificate and paths replaced; every other directive as shipped) in a prefix of its
own under a temporary directory, with a self-signed certificate made here by
`openssl`. Everything listens on loopback only. Then, through nginx:
plain HTTP redirects to HTTPS and answers certbot's challenges; HTTPS serves the API
and the web client; a whole game is played over WSS and its record fetched; the
per-address game limit counts the client's address (127.0.0.2, 127.0.0.3), not the
proxy's, and a forged X-Forwarded-For changes nothing; nginx limits the open
connections per client; the database backup of docs/deploy.md works as written; a
restart (an upgrade) keeps the finished game.

Needs nginx, openssl, sqlite3 and systemd-analyze (scripts/install-deps.sh installs
them): a missing one fails the test with its name, it is never skipped.
Environment (set by ctest): AXIO, the built command; SRC, the source tree.
"""
import base64
import hashlib
import http.client
import json
import os
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unittest

SRC = os.environ.get("SRC", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(SRC, "tests", "server"))
from wsclient import GUID, WebSocket  # noqa: E402
sys.path.insert(0, os.path.join(SRC, "tests", "deploy"))
from nginxproc import NginxProcess, main_conf  # noqa: E402

AXIO = os.environ.get("AXIO", "axio")
NGINX_CONF = os.path.join(SRC, "deploy", "nginx-axio.conf")
UNIT = os.path.join(SRC, "deploy", "axio.service")
DOC = os.path.join(SRC, "docs", "deploy.md")
HOST = "example.org"  # the name in the shipped files; the certificate is made for it
TIMEOUT = 30.0
GAME_LIMIT = 3  # games per address for the rate-limit test
CONN_LIMIT = 32  # limit_conn in deploy/nginx-axio.conf


def tool(name):
    """The path of a required program; fails (never skips) when it is missing."""
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if not path:
        raise AssertionError(f"{name} is missing: run scripts/install-deps.sh "
                             "(Debian packages nginx, openssl, sqlite3, systemd)")
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def substitute(text, old, new, count):
    """Replaces old by new, insisting that the shipped file has it count times:
    a changed file must fail here, not test something else."""
    found = text.count(old)
    if found != count:
        raise AssertionError(f"expected {count}x {old!r} in the shipped file, found {found}")
    return text.replace(old, new)


def unit_command():
    """ExecStart of deploy/axio.service, as a list."""
    with open(UNIT) as f:
        lines = [line for line in f.read().splitlines() if line.startswith("ExecStart=")]
    assert len(lines) == 1, "deploy/axio.service needs exactly one ExecStart"
    return shlex.split(lines[0][len("ExecStart="):])


def set_option(argv, name, value):
    i = argv.index(name)
    argv[i + 1] = value


class Axio:
    """`axio serve` started from the unit's command line."""

    def __init__(self, tmp, port, db, extra=()):
        argv = unit_command()
        assert argv[0] == "/usr/local/bin/axio" and argv[1] == "serve", argv
        argv[0] = AXIO
        set_option(argv, "--port", str(port))
        set_option(argv, "--db", db)
        set_option(argv, "--web", os.path.join(SRC, "web"))
        self.argv = argv + list(extra)
        self.stderr = open(os.path.join(tmp, "axio.stderr"), "a")
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        # stdout: "listening on http://127.0.0.1:PORT/ ...", then "players open URL"
        got = []

        def read():
            got.append(self.proc.stdout.readline())
            got.append(self.proc.stdout.readline())

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(TIMEOUT)
        self.lines = "".join(got)
        if "listening on" not in self.lines:
            self.stop()
            with open(self.stderr.name) as f:
                raise AssertionError(f"axio did not start: {' '.join(self.argv)}\n"
                                     f"{self.lines}{f.read()[-2000:]}")
        self.public_url = argv[argv.index("--public-url") + 1]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(TIMEOUT)
        finally:
            self.proc.stdout.close()
            self.stderr.close()


class Nginx:
    """Debian's nginx in a prefix of its own, with the shipped site."""

    def __init__(self, tmp, http_port, https_port, axio_port, cert, key, webroot):
        with open(NGINX_CONF) as f:
            site = f.read()
        site = substitute(site, "listen 80;", f"listen 127.0.0.1:{http_port};", 1)
        site = substitute(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;", 1)
        # loopback only: no IPv6 wildcard listeners in a test
        site = substitute(site, "listen [::]:80;", "", 1)
        site = substitute(site, "listen [::]:443 ssl http2;", "", 1)
        site = substitute(site, f"/etc/letsencrypt/live/{HOST}/fullchain.pem", cert, 1)
        site = substitute(site, f"/etc/letsencrypt/live/{HOST}/privkey.pem", key, 1)
        site = substitute(site, "http://127.0.0.1:8080", f"http://127.0.0.1:{axio_port}", 2)
        site = substitute(site, "root /var/www/html;", f"root {webroot};", 1)
        site = substitute(site, "/var/log/nginx/axio.access.log", f"{tmp}/axio.access.log", 2)
        self.process = NginxProcess(tmp, main_conf(tmp, site), (http_port, https_port), TIMEOUT)
        self.errors = self.process.errors
        self.stop = self.process.stop


class Conn(http.client.HTTPSConnection):
    """HTTPS to nginx on loopback, checking the certificate for example.org,
    from a chosen source address."""

    def __init__(self, port, ctx, source="127.0.0.1"):
        super().__init__(HOST, port, timeout=TIMEOUT, context=ctx, source_address=(source, 0))
        self.ctx = ctx

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout, self.source_address)
        self.sock = self.ctx.wrap_socket(sock, server_hostname=HOST)


def request(conn, method, path, body=None, headers=None, raw=None):
    """(status, body as JSON or text, headers)."""
    data = raw if raw is not None else (json.dumps(body) if body is not None else None)
    conn.request(method, path, body=data, headers=headers or {})
    resp = conn.getresponse()
    text = resp.read().decode(errors="replace")
    conn.close()
    ctype = resp.getheader("content-type", "")
    value = json.loads(text) if ctype.startswith("application/json") else text
    return resp.status, value, {k.lower(): v for k, v in resp.getheaders()}


class Refused(Exception):
    """The WebSocket handshake got an HTTP status instead of 101."""

    def __init__(self, status):
        super().__init__(f"no upgrade through nginx: {status}")
        self.status = status


def wss_connect(port, ctx, path, source="127.0.0.1"):
    """A WebSocket over TLS through nginx (wsclient's frames on an SSL socket)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT, source_address=(source, 0))
    sock = ctx.wrap_socket(sock, server_hostname=HOST)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"connection closed during the handshake: {data!r}"
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    status = int(lines[0].split(" ")[1])
    if status != 101:
        sock.close()
        raise Refused(status)
    headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:]}
    want = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
    assert headers.get("sec-websocket-accept") == want, headers
    return WebSocket(sock, rest)


class DeployTest(unittest.TestCase):
    """One nginx and one axio for the whole class; the tests run in name order,
    each building on the one before (the game, then its backup)."""

    @classmethod
    def setUpClass(cls):
        for name in ("nginx", "openssl", "sqlite3", "systemd-analyze"):
            tool(name)
        cls.tmpdir = tempfile.TemporaryDirectory(prefix="axio-deploy-")
        cls.tmp = cls.tmpdir.name
        os.chmod(cls.tmp, 0o755)  # nginx's workers run as nobody when the test runs as root
        cls.cert = os.path.join(cls.tmp, "cert.pem")
        cls.key = os.path.join(cls.tmp, "key.pem")
        r = subprocess.run([tool("openssl"), "req", "-x509", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", cls.key,
                            "-out", cls.cert, "-days", "2", "-subj", f"/CN={HOST}",
                            "-addext", f"subjectAltName=DNS:{HOST}"],
                           capture_output=True, text=True, timeout=TIMEOUT)
        assert r.returncode == 0, "openssl could not make a certificate: " + r.stderr
        cls.ctx = ssl.create_default_context(cafile=cls.cert)
        cls.webroot = os.path.join(cls.tmp, "www")
        os.makedirs(os.path.join(cls.webroot, ".well-known", "acme-challenge"))
        with open(os.path.join(cls.webroot, ".well-known", "acme-challenge", "t0ken"), "w") as f:
            f.write("t0ken.proof")
        os.chmod(os.path.join(cls.webroot, ".well-known", "acme-challenge", "t0ken"), 0o644)
        cls.db = os.path.join(cls.tmp, "x.db")
        cls.axio_port = free_port()
        cls.axio = cls.start_axio()
        cls.http_port, cls.https_port = free_port(), free_port()
        cls.nginx = None
        try:
            cls.nginx = Nginx(cls.tmp, cls.http_port, cls.https_port, cls.axio_port,
                              cls.cert, cls.key, cls.webroot)
        except BaseException:
            cls.axio.stop()
            cls.tmpdir.cleanup()
            raise
        cls.game = None

    @classmethod
    def start_axio(cls):
        return Axio(cls.tmp, cls.axio_port, cls.db, ["--max-games-per-ip", str(GAME_LIMIT), "--quiet"])

    @classmethod
    def tearDownClass(cls):
        if cls.nginx:
            cls.nginx.stop()
        if cls.axio:
            cls.axio.stop()
        cls.tmpdir.cleanup()

    def https(self, method, path, source="127.0.0.1", **kw):
        return request(Conn(self.https_port, self.ctx, source), method, path, **kw)

    def test_1_shipped_files(self):
        """docs/deploy.md shows the very files this test runs, and the unit is valid."""
        with open(DOC) as f:
            doc = f.read()
        for path in (NGINX_CONF, UNIT):
            with open(path) as f:
                self.assertIn(f.read().strip(), doc, f"docs/deploy.md must include {path} verbatim")
        with open(UNIT) as f:
            unit = f.read().replace("/usr/local/bin/axio", os.path.abspath(shutil.which(AXIO) or AXIO))
        path = os.path.join(self.tmp, "axio.service")
        with open(path, "w") as f:
            f.write(unit)
        r = subprocess.run([tool("systemd-analyze"), "verify", path], capture_output=True, text=True,
                           timeout=TIMEOUT)
        self.assertEqual((r.returncode, r.stdout + r.stderr), (0, ""), "systemd-analyze verify")
        # the address people use is what the server prints
        self.assertEqual(self.axio.public_url, f"https://{HOST}")
        self.assertIn(f"players open https://{HOST}", self.axio.lines)

    def test_2_plain_http(self):
        """Port 80 redirects to HTTPS and answers certbot's challenges."""
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=TIMEOUT)
        conn.request("GET", "/api/health?x=1", headers={"Host": HOST})
        resp = conn.getresponse()
        resp.read()
        self.assertEqual(resp.status, 301)
        self.assertEqual(resp.getheader("location"), f"https://{HOST}/api/health?x=1")
        conn.request("GET", "/.well-known/acme-challenge/t0ken", headers={"Host": HOST})
        resp = conn.getresponse()
        self.assertEqual((resp.status, resp.read()), (200, b"t0ken.proof"))
        conn.close()

    def test_3_https(self):
        """The API and the web client over TLS; bodies too large stop at nginx."""
        status, value, headers = self.https("GET", "/api/health")
        self.assertEqual(status, 200)
        self.assertTrue(value["ok"])
        self.assertIn("max-age=", headers.get("strict-transport-security", ""))
        status, text, headers = self.https("GET", "/")
        self.assertEqual(status, 200)
        self.assertIn("<html", text.lower())
        self.assertEqual(headers.get("cache-control"), "no-cache")
        status, _, _ = self.https("POST", "/api/games", raw="x" * 20000,
                                  headers={"Content-Type": "application/json"})
        self.assertEqual(status, 413)

    def test_4_game(self):
        """A whole game through nginx: create over HTTPS, play over WSS, fetch the record."""
        seats = [{"kind": "human"}, {"kind": "ai", "level": "random"}]
        status, created, _ = self.https("POST", "/api/games", body={
            "variant": "square", "players": 2, "mode": "standard", "name": "Ann", "seats": seats})
        self.assertEqual(status, 201, created)
        game, token = created["game"], created["token"]
        ws = wss_connect(self.https_port, self.ctx, f"/ws/{game}?token={token}&hint=1")
        acted, state, moves = -1, None, 0
        deadline = time.monotonic() + 120
        try:
            while state is None or state["game"]["status"] != "over":
                self.assertLess(time.monotonic(), deadline, "the game did not end in time")
                msg = json.loads(ws.recv(TIMEOUT))
                self.assertNotEqual(msg["type"], "error", msg)
                if msg["type"] != "state":
                    continue
                state = msg
                you = msg["you"]
                if you and "hint" in you and msg["game"]["ply"] > acted:
                    acted = msg["game"]["ply"]
                    # the shipped unit keeps the default of 10 messages a second per
                    # connection: play fast, but like a person, not a flood
                    time.sleep(0.15)
                    ws.send_json(you["hint"])
                    moves += 1
        finally:
            ws.close()
        self.assertGreater(moves, 5)
        status, text, headers = self.https("GET", f"/api/games/{game}/record")
        self.assertEqual(status, 200)
        lines = [json.loads(l) for l in text.splitlines()]
        self.assertEqual((lines[0]["ev"], lines[-1]["ev"]), ("start", "end"))
        self.assertEqual(hashlib.sha256(lines[0]["seed"].encode()).hexdigest(), state["game"]["seed_hash"])
        path = os.path.join(self.tmp, "game.jsonl")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([AXIO, "replay", path], capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        type(self).game, type(self).record = game, text
        # the seat token went in the URL (?token=): the shipped log format leaves it out
        with open(os.path.join(self.tmp, "axio.access.log")) as f:
            log = f.read()
        self.assertIn(f"/ws/{game}", log)
        self.assertNotIn(token, log)
        self.assertNotIn("token=", log)

    def create_from(self, source, direct=False, forged=None):
        body = {"variant": "hex", "players": 2, "name": "Bo",
                "seats": [{"kind": "human"}, {"kind": "human"}]}
        headers = {"X-Forwarded-For": forged} if forged else {}
        if direct:  # straight to axio, not through nginx
            conn = http.client.HTTPConnection("127.0.0.1", self.axio_port, timeout=TIMEOUT,
                                              source_address=(source, 0))
            return request(conn, "POST", "/api/games", body=body, headers=headers)[0]
        return self.https("POST", "/api/games", source=source, body=body, headers=headers)[0]

    def test_5_limits_see_the_client(self):
        """The game limit counts the client's address, which a client cannot forge."""
        statuses = []
        while 429 not in statuses:
            self.assertLess(len(statuses), 4 * GAME_LIMIT, f"no limit from 127.0.0.2: {statuses}")
            statuses.append(self.create_from("127.0.0.2"))
        self.assertEqual(statuses, [201] * (len(statuses) - 1) + [429])
        self.assertGreater(len(statuses), 1, "the first game was refused")
        # nginx replaces the header a client sends
        self.assertEqual(self.create_from("127.0.0.2", forged="127.0.0.3"), 429)
        # a client that reaches axio directly is not the trusted proxy: its header is ignored
        self.assertEqual(self.create_from("127.0.0.2", direct=True, forged="127.0.0.4"), 429)
        # another client through the same proxy is not limited
        self.assertEqual(self.create_from("127.0.0.3"), 201)

    def test_5b_connections_per_client(self):
        """nginx limits the open connections of each client address (axio sees only
        nginx's); closing them frees the slots."""
        self.assertIsNotNone(self.game, "test_4_game did not run")
        path = f"/ws/{self.game}"  # a spectator of the finished game
        held = []
        try:
            for _ in range(CONN_LIMIT):
                held.append(wss_connect(self.https_port, self.ctx, path, source="127.0.0.4"))
            with self.assertRaises(Refused) as refused:
                held.append(wss_connect(self.https_port, self.ctx, path, source="127.0.0.4"))
            self.assertEqual(refused.exception.status, 429)
            # another address is not affected
            held.append(wss_connect(self.https_port, self.ctx, path, source="127.0.0.5"))
            self.assertEqual(json.loads(held[-1].recv(TIMEOUT))["type"], "state")
        finally:
            for ws in held:
                ws.close()
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                wss_connect(self.https_port, self.ctx, path, source="127.0.0.4").close()
                break
            except Refused:
                self.assertLess(time.monotonic(), deadline, "the slots were not freed")
                time.sleep(0.1)

    def test_6_backup_and_restart(self):
        """docs/deploy.md's backup: refused while axio runs, done while it is stopped;
        the restart (as in an upgrade) keeps the finished game."""
        self.assertIsNotNone(self.game, "test_4_game did not run")
        sqlite3 = tool("sqlite3")
        backup = os.path.join(self.tmp, "backup.db")
        r = subprocess.run([sqlite3, self.db, f".backup {backup}"], capture_output=True, text=True,
                           timeout=TIMEOUT)
        self.assertNotEqual(r.returncode, 0, "a backup of the running server's database worked")
        self.assertIn("locked", r.stdout + r.stderr)
        if os.path.exists(backup):
            os.unlink(backup)  # sqlite3 leaves an empty file behind
        self.assertEqual(type(self).axio.stop(), 0)
        type(self).axio = None
        r = subprocess.run([sqlite3, self.db, f".backup {backup}"], capture_output=True, text=True,
                           timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([sqlite3, backup, "PRAGMA integrity_check;"], capture_output=True,
                           text=True, timeout=TIMEOUT)
        self.assertEqual(r.stdout.strip(), "ok")
        type(self).axio = self.start_axio()
        status, state, _ = self.https("GET", f"/api/games/{self.game}")
        self.assertEqual((status, state["status"]), (200, "over"))
        status, text, _ = self.https("GET", f"/api/games/{self.game}/record")
        self.assertEqual((status, text), (200, self.record))


if __name__ == "__main__":
    unittest.main(verbosity=2)
