"""The AEC environment: reset(seed=) reproduces a game, the turn order, rewards,
terminations and bad input, with or without PettingZoo installed."""

import unittest

from common import ALL_CONFIGS, axio, np, random, random_legal


def play(env, rnd, actions=None):
    """Plays to the end; returns the observations seen and the actions taken."""
    seen, taken = [], []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seen.append((agent, obs["observation"].copy(), obs["action_mask"].copy()))
        action = actions[len(taken)] if actions else random_legal(obs["action_mask"], rnd)
        taken.append(action)
        env.step(action)
    return seen, taken


class Reset(unittest.TestCase):
    def test_seed_reproduces_a_game(self):
        for variant, players, mode in ALL_CONFIGS:
            a, b = axio.env(variant, players, mode), axio.env(variant, players, mode)
            a.reset(seed=2024)
            seen_a, taken = play(a, random.Random(1))
            b.reset(seed=2024)
            seen_b, _ = play(b, None, taken)
            self.assertEqual(len(seen_a), len(seen_b))
            for (x, ox, mx), (y, oy, my) in zip(seen_a, seen_b):
                self.assertEqual(x, y)
                self.assertTrue(np.array_equal(ox, oy) and np.array_equal(mx, my))
            a.reset(seed=2024)  # the same env again
            seen_c, _ = play(a, None, taken)
            self.assertTrue(all(np.array_equal(p[1], q[1]) for p, q in zip(seen_a, seen_c)))
            a.reset(seed=2025)
            self.assertFalse(np.array_equal(a.observe(a.agent_selection)["observation"], seen_a[0][1]))

    def test_unseeded_resets_follow_the_seed(self):
        a, b = axio.env("hex", 2), axio.env("hex", 2)
        a.reset(seed=5)
        b.reset(seed=5)
        for _ in range(3):
            a.reset()
            b.reset()
            self.assertEqual(a.game.status()["seed"], b.game.status()["seed"])
        c = axio.env("hex", 2)
        c.reset()
        d = axio.env("hex", 2)
        d.reset()
        self.assertNotEqual(c.game.status()["seed"], d.game.status()["seed"])

    def test_bad_seeds(self):
        env = axio.env("square", 2)
        for bad in (-1, 2**64, 1.5, "7", True):
            with self.assertRaises((ValueError, TypeError)):
                env.reset(seed=bad)
        env.reset(seed=2**64 - 1)


