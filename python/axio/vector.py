"""`axio.VectorEnv`: n games stepped in C per call, for training, as Gymnasium's vector API.

`reset(seed=)` returns `(observations, infos)` and `step(actions)` returns
`(observations, rewards, terminations, truncations, infos)`. `observations` is
a dict of batches, "observation" (n x obs_size) and "action_mask" (n x
num_actions): row i is the view of the seat to move in game i, whose seat is
`infos["seat"][i]`. The action space is `MultiDiscrete` (one action per game).

`rewards[i]` is the reward of the seat that acted in game i (by the ranking at
the step that ends a game; with reward="tracks" the sum of its track gains);
every seat's is in `infos["rewards"]` (n x players, or n x players x colours).

Autoreset as Gymnasium 1.x defines it. "next-step" (the default): the step
that ends game i shows its final position as the seat that ended it sees it
(mask all 0); the next step ignores game i's action, deals it anew and shows
the new game with reward 0. "same-step": the new game is dealt in the same
step; the final view is in `infos["final_obs"][i]` and the final info in
`infos["final_info"]`. Games are dealt from the reset seed: game i first from
seed + i, and each later game from the next unused seed.

The arrays a step returns are the environment's own buffers, written in place
by every step (no allocation per step; the observations and masks read-only):
copy what you keep beyond the next step, or pass `copy=True`.
"""

import copy as _copy
import ctypes

import numpy as np

from . import _lib
from ._lib import lib
from .game import MODES, VARIANTS, Game, IllegalActionError, Spec, check_seed
from .spaces import Box, Dict, MultiDiscrete, action_space, observation_space

try:
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as _VectorBase
    from gymnasium.vector.utils import batch_space as _batch_space

    _MODES = {"next-step": AutoresetMode.NEXT_STEP, "same-step": AutoresetMode.SAME_STEP}
except ImportError:
    _VectorBase = object
    _batch_space = None
    _MODES = {"next-step": "NextStep", "same-step": "SameStep"}

_C_MODE = {"next-step": _lib.AUTORESET_NEXT_STEP, "same-step": _lib.AUTORESET_SAME_STEP}
_step = lib.axio_batch_step


def _load_batch(state):
    """A C batch from `VectorEnv.save()` text."""
    if isinstance(state, bytes):
        state = state.decode("utf-8")
    if not isinstance(state, str):
        raise TypeError(f"axio: a saved VectorEnv is text, not {type(state).__name__}")
    handle = ctypes.c_void_p()
    why = ctypes.create_string_buffer(320)
    err = lib.axio_batch_load(state.encode("utf-8"), ctypes.byref(handle), why, len(why))
    if err == _lib.E_MEMORY:
        raise MemoryError("axio: no memory to load the VectorEnv")
    if err != _lib.OK:
        raise ValueError(f"axio: cannot load the VectorEnv: {why.value.decode()}")
    return handle.value


def _autoreset_name(mode):
    """"next-step" or "same-step" from that name or Gymnasium's AutoresetMode (or its value)."""
    for name, value in _MODES.items():
        if mode == name or mode == value or getattr(mode, "value", None) == getattr(value, "value", value):
            return name
    raise ValueError(f"axio: autoreset is 'next-step' or 'same-step', not {mode!r}")


