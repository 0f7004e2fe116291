#!/usr/bin/env python3
"""`axio token` on a real `axio serve`: logs in with the password from a file or from
standard input, makes a token (its secret into a file only its owner may read, or on
standard output; shown once), lists the account's tokens without their secrets, revokes
one (a request with it is 401 from then on); a wrong password, an unknown token id, a site
that does not answer and bad usage each end with a one-line reason and change nothing."""
import os
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
from accounts_lib import register  # noqa: E402
from botlib import PW, api  # noqa: E402
from harness import AXIO, Server, new_database  # noqa: E402


def token(*args, stdin=None):
    return subprocess.run([AXIO, "token", *args], input=stdin, capture_output=True, text=True,
                          timeout=60)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    tmp = tempfile.TemporaryDirectory()
    server = Server(new_database(tmp.name))
    try:
        register(server, "Robo", PW)
        url = "http://127.0.0.1:%d/" % server.port
        pw = os.path.join(tmp.name, "pw")
        with open(pw, "w") as f:
            f.write(PW + "\n")
        out = os.path.join(tmp.name, "robo.token")
        r = token("create", "--url", url, "--name", "Robo", "--password-file", pw,
                  "--scopes", "bot:play,game:read", "--label", "my engine", "--output", out)
        check(r.returncode == 0, r.stderr)
        check(r.stdout == "", "the secret went to the file only: %r" % r.stdout)
        check(stat.S_IMODE(os.stat(out).st_mode) == 0o600, oct(os.stat(out).st_mode))
        secret = open(out).read().strip()
        check(secret.startswith("axio_") and len(secret) == 37, secret[:8])
        check(api(server, "GET", "/api/me/games", token=secret)[0] == 200, "the token works")
        # the password from standard input, the secret on standard output
        r = token("create", "--url", url, "--name", "Robo", "--scopes", "game:read",
                  stdin=PW + "\n")
        check(r.returncode == 0 and r.stdout.startswith("axio_"), r.stderr)
        second = r.stdout.strip()
        r = token("list", "--url", url, "--name", "Robo", "--password-file", pw)
        check(r.returncode == 0, r.stderr)
        lines = r.stdout.splitlines()
        check(len(lines) == 2, r.stdout)
        check(secret not in r.stdout and second not in r.stdout, "a secret listed")
        mine = [line for line in lines if line.endswith("my engine")]
        check(len(mine) == 1 and "bot:play,game:read" in mine[0], r.stdout)
        tid = mine[0].split()[0]
        r = token("revoke", "--url", url, "--name", "Robo", "--password-file", pw, tid)
        check(r.returncode == 0, r.stderr)
        check(api(server, "GET", "/api/me/games", token=secret)[0] == 401, "revoked yet works")
        check(api(server, "GET", "/api/me/games", token=second)[0] == 200, "the other one went")
        # refusals: one line each, exit 1 (2 for bad usage), nothing changed
        wrong = os.path.join(tmp.name, "wrong")
        with open(wrong, "w") as f:
            f.write("not the password\n")
        for args, rc, says in [
            (("revoke", "--url", url, "--name", "Robo", "--password-file", pw, tid), 1, "404"),
            (("list", "--url", url, "--name", "Robo", "--password-file", wrong), 1, "401"),
            (("list", "--url", "http://127.0.0.1:1", "--name", "Robo", "--password-file", pw), 1,
             "127.0.0.1:1"),
            (("list", "--url", url, "--password-file", pw), 2, "--name"),
            (("remove", "--url", url, "--name", "Robo"), 2, "create, list or revoke"),
            (("revoke", "--url", url, "--name", "Robo", "--password-file", pw), 2, "one token id"),
            (("list", "--url", "ftp://x", "--name", "Robo", "--password-file", pw), 2, "http"),
            (("list", "--url", url, "--name", "Robo", "--colour", "red"), 2, "--colour"),
        ]:
            r = token(*args)
            check(r.returncode == rc, "%s: exit %d, want %d: %s" % (args, r.returncode, rc, r.stderr))
            check(len(r.stderr.strip().splitlines()) == 1 and says in r.stderr,
                  "%s: %r" % (args, r.stderr))
        r = token("list", "--url", url, "--name", "Robo", "--password-file", pw)
        check(len(r.stdout.splitlines()) == 1, r.stdout)
        print("ok: axio token create, list, revoke and its refusals")
    finally:
        server.stop()
        tmp.cleanup()


if __name__ == "__main__":
    main()
