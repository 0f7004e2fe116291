"""test_bots_kill.py - `axio bot` on a site of three servers behind nginx (cluster.py), one
of which is killed (SIGKILL) while the bots play: docs/bot-api.md, issue 49.

Two bot accounts, each with an `axio bot` bridge and `axio engine` behind it, play 20
games at once (BotA challenges BotB in each variant in turn; BotB's bridge accepts). When
every game has begun, the server holding the most of them is killed: its games are adopted
by the others once their leases run out, the bridges' streams end, and they connect again
through nginx. Every game ends (no resignation, no timeout, no one declared absent), and
every record passes `axio replay`.
"""
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "server"))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
from cluster import Site  # noqa: E402
from botlib import api, make_bot  # noqa: E402
from bot_testlib import AXIO, Bot, replay  # noqa: E402

GAMES = 20
VARIANTS = ("square", "hex", "rota")


class BotsOnASite(unittest.TestCase):
    def setUp(self):
        # the bots' 20 games at once ask for more than a token's 60 requests in 10 s
        self.site = Site(3, args=["--quiet", "--max-bot-requests", "100000"])
        self.bots = []

    def tearDown(self):
        for b in self.bots:
            if b.p.poll() is None:
                b.p.kill()
            b.p.wait()
        errors = self.site.errors()
        self.site.stop()
        self.assertNotIn("AddressSanitizer", errors)
        self.assertNotIn("runtime error", errors)

    def game(self, gid):
        status, body, _ = api(self.site, "GET", f"/api/games/{gid}")
        return body if status == 200 else None

    def wait(self, cond, timeout, what, ids=()):
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if cond():
                return
            time.sleep(0.5)
        stuck = []
        for gid in ids:
            g = self.game(gid) or {}
            if g.get("status") != "over":
                stuck.append(gid)
                print(f"not over: {gid} holder {self.site.holder(gid)} status "
                      f"{g.get('status')} ply {g.get('ply')} to move {g.get('to_move')}")
        for b in self.bots:
            lines = b.log().splitlines()
            print("\n".join([ln for ln in lines if any(gid in ln for gid in stuck)][-40:]
                            + lines[-20:]))
        self.fail("timed out waiting for " + what)

    def test_twenty_games_and_a_killed_server(self):
        site = self.site
        _, ada = make_bot(site, "BotA")
        _, bea = make_bot(site, "BotB")
        # greedy, a quarter of a second a decision: the games go on while a server dies
        engine = f"{sys.executable} {os.path.join(HERE, 'slow_engine.py')} {AXIO} 0.25"
        for token in (ada, bea):
            self.bots.append(Bot(site, token, "--max-games", str(GAMES), "--engines", "2",
                                 "--movetime", "100", engine=engine))
        for b in self.bots:
            b.wait_log("connecting to")
        challenges = []
        for i in range(GAMES):
            status, made, _ = api(site, "POST", "/api/challenges",
                                  {"to": "BotB", "variant": VARIANTS[i % 3]}, token=ada)
            self.assertEqual(status, 201, made)
            challenges.append(made["challenge"]["id"])

        def games():
            found = []
            for cid in challenges:
                status, c, _ = api(site, "GET", f"/api/challenges/{cid}", token=ada)
                if status == 200 and c["challenge"]["game"]:
                    found.append(c["challenge"]["game"])
            return found

        self.wait(lambda: len(games()) == GAMES, 120, "BotB to accept every challenge")
        ids = games()
        self.wait(lambda: all((self.game(g) or {}).get("ply", 0) >= 1 for g in ids), 120,
                  "every game to begin")
        holders = [site.holder(g) for g in ids]
        victim = max(set(h for h in holders if h is not None), key=holders.count)
        site.kill(victim)
        killed_at = time.monotonic()
        running = [g for g, h in zip(ids, holders)
                   if h == victim and (self.game(g) or {}).get("status") == "running"]
        self.assertTrue(running, "no game of the killed server was still running")

        def over():
            return all((self.game(g) or {}).get("status") == "over" for g in ids)

        self.wait(over, 300, "every game to end", ids)
        print(f"ok: {GAMES} games over, {len(running)} of them running on the server killed "
              f"({time.monotonic() - killed_at:.0f} s after the kill)")
        for gid in ids:
            g = self.game(gid)
            self.assertTrue(all(s.get("bot") for s in g["seats"]), g["seats"])
            self.assertNotIn(g["end"]["reason"], ("resign", "timeout", "absent"), g["end"])
            status, record, _ = api(site, "GET", f"/api/games/{gid}/record")
            self.assertEqual(status, 200)
            replay(record)
        # the bridges lost streams to the killed server and came back through nginx
        self.assertTrue(any(b.saw("stream lost") for b in self.bots))
        for b in self.bots:
            self.assertFalse(b.saw("resigning"), b.log()[-2000:])


if __name__ == "__main__":
    unittest.main()
