//! `tcgsim serve DECK1 DECK2`: the game as a model other programs search with (OpenSpiel's bots,
//! `python/tcgsim_agent/openspiel_game.py`; `docs/protocol.md`, "The model server"). One JSON
//! request a line on standard input, one JSON answer a line on standard output. States live in a
//! table and never change: `apply` and `resample` make new ones, so a client's `clone` is free;
//! `free` gives them back, `retain` frees all but some. A bad request is answered `{"error": …}` and the server goes on.
//! It starts with a `hello` line (its protocol version, the game, the deck lists) and answers
//! `{"op": "hello", "protocol": N}` with it when it speaks `N`. Seeds are decimal strings, or
//! numbers below 2^53 (above, JSON clients round them).

use super::{card_source, load_decks, read_cards};
use crate::agents::process::{card_text, PROTOCOL};
use crate::agents::AgentSpec;
use crate::core::{rng_from_seed, ActionList, GameDef, Outcome, Seat};
use anyhow::Result;
use serde_json::{json, Value};
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The most states the table holds at once (a client that never frees is told so): about 1 GiB
/// for states of about 1 kB.
pub const MAX_STATES: usize = 1 << 20;
/// The longest request line.
const MAX_REQUEST: usize = 64 * 1024;

pub struct ServeOpts {
    pub decks: [PathBuf; 2],
    pub cards: Option<PathBuf>,
}

struct Table<G: GameDef> {
    game: G,
    states: Vec<Option<G::State>>,
    free: Vec<usize>,
    legal: ActionList<G::Action>,
}

/// Why the server refuses a request: the message of its `{"error": …}` answer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Refused(String);

/// A whole number field, or an error naming it.
fn uint(r: &Value, key: &str) -> Result<u64, Refused> {
    r[key].as_u64().ok_or_else(|| {
        Refused(format!(
            "\"{key}\": expected a whole number ≥ 0, found {}",
            r[key]
        ))
    })
}

/// The first whole number a JSON number may not hold exactly in JavaScript, jq or a double:
/// 2^53.
const EXACT_LIMIT: u64 = 1 << 53;

/// `"seed"`, 0 when left out: a decimal string (any 64-bit seed), or a number below 2^53 — a
/// number at or above it is refused, as most JSON clients would have rounded it on the way.
fn seed_of(r: &Value) -> Result<u64, Refused> {
    match r.get("seed") {
        None => Ok(0),
        Some(Value::String(t)) => t.parse::<u64>().map_err(|_| {
            Refused(format!(
                "\"seed\": expected a whole number 0 to 18446744073709551615 as a decimal string, found {}",
                r["seed"]
            ))
        }),
        Some(v) => match v.as_u64() {
            Some(x) if x < EXACT_LIMIT => Ok(x),
            Some(x) => Err(Refused(format!(
                "\"seed\": {x} is 2^53 or more, where JSON numbers lose digits (JavaScript, jq): \
                 send it as a decimal string, \"seed\": \"{x}\""
            ))),
            None => Err(Refused(format!(
                "\"seed\": expected a decimal string or a whole number below 2^53, found {v}"
            ))),
        },
    }
}

/// `"states"`: a list of state ids.
fn ids_of(r: &Value) -> Result<Vec<usize>, Refused> {
    let bad = || {
        Refused(format!(
            "\"states\": expected a list of state ids, found {}",
            r["states"]
        ))
    };
    r["states"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|v| v.as_u64().map(|i| i as usize).ok_or_else(bad))
        .collect()
}

fn seat_of(v: &Value) -> Result<Seat, Refused> {
    v.as_str()
        .and_then(Seat::from_name)
        .ok_or_else(|| Refused(format!("\"seat\": expected \"P1\" or \"P2\", found {v}")))
}

impl<G: GameDef> Table<G> {
    fn get(&self, v: &Value) -> Result<G::State, Refused> {
        let i = v
            .as_u64()
            .ok_or_else(|| Refused(format!("\"state\": expected a state id, found {v}")))?;
        self.states
            .get(i as usize)
            .copied()
            .flatten()
            .ok_or_else(|| Refused(format!("state {i} does not exist (never made, or freed)")))
    }

    fn put(&mut self, s: G::State) -> Result<usize, Refused> {
        if let Some(i) = self.free.pop() {
            self.states[i] = Some(s);
            return Ok(i);
        }
        if self.states.len() >= MAX_STATES {
            return Err(Refused(format!(
                "{MAX_STATES} states are live: free some (\"op\": \"free\")"
            )));
        }
        self.states.push(Some(s));
        Ok(self.states.len() - 1)
    }

