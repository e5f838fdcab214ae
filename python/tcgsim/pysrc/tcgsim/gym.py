"""Gymnasium environments of tcgsim's games (``docs/python.md``).

``TcgsimEnv`` is a ``gymnasium.Env``: the learner plays ``decks[0]`` against an opponent — a
built-in agent spec (``"random"``, ``"heuristic"``, ``"ismcts:iters=200"``) stepped in Rust, or a
Python callable ``opponent(observation, action_mask) -> action id`` that sees the opponent's seat
as the learner sees its own. Observations are the game's fixed-size ``float32`` vector (or, with
``obs="dict"``, one array per slot), actions stable ids in ``Discrete(n)``; the legal actions'
mask is ``action_masks()`` (sb3-contrib's MaskablePPO) and ``info["action_mask"]``.

Rewards: +1 for a win, -1 for a loss, 0 for a draw, at the step that ends the game; 0 before.
An action id that is not legal ends the episode as a loss (``info["illegal_action"] = True``),
or raises ``ValueError`` with ``illegal="raise"``: a masked policy never takes one, and
Gymnasium's checker, which steps with unmasked samples, sees a well-defined episode.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import DEFAULT_DECKS
from ._core import Env as _Env, VecEnv as _VecEnv

Opponent = Union[str, Callable[[np.ndarray, np.ndarray], int]]

_MAX_SEED = 2**63


def _obs_space(env, form: str) -> spaces.Space:
    slots = env.slots()
    if form == "vector":
        low = np.concatenate([np.full(n, lo, np.float32) for (_, _, n, lo, _, _) in slots])
        high = np.concatenate([np.full(n, hi, np.float32) for (_, _, n, _, hi, _) in slots])
        return spaces.Box(low, high, dtype=np.float32)
    return spaces.Dict(
        {
            name: spaces.Box(np.float32(lo), np.float32(hi), shape=(n,), dtype=np.float32)
            for (name, _, n, lo, hi, _) in slots
        }
    )


def _as_dict(slots, v: np.ndarray) -> dict:
    return {name: v[off : off + n] for (name, off, n, _, _, _) in slots}


class TcgsimEnv(gymnasium.Env):
    """One seat of a tcgsim game against an opponent.

    Args:
        game: ``"trails"``, ``"fireforce"``, ``"tmnt"`` or ``"toy"``.
        decks: the learner's deck and the opponent's: bundled deck names or paths to deck files
            (default: the game's benchmark pair, ``tcgsim.DEFAULT_DECKS``).
        opponent: a built-in agent spec, or a callable (see the module's doc).
        seat: the learner's seat, ``"P1"`` or ``"P2"``; None draws it from each episode's seed.
        first: the seat that moves first; None draws it from each episode's seed.
        cards: a card file (default: the game's bundled pool).
        obs: ``"vector"`` (one ``float32`` array) or ``"dict"`` (one array per slot).
        illegal: ``"lose"`` or ``"raise"`` (see the module's doc).
        max_steps: truncate an episode after this many learner steps (None: never).
        render_mode: ``"ansi"`` (``render()`` returns the learner's view as text) or ``"human"``
            (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game: str = "trails",
        decks: Optional[Tuple[str, str]] = None,
        opponent: Opponent = "random",
        seat: Optional[str] = None,
        first: Optional[str] = None,
        cards: Optional[str] = None,
        obs: str = "vector",
        illegal: str = "lose",
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        if obs not in ("vector", "dict"):
            raise ValueError(f'obs: expected "vector" or "dict", found {obs!r}')
        if illegal not in ("lose", "raise"):
            raise ValueError(f'illegal: expected "lose" or "raise", found {illegal!r}')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']}")
        if decks is None:
            if game not in DEFAULT_DECKS:
                raise ValueError(f"unknown game {game!r} (the games: {', '.join(DEFAULT_DECKS)})")
            decks = DEFAULT_DECKS[game]
        self._callable = opponent if callable(opponent) else None
        if not (self._callable or isinstance(opponent, str)):
            raise ValueError("opponent: a built-in agent spec (str) or a callable")
        spec = None if self._callable else opponent
        self._env = _Env(game, tuple(decks), cards=cards, opponent=spec, seat=seat, first=first)
        self.game = game
        self._form = obs
        # Single-agent in Rust with vector observations: one call a step (`learner_step`).
        self._fast = self._callable is None and obs == "vector"
        self._illegal = illegal
        self._max_steps = max_steps
        self.render_mode = render_mode
        self._slots = self._env.slots()
        self.observation_space = _obs_space(self._env, obs)
        self.action_space = spaces.Discrete(self._env.n_actions)
        self._me = "P1"
        self._steps = 0
        self._over = True

    # -- what the learner sees --

    def _observe(self, seat: str):
        v = self._env.observe(seat)
        return v if self._form == "vector" else _as_dict(self._slots, v)

    def _info(self, mask=None) -> dict:
        return {"action_mask": self._env.mask() if mask is None else mask, "seat": self._me}

    def action_masks(self) -> np.ndarray:
        """The legal actions' mask, as booleans (sb3-contrib's MaskablePPO asks for it)."""
        return self._env.mask().astype(bool)

    def legal_ids(self) -> np.ndarray:
        """The legal action ids (uint32, the engine's order): the mask's nonzero entries, without
        scanning the mask."""
        return self._env.legal_ids()

    def legal_actions(self) -> list:
        """The legal actions as dicts: id, kind, card, target, text."""
        return self._env.legal()

    # -- the opponent --

    def _play_callable(self) -> None:
        opp = self._callable
        while opp is not None and self._env.to_move not in (None, self._me):
            seat = self._env.to_move
            a = opp(self._env.observe(seat), self._env.mask())
            try:
                self._env.step(int(a))
            except ValueError as e:
                raise RuntimeError(f"the opponent callable answered {a!r}: {e}") from None

    # -- the Gymnasium API --

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        for _ in range(1000):
            self._env.reset(int(self.np_random.integers(_MAX_SEED)))
            self._me = self._env.seat
            self._play_callable()
            if self._env.to_move == self._me:
                break
        else:
            raise RuntimeError("1000 games in a row ended before the learner's first decision")
        self._steps = 0
        self._over = False
        return self._observe(self._me), self._info()

    def step(self, action):
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        self._steps += 1
        try:
            if self._fast:
                # The fast path: the step, the observation and the mask in one call.
                obs, mask, r = self._env.learner_step(int(action))
            else:
                self._env.step(int(action))
        except ValueError:
            # Only the learner's own action: an opponent's failure is not the learner's loss.
            if self._illegal == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(self._me), -1.0, True, False, info
        if not self._fast:
            self._play_callable()
            obs, mask = self._observe(self._me), self._env.mask()
            ret = self._env.returns
            r = None if ret is None else ret[0 if self._me == "P1" else 1]
        info = {"action_mask": mask, "seat": self._me}
        if r is not None:
            self._over = True
            return obs, float(r), True, False, info
        if self._max_steps is not None and self._steps >= self._max_steps:
            self._over = True
            return obs, 0.0, False, True, info
        return obs, 0.0, False, False, info

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: give render_mode='ansi'")
            return None
        text = self._env.render(self._me)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class TcgsimVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games stepped in one call in Rust, against a built-in opponent.

    Finished games reset in the same step (``autoreset_mode`` ``SAME_STEP``): the observation
    returned is the new game's, ``terminated`` says the reward ended the last one, and
    ``infos["final_obs"]`` / ``infos["final_info"]`` hold the finished games' last observations
    and infos (with their ``_final_obs`` / ``_final_info`` masks), as Gymnasium's own vector
    environments do. Observations and masks are copied out of the Rust arrays unless
    ``copy=False``. ``infos`` also holds ``action_mask`` (bool, ``num_envs × n``) and
    ``illegal_action``.
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str = "trails",
        num_envs: int = 64,
        decks: Optional[Tuple[str, str]] = None,
        opponent: str = "random",
        seat: Optional[str] = None,
        first: Optional[str] = None,
        cards: Optional[str] = None,
        copy: bool = True,
        seed: int = 0,
    ):
        if decks is None:
            if game not in DEFAULT_DECKS:
                raise ValueError(f"unknown game {game!r} (the games: {', '.join(DEFAULT_DECKS)})")
            decks = DEFAULT_DECKS[game]
        self._v = _VecEnv(game, tuple(decks), num_envs, seed, cards, opponent, seat, first)
        self._mask = None
        self.num_envs = num_envs
        self._copy = copy
        single = _Env(game, tuple(decks), cards=cards, opponent=opponent)
        self.single_observation_space = _obs_space(single, "vector")
        self.single_action_space = spaces.Discrete(single.n_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._game, self._decks, self._args = game, decks, (cards, opponent, seat, first)

    def _out(self, res, final=False):
        obs, mask, reward, terminated, illegal, final_obs = res
        if self._copy:
            obs, mask = obs.copy(), mask.copy()
        self._mask = mask.astype(bool)
        every = np.ones(self.num_envs, bool)
        infos = {
            "action_mask": self._mask,
            "_action_mask": every,
            "illegal_action": illegal.astype(bool),
            "_illegal_action": every,
        }
        done = terminated.astype(bool)
        if final and done.any():
            # Gymnasium's SAME_STEP convention: the finished games' last observations and infos.
            last = np.empty(self.num_envs, dtype=object)
            last_info = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(done):
                last[i] = final_obs[i].copy()
                last_info[i] = {"illegal_action": bool(illegal[i])}
            infos["final_obs"], infos["_final_obs"] = last, done
            infos["final_info"], infos["_final_info"] = last_info, done
        return obs, reward.copy(), done, np.zeros(self.num_envs, bool), infos

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            cards, opponent, seat, first = self._args
            self._v = _VecEnv(
                self._game, tuple(self._decks), self.num_envs, int(seed), cards, opponent, seat, first
            )
        obs, _, _, _, infos = self._out(self._v.reset())
        return obs, infos

    def step(self, actions):
        a = np.ascontiguousarray(actions, dtype=np.uint32)
        return self._out(self._v.step(a), final=True)

    def action_masks(self) -> np.ndarray:
        """The legal actions' masks of every game (bool, ``num_envs × n``)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask


def make(game: str = "trails", **kwargs) -> TcgsimEnv:
    """``TcgsimEnv(game, **kwargs)``."""
    return TcgsimEnv(game, **kwargs)


for _g in DEFAULT_DECKS:
    gymnasium.register(id=f"tcgsim/{_g}-v0", entry_point="tcgsim.gym:TcgsimEnv", kwargs={"game": _g})
