#!/usr/bin/env python3
"""compare.py - two builds of `axio serve` under the same load, side by side.

Usage:
    python3 bench/compare.py --old OLD/axio --new build/axio [--games 200,1000,2000]
                             [--repeat 3] [--duration 40] [--seed 1] [--json FILE]

Runs bench/load.py (games x 2 players + 3 spectators: 200 games are 1,000 connections)
against each build in turn, size by size and repeat by repeat (old, new, old, new, ...),
so that whatever else the machine does falls on both alike, and prints the median of
each figure over the repeats: move latency p50/p99 at the mover and at every viewer,
moves per second, the server's CPU (share of one core, and per move) and memory per
connection, errors and lost moves.

On a shared machine, run it under a real-time priority so that other work does not
preempt the server or the load generator (`chrt -f 10 python3 bench/compare.py ...`,
as root): the figures then show what the server does with the machine to itself.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = [
    ("connections", "connections", "{:.0f}"),
    ("moves/s", "moves_per_second", "{:.0f}"),
    ("mover p50 ms", "mover_p50_ms", "{:.1f}"),
    ("mover p99 ms", "mover_p99_ms", "{:.1f}"),
    ("viewers p99 ms", "all_p99_ms", "{:.1f}"),
    ("max ms", "all_max_ms", "{:.0f}"),
    ("server % core", "server_core_percent", "{:.0f}"),
    ("ms CPU/move", "server_cpu_ms_per_move", "{:.2f}"),
    ("KiB/conn", "server_kib_per_connection", "{:.1f}"),
    ("errors", "errors", "{:.0f}"),
    ("lost", "lost_moves", "{:.0f}"),
]


def one_run(axio, games, args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    cmd = [sys.executable, os.path.join(HERE, "load.py"), "--axio", axio, "--games", str(games),
           "--duration", str(args.duration), "--seed", str(args.seed), "--procs", str(args.procs),
           "--json", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        with open(out) as f:
            result = json.load(f)
    except (OSError, ValueError):
        raise SystemExit(f"load.py failed for {axio} with {games} games:\n{r.stdout}\n{r.stderr}")
    finally:
        os.unlink(out)
    secs = result["seconds"] or 1
    result["server_core_percent"] = 100 * (result["server_cpu_seconds"] or 0) / secs
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True, help="the axio binary to compare against")
    ap.add_argument("--new", required=True, help="the axio binary under test")
    ap.add_argument("--games", default="200,1000,2000", help="comma-separated game counts")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--duration", type=float, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=1, help="load.py --procs")
    ap.add_argument("--json", help="also write every run's results here")
    args = ap.parse_args()
    sizes = [int(g) for g in args.games.split(",")]
    runs = {}
    for games in sizes:
        for k in range(args.repeat):
            for name, axio in (("old", args.old), ("new", args.new)):
                result = one_run(axio, games, args)
                runs.setdefault((games, name), []).append(result)
                print(f"# {games} games, {name}, run {k + 1}: mover p99 {result['mover_p99_ms']} ms, "
                      f"{result['moves_per_second']} moves/s", flush=True)
    head = ["games", "build"] + [f[0] for f in FIGURES]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for games in sizes:
        for name in ("old", "new"):
            cells = [str(games), name]
            for _, key, fmt in FIGURES:
                values = [r[key] for r in runs[(games, name)] if r.get(key) is not None]
                cells.append(fmt.format(statistics.median(values)) if values else "-")
            print("| " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{g} {n}": v for (g, n), v in runs.items()}, f, indent=2)


if __name__ == "__main__":
    main()
