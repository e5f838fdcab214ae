//! The views of a matrix that are written and never read back: `matrix.csv` (the wide win-rate
//! matrix), `matrix.svg` (its heatmap) and the terminal summary. Each is computed from the
//! counts, which `matchups.csv` keeps ([`super::matchups`]).

use super::{rate, Table};
use crate::sim::matrix::{pooled, strength, Counts, Plan};
use std::fmt::Write as _;

/// The wide matrix: the row deck's win rate against each column deck.
pub fn csv(plan: &Plan, m: &[Counts]) -> String {
    let n = plan.deck_names.len();
    let mut header = vec!["deck"];
    header.extend(plan.deck_names.iter().map(String::as_str));
    let mut t = Table::new(&header);
    for r in 0..n {
        let mut row = vec![plan.deck_names[r].clone()];
        row.extend((0..n).map(|c| rate(m[r * n + c].win_rate())));
        t.row(row);
    }
    t.finish()
}

fn even(x: &Counts) -> bool {
    let (lo, hi) = x.interval();
    x.games > 0 && lo <= 0.5 && 0.5 <= hi
}

/// A heatmap of the matrix: decks ordered by their mean win rate against the others (strongest
/// first, as [`strength`]), the row deck's win rate in each cell, a colour legend, mirror cells
/// hatched, and the matchups whose 95% interval includes 50% marked with `≈`. The grid is the
/// report's ([`crate::sim::svg::heatmap`]: one colour scale, colour-blind-safe, for both), under
/// a title and over a line naming the run.
pub fn svg(plan: &Plan, m: &[Counts]) -> String {
    use crate::sim::svg::{esc, heatmap_sized, Cell};
    let n = plan.deck_names.len();
    let order: Vec<usize> = strength(m, n).iter().map(|&(r, _)| r).collect();
    let cells: Vec<Vec<Cell>> = order
        .iter()
        .map(|&r| {
            order
                .iter()
                .map(|&c| {
                    let cnt = &m[r * n + c];
                    let (lo, hi) = cnt.interval();
                    Cell {
                        rate: cnt.win_rate(),
                        even: even(cnt),
                        mirror: r == c,
                        label_src: String::new(),
                        title_src: String::new(),
                        title: if cnt.games == 0 {
                            "not played (0 games)".to_string()
                        } else {
                            format!(
                                "{:.1}% ({:.1}–{:.1}%), {} games",
                                100.0 * cnt.win_rate(),
                                100.0 * lo,
                                100.0 * hi,
                                cnt.games
                            )
                        },
                    }
                })
                .collect()
        })
        .collect();
    let names: Vec<String> = order.iter().map(|&d| plan.deck_names[d].clone()).collect();
    let title = format!(
        "Win rate of the row deck (agents: {} vs {}, {} games per matchup)",
        plan.agent_a, plan.agent_b, plan.games
    );
    let (grid, gw, gh) = heatmap_sized("matrix", &title, &names, &cells);
    let w = gw.max(20.0 + 8.0 * title.chars().count() as f64);
    let h = 36.0 + gh + 24.0;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n\
         <svg x=\"0\" y=\"36\" width=\"{gw:.0}\" height=\"{gh:.0}\">\n{grid}</svg>\n\
         <text x=\"16\" y=\"{:.0}\" font-size=\"11\" fill=\"#555\">decks by mean win rate, strongest first · seed {}</text>\n</svg>\n",
        esc(&title),
        36.0 + gh + 14.0,
        plan.seed
    )
}

/// The terminal summary: each deck's mean win rate against the others (strongest first), the
/// strongest deck, the most lopsided pairs and the pairs whose interval still includes 50%. Every
/// figure pools both directions of a pair ([`pooled`]) and carries its Wilson 95% interval.
pub fn summary(plan: &Plan, m: &[Counts]) -> String {
    let mut s = ranking(plan, m);
    let pairs = pairs(m, plan.deck_names.len());
    let text = |(_, r, c, x): &Pair| {
        let (lo, hi) = x.interval();
        format!(
            "{} vs {}: {:.1}% ({:.1}–{:.1}%)",
            plan.deck_names[*r],
            plan.deck_names[*c],
            pct(x.win_rate()),
            pct(lo),
            pct(hi)
        )
    };
    let mut lop = pairs.clone();
    lop.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    let _ = writeln!(s, "most lopsided pairs (both directions pooled):");
    for p in lop.iter().take(3) {
        let _ = writeln!(s, "  {}", text(p));
    }
    let even: Vec<String> = pairs
        .iter()
        .filter(|(_, _, _, x)| {
            let (lo, hi) = x.interval();
            lo <= 0.5 && 0.5 <= hi
        })
        .map(text)
        .collect();
    if pairs.is_empty() {
        // One deck: no pair to compare.
    } else if even.is_empty() {
        let _ = writeln!(
            s,
            "too close to call: none (every pair's 95% interval, both directions pooled, excludes 50%)"
        );
    } else {
        let _ = writeln!(
            s,
            "too close to call (95% interval, both directions pooled, includes 50%):"
        );
        for e in even {
            let _ = writeln!(s, "  {e}");
        }
    }
    s
}

