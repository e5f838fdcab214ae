//! `tcgsim arena`: round robin of agents with Bradley–Terry ratings, or a two-agent SPRT.

use super::{
    check_out_dir, emit, even_games, load_cards, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::agents::AgentSpec;
use crate::core::GameDef;
use crate::sim::arena::{play_pairs, run_sprt, Sprt};
use crate::sim::output::{RunInfo, Table};
use crate::stats::{bradley_terry, wilson, Z95};
use anyhow::{anyhow, bail, Result};
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
}

/// `elo0,elo1[,alpha,beta]`.
pub fn parse_sprt(s: &str) -> Result<Sprt, String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("--sprt \"{s}\": \"{x}\" is not a number"))
        })
        .collect::<Result<_, _>>()?;
    let (elo0, elo1, alpha, beta) = match v.as_slice() {
        [e0, e1] => (*e0, *e1, 0.05, 0.05),
        [e0, e1, a, b] => (*e0, *e1, *a, *b),
        _ => {
            return Err(format!(
                "--sprt \"{s}\": expected elo0,elo1 or elo0,elo1,alpha,beta"
            ))
        }
    };
    if elo1 <= elo0 {
        return Err(format!("--sprt \"{s}\": elo1 must be above elo0"));
    }
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        return Err(format!(
            "--sprt \"{s}\": alpha and beta must be in (0, 0.5)"
        ));
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

pub fn arena<G: GameDef>(o: ArenaOpts) -> Result<ExitCode> {
    if o.agents.len() > super::limits::AGENTS {
        bail!("--agent: at most {} agents", super::limits::AGENTS);
    }
    let specs: Vec<AgentSpec> = o
        .agents
        .iter()
        .map(|a| AgentSpec::parse(a).map_err(|e| anyhow!("--agent {a}: {e}")))
        .collect::<Result<_>>()?;
    if specs.len() < 2 {
        bail!(
            "the arena needs at least two agents (--agent A --agent B …), {} given",
            specs.len()
        );
    }
    let sprt = o
        .sprt
        .as_deref()
        .map(parse_sprt)
        .transpose()
        .map_err(|e| anyhow!(e))?;
    if sprt.is_some() && specs.len() != 2 {
        bail!("--sprt compares exactly two agents");
    }
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
    let mut games = Vec::new();
    for a in &decks {
        for b in &decks {
            games.push(G::new_match(&db, [a, b]));
        }
    }
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
    let n = specs.len();
    let total = even_games(o.games);
    let pairs = total / 2;
    let pb = Progress::new(pairs * 2 * (n * (n - 1) / 2) as u64, "games");
    let mut score = vec![vec![0.0; n]; n];
    let mut played = vec![vec![0.0; n]; n];
    let mut penta = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if specs.iter().any(AgentSpec::aborted) {
                break;
            }
            let c = pool.install(|| {
                play_pairs(
                    &games,
                    (&specs[i], &specs[j]),
                    (i, j),
                    o.seed,
                    0..pairs,
                    &|k| pb.inc(k),
                )
            });
            let s: f64 = c
                .iter()
                .enumerate()
                .map(|(k, &x)| x as f64 * k as f64 / 2.0)
                .sum();
            score[i][j] = s;
            score[j][i] = 2.0 * pairs as f64 - s;
            played[i][j] = 2.0 * pairs as f64;
            played[j][i] = 2.0 * pairs as f64;
            penta.push((i, j, c));
        }
    }
    pb.finish();
    super::agent_failures(
        &specs.iter().collect::<Vec<_>>(),
        "the arena keeps no checkpoint; nothing was written",
    )?;
    let (elo, se) = bradley_terry(&score, &played);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]).then(a.cmp(&b)));
    let mut csv = Table::new(&[
        "agent",
        "elo",
        "elo_lo",
        "elo_hi",
        "games",
        "score",
        "score_rate",
    ]);
    let mut report = format!(
        "{:<40} {:>7} {:>17} {:>7} {:>7}\n",
        "agent", "Elo", "95% interval", "games", "score"
    );
    for &i in &order {
        let g: f64 = played[i].iter().sum();
        let s: f64 = score[i].iter().sum();
        csv.row([
            o.agents[i].clone(),
            format!("{:.1}", elo[i]),
            format!("{:.1}", elo[i] - Z95 * se[i]),
            format!("{:.1}", elo[i] + Z95 * se[i]),
            g.to_string(),
            s.to_string(),
            format!("{:.4}", s / g),
        ]);
        let _ = writeln!(
            report,
            "{:<40} {:>7.0} {:>8.0} – {:<6.0} {:>7} {:>6.1}%",
            o.agents[i],
            elo[i],
            elo[i] - Z95 * se[i],
            elo[i] + Z95 * se[i],
            g,
            100.0 * s / g
        );
    }
    let mut pairs_csv = Table::new(&[
        "agent_a",
        "agent_b",
        "pairs",
        "games",
        "score_a",
        "rate_a",
        "ci_low",
        "ci_high",
        "pairs_0",
        "pairs_half",
        "pairs_1",
        "pairs_1half",
        "pairs_2",
    ]);
    let _ = writeln!(report, "pairwise (row agent's score):");
    for (i, j, c) in &penta {
        let s = score[*i][*j];
        let g = played[*i][*j];
        let (lo, hi) = wilson(s, g, Z95);
        let mut row = vec![
            o.agents[*i].clone(),
            o.agents[*j].clone(),
            pairs.to_string(),
            g.to_string(),
            s.to_string(),
            format!("{:.4}", s / g),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
        ];
        row.extend(c.iter().map(u64::to_string));
        pairs_csv.row(row);
        let _ = writeln!(
            report,
            "  {} vs {}: {:.1}% ({:.1}–{:.1}%) over {} games",
            o.agents[*i],
            o.agents[*j],
            100.0 * s / g,
            100.0 * lo,
            100.0 * hi,
            g
        );
    }
    let p = o.out.join("arena.csv");
    write_file(&p, &csv.finish())?;
    let p2 = o.out.join("arena_pairs.csv");
    write_file(&p2, &pairs_csv.finish())?;
    info.games = total;
    info.games_played = pairs * 2 * (n * (n - 1) / 2) as u64;
    info.seconds = start.elapsed().as_secs_f64();
    write_file(&o.out.join("run.json"), &info.to_json())?;
    emit(&report)?;
    note(&format!("wrote {} and {}", p.display(), p2.display()));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// `--sprt`: batches of pairs until the test decides ([`run_sprt`]); writes `sprt.csv`.
