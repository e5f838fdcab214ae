//! Helpers of the unit tests that are the same for every game.

use super::def::GameDef;
use super::{ActionList, GameRng, Seat};

/// The decks `names` (file stems) of `G`'s deck folder ([`super::GameInfo::deck_dir`]), read
/// with `cards`, in the order given.
pub fn folder_decks<G: GameDef>(cards: &G::Cards, names: &[&str]) -> Vec<G::Deck> {
    let info = &G::INFO;
    names
        .iter()
        .map(|n| {
            let path = format!(
                "{}/{}/{n}.{}",
                env!("CARGO_MANIFEST_DIR"),
                info.deck_dir,
                info.deck_ext
            );
            let text = std::fs::read_to_string(&path).expect("a bundled deck");
            G::parse_deck(cards, &text, n, n).expect("the bundled decks are valid")
        })
        .collect()
}

/// Random games of every ordered pair of `decks`, for the engines' tests: the match
/// ([`GameDef::new_match`]) of the `k`-th deck against each deck, itself included, `games` games
/// a pair, game `i` dealt with seed `i·mul + k` and begun by P1 for even `i`, P2 for odd. At each
/// position `each` gets the match, the position, its legal actions and `rng`; then the move is
/// drawn from `rng`, uniformly over the legal actions.
pub fn walk_random_games<G: GameDef>(
    cards: &G::Cards,
    decks: &[G::Deck],
    games: u64,
    mul: u64,
    rng: &mut GameRng,
    mut each: impl FnMut(&G, &G::State, &ActionList<G::Action>, &mut GameRng),
) {
    use rand::Rng;
    let mut list = ActionList::new();
    for (k, a) in decks.iter().enumerate() {
        for b in decks {
            let g = G::new_match(cards, [a, b]);
            for i in 0..games {
                let mut s = g.new_game(i * mul + k as u64, Seat::ALL[(i % 2) as usize]);
                while g.to_move(&s).is_some() {
                    g.legal_actions(&s, &mut list);
                    each(&g, &s, &list, rng);
                    let pick = list.as_slice()[rng.gen_range(0..list.len())];
                    g.apply(&mut s, pick);
                }
            }
        }
    }
}