    /// What a client needs of a state after making it: who moves, how many legal actions, the
    /// returns once it is over.
    fn summary(&mut self, id: usize) -> Value {
        let s = self.states[id].expect("just made");
        self.game.legal_actions(&s, &mut self.legal);
        let returns = self.game.outcome(&s).map(|o| match o {
            Outcome::Win(w) => {
                let mut r = [-1.0, -1.0];
                r[w.index()] = 1.0;
                r
            }
            Outcome::Draw => [0.0, 0.0],
        });
        json!({
            "state": id,
            "to_move": self.game.to_move(&s).map(|q| q.to_string()),
            "legal": self.legal.len(),
            "returns": returns,
        })
    }

    /// Answers one request: a dispatch on its `"op"` to the operation's method.
    fn handle(&mut self, r: &Value) -> Result<Value, Refused> {
        let op = r["op"].as_str().unwrap_or("");
        match op {
            "hello" => match r.get("protocol") {
                Some(p) if p.as_u64() == Some(PROTOCOL) => Ok(self.hello()),
                Some(p) => Err(Refused(format!(
                    "protocol {p}: tcgsim serve speaks protocol {PROTOCOL}"
                ))),
                None => Err(Refused(format!(
                    "\"protocol\": missing (the version the client speaks); tcgsim serve speaks protocol {PROTOCOL}"
                ))),
            },
            "card_text" => self.card_text(r),
            "new" => self.new_state(r),
            "apply" => self.apply(r),
            "legal" => self.legal_texts(r),
            "info" => {
                let s = self.get(&r["state"])?;
                let q = seat_of(&r["seat"])?;
                Ok(json!({ "info": self.game.info_key(&s, q) }))
            }
            "view" => {
                let s = self.get(&r["state"])?;
                let q = seat_of(&r["seat"])?;
                Ok(json!({ "view": self.game.render(&s, q) }))
            }
            "resample" => {
                let s = self.get(&r["state"])?;
                let q = seat_of(&r["seat"])?;
                let mut rng = rng_from_seed(seed_of(r)?);
                let d = self.game.determinize(&s, q, &mut rng);
                let id = self.put(d)?;
                Ok(self.summary(id))
            }
            "choose" => self.choose(r),
            "free" => self.free_listed(r),
            "retain" => self.retain(r),
            _ => Err(Refused(format!(
                "unknown op {}: expected hello, new, apply, legal, info, view, resample, choose, card_text, free or retain",
                r["op"]
            ))),
        }
    }

    /// The server's `hello`: what it writes when it starts and answers to `{"op": "hello"}` — the
    /// protocol's version, the game, and both deck lists as a process agent's `new_game` gives
    /// them.
    fn hello(&self) -> Value {
        let decks: Vec<Value> = Seat::ALL
            .iter()
            .map(|&q| {
                let cards: Vec<Value> = self
                    .game
                    .deck_list(q)
                    .into_iter()
                    .map(|(id, name, copies)| json!({"card": id, "name": name, "copies": copies}))
                    .collect();
                json!({"seat": q.to_string(), "cards": cards})
            })
            .collect();
        json!({
            "type": "hello",
            "protocol": PROTOCOL,
            "game": G::INFO.name,
            "title": G::INFO.title,
            "decks": decks,
        })
    }

    /// `card_text`: the full text of a card ([`GameDef::card_text`]): `"card"` is a card id of the
    /// deck lists, or a name (or part of one) the game's card lookup knows.
    fn card_text(&self, r: &Value) -> Result<Value, Refused> {
        match &r["card"] {
            Value::String(q) => G::card_text(self.game.match_cards(), q)
                .map(|text| json!({ "text": text }))
                .map_err(|e| Refused(format!("\"card\": {e}"))),
            v => {
                let id = v.as_u64().ok_or_else(|| {
                    Refused(format!(
                        "\"card\": expected a card id of the deck lists or a card name, found {v}"
                    ))
                })?;
                let listed = Seat::ALL
                    .iter()
                    .any(|&q| self.game.deck_list(q).iter().any(|c| u64::from(c.0) == id));
                if !listed {
                    return Err(Refused(format!("card {id} is in neither deck list")));
                }
                let text = card_text(&self.game, id as u32)
                    .ok_or_else(|| Refused(format!("card {id} has no text in this game")))?;
                Ok(json!({ "card": id, "text": text }))
            }
        }
    }

    /// `new`: a game's start (its `"seed"`, its `"first"` seat, P1 when left out).
    fn new_state(&mut self, r: &Value) -> Result<Value, Refused> {
        let first = match r.get("first") {
            Some(v) => seat_of(v)?,
            None => Seat::P1,
        };
        let s = self.game.new_game(seed_of(r)?, first);
        let id = self.put(s)?;
        Ok(self.summary(id))
    }

