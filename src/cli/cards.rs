//! `tcgsim cards`: rank the cards of decks by win contribution (`docs/statistics.md`).

use super::{
    bundled_decks, check_out_dir, emit, load_cards, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::core::GameDef;
use crate::sim::cards::rank_deck;
use crate::sim::output::{rate as f4, RunInfo, Table};
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
    pub ablation: bool,
    pub cards: Option<PathBuf>,
    pub top: Option<usize>,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

pub const HEADER: &str = "deck,card,copies,games,drawn_games,drawn_rate,played_rate,resource_rate,in_hand_rate,gih_wr,gih_lo,gih_hi,gns_games,gns_wr,gns_lo,gns_hi,iwd,iwd_lo,iwd_hi,ablation_games,ablation_value,ablation_lo,ablation_hi,agree,flag";

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

pub fn cards<G: GameDef>(o: CardsOpts) -> Result<ExitCode> {
    // `--games` is in range: clap checks it (README, "Limits").
    let spec = super::entrant(&o.agent, &o.process)?;
    let mut db = load_cards::<G>(o.cards.as_deref(), o.decks.first().map(PathBuf::as_path))?;
    let decks = load_decks::<G>(&db, &o.decks, false)?;
    let gauntlet_paths = if o.gauntlet.is_empty() {
        bundled_decks::<G>().context("no --gauntlet given")?
    } else {
        o.gauntlet.clone()
    };
    let gauntlet = load_decks::<G>(&db, &gauntlet_paths, false)?;
    check_out_dir(&o.out)?;
    let pool = thread_pool(o.threads)?;
    let mut csv = Table::new(&HEADER.split(',').collect::<Vec<_>>());
    let mut report = String::new();
    let start = std::time::Instant::now();
    let mut played = 0u64;
    for deck in &decks {
        let name = G::deck_name(deck);
        let opponents: Vec<&G::Deck> = if o.gauntlet.is_empty() {
            gauntlet
                .iter()
                .filter(|g| G::deck_name(g) != name)
                .collect()
        } else {
            gauntlet.iter().collect()
        };
        if opponents.is_empty() {
            bail!("{name}: the gauntlet is empty");
        }
        let distinct = G::deck_cards(deck).len() as u64;
        let runs = 1 + if o.ablation { distinct } else { 0 };
        let total = runs * o.games * opponents.len() as u64;
        let pb = Progress::new(total, "games");
        let ranking = pool
            .install(|| {
                rank_deck::<G>(
                    &mut db,
                    deck,
                    &opponents,
                    &spec,
                    o.games,
                    o.seed,
                    o.ablation,
                    &|n| pb.inc(n),
                )
            })
            .map_err(|e| anyhow!("{name}: {e}"))?;
        pb.finish();
        super::agent_failures(&[&spec], "nothing was written")?;
        played += total;
        let rows = &ranking.rows;
        let games = ranking.games;
        let base_rate = ranking.win_rate;
        let _ = writeln!(
            report,
            "{}: win rate {:.1}% over {games} games against {} ({}); ranked by {}",
            name,
            100.0 * base_rate,
            opponents
                .iter()
                .map(|d| G::deck_name(d))
                .collect::<Vec<_>>()
                .join(", "),
            o.agent,
            if o.ablation { "ablation" } else { "IWD" }
        );
        let _ = writeln!(
            report,
            "  {:>3} {:<40} {:>22} {:>22} {:>6} {:>6} {:>6} {:>8} {:>7}",
            "#",
            "card",
            "ablation, pts (95%)",
            "IWD, pts (95%)",
            "agree",
            "drawn",
            "played",
            "resource",
            "in hand"
        );
        let mut flagged = false;
        for (rank, r) in rows.iter().enumerate() {
            let u = &r.usage;
            let (gl, gh) = r.gih.interval();
            let (nl, nh) = r.gns.interval();
            let (ag, av, alo, ahi) = match r.abl {
                Some((v, lo, hi)) => (games.to_string(), f4(v), f4(lo), f4(hi)),
                None => (String::new(), String::new(), String::new(), String::new()),
            };
            csv.row([
                name.to_string(),
                G::card_name(&db, r.id),
                r.copies.to_string(),
                games.to_string(),
                r.gih.games.to_string(),
                f4(r.gih.games as f64 / games as f64),
                f4(u.rate(u.played)),
                f4(u.rate(u.resource)),
                f4(u.rate(u.in_hand)),
                f4(r.gih.rate()),
                f4(if r.gih.games > 0 { gl } else { f64::NAN }),
                f4(if r.gih.games > 0 { gh } else { f64::NAN }),
                r.gns.games.to_string(),
                f4(r.gns.rate()),
                f4(if r.gns.games > 0 { nl } else { f64::NAN }),
                f4(if r.gns.games > 0 { nh } else { f64::NAN }),
                f4(r.iwd.0),
                f4(r.iwd.1),
                f4(r.iwd.2),
                ag,
                av,
                alo,
                ahi,
                r.agree().to_string(),
                r.flag().to_string(),
            ]);
            let mark = if r.flag().is_empty() { ' ' } else { '!' };
            flagged |= mark == '!';
            if o.top.is_some_and(|t| rank >= t) {
                continue;
            }
            let _ = writeln!(
                report,
                "  {:>2}.{mark}{:<40} {:>22} {:>22} {:>6} {:>6} {:>6} {:>8} {:>7}",
                rank + 1,
                G::card_name(&db, r.id),
                r.abl.map_or("–".into(), points),
                points(r.iwd),
                if r.agree().is_empty() {
                    "–"
                } else {
                    r.agree()
                },
                percent(r.gih.games as f64 / games as f64),
                percent(u.rate(u.played)),
                percent(u.rate(u.resource)),
                percent(u.rate(u.in_hand)),
            );
        }
        if flagged {
            let _ = writeln!(
                report,
                "  ! rarely played: played in under 5% of the games it was drawn in, so its ablation value \
                 measures it only as a resource, like the filler (docs/statistics.md)"
            );
        }
    }
    if let Some(t) = o.top.filter(|&t| t < usize::MAX) {
        let _ = writeln!(
            report,
            "(the first {t} cards of each deck; all of them in cards.csv)"
        );
    }
    let path = o.out.join("cards.csv");
    write_file(&path, &csv.finish())?;
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
