//! `tcgsim tune`: improve a deck by card swaps against a gauntlet (`docs/tuning.md`). The search is
//! `sim::tune::run`; this file reads the arguments into its plan, shows its progress, writes the
//! result files it makes of the outcome (`sim::tune::files`) and prints the summary.

use super::sink::Shown;
use super::{
    bundled_decks, card_source, check_dir_of, check_out_dir, emit, load_decks, note, read_cards,
    thread_pool, write_file,
};
use crate::core::input::{read_text, MAX_TEXT_BYTES};
use crate::core::{fnv1a, GameDef};
use crate::sim::files::run_json::RunInfo;
use crate::sim::tune::{budget, files, pct, run, Outcome, Plan, STATE_FILE};
use crate::sim::Entrant;
use anyhow::{anyhow, bail, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub struct TuneOpts {
    pub deck: PathBuf,
    pub gauntlet: Vec<PathBuf>,
    pub pool: Option<PathBuf>,
    pub agent: String,
    pub time: Option<Duration>,
    pub rounds: Option<u64>,
    pub check_games: u64,
    pub seed: u64,
    pub threads: Option<u64>,
    pub out: PathBuf,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
}

/// Parses a duration: whole numbers with a unit each, `s`, `m`, `h` or `d` (`90s`, `8m`,
/// `1h30m`, `10h`), at most 30 days.
pub fn parse_duration(text: &str) -> crate::core::Result<Duration> {
    let bad = || {
        crate::core::Error::usage(format!(
            "\"{}\": expected a duration such as 90s, 8m, 1h30m or 10h",
            crate::core::input::excerpt(text)
        ))
    };
    let t = text.trim();
    if t.is_empty() {
        return Err(bad());
    }
    let mut secs: u64 = 0;
    let mut num = String::new();
    for ch in t.chars() {
        if ch.is_ascii_digit() {
            num.push(ch);
            if num.len() > 9 {
                return Err(bad());
            }
            continue;
        }
        let unit = match ch {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad()),
        };
        let n: u64 = num.parse().map_err(|_| bad())?;
        num.clear();
        secs = secs.saturating_add(n.saturating_mul(unit));
    }
    if !num.is_empty() {
        return Err(bad());
    }
    if secs == 0 {
        return Err(crate::core::Error::usage(format!(
            "\"{}\": the duration must be more than 0 (such as 90s, 8m, 1h30m or 10h)",
            crate::core::input::excerpt(text)
        )));
    }
    if secs > 30 * 86_400 {
        return Err(crate::core::Error::usage(format!(
            "{}: more than 30 days",
            crate::core::input::excerpt(text)
        )));
    }
    Ok(Duration::from_secs(secs))
}

/// The files a run reads: the cards, the deck, the gauntlet.
struct Inputs<G: GameDef> {
    cards: G::Cards,
    /// The card file's hash, or `bundled-VERSION`.
    pool_hash: String,
    start: G::Deck,
    gauntlet: Vec<G::Deck>,
    /// The opponents: the gauntlet's decks but, with the bundled gauntlet, the tuned deck.
    opponents: Vec<usize>,
    /// The hash of the deck files as written ([`Plan::files`]).
    files: u64,
}

/// Reads the files the arguments name, checking that the deck can be tuned and the gauntlet is
/// not empty.
fn inputs<G: GameDef>(o: &TuneOpts) -> Result<Inputs<G>> {
    let source = card_source::<G>(o.pool.as_deref(), Some(&o.deck));
    let cards = read_cards::<G>(source.as_deref())?;
    let pool_hash = match &source {
        Some(p) => format!("{:016x}", fnv1a(read_text(p, MAX_TEXT_BYTES)?.bytes())),
        None => format!("bundled-{}", env!("CARGO_PKG_VERSION")),
    };
    let start = load_decks::<G>(&cards, std::slice::from_ref(&o.deck), false)?.remove(0);
    let name = G::deck_name(&start).to_string();
    G::tunable_deck(&start).map_err(|e| anyhow!("{}: {e}", o.deck.display()))?;
    let paths = if o.gauntlet.is_empty() {
        bundled_decks::<G>().map_err(|e| anyhow!("no --gauntlet given: {e}"))?
    } else {
        o.gauntlet.clone()
    };
    let gauntlet = load_decks::<G>(&cards, &paths, true)?;
    let opponents: Vec<usize> = (0..gauntlet.len())
        .filter(|&k| !o.gauntlet.is_empty() || G::deck_name(&gauntlet[k]) != name)
        .collect();
    if opponents.is_empty() {
        bail!("{name}: the gauntlet is empty (give --gauntlet DECK)");
    }
    // The deck files as written: the order of their cards decides the move list and the deals
    // (the content hash does not see order).
    let mut files = fnv1a(read_text(&o.deck, MAX_TEXT_BYTES)?.bytes());
    for &k in &opponents {
        let text = read_text(&paths[k], MAX_TEXT_BYTES)?;
        files = crate::core::mix_seed(&[files, fnv1a(text.bytes())]);
    }
    Ok(Inputs {
        cards,
        pool_hash,
        start,
        gauntlet,
        opponents,
        files,
    })
}

