"""Trains a player against the `greedy` computer player, with numpy only.

    PYTHONPATH=python /usr/bin/python3 python/examples/train_vs_greedy.py [--games N]

The agent sits at a random seat of a 2-player `square` game (AXIO) against
greedy (SingleAgentEnv). For each legal action it plays the action on a copy
of the game (Game.copy: its own decision; the hidden tiles stay where they are
and are never observed) and reads its own observation afterwards. A few
features of that afterstate (each side's tracks sorted ascending, as the rules
rank them, their sums, a bias) give the action a score, w . features, and the
policy is the softmax of the scores over the legal actions. It learns by
REINFORCE: after each game, every decision's log-probability moves up in
proportion to how much the game's result beat the running average; the result
is the ranking reward (+1 win, -1 loss, 0 tie) plus the margin of its lowest
track over greedy's, out of 18 (a narrow loss beats a wide one, which gives a
signal from the first game on).

Before and after training it plays evaluation games (seeds apart from the
training seeds), taking its best-scored action, and prints its win rate
against greedy. A starting point: richer features (the observation's board
planes, with a network) are the next step.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import axio  # noqa: E402


def features(spec, observation):
    """Each side's tracks sorted ascending (own side first) and their sums, scaled; a bias."""
    tracks = spec.split(observation)["tracks"].astype(np.float32) / 18.0
    return np.concatenate([np.sort(tracks, axis=1).ravel(), tracks.sum(axis=1) / 5, [1.0]])


class AfterstateAgent:
    """A softmax policy over the legal actions, each scored by its afterstate's features."""

    def __init__(self, env, rng):
        self.env, self.rng = env, rng
        self.w = np.zeros(env.game_spec.sides * (env.game_spec.ncolors + 1) + 1)

    def act(self, obs, explore=True):
        """An action (drawn from the policy, or its best when not exploring) and its gradient."""
        game, seat, spec = self.env.game, self.env.seat, self.env.game_spec
        legal = np.flatnonzero(obs["action_mask"])
        after = []
        for action in legal:
            trial = game.copy()
            trial.step(int(action))
            after.append(features(spec, trial.observe(seat)["observation"]))
        after = np.array(after)
        logits = after @ self.w
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(self.rng.choice(len(legal), p=p)) if explore else int(self.rng.choice(np.flatnonzero(p == p.max())))
        return int(legal[k]), after[k] - p @ after  # d log p_k / d w

    def learn(self, gradients, advantage, lr):
        for g in gradients:
            self.w += lr * advantage * g


def play(env, agent, seed, explore):
    """One game; returns its ranking reward, the learning target and the chosen afterstates."""
    obs, info = env.reset(seed=seed)
    chosen, done = [], False
    while not done:
        action, phi = agent.act(obs, explore)
        chosen.append(phi)
        obs, reward, done, truncated, info = env.step(action)
    lowest = info["tracks"].min(axis=1)  # each seat's lowest track at the end
    margin = (lowest[info["seat"]] - np.delete(lowest, info["seat"]).max()) / 18.0
    return reward, reward + margin, chosen


def evaluate(env, agent, games):
    return np.mean([play(env, agent, 10**9 + g, explore=False)[0] == 1.0 for g in range(games)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300, help="training games")
    ap.add_argument("--eval", type=int, default=200, help="evaluation games before and after")
    ap.add_argument("--lr", type=float, default=1.0)
    args = ap.parse_args()
    env = axio.SingleAgentEnv("square", players=2, opponents="greedy", seat=None)
    agent = AfterstateAgent(env, np.random.default_rng(0))
    print(f"before: wins against greedy {evaluate(env, agent, args.eval):.1%}", flush=True)
    start, wins, baseline = time.time(), 0, None
    for game in range(args.games):
        reward, target, gradients = play(env, agent, game, explore=True)
        baseline = target if baseline is None else 0.95 * baseline + 0.05 * target
        agent.learn(gradients, target - baseline, args.lr)
        wins += reward == 1.0
        if (game + 1) % 100 == 0:
            print(f"game {game + 1}: {wins} of the last 100 won ({time.time() - start:.0f} s)", flush=True)
            wins = 0
    print(f"after {args.games} games: wins against greedy {evaluate(env, agent, args.eval):.1%}")
    print("weights (own tracks low to high, greedy's, own sum, greedy's sum, bias):", np.round(agent.w, 2))


if __name__ == "__main__":
    main()
