//! Zero heap allocations where the hot paths promise it, proved with a counting global allocator:
//! whole random and heuristic games (setup, legal actions, apply, undo, determinize), and ISMCTS
//! iterations after warm-up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::{Agent, HeuristicAgent, RandomAgent};
use tcgsim::core::{rng_from_seed, ActionList, Game, Seat};
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::{bundled_cards, TrailsGame};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread's allocations are counted: only the measured code's, not those the test
    /// harness makes on its own threads meanwhile.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `f`'s result and the allocations it made on this thread (the measured code runs on it alone).
fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = ALLOCS.load(Ordering::SeqCst);
    COUNTED.with(|c| c.set(true));
    let r = f();
    COUNTED.with(|c| c.set(false));
    (r, ALLOCS.load(Ordering::SeqCst) - before)
}

fn game() -> TrailsGame {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let db = bundled_cards();
    let a = Deck::load(&root.join("decks/trails/control.deck"), &db).unwrap();
    let b = Deck::load(&root.join("decks/trails/academy_swarm.deck"), &db).unwrap();
    TrailsGame::new(db, a.cards, b.cards)
}

#[test]
fn hot_paths_do_not_allocate() {
    let g = game();
    // Whole games: setup, legal actions, apply, undo, determinize, random and heuristic choices.
    for heuristic in [false, true] {
        let mut ra = [RandomAgent::new(1), RandomAgent::new(2)];
        let mut ha = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
        let mut list = ActionList::new();
        let mut rng = rng_from_seed(3);
        let (decisions, n) = allocations(|| {
            let mut decisions = 0;
            for seed in 0..20 {
                let mut s = g.new_game(seed, Seat::P1);
                while let Some(q) = g.to_move(&s) {
                    g.legal_actions(&s, &mut list);
                    let a = if heuristic {
                        ha[q.index()].choose(&g, &s, q)
                    } else {
                        ra[q.index()].choose(&g, &s, q)
                    };
                    let d = g.determinize(&s, q, &mut rng);
                    let u = g.apply(&mut s, a);
                    let after = s;
                    g.undo(&mut s, u);
                    s = after;
                    decisions += 1 + usize::from(d.turn > 1000);
                }
            }
            decisions
        });
        assert!(decisions > 1000);
        assert_eq!(
            n, 0,
            "{n} allocations in {decisions} decisions (heuristic: {heuristic})"
        );
    }
    // ISMCTS: after a warm-up search, another search of the same size allocates nothing.
    let mut s = g.new_game(5, Seat::P1);
    let mut agents = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
    for _ in 0..60 {
        let q = g.to_move(&s).unwrap();
        let a = agents[q.index()].choose(&g, &s, q);
        g.apply(&mut s, a);
    }
    let me = g.to_move(&s).unwrap();
    let cfg = MctsConfig {
        iterations: 300,
        ..MctsConfig::default()
    };
    let mut tree: Tree<TrailsGame> = Tree::default();
    let mut out = Vec::new();
    let mut rng = rng_from_seed(9);
    tree.search(&g, &s, me, &cfg, &mut rng, &mut out);
    let (_, n) = allocations(|| tree.search(&g, &s, me, &cfg, &mut rng, &mut out));
    assert!(tree.iterations == 300 && tree.playout_decisions > 1000);
    assert_eq!(
        n, 0,
        "{n} allocations in 300 ISMCTS iterations after warm-up"
    );
}
