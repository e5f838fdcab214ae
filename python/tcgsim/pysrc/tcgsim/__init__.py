"""tcgsim's card games in process, for learning agents (``docs/python.md``).

- :class:`Env` and :class:`VecEnv` (the Rust core, ``tcgsim._core``): one game, or many stepped in
  one call with NumPy arrays in and out.
- :mod:`tcgsim.gym`: a ``gymnasium.Env`` per game (``TcgsimEnv``), and a
  ``gymnasium.vector.VectorEnv`` (``TcgsimVectorEnv``).
- :mod:`tcgsim.pettingzoo`: a PettingZoo AEC environment for self-play (``TcgsimAECEnv``).

Observations are fixed-size ``float32`` vectors of what the seat may see (each slot in
``docs/observation.md``); actions are stable ids with a legal-action mask.
"""

from ._core import Env, VecEnv, bundled_decks, default_decks, games, wilson, __version__

#: The default decks of each game (the first two of its benchmark pair), by game name.
DEFAULT_DECKS = {name: default_decks(name) for name, _ in games()}

__all__ = [
    "Env",
    "VecEnv",
    "bundled_decks",
    "default_decks",
    "games",
    "wilson",
    "DEFAULT_DECKS",
    "__version__",
]
