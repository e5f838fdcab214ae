//! `tcgsim play` (one game, with a log, a person at one seat, a record) and `tcgsim replay` (a
//! recorded game played again from its actions, with the same log).

use super::{card_source, check_out_dir, emit, load_decks, note, read_cards, write_file};
use crate::agents::{Agent, AgentSpec};
use crate::core::input::excerpt;
use crate::core::{mix_seed, ActionList, GameDef, Outcome, Seat, Viewer};
use crate::sim::record::GameLine;
use crate::sim::{play_game_to_end, Entrant, GameRecord};
use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct PlayOpts {
    pub decks: [PathBuf; 2],
    pub seed: u64,
    pub agents: [String; 2],
    pub first: Seat,
    pub log: bool,
    pub reveal: bool,
    pub human: Option<Seat>,
    pub cards: Option<PathBuf>,
    pub out: Option<PathBuf>,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// The log's first lines: the game, its seed, each seat's deck and agent, the game's opening.
fn header<G: GameDef>(g: &G, s: &G::State, seed: u64, seats: [String; 2], first: Seat) -> String {
    let mut h = format!("tcgsim play — {} — seed {seed}\n", G::INFO.title);
    for (k, who) in seats.iter().enumerate() {
        h.push_str(&format!("P{}: {who}\n", k + 1));
    }
    for l in g.log_start(s, first) {
        h.push_str(&l);
        h.push('\n');
    }
    h
}

/// The last line: the winner (or a draw), length, and why the game ended.
fn result_line<G: GameDef>(
    g: &G,
    end: &G::State,
    names: &[String; 2],
    turns: u32,
    decisions: u32,
) -> String {
    let who = match g.outcome(end) {
        Some(Outcome::Win(w)) => format!("winner: {w} ({})", names[w.index()]),
        Some(Outcome::Draw) => "draw".into(),
        None => "unfinished".into(),
    };
    format!(
        "{who} after {turns} turns, {decisions} decisions; {}\n",
        g.ending(end)
    )
}

fn winner_text(o: Outcome) -> String {
    match o {
        Outcome::Win(w) => w.to_string(),
        Outcome::Draw => "draw".into(),
    }
}

pub fn play<G: GameDef>(o: PlayOpts) -> Result<ExitCode> {
    let source = card_source::<G>(o.cards.as_deref(), Some(&o.decks[0]));
    let db = read_cards::<G>(source.as_deref())?;
    let decks = load_decks::<G>(&db, &o.decks, false)?;
    let specs = [0, 1].map(|k| super::entrant(&o.agents[k], &o.process));
    let [spec_a, spec_b] = specs;
    let specs = [spec_a?, spec_b?];
    if let Some(dir) = &o.out {
        check_out_dir(dir)?;
    }
    let game = G::new_match(&db, [&decks[0], &decks[1]]);
    let agent_seeds = [0, 1].map(|k| mix_seed(&[o.seed, k + 1]));
    let (mut built, who) = seat_agents::<G>(&o, &specs, agent_seeds);
    let names: [String; 2] = [0, 1].map(|k| G::deck_name(&decks[k]).to_string());
    let seats: [String; 2] =
        [0, 1].map(|k| format!("{} ({}) — {}", names[k], o.decks[k].display(), who[k]));
    let start = game.new_game(o.seed, o.first);
    let mut log = header(&game, &start, o.seed, seats, o.first);
    let (rec, end, actions) = play_logged(&game, &o, &mut built, &mut log)?;
    if let Some(f) = rec.forfeit {
        // One game: a failed agent leaves nothing to report but why.
        let (_, why) = specs[f.seat.index()].failures();
        bail!(
            "{}; the game was not finished",
            why.unwrap_or_else(|| format!("the agent of {} failed", f.seat))
        );
    }
    let last = result_line(&game, &end, &names, rec.turns, rec.decisions);
    log.push_str(&last);
    emit(&last)?;
    if let Some(dir) = &o.out {
        let line = GameLine {
            game: G::INFO.name.into(),
            content: G::content_hash(&db, &[&decks[0], &decks[1]]),
            cards: source.as_ref().map(|c| c.display().to_string()),
            decks: [0, 1].map(|k| o.decks[k].display().to_string()),
            deck_names: names.clone(),
            agents: who,
            seed: o.seed,
            agent_seeds,
            index: None,
            first: o.first.to_string(),
            winner: winner_text(rec.outcome),
            ending: game.ending(&end),
            turns: rec.turns,
            decisions: rec.decisions,
            actions,
        };
        save_record(dir, &line, &log)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The agent of each seat (a person's at `o.human`, else built from its spec with its seed) and
/// how the log names it.
fn seat_agents<G: GameDef>(
    o: &PlayOpts,
    specs: &[Entrant; 2],
    agent_seeds: [u64; 2],
) -> (Vec<Box<dyn Agent<G>>>, [String; 2]) {
    let mut built: Vec<Box<dyn Agent<G>>> = Vec::new();
    let mut who: [String; 2] = Default::default();
    for (k, spec) in specs.iter().enumerate() {
        let seat = Seat::from_index(k);
        if o.human == Some(seat) {
            built.push(Box::new(super::human::HumanAgent));
            who[k] = "human".into();
        } else {
            built.push(spec.build::<G>(agent_seeds[k]));
            who[k] = o.agents[k].clone();
        }
    }
    (built, who)
}

/// Plays the game of `o` with the agents `built`, appending each move's narration to `log` (and
/// printing the log, its header first, with `--log` or a person playing); returns the game's
/// record, its end and its actions' texts.
fn play_logged<G: GameDef>(
    game: &G,
    o: &PlayOpts,
    built: &mut [Box<dyn Agent<G>>],
    log: &mut String,
) -> Result<(GameRecord, G::State, Vec<String>)> {
    let viewer = match (o.reveal, o.human) {
        (true, _) => Viewer::All,
        (false, Some(h)) => Viewer::Seat(h),
        (false, None) => Viewer::Public,
    };
    let show = o.log || o.human.is_some();
    if show {
        emit(log)?;
    }
    let (a0, a1) = built.split_at_mut(1);
    let agents: [&mut dyn Agent<G>; 2] = [a0[0].as_mut(), a1[0].as_mut()];
    let mut actions = Vec::new();
    // A log that cannot be written (a closed pipe) stops being written; the error ends the command
    // once the game is over.
    let mut failed = None;
    let (rec, end) = play_game_to_end(game, o.seed, o.first, agents, |before, seat, a, after| {
        actions.push(game.action_text(before, a));
        let text = narration(game, viewer, before, seat, a, after);
        log.push_str(&text);
        if show && failed.is_none() {
            if let Err(e) = emit(&text) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    Ok((rec, end, actions))
}

/// The log's lines of one move, as `viewer` sees it.
fn narration<G: GameDef>(
    game: &G,
    viewer: Viewer,
    before: &G::State,
    seat: Seat,
    a: G::Action,
    after: &G::State,
) -> String {
    let mut text = String::new();
    for l in game.narrate(before, seat, a, after, viewer) {
        text.push_str(&l);
        text.push('\n');
    }
    text
}

/// Writes `play --out`'s files: the game's record and its log.
fn save_record(dir: &Path, line: &GameLine, log: &str) -> Result<()> {
    write_file(&dir.join("record.jsonl"), &line.to_line())?;
    write_file(&dir.join("log.txt"), log)?;
    note(&format!(
        "wrote {} and {}",
        dir.join("record.jsonl").display(),
        dir.join("log.txt").display()
    ));
    Ok(())
}

/// Reads record `index` of `file` and returns its game's name (for the registry).
pub fn record_game(file: &Path, index: usize) -> Result<String> {
    let r = GameLine::from_file(file, index)?;
    Ok(r.game)
}

/// `tcgsim replay`: the recorded game played again from its seed — its recorded actions, or,
/// for a record without them (`matrix --records`), its agents with their recorded seeds — printing
/// the log `play` prints (`--reveal` as there); the end must be the recorded one.
pub fn replay<G: GameDef>(file: &Path, index: usize, reveal: bool) -> Result<ExitCode> {
    let name = file.display().to_string();
    let r = GameLine::from_file(file, index)?;
    let at = format!("{name}:{index}");
    let paths = r.decks.clone().map(PathBuf::from);
    // The record's paths are read as written (from the current directory); an error names the
    // record and which of its paths it was.
    let db = read_cards::<G>(r.cards.as_deref().map(Path::new)).with_context(|| {
        format!(
            "{at}: the record's card file \"{}\" (read from the current directory)",
            excerpt(r.cards.as_deref().unwrap_or_default())
        )
    })?;
    let mut decks = Vec::new();
    for (k, p) in paths.iter().enumerate() {
        let d = load_decks::<G>(&db, std::slice::from_ref(p), false).with_context(|| {
            format!(
                "{at}: the record's deck {} \"{}\" (read from the current directory)",
                k + 1,
                excerpt(&r.decks[k])
            )
        })?;
        decks.extend(d);
    }
    let content = G::content_hash(&db, &[&decks[0], &decks[1]]);
    if content != r.content {
        bail!(
            "{at}: the decks' cards or the rules differ from the recorded game's (content {content}, recorded {}): it cannot be replayed",
            r.content
        );
    }
    let game = G::new_match(&db, [&decks[0], &decks[1]]);
    let first = if r.first == "P2" { Seat::P2 } else { Seat::P1 };
    let start = game.new_game(r.seed, first);
    let seats: [String; 2] =
        [0, 1].map(|k| format!("{} ({}) — {}", r.deck_names[k], r.decks[k], r.agents[k]));
    let viewer = if reveal { Viewer::All } else { Viewer::Public };
    emit(&header(&game, &start, r.seed, seats, first))?;
    let (end, turns, decisions) = if r.actions.is_empty() {
        replay_by_agents(&game, &r, first, viewer, &at)?
    } else {
        replay_actions(&game, &r, start, viewer, &at)?
    };
    emit(&result_line(&game, &end, &r.deck_names, turns, decisions))?;
    let outcome = game.outcome(&end).map(winner_text);
    if outcome.as_deref() != Some(r.winner.as_str()) || turns != r.turns || decisions != r.decisions
    {
        bail!(
            "{at}: the replay ended differently from the record (winner {}, {turns} turns, {decisions} decisions; recorded {}, {} turns, {} decisions)",
            outcome.unwrap_or_else(|| "none".into()),
            r.winner,
            r.turns,
            r.decisions
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A record without actions replayed by its agents, rebuilt from their specs and seeds, each
/// move printed as `viewer` sees it; returns the end, its turns and decisions. `at` names the
/// record in errors.
fn replay_by_agents<G: GameDef>(
    game: &G,
    r: &GameLine,
    first: Seat,
    viewer: Viewer,
    at: &str,
) -> Result<(G::State, u32, u32)> {
    let mut built = Vec::new();
    for k in 0..2 {
        let spec = AgentSpec::parse(&r.agents[k])
            .map_err(|e| anyhow!("{at}: agent {}: {e}", r.agents[k]))?;
        built.push(spec.build::<G>(r.agent_seeds[k]));
    }
    let (a0, a1) = built.split_at_mut(1);
    let mut failed = None;
    let (rec, end) = play_game_to_end(
        game,
        r.seed,
        first,
        [a0[0].as_mut(), a1[0].as_mut()],
        |before, seat, a, after| {
            if failed.is_none() {
                if let Err(e) = emit(&narration(game, viewer, before, seat, a, after)) {
                    failed = Some(e);
                }
            }
        },
    );
    if let Some(e) = failed {
        return Err(e.into());
    }
    if let Some(f) = rec.forfeit {
        bail!(
            "{at}: the agent of {} failed; the replay was not finished",
            f.seat
        );
    }
    Ok((end, rec.turns, rec.decisions))
}

/// A record's actions played again from `start`, each checked legal and printed as `viewer`
/// sees it; returns the end, its turns and decisions. `at` names the record in errors.
fn replay_actions<G: GameDef>(
    game: &G,
    r: &GameLine,
    start: G::State,
    viewer: Viewer,
    at: &str,
) -> Result<(G::State, u32, u32)> {
    let mut s = start;
    let mut list = ActionList::new();
    for (k, text) in r.actions.iter().enumerate() {
        let Some(seat) = game.to_move(&s) else {
            bail!("{at}: the game ended before action {} \"{text}\"", k + 1);
        };
        let a = game
            .parse_action(&s, text)
            .map_err(|e| anyhow!("{at}: action {} \"{}\": {e}", k + 1, excerpt(text)))?;
        game.legal_actions(&s, &mut list);
        if !list.contains(&a) {
            bail!(
                "{at}: action {} \"{}\" is not legal there",
                k + 1,
                excerpt(text)
            );
        }
        let before = s;
        game.apply(&mut s, a);
        emit(&narration(game, viewer, &before, seat, a, &s))?;
    }
    Ok((s, game.turn(&s), r.actions.len() as u32))
}
