//! Helpers of the unit tests that are the same for every game.

use super::def::GameDef;

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
