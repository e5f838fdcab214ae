#!/usr/bin/env python3
"""OpenSpiel's C++ ISMCTS beside `tcgsim bench`, alternated over several rounds in one run on one
machine: the ratio of ISMCTS playout decisions per CPU second (issues 17 and 33,
docs/performance.md).

What is timed. Each round times both sides, in turn (OpenSpiel first in rounds 1, 3, 5, ...,
tcgsim first in the others), by process CPU time, so that load from other processes on a shared
machine slows neither side's figure:
- OpenSpiel: `pyspiel.ISMCTSBot` with a random-rollout evaluator (one rollout a simulation), 1,000
  simulations a move, on `--moves` mid-game Hearts decisions (random play from seeded deals until
  20 cards of tricks are down); `time.process_time()` of this process around the bots' `step`
  calls (the search runs in C++ on this thread; building the bots is outside the timing).
- tcgsim: `tcgsim bench --csv --threads 1`, its row "ISMCTS, random playouts" (Trails). The bench
  times that row by wall clock; the script measures the child's CPU time (`getrusage` of the
  children before and after) and its wall time, and rescales the row's rate by the child's
  wall/CPU ratio. That assumes the child's share of a core was even over its run (the run is
  single-threaded: with one thread the bench makes no all-thread rows). The raw wall-clock rate
  is printed beside it.

What "a playout decision" is, on both sides: a decision made by the rollout policy after the
search left its tree (after the node it added this iteration), to the end of the game. Decisions
made while descending the tree are not counted on either side. tcgsim's `playout_decisions`
counts exactly those (`Tree::iterate` in src/agents/mcts.rs adds the `n` that `playout` returns).
OpenSpiel's rollouts are C++ and report no count, so the script measures their length with
OpenSpiel's Python ISMCTS (`open_spiel.python.algorithms.ismcts`, "adapted from the C++
implementation": same selection, one node added an iteration, the evaluator called on the state of
the new node, terminal states returned without a rollout) with a counting evaluator, on the same
positions with the same settings, outside the timing: the mean, over all simulations, of the
decisions left in the game at the state handed to the evaluator (in Hearts' play phase there are
no chance nodes, so that is the number of decisions the rollout makes). The former script
(issue 17) multiplied OpenSpiel's simulations by the length of a whole random game from the root,
which counted the tree descent too, while tcgsim's figure never did; that made OpenSpiel's rate
look higher and the ratio lower than counting alike. Both figures per round are printed.

    python3 -m venv /tmp/ratio-venv && /tmp/ratio-venv/bin/pip install open_spiel
    cargo build --release
    /tmp/ratio-venv/bin/python scripts/openspiel_ratio.py [--rounds 7] [--seconds 6] [--moves 40]
"""

import argparse
import csv
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import time

try:
    import pyspiel
