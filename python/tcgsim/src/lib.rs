//! `tcgsim._core`: the Rust core's environments for Python (`docs/python.md`). The Python modules
//! `tcgsim.gym`, `tcgsim.pettingzoo` and `tcgsim.openspiel` wrap these two classes:
//!
//! - [`Env`]: one game ([`tcgsim::sim::env::Env`]), single-agent with a built-in opponent or
//!   two-player without one.
//! - [`VecEnv`]: many single-agent games stepped in one call, NumPy arrays in and out, no Python
//!   object per step ([`tcgsim::sim::env::VecEnv`]).
//!
//! Errors: a bad card file, deck, agent spec or seat raises `ValueError` naming the file, line
//! and reason; an illegal action id raises `ValueError` (the Python wrappers decide what an
//! illegal action means for their library).

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use tcgsim::core::tensor::ActionCode;
use tcgsim::core::{rng_from_seed, GameRng, Seat};
use tcgsim::sim::env::{self, EnvSpec, Outputs, SeatChoice, Source};

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// Mixed into a reset's seed for the stream of `step_random`.
const ACTION_STREAM: u64 = 0x9e37_79b9_7f4a_7c15;

fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn seat_arg(v: Option<&str>, what: &str) -> PyResult<SeatChoice> {
    match v {
        None => Ok(SeatChoice::Random),
        Some(t) => Seat::from_name(t).map(SeatChoice::Fixed).ok_or_else(|| {
            err(format!(
                "{what}: expected \"P1\", \"P2\" or None, found {t:?}"
            ))
        }),
    }
}

fn seat_of(t: &str) -> PyResult<Seat> {
    Seat::from_name(t).ok_or_else(|| err(format!("seat: expected \"P1\" or \"P2\", found {t:?}")))
}

/// A path made absolute, so that a pickled environment loads from any working folder.
fn absolute(p: &str) -> String {
    std::path::absolute(p).map_or_else(|_| p.to_string(), |a| a.display().to_string())
}

/// `decks`: two bundled deck names or paths.
fn decks_arg(v: &Bound<'_, PyAny>) -> PyResult<(String, String)> {
    v.extract::<(String, String)>().map_err(|_| {
        err("decks: a pair (the learner's deck, the other's) of bundled deck names or deck-file paths")
    })
}

/// A deck by bundled name (`aggro`) or by path.
fn deck_source(game: &str, deck: &str) -> PyResult<Source> {
    let plain = !deck.contains(['/', '\\', '.']);
    if plain {
        if let Some((_, name, text)) = BUNDLED_DECKS
            .iter()
            .find(|(g, n, _)| *g == game && *n == deck)
        {
            return Ok(Source::Text {
                name: (*name).to_string(),
                text: (*text).to_string(),
            });
        }
        return Err(err(format!(
            "deck \"{deck}\": no bundled {game} deck has that name (the bundled decks: {}); give a \
             path to a deck file instead",
            bundled_names(game).join(", ")
        )));
    }
    Ok(Source::File(PathBuf::from(deck)))
}

fn bundled_names(game: &str) -> Vec<&'static str> {
    BUNDLED_DECKS
        .iter()
        .filter(|(g, _, _)| *g == game)
        .map(|(_, n, _)| *n)
        .collect()
}

fn spec(
    game: &str,
    decks: (String, String),
    cards: Option<String>,
    opponent: Option<String>,
    seat: Option<&str>,
    first: Option<&str>,
) -> PyResult<EnvSpec> {
    if tcgsim::games::info(game).is_none() {
        return Err(err(format!(
            "unknown game \"{game}\" (the games: {})",
            tcgsim::games::names()
        )));
    }
    Ok(EnvSpec {
        game: game.to_string(),
        cards: cards.map(|c| Source::File(PathBuf::from(c))),
        decks: [deck_source(game, &decks.0)?, deck_source(game, &decks.1)?],
        opponent,
        seat: seat_arg(seat, "seat")?,
        first: seat_arg(first, "first")?,
    })
}

