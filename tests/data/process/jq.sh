#!/bin/sh
# A process agent in sh and jq, as the protocol's readers write them (tests/suite/process.rs):
# every message is read with jq; it answers hello with ready (protocol 2) and each observation
# with its first legal id, and writes each new_game's seed, as jq reads it (`.seed`, raw), to FILE.
# Usage: jq.sh FILE
file=$1
while IFS= read -r line; do
  case $(printf '%s\n' "$line" | jq -r .type) in
    hello) echo '{"type":"ready","name":"jq","protocol":2}' ;;
    new_game) printf '%s\n' "$line" | jq -r .seed >> "$file" ;;
    observation) printf '%s\n' "$line" | jq -c '{action: .legal[0].id}' ;;
  esac
done