class VectorEnv(_VectorBase):
    """`VectorEnv(n, variant=, players=, mode=, reward=, autoreset="next-step", copy=False)`."""

    render_mode = None

    def __init__(
        self, num_envs, variant="square", players=2, mode=None, reward="ranking", autoreset="next-step", copy=False
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"axio: num_envs is a positive integer, not {num_envs!r}")
        if reward not in ("ranking", "tracks"):
            raise ValueError(f"axio: reward is 'ranking' or 'tracks', not {reward!r}")
        autoreset = _autoreset_name(autoreset)
        spec = Spec(variant, players, mode)
        handle = ctypes.c_void_p()
        kind = _lib.REWARD_TRACKS if reward == "tracks" else _lib.REWARD_RANKING
        err = lib.axio_batch_new(ctypes.byref(spec.raw), int(num_envs), kind, _C_MODE[autoreset], ctypes.byref(handle))
        if err != _lib.OK:
            raise MemoryError(f"axio: no memory for {num_envs} games")
        self._setup(spec, int(num_envs), reward, autoreset, bool(copy), handle.value)
        self._started = False

    def _setup(self, spec, n, reward, autoreset, copy, handle):
        """Spaces, buffers and their binding, for a batch handle this env now owns."""
        self.game_spec = spec
        self.num_envs = n
        self.reward_kind = reward
        self.autoreset = autoreset
        self.copy = copy
        self._h = handle
        self.closed = False
        self.metadata = {"autoreset_mode": _MODES[autoreset], "render_modes": []}
        self.single_observation_space = observation_space(spec)
        self.single_action_space = action_space(spec)
        if _batch_space is not None:
            self.observation_space = _batch_space(self.single_observation_space, n)
        else:
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
        self.action_space = MultiDiscrete(np.full(n, spec.num_actions, np.int64))
        self._bind()

    def _bind(self):
        n, spec = self.num_envs, self.game_spec
        per_seat = (n, spec.players) + ((spec.ncolors,) if self.reward_kind == "tracks" else ())
        self._obs = np.zeros((n, spec.obs_size), np.int8)
        self._mask = np.zeros((n, spec.num_actions), np.int8)
        self._seat = np.zeros(n, np.int8)
        self._reward = np.zeros(n, np.float32)
        self._seat_rewards = np.zeros(per_seat, np.float32)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)  # games always end: never truncated
        self._all = np.ones(n, np.bool_)
        same = self.autoreset == "same-step"
        self._final_obs = np.zeros((n, spec.obs_size), np.int8) if same else None
        self._final_seat = np.zeros(n, np.int8) if same else None
        self._no_mask = np.zeros(spec.num_actions, np.int8)
        self._no_mask.flags.writeable = False
        # handed out read-only: the next step rewrites only the board cells that changed,
        # so a write into the observations would stay there
        self._obs_out, self._mask_out = self._obs.view(), self._mask.view()
        self._obs_out.flags.writeable = self._mask_out.flags.writeable = False
        out = _lib.BatchOut(
            self._obs.ctypes.data,
            self._mask.ctypes.data,
            self._seat.ctypes.data,
            self._reward.ctypes.data,
            self._seat_rewards.ctypes.data,
            self._terminated.ctypes.data,
            self._final_obs.ctypes.data if same else None,
            self._final_seat.ctypes.data if same else None,
        )
        if lib.axio_batch_bind(self._h, ctypes.byref(out)) != _lib.OK:
            raise RuntimeError("axio: the batch refused its buffers (a bug: please report)")
        self._bad = ctypes.c_int32(-1)
        self._bad_ref = ctypes.byref(self._bad)

    # --- the vector API ---

    def reset(self, seed=None, options=None):
        """Deals every game: game i from seed + i (a random seed when None).

        options={"reset_mask": bool array}: deals only those games (from seed + i when a
        seed is given, else from the next unused seeds)."""
        self._check_open()
        which = None
        if options is not None and "reset_mask" in options:
            which = np.asarray(options["reset_mask"])
            if which.shape != (self.num_envs,) or which.dtype != np.bool_:
                raise ValueError(f"axio: options['reset_mask'] is a bool array of {self.num_envs}")
            which = np.ascontiguousarray(which)
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise TypeError("axio: the seed of a VectorEnv is one integer: game i is dealt from seed + i")
        if seed is None and which is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)
        use = seed is not None
        lib.axio_batch_reset(
            self._h, check_seed(seed) if use else 0, int(use), which.ctypes.data if which is not None else None
        )
        self._started = True
        return self._observations(), self._infos(final=False)

    def step(self, actions):
        """One action per game (an integer array of n); returns Gymnasium's 5-tuple."""
        if self.closed:
            self._check_open()
        if not self._started:
            raise RuntimeError("axio: reset() the VectorEnv before its first step")
        acts = actions
        if type(acts) is not np.ndarray or acts.dtype != np.int32 or acts.shape != (self.num_envs,):
            acts = self._as_actions(acts)
        err = _step(self._h, acts.ctypes.data, self._bad_ref)
        if err != _lib.OK:
            self._raise(err, self._bad.value, int(acts[self._bad.value]))
        obs = self._observations()
        info = self._infos(final=self.autoreset == "same-step" and self._terminated.any())
        if self.copy:
            return obs, self._reward.copy(), self._terminated.copy(), self._truncated.copy(), info
        return obs, self._reward, self._terminated, self._truncated, info

    def _observations(self):
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs_out, "action_mask": self._mask_out}

    def _infos(self, final):
        seat, rewards = (self._seat.copy(), self._seat_rewards.copy()) if self.copy else (self._seat, self._seat_rewards)
        info = {"seat": seat, "_seat": self._all, "rewards": rewards, "_rewards": self._all}
        if final:
            ended = self._terminated.copy()
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final_obs[i] = {"observation": self._final_obs[i].copy(), "action_mask": self._no_mask}
            info["final_obs"], info["_final_obs"] = final_obs, ended
            info["final_info"] = {
                "seat": self._final_seat.copy(),
                "_seat": ended,
                "rewards": self._seat_rewards.copy(),
                "_rewards": ended,
            }
            info["_final_info"] = ended
        return info

    def _as_actions(self, actions):
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"axio: step takes {self.num_envs} integer actions, not an array of "
                f"shape {acts.shape} and type {acts.dtype}"
            )
        n = self.game_spec.num_actions
        if acts.size and (acts.min() < 0 or acts.max() >= n):
            bad = int(np.flatnonzero((acts < 0) | (acts >= n))[0])
            raise IllegalActionError(
                f"axio: game {bad}: action {int(acts[bad])} is not in the action space 0..{n - 1}; "
                "no game was stepped"
            )
        return np.ascontiguousarray(acts, dtype=np.int32)

    def _raise(self, err, i, a):
        if err == _lib.E_MEMORY:
            raise MemoryError("axio: no memory for the games' histories; no game was stepped")
        why = self.game(i)._why(a)
        raise IllegalActionError(f"axio: game {i}: {why}; no game was stepped")

    def sample_actions(self, out=None):
        """A uniformly random legal action for each game (drawn in C, from the reset seed);
        a new int32 array, or written into `out` (an int32 array of n)."""
        self._check_open()
        if out is None:
            out = np.empty(self.num_envs, np.int32)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.int32 and out.shape == (self.num_envs,)
                  and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"axio: out is a writable int32 array of {self.num_envs}")
        lib.axio_batch_random_actions(self._h, out.ctypes.data)
        return out

    def action_masks(self):
        """The legal actions of every game, as bool (n x actions): what maskable policies ask."""
        return self._mask_out.view(np.bool_)

    def game(self, i):
        """A copy of game i as an `axio.Game` (its record, status, views, ...)."""
        self._check_open()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise IndexError(f"axio: no game {i}: games are 0..{self.num_envs - 1}")
        return Game._adopt(self.game_spec, lib.axio_batch_game(self._h, int(i)))

    # --- copies, saving ---

    def save(self):
        """The VectorEnv's games as text (axio-batch-state/1; each game as Game.save writes it),
        with the seeds and generator to come: `VectorEnv.load` continues from there."""
        self._check_open()
        err = ctypes.c_int(0)
        text = _lib.take_text(lib.axio_batch_save(self._h, ctypes.byref(err)))
        if text is None:
            raise MemoryError("axio: no memory to save the VectorEnv")
        return text

    @classmethod
    def load(cls, state, copy=False):
        """A VectorEnv from `save()` text, its rows showing what the saved one showed."""
        env = cls.__new__(cls)
        env._adopt(_load_batch(state), copy)
        env._started = True
        return env

    def _adopt(self, handle, copy):
        """Takes over a C batch: its configuration, spaces and new buffers."""
        raw, n, reward, autoreset = _lib.Spec(), ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        lib.axio_batch_info(handle, ctypes.byref(raw), ctypes.byref(n), ctypes.byref(reward), ctypes.byref(autoreset))
        spec = Spec(VARIANTS[raw.variant], raw.players, MODES[raw.mode])
        reward = "tracks" if reward.value == _lib.REWARD_TRACKS else "ranking"
        autoreset = "same-step" if autoreset.value == _lib.AUTORESET_SAME_STEP else "next-step"
        self._setup(spec, n.value, reward, autoreset, bool(copy), handle)

    def _continued(self, handle):
        """A new env over `handle` (a clone of this one's batch), showing what this one shows."""
        env = type(self).__new__(type(self))
        env._setup(self.game_spec, self.num_envs, self.reward_kind, self.autoreset, self.copy, handle)
        env._started = self._started
        for name in ("_reward", "_seat_rewards", "_terminated", "_final_obs", "_final_seat"):
            if getattr(self, name) is not None:
                getattr(env, name)[...] = getattr(self, name)
        env.single_observation_space = _copy.deepcopy(self.single_observation_space)
        env.single_action_space = _copy.deepcopy(self.single_action_space)
        env.observation_space = _copy.deepcopy(self.observation_space)
        env.action_space = _copy.deepcopy(self.action_space)
        return env

    def __deepcopy__(self, memo):
        self._check_open()
        handle = lib.axio_batch_clone(self._h)
        if not handle:
            raise MemoryError("axio: no memory to copy the VectorEnv")
        return self._continued(handle)

    __copy__ = lambda self: self.__deepcopy__({})  # noqa: E731 -- a shallow copy would share the C games

    def __getstate__(self):
        self._check_open()
        state = {"batch": self.save(), "copy": self.copy, "started": self._started}
        for name in ("_reward", "_seat_rewards", "_terminated", "_final_obs", "_final_seat"):
            state[name] = getattr(self, name)
        for name in ("single_observation_space", "single_action_space", "observation_space", "action_space"):
            state[name] = getattr(self, name)
        return state

    def __setstate__(self, state):
        self._adopt(_load_batch(state["batch"]), state["copy"])
        self._started = state["started"]
        for name in ("_reward", "_seat_rewards", "_terminated", "_final_obs", "_final_seat"):
            if state[name] is not None:
                getattr(self, name)[...] = state[name]
        for name in ("single_observation_space", "single_action_space", "observation_space", "action_space"):
            setattr(self, name, state[name])

    # --- the end ---

    def _check_open(self):
        if self.closed:
            raise RuntimeError("axio: the VectorEnv is closed")

    def close(self, **kwargs):
        if getattr(self, "_h", None):
            lib.axio_batch_free(self._h)
            self._h = None
        self.closed = True

    def __del__(self):
        if getattr(self, "_h", None):
            lib.axio_batch_free(self._h)
            self._h = None

    def __repr__(self):
        return (
            f"axio.VectorEnv({self.num_envs}, {self.game_spec.variant!r}, {self.game_spec.players}, "
            f"{self.game_spec.mode!r}, autoreset={self.autoreset!r})"
        )
