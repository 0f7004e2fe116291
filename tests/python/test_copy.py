"""Copies and pickles never share the C game, and continue exactly as the original.

For Game, the AEC environment and VectorEnv, at random points of 100 games each:
copy.copy, copy.deepcopy, a pickle round trip and save()/load() (and for a Game its
record through Game.from_record) are made, the original and every copy are then played
on side by side with the same actions, and everything they show must agree: observations
and masks of every seat, rewards, terminations, the seat to move, the records. The
original is deleted before the copies finish, so a copy that still pointed at its C game
would crash or diverge.
"""

import copy
import gc
import pickle
import unittest

from common import ALL_CONFIGS, axio, np, random, random_legal

GAMES = 100


def copies_of_game(g):
    return {
        "copy.copy": copy.copy(g),
        "deepcopy": copy.deepcopy(g),
        "pickle": pickle.loads(pickle.dumps(g)),
        "save/load": axio.Game.load(g.save()),
        "from_record": axio.Game.from_record(g.record()),
        "copy()": g.copy(),
    }


def copies_of(obj):
    return {
        "copy.copy": copy.copy(obj),
        "deepcopy": copy.deepcopy(obj),
        "pickle": pickle.loads(pickle.dumps(obj)),
    }


class GameCopies(unittest.TestCase):
    def same_game(self, a, b, what):
        self.assertEqual(a.to_move, b.to_move, what)
        for seat in range(a.spec.players):
            x, y = a.observe(seat), b.observe(seat)
            self.assertTrue(np.array_equal(x["observation"], y["observation"]), what)
            self.assertTrue(np.array_equal(x["action_mask"], y["action_mask"]), what)
        self.assertEqual(a.rewards(), b.rewards(), what)
        sa, sb = a.status(), b.status()
        self.assertTrue(np.array_equal(sa.pop("tracks"), sb.pop("tracks")), what)
        self.assertEqual(sa, sb, what)
        self.assertTrue(np.array_equal(a.tiles(), b.tiles()), what)

    def test_round_trips(self):
        rnd = random.Random(48)
        for k in range(GAMES):
            variant, players, mode = ALL_CONFIGS[k % len(ALL_CONFIGS)]
            game = axio.Game(variant, players, mode, seed=rnd.randrange(2**63))
            for _ in range(rnd.randrange(60)):
                if game.over:
                    break
                game.step(random_legal(game.observe(game.to_move)["action_mask"], rnd))
            copies = copies_of_game(game)
            for name, c in copies.items():
                self.same_game(game, c, f"{variant} {players}p game {k}: {name}")
            record = game.record()
            actions = []
            while not game.over:
                a = random_legal(game.observe(game.to_move)["action_mask"], rnd)
                actions.append(a)
                game.step(a)
                for name, c in copies.items():
                    c.step(a)
                    self.same_game(game, c, f"{variant} {players}p game {k}: {name}")
            final = game.record()
            del game
            gc.collect()
            for name, c in copies.items():  # nothing of the original is needed any more
                self.assertEqual(c.record(), final, name)
                self.assertTrue(final.startswith(record.rsplit('{"ev":"end"', 1)[0]))

    def test_views_and_redeals(self):
        rnd = random.Random(49)
        for k in range(GAMES):
            variant, players, mode = ALL_CONFIGS[k % len(ALL_CONFIGS)]
            game = axio.Game(variant, players, mode, seed=rnd.randrange(2**63))
            for _ in range(rnd.randrange(30)):
                if game.over:
                    break
                game.step(random_legal(game.observe(game.to_move)["action_mask"], rnd))
            if game.over:
                continue
            seat = rnd.randrange(players)
            view, redeal = game.view(seat), game.redeal(seat, rnd.randrange(2**63))
            for original in (view, redeal):
                for name, c in dict(copies_of(original), load=axio.Game.load(original.save())).items():
                    self.same_game(original, c, f"{variant} {players}p game {k}: {name}")
            # a redeal plays on, and so do its copies
            copies = dict(copies_of(redeal), load=axio.Game.load(redeal.save()))
            for _ in range(20):
                if redeal.over:
                    break
                a = random_legal(redeal.observe(redeal.to_move)["action_mask"], rnd)
                redeal.step(a)
                for name, c in copies.items():
                    c.step(a)
                    self.same_game(redeal, c, f"redeal {k}: {name}")
            view_copy = pickle.loads(pickle.dumps(view))
            with self.assertRaises(axio.IllegalActionError):  # still a view
                view_copy.step(int(np.flatnonzero(view.observe(view.to_move)["action_mask"])[0]))

    def test_bad_states(self):
        game = axio.Game("hex", 2, seed=8)
        game.step(int(np.flatnonzero(game.observe(0)["action_mask"])[0]))
        state = game.save()
        for bad, why in (
            ("", "not JSON"),
            ("[1]", "JSON object"),
            (state.replace('"axio-state/1"', '"axio-state/9"'), "format"),
            (state.replace('"hex"', '"octagon"'), "variant"),
            (state.replace('"decisions":[', '"decisions":[999999,'), "decision 0"),
            (state.replace('"seed":"8"', '"seed":8'), "seed"),
            (axio.Game("hex", 2, seed=8).view(0).save().replace('"state":"', '"state":"AAAA'), "damaged"),
            (axio.Game("hex", 2, seed=8).view(0).save().replace('"engine":"ax_game/', '"engine":"other/'),
             "engine layout"),
        ):
            with self.assertRaises(ValueError) as e:
                axio.Game.load(bad)
            self.assertIn(why, str(e.exception))
            self.assertEqual(str(e.exception).count("cannot load"), 1)
        with self.assertRaises(TypeError):
            axio.Game.load(12)
        for bad, why in (
            ("", "empty"),
            ('{"ev":"start","format":"axio-record/1","variant":"hex","players":2,"mode":"standard"}', "no seed"),
            (game.record().replace('"ev":"place"', '"ev":"plaice"', 1), "line"),
        ):
            with self.assertRaises(ValueError) as e:
                axio.Game.from_record(bad)
            self.assertIn(why, str(e.exception))


