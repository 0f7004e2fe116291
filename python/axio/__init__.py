"""axio: Reiner Knizia's AXIO games (square, rota, hex) for Python, over axio's C engine.

- `axio.env(variant=, players=, mode=)`: a PettingZoo AEC environment.
- `axio.VectorEnv(n, variant=, ...)`: n games stepped in C per call, for training.
- `axio.SingleAgentEnv(...)`: one seat against computer players, Gymnasium style.
- `axio.policy("expert")`: the computer players as policies, by the server's level names.
- `axio.Game`, `axio.Spec`: one game and the fixed spaces of a configuration.

docs/python.md in the repository explains the observation and action encodings.
The only dependency is numpy; PettingZoo and Gymnasium are used when installed.
"""

from .env import HAVE_PETTINGZOO, AxioEnv, env
from .game import COLORS, MODES, VARIANTS, Game, IllegalActionError, Spec
from .policy import Policy, policy
from .policy import levels as policy_levels
from .single import SingleAgentEnv
from .spaces import HAVE_GYMNASIUM
from .vector import VectorEnv

__version__ = "0.1.0"

__all__ = [
    "env",
    "AxioEnv",
    "VectorEnv",
    "SingleAgentEnv",
    "policy",
    "Policy",
    "policy_levels",
    "Game",
    "Spec",
    "IllegalActionError",
    "VARIANTS",
    "MODES",
    "COLORS",
    "HAVE_PETTINGZOO",
    "HAVE_GYMNASIUM",
]
