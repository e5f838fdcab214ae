"""The Python package's checks (run by `tests/suite/python.rs`, or `python test_envs.py`).

For every game: Gymnasium's `check_env` on the single-agent environment (vector and dict
observations, a built-in and a Python opponent), PettingZoo's `api_test` and `seed_test` on the
AEC environment, reproducible resets, pickling, the vector environment against single ones, and a
known distribution: a uniformly random learner against the built-in random agent on a mirror
match, seats and first player drawn by coin, scores 0 on average. With sb3-contrib installed, a
few hundred steps of MaskablePPO.
"""

import copy
import importlib.util
import os
import pickle
import sys
import unittest
import warnings

import numpy as np

import tcgsim
from tcgsim.gym import TcgsimEnv, TcgsimVectorEnv

GAMES = os.environ.get("TCGSIM_GAMES", "trails,fireforce,tmnt,toy").split(",")


def first_legal(obs, mask):
    return int(np.flatnonzero(mask)[0])


def play_out(env, policy, seed):
    """A Gymnasium episode: the rewards and observations."""
    obs, info = env.reset(seed=seed)
    rewards, seen = [], [obs.copy()]
    while True:
        obs, r, term, trunc, info = env.step(policy(obs, info["action_mask"]))
        rewards.append(r)
        seen.append(obs.copy())
        if term or trunc:
            return rewards, seen


class Package(unittest.TestCase):
    def test_every_deck_of_the_repository_is_bundled_by_name(self):
        decks = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../decks")
        for g, _ in tcgsim.games():
            want = sorted(f[:-5] for f in os.listdir(os.path.join(decks, g)) if f.endswith(".deck"))
            self.assertEqual(sorted(tcgsim.bundled_decks(g)), want)
            for d in want:
                e = tcgsim.Env(g, (d, d))
                self.assertEqual(e.game, g)

    def test_wilson_is_the_simulators_interval(self):
        # Hand-worked: 8 of 10, z = 1.96: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
        lo, hi = tcgsim.wilson(8, 10)
        self.assertAlmostEqual(lo, 0.4901624, places=6)
        self.assertAlmostEqual(hi, 0.9433178, places=6)
        self.assertEqual(tcgsim.wilson(0, 0), (0.0, 1.0))

    def test_bad_arguments_are_refused_with_their_reason(self):
        cases = [
            (("trails", ("nosuch", "aggro")), "no bundled trails deck"),
            (("chess", ("a", "b")), "unknown game"),
            (("trails", ("aggro", "/nonexistent/x.deck")), "/nonexistent/x.deck"),
        ]
        for args, text in cases:
            with self.assertRaises(ValueError) as c:
                tcgsim.Env(*args)
            self.assertIn(text, str(c.exception))
        with self.assertRaises(ValueError) as c:
            tcgsim.Env("trails", ("aggro", "control"), opponent="process:sh x")
        self.assertIn("process: agent cannot be", str(c.exception))
        with self.assertRaises(ValueError) as c:
            tcgsim.Env("trails", ("aggro", "control"), seat="P3")
        self.assertIn("seat", str(c.exception))
        with self.assertRaises(ValueError):
            TcgsimEnv("trails", obs="image")
        with self.assertRaises(ValueError) as c:
            tcgsim.Env("trails", "aggro")
        self.assertIn("decks: a pair", str(c.exception))
        with self.assertRaises(ValueError):
            TcgsimVectorEnv("nope")
        with self.assertRaises(ValueError) as c:
            tcgsim.Env("toy", ("high", "low"), opponent="random").determinize("P1", 1)
        self.assertIn("cannot be determinized", str(c.exception))
        v = tcgsim.VecEnv("toy", ("high", "low"), 2)
        with self.assertRaises(ValueError):
            v.step(None)  # before reset
        v.reset()
        with self.assertRaises(ValueError) as c:
            v.step(np.zeros(2, np.int64))
        self.assertIn("uint32", str(c.exception))

    def test_a_game_stepped_before_any_reset_pickles_and_copies(self):
        e = tcgsim.Env("toy", ("high", "low"), opponent="random")
        for _ in range(3):
            e.step_random()
        f = tcgsim.Env("toy", ("high", "low"), opponent="random")
        f.reset(0)
        for _ in range(3):
            f.step_random()
        self.assertTrue((e.observe() == f.observe()).all(), "the first game is reset(0)'s")
        for g in (pickle.loads(pickle.dumps(e)), copy.copy(e)):
            self.assertEqual(g.decisions, e.decisions)
            self.assertTrue((g.observe() == e.observe()).all())


