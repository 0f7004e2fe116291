#!/usr/bin/env python3
"""chaos.py - one site on several servers under load while its instances are killed at
random (docs/server.md, "Several servers"; issue: losing an instance).

    python3 bench/chaos.py --axio build/axio [--instances 3] [--kills 50] [--games 12]
                           [--seed 1] [--json FILE]

Starts a site (tests/cluster/cluster.py: PostgreSQL, --instances `axio serve`, nginx with
deploy/nginx-axio-cluster.conf) and keeps --games games going through nginx: people
against people and against the computer (greedy), each with a spectator, every person
moving from its hints after --think seconds, each client on a thread of its own. Every
--every MIN..MAX seconds one running instance, chosen at random, is SIGKILLed and started
again 1-3 s later, until --kills kills; a game that ends is replaced by a new one. Clients reconnect by themselves, as the web client
does. Then the kills stop, every game is played to its end, and each is checked: every
decision a client saw acknowledged is in its record, and the record passes `axio replay`.

Reported: kills, games, decisions acknowledged, lost decisions (must be 0), reconnections,
and for each game whose instance was killed, how long until its next decision (the
resume time: median, p90, max). CHAOS_TRACE=1 logs each instance (AXIO_KEEP_CLUSTER=1 keeps
the logs: tests/cluster/cluster.py) and prints each kill's games and each resume.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--axio", required=True)
    ap.add_argument("--instances", type=int, default=3)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--every", type=float, nargs=2, default=[8.0, 12.0], metavar=("MIN", "MAX"),
                    help="seconds between kills (default 8 12: a game can resume in between)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, nargs=2, default=[0.2, 0.6], metavar=("MIN", "MAX"),
                    help="seconds a person waits before moving (default 0.2 0.6)")
    ap.add_argument("--json")
    args = ap.parse_args()
    os.environ["AXIO"] = os.path.abspath(args.axio)
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "cluster"))
    from cluster import Site
    from test_cluster import GREEDY, HUMAN, Seat
    rng = random.Random(args.seed)
    rng_think = random.Random(args.seed + 1)
    resumes = []
    quiet = [] if os.environ.get("CHAOS_TRACE") else ["--quiet"]
    site = Site(args.instances, args=[*quiet, "--judge-playouts", "100", "--absent-s", "3600"],
                durable=True)
    games = {}  # id -> [Seat]
    finished = {}
    kinds = [("square", [HUMAN, HUMAN]), ("hex", [HUMAN, GREEDY]), ("rota", [HUMAN, GREEDY]),
             ("square", [HUMAN, GREEDY, GREEDY])]

    stopping = threading.Event()

    watching = {}  # game -> (kill time, decisions stored then): its instance was killed
    watch_lock = threading.Lock()

    def run_seat(s):
        """Each client on a thread of its own: one reconnecting never holds up another."""
        while not stopping.is_set() and not s.over():
            if s.c.my_turn():
                time.sleep(rng_think.uniform(*args.think))
                s.act()
            s.pump()
            st = s.c.state
            with watch_lock:
                w = watching.get(s.game)
                # resumed: a state past every decision stored when its instance was killed
                if w and st and st["game"]["ply"] > w[1]:
                    resumes.append(time.monotonic() - w[0])
                    if os.environ.get("CHAOS_TRACE"):
                        print(f"resumed {s.game} after {resumes[-1]:.2f} s", flush=True)
                    del watching[s.game]

    def new_game():
        variant, seats = rng.choice(kinds)
        created = site.create(variant, seats, name="Ann")
        gid = created["game"]
        cs = [Seat(site, gid, created["token"], 0)]
        for i, s in enumerate(seats[1:], 1):
            if s["kind"] == "human":
                joined = site.join(gid, name=f"P{i}")
                cs.append(Seat(site, gid, joined["token"], joined["seat"]))
        cs.append(Seat(site, gid))
        games[gid] = cs
        for s in cs:
            threading.Thread(target=run_seat, args=(s,), daemon=True).start()

    def step():
        time.sleep(0.05)

    def holders():
        rows = site.pg.psql(site.db, "SELECT game_id, instance FROM game_owners WHERE instance <> ''")
        return {g: i for g, i in rows}

    kills, t0 = 0, time.monotonic()
    try:
        for _ in range(args.games):
            new_game()
        next_kill = time.monotonic() + rng.uniform(*args.every)
        restarts = []  # (time, instance)
        while kills < args.kills:
            step()
            now = time.monotonic()
            for gid, cs in list(games.items()):
                if all(s.over() for s in cs):
                    finished[gid] = games.pop(gid)
                    new_game()
            for r in list(restarts):
                if now >= r[0]:
                    site.start(r[1])
                    restarts.remove(r)
            if now >= next_kill:
                alive = [i for i, inst in enumerate(site.instances) if inst.running()]
                if len(alive) > 1:
                    k = rng.choice(alive)
                    held = holders()
                    victim = site.instances[k].instance_id
                    hit = [g for g in games if held.get(g) == victim]
                    site.kill(k)
                    kills += 1
                    # resumed: a state past every decision stored when it was killed
                    for g in hit:
                        stored = int(site.pg.psql(site.db, "SELECT count(*) FROM decisions"
                                                  f" WHERE game_id = '{g}'")[0][0])
                        with watch_lock:
                            watching[g] = (now, stored)
                    restarts.append((now + rng.uniform(1, 3), k))
                    print(f"kill {kills}: instance {k} with {len(hit)} of {len(games)} games"
                          + (f" {hit}" if os.environ.get("CHAOS_TRACE") else ""), flush=True)
                next_kill = now + rng.uniform(*args.every)
        for _, k in restarts:
            site.start(k)
        deadline = time.monotonic() + 600
        while games and time.monotonic() < deadline:
            step()
            for gid, cs in list(games.items()):
                if all(s.over() for s in cs):
                    finished[gid] = games.pop(gid)
        lost, acked, bad_records = 0, 0, 0
        for gid, cs in finished.items():
            status, text, _ = site.http("GET", f"/api/games/{gid}/record")
            lines = [json.loads(x) for x in text.splitlines()] if status == 200 else []
            recorded = {json.dumps(e, sort_keys=True) for e in lines if e["ev"] in ("place", "leave")}
            seen = {json.dumps(e, sort_keys=True) for s in cs for e in s.acked}
            acked += len(seen)
            lost += len(seen - recorded)
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
                f.write(text if status == 200 else "")
            r = subprocess.run([args.axio, "replay", f.name], capture_output=True, text=True)
            os.unlink(f.name)
            bad_records += r.returncode != 0
        reconnects = sum(s.reconnects for cs in finished.values() for s in cs)
    finally:
        stopping.set()
        errors = site.errors()
        site.stop()
    resumes.sort()
    result = {
        "instances": args.instances, "kills": kills, "seconds": round(time.monotonic() - t0, 1),
        "games_finished": len(finished), "games_unfinished": len(games),
        "decisions_acknowledged": acked, "decisions_lost": lost, "bad_records": bad_records,
        "reconnections": reconnects, "games_hit": len(resumes),
        "resume_s": {"median": round(statistics.median(resumes), 2) if resumes else None,
                     "p90": round(resumes[int(0.9 * (len(resumes) - 1))], 2) if resumes else None,
                     "max": round(resumes[-1], 2) if resumes else None},
        "sanitizer_reports": errors.count("AddressSanitizer") + errors.count("runtime error"),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    ok = lost == 0 and bad_records == 0 and not games and kills >= args.kills
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