fn sprt_run<G: GameDef>(
    o: &ArenaOpts,
    specs: &[AgentSpec],
    games: &[G],
    pool: &rayon::ThreadPool,
    test: Sprt,
    mut info: RunInfo,
) -> Result<ExitCode> {
    let Sprt {
        elo0: e0,
        elo1: e1,
        alpha,
        beta,
    } = test;
    let start = std::time::Instant::now();
    let max_pairs = even_games(o.max_games) / 2;
    let pb = Progress::new(max_pairs * 2, "games");
    let st = pool.install(|| {
        run_sprt(
            games,
            (&specs[0], &specs[1]),
            o.seed,
            test,
            max_pairs,
            32,
            &|k| pb.inc(k),
            &mut |st| {
                pb.message(format!(
                    "LLR {:.2} in ({:.2}, {:.2})",
                    st.llr, st.lower, st.upper
                ))
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
    let c = st.counts;
    let done = st.pairs;
    let (lo, hi, llr) = (st.lower, st.upper, st.llr);
    let score: f64 = c
        .iter()
        .enumerate()
        .map(|(k, &x)| x as f64 * k as f64 / 2.0)
        .sum();
    let g = 2.0 * done as f64;
    let rate = score / g;
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
    emit(&text)?;
    let mut csv = Table::new(&[
        "agent_a",
        "agent_b",
        "elo0",
        "elo1",
        "alpha",
        "beta",
        "pairs",
        "llr",
        "lower",
        "upper",
        "verdict",
        "pairs_0",
        "pairs_half",
        "pairs_1",
        "pairs_1half",
        "pairs_2",
    ]);
    let mut row = vec![
        o.agents[0].clone(),
        o.agents[1].clone(),
        e0.to_string(),
        e1.to_string(),
        alpha.to_string(),
        beta.to_string(),
        done.to_string(),
        format!("{llr:.4}"),
        format!("{lo:.4}"),
        format!("{hi:.4}"),
        st.verdict.unwrap_or("none").to_string(),
    ];
    row.extend(c.iter().map(u64::to_string));
    csv.row(row);
    let p = o.out.join("sprt.csv");
    write_file(&p, &csv.finish())?;
    info.command = "arena --sprt".into();
    info.games = o.max_games;
    info.games_played = done * 2;
    info.seconds = start.elapsed().as_secs_f64();
    write_file(&o.out.join("run.json"), &info.to_json())?;
    note(&format!("wrote {}", p.display()));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}