class Gymnasium(unittest.TestCase):
    def test_check_env_passes_in_every_game(self):
        from gymnasium.utils.env_checker import check_env

        for g in GAMES:
            for kwargs in ({}, {"obs": "dict"}, {"opponent": first_legal}, {"opponent": "heuristic"}):
                with self.subTest(game=g, **{k: str(v) for k, v in kwargs.items()}):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        check_env(TcgsimEnv(g, **kwargs), skip_render_check=True)

    def test_registered_ids_make_the_environments(self):
        import gymnasium

        for g in GAMES:
            env = gymnasium.make(f"tcgsim/{g}-v0", render_mode="ansi")
            env.reset(seed=1)
            self.assertIn("P", env.render())

    def test_a_seed_replays_the_episode_and_masks_are_the_legal_ids(self):
        for g in GAMES:
            env = TcgsimEnv(g, opponent="random")
            rng = np.random.default_rng(0)

            def pick(obs, mask, rng=rng):
                return int(rng.choice(np.flatnonzero(mask)))

            a, oa = play_out(env, pick, 11)
            rng2 = np.random.default_rng(0)
            b, ob = play_out(env, lambda o, m: int(rng2.choice(np.flatnonzero(m))), 11)
            self.assertEqual(a, b)
            self.assertTrue(all((x == y).all() for x, y in zip(oa, ob)))
            self.assertIn(a[-1], (-1.0, 0.0, 1.0))
            self.assertTrue(all(r == 0.0 for r in a[:-1]))
            env.reset(seed=3)
            ids = sorted(l["id"] for l in env.legal_actions())
            self.assertEqual(ids, list(np.flatnonzero(env.action_masks())))
            self.assertEqual(ids, sorted(env.legal_ids().tolist()))

    def test_an_illegal_action_ends_the_episode_as_a_loss_or_raises(self):
        for g in GAMES:
            env = TcgsimEnv(g)
            _, info = env.reset(seed=2)
            bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
            _, r, term, trunc, info = env.step(bad)
            self.assertEqual((r, term, trunc, info.get("illegal_action")), (-1.0, True, False, True))
            env = TcgsimEnv(g, illegal="raise")
            env.reset(seed=2)
            with self.assertRaises(ValueError):
                env.step(bad)

    def test_a_python_opponents_illegal_answer_is_its_error_not_the_learners_loss(self):
        env = TcgsimEnv("toy", opponent=lambda o, m: 10**6, seat="P1", first="P1")
        _, info = env.reset(seed=1)
        with self.assertRaises(RuntimeError):
            env.step(int(np.flatnonzero(info["action_mask"])[0]))

    def test_random_against_random_on_a_mirror_scores_zero(self):
        """A known distribution: with the same deck on both sides and seats and first player drawn
        by coin, the mean reward of two uniformly random players is 0 (within 4 standard errors)."""
        for g in GAMES:
            a = tcgsim.DEFAULT_DECKS[g][0]
            env = tcgsim.Env(g, (a, a), opponent="random")
            rewards = []
            for seed in range(600):
                env.reset(seed)
                while env.step_random() is not None:
                    pass
                rewards.append(env.returns[0 if env.seat == "P1" else 1])
            r = np.array(rewards)
            se = r.std() / np.sqrt(len(r))
            self.assertLess(abs(r.mean()), 4 * se + 1e-9, f"{g}: mean {r.mean():.3f}, se {se:.3f}")

    def test_pickling_and_copies_replay_the_game(self):
        for g in GAMES:
            for opp in ("random", None):
                e = tcgsim.Env(g, tcgsim.DEFAULT_DECKS[g], opponent=opp)
                e.reset(9)
                for _ in range(5):
                    e.step_random()
                for f in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e), copy.copy(e)):
                    self.assertTrue((f.observe() == e.observe()).all())
                    self.assertEqual(list(f.legal_ids()), list(e.legal_ids()))
                    self.assertEqual(f.decisions, e.decisions)

    def test_the_vector_env_resets_finished_games_in_the_same_step(self):
        for g in GAMES:
            v = TcgsimVectorEnv(g, num_envs=4, seed=5)
            obs, infos = v.reset()
            self.assertEqual(obs.shape, (4, v.single_observation_space.shape[0]))
            ends = 0
            for _ in range(400):
                acts = np.array([int(np.flatnonzero(m)[0]) for m in infos["action_mask"]])
                obs, r, term, trunc, infos = v.step(acts)
                self.assertTrue(v.observation_space.contains(obs))
                self.assertTrue(infos["action_mask"].any(axis=1).all(), "every row can act")
                ends += int(term.sum())
                self.assertTrue(set(r[~term]) <= {0.0})
                if term.any():
                    self.assertTrue((infos["_final_obs"] == term).all())
                    for i in np.flatnonzero(term):
                        self.assertTrue(v.single_observation_space.contains(infos["final_obs"][i]))
                else:
                    self.assertNotIn("final_obs", infos)
            self.assertGreater(ends, 0)


