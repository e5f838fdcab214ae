//! Environments for learning agents (the Python package, `docs/python.md`): one game stepped a
//! decision at a time by an outside agent, seen through the game's observation tensors and stable
//! action ids ([`crate::core::tensor`]).
//!
//! - [`Env`]: the game of a match, game-erased. With an opponent (a built-in agent spec) it is a
//!   single-agent environment: the learner plays `decks[0]`, and [`Env::step`] plays the
//!   opponent's decisions too, until the learner must decide or the game is over (Gymnasium). With
//!   none, the caller plays both seats (PettingZoo's AEC, OpenSpiel, a Python opponent).
//! - [`VecEnv`]: many single-agent environments stepped in one call, writing into caller-owned
//!   arrays, resetting finished games in the same step (Gymnasium's `SAME_STEP` autoreset).
//!
//! Reproducible: [`Env::reset`] with a seed gives the same seat, first player, deal and
//! opponent's play, whatever else ran before. No allocation per step: the legal actions and their
//! ids live in fixed lists, observations are written into the caller's buffer.

use crate::agents::{Agent, AgentSpec};
use crate::core::tensor::{ActionCode, ActionSpace, ObsLayout, ObsOut};
use crate::core::{
    def, mix_seed, rng_from_seed, ActionList, Error, FixedVec, GameDef, GameInfo, GameRng, Outcome,
    Seat, MAX_ACTIONS,
};
use crate::games::{visit, Visit};
use rand::Rng;
use std::path::PathBuf;

/// Where a card file or deck comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file on disk (errors name it).
    File(PathBuf),
    /// Text in memory, under a name (errors and the deck's name use it).
    Text { name: String, text: String },
}

impl Source {
    fn read(&self) -> Result<(String, String), Error> {
        match self {
            Source::File(p) => {
                let text = crate::core::input::read_text(p, crate::core::input::MAX_TEXT_BYTES)?;
                Ok((p.display().to_string(), text))
            }
            Source::Text { name, text } => Ok((name.clone(), text.clone())),
        }
    }

    /// The deck's name: the file stem, or the text's name.
    fn stem(&self) -> String {
        match self {
            Source::File(p) => p
                .file_stem()
                .map_or_else(|| p.display().to_string(), |s| s.to_string_lossy().into()),
            Source::Text { name, .. } => name.clone(),
        }
    }
}

/// Who sits where, or a coin from the episode's seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SeatChoice {
    /// Drawn from the episode's seed, one half each.
    #[default]
    Random,
    /// Always this seat.
    Fixed(Seat),
}

impl SeatChoice {
    fn pick(self, rng: &mut GameRng) -> Seat {
        match self {
            SeatChoice::Random => Seat::from_index(rng.gen_range(0..2)),
            SeatChoice::Fixed(s) => s,
        }
    }
}

/// What an environment plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvSpec {
    /// The registered game's name.
    pub game: String,
    /// The card file; `None`: the game's bundled pool.
    pub cards: Option<Source>,
    /// The decks: `decks[0]` is the learner's (with an opponent), `decks[1]` the other's.
    pub decks: [Source; 2],
    /// The opponent, a built-in agent spec (`heuristic`, `random`, `ismcts:iters=200`); `None`:
    /// the caller plays both seats.
    pub opponent: Option<String>,
    /// The seat `decks[0]` sits in.
    pub seat: SeatChoice,
    /// The seat that moves first (holds the initiative on turn 1).
    pub first: SeatChoice,
}

impl EnvSpec {
    /// The game's benchmark pair ([`GameInfo::arena_decks`], read from its deck folder in the
    /// source tree) against a built-in `opponent`, seats and first player by coin: what the
    /// criterion benches and `examples/env_profile.rs` step.
    pub fn bench(info: &GameInfo, opponent: &str) -> EnvSpec {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(info.deck_dir);
        let deck =
            |k: usize| Source::File(dir.join(format!("{}.{}", info.arena_decks[k], info.deck_ext)));
        EnvSpec {
            game: info.name.into(),
            cards: None,
            decks: [deck(0), deck(1)],
            opponent: Some(opponent.into()),
            seat: SeatChoice::Random,
            first: SeatChoice::Random,
        }
    }
}

/// A legal action as a learning agent sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegalAction {
    /// Its stable id.
    pub id: u32,
    /// Its kind, argument, card and target.
    pub code: ActionCode,
}

