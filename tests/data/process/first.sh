#!/bin/sh
# A process agent in plain sh (docs/protocol.md): answers hello with ready and every observation
# with the first legal action (id 0). The tests use it where python3 may be absent.
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*) echo '{"type":"ready","name":"first-legal","protocol":2}' ;;
    *'"type":"observation"'*) echo '{"action":0}' ;;
  esac
done
