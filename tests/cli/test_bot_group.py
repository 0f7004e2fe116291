#!/usr/bin/env python3
"""`axio bot` in a game of three seats on the real site (issue 49): an `axio serve`, three
bot accounts each bridged by an `axio bot` with `axio engine`, and a person. BotC takes only
two-seat games (`--players 2`): the person's challenge of BotA and BotC to three seats is
declined by BotC's bridge for all, saying who declined. The person then challenges BotA and
BotB to a rated three-seat game with a clock: both bridges accept, the game starts once the
second has, the person plays over WebSocket with its hints, the bridges through the Bot API;
the game ends with a ranking of the three seats, the record passes `axio replay`, and each
bridge logged the end. Then a hex team game of four: Ann and Dee (people) with BotA and BotB,
played to its end the same way."""
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
sys.path.insert(0, HERE)
from accounts_lib import register  # noqa: E402
from botlib import PW, api, make_bot  # noqa: E402
from harness import Client, Server, new_database, play_until_over  # noqa: E402

from bot_testlib import AXIO, Bot, replay  # noqa: E402
from test_bot_site import CLOCK, Site, challenge, challenge_of, free_port, game_of, poll  # noqa: E402,E501


def main():
    tmp = tempfile.TemporaryDirectory()
    db = new_database(tmp.name)
    # the test, three bridges and the person share 127.0.0.1: its request limit out of the
    # way; the people move from hints as fast as the bots answer, more than 10 messages a second
    server = Server(db, "--port", str(free_port()), "--request-rate", "1000", "--msg-rate", "1000")
    site = Site(server)
    tokens = {name: make_bot(server, name)[1] for name in ("BotA", "BotB", "BotC")}
    ann = register(server, "Ann", PW)
    engine = "%s engine --player greedy" % AXIO
    bots = {"BotA": Bot(site, tokens["BotA"], "--players", "3,4", engine=engine),
            "BotB": Bot(site, tokens["BotB"], engine=engine),
            "BotC": Bot(site, tokens["BotC"], "--players", "2", engine=engine)}
    try:
        for b in bots.values():
            b.wait_log("connecting to")
        # BotC's filter declines three seats: ended for all, saying who and why
        refused = challenge(server, ["BotA", "BotC"], session=ann, players=3, clock=CLOCK)
        poll(lambda: challenge_of(server, refused, session=ann)["status"] == "declined", 30,
             "the decline")
        c = challenge_of(server, refused, session=ann)
        assert (c["declined_by"], c["reason"]) == ("BotC", "generic"), c
        bots["BotC"].wait_log("challenge %s from Ann (square, 3 players" % refused)

        cid = challenge(server, ["BotA", "BotB"], session=ann, players=3, clock=CLOCK,
                        rated=True)
        try:
            poll(lambda: challenge_of(server, cid, session=ann)["game"], 30, "both acceptances")
        except AssertionError:
            print(challenge_of(server, cid, session=ann))
            for b in bots.values():
                print(b.log())
            raise
        gid = challenge_of(server, cid, session=ann)["game"]
        g = game_of(server, gid)
        names = [s["name"] for s in g["seats"]]
        assert sorted(names) == ["Ann", "BotA", "BotB"] and g["players"] == 3, g["seats"]
        person = Client(server, gid, None, names.index("Ann"), session=ann)
        try:
            play_until_over([person], timeout=240)
        except AssertionError:
            for b in bots.values():
                print(b.log())
            raise
        person.close()
        poll(lambda: game_of(server, gid)["status"] == "over", 30, "the end")
        g = game_of(server, gid)
        end = g["end"]
        assert end["reason"] not in ("resign", "timeout", "absent"), end
        assert sorted(p for group in end["ranking"] for p in group) == [0, 1, 2], end
        status, record, _ = api(server, "GET", "/api/games/%s/record" % gid)
        assert status == 200 and isinstance(record, str), (status, record)
        replay(record)
        for name in ("BotA", "BotB"):
            bots[name].wait_log("game %s: over" % gid)
            assert not bots[name].saw("resign"), bots[name].log()
            assert bots[name].saw("challenge %s from Ann (square, 3 players" % cid)
        print("ok: Ann, BotA and BotB played a rated 3-seat game to its end (%s, %d plies)"
              % (end["reason"], g["ply"]))

        # four seats, hex teams: Ann, Dee and the two bridges
        dee = register(server, "Dee", PW)
        cid = challenge(server, ["BotA", "Dee", "BotB"], session=ann, variant="hex", players=4,
                        mode="team", clock=CLOCK)
        status, waiting, _ = api(server, "POST", "/api/challenges/%s/accept" % cid, {},
                                 session=dee)
        assert status == 200, (status, waiting)
        poll(lambda: challenge_of(server, cid, session=ann)["game"], 30, "the bots' acceptances")
        gid = challenge_of(server, cid, session=ann)["game"]
        g = game_of(server, gid)
        names = [s["name"] for s in g["seats"]]
        assert (g["players"], g["mode"]) == (4, "team") and sorted(names) == [
            "Ann", "BotA", "BotB", "Dee"], g
        people = [Client(server, gid, None, names.index(n), session=k)
                  for n, k in (("Ann", ann), ("Dee", dee))]
        play_until_over(people, timeout=300)
        for p in people:
            p.close()
        poll(lambda: game_of(server, gid)["status"] == "over", 30, "the end")
        status, record, _ = api(server, "GET", "/api/games/%s/record" % gid)
        assert status == 200, status
        replay(record)
        for name in ("BotA", "BotB"):
            bots[name].wait_log("game %s: over" % gid)
        print("ok: a hex team game of Ann, Dee, BotA and BotB played to its end (%d plies)"
              % game_of(server, gid)["ply"])
        for b in bots.values():
            b.stop()
        assert server.stop() == 0, server.errors()  # (a sanitizer's finding fails it)
    finally:
        for b in bots.values():
            if b.p.poll() is None:
                b.p.kill()
        server.stop()
        tmp.cleanup()


if __name__ == "__main__":
    main()
