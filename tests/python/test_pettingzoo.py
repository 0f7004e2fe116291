"""PettingZoo's own api_test and seed_test on every variant, player count and mode.

PettingZoo and Gymnasium come from an installed copy or their released sources beside
the repository (farama.py); the test is skipped only where neither exists.
"""

import sys
import warnings

import farama

farama.require("pettingzoo", "gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from common import ALL_CONFIGS, axio  # noqa: E402


def main():
    if not axio.HAVE_PETTINGZOO or not axio.HAVE_GYMNASIUM:
        print("FAIL: pettingzoo imports here but axio did not use it")
        return 1
    for variant, players, mode in ALL_CONFIGS:
        with warnings.catch_warnings():
            # PettingZoo warns about every dict observation (action masks) unless the
            # environment is one of its own
            warnings.simplefilter("ignore")
            api_test(axio.env(variant, players, mode), num_cycles=1000)
            seed_test(lambda **kw: axio.env(variant, players, mode, **kw), num_cycles=500)
        print(f"ok: {variant} {players}p {mode}: api_test and seed_test passed")
    # copies of the PettingZoo-based environment play on as the original (test_copy.py: more)
    import copy
    import pickle

    env = axio.env("rota", 3)
    env.reset(seed=4)
    for _ in range(10):
        obs = env.last()[0]
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        if twin.last()[0]["observation"].tolist() != env.last()[0]["observation"].tolist():
            print("FAIL: a copy of the environment shows another game")
            return 1
        api_test(twin, num_cycles=200)
    print("ok: copies pass api_test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
