"""A PettingZoo AEC environment of a tcgsim game, for self-play (``docs/python.md``).

Both seats are agents, ``"player_0"`` (seat P1) and ``"player_1"`` (seat P2); each observes a dict in the style of PettingZoo's
classic games: ``"observation"``, the game's ``float32`` vector of what that seat may see
(``docs/observation.md``), and ``"action_mask"``, an ``int8`` mask over the stable action ids
(all zeros while the seat is not to move). Rewards: +1 / -1 (0 for a draw) when the game ends.
An action id that is not legal raises ``ValueError`` (a masked policy never takes one).
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import DEFAULT_DECKS
from ._core import Env as _Env
from .gym import _obs_space

_MAX_SEED = 2**63
_SEAT = {"player_0": "P1", "player_1": "P2"}
_AGENT = {"P1": "player_0", "P2": "player_1"}


class TcgsimAECEnv(AECEnv):
    """A tcgsim game, both seats played by the caller.

    Args:
        game: ``"trails"``, ``"fireforce"``, ``"tmnt"`` or ``"toy"``.
        decks: two bundled deck names or deck files; ``decks[0]`` sits in ``seat``.
        seat: ``decks[0]``'s seat, ``"P1"`` or ``"P2"``; None draws it from each game's seed.
        first: the seat that moves first; None draws it from each game's seed.
        cards: a card file (default: the game's bundled pool).
        render_mode: ``"ansi"`` or ``"human"`` (the view of the seat to move).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "tcgsim_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str = "trails",
        decks: Optional[Tuple[str, str]] = None,
        seat: Optional[str] = None,
        first: Optional[str] = None,
        cards: Optional[str] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if decks is None:
            if game not in DEFAULT_DECKS:
                raise ValueError(f"unknown game {game!r} (the games: {', '.join(DEFAULT_DECKS)})")
            decks = DEFAULT_DECKS[game]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']}")
        self._env = _Env(game, tuple(decks), cards=cards, opponent=None, seat=seat, first=first)
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        n = self._env.n_actions
        obs = spaces.Dict(
            {
                "observation": _obs_space(self._env, "vector"),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        mask = np.zeros(self._env.n_actions, np.int8)
        if _SEAT[agent] == self._env.to_move:
            mask[self._env.legal_ids()] = 1
        return {"observation": self._env.observe(_SEAT[agent]), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._env.reset(int(self._rng.integers(_MAX_SEED)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = _AGENT[self._env.to_move]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._env.step(int(action))
        r = self._env.returns
        if r is not None:
            self.rewards = {"player_0": float(r[0]), "player_1": float(r[1])}
            self.terminations = {a: True for a in self.agents}
            # Someone must be selected to take the dead steps.
            self.agent_selection = self.agents[0] if agent != self.agents[0] else self.agents[1]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = _AGENT[self._env.to_move]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        seat = self._env.to_move or "P1"
        text = self._env.render(seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def env(**kwargs) -> TcgsimAECEnv:
    """``TcgsimAECEnv(**kwargs)``, PettingZoo's constructor convention."""
    return TcgsimAECEnv(**kwargs)
