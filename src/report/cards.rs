//! The report of a cards run: each deck's card ranking, value over replacement, blank-filler
//! ablation and IWD side by side — read from
//! `cards.csv` through its module ([`crate::sim::files::cards`]), which checks every value.

use super::{esc, pct, pts_ci, src, svg, table, td, td_num, Section};
use crate::core::InputError;
use crate::sim::files::cards::{self, Line};
use crate::sim::files::read_file;
use std::fmt::Write as _;
use std::path::Path;

const NAME: &str = "cards.csv";

/// The card rankings of `dir/cards.csv`: nothing when there is no such file.
pub(super) fn cards_section(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    let Some((text, file)) = read_file(dir, NAME)? else {
        return Ok(());
    };
    let lines = cards::read(&text, &file)?;
    if lines.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    let mut decks: Vec<&str> = Vec::new();
    for l in &lines {
        if !decks.contains(&l.card.deck.as_str()) {
            decks.push(&l.card.deck);
        }
    }
    let mut html = String::from("<p>Each card's contribution in percentage points of win rate, side by side with 95% intervals: <strong>value over replacement</strong> (the deck with one copy replaced by a typical legal card of the pool of its type and cost, paired deals: what the card adds over what a designer would otherwise put there), <strong>vs blank</strong> (one copy replaced by a neutral filler: what it adds over nothing), the <strong>landmark IWD</strong> (at each turn, the win rate of games where a copy had been drawn minus where none had, among the games still going: free of IWD's game-length bias) and <strong>IWD</strong> (win rate when drawn minus when not seen), with OH WR and GD WR (win rate when in the opening hand, when drawn later). Flags: <em>no better than replacement</em> (a typical card wins more), <em>situational</em> (strong against some opponents, clearly weaker against others), <em>rarely played</em> (played in under 5% of the games it was drawn in) — <code>docs/statistics.md</code>.</p>\n");
    let matchups = match read_file(dir, cards::MATCHUPS)? {
        Some((text, mfile)) => {
            let m = cards::read_matchups(&text, &mfile)?;
            // Every matchup is of a ranked card of cards.csv.
            if let Some((f, x)) = m.iter().find(|(_, x)| {
                !lines
                    .iter()
                    .any(|l| l.card.deck == x.deck && l.card.card == x.card)
            }) {
                return Err(InputError::new(
                    mfile,
                    f.line,
                    format!(
                        "card \"{}\" of deck \"{}\" is not in {NAME}",
                        x.card, x.deck
                    ),
                ));
            }
            m
        }
        None => Vec::new(),
    };
    for (k, deck) in decks.iter().enumerate() {
        let rows: Vec<&Line> = lines.iter().filter(|l| l.card.deck == *deck).collect();
        let _ = writeln!(html, "<h3 id=\"{id}-cards-{}\">{}</h3>", k + 1, esc(deck));
        html += &deck_chart(deck, &rows);
        html += &deck_table(deck, &rows);
        html += &situational_table(deck, &rows, &matchups);
    }
    out.push(Section {
        id: format!("{id}-cards"),
        title: tag("Card rankings"),
        html,
    });
    Ok(())
}

/// A value and its interval as written (NaN: empty).
fn three(l: &Line, v: &str, lo: &str, hi: &str) -> (f64, f64, f64) {
    (l.fields.num(v), l.fields.num(lo), l.fields.num(hi))
}

/// The ablation and IWD of a deck's cards as intervals on one axis.
fn deck_chart(deck: &str, rows: &[&Line]) -> String {
    let irows: Vec<svg::IRow> = rows
        .iter()
        .map(|l| svg::IRow {
            label: format!(
                "{}{}",
                l.card.card,
                if l.card.flag.is_empty() { "" } else { " (!)" }
            ),
            marks: vec![
                three(l, "vor_value", "vor_lo", "vor_hi"),
                three(l, "ablation_value", "ablation_lo", "ablation_hi"),
                three(l, "liwd", "liwd_lo", "liwd_hi"),
            ],
            text: None,
        })
        .collect();
    let span = svg::centred_span(&irows, 0.05);
    svg::intervals(
        &format!("Card contributions of {deck}"),
        &irows,
        (-span, span),
        100.0,
        "",
        Some(0.0),
        false,
        &["vs typical, pts", "vs blank, pts", "landmark IWD, pts"],
    )
}

