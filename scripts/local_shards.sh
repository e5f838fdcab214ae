#!/usr/bin/env bash
# Tries the cluster path on one machine: runs N shards as the Slurm array would (one after the
# other, each with SLURM_ARRAY_TASK_ID set), merges them, and checks that the merge equals a
# single run byte for byte.
#
#   scripts/local_shards.sh [N] [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3}
games=${2:-200}
cargo build --release --quiet
bin=./target/release/tcgsim
work=$(mktemp -d)
for i in $(seq 1 "$n"); do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=$n \
    "$bin" matrix --games "$games" --out "$work/shard-$i" > /dev/null
done
"$bin" merge "$work"/shard-* --out "$work/merged" > /dev/null
"$bin" matrix --games "$games" --out "$work/single" > /dev/null
for f in matchups.csv lengths.csv matrix.csv matrix.svg; do
  cmp "$work/merged/$f" "$work/single/$f"
done
echo "merged $n shards = single run (byte-identical): $work"