class EnvCopies(unittest.TestCase):
    def last(self, env):
        obs, reward, term, trunc, info = env.last()
        return env.agent_selection, obs, reward, term, trunc, info

    def same_env(self, a, b, what):
        x, y = self.last(a), self.last(b)
        self.assertEqual(x[0], y[0], what)
        self.assertTrue(np.array_equal(x[1]["observation"], y[1]["observation"]), what)
        self.assertTrue(np.array_equal(x[1]["action_mask"], y[1]["action_mask"]), what)
        self.assertEqual(x[2:], y[2:], what)
        self.assertEqual(a.agents, b.agents, what)
        self.assertEqual(a.rewards, b.rewards, what)
        self.assertEqual(a.terminations, b.terminations, what)

    def test_round_trips(self):
        rnd = random.Random(50)
        for k in range(GAMES):
            variant, players, mode = ALL_CONFIGS[k % len(ALL_CONFIGS)]
            env = axio.env(variant, players, mode)
            env.reset(seed=rnd.randrange(2**63))
            for _ in range(rnd.randrange(60)):
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    break
                env.step(random_legal(obs["action_mask"], rnd))
            copies = copies_of(env)
            while env.agents:
                for name, c in copies.items():
                    self.same_env(env, c, f"{variant} {players}p game {k}: {name}")
                obs, _, term, trunc, _ = env.last()
                a = None if term or trunc else random_legal(obs["action_mask"], rnd)
                env.step(a)
                for c in copies.values():
                    c.step(a)
            record = env.record()
            env.reset()  # the seed generator is copied too: the next deal is the same
            first = env.observe(env.agent_selection)
            del env
            gc.collect()
            for name, c in copies.items():
                self.assertEqual(c.agents, [])
                self.assertEqual(c.record(), record, name)
                c.reset()
                self.assertTrue(np.array_equal(c.observe(c.agent_selection)["observation"], first["observation"]), name)

    def test_before_reset(self):
        env = axio.env("hex", 2)
        for c in copies_of(env).values():
            with self.assertRaises(RuntimeError) as e:
                c.step(0)
            self.assertIn("reset()", str(e.exception))
        with self.assertRaises(RuntimeError):
            env.observe("player_0")


