//! `tcgsim cards`: rank the cards of decks by win contribution (`docs/statistics.md`).

use super::{card_db, progress, thread_pool};
use crate::agents::AgentSpec;
use crate::games::trails::deck::Deck;
use crate::games::trails::TrailsGame;
use crate::sim::cards::{drawn_tallies, paired_difference, play_records};
use crate::sim::output::{csv_field as field, rate as f4, write_atomic};
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

/// One card's figures: (id, GIH, GNS, IWD with interval, ablation value with interval).
struct Row {
    id: u16,
    gih: crate::sim::cards::Tally,
    gns: crate::sim::cards::Tally,
    iwd: (f64, f64, f64),
    abl: Option<(f64, f64, f64)>,
}

impl Row {
    /// The ranking key: the ablation value, or IWD without ablation.
    fn key(&self) -> f64 {
        self.abl.map_or(self.iwd.0, |a| a.0)
    }
}

pub const HEADER: &str = "deck,card,copies,gih_games,gih_wr,gih_lo,gih_hi,gns_games,gns_wr,gns_lo,gns_hi,iwd,iwd_lo,iwd_hi,ablation_games,ablation_value,ablation_lo,ablation_hi";

pub fn cards(o: CardsOpts) -> Result<ExitCode> {
    let spec = AgentSpec::parse(&o.agent).map_err(|e| anyhow!("--agent: {e}"))?;
    if o.games == 0 {
        bail!("--games must be at least 1");
    }
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
        let runs = 1 + if o.ablation { ids.len() as u64 } else { 0 };
        let pb = progress(runs * o.games * opponents.len() as u64);
        if ids.len() > 64 {
            bail!("{}: more than 64 distinct cards", deck.name);
        }
        let ids32: Vec<u32> = ids.iter().map(|&i| u32::from(i)).collect();
        let base = pool.install(|| {
            play_records(
                &games_for(&deck.cards),
                &ids32,
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
                    play_records(&games_for(&cards), &ids32, &spec, o.games, o.seed, &|n| {
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
                gih,
                gns,
                iwd,
                abl,
            });
        }
        pb.finish_and_clear();
        rows.sort_by(|a, b| b.key().total_cmp(&a.key()).then(a.id.cmp(&b.id)));
        let base_rate = base.iter().map(|r| r.score).sum::<f64>() / base.len() as f64;
        let _ = writeln!(
            report,
            "{}: win rate {:.1}% over {} games against {}",
            deck.name,
            100.0 * base_rate,
            base.len(),
            opponents
                .iter()
                .map(|d| d.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let measure = if o.ablation { "ablation value" } else { "IWD" };
        for (rank, r) in rows.iter().enumerate() {
            let Row {
                id,
                gih,
                gns,
                iwd,
                abl,
            } = r;
            let copies = deck.cards.iter().filter(|&&c| c == *id).count();
            let (gl, gh) = gih.interval();
            let (nl, nh) = gns.interval();
            let (ag, av, alo, ahi) = match abl {
                Some((v, lo, hi)) => (base.len().to_string(), f4(*v), f4(*lo), f4(*hi)),
                None => (String::new(), String::new(), String::new(), String::new()),
            };
            let _ = writeln!(
                csv,
                "{},{},{copies},{},{},{},{},{},{},{},{},{},{},{},{ag},{av},{alo},{ahi}",
                field(&deck.name),
                field(&db.card(*id).full_name()),
                gih.games,
                f4(gih.rate()),
                f4(if gih.games > 0 { gl } else { f64::NAN }),
                f4(if gih.games > 0 { gh } else { f64::NAN }),
                gns.games,
                f4(gns.rate()),
                f4(if gns.games > 0 { nl } else { f64::NAN }),
                f4(if gns.games > 0 { nh } else { f64::NAN }),
                f4(iwd.0),
                f4(iwd.1),
                f4(iwd.2),
            );
            if rank < 5 || rank + 5 >= rows.len() {
                if rank + 5 == rows.len() && rows.len() > 10 {
                    let _ = writeln!(report, "   …");
                }
                let m = match abl {
                    Some((v, lo, hi)) => format!(
                        "{:+.1} pts ({:+.1}…{:+.1})",
                        100.0 * v,
                        100.0 * lo,
                        100.0 * hi
                    ),
                    None => format!(
                        "{:+.1} pts ({:+.1}…{:+.1})",
                        100.0 * iwd.0,
                        100.0 * iwd.1,
                        100.0 * iwd.2
                    ),
                };
                let _ = writeln!(
                    report,
                    "  {:>2}. {:<44} {measure} {m}; GIH {:.1}% GNS {:.1}%",
                    rank + 1,
                    db.card(*id).full_name(),
                    100.0 * gih.rate(),
                    100.0 * gns.rate()
                );
            }
        }
    }
    let path = o.out.join("cards.csv");
    write_atomic(&path, &csv).with_context(|| format!("{}: cannot write", path.display()))?;
    print!("{report}");
    eprintln!("wrote {}", path.display());
    Ok(ExitCode::SUCCESS)
}
