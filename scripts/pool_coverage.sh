#!/usr/bin/env bash
# The coverage of `tcgsim pool`'s intervals on a real game (docs/statistics.md, "The whole pool
# ranked"): one long run gives each card's value; RUNS short runs on other seeds give intervals;
# prints how many of the short runs' intervals cover the long run's value (the acceptance of
# issue 31: at least 93%), over all cards and for the first and last cards of the long run.
#
#   scripts/pool_coverage.sh RUNS SHORT LONG -- POOL ARGS…
#   scripts/pool_coverage.sh 200 2000 200000 -- --cards tests/data/planted/cards.csv \
#       tests/data/planted/planted.deck tests/data/planted/plain.deck
set -euo pipefail
cd "$(dirname "$0")/.."
runs=$1 short=$2 long=$3
shift 3
[ "${1:-}" = "--" ] && shift
cargo build --release --quiet
bin=./target/release/tcgsim
work=$(mktemp -d)
"$bin" pool "$@" --games "$long" --seed 1000000 --out "$work/long" -q > /dev/null
for s in $(seq 1 "$runs"); do
  "$bin" pool "$@" --games "$short" --seed "$s" --out "$work/short-$s" -q > /dev/null
done
python3 - "$work" "$runs" <<'PY'
import csv, sys
work, runs = sys.argv[1], int(sys.argv[2])
def rows(d):
    with open(f"{d}/pool.csv") as f:
        return {r["id"]: r for r in csv.DictReader(f)}
long = {k: float(r["value"]) for k, r in rows(f"{work}/long").items() if r["value"]}
order = sorted(long, key=lambda k: -long[k])
ends = {order[0], order[-1]}
cov = tot = ecov = etot = 0
for s in range(1, runs + 1):
    for k, r in rows(f"{work}/short-{s}").items():
        if not r["value"] or k not in long:
            continue
        ok = float(r["lo"]) <= long[k] <= float(r["hi"])
        cov += ok; tot += 1
        if k in ends:
            ecov += ok; etot += 1
print(f"{cov} of {tot} intervals cover the long run's value ({100*cov/tot:.1f}%); "
      f"first and last card: {ecov} of {etot} ({100*ecov/max(etot,1):.1f}%)")
PY
rm -rf "$work"
