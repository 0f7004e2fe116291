#!/usr/bin/env python3
"""guided_seeds.py - how the guided games' fixed deals were chosen (docs/server.md).

For each candidate seed of a variant it plays the seed's deal with `axio selfplay`
(seat 0, the learner, played by several computer levels standing in for a newcomer;
seat 1 by `random`, the guided game's opponent) and reads the records: after how many
of seat 0's placements its first swap is offered, its first track reaches two thirds
of the threshold (12 of 18, 8 of 12: where the guide says "AXIO! comes near") and its
first AXIO! happens. A good deal makes these ideas come early whoever plays it: the
swap for every level (`random` too), the rest for `greedy` and `strong`. Prints the
best seeds, best first.

The candidates are BASE + 1 ... BASE + COUNT: large numbers, so that the seed, which
the record reveals at the end, cannot turn up by chance in other text (the server
tests look for it in everything sent before the end).

Usage: scripts/guided_seeds.py VARIANT [COUNT] [--axio PATH-TO-axio]
"""
import argparse
import json
import os
import subprocess
import tempfile

POLICIES = ("random", "greedy", "strong")
THRESHOLD = {"square": 18, "hex": 18, "rota": 12}
NEVER = 99
BASE = 7_000_000_000_000_000_000


def play(axio, variant, seed, policy, movetime):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([axio, "selfplay", "--variant", variant, "--seed", str(seed), "--games", "1",
                        "--ai", f"{policy},random", "--movetime", str(movetime), "--record", d],
                       check=True, capture_output=True)
        (name,) = os.listdir(d)
        with open(os.path.join(d, name)) as f:
            return [json.loads(line) for line in f]


def facts(events, variant):
    """(swap_at, near_at, axio_at, won): seat 0's placements before each idea first came."""
    near = THRESHOLD[variant] - THRESHOLD[variant] // 3
    placed, swap_at, near_at, axio_at = 0, NEVER, NEVER, NEVER
    for e in events:
        if e.get("player") != 0:
            continue
        if e["ev"] == "place":
            placed += 1
            if max(e["score"].values()) >= near:
                near_at = min(near_at, placed)
        elif e["ev"] == "swap":
            swap_at = min(swap_at, placed)
        elif e["ev"] == "axio":
            axio_at = min(axio_at, placed)
    won = events[-1]["ranking"][0] == [0]
    return swap_at, near_at, axio_at, won


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant", choices=sorted(THRESHOLD))
    ap.add_argument("count", type=int, nargs="?", default=150)
    ap.add_argument("--axio", default=os.path.join(os.path.dirname(__file__), "..", "build", "axio"))
    ap.add_argument("--movetime", type=int, default=100, help="ms per decision of `strong`")
    a = ap.parse_args()
    rows = []
    for seed in range(BASE + 1, BASE + a.count + 1):
        per = [facts(play(a.axio, a.variant, seed, p, a.movetime), a.variant) for p in POLICIES]
        worst_swap = max(f[0] for f in per)
        worst_near = max(f[1] for f in per[1:])
        axio = min(f[2] for f in per[1:])
        # rota has no swap: there the AXIO! decides.
        key = (worst_near, axio, 0) if a.variant == "rota" else (worst_swap, worst_near, axio)
        rows.append((key, seed, per))
    rows.sort()
    for key, seed, per in rows[:10]:
        cells = "  ".join(f"{p}: swap {f[0]} near {f[1]} axio {f[2]}{' won' if f[3] else ''}"
                          for p, f in zip(POLICIES, per))
        print(f"seed {seed}: {cells}")


if __name__ == "__main__":
    main()
