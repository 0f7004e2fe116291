"""The PettingZoo AEC environment: `axio.env(variant=, players=, mode=, reward=)`.

Agents `player_0` .. take turns as the rules say (a seat plays all its bonus
moves and its swap decision before the next seat). Each agent observes its
own seat's view only: a dict with `observation` (int8, the sections of
`env.game_spec.layout`) and `action_mask` (int8, 1 exactly for the engine's legal
actions). Rewards come at the end, by the rules' ranking (`reward="ranking"`,
the default), or at every step as each agent's gains on its colour tracks
(`reward="tracks"`, a vector per agent, for multi-objective work).

It subclasses PettingZoo's AECEnv when PettingZoo is installed; without it a
small stand-in gives the same interface (agent_iter, last, ...).

`copy.copy`, `copy.deepcopy` and `pickle` give an independent environment that
continues exactly as the original would: the game is cloned (or saved and
loaded), the agents' bookkeeping, spaces and seed generator copied with it.
"""

import copy
import ctypes

import numpy as np

from . import _lib
from ._lib import lib
from .game import Game, IllegalActionError, Spec, _action_number, check_seed
from .spaces import action_space, observation_space

try:
    from pettingzoo import AECEnv as _AECBase

    HAVE_PETTINGZOO = True
except ImportError:
    HAVE_PETTINGZOO = False

    class _AECBase:
        """PettingZoo's AECEnv interface, for when PettingZoo is not installed."""

        metadata = {}

        @property
        def num_agents(self):
            return len(self.agents)

        @property
        def max_num_agents(self):
            return len(self.possible_agents)

        @property
        def unwrapped(self):
            return self

        def agent_iter(self, max_iter=2**63):
            while self.agents and max_iter > 0:
                max_iter -= 1
                yield self.agent_selection

        def last(self, observe=True):
            agent = self.agent_selection
            return (
                self.observe(agent) if observe else None,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )

        def _clear_rewards(self):
            for agent in self.rewards:
                self.rewards[agent] = 0

        def _accumulate_rewards(self):
            for agent, reward in self.rewards.items():
                self._cumulative_rewards[agent] += reward

        def _was_dead_step(self, action):
            """Removes the agent that is done; the next one that is done follows."""
            if action is not None:
                raise ValueError("when an agent is done, the only valid action is None")
            agent = self.agent_selection
            for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
                del d[agent]
            self.agents.remove(agent)
            done = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
            if done:
                self.agent_selection = done[0]
            self._clear_rewards()

        def close(self):
            pass

        def __str__(self):
            return self.metadata.get("name", type(self).__name__)


REWARDS = ("ranking", "tracks")

# The calls of every step, looked up once, as function objects of their own without
# argtypes: ctypes passes arguments that are already C values (c_void_p pointers, and
# ints that fit a C int: a seat, an action checked against the action space) about
# 70 ns faster a call than it converts them through argtypes.
_observe = lib["axio_game_observe"]
_observe.restype = ctypes.c_int
_play = lib["axio_game_play"]
_play.restype = ctypes.c_int
_GAME_OVER = _lib.GAME_OVER

# what a copy or a pickle makes anew rather than copies: C pointers and the staging buffers
_LOCAL = ("_h", "_obs_stage", "_mask_stage", "_obs_ptr", "_mask_ptr")