class PettingZoo(unittest.TestCase):
    def test_api_test_and_seed_test_pass_in_every_game(self):
        from pettingzoo.test import api_test, seed_test

        from tcgsim.pettingzoo import TcgsimAECEnv

        for g in GAMES:
            with self.subTest(game=g):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    api_test(TcgsimAECEnv(game=g), num_cycles=300, verbose_progress=False)
                    seed_test(lambda g=g: TcgsimAECEnv(game=g), num_cycles=300)

    def test_self_play_rewards_are_the_games_result_replayed_on_the_core(self):
        """The AEC environment's final rewards, as each agent reads them from `last()`, are the
        result of the same game replayed on the core `Env` (the seed the AEC environment draws
        from `reset(seed=4)`, the same lowest-id policy): +1/-1 or 0/0."""
        from tcgsim.pettingzoo import TcgsimAECEnv

        for g in GAMES:
            env = TcgsimAECEnv(game=g)
            env.reset(seed=4)
            final = {}
            for agent in env.agent_iter():
                obs, r, term, trunc, info = env.last()
                if term or trunc:
                    final[agent] = r
                    env.step(None)
                else:
                    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            core = tcgsim.Env(g, tcgsim.DEFAULT_DECKS[g])
            core.reset(int(np.random.default_rng(4).integers(2**63)))
            while core.returns is None:
                core.step(int(core.legal_ids().min()))
            want = {"player_0": core.returns[0], "player_1": core.returns[1]}
            self.assertEqual(final, want, g)
            self.assertIn(sorted(final.values()), ([-1.0, 1.0], [0.0, 0.0]))


@unittest.skipUnless(importlib.util.find_spec("pyspiel"), "open_spiel is not installed")
class OpenSpiel(unittest.TestCase):
    def test_rl_environment_serialization_and_ismcts_run_in_every_game(self):
        import pyspiel
        from open_spiel.python import rl_environment
        from open_spiel.python.algorithms import ismcts, mcts

        import tcgsim.openspiel  # registers python_tcgsim_env

        for g in GAMES:
            with self.subTest(game=g):
                game = pyspiel.load_game("python_tcgsim_env", {"game": g, "seed": 3})
                env = tcgsim.Env(g, tcgsim.DEFAULT_DECKS[g])
                self.assertEqual(game.observation_tensor_size(), env.obs_len)
                self.assertEqual(game.information_state_tensor_size(), env.obs_len)
                self.assertEqual(game.num_distinct_actions(), env.n_actions)
                # rl_environment: a random game to the end; its tensors are the core's.
                rl = rl_environment.Environment(game)
                ts = rl.reset()
                rng = np.random.default_rng(1)
                while not ts.last():
                    p = ts.observations["current_player"]
                    ts = rl.step([rng.choice(ts.observations["legal_actions"][p])])
                    s = rl.get_state
                    if not s.is_terminal():
                        q = s.current_player()
                        want = s._env.observe(("P1", "P2")[q])
                        self.assertTrue((np.array(s.observation_tensor(q), np.float32) == want).all())
                        self.assertEqual(s.legal_actions(), sorted(s._env.legal_ids().tolist()))
                self.assertEqual(sum(ts.rewards), 0.0)
                # Serialization and pickling replay the state.
                s = game.new_initial_state()
                for _ in range(6):
                    s.apply_action(s.legal_actions()[-1])
                for t in (game.deserialize_state(s.serialize()), pickle.loads(pickle.dumps(s))):
                    self.assertEqual(str(t), str(s))
                    self.assertEqual(t.history(), s.history())
                    self.assertEqual(t.observation_tensor(0), s.observation_tensor(0))
                # A determinization keeps the player's tensor (the no-peek rule).
                q = s.current_player()
                twin = game.deserialize_state(s.serialize())
                d = s.resample_from_infostate(q, None)
                self.assertEqual(d.observation_tensor(q), s.observation_tensor(q))
                # Reproducible: the same state resamples the same way.
                self.assertEqual(str(twin.resample_from_infostate(q, None)), str(d))
                # OpenSpiel's Python ISMCTS plays a few moves.
                bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), 2.0, 10)
                s = game.new_initial_state()
                for _ in range(4):
                    if s.is_terminal():
                        break
                    s.apply_action(bot.step(s))


@unittest.skipUnless(
    importlib.util.find_spec("sb3_contrib"), "sb3-contrib is not installed"
)
class MaskablePpoSmoke(unittest.TestCase):
    def test_a_few_hundred_steps_of_maskable_ppo_run(self):
        from sb3_contrib import MaskablePPO

        for g in GAMES:
            model = MaskablePPO("MlpPolicy", TcgsimEnv(g), n_steps=64, batch_size=32, seed=0)
            model.learn(256)


if __name__ == "__main__":
    unittest.main(verbosity=2)
