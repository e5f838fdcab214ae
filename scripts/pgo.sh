#!/usr/bin/env bash
# Optional: a profile-guided build of tcgsim (rustc's -Cprofile-generate / -Cprofile-use), trained on
# heuristic and random matrices and an ISMCTS duel of every game. Needs the llvm-profdata that
# matches rustc's LLVM: `rustup component add llvm-tools` (Debian's llvm is older than rustc's and
# cannot read its profiles). The plain `cargo build --release` stays the build; this writes
# target/pgo/release/tcgsim beside it. docs/performance.md says what it measured.
#
#   scripts/pgo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sysroot=$(rustc --print sysroot)
profdata=$(ls "$sysroot"/lib/rustlib/*/bin/llvm-profdata 2>/dev/null | head -1)
[ -x "$profdata" ] || { echo "llvm-profdata not found: rustup component add llvm-tools" >&2; exit 2; }
data=$(mktemp -d)
runs=$(mktemp -d)
trap 'rm -rf "$data" "$runs"' EXIT
# RUSTFLAGS replaces .cargo/config.toml's flags, so the CPU level it sets on x86-64 is repeated here.
cpu=""
[ "$(uname -m)" = x86_64 ] && cpu="-Ctarget-cpu=x86-64-v2"
# 1. An instrumented build, in its own target folder.
RUSTFLAGS="$cpu -Cprofile-generate=$data" cargo build --release --quiet --target-dir target/pgo-gen
gen=target/pgo-gen/release/tcgsim
# 2. Training: what users run most.
for g in trails fireforce tmnt; do
  for a in heuristic random; do
    "$gen" matrix --game "$g" --agent "$a" --games 200 --seed 5 --quiet --out "$runs" >/dev/null
  done
done
"$gen" duel --agent ismcts:iters=300 --agent ismcts:iters=300,playout=random --games 8 --seed 5 \
  --quiet --out "$runs" decks/trails/aggro.deck decks/trails/control.deck >/dev/null
"$gen" duel --agent ismcts:iters=300 --agent heuristic --games 8 --seed 5 --quiet --out "$runs" \
  decks/fireforce/aggro_blitz.deck decks/fireforce/blocker_wall.deck >/dev/null
"$gen" duel --agent ismcts:iters=300 --agent heuristic --games 8 --seed 5 --quiet --out "$runs" \
  decks/tmnt/starter_north.deck decks/tmnt/starter_east.deck >/dev/null
# 3. The profile, then the optimised build.
"$profdata" merge -o "$runs/merged.profdata" "$data"
RUSTFLAGS="$cpu -Cprofile-use=$runs/merged.profdata" cargo build --release --quiet --target-dir target/pgo
echo "wrote target/pgo/release/tcgsim"