class AxioEnv(_AECBase):
    """AXIO as a PettingZoo AEC environment (see `axio.env`)."""

    metadata = {"name": "axio_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, variant="square", players=2, mode=None, reward="ranking", render_mode=None):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"axio: reward is 'ranking' or 'tracks', not {reward!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"axio: render_mode is 'human', 'ansi' or None, not {render_mode!r}")
        self.game_spec = Spec(variant, players, mode)
        self._num_actions = self.game_spec.num_actions
        self.reward_kind = reward
        self._ranking = reward == "ranking"
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.game_spec.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        # one space object per agent and env: seeding one never touches another
        self._observation_spaces = {a: observation_space(self.game_spec) for a in self.possible_agents}
        self._action_spaces = {a: action_space(self.game_spec) for a in self.possible_agents}
        self._seeder = None
        self.game = None
        self._h = None
        self.agents = []
        self.rewards, self._cumulative_rewards = {}, {}
        self.terminations, self.truncations, self.infos = {}, {}, {}
        self.agent_selection = None
        self._own_observe = type(self).observe is AxioEnv.observe

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Deals a new game: with `seed`, the game of that seed (the same as `axio selfplay
        --seed`); without, the next seed of the generator the last seed started."""
        if seed is not None:
            game_seed = check_seed(seed)
            self._seeder = np.random.default_rng(game_seed)
        else:
            if self._seeder is None:
                self._seeder = np.random.default_rng()
            game_seed = int(self._seeder.integers(2**63))
        self.game = Game(self.game_spec, seed=game_seed)
        self._attach()
        self.agents = list(self.possible_agents)
        zero = self._zero_reward
        self.rewards = {a: zero() for a in self.agents}
        self._cumulative_rewards = {a: zero() for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]
        if self.reward_kind == "tracks":
            self._tracks = self.game.tracks().astype(np.float32)

    def _attach(self):
        """Points the hot path at the game, and C at buffers of this env's own."""
        self._h = ctypes.c_void_p(self.game._h)
        if getattr(self, "_obs_stage", None) is None:  # C writes here; observe() hands out copies
            self._obs_stage = np.empty(self.game_spec.obs_size, np.int8)
            self._mask_stage = np.empty(self.game_spec.num_actions, np.int8)
            self._obs_ptr = ctypes.c_void_p(self._obs_stage.ctypes.data)
            self._mask_ptr = ctypes.c_void_p(self._mask_stage.ctypes.data)

    def _not_started(self):
        return RuntimeError("axio: reset() the environment before its first step or observation")

    # --- copies and pickles: the game cloned or saved, everything else copied ---

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k not in _LOCAL}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._own_observe = type(self).observe is AxioEnv.observe
        self._h = None
        if self.game is not None:
            self._attach()

    def __copy__(self):
        return copy.deepcopy(self)

    def _zero_reward(self):
        if self.reward_kind == "tracks":
            return np.zeros(self.game_spec.ncolors, np.float32)
        return 0.0

    def last(self, observe=True):
        """The agent to act's observation, cumulative reward, termination, truncation, info."""
        if self._h is None:
            raise self._not_started()
        agent = self.agent_selection
        if not observe:
            obs = None
        elif self._own_observe:  # observe(agent) without the call: last() runs every step
            _observe(self._h, self._seat[agent], self._obs_ptr, self._mask_ptr)
            obs = {"observation": self._obs_stage.copy(), "action_mask": self._mask_stage.copy()}
        else:  # a subclass's observe
            obs = self.observe(agent)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent):
        h = self._h
        if h is None:
            raise self._not_started()
        _observe(h, self._seat[agent], self._obs_ptr, self._mask_ptr)
        return {"observation": self._obs_stage.copy(), "action_mask": self._mask_stage.copy()}

    def step(self, action):
        h = self._h
        if h is None:
            raise self._not_started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int or not 0 <= action < self._num_actions:
            action = _action_number(self.game_spec, action)  # numpy integers; clear errors
        seat = _play(h, action)
        if seat < 0:
            self.game._raise(seat, action)
        if self._ranking:  # nothing to add before the end: the fast path of every step
            self._cumulative_rewards[agent] = 0.0
            if seat != _GAME_OVER:
                self.agent_selection = self.possible_agents[seat]
            else:
                for name, r in zip(self.possible_agents, self.game.rewards()):
                    self.rewards[name] = r
                self._end()
                self._accumulate_rewards()
        else:
            self._cumulative_rewards[agent] = self._zero_reward()
            tracks = self.game.tracks().astype(np.float32)
            for s, name in enumerate(self.possible_agents):
                self.rewards[name] = tracks[s] - self._tracks[s]
            self._tracks = tracks
            if seat != _GAME_OVER:
                self.agent_selection = self.possible_agents[seat]
            else:
                self._end()
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end(self):
        """The game is over: every agent is done, with its place and the end's reason."""
        st = self.game.status()
        for s, name in enumerate(self.possible_agents):
            self.terminations[name] = True
            self.infos[name] = {"place": st["places"][s], "end": st["end"]}

    def render(self):
        """The board as text; printed with render_mode "human", returned otherwise."""
        if self.game is None:
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self, names=None):
        """The game's record (axio-record/1); names default to the agent names."""
        if self.game is None:
            raise self._not_started()
        return self.game.record(names if names is not None else self.possible_agents)

    def write_record(self, path, names=None):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.record(names))

    def close(self):
        pass


def env(variant="square", players=2, mode=None, reward="ranking", render_mode=None):
    """A PettingZoo AEC environment of AXIO (`square`), AXIO ROTA (`rota`) or AXIO Hex (`hex`).

    players 1..4; mode "standard" (2-4 players), "solo" (1), "team" (hex, 4); None picks
    solo or standard. reward "ranking" (at the end, by the rules' ranking) or "tracks"
    (each step, every agent's track gains as a vector).
    """
    return AxioEnv(variant, players, mode, reward, render_mode)


__all__ = ["AxioEnv", "env", "HAVE_PETTINGZOO", "IllegalActionError"]
