"""The computer players as policies, and SingleAgentEnv against them."""

import unittest

from common import ALL_CONFIGS, axio, np, random, random_legal


class Policies(unittest.TestCase):
    def test_decisions_are_legal(self):
        players = [axio.policy("random", seed=1), axio.policy("greedy", seed=2), axio.policy("strong", playouts=30, seed=3)]
        for variant, count, mode in ALL_CONFIGS:
            game = axio.Game(variant, count, mode, seed=31)
            turn = 0
            while not game.over:
                p = players[turn % len(players)]
                action = p.action(game)
                self.assertEqual(game.observe(game.to_move)["action_mask"][action], 1, f"{p.name} in {variant}")
                game.step(action)
                turn += 1
            with self.assertRaises(ValueError):
                players[0].action(game)

    def test_greedy_beats_random(self):
        wins = 0
        for seed in range(20):
            game = axio.Game("square", 2, seed=seed)
            seats = [axio.policy("greedy", seed=seed), axio.policy("random", seed=seed)]
            if seed % 2:
                seats.reverse()
            while not game.over:
                game.step(seats[game.to_move].action(game))
            greedy_seat = seed % 2
            wins += game.rewards()[greedy_seat] == 1.0
        self.assertGreaterEqual(wins, 16)

    def test_strong_with_playouts_is_reproducible(self):
        def play():
            game = axio.Game("hex", 2, seed=4)
            p = axio.policy("strong", playouts=40, seed=9)
            for _ in range(6):
                game.step(p.action(game))
            return game.record()
        self.assertEqual(play(), play())

    def test_every_level(self):
        """Every level of the server, by its name and the web client's, decides legally in every
        variant, playing the player the server's table names for that variant."""
        levels = axio.policy_levels()
        self.assertEqual(levels, ("random", "greedy", "strong", "expert"))
        names = list(levels) + ["Beginner", "Casual", "Strong", "Expert"]
        for name in names:
            p = axio.policy(name, playouts=20, seed=5)
            for variant in axio.VARIANTS:
                player, movetime = p.player(variant)
                self.assertTrue(axio.policy(player))  # a player of that name exists
                game = axio.Game(variant, 2, seed=17)
                for _ in range(3):
                    action = p.action(game)
                    self.assertEqual(game.observe(game.to_move)["action_mask"][action], 1, f"{name} in {variant}")
                    game.step(action)
        expert = axio.policy("expert")
        self.assertEqual([expert.player(v) for v in axio.VARIANTS],
                         [("strong-deep", 1000), ("strong-whole", 1000), ("strong-deep", 1000)])
        self.assertEqual([axio.policy("strong").player(v) for v in axio.VARIANTS],
                         [("strong-deep-early", 300), ("strong", 300), ("strong-deep-early", 300)])
        self.assertEqual(axio.policy("strong", movetime_ms=50).player("rota"), ("strong", 50))
        self.assertEqual(axio.policy("strong-deep").player("rota"), ("strong-deep", None))  # a player's own
        self.assertEqual(axio.policy("greedy").player("square"), ("greedy", None))

    def test_expert_in_a_game(self):
        """Expert at a short movetime against random: it plays whole games (and wins them)."""
        wins = 0
        for seed in range(2):
            env = axio.SingleAgentEnv("hex", 2, opponents="expert", movetime_ms=20, seat=seed % 2)
            obs, info = env.reset(seed=seed)
            rnd, done = random.Random(seed), False
            while not done:
                obs, reward, done, _, info = env.step(random_legal(obs["action_mask"], rnd))
            wins += reward == -1.0
        self.assertEqual(wins, 2)

    def test_copies(self):
        import copy
        import pickle

        p = axio.policy("expert", playouts=10, seed=4)
        for c in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
            self.assertEqual((c.name, c.playouts, c.seed), ("expert", 10, 4))
            self.assertIsNot(c._h, p._h)
        game = axio.Game("square", 2, seed=3)
        self.assertEqual(copy.deepcopy(p).action(game), axio.policy("expert", playouts=10, seed=4).action(game))
        env = axio.SingleAgentEnv("square", 2, opponents=p)
        env.reset(seed=1)
        twin = copy.deepcopy(env)
        self.assertIsNot(twin.game._h, env.game._h)

    def test_bad_policies(self):
        with self.assertRaises(ValueError) as e:
            axio.policy("alphazero")
        self.assertIn("random, greedy, strong, expert", str(e.exception))
        with self.assertRaises(TypeError):
            axio.policy(None)
        with self.assertRaises(ValueError):
            axio.policy("strong", movetime_ms=0)
        with self.assertRaises(ValueError):
            axio.policy("strong", playouts=-5)
        with self.assertRaises(TypeError):
            axio.policy("greedy").action("a game")
        view = axio.Game("square", 2, seed=1).view(0)
        with self.assertRaises(ValueError):
            axio.policy("greedy").action(view)


class SingleAgent(unittest.TestCase):
    def test_against_greedy(self):
        rnd = random.Random(2)
        for variant, players, mode in [("square", 2, None), ("rota", 3, None), ("hex", 4, "team"), ("hex", 1, None)]:
            env = axio.SingleAgentEnv(variant, players, mode, opponents="greedy", seat=None)
            for seed in range(3):
                obs, info = env.reset(seed=seed)
                seat = info["seat"]
                done, steps = False, 0
                while not done:
                    self.assertTrue(env.observation_space.contains(obs))
                    self.assertEqual(env.game.to_move, seat)
                    obs, reward, done, truncated, info = env.step(random_legal(obs["action_mask"], rnd))
                    steps += 1
                    if not done:
                        self.assertEqual(reward, 0.0)
                self.assertEqual(reward, env.game.rewards()[seat])
                self.assertIn("place", info)
                self.assertGreater(steps, 0)
                with self.assertRaises(RuntimeError):
                    env.step(0)

    def test_reproducible_and_track_rewards(self):
        def run():
            env = axio.SingleAgentEnv("square", 2, opponents=[axio.policy("greedy")], reward="tracks")
            obs, info = env.reset(seed=12)
            total, rnd, done = np.zeros(5, np.float32), random.Random(0), False
            seen = [obs["observation"].copy()]
            while not done:
                obs, reward, done, _, info = env.step(random_legal(obs["action_mask"], rnd))
                total += reward
                seen.append(obs["observation"].copy())
            self.assertTrue(np.array_equal(total, env.game.tracks()[0]))
            return seen
        a, b = run(), run()
        self.assertEqual(len(a), len(b))
        self.assertTrue(all(np.array_equal(x, y) for x, y in zip(a, b)))

    def test_bad_setups(self):
        with self.assertRaises(ValueError):
            axio.SingleAgentEnv("square", 3, opponents=["greedy"])  # two opponents needed
        with self.assertRaises(ValueError):
            axio.SingleAgentEnv("square", 2, seat=2)
        with self.assertRaises(ValueError):
            axio.SingleAgentEnv("square", 2, opponents="gnugo")


if __name__ == "__main__":
    unittest.main(verbosity=2)
