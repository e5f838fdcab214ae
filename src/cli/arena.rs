//! `tcgsim arena`: round robin of agents with Bradley–Terry ratings, or a two-agent SPRT.

use super::progress::sprt_message;
use super::{
    check_out_dir, emit, even_games, load_cards, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::core::GameDef;
use crate::sim::arena::{
    points, round_robin, round_robin_games, run_sprt, Ratings, Sprt, SprtState, Standings,
};
use crate::sim::files::{arena as arena_files, run_json::RunInfo};
use crate::sim::Entrant;
use crate::stats::{wilson, Z95};
use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct ArenaOpts {
    pub agents: Vec<String>,
    pub decks: Vec<PathBuf>,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<u64>,
    pub out: PathBuf,
    pub sprt: Option<String>,
    pub max_games: u64,
    pub cards: Option<PathBuf>,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// `elo0,elo1[,alpha,beta]`.
pub fn parse_sprt(s: &str) -> crate::core::Result<Sprt> {
    let bad = |why: String| crate::core::Error::usage(format!("--sprt \"{s}\": {why}"));
    let v: Vec<f64> = s
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(format!("\"{x}\" is not a number")))
        })
        .collect::<Result<_, _>>()?;
    let (elo0, elo1, alpha, beta) = match v.as_slice() {
        [e0, e1] => (*e0, *e1, 0.05, 0.05),
        [e0, e1, a, b] => (*e0, *e1, *a, *b),
        _ => return Err(bad("expected elo0,elo1 or elo0,elo1,alpha,beta".into())),
    };
    if elo1 <= elo0 {
        return Err(bad("elo1 must be above elo0".into()));
    }
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        return Err(bad("alpha and beta must be in (0, 0.5)".into()));
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

/// The agents' specs (each parsed once) and the SPRT, checked against each other.
fn agents_and_test(o: &ArenaOpts) -> Result<(Vec<Entrant>, Option<Sprt>)> {
    if o.agents.len() > super::limits::AGENTS {
        bail!("--agent: at most {} agents", super::limits::AGENTS);
    }
    let specs: Vec<Entrant> = (o.agents.iter())
        .map(|a| super::entrant(a, &o.process))
        .collect::<Result<_>>()?;
    if specs.len() < 2 {
        bail!(
            "the arena needs at least two agents (--agent A --agent B …), {} given",
            specs.len()
        );
    }
    let sprt = o.sprt.as_deref().map(parse_sprt).transpose()?;
    if sprt.is_some() && specs.len() != 2 {
        bail!("--sprt compares exactly two agents");
    }
    Ok((specs, sprt))
}