class VectorCopies(unittest.TestCase):
    def test_round_trips(self):
        rnd = random.Random(51)
        for autoreset in ("next-step", "same-step"):
            for variant, players in (("hex", 2), ("square", 3), ("rota", 2)):
                vec = axio.VectorEnv(8, variant, players, autoreset=autoreset)
                vec.reset(seed=rnd.randrange(2**63))
                ended = 0
                while ended < GAMES:
                    for _ in range(rnd.randrange(40)):
                        ended += int(vec.step(vec.sample_actions())[2].sum())
                    copies = dict(copies_of(vec), load=axio.VectorEnv.load(vec.save()))
                    for _ in range(60):
                        actions = vec.sample_actions()
                        want = vec.step(actions)
                        ended += int(want[2].sum())
                        for name, c in copies.items():
                            self.assertTrue(np.array_equal(c.sample_actions(), actions), name)  # the generator too
                            got = c.step(actions)
                            what = f"{variant} {autoreset}: {name}"
                            for key in ("observation", "action_mask"):
                                self.assertTrue(np.array_equal(got[0][key], want[0][key]), what)
                            for k in (1, 2, 3):
                                self.assertTrue(np.array_equal(got[k], want[k]), what)
                            self.assertTrue(np.array_equal(got[4]["seat"], want[4]["seat"]), what)
                            self.assertTrue(np.array_equal(got[4]["rewards"], want[4]["rewards"]), what)
                            self.assertEqual(sorted(got[4]), sorted(want[4]), what)
                    for c in copies.values():
                        c.close()
                saved = vec.save()
                vec.close()
                self.assertGreaterEqual(ended, GAMES)
                loaded = axio.VectorEnv.load(saved)
                loaded.step(loaded.sample_actions())

    def test_pickles_cross_processes(self):
        """What multiprocessing does (Ray, SubprocVecEnv): a pickled VectorEnv and AEC env go to
        another process, play on there, and come back showing what the originals show."""
        import multiprocessing

        vec = axio.VectorEnv(8, "hex", 2)
        vec.reset(seed=12)
        env = axio.env("square", 3)
        env.reset(seed=13)
        with multiprocessing.get_context("fork").Pool(1) as pool:
            vec_back, env_back = pool.apply(_play_elsewhere, (vec, env, 40))
        _play_elsewhere(vec, env, 40)
        self.assertTrue(np.array_equal(vec_back._obs, vec._obs))
        self.assertTrue(np.array_equal(vec_back.sample_actions(), vec.sample_actions()))
        self.assertEqual(env_back.agent_selection, env.agent_selection)
        self.assertTrue(np.array_equal(env_back.observe(env.agent_selection)["observation"],
                                       env.observe(env.agent_selection)["observation"]))
        self.assertEqual(env_back.record(), env.record())

    def test_copy_after_close_and_bad_states(self):
        vec = axio.VectorEnv(2, "hex", 2)
        vec.reset(seed=1)
        state = vec.save()
        with self.assertRaises(ValueError) as e:
            axio.VectorEnv.load(state.replace('"next_seed":"', '"next_seed":"x'))
        self.assertIn("cannot load the VectorEnv", str(e.exception))
        with self.assertRaises(ValueError):
            axio.VectorEnv.load(axio.Game("hex", 2, seed=1).save())
        vec.close()
        with self.assertRaises(RuntimeError):
            copy.deepcopy(vec)


def _play_elsewhere(vec, env, steps):
    """Steps a VectorEnv and an AEC env (random legal actions from their own generators and a
    fixed one) and returns them: in another process, they travel as pickles both ways."""
    rnd = random.Random(steps)
    for _ in range(steps):
        vec.step(vec.sample_actions())
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else random_legal(obs["action_mask"], rnd))
        if not env.agents:
            env.reset()
    return vec, env


if __name__ == "__main__":
    unittest.main(verbosity=2)
