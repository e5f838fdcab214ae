#!/usr/bin/env bash
# Renders the report of a small run in headless Chromium (Debian's `chromium` package) to a PNG
# and a PDF, and fails on any script error on the page or in Chromium's console.
#
#   scripts/check_report.sh                  # a small matrix (GAMES=200) into a temporary folder
#   scripts/check_report.sh results          # the report of an existing run folder
#   OUT=/tmp/shots scripts/check_report.sh   # where report.png and report.pdf go (default: the run folder)
#
# How an error is seen: the page's first script records any error (and any console.error) as a
# `data-js-error` attribute of <html>, and the sort script sets `data-js-ok` when it has run;
# `--dump-dom` shows both. Chromium's console log (--enable-logging=stderr) is searched too. Every
# run also checks the check: a copy of the page with a script error injected must fail it. The
# PNG is as tall as the page (measured in a first headless pass; HEIGHT=N forces N pixels).
set -euo pipefail
cd "$(dirname "$0")/.."
CHROME=${CHROME:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROME" ]; then
  echo "check_report: chromium not found (apt-get install chromium)" >&2
  exit 2
fi
cargo build --release --quiet
TCGSIM=target/release/tcgsim
if [ $# -ge 1 ]; then
  RUN=$1
  "$TCGSIM" report "$RUN"
else
  RUN=$(mktemp -d)
  "$TCGSIM" matrix --games "${GAMES:-200}" --records --out "$RUN" --quiet >/dev/null
fi
PAGE=$(cd "$RUN" && pwd)/report.html
OUT=${OUT:-$(dirname "$PAGE")}
mkdir -p "$OUT"
FLAGS=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --enable-logging=stderr --v=0)

# Whether a page runs clean: its DOM after load carries data-js-ok and no data-js-error, and the
# console shows no error.
clean() {
  local page=$1 dom log
  dom=$(mktemp) log=$(mktemp)
  timeout 120 "$CHROME" "${FLAGS[@]}" --dump-dom "file://$page" >"$dom" 2>"$log" || true
  local html
  html=$(grep -o '<html[^>]*>' "$dom" | head -1)
  if [ -z "$html" ]; then echo "no page rendered"; rm -f "$dom" "$log"; return 1; fi
  if [[ "$html" == *data-js-error* ]]; then echo "script error: $html"; rm -f "$dom" "$log"; return 1; fi
  if [[ "$html" != *data-js-ok* ]]; then echo "the page's script did not run to its end: $html"; rm -f "$dom" "$log"; return 1; fi
  if grep -E 'Uncaught|CONSOLE\(|:ERROR:CONSOLE|SyntaxError' "$log" | grep -v 'dbus\|Fontconfig' ; then
    echo "console error"; rm -f "$dom" "$log"; return 1
  fi
  rm -f "$dom" "$log"
}

# The check itself must see an error: inject one into a copy.
BROKEN=$(mktemp --suffix=.html)
sed 's#</body>#<script>noSuchFunction();</script></body>#' "$PAGE" >"$BROKEN"
if clean "$BROKEN" >/dev/null; then
  echo "check_report: FAIL: an injected script error was not detected" >&2
  exit 1
fi
rm -f "$BROKEN"

if ! why=$(clean "$PAGE"); then
  echo "check_report: FAIL: $PAGE: $why" >&2
  exit 1
fi
# The screenshot is as tall as the page: a first pass loads a copy of the page with a tiny script
# that writes the document's scrollHeight into the DOM (at the window width of the screenshot),
# read back from --dump-dom; the screenshot is then taken with that height. HEIGHT overrides it.
WIDTH=1280
if [ -z "${HEIGHT:-}" ]; then
  MEASURE=$(mktemp --suffix=.html)
  sed 's#</body>#<script>addEventListener("load",function(){document.documentElement.setAttribute("data-height",Math.ceil(document.documentElement.scrollHeight));});</script></body>#' "$PAGE" >"$MEASURE"
  HEIGHT=$(timeout 120 "$CHROME" "${FLAGS[@]}" --window-size=$WIDTH,800 --dump-dom "file://$MEASURE" 2>/dev/null \
    | grep -o '<html[^>]*>' | head -1 | grep -o 'data-height="[0-9]*"' | grep -o '[0-9]\+' || true)
  rm -f "$MEASURE"
  if [ -z "$HEIGHT" ] || [ "$HEIGHT" -lt 100 ]; then
    echo "check_report: FAIL: could not measure the page's height" >&2
    exit 1
  fi
fi
timeout 120 "$CHROME" "${FLAGS[@]}" --window-size=$WIDTH,"$HEIGHT" --screenshot="$OUT/report.png" "file://$PAGE" 2>/dev/null
timeout 120 "$CHROME" "${FLAGS[@]}" --no-pdf-header-footer --print-to-pdf="$OUT/report.pdf" "file://$PAGE" 2>/dev/null
for f in report.png report.pdf; do
  [ -s "$OUT/$f" ] || { echo "check_report: FAIL: $OUT/$f not written" >&2; exit 1; }
done
echo "check_report: PASS: $PAGE runs without a script error; wrote $OUT/report.png and $OUT/report.pdf"
