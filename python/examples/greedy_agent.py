#!/usr/bin/env python3
"""A one-ply greedy process agent: `--agent "process:python3 python/examples/greedy_agent.py"`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tcgsim_agent import serve  # noqa: E402
from tcgsim_agent.agents import GreedyAgent  # noqa: E402

if __name__ == "__main__":
    serve(GreedyAgent())
