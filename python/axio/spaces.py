"""Observation and action spaces: Gymnasium's when it is installed, else small stand-ins.

The stand-ins cover what axio's environments and common training code use of
Gymnasium's `Discrete`, `MultiDiscrete`, `Box` and `Dict`: `n`, `shape`, `dtype`, `low`/`high`,
`seed`, `sample` (with an action mask) and `contains`. Install Gymnasium for
everything else.
"""

import numpy as np

try:
    from gymnasium.spaces import Box, Dict, Discrete, MultiDiscrete

    HAVE_GYMNASIUM = True
except ImportError:
    HAVE_GYMNASIUM = False

    class _Space:
        def __init__(self, shape, dtype, seed=None):
            self.shape = shape
            self.dtype = np.dtype(dtype)
            self._np_random = None
            if seed is not None:
                self.seed(seed)

        @property
        def np_random(self):
            if self._np_random is None:
                self.seed()
            return self._np_random

        def seed(self, seed=None):
            self._np_random = np.random.default_rng(seed)
            return [seed]

        def __contains__(self, x):
            return self.contains(x)

    class Discrete(_Space):
        """The actions 0 .. n-1."""

        def __init__(self, n, seed=None):
            super().__init__((), np.int64, seed)
            self.n = int(n)
            self.start = 0

        def sample(self, mask=None):
            if mask is None:
                return int(self.np_random.integers(self.n))
            legal = np.flatnonzero(mask)
            if len(legal) == 0:
                return 0
            return int(self.np_random.choice(legal))

        def contains(self, x):
            try:
                x = int(x)
            except (TypeError, ValueError):
                return False
            return 0 <= x < self.n

        def __eq__(self, other):
            return isinstance(other, Discrete) and other.n == self.n

        def __repr__(self):
            return f"Discrete({self.n})"

    class MultiDiscrete(_Space):
        """One action of 0 .. nvec[i]-1 per entry."""

        def __init__(self, nvec, dtype=np.int64, seed=None):
            self.nvec = np.asarray(nvec, dtype=dtype)
            super().__init__(self.nvec.shape, dtype, seed)

        def sample(self, mask=None):
            return (self.np_random.random(self.nvec.shape) * self.nvec).astype(self.dtype)

        def contains(self, x):
            x = np.asarray(x)
            return x.shape == self.shape and x.dtype.kind in "iu" and bool(np.all((x >= 0) & (x < self.nvec)))

        def __eq__(self, other):
            return isinstance(other, MultiDiscrete) and np.array_equal(other.nvec, self.nvec)

        def __repr__(self):
            return f"MultiDiscrete({self.nvec})"

    class Box(_Space):
        """Arrays of `shape` between `low` and `high`."""

        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            low = np.asarray(low, dtype=dtype)
            high = np.asarray(high, dtype=dtype)
            shape = tuple(shape) if shape is not None else low.shape
            super().__init__(shape, dtype, seed)
            self.low = np.broadcast_to(low, shape).copy()
            self.high = np.broadcast_to(high, shape).copy()

        def sample(self, mask=None):
            return self.np_random.integers(
                self.low.astype(np.int64), self.high.astype(np.int64) + 1, size=self.shape
            ).astype(self.dtype)

        def contains(self, x):
            x = np.asarray(x)
            return (
                x.shape == self.shape
                and np.can_cast(x.dtype, self.dtype)
                and bool(np.all(x >= self.low))
                and bool(np.all(x <= self.high))
            )

        def __eq__(self, other):
            return (
                isinstance(other, Box)
                and other.shape == self.shape
                and other.dtype == self.dtype
                and np.array_equal(other.low, self.low)
                and np.array_equal(other.high, self.high)
            )

        def __repr__(self):
            return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

    class Dict(_Space):
        """A dict of spaces."""

        def __init__(self, spaces, seed=None):
            super().__init__(None, np.int8)
            self.spaces = dict(spaces)
            if seed is not None:
                self.seed(seed)

        def seed(self, seed=None):
            rng = np.random.default_rng(seed)
            for space in self.spaces.values():
                space.seed(int(rng.integers(2**31)))
            self._np_random = rng
            return [seed]

        def sample(self, mask=None):
            return {k: s.sample() for k, s in self.spaces.items()}

        def contains(self, x):
            return (
                isinstance(x, dict)
                and x.keys() == self.spaces.keys()
                and all(s.contains(x[k]) for k, s in self.spaces.items())
            )

        def __getitem__(self, key):
            return self.spaces[key]

        def keys(self):
            return self.spaces.keys()

        def __iter__(self):
            return iter(self.spaces)

        def __eq__(self, other):
            return isinstance(other, Dict) and other.spaces == self.spaces

        def __repr__(self):
            return f"Dict({self.spaces})"


def observation_space(spec):
    """One seat's observation space: a Dict of the observation array and the action mask."""
    return Dict(
        {
            "observation": Box(spec.low, spec.high, (spec.obs_size,), np.int8),
            "action_mask": Box(0, 1, (spec.num_actions,), np.int8),
        }
    )


def action_space(spec):
    return Discrete(spec.num_actions)