except ImportError as e:
    sys.exit(
        f"{e}: this script needs OpenSpiel: python3 -m venv /tmp/ratio-venv && "
        "/tmp/ratio-venv/bin/pip install open_spiel, then run it with /tmp/ratio-venv/bin/python"
    )

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def midgame(game, seed, cards_down=20):
    """A Hearts decision after `cards_down` cards of tricks, by random play from deal `seed`."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    played = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
            continue
        if played >= cards_down:
            break
        s.apply_action(rng.choice(s.legal_actions()))
        # Cards count once the state shows tricks (after the passing phase).
        if "Tricks" in str(s):
            played += 1
    return s


def decisions_left(state, rng):
    """Decisions of a random playout from `state` to the end of the game (on a copy)."""
    s = state.clone()
    n = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
    return n


class CountingRollout:
    """A random-rollout evaluator for OpenSpiel's Python ISMCTS that counts rollout decisions."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.calls = 0
        self.decisions = 0

    def evaluate(self, state):
        s = state.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(self.rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(self.rng.choice(s.legal_actions()))
                self.decisions += 1
        self.calls += 1
        return s.returns()

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def rollout_length(game, positions, sims):
    """Mean rollout decisions per simulation of OpenSpiel's ISMCTS (Python port) on `positions`,
    and the mean decisions left at the root (what the old script counted per simulation)."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    ev = CountingRollout(7)
    total_sims = 0
    rng = random.Random(1)
    root = 0
    for k, p in enumerate(positions):
        bot = ismcts.ISMCTSBot(game, ev, 2.0, sims, random_state=np.random.RandomState(k),
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.step(p)
        total_sims += sims
        root += decisions_left(p, rng)
    return ev.decisions / total_sims, root / len(positions), ev.calls / total_sims


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_openspiel(positions, sims, seed):
    """(simulations, CPU seconds) of the C++ ISMCTS over `positions`."""
    cpu = 0.0
    for k, p in enumerate(positions):
        bot = pyspiel.ISMCTSBot(seed + k, pyspiel.RandomRolloutEvaluator(1, seed + k), 2.0, sims,
                                -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        t = time.process_time()
        bot.step(p)
        cpu += time.process_time() - t
    return sims * len(positions), cpu


def time_tcgsim(exe, seconds):
    """(row, CPU-based playout decisions/s, wall-clock playout decisions/s, child CPU s, wall s)."""
    c0, w0 = child_cpu(), time.perf_counter()
    out = subprocess.run([exe, "bench", "--csv", "--threads", "1", "--seconds", str(seconds)],
                         check=True, capture_output=True, text=True).stdout
    cpu, wall = child_cpu() - c0, time.perf_counter() - w0
    rows = {r["measurement"]: r for r in csv.DictReader(io.StringIO(out))}
    row = rows["ISMCTS, random playouts"]
    wall_rate = float(row["playout_decisions_per_s"])
    return row, wall_rate * wall / cpu, wall_rate, cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tcgsim", default=os.path.join(ROOT, "target", "release", "tcgsim"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=6.0,
                    help="tcgsim bench's budget a round (its ISMCTS row gets a quarter)")
    ap.add_argument("--moves", type=int, default=40, help="OpenSpiel moves timed a round")
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--count-moves", type=int, default=None,
                    help="positions on which the rollout length is counted (Python ISMCTS; "
                         "default: all the timed ones)")
    a = ap.parse_args()
    if a.count_moves is None:
        a.count_moves = a.moves
    if a.rounds < 1 or a.moves < 1 or a.count_moves < 1:
        ap.error("--rounds, --moves and --count-moves must be at least 1")
    game = pyspiel.load_game("hearts")
    positions = [midgame(game, seed) for seed in range(a.moves)]
    t = time.process_time()
    length, root_left, evals = rollout_length(game, positions[:a.count_moves], a.sims)
    print(f"OpenSpiel {getattr(pyspiel, '__version__', '?')}, Hearts, {a.sims} simulations a move, "
          f"{a.moves} mid-game moves a round. Rollout decisions a simulation (counted with the "
          f"Python ISMCTS on {min(a.count_moves, a.moves)} of the positions, "
          f"{time.process_time() - t:.1f} s): {length:.2f} "
          f"({evals:.3f} rollouts a simulation; {root_left:.1f} decisions left at the root, "
          f"the old count)")
    print(f"tcgsim: `bench --csv --threads 1 --seconds {a.seconds:g}`, its ISMCTS row with random "
          f"playouts (Trails); its playout decisions exclude the tree descent too")
    print("round  first     OpenSpiel sims/s  OS playout dec/s  tcgsim it/s  tcgsim dec/s (CPU)"
          "  (wall)      ratio")
    ratios = []
    for i in range(a.rounds):
        order = ["os", "tc"] if i % 2 == 0 else ["tc", "os"]
        for side in order:
            if side == "os":
                sims, cpu = time_openspiel(positions, a.sims, 1000 * (i + 1))
            else:
                row, tc_rate, tc_wall, tc_cpu, tc_wall_s = time_tcgsim(a.tcgsim, a.seconds)
        os_sims = sims / cpu
        os_rate = os_sims * length
        ratio = tc_rate / os_rate
        ratios.append(ratio)
        print(f"{i + 1:>5}  {'OpenSpiel' if order[0] == 'os' else 'tcgsim':<9} "
              f"{os_sims:>16,.0f}  {os_rate:>16,.0f}  {float(row['iterations_per_s']):>11,.0f}  "
              f"{tc_rate:>18,.0f}  {tc_wall:>10,.0f}  {ratio:>6.2f}x   "
              f"(OpenSpiel {cpu:.2f} CPU s; tcgsim {tc_cpu:.2f} CPU s in {tc_wall_s:.2f} s)")
        sys.stdout.flush()
    print(f"ratio (tcgsim / OpenSpiel, rollout decisions per CPU second) over {a.rounds} rounds: "
          f"median {statistics.median(ratios):.2f}x, range {min(ratios):.2f}-{max(ratios):.2f}x")


if __name__ == "__main__":
    sys.exit(main())
