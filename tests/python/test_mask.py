"""The action mask is exactly the engine's legal set.

Over 1,000 random games per variant (every player count and mode; 150 in the
sanitizer build), at every decision: the actions the mask allows are the engine's own listing
(ax_legal_moves, each decision as its action number, through the C ABI), one
action per listed decision, and nothing else. At some decisions every action
outside the mask is also asked of the engine: each is refused by its rules
(ax_check) or is the same decision as an allowed action (another copy of an
identical tile, a double turned round, a wild colour that matches nothing).
The batches of VectorEnv give the same masks and observations as single games
fed the same actions, and their rows, written in part each step, are what a whole
write gives.
"""

import os
import unittest

from common import CONFIGS, axio, np, random, random_legal

# The normal build checks 1,000 games per variant; the sanitizer build, whose purpose
# there is the C library's memory use under these calls, 150 (it runs ten times slower).
GAMES_PER_VARIANT = 150 if os.environ.get("AXIO_SANITIZED") else 1000


def games_of(variant):
    """1,000 games spread over the variant's configurations (most of them 2-player)."""
    configs = CONFIGS[variant]
    share = {1: 0.1, 2: 0.5, 3: 0.15, 4: 0.25}
    plan = []
    for config in configs:
        same_players = sum(1 for c in configs if c[1] == config[1])
        plan.append((config, round(GAMES_PER_VARIANT * share[config[1]] / same_players)))
    plan[1] = (plan[1][0], plan[1][1] + GAMES_PER_VARIANT - sum(n for _, n in plan))
    return plan


class MaskIsTheLegalSet(unittest.TestCase):
    def check_variant(self, variant):
        rnd = random.Random(variant)
        games = decisions = probed = 0
        for (v, players, mode), count in games_of(variant):
            spec = axio.Spec(v, players, mode)
            for k in range(count):
                game = axio.Game(spec, seed=rnd.randrange(2**63))
                while not game.over:
                    seat = game.to_move
                    mask = game.observe(seat)["action_mask"]
                    allowed = np.flatnonzero(mask)
                    listed = game.legal_actions()
                    self.assertTrue((listed >= 0).all(), f"{v}: a listed decision has no action")
                    self.assertEqual(len(set(listed.tolist())), len(listed), f"{v}: two decisions, one action")
                    self.assertTrue(np.array_equal(np.sort(listed), allowed), f"{v} {players}p: mask != legal set")
                    self.assertEqual(game.status()["legal"], len(allowed))
                    for other in range(players):  # only the seat to move may act
                        if other != seat:
                            self.assertFalse(game.observe(other)["action_mask"].any())
                    if decisions % 97 == 0:
                        self.check_outside(game, mask, rnd)
                        probed += 1
                    game.step(random_legal(mask, rnd))
                    decisions += 1
                self.assertFalse(game.observe(0)["action_mask"].any(), "a finished game allows nothing")
                games += 1
        self.assertGreaterEqual(games, GAMES_PER_VARIANT)
        print(f"{variant}: {games} games, {decisions} decisions, {probed} probed outside the mask")

    def check_outside(self, game, mask, rnd):
        """Actions outside the mask: refused by the engine, or the same as an allowed one."""
        outside = np.flatnonzero(mask == 0)
        for a in rnd.sample(list(outside), min(200, len(outside))):
            why = game.explain(int(a))
            self.assertTrue(why, f"action {a} is outside the mask but explained as legal")
            before = game.observe(game.to_move)
            with self.assertRaises(axio.IllegalActionError):
                game.step(int(a))
            after = game.observe(game.to_move)  # a refused action changes nothing
            self.assertTrue(np.array_equal(before["observation"], after["observation"]))

    def test_square(self):
        self.check_variant("square")

    def test_rota(self):
        self.check_variant("rota")

    def test_hex(self):
        self.check_variant("hex")