fn pct(x: f64) -> f64 {
    100.0 * x
}

/// The summary's first part: the table of decks by mean win rate and the strongest deck.
fn ranking(plan: &Plan, m: &[Counts]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<18} {:>8} {:>16}",
        "deck", "mean win", "vs others (95%)"
    );
    let ranked = strength(m, plan.deck_names.len());
    for (r, tot) in &ranked {
        let (lo, hi) = tot.interval();
        let _ = writeln!(
            s,
            "{:<18} {:>7.1}% {:>7.1}–{:.1}%",
            plan.deck_names[*r],
            pct(tot.win_rate()),
            pct(lo),
            pct(hi)
        );
    }
    if let Some((r, tot)) = ranked.first() {
        let _ = writeln!(
            s,
            "strongest deck: {} ({:.1}% against the others)",
            plan.deck_names[*r],
            pct(tot.win_rate())
        );
    }
    s
}

/// A pair of decks from the side of the deck that wins it: its distance from even, the two
/// decks, the pooled counts.
type Pair = (f64, usize, usize, Counts);

/// Each unordered pair that played once, from the side of the deck that wins it (the first on a
/// tie).
fn pairs(m: &[Counts], n: usize) -> Vec<Pair> {
    let mut pairs = Vec::new();
    for r in 0..n {
        for c in r + 1..n {
            let x = pooled(m, n, r, c);
            if x.games == 0 {
                continue;
            }
            let (r, c, x) = if x.win_rate() < 0.5 {
                (c, r, pooled(m, n, c, r))
            } else {
                (r, c, x)
            };
            pairs.push(((x.win_rate() - 0.5).abs(), r, c, x));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::matrix::Lengths;

    /// A matchup of `games` games with `wins` for the row deck and no draws.
    fn cnt(games: u64, wins: u64) -> Counts {
        Counts {
            games,
            wins,
            losses: games - wins,
            draws: 0,
            first_player_wins: games / 2,
            turns: games * 5,
            decisions: games * 100,
            lengths: {
                let mut h = Lengths::default();
                h.0[4] = games;
                h
            },
        }
    }

    /// Three decks with known strength: c beats both, a beats b, and a vs c is close to even
    /// (52 of 100: its interval includes 50%); every other pair is lopsided.
    fn three() -> (Plan, Vec<Counts>) {
        let plan = Plan {
            game: "toy".into(),
            deck_names: vec!["a".into(), "b".into(), "c".into()],
            games: 100,
            seed: 1,
            chunk: 100,
            ..Default::default()
        };
        // Row-major: (a,a) (a,b) (a,c) / (b,a) (b,b) (b,c) / (c,a) (c,b) (c,c).
        let m = vec![
            cnt(100, 50),
            cnt(100, 80),
            cnt(100, 48),
            cnt(100, 20),
            cnt(100, 50),
            cnt(100, 5),
            cnt(100, 52),
            cnt(100, 95),
            cnt(100, 50),
        ];
        (plan, m)
    }

    #[test]
    fn decks_are_ranked_by_pooled_win_rate() {
        let (_, m) = three();
        let r = strength(&m, 3);
        // c: (52 + 95 + (100-48) + (100-5)) / 400 = 294/400; a: (80 + 48 + 80 + 48)/400 = 256/400;
        // b: (20 + 5 + 20 + 5)/400 = 50/400.
        let got: Vec<(usize, u64)> = r.iter().map(|(d, c)| (*d, c.wins)).collect();
        assert_eq!(got, vec![(2, 294), (0, 256), (1, 50)]);
    }

    #[test]
    fn heatmap_orders_by_strength_and_marks_mirrors_and_even_cells() {
        let (plan, m) = three();
        let svg = svg(&plan, &m);
        let labels: Vec<&str> = svg
            .split("text-anchor=\"end\">")
            .skip(1)
            .map(|t| t.split('<').next().unwrap())
            .collect();
        assert_eq!(labels, vec!["c", "a", "b"]);
        assert_eq!(svg.matches("url(#matrix-mirror)").count(), 3);
        // Even: the three mirrors (50 of 100), a vs c (48) and c vs a (52); nothing else.
        let even = (0..10).map(|d| svg.matches(&format!(">≈{d}")).count());
        assert_eq!(even.sum::<usize>(), 5, "{svg}");
        assert!(svg.contains(">≈52%<") && svg.contains(">≈48%<") && svg.contains(">95%<"));
        assert!(svg.contains("url(#matrix-scale)") && svg.contains("strongest first"));
        // The hover title of a cell: rate, interval, games.
        assert!(svg.contains("<title>95.0% ("), "{svg}");
    }

    #[test]
    fn summary_lists_decks_strongest_first() {
        let (plan, m) = three();
        let s = summary(&plan, &m);
        let firsts: Vec<&str> = s
            .lines()
            .skip(1)
            .take(3)
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(firsts, vec!["c", "a", "b"], "{s}");
        assert!(
            s.contains("strongest deck: c (73.5% against the others)"),
            "{s}"
        );
    }
}
