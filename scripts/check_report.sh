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
# run also checks the check: a copy of the page with a script error injected must fail it.
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
# The page's full height for the screenshot: the DOM's height, read by a headless run is not
# possible without a script port, so take a generous height and let Chromium crop nothing.
timeout 120 "$CHROME" "${FLAGS[@]}" --window-size=1280,${HEIGHT:-7000} --screenshot="$OUT/report.png" "file://$PAGE" 2>/dev/null
timeout 120 "$CHROME" "${FLAGS[@]}" --no-pdf-header-footer --print-to-pdf="$OUT/report.pdf" "file://$PAGE" 2>/dev/null
for f in report.png report.pdf; do
  [ -s "$OUT/$f" ] || { echo "check_report: FAIL: $OUT/$f not written" >&2; exit 1; }
done
echo "check_report: PASS: $PAGE runs without a script error; wrote $OUT/report.png and $OUT/report.pdf"
