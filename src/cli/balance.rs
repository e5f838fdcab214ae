//! `tcgsim balance`: propose single-card changes that flatten a matrix of decks
//! (`docs/tuning.md`); the work is in `sim::balance`.

use super::{
    bundled_decks, card_source, check_out_dir, emit, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::core::input::{read_text, MAX_TEXT_BYTES};
use crate::core::GameDef;
use crate::sim::balance::{
    apply, bootstrap, changes, means_of, ssd, Change, Est, Games, Plan, FRESH_ROUND,
};
use crate::sim::cards::rank_deck;
use crate::sim::output::{matchups_csv, matrix_svg, RunInfo, Table};
use anyhow::{anyhow, bail, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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

/// Bootstrap resamples of every interval.
const REPS: usize = 400;

fn pts(e: &Est) -> String {
    format!(
        "{:.1} ({:.1}–{:.1})",
        100.0 * e.value,
        100.0 * e.lo,
        100.0 * e.hi
    )
}

fn describe<G: GameDef>(cards: &G::Cards, c: &Change) -> String {
    format!(
        "{}: {} {} → {}",
        G::card_name(cards, c.card),
        c.column,
        c.from,
        c.to
    )
}

struct Row<C> {
    change: Change,
    screen: f64,
    games: Games,
    cards: C,
    status: String,
    est: Option<[Est; 3]>,
    per_matchup: u64,
}

pub fn balance<G: GameDef>(o: BalanceOpts) -> Result<ExitCode> {
    let spec = super::entrant(&o.agent, &o.process)?;
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
    let db = G::parse_cards(&text, &fname).map_err(|e| anyhow!(e))?;
    crate::sim::balance::layout(&text).map_err(|e| anyhow!("{fname}: {e}"))?;
    let decks = load_decks::<G>(&db, &paths, true)?;
    let n = decks.len();
    let names: Vec<String> = decks.iter().map(|d| G::deck_name(d).to_string()).collect();
    check_out_dir(&o.out)?;
    let pool = thread_pool(o.threads)?;
    let clock = Instant::now();
    let plan = Plan::<G> {
        decks: decks.iter().collect(),
        names: names.clone(),
        spec: &spec,
        seed: o.seed,
    };
    let mut played = 0u64;

    // 1. Screening: the baseline's deck means and every card's IWD in every deck.
    let mut used: Vec<u32> = Vec::new();
    for d in &decks {
        for (id, _) in G::deck_cards(d) {
            if !used.contains(&id) {
                used.push(id);
            }
        }
    }
    used.sort_unstable();
    let mut all = changes(&text, G::TUNABLE, &used);
    if all.is_empty() {
        bail!(
            "{fname}: no card of the decks has a number in a column balance may change ({})",
            G::TUNABLE
                .iter()
                .map(|t| t.column)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let screen_games = o.games.max(100);
    note(&format!(
        "screening {} changes of {} cards: card statistics of {n} decks ({} games each against each other deck)",
        all.len(),
        used.len(),
        screen_games
    ));
    let mut iwd: Vec<Vec<(u32, usize, f64)>> = Vec::new();
    let mut screen_means = Vec::new();
    for d in &decks {
        let opponents: Vec<&G::Deck> = decks
            .iter()
            .filter(|x| G::deck_name(x) != G::deck_name(d))
            .collect();
        let mut c = db.clone();
        let r = pool
            .install(|| {
                rank_deck::<G>(
                    &mut c,
                    d,
                    &opponents,
                    &spec,
                    screen_games,
                    o.seed,
                    false,
                    &|_| {},
                )
            })
            .map_err(|e| anyhow!("{}: {e}", G::deck_name(d)))?;
        super::agent_failures(&[&spec], "nothing was written")?;
        played += r.games;
        screen_means.push(r.win_rate);
        iwd.push(
            r.rows
                .iter()
                .map(|x| (x.id, x.copies, if x.iwd.0.is_nan() { 0.0 } else { x.iwd.0 }))
                .collect(),
        );
    }
    let avg = screen_means.iter().sum::<f64>() / n as f64;
    let score = |c: &Change| -> f64 {
        let h = if c.helps { 1.0 } else { -1.0 };
        let mut s = 0.0;
        for (d, rows) in iwd.iter().enumerate() {
            if let Some(&(_, copies, v)) = rows.iter().find(|x| x.0 == c.card) {
                s += copies as f64 * (screen_means[d] - avg) * (v.max(0.0) + 0.02);
            }
        }
        -h * s
    };
    let mut scored: Vec<(f64, Change)> = all.drain(..).map(|c| (score(&c), c)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.card.cmp(&b.1.card)));
    let total_changes = scored.len();
    scored.truncate(o.candidates);
    let mut rows: Vec<Row<G::Cards>> = Vec::new();
    for (s, c) in scored {
        let (_, cards) = apply::<G>(&text, &db, &c, &fname).map_err(|e| anyhow!(e))?;
        // Every deck must still be legal with the changed cards.
        for d in &decks {
            let nm = G::deck_name(d);
            G::parse_deck(&cards, &G::deck_file(&cards, d, nm), nm, nm)
                .map_err(|e| anyhow!("{}: {e}", describe::<G>(&db, &c)))?;
        }
        rows.push(Row {
            change: c,
            screen: s,
            games: Games::default(),
            cards,
            status: String::new(),
            est: None,
            per_matchup: 0,
        });
    }

    // 2. The race.
    let mut base = Games::default();
    let mut alive: Vec<usize> = (0..rows.len()).collect();
    let mut from = 0;
    let mut to = o.games;
    let mut stage = 0;
    loop {
        let owned: Vec<G::Cards> = alive.iter().map(|&i| rows[i].cards.clone()).collect();
        let mut variants: Vec<&G::Cards> = vec![&db];
        variants.extend(owned.iter());
        let mut into = vec![Games::default(); variants.len()];
        into[0] = std::mem::take(&mut base);
        for (k, &i) in alive.iter().enumerate() {
            into[k + 1] = std::mem::take(&mut rows[i].games);
        }
        let matchups = (n * (n - 1)) as u64;
        let pb = Progress::new((to - from) * matchups * variants.len() as u64, "games");
        pool.install(|| plan.play(&variants, 0, from, to, &mut into, &|k| pb.inc(k)));
        pb.finish();
        super::agent_failures(&[&spec], "nothing was written")?;
        played += (to - from) * matchups * variants.len() as u64;
        base = std::mem::take(&mut into[0]);
        for (k, &i) in alive.iter().enumerate() {
            rows[i].games = std::mem::take(&mut into[k + 1]);
            rows[i].per_matchup = to;
        }
        for &i in &alive {
            let est = bootstrap(n, &base, &rows[i].games, REPS, o.seed ^ (stage as u64 + 1));
            rows[i].est = Some(est);
        }
        let before = alive.len();
        for &i in &alive {
            if rows[i].est.expect("estimated")[2].hi < 0.0 {
                rows[i].status =
                    format!("dropped at {to} games a matchup: shown to widen the spread");
            }
        }
        alive.retain(|&i| rows[i].status.is_empty());
        alive.sort_by(|&a, &b| {
            let (x, y) = (rows[a].est.unwrap()[2].value, rows[b].est.unwrap()[2].value);
            y.total_cmp(&x).then(a.cmp(&b))
        });
        let lead = alive.first().map(|&i| {
            format!(
                "; best {} (spread −{:.1} pts)",
                describe::<G>(&db, &rows[i].change),
                100.0 * rows[i].est.unwrap()[2].value
            )
        });
        note(&format!(
            "stage {stage}: {to} games a matchup; {} of {before} changes go on{} · {:.0}s",
            alive.len(),
            lead.unwrap_or_default(),
            clock.elapsed().as_secs_f64()
        ));
        let out_of_time = o.budget.is_some_and(|b| clock.elapsed() >= b);
        if alive.len() <= 1 || 2 * to > o.max_games || out_of_time {
            if out_of_time {
                note("--budget is spent: the race stops here");
            }
            break;
        }
        let keep = alive.len().div_ceil(2);
        for &i in &alive[keep..] {
            rows[i].status = format!("halved out at {to} games a matchup");
        }
        alive.truncate(keep);
        from = to;
        to *= 2;
        stage += 1;
    }
    let best = alive.first().copied();
    if let Some(b) = best {
        rows[b].status = "best".into();
    }
    for &i in alive.iter().skip(1) {
        rows[i].status = "finalist".into();
    }

    // 3. The fresh re-measurement of the best.
    let mut fresh: Option<(Games, Games, [Est; 3])> = None;
    if let Some(b) = best {
        let cards = &rows[b].cards;
        let mut into = vec![Games::default(), Games::default()];
        let matchups = (n * (n - 1)) as u64;
        let pb = Progress::new(o.check_games * matchups * 2, "games");
        pool.install(|| {
            plan.play(
                &[&db, cards],
                FRESH_ROUND,
                0,
                o.check_games,
                &mut into,
                &|k| pb.inc(k),
            )
        });
        pb.finish();
        super::agent_failures(&[&spec], "nothing was written")?;
        played += o.check_games * matchups * 2;
        let est = bootstrap(n, &into[0], &into[1], REPS, o.seed ^ 0xf5e5);
        let after = into.pop().expect("two");
        let before = into.pop().expect("two");
        fresh = Some((before, after, est));
    }

    // 4. Files.
    let mut csv = Table::new(&[
        "rank",
        "card",
        "column",
        "from",
        "to",
        "screen_score",
        "measure",
        "games_per_matchup",
        "spread_before",
        "spread_before_lo",
        "spread_before_hi",
        "spread_after",
        "spread_after_lo",
        "spread_after_hi",
        "reduction",
        "reduction_lo",
        "reduction_hi",
        "ssd_before",
        "ssd_after",
        "status",
    ]);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        rows[b].per_matchup.cmp(&rows[a].per_matchup).then(
            rows[b].est.unwrap()[2]
                .value
                .total_cmp(&rows[a].est.unwrap()[2].value),
        )
    });
    let base_means = |games: u64| -> Vec<f64> {
        // The unchanged cards' means on the first `games` games of each matchup (the games the
        // candidate played).
        let mut g = base.clone();
        for s in g.scores.iter_mut() {
            s.truncate(games as usize);
        }
        means_of(n, &g)
    };
    for (rank, &i) in order.iter().enumerate() {
        let r = &rows[i];
        let e = r.est.expect("every candidate played a stage");
        let c = &r.change;
        csv_row(
            &mut csv,
            (rank + 1).to_string(),
            G::card_name(&db, c.card),
            c,
            r.screen,
            "race",
            r.per_matchup,
            &e,
            (ssd(&base_means(r.per_matchup)), ssd(&means_of(n, &r.games))),
            &r.status,
        );
    }
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "{} changes of {} cards screened; {} raced over {n} decks ({})",
        total_changes,
        used.len(),
        rows.len(),
        names.join(", ")
    );
    if let (Some(b), Some((before, after, est))) = (best, &fresh) {
        let c = &rows[b].change;
        let (mb, ma) = (means_of(n, before), means_of(n, after));
        csv_row(
            &mut csv,
            String::new(),
            G::card_name(&db, c.card),
            c,
            rows[b].screen,
            "fresh",
            o.check_games,
            est,
            (ssd(&mb), ssd(&ma)),
            "best, re-measured on fresh deals",
        );
        let (patched, _) = apply::<G>(&text, &db, c, &fname).map_err(|e| anyhow!(e))?;
        let patched_path = o.out.join(format!(
            "{}_balanced.csv",
            file.file_stem()
                .map_or("cards".into(), |s| s.to_string_lossy().into_owned())
        ));
        write_file(&patched_path, &patched)?;
        let mplan = crate::sim::matrix::Plan {
            game: G::INFO.name.into(),
            deck_names: names.clone(),
            agent_a: o.agent.clone(),
            agent_b: o.agent.clone(),
            games: o.check_games,
            seed: o.seed,
            ..Default::default()
        };
        write_file(
            &o.out.join("balance_before_matchups.csv"),
            &matchups_csv(&mplan, &before.counts),
        )?;
        write_file(
            &o.out.join("balance_after_matchups.csv"),
            &matchups_csv(&mplan, &after.counts),
        )?;
        write_file(
            &o.out.join("balance.svg"),
            &side_by_side(
                &matrix_svg(&mplan, &before.counts),
                &matrix_svg(&mplan, &after.counts),
                &format!("before: {fname}"),
                &format!("after: {}", describe::<G>(&db, c)),
            ),
        )?;
        let _ = writeln!(
            summary,
            "best change: {}\n  on {} fresh games a matchup (deals the race never used):\n  spread before {} pts, after {} pts; reduction {:.1} pts (95% paired bootstrap {:.1} to {:.1})\n  squared deviations from 50%: {:.4} → {:.4}",
            describe::<G>(&db, c),
            o.check_games,
            pts(&est[0]),
            pts(&est[1]),
            100.0 * est[2].value,
            100.0 * est[2].lo,
            100.0 * est[2].hi,
            ssd(&mb),
            ssd(&ma)
        );
        let _ = writeln!(summary, "  {:<18} {:>8} {:>8}", "deck", "before", "after");
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by(|&a, &b| mb[b].total_cmp(&mb[a]));
        for d in idx {
            let _ = writeln!(
                summary,
                "  {:<18} {:>7.1}% {:>7.1}%",
                names[d],
                100.0 * mb[d],
                100.0 * ma[d]
            );
        }
        let _ = writeln!(
            summary,
            "wrote {} (the card file with this change)",
            patched_path.display()
        );
        if est[2].lo <= 0.0 {
            let _ = writeln!(
                summary,
                "note: the fresh interval of the reduction includes 0: the change is not shown to flatten the matrix"
            );
        }
    } else {
        let _ = writeln!(
            summary,
            "no change survived the race: none was shown not to widen the spread"
        );
    }
    write_file(&o.out.join("balance.csv"), &csv.finish())?;
    let info = RunInfo {
        command: "balance".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: names.clone(),
        agents: vec![o.agent.clone()],
        content: G::content_hash(&db, &decks.iter().collect::<Vec<_>>()),
        games: o.games,
        seed: o.seed,
        games_played: played,
        seconds: clock.elapsed().as_secs_f64(),
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &info.to_json())?;
    emit(&summary)?;
    note(&format!(
        "wrote balance.csv, balance.svg, balance_before_matchups.csv, balance_after_matchups.csv and run.json in {}",
        o.out.display()
    ));
    super::report::after_run(&o.out)?;
    Ok(ExitCode::SUCCESS)
}

