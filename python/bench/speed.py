"""Steps per second of the Python environments with random legal actions, on one core.

    taskset -c 1 /usr/bin/python3 python/bench/speed.py [--variant V] [--players N]
        [--runs R] [--steps S] [--envs N] [--autoreset next-step|same-step]
        [--only aec|vector] [--loop readme|numpy]

AEC: the README's loop (docs/python.md, "Speed"), game after game: `env.last()`, the
legal actions from the mask, a random one (`random.choice`), `env.step(action)`; a
step is a decision (the finished agents' `step(None)` and the resets are timed but not
counted). `--loop numpy` picks the action as the README did before, with numpy only:
`int(np.random.choice(np.flatnonzero(obs["action_mask"])))`. VectorEnv: `vec.step(vec.sample_actions())` on N games (default 256), the
random legal actions drawn in C; a step is a decision of one game (the rows that a
next-step autoreset deals anew in a step are timed but not counted). Each measure runs R
times (default 5) and prints the median (with the range) in steps per second of wall-clock
time and of the process's CPU time: the two agree on a quiet core, and the CPU rate is
the one to quote when others share the machine. Uses the package on PYTHONPATH, or
python/ with the library of `make python`.
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


def aec(variant, players, steps, seed, loop):
    env = axio.env(variant=variant, players=players)
    random.seed(seed)
    np.random.seed(seed)
    numpy_only = loop == "numpy"

    def run():
        decisions, game = 0, 0
        while decisions < steps:
            env.reset(seed=seed * 100000 + game)
            game += 1
            # the README's loop, as it stands there
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last()
                if terminated or truncated:
                    action = None
                elif numpy_only:
                    action = int(np.random.choice(np.flatnonzero(obs["action_mask"])))
                    decisions += 1
                else:
                    legal = obs["action_mask"].view(bool).nonzero()[0]  # the legal actions
                    action = int(random.choice(legal))
                    decisions += 1
                env.step(action)
        return decisions

    return timed(run)


def vector(variant, players, steps, envs, autoreset, seed):
    vec = axio.VectorEnv(envs, variant=variant, players=players, autoreset=autoreset)
    obs, info = vec.reset(seed=seed)
    calls = steps // envs

    def run():
        idle = 0  # rows dealt anew by a next-step autoreset: no decision in that step
        waiting = 0
        for _ in range(calls):
            obs, rewards, terminations, truncations, info = vec.step(vec.sample_actions())
            idle += waiting
            waiting = int(terminations.sum()) if autoreset == "next-step" else 0
        return calls * envs - idle

    result = timed(run)
    vec.close()
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=axio.VARIANTS, help="one variant (default: all three)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--steps", type=int, default=200000, help="AEC decisions per run (VectorEnv: 10x)")
    ap.add_argument("--envs", type=int, default=256, help="games of the VectorEnv")
    ap.add_argument("--autoreset", default="next-step", choices=("next-step", "same-step"))
    ap.add_argument("--only", choices=("aec", "vector"), help="one of the two measures")
    ap.add_argument("--loop", default="readme", choices=("readme", "numpy"), help="the AEC loop's choice")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"axio {axio.__version__}, numpy {np.__version__}, pettingzoo base: {axio.HAVE_PETTINGZOO}, "
          f"cpus allowed {sorted(os.sched_getaffinity(0))}, load average {load[0]:.2f}, "
          f"{args.runs} runs each, median (min..max)")
    for variant in [args.variant] if args.variant else axio.VARIANTS:
        for name, fn in (
            ("AEC env  ", lambda r: aec(variant, args.players, args.steps, r, args.loop)),
            ("VectorEnv", lambda r: vector(variant, args.players, 10 * args.steps, args.envs, args.autoreset, r)),
        ):
            if args.only and name.strip() != {"aec": "AEC env", "vector": "VectorEnv"}[args.only]:
                continue
            walls, cpus = zip(*(fn(r + 1) for r in range(args.runs)))
            print(f"{variant:6} {args.players}p {name}: {statistics.median(walls):11,.0f} steps/s wall "
                  f"({min(walls):,.0f}..{max(walls):,.0f}), {statistics.median(cpus):11,.0f} per CPU second "
                  f"({min(cpus):,.0f}..{max(cpus):,.0f})", flush=True)


if __name__ == "__main__":
    main()
