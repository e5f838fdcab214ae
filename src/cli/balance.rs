//! `tcgsim balance`: propose single-card changes that flatten a matrix of decks
//! (`docs/tuning.md`). The work is `sim::balance::run`; this file reads the arguments into its
//! plan, shows its progress, writes the result files it makes of the outcome
//! (`sim::balance::files`) and prints the summary.

use super::sink::Shown;
use super::{
    bundled_decks, card_source, check_out_dir, emit, load_decks, note, thread_pool, write_file,
};
use crate::core::input::{read_text, MAX_TEXT_BYTES};
use crate::core::GameDef;
use crate::sim::balance::{describe, files, means_of, run, ssd, Est, Outcome, Plan};
use crate::sim::files::run_json::RunInfo;
use crate::sim::Entrant;
use anyhow::{anyhow, bail, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

pub struct BalanceOpts {
    pub decks: Vec<PathBuf>,
    pub cards: Option<PathBuf>,
    pub agent: String,
    pub candidates: usize,
    pub games: u64,
    pub max_games: u64,
    pub check_games: u64,
    pub budget: Option<Duration>,
    pub seed: u64,
    pub threads: Option<u64>,
    pub out: PathBuf,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// The files a run reads: the card file (as text, which the changes patch, and as cards) and the
/// decks.
struct Inputs<G: GameDef> {
    file: PathBuf,
    text: String,
    cards: G::Cards,
    decks: Vec<G::Deck>,
}

/// Reads the files the arguments name, checking that there are two decks at least and that the
/// card file has one card a line.
fn inputs<G: GameDef>(o: &BalanceOpts) -> Result<Inputs<G>> {
    let paths = if o.decks.is_empty() {
        bundled_decks::<G>()?
    } else {
        o.decks.clone()
    };
    if paths.len() < 2 {
        bail!("balance needs at least two decks");
    }
    let file: PathBuf = card_source::<G>(o.cards.as_deref(), paths.first().map(PathBuf::as_path))
        .unwrap_or_else(|| Path::new(G::INFO.deck_dir).join(G::INFO.card_file));
    let text = read_text(&file, MAX_TEXT_BYTES)
        .map_err(|e| anyhow!("{e} (balance changes a card file: name it with --cards)"))?;
    let fname = file.display().to_string();
    let cards = G::parse_cards(&text, &fname).map_err(|e| anyhow!(e))?;
    crate::sim::balance::layout(&text).map_err(|e| anyhow!("{fname}: {e}"))?;
    let decks = load_decks::<G>(&cards, &paths, true)?;
    Ok(Inputs {
        file,
        text,
        cards,
        decks,
    })
}

impl<G: GameDef> Inputs<G> {
    /// The run's plan: these inputs and the options.
    fn plan<'a>(&'a self, o: &BalanceOpts, spec: &'a Entrant) -> Plan<'a, G> {
        Plan {
            text: &self.text,
            cards: &self.cards,
            file: self.file.display().to_string(),
            decks: self.decks.iter().collect(),
            names: self
                .decks
                .iter()
                .map(|d| G::deck_name(d).to_string())
                .collect(),
            spec,
            agent: o.agent.clone(),
            seed: o.seed,
            candidates: o.candidates,
            games: o.games,
            max_games: o.max_games,
            check_games: o.check_games,
            budget: o.budget,
        }
    }
}

/// `tcgsim balance`: the arguments read into a plan, the run, its files and its summary.
pub fn balance<G: GameDef>(o: BalanceOpts) -> Result<ExitCode> {
    crate::core::def::require::<G>(crate::core::def::Capability::Tuning)?;
    let spec = super::entrant(&o.agent, &o.process)?;
    let inputs = inputs::<G>(&o)?;
    let plan = inputs.plan(&o, &spec);
    check_out_dir(&o.out)?;
    let pool = thread_pool(o.threads)?;
    let sink = Shown::bars(&spec);
    let outcome = pool.install(|| run(&plan, &sink))?;
    let patched = write_files(&o, &inputs.file, &plan, &outcome)?;
    emit(&summary(&plan, &outcome, patched.as_deref()))?;
    note(&format!(
        "wrote balance.csv, balance.svg, balance_before_matchups.csv, balance_after_matchups.csv and run.json in {}",
        o.out.display()
    ));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the patched card file, the matchups and the chart of the best change (if one survived),
/// `balance.csv` and `run.json`; returns the patched card file's path.
fn write_files<G: GameDef>(
    o: &BalanceOpts,
    file: &Path,
    plan: &Plan<G>,
    r: &Outcome<G>,
) -> Result<Option<PathBuf>> {
    let mut patched = None;
    if let (Some(b), Some(f)) = (r.best, &r.fresh) {
        let path = o.out.join(format!(
            "{}_balanced.csv",
            file.file_stem()
                .map_or("cards".into(), |s| s.to_string_lossy().into_owned())
        ));
        write_file(&path, &f.patched)?;
        let (before, after) = files::matchups(plan, f);
        write_file(&o.out.join("balance_before_matchups.csv"), &before)?;
        write_file(&o.out.join("balance_after_matchups.csv"), &after)?;
        write_file(
            &o.out.join("balance.svg"),
            &files::chart(plan, &r.rows[b].change, f),
        )?;
        patched = Some(path);
    }
    write_file(&o.out.join("balance.csv"), &files::balance_csv(plan, r))?;
    let info = RunInfo {
        command: "balance".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: plan.names.clone(),
        agents: vec![o.agent.clone()],
        content: G::content_hash(plan.cards, &plan.decks),
        games: o.games,
        seed: o.seed,
        games_played: r.games_played,
        seconds: r.clock.elapsed().as_secs_f64(),
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &info.to_json())?;
    Ok(patched)
}

fn pts(e: &Est) -> String {
    format!(
        "{:.1} ({:.1}–{:.1})",
        100.0 * e.value,
        100.0 * e.lo,
        100.0 * e.hi
    )
}

/// The summary on standard output: what was screened and raced, and the best change on the fresh
/// deals with each deck's mean before and after.
fn summary<G: GameDef>(plan: &Plan<G>, r: &Outcome<G>, patched: Option<&Path>) -> String {
    let n = plan.decks.len();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} changes of {} cards screened; {} raced over {n} decks ({})",
        r.screened,
        r.used,
        r.rows.len(),
        plan.names.join(", ")
    );
    let (Some(b), Some(f), Some(patched)) = (r.best, &r.fresh, patched) else {
        let _ = writeln!(
            s,
            "no change survived the race: none was shown not to widen the spread"
        );
        return s;
    };
    let (est, (mb, ma)) = (&f.est, (means_of(n, &f.before), means_of(n, &f.after)));
    let _ = writeln!(
        s,
        "best change: {}\n  on {} fresh games a matchup (deals the race never used):\n  spread before {} pts, after {} pts; reduction {:.1} pts (95% paired bootstrap {:.1} to {:.1})\n  squared deviations from 50%: {:.4} → {:.4}",
        describe::<G>(plan.cards, &r.rows[b].change),
        plan.check_games,
        pts(&est[0]),
        pts(&est[1]),
        100.0 * est[2].value,
        100.0 * est[2].lo,
        100.0 * est[2].hi,
        ssd(&mb),
        ssd(&ma)
    );
    let _ = writeln!(s, "  {:<18} {:>8} {:>8}", "deck", "before", "after");
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| mb[b].total_cmp(&mb[a]));
    for d in idx {
        let _ = writeln!(
            s,
            "  {:<18} {:>7.1}% {:>7.1}%",
            plan.names[d],
            100.0 * mb[d],
            100.0 * ma[d]
        );
    }
    let _ = writeln!(
        s,
        "wrote {} (the card file with this change)",
        patched.display()
    );
    if est[2].lo <= 0.0 {
        let _ = writeln!(
            s,
            "note: the fresh interval of the reduction includes 0: the change is not shown to flatten the matrix"
        );
    }
    s
}
