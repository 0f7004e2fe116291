"""Steps per second of the Python environments with random legal actions, on one core.

    nice -n 19 /usr/bin/python3 python/bench/speed.py [--variant V] [--players N]
        [--runs R] [--steps S] [--envs N]

AEC: the PettingZoo loop as a user writes it: `env.last()`, a uniformly random
legal action from the observation's action mask (numpy), `env.step(action)`;
finished games are reset. VectorEnv: `step(sample_actions())` on N games
(default 256), the random legal actions drawn in C. Each measure runs R times
(default 5); the median is printed, in steps per second of wall-clock time and
of the process's CPU time (the two differ when other work shares the machine).
Uses the package on PYTHONPATH, or python/ with the library of `make python`.
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import axio  # noqa: E402


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    steps = fn()
    return steps / (time.perf_counter() - wall), steps / (time.process_time() - cpu)


def aec(variant, players, steps, seed):
    env = axio.env(variant, players)
    env.reset(seed=seed)
    rnd = random.Random(seed)

    def run():
        n = 0
        while n < steps:
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.reset()
                continue
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rnd.randrange(len(legal))]))
            n += 1
        return n

    return timed(run)


def vector(variant, players, steps, envs, seed):
    vec = axio.VectorEnv(envs, variant, players)
    vec.reset(seed=seed)

    def run():
        for _ in range(steps // envs):
            vec.step(vec.sample_actions())
        return steps // envs * envs

    result = timed(run)
    vec.close()
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=axio.VARIANTS, help="one variant (default: all three)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--steps", type=int, default=200000, help="AEC steps per run (VectorEnv: 10x)")
    ap.add_argument("--envs", type=int, default=256, help="games of the VectorEnv")
    args = ap.parse_args()
    print(f"axio {axio.__version__}, numpy {np.__version__}, pettingzoo base: {axio.HAVE_PETTINGZOO}, "
          f"{args.runs} runs each, median (min..max)")
    for variant in [args.variant] if args.variant else axio.VARIANTS:
        for name, fn in (
            ("AEC env  ", lambda r: aec(variant, args.players, args.steps, r)),
            ("VectorEnv", lambda r: vector(variant, args.players, 10 * args.steps, args.envs, r)),
        ):
            walls, cpus = zip(*(fn(r + 1) for r in range(args.runs)))
            print(f"{variant:6} {args.players}p {name}: {statistics.median(walls):11,.0f} steps/s wall "
                  f"({min(walls):,.0f}..{max(walls):,.0f}), {statistics.median(cpus):11,.0f} per CPU second "
                  f"({min(cpus):,.0f}..{max(cpus):,.0f})", flush=True)


if __name__ == "__main__":
    main()
