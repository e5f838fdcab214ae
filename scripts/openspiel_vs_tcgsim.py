#!/usr/bin/env python3
"""OpenSpiel's ISMCTS against tcgsim's ISMCTS on a tcgsim game, in one run (docs/agents.md).

OpenSpiel plays the game through `python/tcgsim_agent/openspiel_game.py` (a Python OpenSpiel game
over `tcgsim serve`); tcgsim's agent moves through the same server (`choose`), so both search the
same states and neither sees a hidden card (each determinizes for itself). Both use random
rollouts. The script measures each one's simulations per second, then plays two matches, each
deal from both seats: at equal simulations per move (is tcgsim's ISMCTS as strong as an
independent implementation of the same algorithm?) and at equal time per move.

    pip install open_spiel            # then, from the repository root:
    cargo build --release
    python3 scripts/openspiel_vs_tcgsim.py --game tmnt --games 40

OpenSpiel's C++ ISMCTSBot is not used: open_spiel 1.5 and 1.6.1 cannot resample a Python game's
state, and in 1.6.15 and 2.0.2 (pip, Python 3.11) every C++ bot crashes (segmentation fault) on
every Python game, OpenSpiel's own python_tic_tac_toe included. OpenSpiel's Python ISMCTSBot
(open_spiel.python.algorithms.ismcts, "adapted from the C++ implementation") plays instead.
"""

import argparse
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

try:
    import numpy as np  # noqa: E402  (installed with open_spiel)
    import pyspiel  # noqa: E402
    from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
except ImportError as e:
    sys.exit(
        f"{e}: this script needs OpenSpiel (and numpy, which it installs): "
        "python3 -m venv /tmp/os-venv && /tmp/os-venv/bin/pip install open_spiel, "
        "then run it with /tmp/os-venv/bin/python"
    )

from tcgsim_agent.openspiel_game import register  # noqa: E402

DECKS = {
    "trails": ("decks/trails/aggro.deck", "decks/trails/control.deck"),
    "fireforce": ("decks/fireforce/aggro_blitz.deck", "decks/fireforce/reaction_control.deck"),
    "tmnt": ("decks/tmnt/starter_north.deck", "decks/tmnt/starter_east.deck"),
}


def paired_interval(scores, z=1.959964):
    """95% interval of the mean score over deals: games 2d and 2d + 1 play one deal from both
    seats, so they are not independent; the deal's mean score is the unit (t interval, its
    quantile by the Cornish-Fisher expansion)."""
    pairs = [(scores[i] + scores[i + 1]) / 2 for i in range(0, len(scores) - 1, 2)]
    n = len(pairs)
    if n < 2:
        return float("nan"), float("nan")
    m = sum(pairs) / n
    var = sum((x - m) ** 2 for x in pairs) / (n - 1)
    df = n - 1
    t = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
    h = t * math.sqrt(var / n)
    return max(0.0, m - h), min(1.0, m + h)


def openspiel_bot(game, sims, seed):
    rs = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims, random_state=rs)


def positions(game, n, seed):
    """`n` positions with a real choice, from random play of fresh games."""
    rng = np.random.RandomState(seed)
    out = []
    k = 0
    while len(out) < n:
        s = game.new_initial_state(seed=10_000 + k)
        k += 1
        steps = rng.randint(0, 30)
        for _ in range(steps):
            if s.is_terminal():
                break
            s.apply_action(int(rng.randint(len(s.legal_actions()))))
        if not s.is_terminal() and len(s.legal_actions()) > 1:
            out.append(s)
    return out


def rates(game, model, sims, seed):
    """Simulations per second of each, over the same positions."""
    pos = positions(game, 5, seed)
    t = time.perf_counter()
    for s in pos:
        openspiel_bot(game, sims, seed).step(s)
    os_rate = sims * len(pos) / (time.perf_counter() - t)
    iters = sims * 50
    t = time.perf_counter()
    for s in pos:
        s.tcgsim_choose(f"ismcts:iters={iters},playout=random", seed)
    tc_rate = iters * len(pos) / (time.perf_counter() - t)
    model.retain([])
    return os_rate, tc_rate


def match(game, model, games, os_sims, tc_spec, seed, label):
    """Games `2d` and `2d + 1` play deal `d` with OpenSpiel as P1, then P2; P1 moves first."""
    scores = []
    wins = [0, 0, 0]
    t0 = time.perf_counter()
    for k in range(games):
        os_seat = k % 2
        s = game.new_initial_state(seed=seed + k // 2)
        bot = openspiel_bot(game, os_sims, seed + k)
        n = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            if len(legal) == 1:
                a = legal[0]
            elif s.current_player() == os_seat:
                a = bot.step(s)
            else:
                a = s.tcgsim_choose(tc_spec, seed * 1_000_003 + k * 1000 + n)
            s.apply_action(a)
            n += 1
            model.retain([s])
        r = s.returns()[os_seat]
        scores.append((r + 1) / 2)
        wins[0 if r > 0 else (1 if r < 0 else 2)] += 1
        print(f"  {label} game {k + 1}/{games}: OpenSpiel as P{os_seat + 1} "
              f"{'won' if r > 0 else 'lost' if r < 0 else 'drew'} ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr, flush=True)
    lo, hi = paired_interval(scores)
    return wins, sum(scores) / games, lo, hi


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="tmnt", choices=sorted(DECKS))
    ap.add_argument("--decks", nargs=2, help="two deck files (default: two bundled decks)")
    ap.add_argument("--games", type=int, default=40, help="games per match (even)")
    ap.add_argument("--sims", type=int, default=50, help="simulations per move, equal-simulations match")
    ap.add_argument("--ms", type=int, default=200, help="time per move, equal-time match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tcgsim", default=os.path.join(ROOT, "target", "release", "tcgsim"))
    a = ap.parse_args()
    os.chdir(ROOT)
    register(tcgsim=a.tcgsim)
    d1, d2 = a.decks or DECKS[a.game]
    game = pyspiel.load_game("python_tcgsim", {"deck1": d1, "deck2": d2, "game": a.game})
    model = game.model
    print(f"{a.game}: {d1} vs {d2}; open_spiel {getattr(pyspiel, '__version__', '?')}, "
          f"OpenSpiel's Python ISMCTSBot (uct_c 2, random rollouts) vs tcgsim ismcts (c 0.7, playout=random)")
    os_rate, tc_rate = rates(game, model, a.sims, a.seed)
    print(f"simulations per second (5 positions): OpenSpiel {os_rate:,.0f}, tcgsim {tc_rate:,.0f} "
          f"({tc_rate / os_rate:,.0f}x)")
    rows = []
    w, p, lo, hi = match(game, model, a.games, a.sims, f"ismcts:iters={a.sims},playout=random",
                         a.seed, "equal simulations")
    rows.append((f"equal simulations ({a.sims} a move)", w, p, lo, hi))
    os_sims = max(1, round(os_rate * a.ms / 1000))
    w, p, lo, hi = match(game, model, a.games, os_sims, f"ismcts:ms={a.ms},playout=random",
                         a.seed + 1_000_000, "equal time")
    rows.append((f"equal time ({a.ms} ms a move: OpenSpiel {os_sims} simulations)", w, p, lo, hi))
    for name, w, p, lo, hi in rows:
        print(f"{name}: OpenSpiel won {w[0]}, tcgsim won {w[1]}, draws {w[2]} of {a.games}; "
              f"OpenSpiel's score {100 * p:.1f}% (95% interval over deals {100 * lo:.1f}–{100 * hi:.1f}%)")
    model.close()


if __name__ == "__main__":
    main()
