"""What the tests of `axio bot` share: the fake site, a bot process, waiting."""
import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fake_bot_site import FakeSite  # noqa: E402

AXIO = os.environ["AXIO"]
REFEREE = os.environ["BOT_REFEREE"]
PYTHON = os.environ.get("PYTHON3", sys.executable)
TMP = tempfile.mkdtemp(prefix="axio-bot-test-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
GREEDY = "%s engine --player greedy" % AXIO


def site(**kw):
    s = FakeSite(REFEREE, **kw)
    s.listen()
    return s


def wait_for(cond, timeout, what):
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if cond():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + what)


def token_file(token, mode=0o600):
    path = os.path.join(TMP, "token-%d" % time.monotonic_ns())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    os.write(fd, (token + "\n").encode())
    os.close(fd)
    os.chmod(path, mode)
    return path


class Bot:
    """An `axio bot` process; its stderr collected line by line."""

    def __init__(self, fake, token, *args, engine=GREEDY, token_path=None):
        self.token = token
        path = token_path or token_file(token)
        self.p = subprocess.Popen([AXIO, "bot", "--url", fake.url(), "--token-file", path,
                                   "--engine", engine, *args],
                                  stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.lines = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.p.stderr:
            self.lines.append(line.rstrip("\n"))

    def log(self):
        return "\n".join(self.lines)

    def saw(self, text):
        return any(text in line for line in self.lines)

    def wait_log(self, text, timeout=30):
        try:
            wait_for(lambda: self.saw(text), timeout, repr(text))
        except AssertionError:
            print(self.log())
            raise

    def stop(self):
        """SIGTERM: exits 0 at once, and the token never reached the log."""
        self.p.send_signal(signal.SIGTERM)
        rc = self.p.wait(timeout=10)
        self.reader.join(timeout=5)
        assert rc == 0, "exit %d\n%s" % (rc, self.log())
        self.check_log()
        assert self.saw("stopping (SIGTERM)"), self.log()

    def check_log(self):
        assert self.token not in self.log(), "the token is in the log"


def replay(record):
    path = os.path.join(TMP, "record-%d.jsonl" % time.monotonic_ns())
    with open(path, "w") as f:
        f.write(record)
    r = subprocess.run([AXIO, "replay", path], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return record


def moves(fake, gid):
    """The answers to the bot's decisions of a game, in order."""
    return [r for r in fake.requests if r["path"] == "/api/bot/game/%s/move" % gid]


def check_game(fake, gid):
    """The game ended, its record replays, every decision of the bot was taken
    at its first try or after an injected failure, never refused as illegal."""
    g = fake.games[gid]
    assert g.status == "over", gid
    replay(g.record)
    answers = moves(fake, gid)
    assert all(r["status"] in (200, 429, 503) for r in answers), answers
    assert sum(r["status"] == 200 for r in answers) == len(g.decisions), answers
    return g
