"""`axio.SingleAgentEnv`: one seat against computer players, Gymnasium style.

`reset(seed=)` returns `(observation, info)`, `step(action)` returns
`(observation, reward, terminated, truncated, info)`; the other seats are
played in between by policies (`axio.policy`), so every observation is the
agent's own, with its action mask. The reward is the ranking reward at the
end (`reward="ranking"`), or the agent's track gains since its last action
(`reward="tracks"`, a vector; in team mode the team's). `seat=None` puts the
agent at a random seat each game. A seed makes the whole game reproducible:
the deal, and the opponents' generators.

An illegal action: with `illegal="lose"` (the default, so that code which
samples unmasked actions, Gymnasium's `check_env` among it, runs) it ends the
episode as a loss: reward -1 (solo: 0; tracks: no gains), `terminated`, and
`info["illegal"]` says why. With `illegal="raise"` it raises
`IllegalActionError` and changes nothing. `action_masks()` gives the legal
actions as bools (what sb3-contrib's MaskablePPO asks for).
"""

import copy

import numpy as np

from .game import Game, Spec, _action_number, check_seed
from .policy import Policy
from .spaces import action_space, observation_space

try:
    from gymnasium import Env as _EnvBase
except ImportError:
    _EnvBase = object


class SingleAgentEnv(_EnvBase):
    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        variant="square",
        players=2,
        mode=None,
        opponents="greedy",
        seat=0,
        reward="ranking",
        movetime_ms=None,
        playouts=None,
        render_mode=None,
        illegal="lose",
    ):
        if illegal not in ("lose", "raise"):
            raise ValueError(f"axio: illegal is 'lose' or 'raise', not {illegal!r}")
        if reward not in ("ranking", "tracks"):
            raise ValueError(f"axio: reward is 'ranking' or 'tracks', not {reward!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"axio: render_mode is 'human', 'ansi' or None, not {render_mode!r}")
        self.game_spec = Spec(variant, players, mode)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game_spec.players):
            raise ValueError(f"axio: seat is 0..{self.game_spec.players - 1} or None (random), not {seat!r}")
        others = self.game_spec.players - 1
        if isinstance(opponents, (str, Policy)):
            opponents = [opponents] * others
        opponents = list(opponents)
        if len(opponents) != others:
            raise ValueError(f"axio: {others} opponent(s) needed (one per other seat), not {len(opponents)}")
        self.opponents = [
            o if isinstance(o, Policy) else Policy(o, movetime_ms=movetime_ms, playouts=playouts) for o in opponents
        ]
        self.fixed_seat = seat
        self.illegal = illegal
        self.reward_kind = reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game_spec)
        self.action_space = action_space(self.game_spec)
        self._seeder = None
        self.game = None
        self.seat = None
        self._lost = None  # why the agent lost by an illegal action, in this episode

    def reset(self, seed=None, options=None):
        if _EnvBase is not object:
            super().reset(seed=seed)  # Gymnasium's np_random, for code that expects it
        if seed is not None:
            self._seeder = np.random.default_rng(check_seed(seed))
            game_seed = seed
        else:
            if self._seeder is None:
                self._seeder = np.random.default_rng()
            game_seed = int(self._seeder.integers(2**63))
        self.game = Game(self.game_spec, seed=game_seed)
        for policy in self.opponents:
            policy.reseed(int(self._seeder.integers(2**63)))
        if self.fixed_seat is None:
            self.seat = int(self._seeder.integers(self.game_spec.players))
        else:
            self.seat = self.fixed_seat
        self._tracks = self._own_tracks()
        self._lost = None
        self._play_others()
        return self._observe(), self._info()

    def _observe(self):
        obs = self.game.observe(self.seat)
        self._mask = obs["action_mask"]
        return obs

    def action_masks(self):
        """The legal actions of the agent now, as bools (all False once the episode is over)."""
        if self.game is None:
            raise RuntimeError("axio: reset() the environment first")
        if self._lost is not None:
            return np.zeros(self.game_spec.num_actions, np.bool_)
        return self._mask.astype(np.bool_)

    def _own_tracks(self):
        return self.game.tracks()[self.seat].astype(np.float32)

    def _play_others(self):
        others = [s for s in range(self.game_spec.players) if s != self.seat]
        while True:
            to_move = self.game.to_move
            if to_move is None or to_move == self.seat:
                return
            self.game.step(self.opponents[others.index(to_move)].action(self.game))

    def _info(self):
        st = self.game.status()
        info = {"seat": self.seat}
        if self._lost is not None:
            info.update(illegal=self._lost)
        elif st["phase"] == "over":
            info.update(place=st["places"][self.seat], end=st["end"], tracks=st["tracks"])
        return info

    def step(self, action):
        if self.game is None:
            raise RuntimeError("axio: reset() the environment before its first step")
        if self.game.over or self._lost is not None:
            raise RuntimeError("axio: the game is over: reset() for the next one")
        a = _action_number(self.game_spec, action) if self.illegal == "lose" else action
        if self.illegal == "lose" and not self._mask[a]:
            return self._lose(a)
        self.game.step(action)
        self._play_others()
        over = self.game.over
        if self.reward_kind == "tracks":
            tracks = self._own_tracks()
            reward = tracks - self._tracks
            self._tracks = tracks
        else:
            reward = self.game.rewards()[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, over, False, self._info()

    def _lose(self, action):
        self._lost = self.game._why(action)
        obs = self.game.observe(self.seat)
        obs["action_mask"][:] = 0
        if self.reward_kind == "tracks":
            reward = np.zeros(self.game_spec.ncolors, np.float32)
        else:
            reward = 0.0 if self.game_spec.mode == "solo" else -1.0
        if self.render_mode == "human":
            self.render()
        return obs, reward, True, False, self._info()

    def __copy__(self):
        return copy.deepcopy(self)

    def render(self):
        if self.game is None:
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
