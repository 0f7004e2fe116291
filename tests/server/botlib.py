"""botlib.py - what the Bot API's tests share (docs/bot-api.md): a bot account with a
personal token, NDJSON streams read line by line, and an engine (`axio engine`) that
decides from the `position` a bot's game stream carries."""
import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import call, register  # noqa: E402
from harness import AXIO, HOST, TIMEOUT  # noqa: E402

PW = "correct horse"
ALL_SCOPES = ["bot:play", "challenge:write", "game:read"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def api(server, method, path, body=None, token=None, session=None, headers=None):
    """(status, JSON or text, headers) with a personal token and/or a session."""
    h = dict(headers or {})
    if token:
        h.update(bearer(token))
    return call(server, method, path, body, token=session, headers=h)


def new_token(server, session, scopes=ALL_SCOPES, label="test"):
    status, body, _ = api(server, "POST", "/api/me/tokens", {"label": label, "scopes": scopes},
                          session=session)
    assert status == 201, (status, body)
    return body["secret"], body["token"]["id"]


def make_bot(server, name, about="a test bot; axio engine"):
    """A new bot account: (its session, its token with every scope)."""
    session = register(server, name, PW)
    token, _ = new_token(server, session)
    status, body, _ = api(server, "POST", "/api/bot/account/upgrade", {"about": about},
                          token=token)
    assert status == 200, (status, body)
    return session, token


class Stream:
    """A Bot API stream: its lines (JSON, or None for a keep-alive) as they come."""

    def __init__(self, server, path, token, port=None):
        self.conn = http.client.HTTPConnection(HOST, port or server.port, timeout=60)
        self.conn.request("GET", path, headers=bearer(token))
        self.sock = self.conn.sock
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.headers = {k.lower(): v for k, v in self.resp.getheaders()}
        self.lines = queue.Queue()
        self.ended = threading.Event()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.body = self.resp.read().decode()
            self.ended.set()

    def _read(self):
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    break
                text = line.decode().strip()
                self.lines.put(json.loads(text) if text else None)
        except (OSError, ValueError, http.client.HTTPException):
            pass
        self.ended.set()
        self.lines.put(StopIteration)

    def next(self, timeout=TIMEOUT, keepalives=False):
        """The next line (keep-alives skipped unless asked for); AssertionError on timeout,
        EOFError when the stream ended."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no line within %.0f s" % timeout)
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is StopIteration:
                self.lines.put(StopIteration)
                raise EOFError("the stream ended")
            if line is None and not keepalives:
                continue
            return line

    def wait(self, pred, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.1, deadline - time.monotonic()))
            if pred(line):
                return line

    def close(self):
        try:
            self.sock.shutdown(2)
        except OSError:
            pass
        self.conn.close()


class Engine:
    """`axio engine` over axio-engine/1: a decision for a position."""

    def __init__(self, player="random"):
        self.proc = subprocess.Popen([AXIO, "engine", "--player", player, "--movetime", "20"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ask({"type": "hello", "protocol": "axio-engine/1"})

    def ask(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def decide(self, position):
        answer = self.ask({"type": "go", "movetime": 20, "position": position})
        assert answer["type"] == "decision", answer
        return answer["move"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(10)


def to_decide(state):
    """Whether the bot's seat must decide in a state line."""
    g, you = state["game"], state["you"]
    return (you is not None and g["status"] == "running" and g["to_move"] == you["seat"]
            and "position" in state)
