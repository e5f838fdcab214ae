"""The process agent `TcgsimEnv` gives tcgsim: copies tcgsim's messages into one named pipe and
the environment's answers from another back to tcgsim. Usage: relay.py TO_ENV FROM_ENV."""

import sys
import threading


def main():
    to_env_path, from_env_path = sys.argv[1], sys.argv[2]
    # The environment opens FROM_ENV to write first (waiting until this is there), then TO_ENV
    # to read: the same order, no deadlock.
    from_env = open(from_env_path, "r")
    to_env = open(to_env_path, "w")

    def forward():
        for line in sys.stdin:
            to_env.write(line)
            to_env.flush()
        to_env.close()

    threading.Thread(target=forward, daemon=True).start()
    for line in from_env:
        sys.stdout.write(line)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
