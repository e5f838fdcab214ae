#!/usr/bin/env bash
# Re-records the fixed-seed matrices that tests/suite/matrix.rs checks byte for byte, after a
# deliberate change of the rules, the agents or the cards, and prints how far each moved
# (scripts/compare_matchups.py). Say so, with these figures, in the commit.
#
#   scripts/rerecord_golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tmp=$(mktemp -d)
for game in trails fireforce tmnt; do
  # Trails' files have no game prefix (the first recorded); the others do.
  prefix=""; [ "$game" = trails ] || prefix="$game-"
  for spec in heuristic:2026 random:2027; do
    agent=${spec%%:*}; seed=${spec##*:}
    file="tests/data/golden/$prefix$agent-matchups.csv"
    ./target/release/tcgsim matrix --game "$game" --agent "$agent" --games 100 --seed "$seed" --out "$tmp/$game-$agent" > /dev/null 2>&1
    if [ -f "$file" ]; then
      echo "$game $agent: $(python3 scripts/compare_matchups.py "$file" "$tmp/$game-$agent/matchups.csv" | tail -1)"
    else
      echo "$game $agent: first recording"
    fi
    cp "$tmp/$game-$agent/matchups.csv" "$file"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["fingerprint"])' \
      "$tmp/$game-$agent/run.json" > "tests/data/golden/$prefix$agent-fingerprint.txt"
  done
done
