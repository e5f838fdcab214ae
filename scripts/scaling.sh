#!/usr/bin/env bash
# Multi-core scaling of a heuristic matrix of the bundled Trails decks (49 matchups): the same run
# at 1, 2, 4, … threads (up to the cores this machine has), the thread counts alternating within
# each round, so that a slow spell of a shared host falls on every count alike. One CSV line per
# run — wall and CPU seconds (/usr/bin/time), the cores kept busy (CPU ÷ wall), games per second —
# then per thread count the median games per second and its speed-up over one thread. Every run
# must write the same counts (the seed fixes the games whatever the threads); the script checks it.
#
#   scripts/scaling.sh [GAMES_PER_MATCHUP] [ROUNDS] [THREADS...]   # defaults: 1000 3 "1 2 4 … nproc"
#   TCGSIM=path/to/tcgsim scripts/scaling.sh …                      # a binary carried to a cluster node
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
rounds=${2:-3}
shift $(( $# > 2 ? 2 : $# ))
if [ $# -gt 0 ]; then counts="$*"; else
  counts=""; t=1; n=$(nproc)
  while [ "$t" -lt "$n" ]; do counts="$counts $t"; t=$((t * 2)); done
  counts="$counts $n"
fi
bin=${TCGSIM:-target/release/tcgsim}
[ -n "${TCGSIM:-}" ] || cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total=$((49 * games))
first=$(echo $counts | cut -d' ' -f1)
{
echo "round,threads,wall_s,cpu_s,busy_cores,games_per_s"
for r in $(seq 1 "$rounds"); do
  for t in $counts; do
    /usr/bin/time -f "%e %U %S" -o "$out/time" \
      "$bin" matrix --games "$games" --seed 9 --threads "$t" --quiet --out "$out/m$t" >/dev/null
    read -r wall user sys < "$out/time"
    if [ "$t" != "$first" ] && ! cmp -s "$out/m$t/matchups.csv" "$out/m$first/matchups.csv"; then
      echo "threads $t wrote other counts than $first thread(s)" >&2; exit 1
    fi
    awk -v r="$r" -v t="$t" -v w="$wall" -v u="$user" -v s="$sys" -v n="$total" \
      'BEGIN { printf "%d,%d,%.2f,%.2f,%.2f,%.0f\n", r, t, w, u + s, (u + s) / w, n / w }'
  done
done
} | tee "$out/runs.csv"
echo
echo "threads,median_games_per_s,speedup_over_first"
python3 - "$out/runs.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(int(r["threads"]), []).append(float(r["games_per_s"]))
base = statistics.median(by[min(by)])
for t in sorted(by):
    m = statistics.median(by[t])
    print(f"{t},{m:.0f},{m / base:.2f}")
PY