/// Why a step was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The game is over: reset first.
    #[error("the game is over: reset the environment")]
    Over,
    /// The id is not one of the legal actions' ids.
    #[error("action {id} is not legal here ({legal} legal actions; see the action mask)")]
    Illegal { id: u32, legal: usize },
    /// Only an environment without an opponent may be redealt (its agent would keep what it saw).
    #[error("an environment with an opponent cannot be determinized")]
    Opponent,
}

/// One game of a match, stepped by an outside agent. Game-erased: [`open`] builds it for the game
/// the spec names.
pub trait Env {
    /// The game's constants.
    fn info(&self) -> &'static GameInfo;
    /// The observation vector's slots.
    fn layout(&self) -> &ObsLayout;
    /// The stable action ids.
    fn space(&self) -> &ActionSpace;
    /// Whether an opponent plays the other seat (single-agent) or the caller plays both.
    fn has_opponent(&self) -> bool;
    /// Starts a new game from `seed`: the seats, the first player, the deal and the opponent are
    /// drawn from it alone. With an opponent, its decisions before the learner's first are played.
    fn reset(&mut self, seed: u64);
    /// The seat `decks[0]` sits in this game (the learner's, with an opponent).
    fn seat(&self) -> Seat;
    /// The player who decides next; `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// The game's result for each seat (P1, P2): `+1` a win, `-1` a loss, 0 a draw; `None` while
    /// it goes on.
    fn returns(&self) -> Option<[f32; 2]>;
    /// The turn number.
    fn turn(&self) -> u32;
    /// The decisions taken in this game so far, both seats', the opponent's included.
    fn decisions(&self) -> u32;
    /// Writes what `seat` may see into `out` (the layout's length).
    fn observe(&self, seat: Seat, out: &mut [f32]);
    /// The legal actions of the player to move (none once the game is over), in the engine's
    /// order.
    fn legal(&self) -> &[LegalAction];
    /// Plays the action with stable id `id` for the player to move; with an opponent, then its
    /// decisions until the learner's turn or the end.
    fn step(&mut self, id: u32) -> Result<(), StepError>;
    /// Plays a legal action drawn uniformly with `rng` (as [`Env::step`]); `None` once the game
    /// is over.
    fn step_random(&mut self, rng: &mut GameRng) -> Option<u32> {
        let n = self.legal().len();
        if n == 0 {
            return None;
        }
        let id = self.legal()[rng.gen_range(0..n)].id;
        self.step(id).expect("a legal id");
        Some(id)
    }
    /// What `seat` sees, as the text a person at the table is shown.
    fn render(&self, seat: Seat) -> String;
    /// The game's notation of a legal action.
    fn action_text(&self, id: u32) -> Option<String>;
    /// A copy of the game, for search; `None` with an opponent (agents are not copied).
    fn clone_game(&self) -> Option<Box<dyn Env>>;
    /// Another environment of the same spec, sharing the match (its cards and decks are not read
    /// again), at the start of its game of seed 0.
    fn fork(&self) -> Box<dyn Env>;
    /// Redeals every card `seat` cannot see, from `seed` ([`crate::core::Game::determinize`]):
    /// a game that seat cannot tell from this one. Refused with an opponent.
    fn determinize(&mut self, seat: Seat, seed: u64) -> Result<(), StepError>;
}

/// Builds the environment `spec` describes. Errors name the file, line and reason (a card file
/// or deck), or the spec's part (an unknown game, a `process:` opponent).
pub fn open(spec: &EnvSpec) -> Result<Box<dyn Env>, Error> {
    struct Open<'a>(&'a EnvSpec);
    impl Visit for Open<'_> {
        type Out = Result<Box<dyn Env>, Error>;
        fn visit<G: GameDef>(self) -> Self::Out {
            Ok(Box::new(GameEnv::<G>::new(self.0)?))
        }
    }
    visit(&spec.game, Open(spec)).unwrap_or_else(|| {
        Err(Error::usage(format!(
            "unknown game \"{}\" (the games: {})",
            spec.game,
            crate::games::names()
        )))
    })
}

/// What the environments of one spec share (one copy for a whole [`VecEnv`]: a copy per row
/// made a 1,024-row Trails vector 10% slower, its rows' layouts crowding the cache).
struct Shared<G> {
    /// `matches[k]`: `decks[0]` in seat `k` (P1 when 0).
    matches: [G; 2],
    layout: ObsLayout,
    space: ActionSpace,
}

