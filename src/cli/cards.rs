//! `tcgsim cards`: rank the cards of decks by win contribution (`docs/statistics.md`).

use super::{card_db, check_out_dir, emit, note, progress, thread_pool, write_file};
use crate::agents::AgentSpec;
use crate::games::trails::deck::Deck;
use crate::games::trails::TrailsGame;
use crate::sim::cards::{
    agreement, drawn_tallies, paired_difference, play_records, verdict, CardIndex, Tally, Usage,
};
use crate::sim::output::{csv_field as field, rate as f4};
use crate::stats::{newcombe_difference, Z95};
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
    pub threads: Option<usize>,
    pub out: PathBuf,
    pub ablation: bool,
    pub cards: Option<PathBuf>,
}

/// One card's figures.
struct Row {
    id: u16,
    copies: usize,
    gih: Tally,
    gns: Tally,
    usage: Usage,
    iwd: (f64, f64, f64),
    abl: Option<(f64, f64, f64)>,
}

impl Row {
    /// The ranking key: the ablation value, or IWD without ablation.
    fn key(&self) -> f64 {
        self.abl.map_or(self.iwd.0, |a| a.0)
    }

    /// Whether ablation and IWD agree on the card's sign (empty without ablation).
    fn agree(&self) -> &'static str {
        let abl = self.abl.and_then(|(_, lo, hi)| verdict(lo, hi));
        agreement(abl, verdict(self.iwd.1, self.iwd.2))
    }

    fn flag(&self) -> &'static str {
        if self.usage.rarely_played() {
            "rarely played"
        } else {
            ""
        }
    }
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

pub fn cards(o: CardsOpts) -> Result<ExitCode> {
    // `--games` is in range: clap checks it (README, "Limits").
    let spec = AgentSpec::parse(&o.agent).map_err(|e| anyhow!("--agent: {e}"))?;
    let mut db = card_db(o.cards.as_deref(), o.decks.first().map(PathBuf::as_path))?;
    let filler = db.filler();
    let decks: Vec<Deck> = o
        .decks
        .iter()
        .map(|p| Deck::load(p, &db).map_err(|e| anyhow!("{e}")))
        .collect::<Result<_>>()?;
    let gauntlet_paths = if o.gauntlet.is_empty() {
        let mut v: Vec<PathBuf> = std::fs::read_dir("decks/trails")
            .context("no --gauntlet given and decks/trails cannot be read")?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "deck"))
            .collect();
        v.sort();
        v
    } else {
        o.gauntlet.clone()
    };
    let gauntlet: Vec<Deck> = gauntlet_paths
        .iter()
        .map(|p| Deck::load(p, &db).map_err(|e| anyhow!("{e}")))
        .collect::<Result<_>>()?;
    check_out_dir(&o.out, "--out")?;
    let pool = thread_pool(o.threads)?;
    let mut csv = format!("{HEADER}\n");
    let mut report = String::new();
    for deck in &decks {
        let opponents: Vec<&Deck> = if o.gauntlet.is_empty() {
            gauntlet.iter().filter(|g| g.name != deck.name).collect()
        } else {
            gauntlet.iter().collect()
        };
        if opponents.is_empty() {
            bail!("{}: the gauntlet is empty", deck.name);
        }
        let games_for = |cards: &[u16]| -> Vec<TrailsGame> {
            opponents
                .iter()
                .map(|g| TrailsGame::new(db.clone(), cards.to_vec(), g.cards.clone()))
                .collect()
        };
        let mut ids: Vec<u16> = Vec::new();
        for &c in &deck.cards {
            if !ids.contains(&c) {
                ids.push(c);
            }
        }
        let index = CardIndex::new(&ids.iter().map(|&i| u32::from(i)).collect::<Vec<_>>())
            .map_err(|e| anyhow!("{}: {e}", deck.name))?;
        let runs = 1 + if o.ablation { ids.len() as u64 } else { 0 };
        let pb = progress(runs * o.games * opponents.len() as u64);
        let base = pool.install(|| {
            play_records(
                &games_for(&deck.cards),
                &index,
                &spec,
                o.games,
                o.seed,
                &|n| pb.inc(n),
            )
        });
        let mut rows = Vec::new();
        for (k, &id) in ids.iter().enumerate() {
            let (gih, gns) = drawn_tallies(k, &base);
            let iwd = if gih.games > 0 && gns.games > 0 {
                newcombe_difference(
                    gih.score,
                    gih.games as f64,
                    gns.score,
                    gns.games as f64,
                    Z95,
                )
            } else {
                (f64::NAN, f64::NAN, f64::NAN)
            };
            let abl = if o.ablation {
                let mut cards = deck.cards.clone();
                let k = cards.iter().position(|&c| c == id).expect("card in deck");
                cards[k] = filler;
                let recs = pool.install(|| {
                    play_records(&games_for(&cards), &index, &spec, o.games, o.seed, &|n| {
                        pb.inc(n)
                    })
                });
                // Value of the card: baseline minus the deck without one copy, same deals.
                Some(paired_difference(&base, &recs))
            } else {
                None
            };
            rows.push(Row {
                id,
                copies: deck.cards.iter().filter(|&&c| c == id).count(),
                gih,
                gns,
                usage: Usage::of(k, &base),
                iwd,
                abl,
            });
        }
        pb.finish_and_clear();
        // Best first; a card without a value (IWD of a card drawn in every game) last.
        rows.sort_by(|a, b| {
            a.key()
                .is_nan()
                .cmp(&b.key().is_nan())
                .then(b.key().total_cmp(&a.key()))
                .then(a.id.cmp(&b.id))
        });
        let games = base.len() as u64;
        let base_rate = base.iter().map(|r| r.score).sum::<f64>() / games as f64;
        let _ = writeln!(
            report,
            "{}: win rate {:.1}% over {games} games against {} ({}); ranked by {}",
            deck.name,
            100.0 * base_rate,
            opponents
                .iter()
                .map(|d| d.name.as_str())
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
            let _ = writeln!(
                csv,
                "{},{},{},{games},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{ag},{av},{alo},{ahi},{},{}",
                field(&deck.name),
                field(&db.card(r.id).full_name()),
                r.copies,
                r.gih.games,
                f4(r.gih.games as f64 / games as f64),
                f4(u.rate(u.played)),
                f4(u.rate(u.resource)),
                f4(u.rate(u.in_hand)),
                f4(r.gih.rate()),
                f4(if r.gih.games > 0 { gl } else { f64::NAN }),
                f4(if r.gih.games > 0 { gh } else { f64::NAN }),
                r.gns.games,
                f4(r.gns.rate()),
                f4(if r.gns.games > 0 { nl } else { f64::NAN }),
                f4(if r.gns.games > 0 { nh } else { f64::NAN }),
                f4(r.iwd.0),
                f4(r.iwd.1),
                f4(r.iwd.2),
                r.agree(),
                r.flag(),
            );
            let mark = if r.flag().is_empty() { ' ' } else { '!' };
            flagged |= mark == '!';
            let _ = writeln!(
                report,
                "  {:>2}.{mark}{:<40} {:>22} {:>22} {:>6} {:>6} {:>6} {:>8} {:>7}",
                rank + 1,
                db.card(r.id).full_name(),
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
    let path = o.out.join("cards.csv");
    write_file(&path, &csv)?;
    emit(&report)?;
    note(&format!("wrote {}", path.display()));
    Ok(ExitCode::SUCCESS)
}