impl<G: GameDef> Inputs<G> {
    /// The search's plan: these inputs and the options.
    fn plan<'a>(&'a self, o: &TuneOpts, spec: &'a Entrant) -> Plan<'a, G> {
        Plan {
            cards: &self.cards,
            start: &self.start,
            opponents: self.opponents.iter().map(|&k| &self.gauntlet[k]).collect(),
            spec,
            agent: o.agent.clone(),
            seed: o.seed,
            files: self.files,
            pool_hash: self.pool_hash.clone(),
            rounds: o.rounds,
            budget: budget(o.time, o.rounds),
            check_games: o.check_games,
            state: o.checkpoint.as_ref().map(|d| d.join(STATE_FILE)),
            resume: o.resume,
        }
    }
}

/// `tcgsim tune`: the arguments read into a plan, the search, its files and its summary.
pub fn tune<G: GameDef>(o: TuneOpts) -> Result<ExitCode> {
    crate::core::def::require::<G>(crate::core::def::Capability::Tuning)?;
    let spec = super::entrant(&o.agent, &o.process)?;
    let inputs = inputs::<G>(&o)?;
    let plan = inputs.plan(&o, &spec);
    check_out_dir(&o.out)?;
    if let Some(d) = &o.checkpoint {
        // A new checkpoint: its folder must take files (a state to resume is checked by the run).
        if !o.resume && !d.join(STATE_FILE).exists() {
            check_dir_of("--checkpoint", d)?;
        }
    }
    let threads = thread_pool(o.threads)?;
    let sink = Shown::notes(&spec);
    let outcome = threads.install(|| run(&plan, &sink))?;
    let deck_path = write_files(&o, &plan, &outcome)?;
    emit(&summary(&plan, &outcome))?;
    note(&format!(
        "wrote {}, tune.csv, tune_progress.csv, tune_fresh.csv, tune.svg and run.json in {}",
        deck_path.display(),
        o.out.display()
    ));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the tuned deck, the CSV files, the chart and `run.json`; returns the deck's path.
fn write_files<G: GameDef>(o: &TuneOpts, plan: &Plan<G>, r: &Outcome<G>) -> Result<PathBuf> {
    let deck_path = o
        .out
        .join(format!("{}.{}", files::stem(plan), G::INFO.deck_ext));
    write_file(&deck_path, &files::deck_file(plan, r))?;
    write_file(
        &o.out.join("tune.csv"),
        &files::tune_csv::<G>(plan.cards, &r.search),
    )?;
    write_file(
        &o.out.join("tune_progress.csv"),
        &files::progress_csv(&r.search),
    )?;
    write_file(&o.out.join("tune_fresh.csv"), &files::fresh_csv(plan, r))?;
    write_file(&o.out.join("tune.svg"), &files::chart(plan, r))?;
    let info = RunInfo {
        command: "tune".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: plan
            .decks()
            .iter()
            .map(|d| G::deck_name(d).to_string())
            .collect(),
        agents: vec![o.agent.clone()],
        content: plan.content(),
        games: r.check,
        seed: o.seed,
        fingerprint: r.search.fingerprint.clone(),
        games_played: r.games_played,
        games_resumed: r.games_resumed,
        seconds: r.clock.elapsed().as_secs_f64(),
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &info.to_json())?;
    Ok(deck_path)
}

/// The summary on standard output: the accepted swaps, the search's own estimate, and the fresh
/// measurement.
fn summary<G: GameDef>(plan: &Plan<G>, r: &Outcome<G>) -> String {
    let (s, name) = (&r.search, plan.name());
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{name}: {} swaps accepted in {} rounds ({} swaps raced, {} games)",
        s.accepted.len(),
        s.round,
        s.tried,
        s.total_games
    );
    for a in &s.accepted {
        let _ = writeln!(
            t,
            "  round {:>2}: {}× {} → {}  ({} → {} on {} games, gain {:+.1} pts)",
            a.round,
            a.swap.copies,
            G::card_name(plan.cards, a.swap.remove),
            G::card_name(plan.cards, a.swap.add),
            pct(a.rates().0),
            pct(a.rates().1),
            a.games,
            100.0 * a.arm.mean()
        );
    }
    if let Some(a) = s.accepted.last() {
        let _ = writeln!(
            t,
            "the search's own estimate of the tuned deck: {} (biased up: it is the best of {} candidates; docs/tuning.md)",
            pct(a.rates().1),
            a.candidates
        );
    }
    let ((r0, lo0, hi0), (r1, lo1, hi1)) = (r.start_rate(), r.tuned_rate());
    let (dlo, dhi) = r.gain.interval();
    let _ = writeln!(
        t,
        "on {} fresh games (deals no round used), against the same gauntlet:\n  {name}: {} ({}–{})\n  tuned: {} ({}–{})\n  gain: {:+.1} points (paired 95% interval {:+.1} to {:+.1})",
        r.check,
        pct(r0),
        pct(lo0),
        pct(hi0),
        pct(r1),
        pct(lo1),
        pct(hi1),
        100.0 * r.gain.mean(),
        100.0 * dlo,
        100.0 * dhi
    );
    t
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations_read_as_written() {
        assert_eq!(parse_duration("8m").unwrap(), Duration::from_secs(480));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_duration("10h").unwrap(), Duration::from_secs(36_000));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        for bad in ["", "8", "m", "8x", "0s", "-1m", "31d", "9999999999s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        // A duration of 0 is told so, not shown an example as if it were misspelt.
        for zero in ["0s", "0m", "0h0m"] {
            let e = parse_duration(zero).unwrap_err().to_string();
            assert!(e.contains("must be more than 0"), "{zero}: {e}");
        }
    }
}
