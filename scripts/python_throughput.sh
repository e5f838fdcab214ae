#!/usr/bin/env bash
# Environment steps per second of tcgsim's Python package beside OpenSpiel's pyspiel and RLCard,
# on one core, alternating rounds (docs/performance.md): makes the virtualenv (default
# target/bench-env: the package built from this tree, open_spiel and rlcard from PyPI), then runs
# scripts/python_throughput.py with the arguments given.
#   scripts/python_throughput.sh [--rounds 5] [--seconds 1] [--games trails,fireforce,tmnt] …
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${BENCH_ENV:-target/bench-env}
scripts/python_env.sh "$venv" >/dev/null
venv=$(cd "$venv" && pwd)
script=$PWD/scripts/python_throughput.py
"$venv/bin/python" -m pip install -q --disable-pip-version-check "rlcard>=1.2"
# Outside the tree, so that `import tcgsim` finds the installed package.
cd /tmp
exec "$venv/bin/python" "$script" "$@"