/// The layout as a list of `(name, offset, length, low, high, doc)`.
fn slots(e: &dyn env::Env) -> Vec<(String, usize, usize, f32, f32, String)> {
    e.layout()
        .slots()
        .iter()
        .map(|s| {
            (
                s.name.to_string(),
                s.offset,
                s.len,
                s.low,
                s.high,
                s.doc.clone(),
            )
        })
        .collect()
}

/// The action kinds as a list of `(name, first id, count, doc)`.
fn kinds(e: &dyn env::Env) -> Vec<(String, u32, u32, String)> {
    let mut first = 0;
    e.space()
        .kinds()
        .iter()
        .map(|k| {
            let row = (k.name.to_string(), first, k.args, k.doc.to_string());
            first += k.args;
            row
        })
        .collect()
}

fn opt(v: Option<u32>) -> i64 {
    v.map_or(-1, i64::from)
}

/// What made an [`Env`], to rebuild it (pickling, and copies of games with an opponent).
#[derive(Clone)]
struct Args {
    game: String,
    decks: (String, String),
    cards: Option<String>,
    opponent: Option<String>,
    seat: Option<String>,
    first: Option<String>,
}

/// What happened to an [`Env`] since its last reset, to replay it.
#[derive(Clone, Copy)]
enum Event {
    Step(u32),
    Random,
    Determinize(Seat, u64),
}

/// One game of tcgsim, stepped by stable action ids.
#[pyclass(unsendable, module = "tcgsim._core")]
struct Env {
    env: Box<dyn env::Env>,
    rng: GameRng,
    args: Args,
    /// The last reset's seed (0 before any: `open` starts the game of seed 0).
    seed: u64,
    events: Vec<Event>,
}

type Restore = (
    String,
    (String, String),
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    u64,
    Vec<(u8, u64)>,
);

impl Env {
    fn build(args: Args) -> PyResult<Env> {
        let s = spec(
            &args.game,
            args.decks.clone(),
            args.cards.clone(),
            args.opponent.clone(),
            args.seat.as_deref(),
            args.first.as_deref(),
        )?;
        // `open` starts the game of seed 0: the same as `reset(0)`, so that a game stepped before
        // any reset pickles and copies too.
        Ok(Env {
            env: env::open(&s).map_err(err)?,
            rng: rng_from_seed(ACTION_STREAM),
            args,
            seed: 0,
            events: Vec::new(),
        })
    }

    /// A fresh environment of the same spec with this one's game replayed.
    fn replayed(&self) -> PyResult<Env> {
        let mut e = Env::build(self.args.clone())?;
        e.reset(self.seed);
        for &ev in &self.events {
            e.apply(ev)?;
        }
        Ok(e)
    }

    fn apply(&mut self, ev: Event) -> PyResult<()> {
        match ev {
            Event::Step(id) => self.env.step(id).map_err(err)?,
            Event::Random => {
                self.env.step_random(&mut self.rng);
            }
            Event::Determinize(seat, seed) => self.env.determinize(seat, seed).map_err(err)?,
        }
        self.events.push(ev);
        Ok(())
    }
}

#[pymethods]
impl Env {
    /// `Env(game, decks, cards=None, opponent=None, seat=None, first=None)`: `decks` a pair of
    /// bundled deck names or paths (`decks[0]` the learner's with an opponent); `opponent` a
    /// built-in agent spec or None (the caller plays both seats); `seat`, `first`: "P1", "P2" or
    /// None (drawn from each episode's seed).
    #[new]
    #[pyo3(signature = (game, decks, cards=None, opponent=None, seat=None, first=None))]
    fn new(
        game: &str,
        decks: &Bound<'_, PyAny>,
        cards: Option<String>,
        opponent: Option<String>,
        seat: Option<&str>,
        first: Option<&str>,
    ) -> PyResult<Env> {
        let (a, b) = decks_arg(decks)?;
        let path = |d: String| {
            if d.contains(['/', '\\', '.']) {
                absolute(&d)
            } else {
                d
            }
        };
        Env::build(Args {
            game: game.to_string(),
            decks: (path(a), path(b)),
            cards: cards.map(|c| absolute(&c)),
            opponent,
            seat: seat.map(String::from),
            first: first.map(String::from),
        })
    }

