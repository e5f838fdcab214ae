#!/usr/bin/env bash
# Overnight run on one machine: every bundled deck against every deck with checkpoints, so the run
# can be stopped (Ctrl-C, reboot) and started again with the same command; it continues where it
# stopped and its CSV is byte-identical to an uninterrupted run.
#
#   scripts/overnight.sh [GAMES_PER_MATCHUP] [AGENT] [OUT]
#   scripts/overnight.sh 200000 heuristic results/overnight
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200000}
agent=${2:-heuristic}
out=${3:-results/overnight}
cp="$out/checkpoint"
cargo build --release --quiet
resume=()
if [ -f "$cp/chunks.csv" ]; then resume=(--resume); fi
exec ./target/release/tcgsim matrix --games "$games" --agent "$agent" --out "$out" \
  --checkpoint "$cp" "${resume[@]}"
