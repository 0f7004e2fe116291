"""The program in docs/python.md ("Training against greedy, with numpy only") runs as it
stands, with fewer games: it is cut out of the page, its GAMES and its 200 evaluation games
made small, and run by this Python in a fresh process with the package of the tree."""

import os
import re
import subprocess
import sys
import unittest

from common import SRC


class DocsTrainingProgram(unittest.TestCase):
    def test_runs_on_its_own(self):
        with open(os.path.join(SRC, "docs", "python.md"), encoding="utf-8") as f:
            page = f.read()
        section = page.split("## Training against greedy, with numpy only", 1)[1]
        code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        self.assertIn("GAMES = 300", code)
        self.assertIn("range(200)", code)
        small = code.replace("GAMES = 300", "GAMES = 4").replace("range(200)", "range(2)")
        env = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"))
        out = subprocess.run([sys.executable, "-c", small], capture_output=True, text=True, env=env, timeout=600)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"after 4 games: won \d+\.\d% of 2 against greedy")


if __name__ == "__main__":
    unittest.main(verbosity=2)
