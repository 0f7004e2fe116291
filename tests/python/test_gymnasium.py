"""Gymnasium 1.x with axio: check_env on SingleAgentEnv, and Gymnasium's vector wrappers
(RecordEpisodeStatistics, NormalizeReward, FlattenObservation, FilterObservation,
DtypeObservation) over VectorEnv for 1,000 steps in both autoreset modes where the
wrapper allows it.

Gymnasium comes from an installed copy or its released sources beside the repository
(farama.py); the test is skipped only where neither exists.
"""

import unittest
import warnings

import farama

farama.require("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers import vector as wrappers  # noqa: E402

from common import axio, np  # noqa: E402

STEPS = 1000


def masked_actions(obs, rng):
    """A uniformly random legal action per row (0 for a row whose mask is empty: the
    next-step reset ignores it)."""
    masks = obs["action_mask"].view(np.bool_)
    out = np.zeros(len(masks), np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        if len(legal):
            out[i] = legal[rng.integers(len(legal))]
    return out


class CheckEnv(unittest.TestCase):
    def test_single_agent_env_passes_check_env(self):
        self.assertTrue(axio.HAVE_GYMNASIUM)
        for variant, players, mode in [("square", 2, None), ("hex", 2, None), ("rota", 3, None), ("hex", 1, None),
                                       ("hex", 4, "team")]:
            for reward in ("ranking", "tracks"):
                env = axio.SingleAgentEnv(variant, players, mode, opponents="greedy", reward=reward)
                self.assertIsInstance(env, gymnasium.Env)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # "no spec": the env is not registered with gymnasium.make
                    check_env(env, skip_render_check=True)
                print(f"ok: check_env {variant} {players}p {mode} reward={reward}")

    def test_check_env_fails_with_raise(self):
        """The option that makes a sampled illegal action an error does fail the checker: the
        default "lose" is what lets it pass."""
        env = axio.SingleAgentEnv("hex", 2, illegal="raise")
        with self.assertRaises(axio.IllegalActionError), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(env, skip_render_check=True)

    def test_illegal_lose_and_action_masks(self):
        env = axio.SingleAgentEnv("square", 2, opponents="random")
        obs, info = env.reset(seed=4)
        mask = env.action_masks()
        self.assertEqual(mask.dtype, np.bool_)
        self.assertTrue(np.array_equal(mask, obs["action_mask"].astype(bool)))
        illegal = int(np.flatnonzero(~mask)[0])
        ply = env.game.status()["ply"]
        obs, reward, terminated, truncated, info = env.step(illegal)
        self.assertEqual((reward, terminated, truncated), (-1.0, True, False))
        self.assertIn("not legal", info["illegal"])
        self.assertFalse(obs["action_mask"].any())
        self.assertFalse(env.action_masks().any())
        self.assertEqual(env.game.status()["ply"], ply)  # the illegal action was not played
        with self.assertRaises(RuntimeError):
            env.step(int(np.flatnonzero(mask)[0]))
        env.reset(seed=5)
        self.assertTrue(env.action_masks().any())
        solo = axio.SingleAgentEnv("hex", 1, illegal="lose")
        obs, _ = solo.reset(seed=1)
        _, reward, terminated, _, _ = solo.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
        self.assertEqual((reward, terminated), (0.0, True))
        strict = axio.SingleAgentEnv("square", 2, illegal="raise")
        obs, _ = strict.reset(seed=4)
        with self.assertRaises(axio.IllegalActionError):
            strict.step(illegal)
        with self.assertRaises(ValueError):
            axio.SingleAgentEnv("square", 2, illegal="ignore")


class VectorWrappers(unittest.TestCase):
    def run_wrapped(self, make, autoreset, variant="hex", players=2, n=16):
        vec = axio.VectorEnv(n, variant, players, autoreset=autoreset)
        self.assertIsInstance(vec, gymnasium.vector.VectorEnv)
        env = make(vec)
        obs, info = env.reset(seed=3)
        self.assertTrue(env.observation_space.contains(obs), "reset's observation is in the wrapped space")
        rng = np.random.default_rng(0)
        episodes, raw_obs = 0, None
        for _ in range(STEPS):
            raw_obs = {"observation": vec._obs, "action_mask": vec._mask}
            obs, rewards, terminated, truncated, info = env.step(masked_actions(raw_obs, rng))
            self.assertEqual(rewards.shape, (n,))
            self.assertTrue(np.all(np.isfinite(rewards)))
            if "_episode" in info:
                episodes += int(info["_episode"].sum())
        self.assertTrue(env.observation_space.contains(obs))
        env.close()
        return episodes

    def test_record_episode_statistics(self):
        for autoreset in ("next-step", "same-step"):
            vec = axio.VectorEnv(16, "hex", 2, autoreset=autoreset)
            env = wrappers.RecordEpisodeStatistics(vec)
            env.reset(seed=1)
            rng = np.random.default_rng(1)
            ended = episodes = 0
            lengths = []
            for _ in range(STEPS):
                obs = {"observation": vec._obs, "action_mask": vec._mask}
                _, rewards, terminated, _, info = env.step(masked_actions(obs, rng))
                ended += int(terminated.sum())
                if "_episode" in info:
                    episodes += int(info["_episode"].sum())
                    lengths += info["episode"]["l"][info["_episode"]].tolist()
            self.assertEqual(episodes, ended)
            self.assertGreater(episodes, 100)
            # every ply of a game is one step of its row (hex 2p: dozens of plies)
            self.assertGreater(min(lengths), 10)
            self.assertEqual(len(env.return_queue), 100)
            print(f"ok: RecordEpisodeStatistics, {autoreset}: {episodes} episodes in {STEPS} steps")

    def test_normalize_reward_and_flatten(self):
        for autoreset in ("next-step", "same-step"):
            self.run_wrapped(lambda v: wrappers.NormalizeReward(wrappers.RecordEpisodeStatistics(v)), autoreset)
        spec = axio.Spec("hex", 2)

        def flat(v):
            env = wrappers.FlattenObservation(v)
            self.assertEqual(env.single_observation_space.shape, (spec.obs_size + spec.num_actions,))
            return env

        self.run_wrapped(flat, "next-step")
        self.run_wrapped(lambda v: wrappers.FlattenObservation(wrappers.NormalizeReward(v)), "next-step", "square", 3)
        with self.assertRaises(ValueError):  # Gymnasium's own rule: observation wrappers need next-step
            wrappers.FlattenObservation(axio.VectorEnv(2, "hex", 2, autoreset="same-step"))

    def test_filter_and_dtype_observation(self):
        def only_board(v):
            env = wrappers.FilterObservation(v, ["observation"])
            self.assertEqual(list(env.single_observation_space.keys()), ["observation"])
            return env

        self.run_wrapped(only_board, "next-step")
        self.run_wrapped(
            lambda v: wrappers.DtypeObservation(wrappers.FlattenObservation(v), np.float32), "next-step", "rota", 2
        )

    def test_copies_with_gymnasium_spaces(self):
        """Copies and pickles of the Gymnasium-based environments (the spaces and their
        generators come along) continue as the original (test_copy.py covers the rest)."""
        import copy
        import pickle

        vec = axio.VectorEnv(4, "hex", 2)
        vec.reset(seed=9)
        vec.action_space.seed(3)
        for _ in range(30):
            vec.step(vec.sample_actions())
        for make in (copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))):
            c = make(vec)
            self.assertTrue(np.array_equal(c.action_space.sample(), copy.deepcopy(vec.action_space).sample()))
            for _ in range(30):
                a = vec.sample_actions()
                self.assertTrue(np.array_equal(c.step(a)[0]["observation"], vec.step(a)[0]["observation"]))
        env = axio.SingleAgentEnv("square", 2, opponents="greedy")
        obs, _ = env.reset(seed=2)
        twin = pickle.loads(pickle.dumps(env))
        legal = int(np.flatnonzero(obs["action_mask"])[0])
        a, b = env.step(legal), twin.step(legal)
        self.assertTrue(np.array_equal(a[0]["observation"], b[0]["observation"]))

    def test_async_vector_env(self):
        """Gymnasium's AsyncVectorEnv (a process per environment) over SingleAgentEnv shows what
        its SyncVectorEnv shows."""
        fns = [lambda: axio.SingleAgentEnv("hex", 2, opponents="greedy") for _ in range(2)]
        sync = gymnasium.vector.SyncVectorEnv(fns)
        other = gymnasium.vector.AsyncVectorEnv(fns, context="fork")
        try:
            a, _ = sync.reset(seed=5)
            b, _ = other.reset(seed=5)
            for _ in range(60):
                self.assertTrue(np.array_equal(a["observation"], b["observation"]))
                masks = sync.call("action_masks")
                actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
                a, ra, ta, _, _ = sync.step(actions)
                b, rb, tb, _, _ = other.step(actions)
                self.assertTrue(np.array_equal(ra, rb) and np.array_equal(ta, tb))
        finally:
            other.close()
            sync.close()

    def test_metadata(self):
        self.assertEqual(axio.VectorEnv(2, "hex", 2).metadata["autoreset_mode"], AutoresetMode.NEXT_STEP)
        vec = axio.VectorEnv(2, "hex", 2, autoreset=AutoresetMode.SAME_STEP)
        self.assertEqual(vec.metadata["autoreset_mode"], AutoresetMode.SAME_STEP)
        self.assertEqual(vec.autoreset, "same-step")
        self.assertEqual(vec.action_space, gymnasium.spaces.MultiDiscrete([vec.game_spec.num_actions] * 2))
        self.assertEqual(vec.observation_space, gymnasium.vector.utils.batch_space(vec.single_observation_space, 2))


if __name__ == "__main__":
    unittest.main(verbosity=2)
