"""The computer players as policies: `axio.policy("expert")`, `axio.policy("strong", movetime_ms=100)`.

A policy decides for the seat to move in a game (an `axio.Game`, or an
environment that holds one: `axio.env`, `axio.SingleAgentEnv`) from that
seat's view only, and returns its action number.

Names are the levels of axio's server, as the C library's table has them
(src/ai/levels.c): `random`, `greedy`, `strong`, `expert` (the web
client's Beginner, Casual, Strong and Expert, which are accepted too). A level
plays its player for the game's variant (Strong: `strong-deep-early`, in ROTA
`strong`; Expert: `strong-deep`, in ROTA `strong-whole`) with its think time
(strong 300 ms, expert 1000 ms). A player's own name (`strong-deep`,
`strong-whole`, ...) plays that player in every variant (a searching one
1000 ms by default). `movetime_ms` sets the
time per decision instead; `playouts` fixes the search size, which with a seed
makes the decisions reproducible.
"""

import ctypes

from . import _lib
from ._lib import lib
from .game import VARIANTS, Game, check_seed

# the web client's names of the levels (docs/ai.md, "Levels")
CLIENT_NAMES = {"beginner": "random", "casual": "greedy", "strong": "strong", "expert": "expert"}


def levels():
    """The server's level names, weakest first (from the C library)."""
    buf = ctypes.create_string_buffer(256)
    lib.axio_level_names(buf, len(buf))
    return tuple(buf.value.decode().split(", "))


def level_player(level, variant):
    """(player name, think time in ms) of `level` in `variant`; None if `level` is not a level."""
    player, think = ctypes.c_char_p(), ctypes.c_int()
    if lib.axio_level(level.encode(), VARIANTS.index(variant), ctypes.byref(player), ctypes.byref(think)) != _lib.OK:
        return None
    return player.value.decode(), think.value


def _resolve(name):
    if not isinstance(name, str):
        raise TypeError(f"axio: a player is named by a string, not {type(name).__name__}")
    if lib.axio_player_exists(name.encode()):
        return name
    alias = CLIENT_NAMES.get(name.lower())
    if alias:
        return alias
    raise ValueError(
        f"axio: unknown player {name!r}: the levels are {', '.join(levels())} (the web client's "
        "Beginner, Casual, Strong, Expert), or a player of axio's by its own name, such as strong-deep"
    )


class Policy:
    def __init__(self, name, movetime_ms=None, playouts=None, seed=0):
        name = _resolve(name)
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
        self.seed = seed

    def player(self, variant):
        """The player this policy plays in `variant`, and its time per decision (ms, None: the
        player's own default or the playouts alone)."""
        if variant not in VARIANTS:
            raise ValueError(f"axio: unknown variant {variant!r} (square, rota, hex)")
        found = level_player(self.name, variant)
        player, think = found if found else (self.name, 0)
        return player, self.movetime_ms or (None if self.playouts else think or None)

    def action(self, game):
        """The player's action for the seat to move in `game` (a Game or an environment)."""
        g = getattr(game, "game", game)
        if not isinstance(g, Game):
            if g is None:
                raise ValueError("axio: the environment has no game yet: reset() it first")
            raise TypeError(f"axio: a policy decides in an axio.Game or environment, not {type(game).__name__}")
        out = ctypes.c_int32(-1)
        err = lib.axio_player_decide(self._h, g._h, ctypes.byref(out))
        if err == _lib.E_OVER:
            raise ValueError("axio: the game is over: there is nothing to decide")
        if err == _lib.E_VIEW:
            raise ValueError("axio: a view cannot be played on; decide in the game itself")
        if err == _lib.E_MEMORY:
            raise MemoryError("axio: no memory for the player")
        if err != _lib.OK:
            raise RuntimeError(f"axio: player {self.name} gave no legal decision (a bug: please report)")
        return out.value

    __call__ = action

    # a copy or a pickle is the same player, its generator started again from its seed
    def __reduce__(self):
        return (Policy, (self.name, self.movetime_ms, self.playouts, self.seed))

    def __deepcopy__(self, memo):
        return Policy(self.name, self.movetime_ms, self.playouts, self.seed)

    __copy__ = lambda self: self.__deepcopy__({})  # noqa: E731

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
    """A computer player as a policy: a level (random, greedy, strong, expert) or a player's
    own name (see the module's doc)."""
    return Policy(name, movetime_ms, playouts, seed)
