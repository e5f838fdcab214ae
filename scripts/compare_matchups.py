#!/usr/bin/env python3
"""How far one matrix run moved from another: reads two `matchups.csv` files (same decks) and
prints, per matchup, the change of the row deck's win rate in points and in standard errors of the
difference (sqrt(p1(1-p1)/n1 + p2(1-p2)/n2)), then the largest and mean absolute changes and the
sum of squared z-scores (about chi-square with one degree of freedom per matchup when nothing but
sampling noise differs: its expectation is the number of matchups).

    scripts/compare_matchups.py OLD/matchups.csv NEW/matchups.csv [--all]
"""
import csv
import math
import sys


def read(path):
    rows = {}
    with open(path, newline="") as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines):
        games = int(r["games"])
        if games == 0:
            continue
        score = int(r["wins"]) + 0.5 * int(r["draws"])
        turns = int(r["turns"])
        rows[(r["row_deck"], r["col_deck"])] = (games, score / games, turns / games)
    return rows


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    old, new = read(args[0]), read(args[1])
    keys = sorted(set(old) & set(new))
    if not keys:
        print("no matchup in common", file=sys.stderr)
        sys.exit(2)
    deltas = []
    for k in keys:
        (n1, p1, t1), (n2, p2, t2) = old[k], new[k]
        se = math.sqrt(max(p1 * (1 - p1), 1e-9) / n1 + max(p2 * (1 - p2), 1e-9) / n2)
        d = p2 - p1
        deltas.append((k, d, d / se, t2 - t1))
    chi2 = sum(z * z for _, _, z, _ in deltas)
    if "--all" in sys.argv:
        for (r, c), d, z, dt in deltas:
            print(f"{r:>16} vs {c:<16} {100 * d:+6.1f} pts  z {z:+5.2f}  turns {dt:+5.2f}")
    big = max(deltas, key=lambda x: abs(x[1]))
    mean = sum(abs(d) for _, d, _, _ in deltas) / len(deltas)
    mean_turns = sum(dt for _, _, _, dt in deltas) / len(deltas)
    print(
        f"{len(deltas)} matchups: mean |change| {100 * mean:.1f} pts; largest "
        f"{100 * big[1]:+.1f} pts ({big[0][0]} vs {big[0][1]}, z {big[2]:+.2f}); "
        f"sum of z^2 {chi2:.1f} (about {len(deltas)} between independent runs; the same seeds give less); "
        f"mean change of game length {mean_turns:+.2f} turns"
    )


if __name__ == "__main__":
    main()