struct GameEnv<G: GameDef> {
    shared: std::sync::Arc<Shared<G>>,
    spec_seat: SeatChoice,
    spec_first: SeatChoice,
    opponent: Option<AgentSpec>,
    /// This game's.
    m: usize,
    state: G::State,
    opp: Option<Box<dyn Agent<G>>>,
    decisions: u32,
    actions: ActionList<G::Action>,
    legal: FixedVec<LegalAction, MAX_ACTIONS>,
}

impl<G: GameDef> GameEnv<G> {
    fn new(spec: &EnvSpec) -> Result<Self, Error> {
        def::require::<G>(def::Capability::Tensors)?;
        let cards = match &spec.cards {
            None => G::bundled_cards(),
            Some(src) => {
                let (file, text) = src.read()?;
                G::parse_cards(&text, &file)?
            }
        };
        let mut decks = Vec::new();
        for src in &spec.decks {
            let (file, text) = src.read()?;
            decks.push(G::parse_deck(&cards, &text, &file, &src.stem())?);
        }
        let opponent = match &spec.opponent {
            None => None,
            Some(text) => {
                let a = AgentSpec::parse(text)?;
                if matches!(a, AgentSpec::Process(_)) {
                    return Err(Error::usage(format!(
                        "opponent \"{text}\": a process: agent cannot be an environment's \
                         opponent (give a built-in agent spec, or play the other seat yourself)"
                    )));
                }
                Some(a)
            }
        };
        let matches = [
            G::new_match(&cards, [&decks[0], &decks[1]]),
            G::new_match(&cards, [&decks[1], &decks[0]]),
        ];
        let layout = G::obs_layout(&cards);
        let space = ActionSpace::new(G::action_kinds(&cards));
        let state = matches[0].new_game(0, Seat::P1);
        let mut env = GameEnv {
            shared: std::sync::Arc::new(Shared {
                matches,
                layout,
                space,
            }),
            spec_seat: spec.seat,
            spec_first: spec.first,
            opponent,
            m: 0,
            state,
            opp: None,
            decisions: 0,
            actions: ActionList::new(),
            legal: FixedVec::new(),
        };
        env.reset(0);
        Ok(env)
    }

    fn game(&self) -> &G {
        &self.shared.matches[self.m]
    }

    /// The legal actions of the player to move and their ids.
    fn refresh(&mut self) {
        let game = &self.shared.matches[self.m];
        game.legal_actions(&self.state, &mut self.actions);
        self.legal.clear();
        for &a in self.actions.iter() {
            let code = game.action_code(&self.state, a);
            let id = self.shared.space.id(code).unwrap_or_else(|| {
                panic!(
                    "{}: the action {} has code {code:?}, outside the action space",
                    G::INFO.name,
                    game.action_text(&self.state, a)
                )
            });
            self.legal.push(LegalAction { id, code });
        }
    }

    /// The opponent's decisions, until the learner's turn or the end.
    fn play_opponent(&mut self) {
        let Some(opp) = self.opp.as_mut() else {
            return;
        };
        let me = Seat::from_index(self.m);
        let game = &self.shared.matches[self.m];
        while let Some(q) = game.to_move(&self.state) {
            if q == me {
                break;
            }
            let a = opp.choose(game, &self.state, q);
            game.apply(&mut self.state, a);
            self.decisions += 1;
        }
    }
}

