#!/usr/bin/env python3
"""Self-play on the PettingZoo AEC environment (docs/python.md): a MaskablePPO policy trains
against a frozen copy of itself, generation after generation; each new generation plays the last
one on the AEC environment, both seats policy-driven, and is kept when it scores above 50%.

    pip install "./python/tcgsim[train,pettingzoo]"
    python python/tcgsim/examples/self_play.py --game tmnt --generations 4 --steps 20000

It prints, per generation, the score of the new policy against the previous one (games from both
seats, draws half) and against the built-in random agent.
"""

import argparse

import torch
from sb3_contrib import MaskablePPO

from tcgsim.gym import TcgsimEnv
from tcgsim.pettingzoo import TcgsimAECEnv
from train_maskable_ppo import evaluate  # the example beside this one


def as_opponent(model):
    """A frozen policy as the Gymnasium environment's Python opponent."""

    def act(obs, mask):
        a, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(a)

    return act


def duel(game, players, games, seed):
    """Plays `players[0]` against `players[1]` on the AEC environment: the mean score of the
    first (1 a win, 0.5 a draw), seats alternating."""
    env = TcgsimAECEnv(game=game)
    score = 0.0
    for k in range(games):
        env.reset(seed=seed + k)
        # Game k: players[0] is player_0 in even games, player_1 in odd ones.
        who = {"player_0": k % 2, "player_1": 1 - k % 2}
        final = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                final[agent] = reward
                env.step(None)
                continue
            model = players[who[agent]]
            a, _ = model.predict(
                obs["observation"], action_masks=obs["action_mask"].astype(bool), deterministic=True
            )
            env.step(int(a))
        mine = "player_0" if who["player_0"] == 0 else "player_1"
        score += (final[mine] + 1) / 2
    return score / games


def random_score(game, model, games, seed):
    return evaluate(model, game, None, "random", games, seed) / games


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="tmnt")
    p.add_argument("--generations", type=int, default=4)
    p.add_argument("--steps", type=int, default=20_000, help="training steps per generation")
    p.add_argument("--games", type=int, default=200, help="evaluation games per generation")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)
    kwargs = dict(n_steps=2048, batch_size=256, ent_coef=0.01, gamma=0.995, seed=a.seed, verbose=0)
    best = MaskablePPO("MlpPolicy", TcgsimEnv(a.game, opponent="random"), **kwargs)
    best.learn(a.steps)
    print(f"generation 0: against random {100 * random_score(a.game, best, a.games, 10**6):.1f}%")
    for gen in range(1, a.generations + 1):
        env = TcgsimEnv(a.game, opponent=as_opponent(best))
        new = MaskablePPO("MlpPolicy", env, **kwargs)
        new.set_parameters(best.get_parameters())
        new.learn(a.steps)
        s = duel(a.game, (new, best), a.games, seed=10**7 * gen)
        r = random_score(a.game, new, a.games, 10**6)
        kept = s > 0.5
        print(f"generation {gen}: against the last {100 * s:.1f}%, against random {100 * r:.1f}%"
              f"{' (kept)' if kept else ' (dropped)'}")
        if kept:
            best = new


if __name__ == "__main__":
    main()
