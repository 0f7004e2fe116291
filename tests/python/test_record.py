"""A game played in Python writes axio-record/1 that `axio replay` (and `axio analyse`) accept.

Games of every configuration, played through the AEC environment by random
actions and by the computer players, are written as records and checked by
`axio replay` ($AXIO); a reset(seed=S) deals the same game as `axio selfplay
--seed S` (same start and first draws); a record with a changed decision is
refused, so the check can fail. Game.from_record reads `axio selfplay`'s records
(seats leaving included) back into the game they describe, whole or cut after any
line, and the game plays on from there.
"""

import json
import os
import tempfile
import unittest

from common import ALL_CONFIGS, axio, np, random, random_legal, run_axio


class Records(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def play_env(self, env, seed, rnd, opponents=None):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            if opponents and seat in opponents:
                env.step(opponents[seat].action(env))
            else:
                env.step(random_legal(obs["action_mask"], rnd))

    def test_replay_accepts(self):
        rnd = random.Random(11)
        for variant, players, mode in ALL_CONFIGS:
            for k in range(3):
                env = axio.env(variant, players, mode)
                opponents = {1: axio.policy("greedy", seed=k)} if k == 1 and players > 1 else None
                self.play_env(env, 500 + k, rnd, opponents)
                self.assertTrue(env.game.over)
                path = self.path(f"{variant}-{players}-{mode}-{k}.jsonl")
                env.write_record(path)
                out = run_axio("replay", path, check=False)
                self.assertEqual(out.returncode, 0, f"{path}: {out.stdout} {out.stderr}")
                with open(path) as f:
                    lines = [json.loads(line) for line in f]
                self.assertEqual(lines[0]["format"], "axio-record/1")
                self.assertEqual(lines[0]["names"], env.possible_agents)
                self.assertEqual(lines[-1]["ev"], "end")

    def test_same_deal_as_selfplay(self):
        for variant, players, mode in [("square", 2, "standard"), ("rota", 3, "standard"), ("hex", 4, "team")]:
            run_axio("selfplay", "--variant", variant, "--players", str(players), "--mode", mode,
                     "--seed", "4242", "--games", "1", "--record", self.dir.name)
            theirs = self.path(f"{variant}-{players}p-{mode}-4242.jsonl")
            game = axio.Game(variant, players, mode, seed=4242)
            mine = game.record(names=["random"] * players).splitlines()
            with open(theirs) as f:
                first = [json.loads(line) for line in f][: players + 1]
            self.assertEqual([json.loads(line) for line in mine], first)  # start and the deal

    def test_analyse_accepts(self):
        """`axio analyse` judges the decisions of a Python game from its record."""
        game = axio.Game("rota", 2, seed=21)
        rnd = random.Random(21)
        seat0 = 0
        while not game.over:
            seat0 += game.to_move == 0
            game.step(random_legal(game.observe(game.to_move)["action_mask"], rnd))
        path = self.path("analyse.jsonl")
        game.write_record(path)
        out = run_axio("analyse", path, "--seat", "0", "--playouts", "8", "--json", check=False)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual(len(lines), seat0)  # one judgement per decision of seat 0

    def test_changed_decision_is_refused(self):
        game = axio.Game("hex", 2, seed=9)
        rnd = random.Random(9)
        while not game.over:
            game.step(random_legal(game.observe(game.to_move)["action_mask"], rnd))
        lines = game.record().splitlines()
        for i, line in enumerate(lines):
            event = json.loads(line)
            if event["ev"] == "place":
                event["cells"] = [[0, 0], [1, 0]]  # the centre is no legal first cell
                lines[i] = json.dumps(event)
                break
        path = self.path("bad.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.assertNotEqual(run_axio("replay", path, check=False).returncode, 0)

    def test_unfinished_and_vector_records(self):
        game = axio.Game("square", 2, seed=1)
        game.step(int(np.flatnonzero(game.observe(0)["action_mask"])[0]))
        text = game.record(names=["Ann", "Bo"])
        self.assertNotIn('"end"', text)  # no end line before the end
        self.assertEqual(json.loads(text.splitlines()[0])["names"], ["Ann", "Bo"])
        vec = axio.VectorEnv(4, "rota", 2)
        vec.reset(seed=3)
        for _ in range(40):
            vec.step(vec.sample_actions())
        for i in range(4):  # a copy of each game has the record of its game so far
            g = vec.game(i)
            rnd = random.Random(i)
            while not g.over:
                g.step(random_legal(g.observe(g.to_move)["action_mask"], rnd))
            path = self.path(f"vec-{i}.jsonl")
            g.write_record(path)
            self.assertEqual(run_axio("replay", path, check=False).returncode, 0)

    def test_from_selfplay_records(self):
        """A selfplay record read back: the game writes the very same record, and a record cut
        after any line is the game at that point, which plays on to a record `axio replay`
        accepts."""
        rnd = random.Random(12)
        moves = leaves_seen = 0  # decisions saved as moves (another copy, a double turned) and leaves
        for variant, players, mode in ALL_CONFIGS:
            folder = self.path(f"self-{variant}-{players}-{mode}")
            leaves = ["--leaves", "15"] if players > 2 else []
            run_axio("selfplay", "--variant", variant, "--players", str(players), "--mode", mode,
                     "--seed", "77", "--games", "2", "--ai", "greedy,random", "--record", folder, *leaves)
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name)) as f:
                    text = f.read()
                game = axio.Game.from_record(text)
                self.assertTrue(game.over)
                self.assertEqual(game.record(), text, name)
                self.assertEqual(axio.Game.load(game.save()).record(), text)
                moves += game.save().count('"place"')
                leaves_seen += game.save().count('"leave"')
                lines = text.splitlines(keepends=True)
                for cut in sorted(rnd.sample(range(1, len(lines)), 3)):
                    part = axio.Game.from_record("".join(lines[:cut]))
                    self.assertTrue(text.startswith(part.record().rsplit("\n", 2)[0]), f"{name} cut at {cut}")
                    while not part.over:
                        part.step(random_legal(part.observe(part.to_move)["action_mask"], rnd))
                    path = self.path("continued.jsonl")
                    part.write_record(path)
                    out = run_axio("replay", path, check=False)
                    self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertGreater(moves, 0)
        self.assertGreater(leaves_seen, 0)
        with self.assertRaises(ValueError) as e:
            axio.Game.from_record(text.replace('"ev":"draw"', '"ev":"drew"', 1))
        self.assertIn("line", str(e.exception))
        path = self.path("file.jsonl")
        with open(path, "w") as f:
            f.write(text)
        self.assertEqual(axio.Game.read_record(path).record(), text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