impl<G: GameDef> Env for GameEnv<G> {
    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }

    fn layout(&self) -> &ObsLayout {
        &self.shared.layout
    }

    fn space(&self) -> &ActionSpace {
        &self.shared.space
    }

    fn has_opponent(&self) -> bool {
        self.opponent.is_some()
    }

    fn reset(&mut self, seed: u64) {
        let mut rng = rng_from_seed(mix_seed(&[seed, 0x5e47]));
        let seat = self.spec_seat.pick(&mut rng);
        let first = self.spec_first.pick(&mut rng);
        self.m = seat.index();
        self.state = self.shared.matches[self.m].new_game(mix_seed(&[seed, 1]), first);
        self.decisions = 0;
        self.opp = self
            .opponent
            .as_ref()
            .map(|a| a.build::<G>(mix_seed(&[seed, 2])));
        self.play_opponent();
        self.refresh();
    }

    fn seat(&self) -> Seat {
        Seat::from_index(self.m)
    }

    fn to_move(&self) -> Option<Seat> {
        self.game().to_move(&self.state)
    }

    fn returns(&self) -> Option<[f32; 2]> {
        self.game().outcome(&self.state).map(|o| match o {
            Outcome::Win(w) => {
                let mut r = [-1.0, -1.0];
                r[w.index()] = 1.0;
                r
            }
            Outcome::Draw => [0.0, 0.0],
        })
    }

    fn turn(&self) -> u32 {
        self.game().turn(&self.state)
    }

    fn decisions(&self) -> u32 {
        self.decisions
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        let mut o = ObsOut::new(&self.shared.layout, out);
        self.game().observe(&self.state, seat, &mut o);
        debug_assert!(o.done(), "{}: observe left slots unwritten", G::INFO.name);
    }

    fn legal(&self) -> &[LegalAction] {
        self.legal.as_slice()
    }

    fn step(&mut self, id: u32) -> Result<(), StepError> {
        if self.legal.is_empty() {
            return Err(StepError::Over);
        }
        let k = self
            .legal
            .iter()
            .position(|l| l.id == id)
            .ok_or(StepError::Illegal {
                id,
                legal: self.legal.len(),
            })?;
        let a = self.actions[k];
        self.shared.matches[self.m].apply(&mut self.state, a);
        self.decisions += 1;
        self.play_opponent();
        self.refresh();
        Ok(())
    }

    fn render(&self, seat: Seat) -> String {
        self.game().render(&self.state, seat)
    }

    fn action_text(&self, id: u32) -> Option<String> {
        let k = self.legal.iter().position(|l| l.id == id)?;
        Some(self.game().action_text(&self.state, self.actions[k]))
    }

    fn clone_game(&self) -> Option<Box<dyn Env>> {
        if self.opponent.is_some() {
            return None;
        }
        Some(Box::new(GameEnv::<G> {
            shared: self.shared.clone(),
            spec_seat: self.spec_seat,
            spec_first: self.spec_first,
            opponent: None,
            m: self.m,
            state: self.state,
            opp: None,
            decisions: self.decisions,
            actions: self.actions,
            legal: self.legal,
        }))
    }

    fn fork(&self) -> Box<dyn Env> {
        let mut e = GameEnv::<G> {
            shared: self.shared.clone(),
            spec_seat: self.spec_seat,
            spec_first: self.spec_first,
            opponent: self.opponent.clone(),
            m: 0,
            state: self.shared.matches[0].new_game(0, Seat::P1),
            opp: None,
            decisions: 0,
            actions: ActionList::new(),
            legal: FixedVec::new(),
        };
        e.reset(0);
        Box::new(e)
    }

    fn determinize(&mut self, seat: Seat, seed: u64) -> Result<(), StepError> {
        if self.opponent.is_some() {
            return Err(StepError::Opponent);
        }
        let mut rng = rng_from_seed(seed);
        self.state = self.game().determinize(&self.state, seat, &mut rng);
        self.refresh();
        Ok(())
    }
}

/// Many single-agent environments stepped together, writing into caller-owned arrays (rows of
/// the environments, in order). A finished game is reset in the same step from the next seed of
/// its row: the row's observation and mask are then the new game's, and `terminated` says that
/// the reward was the end of the last one (Gymnasium's `SAME_STEP` autoreset).
pub struct VecEnv {
    envs: Vec<Box<dyn Env>>,
    /// Each row's seed and the episodes it has started.
    seeds: Vec<(u64, u64)>,
    /// Each row's legal ids last written into the mask, to clear them (not the whole row).
    written: Vec<FixedVec<u32, MAX_ACTIONS>>,
    /// Each row's stream of random actions (`step(None)`, `sample`), so that a row's games
    /// depend on its seed alone.
    rngs: Vec<GameRng>,
}

/// One step's output arrays, `n` rows each: observations `n × obs_len`, masks `n × n_actions`
/// (1 for a legal id), rewards, terminated and illegal flags.
pub struct Outputs<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [u8],
    pub reward: &'a mut [f32],
    pub terminated: &'a mut [u8],
    /// 1 where the row's action was not legal: its game ended there as the learner's loss.
    pub illegal: &'a mut [u8],
    /// Where given (`n × obs_len`), a finished game's last observation, written into its row
    /// before the reset (other rows untouched).
    pub final_obs: Option<&'a mut [f32]>,
}

