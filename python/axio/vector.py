"""`axio.VectorEnv`: n games stepped in C per call, for training.

Shaped like Gymnasium's vector API. `reset(seed=)` returns `(observations, infos)`
and `step(actions)` returns `(observations, rewards, terminations, truncations,
infos)`; `observations` is a dict of batches, "observation" (n x obs_size) and
"action_mask" (n x num_actions), row i the view of the seat to move in game i,
whose seat is `infos["seat"][i]`.

Rewards are per seat, since every game has several players: n x players (by
the ranking, at the step that ends a game), or with reward="tracks" n x
players x colours (each seat's track gains in this step). A game that ends is
dealt anew in the same step (Gymnasium's "same-step" autoreset): its row then
shows the new game. Games are dealt from the reset seed: game i first from
seed + i, and each later game from the next unused seed.

Each step returns new arrays (keep them as long as you like).
"""

import ctypes

import numpy as np

from . import _lib
from ._lib import lib
from .game import Game, IllegalActionError, Spec, check_seed
from .spaces import Box, Dict, action_space, observation_space

try:
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as _VectorBase

    _AUTORESET = AutoresetMode.SAME_STEP
except ImportError:
    _VectorBase = object
    _AUTORESET = "SameStep"


class VectorEnv(_VectorBase):
    """`VectorEnv(n, variant=, players=, mode=, reward=)`: n games stepped together in C."""

    metadata = {"autoreset_mode": _AUTORESET, "render_modes": []}
    render_mode = None

    def __init__(self, num_envs, variant="square", players=2, mode=None, reward="ranking"):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"axio: num_envs is a positive integer, not {num_envs!r}")
        if reward not in ("ranking", "tracks"):
            raise ValueError(f"axio: reward is 'ranking' or 'tracks', not {reward!r}")
        self.game_spec = Spec(variant, players, mode)
        self.num_envs = int(num_envs)
        self.reward_kind = reward
        handle = ctypes.c_void_p()
        kind = _lib.REWARD_TRACKS if reward == "tracks" else _lib.REWARD_RANKING
        err = lib.axio_batch_new(ctypes.byref(self.game_spec.raw), self.num_envs, kind, ctypes.byref(handle))
        if err != _lib.OK:
            raise MemoryError(f"axio: no memory for {num_envs} games")
        self._h = handle.value
        n, spec = self.num_envs, self.game_spec
        self.single_observation_space = observation_space(spec)
        self.single_action_space = action_space(spec)
        self.observation_space = Dict(
            {
                "observation": Box(
                    np.broadcast_to(spec.low, (n, spec.obs_size)),
                    np.broadcast_to(spec.high, (n, spec.obs_size)),
                    (n, spec.obs_size),
                    np.int8,
                ),
                "action_mask": Box(0, 1, (n, spec.num_actions), np.int8),
            }
        )
        self.action_space = Box(0, spec.num_actions - 1, (n,), np.int64)
        self._reward_shape = (n, spec.players) + ((spec.ncolors,) if reward == "tracks" else ())
        self._started = False
        self.closed = False

    def _buffers(self):
        n, spec = self.num_envs, self.game_spec
        obs = np.empty((n, spec.obs_size), np.int8)
        mask = np.empty((n, spec.num_actions), np.int8)
        seat = np.empty(n, np.int8)
        return obs, mask, seat

    def reset(self, seed=None, options=None):
        """Deals every game: game i from seed + i (a random seed when None)."""
        self._check_open()
        seed = check_seed(seed) if seed is not None else int(np.random.SeedSequence().entropy % 2**63)
        obs, mask, seat = self._buffers()
        lib.axio_batch_reset(self._h, seed, _ptr(obs), _ptr(mask), _ptr(seat))
        self._started = True
        return {"observation": obs, "action_mask": mask}, {"seat": seat}

    def step(self, actions):
        """One action per game (an integer array of n); returns the 5-tuple of Gymnasium."""
        self._check_open()
        if not self._started:
            raise RuntimeError("axio: reset() the VectorEnv before its first step")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"axio: step takes {self.num_envs} integer actions, not an array of "
                f"shape {acts.shape} and type {acts.dtype}"
            )
        if acts.dtype != np.int32:
            if acts.size and (acts.min() < 0 or acts.max() >= self.game_spec.num_actions):
                bad = int(np.flatnonzero((acts < 0) | (acts >= self.game_spec.num_actions))[0])
                raise IllegalActionError(
                    f"axio: game {bad}: action {int(acts[bad])} is not in the action space "
                    f"0..{self.game_spec.num_actions - 1}; no game was stepped"
                )
            acts = acts.astype(np.int32)
        acts = np.ascontiguousarray(acts)
        obs, mask, seat = self._buffers()
        rewards = np.empty(self._reward_shape, np.float32)
        terminated = np.empty(self.num_envs, np.bool_)
        bad = ctypes.c_int32(-1)
        err = lib.axio_batch_step(
            self._h, _ptr(acts), _ptr(obs), _ptr(mask), _ptr(rewards), _ptr(terminated), _ptr(seat), ctypes.byref(bad)
        )
        if err != _lib.OK:
            self._raise(err, bad.value, int(acts[bad.value]))
        truncated = np.zeros(self.num_envs, np.bool_)
        return {"observation": obs, "action_mask": mask}, rewards, terminated, truncated, {"seat": seat}

    def _raise(self, err, i, a):
        if err == _lib.E_MEMORY:
            raise MemoryError("axio: no memory for the games' histories; no game was stepped")
        why = self.game(i).explain(a)
        raise IllegalActionError(f"axio: game {i}: action {a}: {why}; no game was stepped")

    def sample_actions(self):
        """A uniformly random legal action for each game (drawn in C, from the reset seed)."""
        self._check_open()
        out = np.empty(self.num_envs, np.int32)
        lib.axio_batch_random_actions(self._h, _ptr(out))
        return out

    def game(self, i):
        """A copy of game i as an `axio.Game` (its record, status, views, ...)."""
        self._check_open()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise IndexError(f"axio: no game {i}: games are 0..{self.num_envs - 1}")
        return Game._adopt(self.game_spec, lib.axio_batch_game(self._h, int(i)))

    def _check_open(self):
        if self.closed:
            raise RuntimeError("axio: the VectorEnv is closed")

    def close(self, **kwargs):
        if not self.closed and getattr(self, "_h", None):
            lib.axio_batch_free(self._h)
            self._h = None
        self.closed = True

    def __del__(self):
        if getattr(self, "_h", None):
            lib.axio_batch_free(self._h)
            self._h = None

    def __repr__(self):
        return f"axio.VectorEnv({self.num_envs}, {self.game_spec.variant!r}, {self.game_spec.players}, {self.game_spec.mode!r})"


def _ptr(a):
    return a.__array_interface__["data"][0]
