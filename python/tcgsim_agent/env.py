"""A Gymnasium-style environment over tcgsim, with no compiled extension: tcgsim plays the game
and the opponent; this environment is the other seat's process agent, through a relay over two
named pipes (`relay.py`).

    env = TcgsimEnv(["decks/trails/aggro.deck", "decks/trails/control.deck"], opponent="heuristic")
    obs, info = env.reset()
    while True:
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        obs, reward, terminated, truncated, info = env.step(legal[0])
        if terminated:
            obs, info = env.reset()  # the next game

Episodes are the games of `tcgsim duel DECK1 DECK2 --agent <this env> --agent OPPONENT --seed
SEED --threads 1`: game k is deal k // 2, and the environment's seat alternates P1, P2 (its deck is
DECK1 as P1, and DECK2 as P2 — a duel plays each deal from both sides). The reward is +1 for a
win, -1 for a loss, 0 for a draw, given at the step that ends the game; every other step gives 0.
The same seed and the same actions give the same games.

The action space is `MAX_ACTIONS` ids; `obs["action_mask"]` marks the legal ones, which are ids
0..n-1 of `obs["legal"]` (`docs/protocol.md`). The observation is the protocol's `observation`
message (`type`, `seat`, `turn`, `view` — the seat's view as text —, `events` — the log lines
since the last decision — and `legal`, the legal actions) plus `action_mask` and `history` (every
log line of the game the seat saw). At the end of a game it is the `game_over` message (`result`,
`winner`, `ending`, `turn`, `events`) with an empty `legal`, an all-zero `action_mask` and
`history`. After `reset()`, `self.seat` is the environment's seat and `self.decks_known` both deck
lists (`new_game`'s `decks`).
"""

import errno
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from . import PROTOCOL

#: The most legal actions a decision can have in tcgsim (`core::MAX_ACTIONS`).
MAX_ACTIONS = 256


class TcgsimEnv:
    def __init__(self, decks, opponent="heuristic", seed=1, tcgsim=None, games=1_000_000,
                 game=None, move_timeout_ms=3_600_000):
        self.decks = list(decks)
        self.opponent = opponent
        self.seed = seed
        self.tcgsim = tcgsim or os.environ.get("TCGSIM", "tcgsim")
        self.games = games
        self.game = game
        self.move_timeout_ms = move_timeout_ms
        self.proc = None
        self.tx = self.rx = self.dir = None
        self.last = None
        self.history = []
        self.episodes = 0

    # ---- the Gymnasium-style interface ----

    def reset(self, seed=None, options=None):
        """Starts the next game and returns (observation, info). With `seed`, a new tcgsim run
        from that seed: its first game, so `reset(seed=s)` always gives the same game. A game in
        progress is finished first, with the first legal action at each decision (it counts in
        the duel as played)."""
        if seed is not None:
            self.close()
            self.seed = seed
        if self.proc is None:
            self._start()
        elif self.last is not None:
            # Truncated mid-game: play it out, so tcgsim reaches the next game.
            while True:
                self._send({"action": 0})
                msg = self._next(("observation", "game_over"))
                if msg["type"] == "game_over":
                    break
                self.last = msg
        self.last = None
        msg = self._next(("observation",))
        self.episodes += 1
        return self._obs(msg), {"seat": self.seat, "episode": self.episodes}

    def step(self, action):
        """Plays legal action id `action`; returns (observation, reward, terminated, truncated,
        info)."""
        if self.last is None:
            raise RuntimeError("step() before reset(), or after the game ended")
        n = len(self.last["legal"])
        if not 0 <= int(action) < n:
            raise ValueError(f"action {action} is not legal (legal ids 0..{n - 1})")
        self._send({"action": int(action)})
        msg = self._next(("observation", "game_over"))
        if msg["type"] == "game_over":
            reward = {"win": 1.0, "loss": -1.0}.get(msg["result"], 0.0)
            self.history.extend(msg.get("events", []))
            obs = dict(msg, action_mask=[0] * MAX_ACTIONS, legal=[], history=list(self.history))
            self.last = None
            return obs, reward, True, False, {"result": msg["result"], "ending": msg["ending"]}
        return self._obs(msg), 0.0, False, False, {}

    def close(self):
        """Stops tcgsim and removes the pipes. Safe to call twice, or after an error."""
        for name in ("tx", "rx"):
            f = getattr(self, name, None)
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
                setattr(self, name, None)
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None
        d = getattr(self, "dir", None)
        if d:
            shutil.rmtree(d, ignore_errors=True)
            self.dir = None
        self.last = None

    def __del__(self):
        self.close()

    # ---- the protocol ----

    def _start(self):
        self.dir = tempfile.mkdtemp(prefix="tcgsim-env-")
        to_env = os.path.join(self.dir, "to_env")
        from_env = os.path.join(self.dir, "from_env")
        os.mkfifo(to_env)
        os.mkfifo(from_env)
        relay = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relay.py")
        agent = "process:" + " ".join(shlex.quote(w) for w in (sys.executable, relay, to_env, from_env))
        cmd = [self.tcgsim, "duel", *self.decks, "--agent", agent, "--agent", self.opponent,
               "--games", str(self.games), "--seed", str(self.seed), "--threads", "1",
               "--move-timeout", str(self.move_timeout_ms), "--on-agent-error", "abort",
               "--out", os.path.join(self.dir, "out"), "--quiet"]
        if self.game:
            cmd += ["--game", self.game]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        # The relay opens FROM_ENV to read, then TO_ENV to write. Opening FROM_ENV to write
        # without blocking fails until the relay is there: waiting so, a tcgsim that stopped
        # first (a bad deck, a bad opponent) is seen instead of waited for forever.
        while True:
            try:
                fd = os.open(from_env, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as e:
                if e.errno != errno.ENXIO:
                    raise
            code = self.proc.poll()
            if code is not None:
                self.proc = None
                self.close()
                raise RuntimeError(f"tcgsim stopped before the game began (exit code {code}): "
                                   "see its message above")
            time.sleep(0.01)
        os.set_blocking(fd, True)
        self.tx = os.fdopen(fd, "w")
        self.rx = open(to_env, "r")

    def _send(self, v):
        self.tx.write(json.dumps(v) + "\n")
        self.tx.flush()

    def _next(self, kinds):
        while True:
            line = self.rx.readline()
            if not line:
                code = self.proc.wait()
                self.close()
                raise RuntimeError(f"tcgsim ended (exit code {code}): see its messages above")
            msg = json.loads(line)
            t = msg.get("type")
            if t == "hello":
                self._send({"type": "ready", "name": "env", "protocol": PROTOCOL})
            elif t == "new_game":
                self.seat = msg["seat"]
                self.decks_known = msg["decks"]
                self.history = []
            elif t in kinds:
                return msg
            # Anything else (a game_over while waiting for a new game) is skipped.

    def _obs(self, msg):
        self.last = msg
        self.history.extend(msg.get("events", []))
        mask = [0] * MAX_ACTIONS
        for a in msg["legal"]:
            mask[a["id"]] = 1
        return dict(msg, action_mask=mask, history=list(self.history))