    /// Rebuilds a pickled environment: its spec, then its game replayed from the reset's seed.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _restore(
        game: String,
        decks: (String, String),
        cards: Option<String>,
        opponent: Option<String>,
        seat: Option<String>,
        first: Option<String>,
        seed: u64,
        events: Vec<(u8, u64)>,
    ) -> PyResult<Env> {
        let mut e = Env::build(Args {
            game,
            decks,
            cards,
            opponent,
            seat,
            first,
        })?;
        e.reset(seed);
        for (k, v) in events {
            let ev = match k {
                0 => Event::Step(
                    u32::try_from(v).map_err(|_| err(format!("bad pickled action {v}")))?,
                ),
                1 => Event::Random,
                2 | 3 => Event::Determinize(Seat::from_index(usize::from(k - 2)), v),
                _ => return Err(err(format!("bad pickled event {k}"))),
            };
            e.apply(ev)?;
        }
        Ok(e)
    }

    /// Pickling: the spec, the reset's seed and the game's events, replayed on loading.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Restore)> {
        let me = slf.borrow();
        let a = me.args.clone();
        let events = me
            .events
            .iter()
            .map(|ev| match *ev {
                Event::Step(id) => (0u8, u64::from(id)),
                Event::Random => (1, 0),
                Event::Determinize(seat, seed) => (2 + seat.index() as u8, seed),
            })
            .collect();
        let restore = slf.getattr("_restore")?;
        Ok((
            restore,
            (
                a.game, a.decks, a.cards, a.opponent, a.seat, a.first, me.seed, events,
            ),
        ))
    }

    /// A copy: the game itself without an opponent (cheap), else a replay.
    fn __copy__(&self) -> PyResult<Env> {
        match self.env.clone_game() {
            Some(env) => Ok(Env {
                env,
                rng: self.rng.clone(),
                args: self.args.clone(),
                seed: self.seed,
                events: self.events.clone(),
            }),
            None => self.replayed(),
        }
    }

    /// As `__copy__` (the environment holds no Python objects).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Env> {
        self.__copy__()
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.env.info().name
    }

    /// The game's title.
    #[getter]
    fn title(&self) -> &'static str {
        self.env.info().title
    }

    /// The observation vector's length.
    #[getter]
    fn obs_len(&self) -> usize {
        self.env.layout().len()
    }

    /// The number of stable action ids.
    #[getter]
    fn n_actions(&self) -> usize {
        self.env.space().len()
    }

    /// The observation's slots: `(name, offset, length, low, high, doc)`.
    fn slots(&self) -> Vec<(String, usize, usize, f32, f32, String)> {
        slots(&*self.env)
    }

    /// The action kinds: `(name, first id, count, doc)`.
    fn kinds(&self) -> Vec<(String, u32, u32, String)> {
        kinds(&*self.env)
    }

    /// Whether a built-in opponent plays the other seat.
    #[getter]
    fn has_opponent(&self) -> bool {
        self.env.has_opponent()
    }

    /// Starts a new game from `seed` (seats, first player, deal and opponent all drawn from it).
    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
        self.rng = rng_from_seed(seed ^ ACTION_STREAM);
        self.seed = seed;
        self.events.clear();
    }

    /// The seat of `decks[0]` (the learner's) in this game: "P1" or "P2".
    #[getter]
    fn seat(&self) -> String {
        self.env.seat().to_string()
    }

    /// The seat to decide, or None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        self.env.to_move().map(|s| s.to_string())
    }

    /// The result per seat (P1, P2): 1 a win, -1 a loss, 0 a draw; None while the game goes on.
    #[getter]
    fn returns(&self) -> Option<(f32, f32)> {
        self.env.returns().map(|r| (r[0], r[1]))
    }

    /// The turn number.
    #[getter]
    fn turn(&self) -> u32 {
        self.env.turn()
    }

    /// The decisions taken so far in this game, both seats'.
    #[getter]
    fn decisions(&self) -> u32 {
        self.env.decisions()
    }

    /// What `seat` may see ("P1"/"P2"; default: the learner's seat), as a new float32 array.
    #[pyo3(signature = (seat=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = match seat {
            Some(t) => seat_of(t)?,
            None => self.env.seat(),
        };
        let a = PyArray1::<f32>::zeros(py, self.env.layout().len(), false);
        {
            let mut w = a.readwrite();
            self.env
                .observe(seat, w.as_slice_mut().expect("contiguous"));
        }
        Ok(a)
    }

    /// What the learner's seat sees and its mask, in one call: `(observation, mask)`.
    fn view<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<u8>>) {
        let o = PyArray1::<f32>::zeros(py, self.env.layout().len(), false);
        {
            let mut w = o.readwrite();
            self.env
                .observe(self.env.seat(), w.as_slice_mut().expect("contiguous"));
        }
        (o, self.mask(py))
    }

    /// One learner's step in one call: plays `id` (and, with an opponent, its decisions), then
    /// returns `(observation, mask, reward)` for the learner's seat, `reward` None while the game
    /// goes on. Raises ValueError for an id that is not legal.
    #[allow(clippy::type_complexity)]
    fn learner_step<'py>(
        &mut self,
        py: Python<'py>,
        id: i64,
    ) -> PyResult<(
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<u8>>,
        Option<f32>,
    )> {
        self.step(id)?;
        let (o, m) = self.view(py);
        let r = self.env.returns().map(|r| r[self.env.seat().index()]);
        Ok((o, m, r))
    }

    /// The legal action ids' mask (uint8, `n_actions` long; all 0 once the game is over).
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let a = PyArray1::<u8>::zeros(py, self.env.space().len(), false);
        {
            let mut w = a.readwrite();
            let m = w.as_slice_mut().expect("contiguous");
            for l in self.env.legal() {
                m[l.id as usize] = 1;
            }
        }
        a
    }

    /// The legal action ids, in the engine's order (uint32).
    fn legal_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let ids: Vec<u32> = self.env.legal().iter().map(|l| l.id).collect();
        PyArray1::from_vec(py, ids)
    }

    /// The legal actions' features, one row each in the engine's order: `[id, kind, arg, card,
    /// target]` (int64; -1 where an action has no card or target).
    fn legal_features<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        let rows: Vec<Vec<i64>> = self
            .env
            .legal()
            .iter()
            .map(|l| {
                let c: ActionCode = l.code;
                vec![
                    i64::from(l.id),
                    i64::from(c.kind),
                    i64::from(c.arg),
                    opt(c.card),
                    opt(c.target),
                ]
            })
            .collect();
        if rows.is_empty() {
            return PyArray2::zeros(py, (0, 5), false);
        }
        PyArray2::from_vec2(py, &rows).expect("rows of 5")
    }

    /// The legal actions as dicts: id, kind (name), card, target (None where absent), text (the
    /// game's notation).
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let names = self.env.space().kinds();
        self.env
            .legal()
            .iter()
            .map(|l| {
                let d = PyDict::new(py);
                d.set_item("id", l.id)?;
                d.set_item("kind", names[l.code.kind as usize].name)?;
                d.set_item("card", l.code.card)?;
                d.set_item("target", l.code.target)?;
                d.set_item("text", self.env.action_text(l.id))?;
                Ok(d)
            })
            .collect()
    }

    /// Plays the action with stable id `id` for the player to move (with an opponent, then its
    /// decisions until the learner's turn). Raises ValueError for an id that is not legal or a
    /// finished game.
    fn step(&mut self, id: i64) -> PyResult<()> {
        let id = u32::try_from(id).map_err(|_| err(format!("action {id} is not legal here")))?;
        self.env.step(id).map_err(err)?;
        self.events.push(Event::Step(id));
        Ok(())
    }

    /// Plays a legal action drawn uniformly (seeded by the last `reset`'s seed); returns its id,
    /// or None once the game is over.
    fn step_random(&mut self) -> Option<u32> {
        let id = self.env.step_random(&mut self.rng)?;
        self.events.push(Event::Random);
        Some(id)
    }

    /// What `seat` sees, as the text a person at the table is shown.
    fn render(&self, seat: &str) -> PyResult<String> {
        Ok(self.env.render(seat_of(seat)?))
    }

    /// The game's notation of a legal action id (None if it is not legal).
    fn action_text(&self, id: u32) -> Option<String> {
        self.env.action_text(id)
    }

    /// Redeals every card `seat` cannot see, from `seed`: a game that seat cannot tell from this
    /// one (only without an opponent: the core refuses it with one).
    fn determinize(&mut self, seat: &str, seed: u64) -> PyResult<()> {
        self.apply(Event::Determinize(seat_of(seat)?, seed))
    }
}

