"""accounts_lib.py - what the account and rating tests share: registering,
logging in and calling the API with a session cookie, reading Set-Cookie, and
playing a game to its end with seat tokens."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Client, play_until_over  # noqa: E402

CLOCK = {"kind": "realtime", "base_s": 3600, "increment_s": 0}


def session_of(headers):
    """The axio_session token a Set-Cookie header gives ("" when cleared), or None."""
    cookie = set_cookie(headers)
    if cookie is None:
        return None
    first = cookie.split(";")[0].strip()
    assert first.startswith("axio_session="), cookie
    return first[len("axio_session="):]


def set_cookie(headers):
    for k, v in headers.items():
        if k.lower() == "set-cookie":
            return v
    return None


def cookie_attrs(headers):
    """The attributes of the Set-Cookie header: {"httponly": True, "max-age": "0", ...}."""
    parts = [p.strip() for p in set_cookie(headers).split(";")[1:]]
    attrs = {}
    for p in parts:
        k, _, v = p.partition("=")
        attrs[k.lower()] = v if v else True
    return attrs


def call(server, method, path, body=None, token=None, headers=None, raw=None):
    h = dict(headers or {})
    if token is not None:
        h["Cookie"] = f"axio_session={token}"
    return server.http(method, path, body, raw=raw, headers=h)


def register(server, name, password, headers=None):
    """The new account's session token; asserts 201."""
    status, body, hdrs = call(server, "POST", "/api/accounts", {"name": name, "password": password},
                              headers=headers)
    assert status == 201, (status, body)
    return session_of(hdrs)


def login(server, name, password, ip=None):
    headers = {"X-Forwarded-For": ip} if ip else None
    return call(server, "POST", "/api/login", {"name": name, "password": password}, headers=headers)


def me(server, token):
    return call(server, "GET", "/api/me", token=token)


def signed_in(server, token):
    """The name of the session's account, or None (GET /api/me answers a guest too)."""
    status, body, _ = me(server, token)
    assert status == 200, (status, body)
    return body["name"]


def create(server, token, body):
    status, value, _ = call(server, "POST", "/api/games", body, token=token)
    assert status == 201, (status, value)
    return value


def join(server, token, game):
    status, value, _ = call(server, "POST", f"/api/games/{game}/join", {}, token=token)
    assert status == 200, (status, value)
    return value


def play_to_end(test, seats, timeout=240.0, before_move=None):
    """Connects every (game, token, seat[, session]) and plays the hints to the end; the
    final state's game. A rated seat of an account is played with its session."""
    clients = [test.connect(g, token=t, seat=s, session=rest[0] if rest else None)
               for g, t, s, *rest in seats]
    state = play_until_over(clients, timeout=timeout, before_move=before_move)
    for c in clients:
        c.drain(0.3)
    return clients[0].state["game"] if clients[0].state else state["game"]
