//! `tcgsim duel`: the first agent against the second on two decks ([`crate::sim::run_duel`]),
//! resumable from a checkpoint; writes `duel.csv`, `run.json` and the report.

use super::{
    agent_failures, check_out_dir, emit, even_games, load_cards, load_decks, note, rate_text,
    thread_pool, write_file, Progress,
};
use crate::core::GameDef;
use crate::sim::checkpoint::{resume_run, Resumed};
use crate::sim::files::run_json::RunInfo;
use crate::sim::matrix::Counts;
use crate::sim::{duel_task, run_duel, DuelPlan};
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tcgsim duel`'s options.
pub struct DuelOpts<'a> {
    pub agents: [String; 2],
    pub decks: &'a [PathBuf],
    pub games: u64,
    pub seed: u64,
    pub threads: Option<u64>,
    pub out: &'a Path,
    pub checkpoint: Option<&'a Path>,
    pub resume: bool,
    pub cards: Option<&'a Path>,
    pub one_at_a_time: bool,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// Args → plan → runner → files → summary.
pub fn duel<G: GameDef>(o: DuelOpts) -> Result<ExitCode> {
    let [a, b] = &o.agents;
    let spec_a = super::entrant(a, &o.process)?;
    let spec_b = super::entrant(b, &o.process)?;
    let games = even_games(o.games);
    let db = load_cards::<G>(o.cards, Some(&o.decks[0]))?;
    let decks = load_decks::<G>(&db, o.decks, false)?;
    let (d1, d2) = (&decks[0], &decks[1]);
    let plan = DuelPlan {
        game: G::INFO.name.into(),
        decks: [G::deck_name(d1).into(), G::deck_name(d2).into()],
        content: G::content_hash(&db, &[d1, d2]),
        agents: o.agents.clone(),
        games,
        seed: o.seed,
    };
    check_out_dir(o.out)?;
    let game = G::new_match(&db, [d1, d2]);
    let Resumed {
        checkpoint: ckpt,
        done,
        todo,
    } = resume_run(
        o.checkpoint,
        &plan.fingerprint(),
        o.resume,
        &plan.tasks(),
        &|_| 1,
    )?;
    let mut r = Counts::default();
    for (_, c) in &done {
        r.add(c);
    }
    let todo: Vec<u64> = todo.iter().map(|t| t.chunk).collect();
    if !done.is_empty() {
        note(&format!(
            "resuming: {} of {games} games already done",
            r.games
        ));
    }
    let pool = thread_pool(o.threads)?;
    let pb = Progress::new(games, "games").resumed(r.games);
    let start = std::time::Instant::now();
    let on_game = |k: u64, c: &Counts| {
        if let Some(ck) = &ckpt {
            ck.record(duel_task(k), c);
        }
        pb.inc(1);
    };
    let specs = (&spec_a, &spec_b);
    let played = pool.install(|| run_duel(&game, specs, &plan, &todo, o.one_at_a_time, &on_game));
    pb.finish();
    if let Some(e) = ckpt.as_ref().and_then(|ck| ck.take_failure()) {
        // One message, exit 1 (a write failure); the games recorded before it are kept.
        return Err(anyhow::Error::new(crate::core::Error::from(e)).context(
            "the duel's checkpoint could not be written: the games recorded before this are kept (--resume continues them)",
        ));
    }
    r.add(&played);
    agent_failures(&[&spec_a, &spec_b], &kept(&o, &r))?;
    let secs = start.elapsed().as_secs_f64();
    let text = summary(&plan, &r, &played, pool.current_num_threads(), secs);
    write_files(&o, &plan, &r, played.games, secs)?;
    emit(&text)?;
    note(&format!("wrote {}", o.out.join("duel.csv").display()));
    // The folder's report follows its run.json, so an older run's page never stays beside it.
    super::report::after_run(o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// What a duel stopped by a failing agent keeps (`--on-agent-error abort`).
fn kept(o: &DuelOpts, r: &Counts) -> String {
    match &o.checkpoint {
        Some(dir) => format!(
            "{} finished games are recorded in {} (--resume continues them)",
            r.games,
            dir.display()
        ),
        None => format!(
            "{} games finished: A won {}, B won {}, {} draws (not written)",
            r.games, r.wins, r.losses, r.draws
        ),
    }
}

/// The summary: the result `r` (resumed games included) and the speed of the games `played`.
fn summary(plan: &DuelPlan, r: &Counts, played: &Counts, threads: usize, secs: f64) -> String {
    let ([a, b], [n1, n2]) = (&plan.agents, &plan.decks);
    let (lo, hi) = r.interval();
    format!(
        "{a} vs {b} on {n1} / {n2}: {} games, seed {}\n\
         A wins {} · B wins {} · draws {} · A win rate {:.1}% (95% CI {:.1}–{:.1}%)\n\
         first player won {:.1}% · {:.1} turns and {:.0} decisions per game · {} games/s ({threads} threads, {secs:.0} s)\n",
        r.games,
        plan.seed,
        r.wins,
        r.losses,
        r.draws,
        100.0 * r.win_rate(),
        100.0 * lo,
        100.0 * hi,
        100.0 * r.first_player_wins as f64 / r.games as f64,
        r.turns as f64 / r.games as f64,
        r.decisions as f64 / r.games as f64,
        rate_text(played.games as f64 / secs.max(1e-9)),
    )
}

/// `duel.csv` and `run.json`.
fn write_files(o: &DuelOpts, plan: &DuelPlan, r: &Counts, played: u64, secs: f64) -> Result<()> {
    let ([a, b], [n1, n2]) = (&plan.agents, &plan.decks);
    let csv = crate::sim::files::duel::write(a, b, n1, n2, r);
    write_file(&o.out.join("duel.csv"), &csv)?;
    let meta = RunInfo {
        command: "duel".into(),
        args: std::env::args().skip(1).collect(),
        game: plan.game.clone(),
        decks: plan.decks.to_vec(),
        agents: plan.agents.to_vec(),
        content: plan.content.clone(),
        games: plan.games,
        seed: plan.seed,
        fingerprint: plan.fingerprint(),
        shard: None,
        games_played: played,
        games_resumed: r.games - played,
        seconds: secs,
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &meta.to_json())?;
    Ok(())
}
