//! `tcgsim tune`: improve a deck by card swaps against a gauntlet (`docs/tuning.md`); the search
//! is `sim::tune`, this file reads the arguments, keeps the checkpoint and writes the results.

use super::{
    bundled_decks, card_source, check_out_dir, emit, load_decks, note, read_cards, thread_pool,
    write_file,
};
use crate::core::input::{read_text, MAX_TEXT_BYTES};
use crate::core::{fnv1a, GameDef};
use crate::sim::output::{RunInfo, Table};
use crate::sim::tune::{fresh, pool, step, Accepted, Gauntlet, Params, Point, Search, Swap};
use crate::stats::{wilson, Z95};
use anyhow::{anyhow, bail, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// The version of the search: a state of another version is never resumed.
const TUNE_HEAD: &str = "tcgsim-tune v1";
/// The state file in a `--checkpoint` folder.
pub const STATE_FILE: &str = "tune-state.json";
/// The budget when neither `--time` nor `--rounds` is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(600);

/// Parses a duration: whole numbers with a unit each, `s`, `m`, `h` or `d` (`90s`, `8m`,
/// `1h30m`, `10h`), at most 30 days.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || {
        format!(
            "\"{}\": expected a duration such as 90s, 8m, 1h30m or 10h",
            crate::core::input::excerpt(text)
        )
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
    if !num.is_empty() || secs == 0 {
        return Err(bad());
    }
    if secs > 30 * 86_400 {
        return Err(format!(
            "{}: more than 30 days",
            crate::core::input::excerpt(text)
        ));
    }
    Ok(Duration::from_secs(secs))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn rate_ci(score: u64, n: u64) -> (f64, f64, f64) {
    let s = score as f64 / 2.0;
    let (lo, hi) = wilson(s, n as f64, Z95);
    (s / n.max(1) as f64, lo, hi)
}

pub fn tune<G: GameDef>(o: TuneOpts) -> Result<ExitCode> {
    let spec = super::entrant(&o.agent, &o.process)?;
    let source = card_source::<G>(o.pool.as_deref(), Some(&o.deck));
    let db = read_cards::<G>(source.as_deref())?;
    let pool_hash = match &source {
        Some(p) => format!("{:016x}", fnv1a(read_text(p, MAX_TEXT_BYTES)?.bytes())),
        None => format!("bundled-{}", env!("CARGO_PKG_VERSION")),
    };
    let start = load_decks::<G>(&db, std::slice::from_ref(&o.deck), false)?.remove(0);
    let name = G::deck_name(&start).to_string();
    G::tunable_deck(&start).map_err(|e| anyhow!("{}: {e}", o.deck.display()))?;
    let gauntlet_paths = if o.gauntlet.is_empty() {
        bundled_decks::<G>().map_err(|e| anyhow!("no --gauntlet given: {e}"))?
    } else {
        o.gauntlet.clone()
    };
    let gauntlet_decks = load_decks::<G>(&db, &gauntlet_paths, true)?;
    let opponents: Vec<&G::Deck> = gauntlet_decks
        .iter()
        .filter(|d| !o.gauntlet.is_empty() || G::deck_name(d) != name)
        .collect();
    if opponents.is_empty() {
        bail!("{name}: the gauntlet is empty (give --gauntlet DECK)");
    }
    let m = opponents.len() as u64;
    let gauntlet: Vec<&str> = opponents.iter().map(|d| G::deck_name(d)).collect();
    let gauntlet_names = gauntlet.join(", ");
    // The deck files as written: the order of their cards decides the move list and the deals
    // (the content hash does not see order).
    let mut files = fnv1a(read_text(&o.deck, MAX_TEXT_BYTES)?.bytes());
    for d in &opponents {
        let p = &gauntlet_paths[gauntlet_decks
            .iter()
            .position(|x| std::ptr::eq(x, *d))
            .expect("an opponent is a gauntlet deck")];
        files = crate::core::mix_seed(&[files, fnv1a(read_text(p, MAX_TEXT_BYTES)?.bytes())]);
    }
    let params = Params::for_gauntlet(m);
    let pool_ids = pool::<G>(&db);
    let mut all: Vec<&G::Deck> = vec![&start];
    all.extend(&opponents);
    let fingerprint = format!(
        "{TUNE_HEAD}; game={}; deck={name}; gauntlet={}; content={}; files={files:016x}; pool={pool_hash}; agent={}; seed={}; {}",
        G::INFO.name,
        gauntlet.join(","),
        G::content_hash(&db, &all),
        o.agent,
        o.seed,
        params.text()
    );
    check_out_dir(&o.out)?;
    let state_path = o.checkpoint.as_ref().map(|d| d.join(STATE_FILE));
    let mut search = match &state_path {
        Some(p) if p.exists() => {
            if !o.resume {
                bail!(
                    "{}: a tuning checkpoint exists; add --resume to continue it, or remove it",
                    p.display()
                );
            }
            let text = read_text(p, 1 << 30)?;
            let s = Search::parse(&text, &p.display().to_string(), &fingerprint)
                .map_err(|e| anyhow!(e))?;
            if s.params != params {
                bail!(
                    "{}: its race parameters ({}) are not this run's ({})",
                    p.display(),
                    s.params.text(),
                    params.text()
                );
            }
            s.incumbent::<G>(&db, &start)
                .map_err(|e| anyhow!("{}: {e}", p.display()))?;
            note(&format!(
                "resuming {}: round {}, {} swaps accepted, {} games played",
                p.display(),
                s.round,
                s.accepted.len(),
                s.total_games
            ));
            s
        }
        Some(p) => {
            if o.resume {
                bail!("{}: no tuning checkpoint to resume", p.display());
            }
            if let Some(d) = &o.checkpoint {
                check_out_dir(d)?;
            }
            Search::new(fingerprint.clone(), params)
        }
        None => Search::new(fingerprint.clone(), params),
    };
    let threads = thread_pool(o.threads)?;
    let g = Gauntlet::<G> {
        cards: &db,
        opponents: opponents.clone(),
        spec: &spec,
        seed: o.seed,
    };
    let budget = match (o.time, o.rounds) {
        (None, None) => Some(DEFAULT_TIME),
        (t, _) => t,
    };
    let mut moves = crate::sim::tune::Moves::<G>::default();
    note(&format!(
        "tuning {name} ({}) against {} with {}: {} candidate swaps a round; budget {}",
        G::INFO.title,
        gauntlet_names,
        o.agent,
        moves
            .update(&search, &db, &start, &pool_ids)
            .map_err(|e| anyhow!(e))?
            .len(),
        match (budget, o.rounds) {
            (Some(t), Some(r)) => format!("{}s or {r} rounds", t.as_secs()),
            (Some(t), None) => format!("{}s", t.as_secs()),
            (None, Some(r)) => format!("{r} rounds"),
            (None, None) => unreachable!(),
        }
    ));
    let clock = Instant::now();
    let games_before = search.total_games;
    let card = |id: u32| G::card_name(&db, id);
    let swap_text = |sw: &Swap| format!("{}×{} → {}", sw.copies, card(sw.remove), card(sw.add));
    loop {
        if o.rounds.is_some_and(|r| search.round >= r) {
            break;
        }
        if budget.is_some_and(|b| clock.elapsed() >= b) {
            note(if state_path.is_some() {
                "time is up: the round in progress is kept in the checkpoint (--resume goes on)"
            } else {
                "time is up: the round in progress is not finished (--checkpoint would keep it)"
            });
            break;
        }
        threads
            .install(|| {
                step::<G>(&mut search, &g, &start, &pool_ids, &mut moves, &|_| {}, &mut |l| {
                    let s = l.search;
                    let best = l.best.map_or(String::new(), |(sw, d)| {
                        format!("; best {} ({:+.1} pts)", swap_text(&sw), 100.0 * d)
                    });
                    let head = match (l.accepted, l.round_over) {
                        (Some(a), _) => format!(
                            "round {} accepts {}: {} → {} on {} games",
                            a.round,
                            swap_text(&a.swap),
                            pct(a.rates().0),
                            pct(a.rates().1),
                            a.games
                        ),
                        (None, true) => format!(
                            "round {} accepts nothing (incumbent {} on {} games); next round races up to {} games",
                            s.round - 1,
                            pct(s.points.last().map_or(f64::NAN, |p| p.score as f64 / (2 * p.n) as f64)),
                            s.points.last().map_or(0, |p| p.n),
                            s.n_max
                        ),
                        (None, false) => format!(
                            "round {}: {} of {} swaps alive after {} games each{best}",
                            s.round, l.alive, s.candidates, s.games
                        ),
                    };
                    note(&format!(
                        "{head} · {} accepted, {} swaps tried, {} games, {:.0}s",
                        s.accepted.len(),
                        s.tried,
                        s.total_games,
                        clock.elapsed().as_secs_f64()
                    ));
                })
            })
            .map_err(|e| anyhow!("{name}: {e}"))?;
        // A look an agent failed in is not saved: the checkpoint keeps the look before it.
        super::agent_failures(
            &[&spec],
            match &state_path {
                Some(_) => {
                    "the checkpoint holds the last look before the failure (--resume goes on)"
                }
                None => "nothing was written",
            },
        )?;
        if let Some(p) = &state_path {
            let text = serde_json::to_string(&search).expect("the state serializes");
            write_file(p, &text)?;
        }
    }
    let tuned = search.incumbent::<G>(&db, &start).map_err(|e| anyhow!(e))?;
    // The honest measure: fresh deals, never used by a round.
    let check = o.check_games.div_ceil(2 * m) * 2 * m;
    let (s0, s1, arm) = threads.install(|| fresh::<G>(&g, &start, &tuned, check, &|_| {}));
    super::agent_failures(&[&spec], "nothing was written")?;
    let (r0, lo0, hi0) = rate_ci(s0, check);
    let (r1, lo1, hi1) = rate_ci(s1, check);
    let (dlo, dhi) = arm.interval();

    // Files.
    let stem = format!("{name}_tuned");
    let deck_path = o.out.join(format!("{stem}.{}", G::INFO.deck_ext));
    let comment = format!(
        "{name} tuned by tcgsim tune against {} ({}, seed {}): {} swaps; {} → {} on {check} fresh games",
        gauntlet_names,
        o.agent,
        o.seed,
        search.accepted.len(),
        pct(r0),
        pct(r1)
    );
    write_file(&deck_path, &G::deck_file(&db, &tuned, &comment))?;
    let mut csv = Table::new(&[
        "round",
        "removed",
        "added",
        "copies",
        "games",
        "before",
        "before_lo",
        "before_hi",
        "after",
        "after_lo",
        "after_hi",
        "gain",
        "gain_lo",
        "gain_hi",
        "remeasured_next_round",
        "remeasured_games",
        "games_spent",
        "candidates",
    ]);
    for a in &search.accepted {
        let (b, blo, bhi) = rate_ci(a.before, a.games);
        let (f, flo, fhi) = rate_ci(a.after, a.games);
        let (glo, ghi) = a.arm.interval();
        let next = search.points.iter().find(|p| p.round == a.round + 1);
        csv.row([
            a.round.to_string(),
            card(a.swap.remove),
            card(a.swap.add),
            a.swap.copies.to_string(),
            a.games.to_string(),
            format!("{b:.4}"),
            format!("{blo:.4}"),
            format!("{bhi:.4}"),
            format!("{f:.4}"),
            format!("{flo:.4}"),
            format!("{fhi:.4}"),
            format!("{:.4}", a.arm.mean()),
            format!("{glo:.4}"),
            format!("{ghi:.4}"),
            next.map_or(String::new(), |p| {
                format!("{:.4}", p.score as f64 / (2 * p.n) as f64)
            }),
            next.map_or(String::new(), |p| p.n.to_string()),
            a.spent.to_string(),
            a.candidates.to_string(),
        ]);
    }
    write_file(&o.out.join("tune.csv"), &csv.finish())?;
    // For the report (and any reader): the win rate round by round, and the fresh measurement.
    let mut prog = Table::new(&[
        "round", "games", "n", "score", "win_rate", "ci_low", "ci_high", "accepted",
    ]);
    for p in &search.points {
        let (v, lo, hi) = rate_ci(p.score, p.n);
        let accepted = search.accepted.iter().any(|a| a.round == p.round);
        prog.row([
            p.round.to_string(),
            p.games.to_string(),
            p.n.to_string(),
            p.score.to_string(),
            format!("{v:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            u8::from(accepted).to_string(),
        ]);
    }
    if !search.points.is_empty() {
        write_file(&o.out.join("tune_progress.csv"), &prog.finish())?;
    }
    let mut fresh_csv = Table::new(&["measure", "deck", "games", "value", "lo", "hi"]);
    for (measure, deck, (v, lo, hi)) in [
        ("start", name.clone(), (r0, lo0, hi0)),
        ("tuned", stem.clone(), (r1, lo1, hi1)),
        ("gain", String::new(), (arm.mean(), dlo, dhi)),
    ] {
        fresh_csv.row([
            measure.to_string(),
            deck,
            check.to_string(),
            format!("{v:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
        ]);
    }
    write_file(&o.out.join("tune_fresh.csv"), &fresh_csv.finish())?;
    write_file(
        &o.out.join("tune.svg"),
        &tune_svg(
            &name,
            &search.points,
            &search.accepted,
            (r0, lo0, hi0),
            (r1, lo1, hi1),
        ),
    )?;
    let info = RunInfo {
        command: "tune".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: std::iter::once(name.clone())
            .chain(opponents.iter().map(|d| G::deck_name(d).to_string()))
            .collect(),
        agents: vec![o.agent.clone()],
        content: G::content_hash(&db, &all),
        games: check,
        seed: o.seed,
        fingerprint,
        games_played: search.total_games - games_before + 2 * check,
        seconds: clock.elapsed().as_secs_f64(),
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &info.to_json())?;

    // The summary.
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{name}: {} swaps accepted in {} rounds ({} swaps raced, {} games)",
        search.accepted.len(),
        search.round,
        search.tried,
        search.total_games
    );
    for a in &search.accepted {
        let _ = writeln!(
            t,
            "  round {:>2}: {}× {} → {}  ({} → {} on {} games, gain {:+.1} pts)",
            a.round,
            a.swap.copies,
            card(a.swap.remove),
            card(a.swap.add),
            pct(a.rates().0),
            pct(a.rates().1),
            a.games,
            100.0 * a.arm.mean()
        );
    }
    if let Some(a) = search.accepted.last() {
        let _ = writeln!(
            t,
            "the search's own estimate of the tuned deck: {} (biased up: it is the best of {} candidates; docs/tuning.md)",
            pct(a.rates().1),
            a.candidates
        );
    }
    let _ = writeln!(
        t,
        "on {check} fresh games (deals no round used), against the same gauntlet:\n  {name}: {} ({}–{})\n  tuned: {} ({}–{})\n  gain: {:+.1} points (paired 95% interval {:+.1} to {:+.1})",
        pct(r0),
        pct(lo0),
        pct(hi0),
        pct(r1),
        pct(lo1),
        pct(hi1),
        100.0 * arm.mean(),
        100.0 * dlo,
        100.0 * dhi
    );
    emit(&t)?;
    note(&format!(
        "wrote {}, tune.csv, tune_progress.csv, tune_fresh.csv, tune.svg and run.json in {}",
        deck_path.display(),
        o.out.display()
    ));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// The win rate over the search: the incumbent's rate at the end of each round (with its Wilson
/// interval) against the games played, the accepted candidates' own estimates, and the fresh
/// measurements of the starting and the tuned deck as dashed lines.
fn tune_svg(
    name: &str,
    points: &[Point],
    accepted: &[Accepted],
    start: (f64, f64, f64),
    tuned: (f64, f64, f64),
) -> String {
    let (w, h, l, r, top, bottom) = (720.0, 410.0, 60.0, 20.0, 40.0, 60.0);
    let xmax = points.last().map_or(1, |p| p.games).max(1) as f64;
    let x = |g: f64| l + (w - l - r) * g / xmax;
    let y = |v: f64| top + (h - top - bottom) * (1.0 - v);
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <text x=\"{l}\" y=\"22\" font-size=\"15\">{}: win rate against the gauntlet while tuning</text>\n",
        esc(name)
    );
    for k in 0..=10 {
        let yy = y(k as f64 / 10.0);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{x2}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/><text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\">{pc}%</text>",
            x2 = w - r,
            tx = l - 6.0,
            ty = yy + 4.0,
            pc = k * 10
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">games played by the search</text><text x=\"{l}\" y=\"{}\">0</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        (l + w - r) / 2.0,
        h - bottom + 30.0,
        h - bottom + 14.0,
        w - r,
        h - bottom + 14.0,
        xmax as u64
    );
    for (v, label, colour) in [
        (start, "start, fresh games", "#0072B2"),
        (tuned, "tuned, fresh games", "#D55E00"),
    ] {
        let yy = y(v.0);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{x2}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"{colour}\" stroke-dasharray=\"6 4\"/><text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\" fill=\"{colour}\">{label}: {a:.1}% ({b:.1}–{c:.1})</text>",
            x2 = w - r,
            tx = w - r - 4.0,
            ty = yy - 4.0,
            a = 100.0 * v.0,
            b = 100.0 * v.1,
            c = 100.0 * v.2
        );
    }
    let mut line = String::new();
    for p in points {
        let (v, lo, hi) = rate_ci(p.score, p.n);
        let _ = write!(line, "{:.1},{:.1} ", x(p.games as f64), y(v));
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#009E73\"/><circle cx=\"{0:.1}\" cy=\"{3:.1}\" r=\"3\" fill=\"#009E73\"><title>round {4}: {5:.1}% ({6:.1}–{7:.1}) on {8} games</title></circle>",
            x(p.games as f64),
            y(lo),
            y(hi),
            y(v),
            p.round,
            100.0 * v,
            100.0 * lo,
            100.0 * hi,
            p.n
        );
    }
    let _ = writeln!(
        s,
        "<polyline points=\"{line}\" fill=\"none\" stroke=\"#009E73\" stroke-width=\"1.5\"/>"
    );
    for a in accepted {
        if let Some(p) = points.iter().find(|p| p.round == a.round) {
            let v = a.rates().1;
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"6\" height=\"6\" fill=\"#E69F00\"><title>round {}: accepted at {:.1}% (the search's own estimate)</title></rect>",
                x(p.games as f64) - 3.0,
                y(v) - 3.0,
                a.round,
                100.0 * v
            );
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"{l}\" y=\"{}\" fill=\"#009E73\">● incumbent at each round's end (95% Wilson)</text><text x=\"{}\" y=\"{}\" fill=\"#E69F00\">■ accepted swap, search's estimate</text>",
        h - 4.0,
        l + 320.0,
        h - 4.0
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations_read_as_written() {
        assert_eq!(parse_duration("8m"), Ok(Duration::from_secs(480)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("10h"), Ok(Duration::from_secs(36_000)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        for bad in ["", "8", "m", "8x", "0s", "-1m", "31d", "9999999999s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
