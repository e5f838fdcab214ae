"""tcgsim's games as OpenSpiel games, so OpenSpiel's own bots (ISMCTS, MCTS, …) play them.

The rules stay in tcgsim: `tcgsim serve DECK1 DECK2` keeps the states and answers `new`, `apply`,
`resample` (a determinization for one seat: every card it cannot see redealt), `info` (the
engine's information-state string for a seat: exact enough to key a search, and finer than what a
player knows, as it names card slots), `view` (what a seat sees, as text), `choose` (a tcgsim
agent's move) and `card_text`, one JSON line each (docs/protocol.md, "The model server"). The
server opens with a `hello` line (protocol 2, the game, both deck lists), which `Model` checks and
keeps as `model.hello`; seeds go to it as decimal strings. A state here is a handle to one of the server's states;
states there never change. OpenSpiel clones a Python state by making a new initial state and
overwriting its fields, so each clone leaves a state in the server: call `game.model.retain([...])`
with the states still in use after each move.

    import pyspiel
    from tcgsim_agent.openspiel_game import register
    register(tcgsim="target/release/tcgsim")
    game = pyspiel.load_game("python_tcgsim", {"deck1": "decks/tmnt/starter_north.deck",
                                               "deck2": "decks/tmnt/starter_east.deck"})
    from open_spiel.python.algorithms import ismcts, mcts
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), 2.0, 100)
    state = game.new_initial_state(seed=1)
    state.apply_action(bot.step(state))
    game.model.retain([state])   # frees every other server state: the search's, the clones'

Shuffles are folded into the server (a game's seed decides its deck order): the game is
`SAMPLED_STOCHASTIC` with no explicit chance nodes. Actions are the ids of `docs/protocol.md`
(0..n-1 in the engine's order; `MAX_ACTIONS` distinct). Needs `pip install open_spiel`; its C++
bots cannot play Python-defined games in the wheels tried (docs/agents.md), its Python bots can.
"""

import json
import subprocess

from . import PROTOCOL

import numpy as np
import pyspiel

MAX_ACTIONS = 256
_TCGSIM = ["tcgsim"]


class Model:
    """One `tcgsim serve` process. States are freed in bulk: `retain(states)` after each move
    frees everything a search made (OpenSpiel copies a state's attributes to clone it, so a
    state holds plain numbers only, and no reference counting is possible). `hello` is the
    server's opening line: `protocol`, `game`, `title` and both deck lists (`decks`, as a process
    agent's `new_game` has them); a server of another protocol is an error."""

    def __init__(self, tcgsim, deck1, deck2, game=""):
        cmd = [tcgsim, "serve", deck1, deck2] + (["--game", game] if game else [])
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.calls = 0
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"tcgsim serve ended before its hello (exit code "
                               f"{self.proc.wait()}): see its message above")
        self.hello = json.loads(line)
        if self.hello.get("type") != "hello" or self.hello.get("protocol") != PROTOCOL:
            self.close()
            raise RuntimeError(f"tcgsim serve opened with {line.strip()!r}: this client speaks "
                               f"protocol {PROTOCOL}")

    def call(self, req):
        self.calls += 1
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"tcgsim serve ended (exit code {self.proc.wait()})")
        ans = json.loads(line)
        if "error" in ans:
            raise ValueError(f"tcgsim serve: {ans['error']} (request {req})")
        return ans

    def card_text(self, card):
        """The full text of a card: `card` is a card id of the deck lists (`hello["decks"]`) or
        a name."""
        return self.call({"op": "card_text", "card": card})["text"]

    def retain(self, states):
        """Frees every state of the server but `states` (TcgsimState objects)."""
        return self.call({"op": "retain", "states": [s.sid for s in states]})["live"]

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


#: The models of the games made, by number: states name theirs by number (see `Model`).
_MODELS = []


_TYPE = pyspiel.GameType(
    short_name="python_tcgsim",
    long_name="tcgsim (Trails, Fire Force, TMNT) through tcgsim serve",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"deck1": "", "deck2": "", "game": "", "seed": 1},
)


class TcgsimGame(pyspiel.Game):
    def __init__(self, params=None):
        params = params or {}
        info = pyspiel.GameInfo(num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=0,
                                num_players=2, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=100000)
        super().__init__(_TYPE, info, params)
        self.model = Model(_TCGSIM[0], params["deck1"], params["deck2"], params.get("game", ""))
        _MODELS.append(self.model)
        self.mid = len(_MODELS) - 1
        self.seed = int(params.get("seed", 1))

    def new_initial_state(self, seed=None, first="P1"):
        """A new game: `seed` decides the deal (by default the game's `seed` parameter: OpenSpiel
        also calls this to clone a state, then replaces its attributes)."""
        if seed is None:
            seed = self.seed
        ans = self.model.call({"op": "new", "seed": str(int(seed)), "first": first})
        return TcgsimState(self.mid, ans, self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """OpenSpiel's observer of this game: information-state strings only (no tensors)."""
        return InfoStringObserver()


class InfoStringObserver:
    """The information-state string of a seat (the server's `info`): states with equal strings
    are one information set, but the string names card slots, so it tells apart some states a
    player cannot. No tensor."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.information_state_string(player)


class TcgsimState(pyspiel.State):
    def __init__(self, mid, ans, game):
        super().__init__(game)
        self.mid = mid
        self._set(ans)

    @property
    def model(self):
        return _MODELS[self.mid]

    def _set(self, ans):
        self.sid = ans["state"]
        mover = ans["to_move"]
        self.mover = None if mover is None else (0 if mover == "P1" else 1)
        self.n = ans["legal"]
        self.ret = ans["returns"]

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.mover is None else self.mover

    def _legal_actions(self, player):
        return list(range(self.n)) if player == self.mover else []

    def _apply_action(self, action):
        self._set(self.model.call({"op": "apply", "state": self.sid, "action": int(action)}))

    def _action_to_string(self, player, action):
        return self.model.call({"op": "legal", "state": self.sid})["legal"][action]

    def is_terminal(self):
        return self.mover is None

    def returns(self):
        return list(self.ret) if self.ret else [0.0, 0.0]

    def information_state_string(self, player=None):
        if player is None:
            player = self.current_player()
        return self.model.call({"op": "info", "state": self.sid, "seat": f"P{player + 1}"})["info"]

    def resample_from_infostate(self, player_id, probability_sampler):
        seed = int(probability_sampler() * 2**53)
        ans = self.model.call({"op": "resample", "state": self.sid, "seat": f"P{player_id + 1}",
                               "seed": str(seed)})
        return TcgsimState(self.mid, ans, self.get_game())

    def tcgsim_choose(self, agent, seed):
        """The move tcgsim's agent `agent` (a spec: `ismcts:ms=100`) makes here."""
        return self.model.call({"op": "choose", "state": self.sid, "agent": agent,
                                "seed": str(int(seed))})["action"]

    def __str__(self):
        return f"tcgsim state {self.sid}"


def register(tcgsim="tcgsim"):
    """Registers `python_tcgsim` with OpenSpiel; `tcgsim` is the binary `serve` runs from."""
    _TCGSIM[0] = tcgsim
    pyspiel.register_game(_TYPE, TcgsimGame)
