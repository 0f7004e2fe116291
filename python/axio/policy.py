"""The computer players as policies: `axio.policy("strong", movetime_ms=100)`.

A policy decides for the seat to move in a game (an `axio.Game`, or an
environment that holds one: `axio.env`, `axio.SingleAgentEnv`) from that
seat's view only, and returns its action number. Levels: `random` (any
legal decision), `greedy` (the best immediate gain on its own lowest
tracks), `strong` (a search: docs/ai.md). `movetime_ms` bounds a searching
player's time per decision (default 1000); `playouts` fixes its search size
instead, which with a seed makes its decisions reproducible.
"""

import ctypes

from . import _lib
from ._lib import lib
from .game import Game, check_seed

NAMES = ("random", "greedy", "strong")


class Policy:
    def __init__(self, name, movetime_ms=None, playouts=None, seed=0):
        if name not in NAMES:
            raise ValueError(f"axio: unknown player {name!r} (random, greedy, strong)")
        for label, value in (("movetime_ms", movetime_ms), ("playouts", playouts)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"axio: {label} is a positive integer, not {value!r}")
        self.name = name
        self.movetime_ms = movetime_ms
        self.playouts = playouts
        self._h = None
        self.reseed(seed)

    def reseed(self, seed):
        """Starts the player's generator again from `seed`."""
        seed = check_seed(seed)
        handle = ctypes.c_void_p()
        err = lib.axio_player_new(
            self.name.encode(), seed, self.movetime_ms or 0, self.playouts or 0, ctypes.byref(handle)
        )
        if err != _lib.OK:
            raise MemoryError("axio: no memory for a player")
        self._free()
        self._h = handle.value

    def action(self, game):
        """The player's action for the seat to move in `game` (a Game or an environment)."""
        g = getattr(game, "game", game)
        if not isinstance(g, Game):
            raise TypeError(f"axio: a policy decides in an axio.Game or environment, not {type(game).__name__}")
        out = ctypes.c_int32(-1)
        err = lib.axio_player_decide(self._h, g._h, ctypes.byref(out))
        if err == _lib.E_OVER:
            raise ValueError("axio: the game is over: there is nothing to decide")
        if err == _lib.E_VIEW:
            raise ValueError("axio: a view cannot be played on; decide in the game itself")
        if err != _lib.OK:
            raise RuntimeError(f"axio: player {self.name} gave no legal decision (a bug: please report)")
        return out.value

    __call__ = action

    def _free(self):
        if getattr(self, "_h", None):
            lib.axio_player_free(self._h)
            self._h = None

    def __del__(self):
        self._free()

    def __repr__(self):
        extra = "".join(
            f", {k}={v}" for k, v in (("movetime_ms", self.movetime_ms), ("playouts", self.playouts)) if v
        )
        return f"axio.policy({self.name!r}{extra})"


def policy(name, movetime_ms=None, playouts=None, seed=0):
    """A computer player as a policy: random, greedy or strong (see module doc)."""
    return Policy(name, movetime_ms, playouts, seed)
