//! The drawn fraction of every card of a deck as `tcgsim cards` measures it, beside its
//! hypergeometric expectation over the cards-seen counts of an independent replay of the same
//! seeded games (`docs/statistics.md`). With real decks the law holds only approximately: which
//! cards are seen can change how long a game lasts.
//!
//! `cargo run --release --features tools --example drawn_fractions -- DECK GAMES [SEED]` (the gauntlet is the other
//! bundled decks, as for `tcgsim cards`).
use std::path::{Path, PathBuf};
use tcgsim::agents::AgentSpec;
use tcgsim::core::{Game, Seat};
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::{bundled_cards, State, TrailsGame};
use tcgsim::sim::cards::{deal, play_records, CardIndex};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = PathBuf::from(args.get(1).expect("DECK"));
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let db = bundled_cards();
    let deck = Deck::load(&path, &db).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("decks/trails");
    let mut others: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "deck"))
        .collect();
    others.sort();
    let gauntlet: Vec<TrailsGame> = others
        .iter()
        .map(|p| Deck::load(p, &db).unwrap())
        .filter(|d| d.name != deck.name)
        .map(|d| TrailsGame::new(db.clone(), deck.cards.clone(), d.cards))
        .collect();
    let mut ids: Vec<u32> = Vec::new();
    for &c in &deck.cards {
        if !ids.contains(&u32::from(c)) {
            ids.push(u32::from(c));
        }
    }
    let index = CardIndex::new(&ids).unwrap();
    let spec = AgentSpec::Heuristic;
    let records = play_records(
        &gauntlet,
        &index,
        &spec.clone().into(),
        games,
        seed,
        &|_| {},
    );
    // The replay: the same games, counting the deck's card instances ever out of its deck.
    let n_cards = deck.cards.len() as u64;
    let mut seen = Vec::new();
    for (o, g) in gauntlet.iter().enumerate() {
        for k in 0..games {
            let d = deal(seed, o, k);
            let (s, first) = (d.seed, d.first);
            let mut a = spec.build::<TrailsGame>(d.agent_seeds[0]);
            let mut b = spec.build::<TrailsGame>(d.agent_seeds[1]);
            let out = |st: &State| {
                let p = st.pl(Seat::P1);
                ((1u64 << p.n_cards) - 1) & !p.deck_mask()
            };
            let mut ever = out(&g.new_game(s, first));
            tcgsim::sim::play_game(g, s, first, [a.as_mut(), b.as_mut()], |_, _, _, after| {
                ever |= out(after)
            });
            seen.push(u64::from(ever.count_ones()));
        }
    }
    let total = records.len() as f64;
    println!(
        "{}: {} games, {:.1} cards seen per game on average",
        deck.name,
        records.len(),
        seen.iter().sum::<u64>() as f64 / total
    );
    println!("card,copies,drawn,hypergeometric,se");
    for (k, &id) in ids.iter().enumerate() {
        let copies = deck.cards.iter().filter(|&&c| u32::from(c) == id).count() as u64;
        let drawn = records.iter().filter(|r| r.drawn & (1 << k) != 0).count() as f64 / total;
        let p: Vec<f64> = seen
            .iter()
            .map(|&n| {
                1.0 - (0..n)
                    .map(|i| (n_cards - copies).saturating_sub(i) as f64 / (n_cards - i) as f64)
                    .product::<f64>()
            })
            .collect();
        let expected = p.iter().sum::<f64>() / total;
        let se = p.iter().map(|q| q * (1.0 - q)).sum::<f64>().sqrt() / total;
        println!(
            "{},{copies},{drawn:.4},{expected:.4},{se:.4}",
            db.card(id as u16).full_name()
        );
    }
}