/// Many single-agent games stepped in one call. Arrays are the vector's own, written in place by
/// each call: copy what you keep.
#[pyclass(unsendable, module = "tcgsim._core")]
struct VecEnv {
    v: env::VecEnv,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<u8>>,
    reward: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<u8>>,
    illegal: Py<PyArray1<u8>>,
    final_obs: Py<PyArray2<f32>>,
    actions: Py<PyArray1<u32>>,
}

type Step<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray2<f32>>,
);

#[pymethods]
impl VecEnv {
    /// `VecEnv(game, decks, n, seed, cards=None, opponent="random", seat=None, first=None)`:
    /// `n` single-agent games; row `i`'s episodes are seeded from `seed` and `i`.
    #[new]
    #[pyo3(signature = (game, decks, n, seed=0, cards=None, opponent="random".to_string(), seat=None, first=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        decks: &Bound<'_, PyAny>,
        n: usize,
        seed: u64,
        cards: Option<String>,
        opponent: String,
        seat: Option<&str>,
        first: Option<&str>,
    ) -> PyResult<VecEnv> {
        let s = spec(game, decks_arg(decks)?, cards, Some(opponent), seat, first)?;
        let v = env::VecEnv::new(&s, n, seed).map_err(err)?;
        let (l, a) = (v.first().layout().len(), v.first().space().len());
        Ok(VecEnv {
            obs: PyArray2::<f32>::zeros(py, (n, l), false).unbind(),
            mask: PyArray2::<u8>::zeros(py, (n, a), false).unbind(),
            reward: PyArray1::<f32>::zeros(py, n, false).unbind(),
            terminated: PyArray1::<u8>::zeros(py, n, false).unbind(),
            illegal: PyArray1::<u8>::zeros(py, n, false).unbind(),
            final_obs: PyArray2::<f32>::zeros(py, (n, l), false).unbind(),
            actions: PyArray1::<u32>::zeros(py, n, false).unbind(),
            v,
        })
    }

    /// The number of games.
    #[getter]
    fn n(&self) -> usize {
        self.v.len()
    }

    #[getter]
    fn obs_len(&self) -> usize {
        self.v.first().layout().len()
    }

    #[getter]
    fn n_actions(&self) -> usize {
        self.v.first().space().len()
    }

    /// The observation's slots: `(name, offset, length, low, high, doc)`.
    fn slots(&self) -> Vec<(String, usize, usize, f32, f32, String)> {
        slots(self.v.first())
    }

    /// The action kinds: `(name, first id, count, doc)`.
    fn kinds(&self) -> Vec<(String, u32, u32, String)> {
        kinds(self.v.first())
    }

    /// The learner's seat in each game ("P1"/"P2").
    fn seats(&self) -> Vec<String> {
        (0..self.v.len())
            .map(|i| self.v.get(i).seat().to_string())
            .collect()
    }

    /// Starts every game's next episode: `(obs, mask, reward, terminated, illegal, final_obs)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> Step<'py> {
        let b = self.bound(py);
        {
            let (mut o, mut m, mut r, mut t, mut i) = (
                b.0.readwrite(),
                b.1.readwrite(),
                b.2.readwrite(),
                b.3.readwrite(),
                b.4.readwrite(),
            );
            self.v.reset(Outputs {
                obs: o.as_slice_mut().expect("contiguous"),
                mask: m.as_slice_mut().expect("contiguous"),
                reward: r.as_slice_mut().expect("contiguous"),
                terminated: t.as_slice_mut().expect("contiguous"),
                illegal: i.as_slice_mut().expect("contiguous"),
                final_obs: None,
            });
        }
        b
    }

    /// Plays `actions` (a uint32 array, one id per game; None: a uniformly random legal action
    /// each, from each row's seeded stream), resets finished games in the same step: `(obs,
    /// mask, reward, terminated, illegal, final_obs)`, `final_obs` holding a finished game's last
    /// observation in its row. An illegal id ends its game as the learner's loss (`illegal` 1).
    #[pyo3(signature = (actions=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Step<'py>> {
        if !self.v.started() {
            return Err(err("call reset() before step()"));
        }
        let actions = match actions {
            None => None,
            Some(a) => Some(a.cast_into::<PyArray1<u32>>().map_err(|_| {
                err(
                    "actions: a one-dimensional uint32 NumPy array, one id per game \
                     (np.asarray(actions, np.uint32))",
                )
            })?),
        };
        let b = self.bound(py);
        let ro = actions.as_ref().map(|a| a.readonly());
        let acts = match &ro {
            Some(r) => {
                let s = r
                    .as_slice()
                    .map_err(|_| err("actions: a contiguous uint32 array"))?;
                if s.len() != self.v.len() {
                    return Err(err(format!(
                        "actions: {} values for {} games",
                        s.len(),
                        self.v.len()
                    )));
                }
                Some(s)
            }
            None => None,
        };
        {
            let (mut o, mut m, mut r, mut t, mut i, mut f) = (
                b.0.readwrite(),
                b.1.readwrite(),
                b.2.readwrite(),
                b.3.readwrite(),
                b.4.readwrite(),
                b.5.readwrite(),
            );
            self.v.step(
                acts,
                Outputs {
                    obs: o.as_slice_mut().expect("contiguous"),
                    mask: m.as_slice_mut().expect("contiguous"),
                    reward: r.as_slice_mut().expect("contiguous"),
                    terminated: t.as_slice_mut().expect("contiguous"),
                    illegal: i.as_slice_mut().expect("contiguous"),
                    final_obs: Some(f.as_slice_mut().expect("contiguous")),
                },
            );
        }
        Ok(b)
    }

    /// A uniformly random legal action of each game (the vector's own array, uint32).
    fn sample<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        if !self.v.started() {
            return Err(err("call reset() before sample()"));
        }
        let a = self.actions.bind(py).clone();
        {
            let mut w = a.readwrite();
            self.v.sample(w.as_slice_mut().expect("contiguous"));
        }
        Ok(a)
    }
}