/// Owned arrays for a [`VecEnv`]'s [`Outputs`] (the Python package keeps NumPy arrays instead).
pub struct Buffers {
    pub obs: Vec<f32>,
    pub mask: Vec<u8>,
    pub reward: Vec<f32>,
    pub terminated: Vec<u8>,
    pub illegal: Vec<u8>,
    pub final_obs: Vec<f32>,
}

impl Buffers {
    /// Zeroed arrays of the sizes `v` writes.
    pub fn new(v: &VecEnv) -> Buffers {
        let (n, l, a) = (v.len(), v.first().layout().len(), v.first().space().len());
        Buffers {
            obs: vec![0.0; n * l],
            mask: vec![0; n * a],
            reward: vec![0.0; n],
            terminated: vec![0; n],
            illegal: vec![0; n],
            final_obs: vec![0.0; n * l],
        }
    }

    /// The arrays as one step's outputs; `final_obs` written or not.
    pub fn outputs(&mut self, final_obs: bool) -> Outputs<'_> {
        Outputs {
            obs: &mut self.obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            illegal: &mut self.illegal,
            final_obs: final_obs.then_some(&mut self.final_obs[..]),
        }
    }
}

impl VecEnv {
    /// `n` copies of the environment `spec` describes (it must have an opponent); row `i`'s
    /// episodes are seeded from `seed` and `i`.
    pub fn new(spec: &EnvSpec, n: usize, seed: u64) -> Result<VecEnv, Error> {
        if spec.opponent.is_none() {
            return Err(Error::usage(
                "a vectorised environment needs an opponent (a built-in agent spec)",
            ));
        }
        if n == 0 {
            return Err(Error::usage(
                "a vectorised environment needs at least 1 game",
            ));
        }
        let first = open(spec)?;
        let mut envs = Vec::with_capacity(n);
        for _ in 1..n {
            envs.push(first.fork());
        }
        envs.insert(0, first);
        Ok(VecEnv {
            envs,
            seeds: (0..n as u64).map(|i| (mix_seed(&[seed, i]), 0)).collect(),
            written: vec![FixedVec::new(); n],
            rngs: (0..n as u64)
                .map(|i| rng_from_seed(mix_seed(&[seed, i, u64::MAX])))
                .collect(),
        })
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Whether there are none (never: [`VecEnv::new`] refuses 0).
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// The first game (for its layout, space and info).
    pub fn first(&self) -> &dyn Env {
        &*self.envs[0]
    }

    /// Row `i`'s game.
    pub fn get(&self, i: usize) -> &dyn Env {
        &*self.envs[i]
    }

    fn check(&self, o: &Outputs) {
        let (n, l, a) = (
            self.envs.len(),
            self.envs[0].layout().len(),
            self.envs[0].space().len(),
        );
        assert_eq!(o.obs.len(), n * l, "observation array of the wrong size");
        assert_eq!(o.mask.len(), n * a, "mask array of the wrong size");
        assert_eq!(o.reward.len(), n, "reward array of the wrong size");
        assert_eq!(o.terminated.len(), n, "terminated array of the wrong size");
        assert_eq!(o.illegal.len(), n, "illegal array of the wrong size");
        if let Some(f) = &o.final_obs {
            assert_eq!(f.len(), n * l, "final observation array of the wrong size");
        }
    }

    /// Starts every row's next episode and writes the observations and masks (rewards,
    /// terminated and illegal are zeroed).
    pub fn reset(&mut self, o: Outputs) {
        self.check(&o);
        o.mask.fill(0);
        for w in &mut self.written {
            w.clear();
        }
        for i in 0..self.envs.len() {
            self.next_episode(i);
            self.write(i, o.obs, o.mask);
        }
        o.reward.fill(0.0);
        o.terminated.fill(0);
        o.illegal.fill(0);
    }

    /// Whether [`VecEnv::reset`] has been called (stepping needs it): the rows have started
    /// episodes.
    pub fn started(&self) -> bool {
        self.seeds[0].1 > 0
    }

    /// Starts row `i`'s next episode. An episode that ends before the learner's first decision
    /// (the opponent's decisions ended it) gives the learner nothing to do: the row goes on to the
    /// next seed.
    fn next_episode(&mut self, i: usize) {
        for _ in 0..1000 {
            let (seed, k) = &mut self.seeds[i];
            let s = mix_seed(&[*seed, *k]);
            *k += 1;
            self.envs[i].reset(s);
            if !self.envs[i].legal().is_empty() {
                return;
            }
        }
        panic!("1000 episodes in a row ended before the learner's first decision");
    }

    fn write(&mut self, i: usize, obs: &mut [f32], mask: &mut [u8]) {
        let env = &self.envs[i];
        let (l, a) = (env.layout().len(), env.space().len());
        env.observe(env.seat(), &mut obs[i * l..(i + 1) * l]);
        let row = &mut mask[i * a..(i + 1) * a];
        for &id in self.written[i].iter() {
            row[id as usize] = 0;
        }
        self.written[i].clear();
        for la in env.legal().iter() {
            row[la.id as usize] = 1;
            self.written[i].push(la.id);
        }
    }

    /// Plays `actions[i]` in row `i` (or, where `actions` is `None`, a legal action drawn
    /// uniformly from the row's own seeded stream), writes each row's reward (the learner's
    /// result when its game ended, else 0), writes a finished game's last observation into its
    /// row of `final_obs` (when given), resets the finished games and writes every row's
    /// observation and mask. The masks must be those the last call wrote. Panics before the first
    /// [`VecEnv::reset`].
    pub fn step(&mut self, actions: Option<&[u32]>, mut o: Outputs) {
        assert!(self.started(), "VecEnv::step before VecEnv::reset");
        self.check(&o);
        if let Some(a) = actions {
            assert_eq!(a.len(), self.envs.len(), "actions array of the wrong size");
        }
        for i in 0..self.envs.len() {
            let env = &mut self.envs[i];
            let seat = env.seat();
            let played = match actions {
                Some(a) => env.step(a[i]).is_ok(),
                None => env.step_random(&mut self.rngs[i]).is_some(),
            };
            let (reward, done) = if !played {
                (-1.0, true)
            } else {
                match env.returns() {
                    Some(r) => (r[seat.index()], true),
                    None => (0.0, false),
                }
            };
            o.reward[i] = reward;
            o.terminated[i] = u8::from(done);
            o.illegal[i] = u8::from(!played);
            if done {
                if let Some(f) = o.final_obs.as_deref_mut() {
                    let env = &self.envs[i];
                    let l = env.layout().len();
                    env.observe(env.seat(), &mut f[i * l..(i + 1) * l]);
                }
                self.next_episode(i);
            }
            self.write(i, o.obs, o.mask);
        }
    }

    /// Draws a legal action of each row uniformly from the row's own seeded stream into `out`.
    pub fn sample(&mut self, out: &mut [u32]) {
        assert!(self.started(), "VecEnv::sample before VecEnv::reset");
        assert_eq!(
            out.len(),
            self.envs.len(),
            "actions array of the wrong size"
        );
        for ((env, a), rng) in self.envs.iter().zip(out.iter_mut()).zip(&mut self.rngs) {
            let legal = env.legal();
            *a = legal[rng.gen_range(0..legal.len())].id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy(opponent: Option<&str>, seat: SeatChoice, first: SeatChoice) -> EnvSpec {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        EnvSpec {
            game: "toy".into(),
            cards: None,
            decks: [
                Source::File(root.join("decks/toy/high.deck")),
                Source::File(root.join("decks/toy/low.deck")),
            ],
            opponent: opponent.map(String::from),
            seat,
            first,
        }
    }

    fn obs(e: &dyn Env, seat: Seat) -> Vec<f32> {
        let mut v = vec![0.0; e.layout().len()];
        e.observe(seat, &mut v);
        v
    }

    /// The same seed gives the same game: seats, deal, the opponent's play; the learner is always
    /// to move when it is not over.
    #[test]
    fn reset_with_a_seed_replays_the_same_game() {
        let spec = toy(Some("random"), SeatChoice::Random, SeatChoice::Random);
        let mut a = open(&spec).unwrap();
        let mut b = open(&spec).unwrap();
        let mut rng = rng_from_seed(5);
        let mut seats = [0; 2];
        for seed in 0..40 {
            // b plays another game first: a reset forgets it.
            b.reset(seed + 1000);
            b.step_random(&mut rng);
            a.reset(seed);
            b.reset(seed);
            seats[a.seat().index()] += 1;
            let mut r1 = rng_from_seed(seed);
            let mut r2 = rng_from_seed(seed);
            loop {
                assert_eq!(a.seat(), b.seat());
                assert_eq!(obs(&*a, a.seat()), obs(&*b, b.seat()));
                assert_eq!(a.legal(), b.legal());
                if a.returns().is_some() {
                    break;
                }
                assert_eq!(a.to_move(), Some(a.seat()), "the learner decides");
                assert_eq!(a.step_random(&mut r1), b.step_random(&mut r2));
            }
            assert_eq!(a.returns(), b.returns());
        }
        assert!(seats[0] > 5 && seats[1] > 5, "both seats drawn: {seats:?}");
    }

    /// Without an opponent the caller plays both seats, and the game is the match's own: the
    /// same actions on the engine directly give the same states and result.
    #[test]
    fn without_an_opponent_the_env_is_the_engine_game() {
        use crate::core::Game;
        use crate::games::toy::ToyGame;
        let spec = toy(
            None,
            SeatChoice::Fixed(Seat::P2),
            SeatChoice::Fixed(Seat::P2),
        );
        let mut e = open(&spec).unwrap();
        let cards = ToyGame::bundled_cards();
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let high = ToyGame::load_deck(&cards, &root.join("decks/toy/high.deck")).unwrap();
        let low = ToyGame::load_deck(&cards, &root.join("decks/toy/low.deck")).unwrap();
        // decks[0] (high) in seat P2.
        let g = ToyGame::new_match(&cards, [&low, &high]);
        let mut rng = rng_from_seed(9);
        for seed in 0..20u64 {
            e.reset(seed);
            assert_eq!(e.seat(), Seat::P2);
            let mut s = g.new_game(mix_seed(&[seed, 1]), Seat::P2);
            let mut legal = ActionList::new();
            while let Some(q) = g.to_move(&s) {
                assert_eq!(e.to_move(), Some(q));
                assert_eq!(e.render(q), g.render(&s, q));
                g.legal_actions(&s, &mut legal);
                let k = rng.gen_range(0..legal.len());
                let code = g.action_code(&s, legal[k]);
                e.step(e.space().id(code).unwrap()).unwrap();
                g.apply(&mut s, legal[k]);
            }
            let want = match g.outcome(&s).unwrap() {
                Outcome::Win(Seat::P1) => [1.0, -1.0],
                Outcome::Win(Seat::P2) => [-1.0, 1.0],
                Outcome::Draw => [0.0, 0.0],
            };
            assert_eq!(e.returns(), Some(want));
            assert_eq!(e.step(0), Err(StepError::Over));
        }
    }

    /// An id that is not legal is refused and changes nothing.
    #[test]
    fn an_illegal_id_is_refused() {
        let mut e = open(&toy(Some("random"), SeatChoice::Random, SeatChoice::Random)).unwrap();
        e.reset(3);
        let before = obs(&*e, e.seat());
        let bad = (0..e.space().len() as u32)
            .find(|id| e.legal().iter().all(|l| l.id != *id))
            .unwrap();
        assert!(matches!(e.step(bad), Err(StepError::Illegal { .. })));
        assert_eq!(obs(&*e, e.seat()), before);
    }

    /// The vectorised steps are the single environments' steps: each row's rewards, observations,
    /// final observations and masks equal those of a single environment reset from the row's
    /// seeds and given the same actions, across the automatic resets (the masks' incremental
    /// clearing included).
    #[test]
    fn vectorised_rows_are_single_environments() {
        let spec = toy(Some("random"), SeatChoice::Random, SeatChoice::Random);
        let n = 3;
        let mut v = VecEnv::new(&spec, n, 77).unwrap();
        let (l, a) = (v.first().layout().len(), v.first().space().len());
        let mut b = Buffers::new(&v);
        v.reset(b.outputs(true));
        let mut singles: Vec<_> = (0..n).map(|_| open(&spec).unwrap()).collect();
        let mut episode = vec![0u64; n];
        for (i, s) in singles.iter_mut().enumerate() {
            s.reset(mix_seed(&[mix_seed(&[77, i as u64]), 0]));
            episode[i] = 1;
        }
        let mut actions = vec![0u32; n];
        let mut ends = 0;
        for step in 0..300 {
            for (i, single) in singles.iter().enumerate() {
                assert_eq!(
                    &b.obs[i * l..(i + 1) * l],
                    &obs(&**single, single.seat())[..]
                );
                let mut m = vec![0u8; a];
                for la in single.legal() {
                    m[la.id as usize] = 1;
                }
                assert_eq!(&b.mask[i * a..(i + 1) * a], &m[..], "row {i}, step {step}");
            }
            v.sample(&mut actions);
            if step % 50 == 7 {
                // An illegal id: the row's game ends as a loss.
                actions[1] = (0..a as u32)
                    .find(|&id| b.mask[a + id as usize] == 0)
                    .unwrap();
            }
            v.step(Some(&actions), b.outputs(true));
            for i in 0..n {
                let s = &mut singles[i];
                let seat = s.seat();
                let (r, done, bad) = match s.step(actions[i]) {
                    Err(_) => (-1.0, true, true),
                    Ok(()) => match s.returns() {
                        Some(r) => (r[seat.index()], true, false),
                        None => (0.0, false, false),
                    },
                };
                assert_eq!(
                    (b.reward[i], b.terminated[i] == 1, b.illegal[i] == 1),
                    (r, done, bad)
                );
                if done {
                    assert_eq!(
                        &b.final_obs[i * l..(i + 1) * l],
                        &obs(&**s, seat)[..],
                        "final obs"
                    );
                    ends += 1;
                    s.reset(mix_seed(&[mix_seed(&[77, i as u64]), episode[i]]));
                    episode[i] += 1;
                }
            }
        }
        assert!(ends > 20, "{ends} episodes ended");
    }

    /// A row's games depend on its seed alone: row 0 of a vector of 3 plays the games of a
    /// vector of 1, random actions included.
    #[test]
    fn a_rows_games_do_not_depend_on_the_other_rows() {
        let spec = toy(Some("random"), SeatChoice::Random, SeatChoice::Random);
        let run = |n: usize| {
            let mut v = VecEnv::new(&spec, n, 5).unwrap();
            let l = v.first().layout().len();
            let mut b = Buffers::new(&v);
            let mut seen = Vec::new();
            for k in 0..60 {
                if k == 0 {
                    v.reset(b.outputs(false));
                } else {
                    v.step(None, b.outputs(false));
                }
                seen.push((b.obs[..l].to_vec(), b.reward[0]));
            }
            seen
        };
        assert_eq!(run(1), run(3));
    }

    /// With the same deck on both sides and seats and first player drawn by coin, the learner's
    /// mean reward playing at random against random is 0 (a known distribution: within 4
    /// standard errors over 4,000 games).
    #[test]
    fn random_against_random_on_a_mirror_scores_zero() {
        let mut spec = toy(Some("random"), SeatChoice::Random, SeatChoice::Random);
        spec.decks[1] = spec.decks[0].clone();
        let mut e = open(&spec).unwrap();
        let mut rng = rng_from_seed(1);
        let (mut sum, mut sq, n) = (0.0f64, 0.0f64, 4000);
        for seed in 0..n {
            e.reset(seed);
            while e.step_random(&mut rng).is_some() {}
            let r = f64::from(e.returns().unwrap()[e.seat().index()]);
            sum += r;
            sq += r * r;
        }
        let mean = sum / n as f64;
        let se = ((sq / n as f64 - mean * mean) / n as f64).sqrt();
        assert!(mean.abs() < 4.0 * se, "mean {mean}, se {se}");
    }

    #[test]
    fn bad_specs_are_refused_with_their_reason() {
        let mut spec = toy(Some("process:sh x"), SeatChoice::Random, SeatChoice::Random);
        let e = open(&spec).err().unwrap().to_string();
        assert!(e.contains("process: agent cannot be"), "{e}");
        spec.opponent = Some("nonsense".into());
        assert!(open(&spec).is_err());
        spec.opponent = None;
        spec.game = "chess".into();
        let e = open(&spec).err().unwrap().to_string();
        assert!(e.contains("unknown game \"chess\""), "{e}");
        spec.game = "toy".into();
        spec.decks[1] = Source::Text {
            name: "bad".into(),
            text: "3 Nosuchcard\n".into(),
        };
        let e = open(&spec).err().unwrap().to_string();
        assert!(e.starts_with("bad"), "{e}");
        assert!(VecEnv::new(&spec, 2, 1).is_err(), "no opponent");
    }
}
