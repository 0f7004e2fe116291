#!/usr/bin/env python3
"""moderation.py - how long a moderator's chat timeout takes to reach a player's open game
connection held by another server of a site (docs/moderation.md, "On a site of several
servers"): one site of N instances on PostgreSQL behind nginx (tests/cluster/cluster.py),
a player connected to the instance that holds the game, a moderator acting through another.

Usage:
    python3 bench/moderation.py --axio build/axio [--instances 3] [--rounds 20]

Each round gives a 10-minute timeout through an instance that does not hold the game and
measures, at the player's connection, the time from sending the request to receiving
{"type":"moderation","chat":"timeout"}; then undoes it through the third instance and
measures the `"chat":"open"` the same way. Prints the median, p90 and max of each (ms).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "cluster"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--axio", required=True)
    ap.add_argument("--instances", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    if args.instances < 2 or args.rounds < 1:
        ap.error("--instances must be 2 or more, --rounds 1 or more")
    os.environ["AXIO"] = os.path.abspath(args.axio)
    from cluster import Site  # noqa: E402 (after AXIO is set)
    from accounts_lib import call, create, join, register  # noqa: E402
    from harness import Client  # noqa: E402

    site = Site(args.instances, args=["--quiet"])
    try:
        zero = site.instances[0]
        mo, ann, bo = (register(zero, n, "correct horse") for n in ("Mo", "Ann", "Bo"))
        r = subprocess.run([os.environ["AXIO"], "admin", "grant", "Mo", "moderator", "--db", site.db],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(r.stderr)
        game = create(zero, ann, {"variant": "square", "players": 2,
                                  "seats": [{"kind": "human"}, {"kind": "human"}]})
        join(zero, bo, game["game"])
        holder = site.holder(game["game"])
        here = site.instances[holder]
        give = site.instances[(holder + 1) % args.instances]
        undo = site.instances[(holder + 2) % args.instances]
        a = Client(here, game["game"], game["token"], 0, session=ann)
        a.wait_type("history")
        told, opened = [], []
        for _ in range(args.rounds):
            start = time.monotonic()
            status, t, _ = call(give, "POST", "/api/mod/actions",
                                {"action": "timeout", "player": "Ann", "reason": "bench",
                                 "minutes": 10}, token=mo)
            assert status == 201, t
            a.wait_for(lambda m: m["type"] == "moderation" and m["chat"] == "timeout")
            told.append((time.monotonic() - start) * 1000)
            start = time.monotonic()
            status, v, _ = call(undo, "POST", f"/api/mod/actions/{t['id']}/undo",
                                {"reason": "bench"}, token=mo)
            assert status == 200, v
            a.wait_for(lambda m: m["type"] == "moderation" and m["chat"] == "open")
            opened.append((time.monotonic() - start) * 1000)
        a.close()
    finally:
        site.stop()

    def line(name, xs):
        xs = sorted(xs)
        p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
        print(f"{name:8} median {statistics.median(xs):7.1f} ms   p90 {p90:7.1f} ms   "
              f"max {xs[-1]:7.1f} ms   ({len(xs)} rounds)")
    print(f"moderation across {args.instances} instances (the game held by one, the action "
          "through another):")
    line("timeout", told)
    line("undo", opened)


if __name__ == "__main__":
    main()