/// `tcgsim arena`: the round robin ([`round_robin`]) or, with `--sprt`, the sequential test
/// ([`sprt_run`]); writes `arena.csv`, `arena_pairs.csv` (or `sprt.csv`), `run.json` and the
/// report.
pub fn arena<G: GameDef>(o: ArenaOpts) -> Result<ExitCode> {
    let (specs, sprt) = agents_and_test(&o)?;
    let paths: Vec<PathBuf> = if o.decks.is_empty() {
        G::INFO
            .arena_decks
            .iter()
            .map(|d| Path::new(G::INFO.deck_dir).join(format!("{d}.{}", G::INFO.deck_ext)))
            .collect()
    } else {
        o.decks.clone()
    };
    let db = load_cards::<G>(o.cards.as_deref(), paths.first().map(PathBuf::as_path))?;
    let decks = load_decks::<G>(&db, &paths, false)?;
    // Every ordered pair of decks (the match of `a` as P1 against `b` as P2).
    let games: Vec<G> = (decks.iter())
        .flat_map(|a| decks.iter().map(|b| G::new_match(&db, [a, b])))
        .collect();
    check_out_dir(&o.out)?;
    let pool = thread_pool(o.threads)?;
    let start = std::time::Instant::now();
    let mut info = RunInfo {
        command: "arena".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: decks.iter().map(|d| G::deck_name(d).to_string()).collect(),
        agents: o.agents.clone(),
        content: G::content_hash(&db, &decks.iter().collect::<Vec<_>>()),
        seed: o.seed,
        ..Default::default()
    };
    if let Some(test) = sprt {
        return sprt_run(&o, &specs, &games, &pool, test, info);
    }
    let total = even_games(o.games);
    let pb = Progress::new(round_robin_games(specs.len(), total / 2), "games");
    let st = pool.install(|| round_robin(&games, &specs, o.seed, total / 2, &|k| pb.inc(k)));
    pb.finish();
    super::agent_failures(
        &specs.iter().collect::<Vec<_>>(),
        "the arena keeps no checkpoint; nothing was written",
    )?;
    let ratings = st.ratings();
    let (csv, mut report) = ratings_files(&o.agents, &st, &ratings);
    let pairs_csv = pairs_file(&o.agents, &st, &mut report);
    let p = o.out.join("arena.csv");
    write_file(&p, &csv)?;
    let p2 = o.out.join("arena_pairs.csv");
    write_file(&p2, &pairs_csv)?;
    info.games = total;
    info.games_played = st.games();
    info.seconds = start.elapsed().as_secs_f64();
    write_file(&o.out.join("run.json"), &info.to_json())?;
    emit(&report)?;
    note(&format!("wrote {} and {}", p.display(), p2.display()));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// `arena.csv` (the ratings, best first) and the summary's table of them.
fn ratings_files(agents: &[String], st: &Standings, r: &Ratings) -> (String, String) {
    let mut rows = Vec::new();
    let mut report = format!(
        "{:<40} {:>7} {:>17} {:>7} {:>7}\n",
        "agent", "Elo", "95% interval", "games", "score"
    );
    for &i in &r.order {
        let g: f64 = st.played[i].iter().sum();
        let s: f64 = st.score[i].iter().sum();
        let (elo, lo, hi) = (r.elo[i], r.elo[i] - Z95 * r.se[i], r.elo[i] + Z95 * r.se[i]);
        rows.push(arena_files::Rating {
            agent: agents[i].clone(),
            elo: [elo, lo, hi],
            games: g,
            score: s,
        });
        let _ = writeln!(
            report,
            "{:<40} {elo:>7.0} {lo:>8.0} – {hi:<6.0} {g:>7} {:>6.1}%",
            agents[i],
            100.0 * s / g
        );
    }
    (arena_files::write_ratings(&rows), report)
}

/// `arena_pairs.csv` (every two agents' score, with its interval and pentanomial counts); the
/// same, in words, appended to the summary.
fn pairs_file(agents: &[String], st: &Standings, report: &mut String) -> String {
    let mut rows = Vec::new();
    let _ = writeln!(report, "pairwise (row agent's score):");
    for (i, j, c) in &st.pentanomial {
        let (s, g) = (st.score[*i][*j], st.played[*i][*j]);
        let (lo, hi) = wilson(s, g, Z95);
        rows.push(arena_files::Pair {
            agent_a: agents[*i].clone(),
            agent_b: agents[*j].clone(),
            pairs: st.pairs,
            counts: *c,
        });
        let _ = writeln!(
            report,
            "  {} vs {}: {:.1}% ({:.1}–{:.1}%) over {g} games",
            agents[*i],
            agents[*j],
            100.0 * s / g,
            100.0 * lo,
            100.0 * hi,
        );
    }
    arena_files::write_pairs(&rows)
}

/// Pairs between two looks of the SPRT at its LLR.
const SPRT_BATCH: u64 = 32;

/// `--sprt`: batches of pairs until the test decides ([`run_sprt`]); writes `sprt.csv`. The
/// progress shows the LLR, its bounds and an ETA to the expected length
/// ([`SprtState::expected_pairs_left`]).
fn sprt_run<G: GameDef>(
    o: &ArenaOpts,
    specs: &[Entrant],
    games: &[G],
    pool: &rayon::ThreadPool,
    test: Sprt,
    mut info: RunInfo,
) -> Result<ExitCode> {
    let start = std::time::Instant::now();
    let max_pairs = even_games(o.max_games) / 2;
    let pb = Progress::new(max_pairs * 2, "games");
    let (lower, upper) = crate::stats::sprt_bounds(test.alpha, test.beta);
    pb.expect(None);
    pb.message(sprt_message(0.0, lower, upper, None));
    let st = pool.install(|| {
        run_sprt(
            games,
            (&specs[0], &specs[1]),
            o.seed,
            test,
            max_pairs,
            SPRT_BATCH,
            &|k| pb.inc(k),
            &mut |st| {
                // The test looks at its LLR after whole batches: it ends on one.
                let left = st.expected_pairs_left(&test);
                let end = |l: f64| (st.pairs + l.ceil() as u64).div_ceil(SPRT_BATCH) * SPRT_BATCH;
                let games = left.map(|l| 2 * end(l).min(max_pairs));
                pb.expect(games);
                pb.message(sprt_message(st.llr, st.lower, st.upper, games));
            },
        )
    });
    pb.finish();
    super::agent_failures(
        &specs.iter().collect::<Vec<_>>(),
        &format!(
            "{} pairs were finished; nothing was written",
            st.counts.iter().sum::<u64>()
        ),
    )?;
    emit(&sprt_text(o, &test, &st))?;
    let p = o.out.join("sprt.csv");
    write_file(&p, &sprt_csv(&o.agents, &test, &st))?;
    info.command = "arena --sprt".into();
    info.games = o.max_games;
    info.games_played = st.pairs * 2;
    info.seconds = start.elapsed().as_secs_f64();
    write_file(&o.out.join("run.json"), &info.to_json())?;
    note(&format!("wrote {}", p.display()));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// The SPRT's summary: the test, where it ended and its verdict.
fn sprt_text(o: &ArenaOpts, test: &Sprt, st: &SprtState) -> String {
    let Sprt {
        elo0: e0,
        elo1: e1,
        alpha,
        beta,
    } = *test;
    let (c, done) = (st.counts, st.pairs);
    let (lo, hi, llr) = (st.lower, st.upper, st.llr);
    let rate = points(&c) / (2.0 * done as f64);
    let elo = crate::stats::elo_from_score(rate);
    let mut text = format!(
        "SPRT {} vs {}: H0 Elo {e0}, H1 Elo {e1}, alpha {alpha}, beta {beta}; bounds {lo:.3} … {hi:.3}\n\
         after {done} pairs ({} games): LLR {llr:.3}; score {:.1}% (≈ {elo:+.0} Elo); pairs 0/½/1/1½/2 points: {:?}\n",
        o.agents[0],
        o.agents[1],
        done * 2,
        100.0 * rate,
        c
    );
    match st.verdict {
        Some(h) => text.push_str(&format!(
            "accepted {h} ({})\n",
            if h == "H1" {
                "the first agent is stronger by elo1"
            } else {
                "not stronger by elo1"
            }
        )),
        None => text.push_str(&format!("no decision within --max-games {}\n", o.max_games)),
    }
    text
}

/// `sprt.csv`: one row, the test and where it ended.
fn sprt_csv(agents: &[String], test: &Sprt, st: &SprtState) -> String {
    arena_files::write_sprt(&arena_files::SprtRow {
        agent_a: agents[0].clone(),
        agent_b: agents[1].clone(),
        elo0: test.elo0,
        elo1: test.elo1,
        alpha: test.alpha,
        beta: test.beta,
        pairs: st.pairs,
        llr: st.llr,
        verdict: st.verdict.unwrap_or("none").to_string(),
        counts: st.counts,
    })
}
