#!/bin/sh
# A process agent that goes wrong on purpose (tests/suite/process.rs). It answers hello, then the
# first N observations with action 0, then fails as MODE says:
#   exit     exits with status 3 (only while the file FLAG exists, when a FLAG is given)
#   garbage  writes a line that is not JSON
#   illegal  answers action 9999
#   hang     stops answering (sleeps)
#   orphan   stops answering, waiting on a child it started (no exec): its pid goes to FLAG
#   deaf     answers every observation it will ever get at once, and reads nothing more
#   flaky    the first program started (the one that makes the folder FLAG) exits at once; the
#            others answer as first.sh does
#   nohello  answers hello with a line that is not JSON (N is unused)
#   v1       answers hello with a ready of protocol 1 (no "protocol": N is unused)
#   v3       answers hello with a ready of protocol 3 (N is unused)
#   partial  writes the start of an answer with no newline, then stops answering
# Usage: bad.sh MODE N [FLAG]
mode=$1
n=${2:-0}
flag=$3
k=0
if [ "$mode" = flaky ] && mkdir "$flag" 2>/dev/null; then exit 3; fi
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      case "$mode" in
        nohello) echo 'not json' ;;
        v1) echo '{"type":"ready","name":"bad"}' ;;
        v3) echo '{"type":"ready","name":"bad","protocol":3}' ;;
        *) echo '{"type":"ready","name":"bad","protocol":2}' ;;
      esac ;;
    *'"type":"observation"'*)
      if [ "$k" -ge "$n" ]; then
        case "$mode" in
          exit) if [ -z "$flag" ] || [ -e "$flag" ]; then exit 3; fi; echo '{"action":0}' ;;
          garbage) echo 'hello world' ;;
          illegal) echo '{"action":9999}' ;;
          hang) exec sleep 30 ;;
          partial) printf '{"action": 0, "note": "thinking'; exec sleep 30 ;;
          orphan) sleep 30 & echo $! > "$flag"; wait ;;
          deaf) while :; do echo '{"action":0}'; done ;;
          *) echo '{"action":0}' ;;
        esac
      else
        echo '{"action":0}'
      fi
      k=$((k + 1)) ;;
  esac
done
