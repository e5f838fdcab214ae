/// Counts the leaves of the legal-action tree to `depth` (finished games count as leaves): a
/// regression check on move generation, as chess engines use it.
pub fn perft<G: super::Game>(game: &G, state: &mut G::State, depth: u32) -> u64 {
    if depth == 0 || game.to_move(state).is_none() {
        return 1;
    }
    let mut list = super::ActionList::new();
    game.legal_actions(state, &mut list);
    let mut n = 0;
    for &a in list.iter() {
        let u = game.apply(state, a);
        n += perft(game, state, depth - 1);
        game.undo(state, u);
    }
    n
}
