"""tcgsim's games as an OpenSpiel game, in process (``docs/python.md``).

Importing this module registers ``python_tcgsim_env`` with ``pyspiel``; its parameters are
``game`` (``trails``, ``fireforce``, ``tmnt``, ``toy``), ``deck1`` and ``deck2`` (bundled deck
names or deck files; default the game's benchmark pair), ``seat`` (``deck1``'s seat: ``P1``,
``P2`` or ``random``, the default, drawn from each deal's seed), and ``seed`` (the first deal's;
each new initial state takes the next).

    import pyspiel, tcgsim.openspiel
    game = pyspiel.load_game("python_tcgsim_env", {"game": "tmnt"})
    from open_spiel.python import rl_environment
    env = rl_environment.Environment(game)

- Shuffles are folded into the initial state (its deal is drawn from a seed), so the game is
  ``SAMPLED_STOCHASTIC`` with no explicit chance nodes.
- Actions are the stable ids of ``docs/observation.md``; ``legal_actions()`` lists them in
  ascending order, as OpenSpiel expects.
- **Observation tensor** and **information-state tensor**: the game's observation vector for the
  player (``docs/observation.md``), what its seat may see now. Decision: the information-state
  tensor is the same vector — it does not recall past observations (perfect recall would need a
  growing history), so it may merge information sets, never split them: it never holds a card the
  player cannot see. The strings are the seat's view as text (``render``); the information-state
  string adds the player's own past actions.
- **Serialization**: ``state.serialize()`` and ``game.deserialize_state(text)``, and pickling a
  state, store its deal's seed and its actions and rebuild it by replaying them.
  ``pyspiel.serialize_game_and_state`` fails on every Python game that samples its chance
  (``GetRNGState unimplemented``: OpenSpiel's Python-game bridge does not forward it), so a state
  pickles through its own ``__reduce__`` instead.
- ``resample_from_infostate(player, sampler)`` redeals every card the player cannot see
  (``Game::determinize``), so OpenSpiel's Python ISMCTS bot searches it; the redeals are drawn
  from a stream seeded by the deal's seed (the sampler is not used), so a seeded search repeats.
- Observers: for one player only (public information and the player's own private
  information); other observation types are refused. OpenSpiel's C++ bots
  cannot play games written in Python (their bug, not worked around here).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import DEFAULT_DECKS
from ._core import Env as _Env

_SHORT_NAME = "python_tcgsim_env"
_MAX_SEED = 2**63

_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="tcgsim (Trails, Fire Force, TMNT), in process",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"game": "trails", "deck1": "", "deck2": "", "seat": "random", "seed": 0},
)

_SEATS = ("P1", "P2")


class TcgsimGame(pyspiel.Game):
    """A match of two decks of one of tcgsim's games."""

    def __init__(self, params=None):
        p = dict(_TYPE.parameter_specification)
        p.update(params or {})
        game = str(p["game"])
        if game not in DEFAULT_DECKS:
            raise ValueError(f"game: unknown {game!r} (the games: {', '.join(DEFAULT_DECKS)})")
        d1 = str(p["deck1"]) or DEFAULT_DECKS[game][0]
        d2 = str(p["deck2"]) or DEFAULT_DECKS[game][1]
        seat = str(p["seat"])
        if seat not in ("P1", "P2", "random"):
            raise ValueError(f'seat: expected "P1", "P2" or "random", found {seat!r}')
        self.args = (game, (d1, d2), None, None, None if seat == "random" else seat, None)
        probe = _Env(game, (d1, d2), seat=self.args[4])
        self.n_actions = probe.n_actions
        self.obs_len = probe.obs_len
        self._rng = np.random.default_rng(int(p["seed"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.n_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=100_000,
        )
        super().__init__(_TYPE, info, p)

    def new_initial_state(self):
        return TcgsimState(self, int(self._rng.integers(_MAX_SEED)))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is not None and not (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{_SHORT_NAME} observes for one player (public information and the player's "
                f"own private information) only, not {iig_obs_type}"
            )
        info_state = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TcgsimObserver(self.obs_len, info_state)


class TcgsimState(pyspiel.State):
    """A position; its attributes are plain data and the core `Env` (copied and pickled by
    replay), so OpenSpiel's clone and serialization work."""

    def __init__(self, game, seed):
        super().__init__(game)
        g, decks, cards, opp, seat, first = game.args
        self._env = _Env(g, decks, cards=cards, opponent=opp, seat=seat, first=first)
        self._env.reset(seed)
        self._mine = ([], [])
        # The redeals of `resample_from_infostate`, reproducible from the deal's seed.
        self._redeals = np.random.default_rng(seed ^ 0x5EED)

    def current_player(self):
        m = self._env.to_move
        return pyspiel.PlayerId.TERMINAL if m is None else _SEATS.index(m)

    def _legal_actions(self, player):
        return sorted(int(i) for i in self._env.legal_ids())

    def _action_to_string(self, player, action):
        return self._env.action_text(int(action)) or f"action {action}"

    def _apply_action(self, action):
        p = self.current_player()
        self._env.step(int(action))
        self._mine[p].append(int(action))

    def is_terminal(self):
        return self._env.returns is not None

    def returns(self):
        r = self._env.returns
        return [0.0, 0.0] if r is None else [float(r[0]), float(r[1])]

    def resample_from_infostate(self, player_id, probability_sampler):
        s = self.clone()
        seed = int(self._redeals.integers(_MAX_SEED))
        s._env.determinize(_SEATS[player_id], seed)
        return s

    def __str__(self):
        return "\n".join(f"[{q}]\n{self._env.render(q)}" for q in _SEATS)

    def __reduce__(self):
        return (_restore, (dict(self.get_game().get_parameters()), self.serialize()))


def _restore(params, data):
    return pyspiel.load_game(_SHORT_NAME, params).deserialize_state(data)


class TcgsimObserver:
    """The observation (or information-state) tensor and string of a player."""

    def __init__(self, obs_len, info_state):
        self.tensor = np.zeros(obs_len, np.float32)
        self.dict = {"observation": self.tensor}
        self._info_state = info_state

    def set_from(self, state, player):
        self.tensor[:] = state._env.observe(_SEATS[player])

    def string_from(self, state, player):
        text = state._env.render(_SEATS[player])
        if self._info_state:
            text += "\nmy actions: " + ",".join(map(str, state._mine[player]))
        return text


pyspiel.register_game(_TYPE, TcgsimGame)
