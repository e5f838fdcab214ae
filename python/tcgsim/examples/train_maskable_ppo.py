#!/usr/bin/env python3
"""Trains sb3-contrib's MaskablePPO on one tcgsim game against the built-in random agent, then
measures the trained policy's win rate against random on fresh seeds (docs/python.md).

    pip install "./python/tcgsim[train]"
    python python/tcgsim/examples/train_maskable_ppo.py --game trails --steps 100000

It prints the training time, then the win rate (draws count half) over `--eval` games with a 95%
Wilson interval, the policy playing greedily from the mask. Seats and first player are drawn by
coin in every episode; training and evaluation seeds do not overlap.
"""

import argparse
import time

import torch
from sb3_contrib import MaskablePPO

import tcgsim
from tcgsim.gym import TcgsimEnv


def evaluate(model, game, decks, opponent, games, seed):
    """The model's score (1 a win, 0.5 a draw) over `games` fresh seeds from `seed`, playing
    greedily from the mask."""
    env = TcgsimEnv(game, decks=decks, opponent=opponent)
    score = 0.0
    for k in range(games):
        obs, info = env.reset(seed=seed + k)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, r, term, trunc, info = env.step(int(action))
            if term or trunc:
                score += (r + 1) / 2
                break
    return score


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="trails")
    p.add_argument("--decks", nargs=2, default=None, metavar=("MINE", "THEIRS"))
    p.add_argument("--opponent", default="random", help="the training and evaluation opponent")
    p.add_argument("--steps", type=int, default=100_000)
    p.add_argument("--eval", type=int, default=1000, help="evaluation games")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--save", default=None, help="save the model here")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    decks = tuple(a.decks) if a.decks else None
    env = TcgsimEnv(a.game, decks=decks, opponent=a.opponent)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048,
        batch_size=256,
        learning_rate=3e-4,
        ent_coef=0.01,
        gamma=0.995,
        policy_kwargs={"net_arch": [256, 256]},
        seed=a.seed,
        verbose=0,
    )
    t0 = time.perf_counter()
    model.learn(a.steps)
    t = time.perf_counter() - t0
    print(f"{a.game}: trained {a.steps} steps against {a.opponent} in {t:.0f} s")
    if a.save:
        model.save(a.save)
    score = evaluate(model, a.game, decks, a.opponent, a.eval, seed=10**9 + a.seed)
    lo, hi = tcgsim.wilson(score, a.eval)
    print(
        f"{a.game}: win rate against {a.opponent} {100 * score / a.eval:.1f}% "
        f"({100 * lo:.1f}–{100 * hi:.1f}%, {a.eval} games)"
    )


if __name__ == "__main__":
    main()
