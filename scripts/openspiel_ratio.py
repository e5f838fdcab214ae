#!/usr/bin/env python3
"""OpenSpiel's C++ ISMCTS beside `tcgsim bench`, in one run on one machine: the ratio of ISMCTS
playout decisions per second (issue 17, docs/performance.md).

OpenSpiel: `pyspiel.ISMCTSBot` with a random-rollout evaluator (one rollout a simulation), 1,000
simulations a move, on mid-game Hearts decisions (random play from a seeded deal until 20 cards of
tricks are down), timed over several moves; the playout length is measured by random playouts
from resamples of the same positions. tcgsim: `tcgsim bench --csv --threads 1`, its ISMCTS row
with random playouts. Both single-threaded.

    pip install open_spiel
    cargo build --release
    python3 scripts/openspiel_ratio.py [--tcgsim target/release/tcgsim] [--seconds 24]
"""

import argparse
import csv
import io
import os
import random
import subprocess
import sys
import time

import pyspiel

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


def playout_length(state, n, rng):
    """Mean decisions of a random playout from resamples of `state` for the player to move."""
    total = 0
    for _ in range(n):
        s = state.resample_from_infostate(state.current_player(), rng.random)
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                total += 1
    return total / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tcgsim", default=os.path.join(ROOT, "target", "release", "tcgsim"))
    ap.add_argument("--seconds", type=float, default=24.0, help="tcgsim bench's budget")
    ap.add_argument("--moves", type=int, default=10, help="OpenSpiel moves timed")
    ap.add_argument("--sims", type=int, default=1000)
    a = ap.parse_args()
    game = pyspiel.load_game("hearts")
    positions = [midgame(game, seed) for seed in range(a.moves)]
    rng = random.Random(1)
    length = sum(playout_length(p, 50, rng) for p in positions) / len(positions)
    elapsed = 0.0
    for k, p in enumerate(positions):
        bot = pyspiel.ISMCTSBot(k, pyspiel.RandomRolloutEvaluator(1, k), 2.0, a.sims, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        t = time.perf_counter()
        bot.step(p)
        elapsed += time.perf_counter() - t
    sims = a.sims * len(positions) / elapsed
    os_rate = sims * length
    out = subprocess.run([a.tcgsim, "bench", "--csv", "--threads", "1", "--seconds", str(a.seconds)],
                         check=True, capture_output=True, text=True).stdout
    rows = {r["measurement"]: r for r in csv.DictReader(io.StringIO(out))}
    tc = rows["ISMCTS, random playouts"]
    tc_rate = float(tc["playout_decisions_per_s"])
    print(f"OpenSpiel {getattr(pyspiel, '__version__', '?')} C++ ISMCTS, Hearts, {a.sims} simulations "
          f"a move, {len(positions)} mid-game moves: {sims:,.0f} simulations/s x {length:.1f} decisions "
          f"a playout = {os_rate:,.0f} playout decisions/s")
    print(f"tcgsim bench (Trails, 1 thread): ISMCTS {float(tc['iterations_per_s']):,.0f} iterations/s, "
          f"{tc_rate:,.0f} playout decisions/s")
    print(f"ratio (tcgsim / OpenSpiel, playout decisions per second): {tc_rate / os_rate:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
