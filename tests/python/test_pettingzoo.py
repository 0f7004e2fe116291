"""PettingZoo's own api_test and seed_test on every variant, player count and mode.

PettingZoo and Gymnasium are not Debian packages: this test runs when both can
be imported (pip install pettingzoo gymnasium) and is skipped otherwise, with
exit code 77, which ctest reports as skipped.
"""

import sys
import warnings

from common import ALL_CONFIGS, axio

try:
    import gymnasium  # noqa: F401
    from pettingzoo.test import api_test, seed_test
except ImportError as e:
    print(f"SKIP: PettingZoo's api_test and seed_test need pettingzoo and gymnasium ({e}); "
          "install them (pip install pettingzoo gymnasium) to run this test")
    sys.exit(77)


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
    return 0


if __name__ == "__main__":
    sys.exit(main())
