"""The programs of the README and docs/python.md run as they stand: the README's Python
loop, the blocks of docs/python.md's "Quick start" (one after the other, as one program),
and the program of "Training against greedy, with numpy only" with fewer games (its GAMES
and its 200 evaluation games made small). Each is cut out of its page and run by this
Python in a fresh process, in a scratch folder, with the package of the tree."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

from common import SRC


def page(name):
    with open(os.path.join(SRC, name), encoding="utf-8") as f:
        return f.read()


def blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run(code):
    env = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"))
    with tempfile.TemporaryDirectory() as folder:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                              cwd=folder, timeout=600)


class DocsPrograms(unittest.TestCase):
    def test_readme_loop(self):
        section = page("README.md").split("## For researchers: Python", 1)[1].split("\n## ", 1)[0]
        (code,) = blocks(section)
        out = run(code + "\nassert env.game.over\n")
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_quick_start(self):
        section = page("docs/python.md").split("## Quick start", 1)[1].split("\n## ", 1)[0]
        code = "\n".join(blocks(section))
        self.assertEqual(len(blocks(section)), 3)
        out = run(code + "\nimport os\nassert os.path.getsize('game.jsonl') > 0\n")
        self.assertEqual(out.returncode, 0, out.stderr)

    def test_training_program(self):
        section = page("docs/python.md").split("## Training against greedy, with numpy only", 1)[1]
        code = blocks(section)[0]
        self.assertIn("GAMES = 300", code)
        self.assertIn("range(200)", code)
        small = code.replace("GAMES = 300", "GAMES = 4").replace("range(200)", "range(2)")
        out = run(small)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"after 4 games: won \d+\.\d% of 2 against greedy")


if __name__ == "__main__":
    unittest.main(verbosity=2)
