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
for spec in heuristic:2026 random:2027; do
  agent=${spec%%:*}; seed=${spec##*:}
  ./target/release/tcgsim matrix --agent "$agent" --games 100 --seed "$seed" --out "$tmp/$agent" > /dev/null 2>&1
  echo "$agent: $(python3 scripts/compare_matchups.py "tests/data/golden/$agent-matchups.csv" "$tmp/$agent/matchups.csv")"
  cp "$tmp/$agent/matchups.csv" "tests/data/golden/$agent-matchups.csv"
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["fingerprint"])' \
    "$tmp/$agent/run.json" > "tests/data/golden/$agent-fingerprint.txt"
done
