#!/usr/bin/env bash
# Instructions per decision and per ISMCTS iteration, counted by callgrind: stable across noisy
# machines, unlike times. Random and heuristic self-play (400 games of aggro vs control, seeds
# 0..399) and 1,000 ISMCTS iterations from benches/positions/midgame.scn, each net of start-up
# (the same program run with 0 games or 0 iterations).
#
#   scripts/instructions.sh            # needs valgrind (apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
cargo build --quiet --profile profiling --examples
D=target/profiling/examples
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | grep -oP 'Collected : \K[0-9]+'; }
echo "measurement,count,instructions_per_decision,instructions_per_iteration"
for m in random heuristic; do
  zero=$(ir "$D/selfplay" "$m" 0)
  dec=$("$D/selfplay" "$m" 400 | grep -oP ', \K[0-9]+(?= decisions)')
  total=$(ir "$D/selfplay" "$m" 400)
  echo "$m self-play,$dec decisions,$(( (total - zero) / dec )),"
done
for m in random heuristic; do
  zero=$(ir "$D/search_profile" 0 "$m")
  pd=$("$D/search_profile" 1000 "$m" | grep -oP 'iterations, \K[0-9]+')
  total=$(ir "$D/search_profile" 1000 "$m")
  echo "ISMCTS $m playouts,$pd playout decisions,$(( (total - zero) / pd )),$(( (total - zero) / 1000 ))"
done