/// One row of `balance.csv`.
#[allow(clippy::too_many_arguments)]
fn csv_row(
    csv: &mut Table,
    rank: String,
    card: String,
    c: &Change,
    screen: f64,
    measure: &str,
    games: u64,
    e: &[Est; 3],
    (ssd_before, ssd_after): (f64, f64),
    status: &str,
) {
    let f4 = |x: f64| format!("{x:.4}");
    let mut v = vec![
        rank,
        card,
        c.column.to_string(),
        c.from.to_string(),
        c.to.to_string(),
        format!("{screen:.5}"),
        measure.to_string(),
        games.to_string(),
    ];
    for x in e {
        v.extend([f4(x.value), f4(x.lo), f4(x.hi)]);
    }
    v.extend([f4(ssd_before), f4(ssd_after), status.to_string()]);
    csv.row(v);
}

/// Two heatmaps in one picture, side by side, each under its title.
fn side_by_side(a: &str, b: &str, ta: &str, tb: &str) -> String {
    let size = |s: &str| -> (f64, f64) {
        let num = |k: &str| {
            s.split(&format!("{k}=\""))
                .nth(1)
                .and_then(|x| x.split('"').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or(600.0)
        };
        (num("width"), num("height"))
    };
    let ((wa, ha), (wb, hb)) = (size(a), size(b));
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    // The second map's pattern and gradient ids are renamed so that each map keeps its own.
    let b = b
        .replace("id=\"mirror\"", "id=\"mirror-b\"")
        .replace("url(#mirror)", "url(#mirror-b)")
        .replace("id=\"scale\"", "id=\"scale-b\"")
        .replace("url(#scale)", "url(#scale-b)");
    let inner = |s: &str, x: f64| s.replacen("<svg ", &format!("<svg x=\"{x}\" y=\"30\" "), 1);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"15\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"20\">{}</text><text x=\"{:.0}\" y=\"20\">{}</text>\n{}{}</svg>\n",
        wa + wb + 20.0,
        ha.max(hb) + 30.0,
        esc(ta),
        wa + 30.0,
        esc(tb),
        inner(a, 0.0),
        inner(&b, wa + 20.0)
    )
}