/// The table of a deck's cards, in the ranking's order.
fn deck_table(deck: &str, rows: &[&Line]) -> String {
    let trs: Vec<String> = rows
        .iter()
        .map(|l| {
            let (f, n) = (&l.fields, l.fields.line);
            let pts_src = |cols: &str| format!("{} data-u=\"pts\"", src(NAME, n, cols));
            let (vv, vlo, vhi) = three(l, "vor_value", "vor_lo", "vor_hi");
            let (av, alo, ahi) = three(l, "ablation_value", "ablation_lo", "ablation_hi");
            let (iv, ilo, ihi) = three(l, "iwd", "iwd_lo", "iwd_hi");
            let (lv, llo, lhi) = three(l, "liwd", "liwd_lo", "liwd_hi");
            let rate = |c: &str| td_num(&src(NAME, n, c), f.num(c), &pct(f.num(c), 0));
            format!(
                "{}{}{}{}{}{}{}{}{}{}{}{}",
                td(&l.card.card),
                td_num(
                    &src(NAME, n, "copies"),
                    l.card.copies as f64,
                    f.text("copies")
                ),
                td_num(
                    &pts_src("vor_value vor_lo vor_hi"),
                    vv,
                    &pts_ci(vv, vlo, vhi)
                ),
                td_num(
                    &pts_src("ablation_value ablation_lo ablation_hi"),
                    av,
                    &pts_ci(av, alo, ahi)
                ),
                td_num(&pts_src("liwd liwd_lo liwd_hi"), lv, &pts_ci(lv, llo, lhi)),
                td_num(&pts_src("iwd iwd_lo iwd_hi"), iv, &pts_ci(iv, ilo, ihi)),
                td(&l.card.agree),
                rate("oh_wr"),
                rate("gd_wr"),
                rate("drawn_rate"),
                rate("played_rate"),
                td(&l.card.flag),
            )
        })
        .collect();
    table(
        &format!("The cards of {deck}, in the ranking's order"),
        &[
            "card",
            "copies",
            "vs typical, pts (95%)",
            "vs blank, pts (95%)",
            "landmark IWD, pts (95%)",
            "IWD, pts (95%)",
            "agree",
            "OH WR",
            "GD WR",
            "drawn",
            "played when drawn",
            "flag",
        ],
        &trs,
    )
}

/// The situational cards of a deck against each opponent (`card_matchups.csv`): nothing when the
/// deck has none or the file is missing.
fn situational_table(
    deck: &str,
    rows: &[&Line],
    matchups: &[(crate::sim::files::Fields, cards::Matchup)],
) -> String {
    let trs: Vec<String> = rows
        .iter()
        .filter(|l| l.card.flag.contains(crate::sim::cards::FLAG_SITUATIONAL))
        .flat_map(|l| {
            matchups
                .iter()
                .filter(move |(_, m)| m.deck == l.card.deck && m.card == l.card.card)
                .map(|(f, m)| {
                    let (v, lo, hi) = m.value;
                    format!(
                        "{}{}{}{}",
                        td(&m.card),
                        td(&m.opponent),
                        td(&m.measure),
                        td_num(
                            &format!(
                                "{} data-u=\"pts\"",
                                src(cards::MATCHUPS, f.line, "value lo hi")
                            ),
                            v,
                            &pts_ci(v, lo, hi)
                        ),
                    )
                })
        })
        .collect();
    if trs.is_empty() {
        return String::new();
    }
    table(
        &format!("The situational cards of {deck} against each opponent"),
        &["card", "opponent", "measure", "value, pts (95%)"],
        &trs,
    )
}
