"""long_events_swiss.py - the end-to-end test of events (issue 50, docs/tournaments.md): a
Swiss of 64 accounts, 3 a table, 5 rounds, on a site of three servers behind nginx
(cluster.py, PostgreSQL), every account played over the WebSocket with its session from
the server's move hints (eventlib.Driver). In round 2, once its games are under way, the
server that runs the event is killed (SIGKILL): its games are adopted by the others, the
event's lease runs out and another server runs it on; later the killed server starts
again. The event ends with 5 results for every player (nobody missed a game), each
table's points follow from its record, every record passes `axio replay`, and every
server gives the same standings (recomputed from the store).

It takes minutes, so it runs in the normal build only (tests/CMakeLists.txt:
cluster/long_events_swiss), not in the sanitizer build's `make test`.
"""
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "server"))
from cluster import Site  # noqa: E402
from accounts_lib import call  # noqa: E402
from eventlib import Driver, accounts, check_standings, new_event  # noqa: E402

PLAYERS = int(os.environ.get("EVENT_PLAYERS", "64"))
ROUNDS = 5


class SwissOnASite(unittest.TestCase):
    def setUp(self):
        self.site = Site(3, args=["--quiet"])

    def tearDown(self):
        errors = self.site.errors()
        self.site.stop()
        self.assertNotIn("AddressSanitizer", errors)
        self.assertNotIn("runtime error", errors)

    def runner(self):
        """The index of the instance that runs the event now, or None."""
        rows = self.site.pg.psql(self.site.db, "SELECT runner FROM events")
        ids = [i.instance_id if i.running() else None for i in self.site.instances]
        return ids.index(rows[0][0]) if rows and rows[0][0] in ids else None

    def test_swiss_64_and_a_killed_server(self):
        site = self.site
        started = time.monotonic()
        names = [f"P{i:02d}" for i in range(PLAYERS)]
        players = accounts(site, names)
        e = new_event(site, players[names[0]], name="Swiss 64", format="swiss", seats=3,
                      rounds=ROUNDS, variant="square",
                      clock={"kind": "realtime", "base_s": 900, "increment_s": 0})
        eid = e["id"]
        for s in players.values():
            status, value, _ = call(site, "POST", f"/api/events/{eid}/join", {}, token=s)
            self.assertEqual(status, 200, value)
        status, value, _ = call(site, "POST", f"/api/events/{eid}/start", {},
                                token=players[names[0]])
        self.assertEqual(status, 200, value)
        d = Driver([site], eid, players, pace=0.02)  # the site allows 1000 messages a second
        killed = {}

        seen = {}

        def mid_round_two(v):
            # round 2 under way: its tables made, and played for two seconds
            if v["event"]["round"] == 2 and len(v["tables"]) >= 15:
                seen.setdefault("at", time.monotonic())
            return "at" in seen and time.monotonic() - seen["at"] > 2

        try:
            live = d.run(mid_round_two, timeout=900)
            victim = self.runner()
            self.assertIsNotNone(victim)
            killed["round"] = live["event"]["round"]
            killed["tables"] = len(live["tables"])
            site.kill(victim)
            killed["at"] = time.monotonic()
            live = d.run(lambda v: v["event"]["round"] >= 4, timeout=900)
            new_runner = self.runner()
            self.assertIsNotNone(new_runner)
            self.assertNotEqual(new_runner, victim)
            site.start(victim)  # back again: a server that starts joins in
            live = d.run("finished", timeout=1200)
        finally:
            d.close()
        self.assertEqual(live["event"]["round"], ROUNDS)
        self.assertEqual(len(live["standings"]), PLAYERS)
        for line in live["standings"]:
            self.assertFalse(line["withdrawn"], line)
            self.assertEqual([r["round"] for r in line["results"]], list(range(1, ROUNDS + 1)),
                             line)
        records = check_standings(self, site, live)
        # any server gives the same standings, recomputed from the store
        for inst in site.instances:
            status, value, _ = inst.http("GET", f"/api/events/{eid}")
            self.assertEqual(status, 200)
            self.assertEqual(value["standings"], live["standings"])
        print(f"ok: {PLAYERS} players, {ROUNDS} rounds, {records} games (every record "
              f"replays), server killed in round {killed['round']} with {killed['tables']} "
              f"tables running, {d.moves} decisions, {d.reconnects} reconnections, "
              f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    unittest.main()
