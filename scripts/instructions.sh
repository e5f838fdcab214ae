#!/usr/bin/env bash
# Instructions per decision and per ISMCTS iteration, counted by callgrind: stable across noisy
# machines, unlike times. Random and heuristic self-play (400 games of each game's bench match,
# seeds 0..399: Trails aggro vs control, Fire Force aggro_blitz vs blocker_wall, TMNT
# starter_north vs starter_east) and 1,000 Trails ISMCTS iterations from
# benches/positions/midgame.scn, each net of start-up (the same program run with 0 games or 0
# iterations).
#
#   scripts/instructions.sh            # all three games; needs valgrind (apt-get install valgrind)
#   scripts/instructions.sh fireforce  # one game's self-play only
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
cargo build --quiet --profile profiling --features tools --examples
D=target/profiling/examples
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | grep -oP 'Collected : \K[0-9]+'; }
games=${1:-trails fireforce tmnt}
echo "measurement,count,instructions_per_decision,instructions_per_iteration"
for g in $games; do
  for m in random heuristic; do
    zero=$(ir "$D/selfplay" "$g" "$m" 0)
    dec=$("$D/selfplay" "$g" "$m" 400 | grep -oP ', \K[0-9]+(?= decisions)')
    total=$(ir "$D/selfplay" "$g" "$m" 400)
    echo "$g $m self-play,$dec decisions,$(( (total - zero) / dec )),"
  done
done
[ -n "${1:-}" ] && exit 0
for m in random heuristic; do
  zero=$(ir "$D/search_profile" 0 "$m")
  pd=$("$D/search_profile" 1000 "$m" | grep -oP 'iterations, \K[0-9]+')
  total=$(ir "$D/search_profile" 1000 "$m")
  echo "ISMCTS $m playouts,$pd playout decisions,$(( (total - zero) / pd )),$(( (total - zero) / 1000 ))"
done
