//! `tcgsim cards`: rank the cards of decks by win contribution (`docs/statistics.md`).

use super::{
    bundled_decks, check_out_dir, emit, load_cards, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::core::GameDef;
use crate::sim::cards::{deck_games, opponents, rank_deck, RankPlan, Ranking, Versus};
use crate::sim::files::{
    self,
    cards::{Card, Matchup},
    run_json::RunInfo,
};
use anyhow::{anyhow, bail, Context, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

pub struct CardsOpts {
    pub decks: Vec<PathBuf>,
    pub gauntlet: Vec<PathBuf>,
    pub agent: String,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<u64>,
    pub out: PathBuf,
    pub versus: Versus,
    pub cards: Option<PathBuf>,
    pub top: Option<usize>,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// `(value, lo, hi)` in points, or `–` when undefined.
fn points((v, lo, hi): (f64, f64, f64)) -> String {
    if v.is_nan() {
        "–".into()
    } else {
        format!("{:+.1} ({:+.1}…{:+.1})", 100.0 * v, 100.0 * lo, 100.0 * hi)
    }
}

fn percent(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{:.0}%", 100.0 * x)
    }
}

/// `tcgsim cards show | words | migrate`: the card language's tools.
pub enum Tool {
    Show {
        card: String,
        cards: Option<PathBuf>,
    },
    Words,
    Migrate {
        file: PathBuf,
        out: Option<PathBuf>,
    },
}

pub fn tool<G: GameDef>(t: Tool) -> Result<ExitCode> {
    let lang = || {
        G::INFO
            .lang
            .ok_or_else(|| anyhow!("{}: its cards have no card language", G::INFO.title))
    };
    match t {
        Tool::Show { card, cards } => {
            let db = super::read_cards::<G>(cards.as_deref())?;
            let text = G::card_text(&db, &card).map_err(|e| anyhow!(e))?;
            emit(&format!("{text}\n"))?;
        }
        Tool::Words => emit(&crate::core::lang::doc::tables(lang()?))?,
        Tool::Migrate { file, out } => {
            let text = crate::core::input::read_text(&file, crate::core::input::MAX_TEXT_BYTES)?;
            let name = file.display().to_string();
            let (new, changed) =
                crate::core::lang::migrate::migrate(lang()?, G::INFO.text_columns, &text, &name)?;
            // The rewritten file must load as the old one did.
            G::parse_cards(&new, &name)
                .map_err(|e| anyhow!("the migrated file does not load: {e}"))?;
            match &out {
                Some(p) => write_file(p, &new)?,
                None => emit(&new)?,
            }
            note(&format!(
                "{name}: {changed} card text(s) rewritten in the canonical form"
            ));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `tcgsim cards`: the decks and the gauntlet read, each deck ranked ([`rank_deck`]), then
/// `cards.csv`, `run.json`, the terminal summary and the report.
pub fn cards<G: GameDef>(o: CardsOpts) -> Result<ExitCode> {
    crate::core::def::require::<G>(crate::core::def::Capability::CardStats)?;
    // `--games` is in range: clap checks it (README, "Limits").
    let spec = super::entrant(&o.agent, &o.process)?;
    let mut db = load_cards::<G>(o.cards.as_deref(), o.decks.first().map(PathBuf::as_path))?;
    let decks = load_decks::<G>(&db, &o.decks, false)?;
    // The cards replacements are drawn from: the card file's, before any filler joins them.
    let card_pool = crate::sim::tune::pool::<G>(&db);
    let gauntlet_paths = if o.gauntlet.is_empty() {
        bundled_decks::<G>().context("no --gauntlet given")?
    } else {
        o.gauntlet.clone()
    };
    let gauntlet = load_decks::<G>(&db, &gauntlet_paths, false)?;
    check_out_dir(&o.out)?;
    let pool = thread_pool(o.threads)?;
    let mut lines: Vec<Card> = Vec::new();
    let mut matchups: Vec<Matchup> = Vec::new();
    let mut report = String::new();
    let start = std::time::Instant::now();
    let mut played = 0u64;
    for deck in &decks {
        let name = G::deck_name(deck);
        let opponents = opponents::<G>(deck, &gauntlet, o.gauntlet.is_empty());
        if opponents.is_empty() {
            bail!("{name}: the gauntlet is empty");
        }
        let plan = RankPlan::<G> {
            deck,
            opponents: &opponents,
            spec: &spec,
            games: o.games,
            seed: o.seed,
            versus: o.versus,
            pool: &card_pool,
        };
        let total = deck_games::<G>(&plan);
        let pb = Progress::new(total, "games");
        let ranking = pool
            .install(|| rank_deck::<G>(&mut db, &plan, &|n| pb.inc(n)))
            .map_err(|e| anyhow!("{name}: {e}"))?;
        pb.finish();
        super::agent_failures(&[&spec], "nothing was written")?;
        played += total;
        let names: Vec<&str> = opponents.iter().map(|d| G::deck_name(d)).collect();
        report += &deck_summary(&o, name, &names, &ranking, |id| G::card_name(&db, id));
        lines.extend(ranking.rows.iter().map(|r| {
            Card::of(name, G::card_name(&db, r.id), ranking.games, r, |i| {
                G::card_name(&db, i)
            })
        }));
        for r in &ranking.rows {
            let card = G::card_name(&db, r.id);
            matchups.extend(Matchup::of(name, &card, &names, o.games, r));
        }
    }
    if let Some(t) = o.top.filter(|&t| t < usize::MAX) {
        let _ = writeln!(
            report,
            "(the first {t} cards of each deck; all of them in cards.csv)"
        );
    }
    let path = o.out.join("cards.csv");
    write_file(&path, &files::cards::write(&lines))?;
    let matchups_path = o.out.join(files::cards::MATCHUPS);
    // A run without ablation writes none; an earlier run's goes when this run's files go in
    // place (`out::commit`).
    if !matchups.is_empty() {
        write_file(&matchups_path, &files::cards::write_matchups(&matchups))?;
    }
    let info = RunInfo {
        command: "cards".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: decks.iter().map(|d| G::deck_name(d).to_string()).collect(),
        agents: vec![o.agent.clone()],
        content: G::content_hash(&db, &decks.iter().chain(&gauntlet).collect::<Vec<_>>()),
        games: o.games,
        seed: o.seed,
        games_played: played,
        seconds: start.elapsed().as_secs_f64(),
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &info.to_json())?;
    emit(&report)?;
    note(&format!("wrote {}", path.display()));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// The terminal text of one deck's ranking: its win rate and opponents, then its cards (the
/// first `--top`), and what a flag means when a card has one.
fn deck_summary(
    o: &CardsOpts,
    name: &str,
    opponents: &[&str],
    ranking: &Ranking,
    card_name: impl Fn(u32) -> String,
) -> String {
    let mut report = String::new();
    let games = ranking.games;
    let replaced = ranking
        .rows
        .iter()
        .any(|r| r.vor.is_some_and(|v| !v.0.is_nan()));
    let by = match (o.versus.typical && replaced, o.versus.blank) {
        (true, _) => "value over replacement",
        (false, true) => "ablation (blank filler)",
        _ => "landmark IWD",
    };
    let none_replaced = if o.versus.typical && !replaced {
        " (no card of the pool may take a card's place in this deck: a sealed deck holds only its packs' cards)"
    } else {
        ""
    };
    let _ = writeln!(
        report,
        "{}: win rate {:.1}% over {games} games against {} ({}); ranked by {by}{none_replaced}",
        name,
        100.0 * ranking.win_rate,
        opponents.join(", "),
        o.agent,
    );
    // The name column as wide as the longest name (at least 40).
    let w = ranking
        .rows
        .iter()
        .map(|r| card_name(r.id).chars().count())
        .max()
        .unwrap_or(0)
        .max(40);
    let _ = writeln!(
        report,
        "  {:>3} {:<w$} {:>22} {:>22} {:>22} {:>7} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7}",
        "#",
        "card",
        "vs typical, pts (95%)",
        "vs blank, pts (95%)",
        "landmark IWD, pts",
        "agree",
        "OH WR",
        "GD WR",
        "drawn",
        "played",
        "resource",
        "in hand"
    );
    let mut flags = String::new();
    for (rank, r) in ranking.rows.iter().enumerate() {
        let u = &r.usage;
        let flag = r.flag();
        let mark = if flag.is_empty() { ' ' } else { '!' };
        if o.top.is_some_and(|t| rank >= t) {
            continue;
        }
        if !flag.is_empty() {
            let _ = write!(flags, "  ! {}: {flag}", card_name(r.id));
            if r.situational() {
                let each: Vec<String> = opponents
                    .iter()
                    .zip(&r.by_opponent)
                    .map(|(n, &v)| format!("vs {n} {}", points(v)))
                    .collect();
                let _ = write!(flags, " ({})", each.join(", "));
            }
            flags.push('\n');
        }
        let _ = writeln!(
            report,
            "  {:>2}.{mark}{:<w$} {:>22} {:>22} {:>22} {:>7} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7}",
            rank + 1,
            card_name(r.id),
            r.vor.map_or("–".into(), points),
            r.abl.map_or("–".into(), points),
            points(r.liwd),
            if r.agree().is_empty() {
                "–"
            } else {
                r.agree()
            },
            percent(r.oh.rate()),
            percent(r.gd.rate()),
            percent(r.gih.games as f64 / games as f64),
            percent(u.rate(u.played)),
            percent(u.rate(u.resource)),
            percent(u.rate(u.in_hand)),
        );
    }
    if !flags.is_empty() {
        report += &flags;
        let _ = writeln!(
            report,
            "  (no better than replacement: a typical card that may take its place wins more; \
             situational: strong against some opponents, clearly weaker against others; \
             rarely played: played in under 5% of the games it was drawn in — docs/statistics.md)"
        );
    }
    report
}
