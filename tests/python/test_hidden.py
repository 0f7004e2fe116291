"""An observation is the seat's own view: never another seat's tiles, the bag or the seed.

At decisions of random games in every configuration, for every seat:
- the observation of the game equals the observation of the seat's view of it
  (ax_view: every tile the seat cannot see replaced by an unknown tile, no seed);
- two deals that differ only in tiles the seat cannot see (the game, and the
  game with those tiles dealt anew from another seed) give the seat identical
  observations and masks; the redeals really differ (their hidden tiles and
  seed), and what happens next differs too;
- as a control that the comparison can fail, a redeal made for another seat
  (which changes this seat's rack when that seat cannot see it) does change
  this seat's observation.

Copies, pickles and loaded games and environments show the same: what a copied,
pickled or loaded AEC environment or VectorEnv hands a seat is that seat's view of
the original game; a copied or loaded redeal shows the seat what the game showed it;
and a view's pickle and saved state are the same text for two deals that differ only
in what the seat cannot see, so they carry nothing hidden. (A game dealt from a seed
pickles as its seed and decisions: that holds every tile, as docs/python.md says.)
"""

import copy
import pickle
import unittest

from common import ALL_CONFIGS, axio, np, play_random, random


def same(a, b):
    return np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])


class HiddenTilesStayHidden(unittest.TestCase):
    def test_views_and_redeals(self):
        rnd = random.Random(5)
        compared = redeals_differ = controls = 0
        for variant, players, mode in ALL_CONFIGS:
            for k in range(12):
                game = axio.Game(variant, players, mode, seed=rnd.randrange(2**63))
                play_random(game, rnd, until=rnd.randrange(40))
                if game.over:
                    continue
                for seat in range(players):
                    mine = game.observe(seat)
                    self.assertTrue(same(mine, game.view(seat).observe(seat)), f"{variant}: view differs")
                    for s in range(3):
                        other = game.redeal(seat, rnd.randrange(2**63))
                        self.assertTrue(same(mine, other.observe(seat)), f"{variant} {players}p: a redeal shows")
                        self.assertNotEqual(other.status()["seed"], game.status()["seed"])
                        redeals_differ += not np.array_equal(other.tiles(), game.tiles())
                        compared += 1
                    if players > 1:  # the control: a redeal for someone else moves this seat's tiles
                        for s in range(5):
                            other = game.redeal((seat + 1) % players, rnd.randrange(2**63))
                            if not same(mine, other.observe(seat)):
                                controls += 1
                                break
        print(f"{compared} redeals compared, {redeals_differ} with other hidden tiles, {controls} controls")
        self.assertGreater(redeals_differ, compared * 0.8)
        self.assertGreater(controls, 100)

    def test_futures_differ(self):
        """The same actions from two redeals lead to different games: the hidden tiles are real."""
        rnd = random.Random(6)
        differ = 0
        for variant in ("square", "rota", "hex"):
            for k in range(10):
                game = axio.Game(variant, 2, seed=rnd.randrange(2**63))
                play_random(game, rnd, until=4)
                seat = game.to_move
                a, b = game.redeal(seat, 1), game.redeal(seat, 2)
                for _ in range(20):
                    if a.over or b.over or a.to_move != b.to_move:
                        break
                    mask_a = a.observe(a.to_move)["action_mask"]
                    if not np.array_equal(mask_a, b.observe(b.to_move)["action_mask"]):
                        break
                    action = int(np.flatnonzero(mask_a)[0])
                    a.step(action)
                    b.step(action)
                differ += not same(a.observe(seat), b.observe(seat))
        self.assertGreater(differ, 20)

    def test_no_seed_in_observation(self):
        """Two games with the same deal for seat 0 but other seeds look the same to it."""
        for variant, players, mode in ALL_CONFIGS:
            game = axio.Game(variant, players, mode, seed=77)
            other = game.redeal(0, 78)
            self.assertTrue(same(game.observe(0), other.observe(0)))
            self.assertNotEqual(game.status()["seed"], other.status()["seed"])

    def test_view_is_not_played_on(self):
        view = axio.Game("square", 2, seed=3).view(0)
        action = int(np.flatnonzero(view.observe(0)["action_mask"])[0])
        with self.assertRaises(axio.IllegalActionError):
            view.step(action)
        with self.assertRaises(ValueError):
            view.record()


class CopiesShowOnlyTheSeatsView(unittest.TestCase):
    def test_envs(self):
        rnd = random.Random(7)
        checked = 0
        for variant, players, mode in ALL_CONFIGS:
            env = axio.env(variant, players, mode)
            env.reset(seed=rnd.randrange(2**63))
            for _ in range(rnd.randrange(1, 30)):
                obs, _, term, _, _ = env.last()
                if term:
                    break
                env.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
            if not env.agents or env.terminations[env.agent_selection]:
                continue
            for c in (copy.copy(env), copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
                for seat, agent in enumerate(env.possible_agents):
                    self.assertTrue(same(c.observe(agent), env.game.view(seat).observe(seat)))
                    checked += 1
        self.assertGreater(checked, 50)

    def test_vector_rows(self):
        vec = axio.VectorEnv(8, "hex", 2)
        vec.reset(seed=3)
        for _ in range(17):
            vec.step(vec.sample_actions())
        for c in (copy.deepcopy(vec), pickle.loads(pickle.dumps(vec)), axio.VectorEnv.load(vec.save())):
            for i in range(8):
                seat = int(vec._seat[i])
                row = {"observation": c._obs[i], "action_mask": c._mask[i]}
                self.assertTrue(same(row, vec.game(i).view(seat).observe(seat)))

    def test_redeals_and_views(self):
        rnd = random.Random(8)
        for variant, players, mode in ALL_CONFIGS:
            game = axio.Game(variant, players, mode, seed=rnd.randrange(2**63))
            play_random(game, rnd, until=rnd.randrange(1, 25))
            if game.over:
                continue
            for seat in range(players):
                other = game.redeal(seat, rnd.randrange(2**63))
                mine = game.observe(seat)
                for c in (copy.deepcopy(other), pickle.loads(pickle.dumps(other)), axio.Game.load(other.save())):
                    self.assertTrue(same(mine, c.observe(seat)))
                # a view's saved state and pickle: the same for both deals, so nothing hidden
                self.assertEqual(game.view(seat).save(), other.view(seat).save())
                self.assertEqual(pickle.dumps(game.view(seat)), pickle.dumps(other.view(seat)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
