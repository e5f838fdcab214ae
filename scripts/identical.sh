#!/usr/bin/env bash
# Byte-identity check for refactors (issue 30): runs a fixed list of fixed-seed runs with one
# binary and keeps every output (files, stdout, stderr) in one folder. Run it with the binary
# before and after a change and compare the two folders:
#   scripts/identical.sh OLD_BINARY /tmp/before
#   scripts/identical.sh target/release/tcgsim /tmp/after
#   scripts/identical.sh --compare /tmp/before /tmp/after
# Run from the repository root. Wall-clock fields (elapsed seconds, dates, rates) are blanked
# in the copies compared, and said; everything else must be the same to the byte.
set -euo pipefail
if [ "${1:-}" = "--compare" ]; then
  a=$2 b=$3
  if diff -r "$a/norm" "$b/norm"; then echo "identical: every output of $(ls "$a/norm" | wc -l) runs"; exit 0; fi
  echo "DIFFERENT" >&2; exit 1
fi
bin=$(realpath "$1"); out=$2
rm -rf "$out"; mkdir -p "$out/raw"
cd "$(dirname "$0")/.."
raw=$out/raw
# run NAME ARGS...: one run, its own folder (--out where the command writes files).
run() {
  local name=$1; shift
  mkdir -p "$raw/$name"
  local rc=0
  (cd "$raw/$name" && "$bin" "$@" >stdout.txt 2>stderr.txt) || rc=$?
  echo "$rc" >"$raw/$name/rc.txt"
}
R=$(pwd)
T=$R/decks/trails F=$R/decks/fireforce M=$R/decks/tmnt Y=$R/decks/toy
run matrix-trails matrix --game trails $T/aggro.deck $T/control.deck $T/blitz.deck --games 100 --seed 7 --threads 2 --out out -q
run matrix-fireforce matrix --game fireforce $F/aggro_blitz.deck $F/blocker_wall.deck $F/ember_relay.deck --games 100 --seed 7 --threads 2 --out out -q
run matrix-tmnt matrix --game tmnt $M/fire_burn.deck $M/wind_tempo.deck $M/starter_east.deck --games 100 --seed 7 --threads 2 --out out -q
run matrix-toy matrix --game toy $Y/high.deck $Y/ladder.deck $Y/low.deck --games 200 --seed 7 --out out -q
run matrix-random matrix --game fireforce $F/aggro_blitz.deck $F/blocker_wall.deck --agent random --games 100 --seed 3 --out out --records -q
run cards-trails cards --game trails $T/aggro.deck --gauntlet $T/control.deck --gauntlet $T/blitz.deck --games 60 --seed 5 --out out -q
run cards-tmnt cards --game tmnt $M/fire_burn.deck --gauntlet $M/wind_tempo.deck --games 60 --seed 5 --out out -q
run arena arena --game trails $T/aggro.deck $T/control.deck --agent heuristic --agent random --agent 'ismcts:iters=30' --games 40 --seed 9 --out out -q
run arena-sprt arena --game toy $Y/high.deck $Y/low.deck --agent heuristic --agent random --sprt 0,50 --max-games 400 --seed 9 --out out -q
run duel duel --game fireforce $F/aggro_blitz.deck $F/blocker_wall.deck --agent heuristic --agent random --games 60 --seed 11 --out out -q
run tune tune --game toy $Y/low.deck --gauntlet $Y/high.deck --gauntlet $Y/ladder.deck --rounds 1 --check-games 200 --seed 13 --out out -q
run balance balance --game toy $Y/high.deck $Y/ladder.deck $Y/low.deck --candidates 4 --games 100 --max-games 200 --check-games 200 --seed 17 --out out -q
# A checkpointed run, interrupted (its checkpoint cut to the first chunks) and resumed.
run ckpt-full matrix --game trails $T/aggro.deck $T/control.deck --games 400 --chunk 100 --seed 19 --out out --checkpoint ck -q
mkdir -p "$raw/ckpt-resumed"; cp -r "$raw/ckpt-full/ck" "$raw/ckpt-resumed/ck"
head -n 3 "$raw/ckpt-full/ck/chunks.csv" >"$raw/ckpt-resumed/ck/chunks.csv"
run ckpt-resumed matrix --game trails $T/aggro.deck $T/control.deck --games 400 --chunk 100 --seed 19 --out out --checkpoint ck --resume -q
rm -rf "$raw/ckpt-full/ck" "$raw/ckpt-resumed/ck"
# Shards and their merge.
for i in 1 2 3; do
  run shard$i matrix --game tmnt $M/fire_burn.deck $M/wind_tempo.deck --games 300 --chunk 50 --seed 23 --shard $i/3 --out out -q
done
run merge merge "$raw/shard1/out" "$raw/shard2/out" "$raw/shard3/out" --out out -q
# A logged game and its replay.
run play play --game trails $T/aggro.deck $T/control.deck --seed 29 --log --out out -q
run replay replay "$raw/play/out/record.jsonl"
run play-ff play --game fireforce $F/aggro_blitz.deck $F/blocker_wall.deck --seed 29 --log --reveal
run play-tmnt play --game tmnt $M/fire_burn.deck $M/wind_tempo.deck --seed 29 --log --reveal
# Reports of the folders above.
for d in matrix-trails cards-trails arena arena-sprt duel tune balance merge; do
  run report-$d report "$raw/$d/out" --out "$raw/report-$d.html"
  mv "$raw/report-$d.html" "$raw/report-$d/" 2>/dev/null || true
done
run validate-trails validate $T/aggro.deck $T/control.deck
run validate-fireforce validate $F/aggro_blitz.deck
run validate-tmnt validate $M/fire_burn.deck
# The normalised copy: wall-clock and the run's own folder blanked.
cp -r "$raw" "$out/norm"
find "$out/norm" -type f \( -name '*.json' -o -name '*.txt' -o -name '*.html' -o -name '*.csv' -o -name '*.md' -o -name '*.svg' -o -name '*.jsonl' \) -print0 |
  xargs -0 sed -i -E \
    -e "s#$raw#RAW#g" \
    -e 's/("(elapsed|elapsed_s|seconds|wall_s|started|finished|date|time|games_per_second|per_second)"[[:space:]]*:[[:space:]]*)("[^"]*"|[0-9.eE+-]+)/\1X/g' \
    -e 's/[0-9]+(\.[0-9]+)? ?(s|ms|games\/s|decisions\/s)\b/N\2/g' \
    -e 's/20[0-9]{2}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+Z?/DATE/g'
# records.jsonl is written in the order chunks finish (docs/cli.md): compare it sorted.
find "$out/norm" -name records.jsonl -exec sort -o {} {} \;
echo "wrote $out ($(ls "$raw" | wc -l) runs)"
