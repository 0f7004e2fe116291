"""What the Python package's tests share: importing `axio` from the source tree
(python/, with the C library named by $AXIO_LIB, as tests/CMakeLists.txt sets it),
the `axio` command ($AXIO), and random play.

numpy comes from Debian's python3-numpy (scripts/install-deps.sh installs it).
"""

import os
import random
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print(
        "FAIL: numpy is missing for " + sys.executable + ": install Debian's python3-numpy "
        "(scripts/install-deps.sh does)",
        file=sys.stderr,
    )
    sys.exit(1)

SRC = os.environ.get("SRC") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(SRC, "python"))

import axio  # noqa: E402

AXIO = os.environ.get("AXIO")

# every configuration of every variant: (variant, players, mode)
CONFIGS = {
    "square": [("square", 1, "solo"), ("square", 2, "standard"), ("square", 3, "standard"), ("square", 4, "standard")],
    "rota": [("rota", 1, "solo"), ("rota", 2, "standard"), ("rota", 3, "standard"), ("rota", 4, "standard")],
    "hex": [
        ("hex", 1, "solo"),
        ("hex", 2, "standard"),
        ("hex", 3, "standard"),
        ("hex", 4, "standard"),
        ("hex", 4, "team"),
    ],
}
ALL_CONFIGS = [c for v in CONFIGS.values() for c in v]


def random_legal(mask, rnd):
    """A uniformly random action among the mask's legal ones."""
    legal = mask.view(np.bool_).nonzero()[0]
    return int(legal[rnd.randrange(len(legal))])


def play_random(game, rnd, until=None):
    """Plays random legal actions until the end (or `until` decisions)."""
    n = 0
    while not game.over and (until is None or n < until):
        game.step(random_legal(game.observe(game.to_move)["action_mask"], rnd))
        n += 1
    return game


def run_axio(*args, check=True):
    if not AXIO:
        raise RuntimeError("$AXIO must name the built axio command (ctest sets it)")
    return subprocess.run([AXIO, *args], capture_output=True, text=True, check=check)


__all__ = ["np", "axio", "random", "CONFIGS", "ALL_CONFIGS", "random_legal", "play_random", "run_axio", "AXIO"]