impl VecEnv {
    fn bound<'py>(&self, py: Python<'py>) -> Step<'py> {
        (
            self.obs.bind(py).clone(),
            self.mask.bind(py).clone(),
            self.reward.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.illegal.bind(py).clone(),
            self.final_obs.bind(py).clone(),
        )
    }
}

/// The registered games: `(name, title)`.
#[pyfunction]
fn games() -> Vec<(&'static str, &'static str)> {
    tcgsim::GAMES.iter().map(|g| (g.name, g.title)).collect()
}

/// The bundled decks of `game`, by name.
#[pyfunction]
fn bundled_decks(game: &str) -> Vec<&'static str> {
    bundled_names(game)
}

/// The 95% (or `z`'s) Wilson score interval of `successes` in `n` trials, `tcgsim::stats::wilson`
/// (draws may count half: `successes` need not be whole).
#[pyfunction]
#[pyo3(signature = (successes, n, z=tcgsim::stats::Z95))]
fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    tcgsim::stats::wilson(successes, n, z)
}

/// The default decks of `game`: the first two of its benchmark pair.
#[pyfunction]
fn default_decks(game: &str) -> PyResult<(&'static str, &'static str)> {
    let info = tcgsim::games::info(game).ok_or_else(|| {
        err(format!(
            "unknown game \"{game}\" (the games: {})",
            tcgsim::games::names()
        ))
    })?;
    match info.arena_decks {
        [a, b, ..] => Ok((a, b)),
        _ => Err(err(format!("the {} names no default decks", info.title))),
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Env>()?;
    m.add_class::<VecEnv>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(bundled_decks, m)?)?;
    m.add_function(wrap_pyfunction!(default_decks, m)?)?;
    m.add_function(wrap_pyfunction!(wilson, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
