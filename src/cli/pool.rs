//! `tcgsim pool`: every card of the pool ranked by a regression on games between decks drawn from
//! it (`docs/statistics.md`, "The whole pool ranked").

use super::{
    bundled_decks, check_out_dir, emit, load_cards, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::core::def::{require, Capability};
use crate::core::GameDef;
use crate::sim::checkpoint::{parse_shard, shard_from_env};
use crate::sim::files::{self, run_json::RunInfo};
use crate::sim::pool::{
    checkpoint_header, checkpoint_line, rank, read_parts, run_chunks, shard_chunks, startable,
    Checkpoint, Decks, Plan, Ranking, Source, CHECKPOINT_FILE,
};
use anyhow::{anyhow, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

pub struct PoolOpts {
    /// The start decks of the random decks (default: the bundled decks).
    pub decks: Vec<PathBuf>,
    pub cards: Option<PathBuf>,
    pub agent: String,
    pub source: String,
    pub walk: u64,
    pub packs: u64,
    pub pack: Option<String>,
    pub games: u64,
    pub seed: u64,
    pub chunk: u64,
    pub threads: Option<u64>,
    pub out: PathBuf,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    pub top: usize,
    /// `--shard I/N`, `--shards N` (with `JOB_COMPLETION_INDEX`).
    pub shard: Option<String>,
    pub shards: Option<u64>,
    /// `--merge PART…`: the shards' folders, whose chunks make the run.
    pub merge: Vec<PathBuf>,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// `tcgsim pool`: the plan from the arguments, the chunks a checkpoint has not finished played
/// ([`run_chunks`]), the regression ([`rank`]), then `pool.csv`, `run.json`, the summary and the
/// report.
pub fn pool<G: GameDef>(o: PoolOpts) -> Result<ExitCode> {
    require::<G>(Capability::CardStats)?;
    let source = Source::parse(&o.source).map_err(crate::core::Error::from)?;
    if source != Source::Sealed {
        require::<G>(Capability::Tuning)?;
    }
    let spec = super::entrant(&o.agent, &o.process)?;
    let db = load_cards::<G>(o.cards.as_deref(), o.decks.first().map(PathBuf::as_path))?;
    let starts = match (&o.decks[..], source) {
        ([], Source::Sealed) => Vec::new(),
        ([], _) => {
            // The bundled decks that random walks may start from: a sealed deck may not.
            let all = load_decks::<G>(&db, &bundled_decks::<G>()?, true)?;
            let (ok, skipped) = startable::<G>(all);
            if !skipped.is_empty() {
                note(&format!(
                    "start decks: the bundled decks but {} (sealed: no swaps)",
                    skipped.join(", ")
                ));
            }
            ok
        }
        (d, _) => load_decks::<G>(&db, d, true)?,
    };
    let plan = Plan {
        game: G::INFO.name.into(),
        content: G::content_hash(&db, &starts.iter().collect::<Vec<_>>()),
        agent: o.agent.clone(),
        source,
        starts: starts.iter().map(|d| G::deck_name(d).to_string()).collect(),
        walk: o.walk,
        packs: o.packs,
        pack: o
            .pack
            .clone()
            .unwrap_or_else(|| G::DEFAULT_PACK.to_string()),
        games: o.games,
        seed: o.seed,
        chunk: o.chunk,
    };
    let decks = Decks::<G> {
        cards: &db,
        starts: &starts,
        plan: &plan,
    };
    decks.check()?;
    let shard = match &o.shard {
        Some(s) => Some(parse_shard(s).map_err(crate::core::Error::from)?),
        None => {
            shard_from_env(|k| std::env::var(k).ok(), o.shards).map_err(crate::core::Error::from)?
        }
    }
    .filter(|&(_, n)| n > 1);
    super::out::refuse_out_among_parts(&o.merge, &o.out)?;
    check_out_dir(&o.out)?;
    let (checkpoint, done) = match (&o.checkpoint, o.merge.is_empty()) {
        (Some(dir), _) => {
            let (c, d) = Checkpoint::open(dir, &plan, o.resume)?;
            (Some(c), d)
        }
        (None, false) => (None, read_parts(&o.merge, &plan)?),
        (None, true) => (None, Default::default()),
    };
    let mine = shard_chunks(&plan, shard);
    let done: std::collections::BTreeMap<u64, Vec<u8>> = done
        .into_iter()
        .filter(|(c, _)| mine.binary_search(c).is_ok())
        .collect();
    let todo: Vec<u64> = mine
        .iter()
        .copied()
        .filter(|c| !done.contains_key(c))
        .collect();
    let all_games: u64 = mine
        .iter()
        .map(|&c| plan.chunk_games(c).count() as u64)
        .sum();
    let resumed: u64 = done.values().map(|s| s.len() as u64).sum();
    let to_play = all_games - resumed;
    let threads = thread_pool(o.threads)?;
    let pb = Progress::new(all_games, "games").resumed(resumed);
    let start = std::time::Instant::now();
    let data = threads.install(|| {
        run_chunks(
            &decks,
            &spec,
            &todo,
            &done,
            &|c, s| checkpoint.as_ref().map_or(Ok(()), |cp| cp.record(c, s)),
            &|n| pb.inc(n),
        )
    });
    pb.finish();
    let kept = if checkpoint.is_some() {
        "the finished chunks are kept in the checkpoint (--resume continues them)"
    } else {
        "nothing was written (--checkpoint keeps finished chunks)"
    };
    let data =
        data.map_err(|e| anyhow::Error::new(e).context(format!("the run stopped; {kept}")))?;
    super::agent_failures(&[&spec], kept)?;
    let data = data.ok_or_else(|| anyhow!("the run stopped; {kept}"))?;
    let mut info = RunInfo {
        command: "pool".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: plan.starts.clone(),
        agents: vec![o.agent.clone()],
        content: plan.content.clone(),
        games: plan.games,
        seed: plan.seed,
        fingerprint: plan.fingerprint(),
        shard,
        games_played: to_play,
        games_resumed: resumed,
        seconds: start.elapsed().as_secs_f64(),
        ..Default::default()
    };
    if let Some((i, n)) = shard {
        // A shard's chunks, in the checkpoint's format, for `--merge`; no ranking.
        let mut text = format!("{}\n", checkpoint_header(&plan));
        let mut at = 0;
        for &c in &mine {
            let k = plan.chunk_games(c).count();
            let scores: Vec<u8> = data[at..at + k].iter().map(|g| g.half_points).collect();
            at += k;
            text += &checkpoint_line(&plan, c, &scores);
            text.push('\n');
        }
        let path = o.out.join(CHECKPOINT_FILE);
        write_file(&path, &text)?;
        write_file(&o.out.join("run.json"), &info.to_json())?;
        note(&format!(
            "shard {i}/{n}: wrote {} ({all_games} games); `tcgsim pool` with the same flags and --merge with every shard's folder ranks the pool",
            path.display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<String> = (0..G::card_count(&db) as u32)
        .map(|id| G::card_name(&db, id))
        .collect();
    let ranking = rank(&data, &names, plan.source);
    let path = o.out.join("pool.csv");
    write_file(&path, &files::pool::write(&ranking))?;
    info.seconds = start.elapsed().as_secs_f64();
    write_file(&o.out.join("run.json"), &info.to_json())?;
    emit(&summary(&plan, &ranking, o.top))?;
    note(&format!("wrote {}", path.display()));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// `(value, lo, hi)` as points, `+1.2 (+0.3…+2.1)`.
fn points(v: f64, lo: f64, hi: f64) -> String {
    format!("{:+.1} ({:+.1}…{:+.1})", 100.0 * v, 100.0 * lo, 100.0 * hi)
}

/// The terminal summary: the run, the seat and initiative terms, the first and last `top` cards
/// with their intervals, and the cards without a value.
pub fn summary(plan: &Plan, r: &Ranking, top: usize) -> String {
    let mut s = String::new();
    let decks = match plan.source {
        Source::Random => format!(
            "random decks (walks of {} swaps from {})",
            plan.walk,
            plan.starts.join(", ")
        ),
        Source::Sealed => format!("sealed pools of {} packs", plan.packs),
        Source::Both => format!(
            "random decks (walks of {} swaps from {}) and sealed pools of {} packs",
            plan.walk,
            plan.starts.join(", "),
            plan.packs
        ),
    };
    let _ = writeln!(
        s,
        "pool: {} games of {decks}, {} on both seats; P1 scored {:.1}%",
        r.games,
        plan.agent,
        100.0 * r.p1_rate
    );
    let (a, alo, ahi) = r.seat;
    let (b, blo, bhi) = r.initiative;
    let _ = writeln!(
        s,
        "seat: P1 scores {:.1}% ({:.1}…{:.1}) between even decks; the first player (the turn-1 initiative) {:.1}% ({:.1}…{:.1})",
        100.0 * a,
        100.0 * alo,
        100.0 * ahi,
        50.0 + 100.0 * b,
        50.0 + 100.0 * blo,
        50.0 + 100.0 * bhi,
    );
    let ranked: Vec<_> = r.cards.iter().filter(|c| c.rank.is_some()).collect();
    let _ = writeln!(
        s,
        "{}",
        if ranked.iter().any(|c| c.within) {
            "value of one copy against the average card of the pool (*: of its group — compare such a card only with cards of its group), in win-rate points (95%):"
        } else {
            "value of one copy against the pool's average card, in win-rate points (95%):"
        }
    );
    // The name column as wide as the longest name shown (at least 40).
    let w = ranked
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(40);
    let _ = writeln!(
        s,
        "  {:>4} {:<w$} {:>24} {:>8} {:>8}",
        "#", "card", "value (95%)", "present", "varied"
    );
    let line = |s: &mut String, c: &crate::sim::pool::CardValue| {
        let _ = writeln!(
            s,
            "  {:>3}.{}{:<w$} {:>24} {:>8} {:>8}",
            c.rank.unwrap_or(0),
            if c.within { '*' } else { ' ' },
            c.name,
            points(c.value, c.lo, c.hi),
            c.present,
            c.varied
        );
    };
    if ranked.len() <= 2 * top {
        for c in &ranked {
            line(&mut s, c);
        }
    } else {
        for c in &ranked[..top] {
            line(&mut s, c);
        }
        let _ = writeln!(
            s,
            "  … {} cards between (all in pool.csv)",
            ranked.len() - 2 * top
        );
        for c in &ranked[ranked.len() - top..] {
            line(&mut s, c);
        }
    }
    let within = r.cards.iter().filter(|c| c.within).count();
    if within > 0 {
        let _ = writeln!(
            s,
            "* {within} cards are valued against the average card of their group, not of the pool: \
             the decks fix how many cards of a group they hold (a sealed pack's slots), so the games \
             tell only differences within it (docs/statistics.md)"
        );
    }
    let never = r
        .cards
        .iter()
        .filter(|c| c.none == Some(crate::sim::pool::NoValue::NeverVaries))
        .count();
    let apart = r
        .cards
        .iter()
        .filter(|c| c.none == Some(crate::sim::pool::NoValue::NotSeparable))
        .count();
    if never + apart > 0 {
        let _ = writeln!(
            s,
            "no value: {never} cards never vary between the decks (never drawn, or alike in every deck), \
             {apart} not separable from other cards by these decks (longer walks, --walk, separate them)"
        );
    }
    s
}
