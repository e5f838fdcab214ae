#!/usr/bin/env python3
"""Environment steps per second, side by side, on one core (docs/performance.md, issue 32).

Each round times every side for about `--seconds` of process CPU time, in turn, so that the
sides alternate over the rounds and share whatever else the machine does; the script prints every
round and then each side's median and range.

Sides (all take uniformly random legal actions; a step is one decision of a player):
- tcgsim `Env.step_random()`: one game, the action drawn in Rust, observation not read;
- tcgsim `Env.learner_step`: one game, the action drawn in Python from `legal_ids()` (as the
  pyspiel side draws from `legal_actions()`), the observation vector and the mask returned every
  step;
- tcgsim gymnasium `TcgsimEnv.step`: the same through Gymnasium's API (`legal_ids()`, then `step`
  returning observation, reward, flags and the info dict with the mask); the opponent's decisions,
  in Rust, are not counted as steps;
- tcgsim `VecEnv.step(None)`: `--batch` games a call (one side per batch size: 64, 256 and 1,024
  by default, since the arrays of a few hundred rows no longer fit the processor's cache), actions
  drawn in Rust, every row's observation and mask written;
- OpenSpiel `pyspiel` (C++ games): `state.apply_action(random.choice(state.legal_actions()))`,
  chance nodes sampled and not counted; once raw, once reading `observation_tensor()` each step;
- RLCard (`uno`, `doudizhu`, `leduc-holdem`): `env.step(random legal action)`, which returns the
  next player's observation.

Run: scripts/python_throughput.sh (makes the virtualenv), or this file with a python that has
tcgsim, open_spiel and rlcard (a side whose library is missing is reported and skipped).
"""

import argparse
import os
import random
import statistics
import sys
import time


def pin_one_core():
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        return True
    except (AttributeError, OSError):
        return False


def timed(fn, seconds):
    """Runs fn(k) for growing k until `seconds` of CPU time; returns steps per CPU second."""
    k, steps, t = 256, 0, 0.0
    while t < seconds:
        t0 = time.process_time()
        steps += fn(k)
        t += time.process_time() - t0
        k = min(k * 2, 1 << 20)
    return steps / t


# ---- tcgsim ----

def tcgsim_raw(game):
    import tcgsim

    env = tcgsim.Env(game, tcgsim.DEFAULT_DECKS[game], opponent="random")
    seed = [0]
    env.reset(0)

    def run(k):
        n = 0
        step, reset = env.step_random, env.reset
        while n < k:
            if step() is None:
                seed[0] += 1
                reset(seed[0])
            else:
                n += 1
        return n

    return run


def tcgsim_core(game):
    import tcgsim

    env = tcgsim.Env(game, tcgsim.DEFAULT_DECKS[game], opponent="random")
    rng = random.Random(0)
    env.reset(0)

    def run(k):
        n = 0
        step, ids = env.learner_step, env.legal_ids
        while n < k:
            legal = ids()
            _, _, r = step(int(legal[rng.randrange(len(legal))]))
            n += 1
            if r is not None:
                env.reset(rng.randrange(1 << 62))
        return n

    return run


def tcgsim_gym(game):
    from tcgsim.gym import TcgsimEnv

    env = TcgsimEnv(game, opponent="random")
    rng = random.Random(0)
    env.reset(seed=0)

    def run(k):
        n = 0
        while n < k:
            legal = env.legal_ids()
            _, _, term, trunc, _ = env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
            if term or trunc:
                env.reset()
        return n

    return run


def tcgsim_vec(game, batch):
    import tcgsim

    v = tcgsim.VecEnv(game, tcgsim.DEFAULT_DECKS[game], batch, 0, None, "random")
    v.reset()

    def run(k):
        n = 0
        while n < k:
            v.step(None)
            n += batch
        return n

    return run


# ---- OpenSpiel ----

def spiel(name, tensor):
    import pyspiel

    game = pyspiel.load_game(name)
    if tensor and not game.get_type().provides_observation_tensor:
        raise ValueError(f"{name} has no observation tensor")
    rng = random.Random(0)
    box = [game.new_initial_state()]

    def run(k):
        n = 0
        s = box[0]
        while n < k:
            if s.is_terminal():
                s = game.new_initial_state()
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if tensor:
                s.observation_tensor(s.current_player())
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        box[0] = s
        return n

    return run


# ---- RLCard ----

def rlcard_env(name):
    import rlcard

    env = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)
    box = [env.reset()[0]]

    def run(k):
        n = 0
        state = box[0]
        while n < k:
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(rng.choice(legal))
            n += 1
            if env.is_over():
                state = env.reset()[0]
        box[0] = state
        return n

    return run


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per side and round")
    p.add_argument("--batch", default="64,256,1024",
                   help="games per VecEnv call: one side per number, comma-separated")
    p.add_argument("--games", default="trails,fireforce,tmnt")
    p.add_argument("--spiel", default="leduc_poker,hearts")
    p.add_argument("--rlcard", default="uno,doudizhu,leduc-holdem")
    a = p.parse_args()
    pinned = pin_one_core()
    sides = []
    for g in a.games.split(","):
        sides += [
            (f"tcgsim {g} Env.step_random", lambda g=g: tcgsim_raw(g)),
            (f"tcgsim {g} Env.learner_step", lambda g=g: tcgsim_core(g)),
            (f"tcgsim {g} gymnasium step", lambda g=g: tcgsim_gym(g)),
        ]
        sides += [
            (f"tcgsim {g} VecEnv x{b}", lambda g=g, b=b: tcgsim_vec(g, b))
            for b in map(int, a.batch.split(","))
        ]
    for name in filter(None, a.spiel.split(",")):
        sides += [
            (f"pyspiel {name}", lambda n=name: spiel(n, False)),
            (f"pyspiel {name} +observation_tensor", lambda n=name: spiel(n, True)),
        ]
    for name in filter(None, a.rlcard.split(",")):
        sides.append((f"rlcard {name}", lambda n=name: rlcard_env(n)))
    runs = {}
    for label, make in sides:
        try:
            runs[label] = make()
        except Exception as e:  # a library not installed, a game it does not have
            print(f"SKIPPED {label}: {type(e).__name__}: {e}", file=sys.stderr)
    print(f"# python {sys.version.split()[0]}; one core: {pinned}; {a.rounds} rounds of "
          f"{a.seconds} CPU s per side; steps per CPU second")
    results = {label: [] for label in runs}
    for r in range(a.rounds):
        for label, run in runs.items():
            sps = timed(run, a.seconds)
            results[label].append(sps)
            print(f"round {r + 1}  {label:42s} {sps:14,.0f}", flush=True)
    print("\n| side | median steps/s | range |\n|---|---:|---|")
    for label, v in results.items():
        print(f"| {label} | {statistics.median(v):,.0f} | {min(v):,.0f}–{max(v):,.0f} |")


if __name__ == "__main__":
    main()
