"""The README's install command works offline: `pip install --no-build-isolation ./python`
into a fresh virtual environment of Debian's Python (with its numpy), from a copy of
the repository's python/ and src/ (as in a clean clone), with no package index.
Then the installed package plays a game from another folder, finding its own
C library (no $AXIO_LIB)."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("SRC") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


class Install(unittest.TestCase):
    def test_pip_install_into_a_venv(self):
        with tempfile.TemporaryDirectory() as tmp:
            clone = os.path.join(tmp, "clone")
            ignore = shutil.ignore_patterns("build", "*.egg-info", "libaxio.so", "__pycache__")
            for part in ("python", "src"):
                shutil.copytree(os.path.join(SRC, part), os.path.join(clone, part), ignore=ignore)
            venv = os.path.join(tmp, "venv")
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
            env = {k: v for k, v in os.environ.items() if not k.startswith(("AXIO", "PIP_", "PYTHON"))}
            env.update(PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
            pip = subprocess.run(
                [os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation", "--no-index",
                 "--no-cache-dir", "./python"],
                cwd=clone, env=env, capture_output=True, text=True,
            )
            self.assertEqual(pip.returncode, 0, pip.stdout[-3000:] + pip.stderr[-3000:])
            game = subprocess.run(
                [os.path.join(venv, "bin", "python"), "-c",
                 "import axio, numpy as np\n"
                 "env = axio.env('rota', 2)\n"
                 "env.reset(seed=1)\n"
                 "for agent in env.agent_iter():\n"
                 "    obs, r, term, trunc, info = env.last()\n"
                 "    env.step(None if term else int(np.flatnonzero(obs['action_mask'])[0]))\n"
                 "print(axio.__file__)\n"
                 "print(axio._lib._path())\n"],
                cwd=tmp, env=env, capture_output=True, text=True,
            )
            self.assertEqual(game.returncode, 0, game.stderr)
            module, library = game.stdout.split()
            self.assertTrue(module.startswith(venv), module)
            self.assertTrue(library.startswith(venv), library)


if __name__ == "__main__":
    unittest.main(verbosity=2)
