"""VectorEnv: shapes and types, buffers handed out once, reset(seed=) reproduces the batch,
both autoreset modes, partial resets, rewards, and a bad action changes no game."""

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
            self.assertTrue(info["_seat"].all())
            self.assertTrue(vec.observation_space.contains(obs))
            self.assertTrue(vec.single_observation_space.contains(
                {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]}))
            self.assertEqual(vec.action_space.shape, (n,))
            self.assertTrue(vec.action_space.contains(vec.sample_actions().astype(np.int64)))
            self.assertEqual(vec.metadata["autoreset_mode"], axio.vector._MODES["next-step"])
            obs2, rewards, term, trunc, info = vec.step(vec.sample_actions())
            self.assertEqual(rewards.shape, (n,))
            self.assertEqual(rewards.dtype, np.float32)
            self.assertEqual(info["rewards"].shape, (n, players))
            self.assertEqual(term.dtype, np.bool_)
            self.assertEqual(trunc.shape, (n,))
            # the env's own buffers, written in place: no allocation per step
            self.assertIs(obs2["observation"], obs["observation"])
            obs3, rewards3, term3, _, info3 = vec.step(vec.sample_actions())
            self.assertIs(obs3["action_mask"], obs2["action_mask"])
            self.assertIs(rewards3, rewards)
            self.assertIs(term3, term)
            self.assertIs(info3["seat"], info["seat"])
            self.assertTrue(np.array_equal(vec.action_masks(), obs3["action_mask"].astype(bool)))
            with self.assertRaises(ValueError):  # read-only: the next step would not undo a write
                obs3["observation"][0, 0] = 1
            vec.close()

    def test_no_allocation_per_step(self):
        """A step writes into the buffers handed out once: what it allocates (the dicts it
        returns) is a few hundred bytes, whatever the number of games (numpy reports its
        arrays to tracemalloc)."""
        import tracemalloc

        vec = axio.VectorEnv(256, "hex", 2)
        vec.reset(seed=4)
        actions = vec.sample_actions()
        for _ in range(5):
            vec.step(vec.sample_actions(out=actions))
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            obs, rewards, term, trunc, info = vec.step(vec.sample_actions(out=actions))
        now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        self.assertLess(peak - base, 20_000)  # one step's rows alone are 1.4 MB
        del obs, rewards, term, trunc, info

    def test_copy_option(self):
        vec = axio.VectorEnv(4, "hex", 2, copy=True)
        obs, _ = vec.reset(seed=1)
        obs2, rewards, term, _, info = vec.step(vec.sample_actions())
        obs3, rewards3, term3, _, info3 = vec.step(vec.sample_actions())
        self.assertIsNot(obs2["observation"], obs3["observation"])
        obs3["observation"][0, 0] = 1  # copies are the caller's
        self.assertIsNot(rewards, rewards3)
        self.assertIsNot(info["seat"], info3["seat"])
        self.assertFalse(np.array_equal(obs2["observation"], obs3["observation"]))

    def test_reset_reproduces(self):
        for autoreset in ("next-step", "same-step"):
            runs = []
            for _ in range(2):
                vec = axio.VectorEnv(32, "hex", 2, autoreset=autoreset)
                obs, _ = vec.reset(seed=99)
                history = [obs["observation"].copy()]
                for _ in range(150):
                    obs, rewards, term, trunc, info = vec.step(vec.sample_actions())
                    history.append(obs["observation"].copy())
                    history.append(rewards.copy())
                    history.append(info["rewards"].copy())
                runs.append(history)
                vec.close()
            self.assertTrue(all(np.array_equal(a, b) for a, b in zip(*runs)))
        vec = axio.VectorEnv(32, "hex", 2)
        obs, _ = vec.reset(seed=100)
        self.assertFalse(np.array_equal(obs["observation"], runs[0][0]))

    def test_next_step_autoreset(self):
        n = 64
        vec = axio.VectorEnv(n, "rota", 2)
        vec.reset(seed=5)
        ended, waiting = 0, np.zeros(n, bool)
        for _ in range(200):
            actions = vec.sample_actions()
            before = [vec.game(int(i)).status()["seed"] for i in np.flatnonzero(waiting)]
            obs, rewards, term, trunc, info = vec.step(actions)
            for k, i in enumerate(np.flatnonzero(waiting)):  # dealt anew, the action unused
                g = vec.game(int(i))
                self.assertEqual(g.status()["ply"], 0)
                self.assertNotEqual(g.status()["seed"], before[k])
                self.assertFalse(term[i])
                self.assertEqual(rewards[i], 0)
            ended += int(term.sum())
            for i in np.flatnonzero(term):
                self.assertAlmostEqual(float(info["rewards"][i].sum()), 0.0)  # 2 players: +1/-1 or 0/0
                g = vec.game(int(i))
                self.assertTrue(g.over)  # the row shows the finished game
                self.assertFalse(obs["action_mask"][i].any())
                self.assertEqual(rewards[i], info["rewards"][i][info["seat"][i]])
            self.assertFalse(info["rewards"][~term].any())
            waiting = term.copy()
        self.assertGreater(ended, n)  # rota 2p: 24 plies a game

    def test_same_step_autoreset(self):
        n = 32
        vec = axio.VectorEnv(n, "hex", 2, autoreset="same-step")
        vec.reset(seed=6)
        ended = 0
        for _ in range(200):
            obs, rewards, term, trunc, info = vec.step(vec.sample_actions())
            if not term.any():
                self.assertNotIn("final_obs", info)
                continue
            ended += int(term.sum())
            self.assertTrue(np.array_equal(info["_final_obs"], term))
            self.assertTrue(np.array_equal(info["_final_info"], term))
            for i in range(n):
                if term[i]:
                    self.assertEqual(vec.game(i).status()["ply"], 0)  # the row shows a new game
                    self.assertTrue(obs["action_mask"][i].any())
                    self.assertTrue(vec.single_observation_space.contains(info["final_obs"][i]))
                    self.assertEqual(rewards[i], info["final_info"]["rewards"][i][info["final_info"]["seat"][i]])
                else:
                    self.assertIsNone(info["final_obs"][i])
        self.assertGreater(ended, n)

    def test_partial_reset(self):
        vec = axio.VectorEnv(6, "square", 2)
        vec.reset(seed=40)
        for _ in range(5):
            vec.step(vec.sample_actions())
        which = np.array([True, False, True, False, False, False])
        obs, info = vec.reset(seed=70, options={"reset_mask": which})
        self.assertEqual([vec.game(i).status()["ply"] for i in range(6)], [0, 5, 0, 5, 5, 5])
        self.assertEqual(vec.game(2).status()["seed"], 72)
        self.assertEqual(vec.game(1).status()["seed"], 41)
        obs, info = vec.reset(options={"reset_mask": ~which})  # the next unused seeds
        self.assertEqual([vec.game(i).status()["seed"] for i in (1, 3, 4, 5)], [76, 77, 78, 79])
        with self.assertRaises(ValueError):
            vec.reset(options={"reset_mask": [True] * 5})

    def test_track_rewards(self):
        n = 16
        vec = axio.VectorEnv(n, "square", 3, reward="tracks")
        vec.reset(seed=2)
        totals = np.zeros((n, 3, 5), np.float32)
        for _ in range(30):
            seats = [vec.game(i).to_move for i in range(n)]
            _, rewards, term, _, info = vec.step(vec.sample_actions())
            self.assertEqual(rewards.shape, (n,))
            self.assertEqual(info["rewards"].shape, (n, 3, 5))
            self.assertFalse(term.any())  # square 3p lasts longer than 30 plies
            for i in range(n):
                self.assertEqual(rewards[i], info["rewards"][i][seats[i]].sum())
            totals += info["rewards"]
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
            self.assertEqual(str(e).count(f"action {bad[2]}"), 1)  # said once
        try:
            vec.step(np.array([0, 0, 0, 10**6]))
        except axio.IllegalActionError as e:
            self.assertEqual(str(e).count("1000000"), 1)
            self.assertIn("game 3", str(e))
        vec.step(good.astype(np.int64))
        self.assertEqual([vec.game(i).status()["ply"] for i in range(4)], [p + 1 for p in before])

    def test_bad_use(self):
        with self.assertRaises(ValueError):
            axio.VectorEnv(0, "square", 2)
        with self.assertRaises(ValueError):
            axio.VectorEnv(4, "square", 2, reward="points")
        with self.assertRaises(ValueError):
            axio.VectorEnv(4, "square", 2, autoreset="sometimes")
        vec = axio.VectorEnv(2, "square", 2)
        with self.assertRaises(RuntimeError):
            vec.step(np.zeros(2, np.int32))  # before reset
        with self.assertRaises(TypeError):
            vec.reset(seed=[1, 2])
        vec.reset(seed=1)
        with self.assertRaises(IndexError):
            vec.game(2)
        with self.assertRaises(ValueError):
            vec.sample_actions(out=np.zeros(2, np.int64))
        vec.close()
        with self.assertRaises(RuntimeError):
            vec.reset(seed=1)
        with self.assertRaises(RuntimeError):
            vec.step(np.zeros(2, np.int32))


if __name__ == "__main__":
    unittest.main(verbosity=2)
