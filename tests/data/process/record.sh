#!/bin/sh
# A process agent in plain sh that keeps what tcgsim tells it (tests/suite/process.rs): it answers
# every observation with the first legal action, writes each hello and new_game line to FILE, and
# the seed of each new_game — a decimal string, copied as text, never as a number (sh, like jq and
# JavaScript, would round a number above 2^53) — to FILE.seeds. With `texts` it asks for the
# cards' texts in its ready.
# Usage: record.sh FILE [texts]
file=$1
texts=
if [ "$2" = texts ]; then texts=',"card_texts":true'; fi
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      printf '%s\n' "$line" >> "$file"
      echo '{"type":"ready","name":"record","protocol":2'"$texts"'}' ;;
    *'"type":"new_game"'*)
      printf '%s\n' "$line" >> "$file"
      printf '%s\n' "$line" | sed -n 's/.*"seed":"\([0-9]*\)".*/\1/p' >> "$file.seeds" ;;
    *'"type":"observation"'*) echo '{"action":0}' ;;
  esac
done
