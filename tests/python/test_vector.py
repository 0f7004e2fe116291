"""VectorEnv: shapes and types, reset(seed=) reproduces the batch, finished games
are dealt anew, rewards, and a bad action changes no game."""

import unittest

from common import axio, np


class Vector(unittest.TestCase):
    def test_shapes_and_types(self):
        for variant, players, mode in [("square", 2, None), ("rota", 4, None), ("hex", 4, "team"), ("rota", 1, None)]:
            n = 8
            vec = axio.VectorEnv(n, variant, players, mode)
            spec = vec.game_spec
            obs, info = vec.reset(seed=1)
            self.assertEqual(obs["observation"].shape, (n, spec.obs_size))
            self.assertEqual(obs["action_mask"].shape, (n, spec.num_actions))
            self.assertEqual(obs["observation"].dtype, np.int8)
            self.assertEqual(info["seat"].shape, (n,))
            self.assertTrue(vec.observation_space.contains(obs))
            self.assertTrue(vec.single_observation_space.contains(
                {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]}))
            obs2, rewards, term, trunc, info = vec.step(vec.sample_actions())
            self.assertEqual(rewards.shape, (n, players))
            self.assertEqual(rewards.dtype, np.float32)
            self.assertEqual(term.dtype, np.bool_)
            self.assertEqual(trunc.shape, (n,))
            self.assertIsNot(obs2["observation"], obs["observation"])  # new arrays every step
            vec.close()

    def test_reset_reproduces(self):
        runs = []
        for _ in range(2):
            vec = axio.VectorEnv(32, "hex", 2)
            obs, _ = vec.reset(seed=99)
            history = [obs["observation"].copy()]
            for _ in range(150):
                obs, rewards, term, trunc, info = vec.step(vec.sample_actions())
                history.append(obs["observation"].copy())
                history.append(rewards.copy())
            runs.append(history)
            vec.close()
        self.assertTrue(all(np.array_equal(a, b) for a, b in zip(*runs)))
        vec = axio.VectorEnv(32, "hex", 2)
        obs, _ = vec.reset(seed=100)
        self.assertFalse(np.array_equal(obs["observation"], runs[0][0]))

    def test_games_end_and_start_again(self):
        n = 64
        vec = axio.VectorEnv(n, "rota", 2)
        vec.reset(seed=5)
        ended = 0
        for _ in range(200):
            obs, rewards, term, trunc, info = vec.step(vec.sample_actions())
            ended += int(term.sum())
            for i in np.flatnonzero(term):
                self.assertAlmostEqual(float(rewards[i].sum()), 0.0)  # 2 players: +1/-1 or 0/0
                g = vec.game(int(i))
                self.assertEqual(g.status()["ply"], 0)  # the row shows a new game
            self.assertFalse(rewards[~term].any())
        self.assertGreater(ended, n)  # rota 2p: 24 plies a game

    def test_track_rewards(self):
        n = 16
        vec = axio.VectorEnv(n, "square", 3, reward="tracks")
        vec.reset(seed=2)
        totals = np.zeros((n, 3, 5), np.float32)
        for _ in range(30):
            _, rewards, term, _, _ = vec.step(vec.sample_actions())
            self.assertEqual(rewards.shape, (n, 3, 5))
            self.assertFalse(term.any())  # square 3p lasts longer than 30 plies
            totals += rewards
        for i in range(n):
            self.assertTrue(np.array_equal(totals[i], vec.game(i).tracks()))

    def test_bad_actions_change_no_game(self):
        vec = axio.VectorEnv(4, "square", 2)
        obs, _ = vec.reset(seed=3)
        good = vec.sample_actions()
        before = [vec.game(i).status()["ply"] for i in range(4)]
        bad = good.copy()
        bad[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
        for actions, error in ((bad, axio.IllegalActionError),
                               (np.array([0, 0, 0, 10**6]), axio.IllegalActionError),
                               (np.array([-1, 0, 0, 0]), axio.IllegalActionError),
                               (good[:3], ValueError), (good.astype(float), ValueError)):
            with self.assertRaises(error):
                vec.step(actions)
            self.assertEqual([vec.game(i).status()["ply"] for i in range(4)], before)
        try:
            vec.step(bad)
        except axio.IllegalActionError as e:
            self.assertIn("game 2", str(e))
        vec.step(good.astype(np.int64))
        self.assertEqual([vec.game(i).status()["ply"] for i in range(4)], [p + 1 for p in before])

    def test_bad_use(self):
        with self.assertRaises(ValueError):
            axio.VectorEnv(0, "square", 2)
        with self.assertRaises(ValueError):
            axio.VectorEnv(4, "square", 2, reward="points")
        vec = axio.VectorEnv(2, "square", 2)
        with self.assertRaises(RuntimeError):
            vec.step(np.zeros(2, np.int32))  # before reset
        vec.reset(seed=1)
        with self.assertRaises(IndexError):
            vec.game(2)
        vec.close()
        with self.assertRaises(RuntimeError):
            vec.reset(seed=1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
