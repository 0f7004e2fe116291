#!/usr/bin/env python3
"""`axio bot` on the real site: an `axio serve` (its own database in a temporary
folder, as tests/server start it), two bot accounts with personal tokens, and an
`axio bot` for each with `axio engine` as its engine. A person's challenge that
one bot's filters refuse is declined with its reason. One bot challenges the
other to a rated game with a clock; the filters accept it, both bridges play it
to its end through the server's Bot API, the result is read from
GET /api/games/{id}, the record replays and both bots are on the bots'
leaderboard. The server is then stopped in the middle of a second game and
started again on the same port and database: both bridges come back by
themselves and finish the game."""
import os
import socket
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
sys.path.insert(0, HERE)
from accounts_lib import register  # noqa: E402
from botlib import PW, api, make_bot  # noqa: E402
from harness import Server, new_database  # noqa: E402

from bot_testlib import AXIO, Bot, replay  # noqa: E402

CLOCK = {"kind": "realtime", "base_s": 300, "increment_s": 2}


class Site:
    """What the bots' Bot class needs of a site: its URL."""

    def __init__(self, server):
        self.server = server

    def url(self):
        return "http://127.0.0.1:%d" % self.server.port


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def poll(cond, timeout, what):
    """wait_for at a pace the site's limits allow: the test, the bots and the
    server's limits per address all share 127.0.0.1."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if cond():
            return
        time.sleep(0.5)
    raise AssertionError("timed out waiting for " + what)


def game_of(server, gid):
    status, body, _ = api(server, "GET", "/api/games/%s" % gid)
    assert status == 200, (status, body)
    return body


def challenge(server, to, *, token=None, session=None, **terms):
    body = {"to": to, "variant": "square", **terms}
    status, reply, _ = api(server, "POST", "/api/challenges", body, token=token, session=session)
    assert status == 201, (status, reply)
    return reply["challenge"]["id"]


def challenge_of(server, cid, token=None, session=None):
    status, reply, _ = api(server, "GET", "/api/challenges/%s" % cid, token=token,
                           session=session)
    assert status == 200, (status, reply)
    return reply["challenge"]


def wait_over(server, gid, timeout, bots):
    try:
        poll(lambda: game_of(server, gid)["status"] == "over", timeout, "game %s's end" % gid)
    except AssertionError:
        for b in bots:
            print(b.log())
        raise
    return game_of(server, gid)


def check_over(server, gid, names, bots):
    """Over with a ranking of both seats, each seat a bot; the record replays; each
    bridge logged the end."""
    g = game_of(server, gid)
    assert g["status"] == "over", g["status"]
    assert sorted(s["name"] for s in g["seats"]) == sorted(names), g["seats"]
    assert all(s.get("bot") for s in g["seats"]), g["seats"]
    end = g["end"]
    assert end and end["reason"] not in ("resign", "timeout", "absent"), end
    assert sorted(p for group in end["ranking"] for p in group) == [0, 1], end
    status, record, _ = api(server, "GET", "/api/games/%s/record" % gid)
    assert status == 200, (status, record)
    assert isinstance(record, str), type(record)  # JSON Lines
    replay(record)
    for b in bots:
        b.wait_log("game %s: over" % gid)
    for b in bots:
        assert not b.saw("resign"), b.log()
    return g


def main():
    tmp = tempfile.TemporaryDirectory()
    db = new_database(tmp.name)
    port = free_port()
    server = Server(db, "--port", str(port))
    site = Site(server)
    _, token_a = make_bot(server, "BotA")
    _, token_b = make_bot(server, "BotB")
    ann = register(server, "Ann", PW)
    # strong thinks for the movetime it is given: a game lasts long enough to
    # stop the server in its middle
    engine = "%s engine --player strong" % AXIO
    a = Bot(site, token_a, "--movetime", "150", engine=engine)
    b = Bot(site, token_b, "--movetime", "150", "--variants", "square,hex", "--clocks",
            "1-10+0-5", "--rated", "yes", engine=engine)
    bots = (a, b)
    try:
        a.wait_log("connecting to")
        b.wait_log("connecting to")
        # a person's challenge that BotB's filters refuse: declined with the reason
        refused = challenge(server, "BotB", session=ann, variant="rota", clock=CLOCK, rated=True)
        poll(lambda: challenge_of(server, refused, session=ann)["status"] == "declined", 30,
                 "the decline")
        assert challenge_of(server, refused, session=ann)["reason"] == "variant"
        # BotA challenges BotB: accepted, played to the end by both bridges
        cid = challenge(server, "BotB", token=token_a, variant="hex", clock=CLOCK, rated=True)
        poll(lambda: challenge_of(server, cid, token_a)["game"], 30, "the acceptance")
        gid = challenge_of(server, cid, token_a)["game"]
        b.wait_log("challenge %s from BotA" % cid)
        wait_over(server, gid, 240, bots)
        g = check_over(server, gid, ["BotA", "BotB"], bots)
        status, board, _ = api(server, "GET", "/api/leaderboard?variant=hex&bots=1")
        assert status == 200 and sorted(p["name"] for p in board) == ["BotA", "BotB"], board
        print("ok: BotA challenged BotB; hex, rated, 5+2, played to its end (%s, %d plies)"
              % (g["end"]["reason"], g["ply"]))

        # a second game, the server stopped in its middle and started again
        cid = challenge(server, "BotA", token=token_b, variant="square", clock=CLOCK, rated=True)
        poll(lambda: challenge_of(server, cid, token_b)["game"], 30, "the acceptance")
        gid = challenge_of(server, cid, token_b)["game"]
        poll(lambda: game_of(server, gid).get("ply", 0) >= 8, 120, "8 plies")
        before = game_of(server, gid)
        assert before["status"] == "running", before["status"]
        assert server.stop() == 0, server.errors()
        time.sleep(1.0)
        server = Server(db, "--port", str(port))
        site.server = server
        wait_over(server, gid, 240, bots)
        check_over(server, gid, ["BotA", "BotB"], bots)
        for bot in bots:
            assert bot.saw("stream lost"), bot.log()
        print("ok: the server restarted mid-game (at ply %d); both bots came back and "
              "finished it" % before["ply"])
        a.stop()
        b.stop()
    finally:
        for bot in bots:
            if bot.p.poll() is None:
                bot.p.kill()
        server.stop()
        tmp.cleanup()


if __name__ == "__main__":
    main()
