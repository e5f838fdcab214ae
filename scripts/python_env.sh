#!/usr/bin/env bash
# Makes or refreshes the virtualenv of the Python package's tests (docs/python.md): the packages
# from PyPI, then tcgsim's own package built from this tree (`pip install ./python/tcgsim`, with
# maturin; its Rust build lives in python/tcgsim/target). `.ci/run` runs it before the tests, and
# the suite's test runs it when the virtualenv is missing.
#   scripts/python_env.sh [VENV]     (default: target/python-env; PYTHON picks the interpreter;
#                                     TCGSIM_PYTHON_PROFILE the Cargo profile of the package's
#                                     build, default release; `.ci/run` sets ci)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-target/python-env}
python=${PYTHON:-python3}
profile=${TCGSIM_PYTHON_PROFILE:-release}
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
venv=$(cd "$venv" && pwd)
# maturin's build backend runs the `maturin` of PATH: the virtualenv's.
export PATH="$venv/bin:$PATH"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
"${pip[@]}" "maturin>=1.5,<2" "numpy>=1.21" "gymnasium>=1.0,<2" "pettingzoo>=1.24,<2" "open_spiel>=1.5"
MATURIN_PEP517_ARGS="${MATURIN_PEP517_ARGS:+$MATURIN_PEP517_ARGS }--profile $profile" "${pip[@]}" --no-build-isolation ./python/tcgsim
"$venv/bin/python" -c 'import tcgsim; print("tcgsim", tcgsim.__version__, "installed in", tcgsim.__file__)'