class VectorRowsAreGames(unittest.TestCase):
    """VectorEnv's rows, rewards and new deals are those of single games fed the same actions,
    in both of Gymnasium's autoreset modes."""

    def test_rows(self):
        for autoreset in ("next-step", "same-step"):
            for variant, players, mode in [("square", 2, None), ("rota", 2, None), ("hex", 4, "team"), ("square", 1, None)]:
                with self.subTest(autoreset=autoreset, variant=variant, players=players):
                    self.check_rows(autoreset, variant, players, mode)

    def check_rows(self, autoreset, variant, players, mode):
        n, seed = 16, 1000
        vec = axio.VectorEnv(n, variant, players, mode, autoreset=autoreset)
        obs, info = vec.reset(seed=seed)
        games = [axio.Game(variant, players, mode, seed=seed + i) for i in range(n)]
        shown = [g.to_move for g in games]  # whose view each row shows
        next_seed = seed + n
        ended = 0
        for _ in range(300):
            for i, g in enumerate(games):
                self.assertEqual(info["seat"][i], shown[i])
                want = g.observe(shown[i])
                self.assertTrue(np.array_equal(obs["observation"][i], want["observation"]))
                self.assertTrue(np.array_equal(obs["action_mask"][i], want["action_mask"]))
            actions = vec.sample_actions()
            obs, rewards, term, trunc, info = vec.step(actions)
            self.assertFalse(trunc.any())
            for i, g in enumerate(games):
                if g.over:  # next-step: this step dealt the game anew, its action unused
                    games[i] = g = axio.Game(variant, players, mode, seed=next_seed)
                    next_seed += 1
                    shown[i] = g.to_move
                    self.assertFalse(term[i])
                    self.assertEqual(rewards[i], 0)
                    self.assertFalse(info["rewards"][i].any())
                    continue
                actor = g.to_move
                g.step(int(actions[i]))
                self.assertEqual(bool(term[i]), g.over)
                if g.over:
                    ended += 1
                    self.assertEqual(info["rewards"][i].tolist(), g.rewards())
                    self.assertEqual(rewards[i], g.rewards()[actor])
                    if autoreset == "same-step":
                        final = info["final_obs"][i]
                        self.assertTrue(np.array_equal(final["observation"], g.observe(actor)["observation"]))
                        self.assertFalse(final["action_mask"].any())
                        self.assertEqual(info["final_info"]["seat"][i], actor)
                        games[i] = g = axio.Game(variant, players, mode, seed=next_seed)
                        next_seed += 1
                        shown[i] = g.to_move
                    else:
                        shown[i] = actor  # the final position, as the seat that ended it sees it
                else:
                    shown[i] = g.to_move
                    self.assertEqual(rewards[i], 0)
                    self.assertFalse(info["rewards"][i].any())
        self.assertGreater(ended, 0)
        vec.close()


class RowsWrittenInPartAreWhole(unittest.TestCase):
    """A batch writes a row only in part each step (the board cells that changed, the mask
    directions a slot closed since): every row, at every step of many random games of every
    configuration (through game ends, swap decisions, bonus turns and new deals), is what a
    whole write gives: the observation and mask of a copy of its game (`vec.game(i)`), and
    the row of a batch loaded from the batch's saved state (whose rows are written whole)."""

    # the sanitizer build: fewer games, still long enough for 4-player games (at most about
    # 90 decisions) to end and be dealt anew
    GAMES, STEPS = (8, 120) if os.environ.get("AXIO_SANITIZED") else (24, 400)

    def test_every_configuration(self):
        rows = 0
        for variant, configs in CONFIGS.items():
            for v, players, mode in configs:
                for autoreset in ("next-step", "same-step"):
                    with self.subTest(variant=v, players=players, mode=mode, autoreset=autoreset):
                        rows += self.check(v, players, mode, autoreset)
        print(f"{rows} rows compared with a whole write")

    def check(self, variant, players, mode, autoreset):
        n = self.GAMES
        vec = axio.VectorEnv(n, variant, players, mode, autoreset=autoreset)
        obs, info = vec.reset(seed=players * 1000 + len(variant))
        rows = ended = 0
        for step in range(self.STEPS):
            for i in range(n):
                want = vec.game(i).observe(int(info["seat"][i]))
                self.assertTrue(np.array_equal(obs["observation"][i], want["observation"]), f"step {step} row {i}")
                self.assertTrue(np.array_equal(obs["action_mask"][i], want["action_mask"]), f"step {step} row {i}")
                rows += 1
            if step % 50 == 25:  # a batch from the saved state: its rows written whole
                loaded = axio.VectorEnv.load(vec.save())
                again = loaded._observations()
                self.assertTrue(np.array_equal(again["observation"], obs["observation"]))
                self.assertTrue(np.array_equal(again["action_mask"], obs["action_mask"]))
                loaded.close()
            obs, rewards, term, trunc, info = vec.step(vec.sample_actions())
            ended += int(term.sum())
        self.assertGreater(ended, 0, "no game ended: the rows of a new deal were not compared")
        vec.close()
        return rows


if __name__ == "__main__":
    unittest.main(verbosity=2)