class Play(unittest.TestCase):
    def test_turns_rewards_terminations(self):
        rnd = random.Random(3)
        for variant, players, mode in ALL_CONFIGS:
            env = axio.env(variant, players, mode)
            env.reset(seed=rnd.randrange(2**63))
            self.assertEqual(env.agents, [f"player_{s}" for s in range(players)])
            totals = dict.fromkeys(env.agents, 0.0)
            last_agent, steps = None, 0
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                totals[agent] += reward
                if term:
                    env.step(None)
                    continue
                self.assertEqual(agent, f"player_{env.game.to_move}")
                self.assertTrue(env.observation_space(agent).contains(obs))
                if not term:
                    self.assertEqual(reward, 0.0)
                env.step(random_legal(obs["action_mask"], rnd))
                steps += 1
            self.assertEqual(env.agents, [])
            rewards = env.game.rewards()
            self.assertEqual([totals[f"player_{s}"] for s in range(players)], rewards)
            if mode == "solo":
                self.assertTrue(0 <= rewards[0] <= 1)
            elif mode == "team":
                self.assertEqual(rewards[0], rewards[2])
                self.assertEqual(rewards[1], rewards[3])
                self.assertAlmostEqual(sum(rewards), 0.0, places=5)
            else:
                self.assertAlmostEqual(sum(rewards), 0.0, places=5)  # zero-sum by places
                self.assertTrue(-1 <= min(rewards) and max(rewards) <= 1)
                places = env.game.status()["places"]
                for s in range(players):  # a better place never earns less
                    for t in range(players):
                        if places[s] < places[t]:
                            self.assertGreater(rewards[s], rewards[t])

    def test_track_rewards_add_up_to_the_tracks(self):
        rnd = random.Random(4)
        for variant, players, mode in [("square", 2, None), ("rota", 3, None), ("hex", 4, "team"), ("hex", 1, None)]:
            env = axio.env(variant, players, mode, reward="tracks")
            env.reset(seed=9)
            totals = {a: np.zeros(env.game_spec.ncolors, np.float32) for a in env.agents}
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                self.assertEqual(reward.shape, (env.game_spec.ncolors,))
                totals[agent] += reward
                env.step(None if term else random_legal(obs["action_mask"], rnd))
            tracks = env.game.tracks()
            for s in range(players):
                self.assertTrue(np.array_equal(totals[f"player_{s}"], tracks[s]), f"{variant} seat {s}")

    def test_illegal_actions_change_nothing(self):
        env = axio.env("square", 2)
        env.reset(seed=1)
        before = env.observe("player_0")
        mask = before["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        for bad, error in ((illegal, axio.IllegalActionError), (-1, axio.IllegalActionError),
                           (len(mask), axio.IllegalActionError), (1.0, TypeError), ("3", TypeError),
                           (None, TypeError)):
            with self.assertRaises(error):
                env.step(bad)
            after = env.observe("player_0")
            self.assertTrue(np.array_equal(before["observation"], after["observation"]))
            self.assertEqual(env.agent_selection, "player_0")
        for bad in (illegal, 10**6, -1):  # one sentence each, the action named once
            with self.assertRaises(axio.IllegalActionError) as e:
                env.step(bad)
            self.assertEqual(str(e.exception).count(str(bad)), 1, str(e.exception))
            self.assertEqual(str(e.exception).count("axio:"), 1)
        env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are actions too
        self.assertEqual(env.game.status()["ply"], 1)

    def test_before_reset(self):
        env = axio.env("hex", 2)
        for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.last(), env.record):
            with self.assertRaises(RuntimeError) as e:
                call()
            self.assertIn("reset()", str(e.exception))

    def test_bad_configurations(self):
        for args in [("chess", 2, None), ("square", 0, None), ("square", 5, None), ("square", 1, "standard"),
                     ("square", 2, "solo"), ("square", 4, "team"), ("hex", 3, "team"), ("hex", 2, "duo"),
                     ("hex", True, None), ("hex", 2.0, None)]:
            with self.assertRaises(ValueError, msg=str(args)):
                axio.env(*args)
        with self.assertRaises(ValueError):
            axio.env("hex", 2, reward="money")
        with self.assertRaises(ValueError):
            axio.env("hex", 2, render_mode="rgb_array")

    def test_render_and_spaces(self):
        env = axio.env("hex", 2, render_mode="ansi")
        env.reset(seed=3)
        text = env.render()
        self.assertIn("seat 0:", text)
        self.assertIn("to move: seat 0", text)
        spec = env.game_spec
        self.assertEqual(env.action_space("player_0").n, spec.num_actions)
        self.assertIs(env.action_space("player_0"), env.action_space("player_0"))
        self.assertIsNot(env.action_space("player_0"), env.action_space("player_1"))
        parts = spec.split(env.observe("player_0")["observation"])
        self.assertEqual(parts["board"].shape, (9, 11, 11))
        self.assertEqual(int(parts["rack"].sum()), 12)  # six tiles, two halves each
        self.assertEqual(parts["seat"].tolist(), [1, 0])
        self.assertEqual(parts["phase"].tolist(), [1, 0, 0, 0])


class Descriptions(unittest.TestCase):
    def test_describe_matches_engine_cells(self):
        game = axio.Game("square", 2, seed=8)
        mask = game.observe(0)["action_mask"]
        for a in np.flatnonzero(mask)[:50]:
            d = game.describe(int(a))
            (r0, c0), (r1, c1) = d["cells"]
            self.assertEqual(abs(r0 - r1) + abs(c0 - c1), 1)
            self.assertTrue(all(2 <= v <= 10 for v in (r0, c0, r1, c1)))  # the 9x9 area
        spec = axio.Spec("square", 2)
        self.assertEqual(spec.describe(spec.swap_action), {"kind": "keep"})
        self.assertEqual(spec.describe(spec.swap_action + 1), {"kind": "swap"})
        rota = axio.Game("rota", 2, seed=8)
        a = int(np.flatnonzero(rota.observe(0)["action_mask"])[0])
        self.assertEqual(rota.describe(a)["kind"], "place")
        self.assertIsNotNone(rota.describe(a)["cell"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