    /// `apply`: the state after legal action number `"action"` of `"state"`.
    fn apply(&mut self, r: &Value) -> Result<Value, Refused> {
        let mut s = self.get(&r["state"])?;
        self.game.legal_actions(&s, &mut self.legal);
        let k = uint(r, "action")?;
        if self.legal.is_empty() {
            return Err(Refused("the game is over: no action is legal".into()));
        }
        if k >= self.legal.len() as u64 {
            return Err(Refused(format!(
                "action {k}: not a legal id (0 to {})",
                self.legal.len() - 1
            )));
        }
        self.game.apply(&mut s, self.legal[k as usize]);
        let id = self.put(s)?;
        Ok(self.summary(id))
    }

    /// `legal`: the texts of the legal actions, in the order of their ids.
    fn legal_texts(&mut self, r: &Value) -> Result<Value, Refused> {
        let s = self.get(&r["state"])?;
        self.game.legal_actions(&s, &mut self.legal);
        let texts: Vec<String> = self
            .legal
            .iter()
            .map(|&a| self.game.action_text(&s, a))
            .collect();
        Ok(json!({ "legal": texts }))
    }

    /// `choose`: the id of the action the agent `"agent"` (seeded with `"seed"`) chooses.
    fn choose(&mut self, r: &Value) -> Result<Value, Refused> {
        let s = self.get(&r["state"])?;
        let Some(q) = self.game.to_move(&s) else {
            return Err(Refused("the game is over: no one chooses".into()));
        };
        let spec = AgentSpec::parse(r["agent"].as_str().unwrap_or(""))
            .map_err(|e| Refused(format!("\"agent\": {e}")))?;
        let mut agent = spec.build::<G>(seed_of(r)?);
        let a = agent
            .try_choose(&self.game, &s, q)
            .map_err(|f| Refused(f.message))?;
        self.game.legal_actions(&s, &mut self.legal);
        let k = self.legal.iter().position(|&x| x == a).expect("legal");
        Ok(json!({ "action": k }))
    }

    /// `free`: gives back the listed states (all of them live, or none is freed).
    fn free_listed(&mut self, r: &Value) -> Result<Value, Refused> {
        let ids = ids_of(r)?;
        for &i in &ids {
            self.get(&json!(i))?;
        }
        for i in ids {
            if self.states[i].take().is_some() {
                self.free.push(i);
            }
        }
        Ok(json!({}))
    }

    /// `retain`: frees every state but those listed (a search's states, once it has moved).
    fn retain(&mut self, r: &Value) -> Result<Value, Refused> {
        let ids = ids_of(r)?;
        for &i in &ids {
            self.get(&json!(i))?;
        }
        let mut keep = vec![false; self.states.len()];
        for i in ids {
            keep[i] = true;
        }
        self.free.clear();
        for (i, s) in self.states.iter_mut().enumerate() {
            if !keep[i] {
                *s = None;
            }
            if s.is_none() {
                self.free.push(i);
            }
        }
        Ok(json!({ "live": self.states.len() - self.free.len() }))
    }
}

pub fn serve<G: GameDef>(o: ServeOpts) -> Result<ExitCode> {
    let source = card_source::<G>(o.cards.as_deref(), Some(&o.decks[0]));
    let db = read_cards::<G>(source.as_deref())?;
    let decks = load_decks::<G>(&db, &o.decks, false)?;
    let mut t = Table::<G> {
        game: G::new_match(&db, [&decks[0], &decks[1]]),
        states: Vec::new(),
        free: Vec::new(),
        legal: ActionList::new(),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // The handshake: who is speaking, before any request.
    writeln!(out, "{}", t.hello())?;
    out.flush()?;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut input)
            .take(MAX_REQUEST as u64 + 2)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(ExitCode::SUCCESS);
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line).len();
        let answer = if body > MAX_REQUEST {
            // Skip the rest of the long line, a bounded piece at a time.
            while !line.ends_with(b"\n") {
                line.clear();
                if (&mut input)
                    .take(MAX_REQUEST as u64)
                    .read_until(b'\n', &mut line)?
                    == 0
                {
                    break;
                }
            }
            json!({ "error": format!("a request of more than {MAX_REQUEST} bytes") })
        } else {
            match serde_json::from_slice::<Value>(&line[..body]) {
                Ok(r) => t.handle(&r).unwrap_or_else(|e| json!({ "error": e.0 })),
                Err(e) => json!({ "error": format!("not JSON: {e}") }),
            }
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
}
