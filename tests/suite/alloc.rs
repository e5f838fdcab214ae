//! Zero heap allocations where the hot paths promise it, proved with a counting global allocator,
//! for every registered game: whole random and heuristic games (setup, legal actions, apply, undo,
//! determinize, and counting each finished game into a matrix's counts, game-length histogram
//! included), and ISMCTS iterations after warm-up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use tcgsim::agents::mcts::Tree;
use tcgsim::{
    rng_from_seed, visit, ActionList, Agent, Counts, GameDef, GameRecord, HeuristicAgent,
    MctsConfig, RandomAgent, Seat, Visit, GAMES,
};

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

/// The measurement, for one game: its bench match (`GameDef::bench_match`).
#[derive(Clone)]
struct HotPaths;

impl Visit for HotPaths {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let g = G::bench_match().expect("the bench match");
        whole_games(&g, G::INFO.name);
        // The designer set's decks (tests/data/designer/): the card language's steps, conditions
        // and choices allocate nothing either.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/designer");
        if let Ok(text) = std::fs::read_to_string(dir.join(format!("{}.played.csv", G::INFO.name)))
        {
            let cards = G::parse_cards(&text, "played").unwrap();
            let mut decks: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    p.extension().is_some_and(|e| e == G::INFO.deck_ext)
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with(&format!("{}_", G::INFO.name)))
                })
                .collect();
            decks.sort();
            let decks: Vec<G::Deck> = decks
                .iter()
                .map(|p| G::load_deck(&cards, p).unwrap())
                .collect();
            if let [a, b, ..] = decks.as_slice() {
                whole_games(
                    &G::new_match(&cards, [a, b]),
                    &format!("{} designer", G::INFO.name),
                );
            }
        }
        ismcts(&g, G::INFO.name);
    }
}

/// Whole games: setup, legal actions, apply, undo, determinize, random and heuristic choices.
fn whole_games<G: GameDef>(g: &G, name: &str) {
    {
        for heuristic in [false, true] {
            let mut ra = [RandomAgent::new(1), RandomAgent::new(2)];
            let mut ha = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
            let mut list = ActionList::new();
            let mut rng = rng_from_seed(3);
            let mut counts = Counts::default();
            let (decisions, n) = allocations(|| {
                let mut decisions = 0;
                for seed in 0..100 {
                    let first = Seat::from_index(seed as usize % 2);
                    let mut s = g.new_game(seed, first);
                    while let Some(q) = g.to_move(&s) {
                        g.legal_actions(&s, &mut list);
                        let a = if heuristic {
                            Agent::<G>::choose(&mut ha[q.index()], g, &s, q)
                        } else {
                            Agent::<G>::choose(&mut ra[q.index()], g, &s, q)
                        };
                        let d = g.determinize(&s, q, &mut rng);
                        let u = g.apply(&mut s, a);
                        let after = s;
                        g.undo(&mut s, u);
                        s = after;
                        decisions += 1 + usize::from(g.turn(&d) > 1_000_000);
                    }
                    // What `matrix` counts of each game (`Counts::record`).
                    let rec = GameRecord {
                        outcome: g.outcome(&s).expect("finished"),
                        turns: g.turn(&s),
                        decisions: 0,
                        forfeit: None,
                    };
                    counts.record(&rec, first);
                }
                decisions
            });
            assert_eq!(counts.lengths.games(), 100, "{name}");
            assert!(decisions > 1000, "{name}: {decisions} decisions");
            assert_eq!(
                n, 0,
                "{name}: {n} allocations in {decisions} decisions (heuristic: {heuristic})"
            );
        }
    }
}

/// ISMCTS: after a warm-up search, another search of the same size allocates nothing. The
/// position: 60 heuristic decisions into a game, or half of it if it is shorter.
fn ismcts<G: GameDef>(g: &G, name: &str) {
    {
        let mut agents = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
        let play = |agents: &mut [HeuristicAgent<G>; 2], n: usize| {
            let mut s = g.new_game(5, Seat::P1);
            let mut k = 0;
            while let Some(q) = g.to_move(&s) {
                if k == n {
                    break;
                }
                let a = Agent::<G>::choose(&mut agents[q.index()], g, &s, q);
                g.apply(&mut s, a);
                k += 1;
            }
            (s, k)
        };
        let (_, length) = play(&mut agents, usize::MAX);
        let mut agents = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
        let (s, _) = play(&mut agents, length.min(120) / 2);
        let me = g.to_move(&s).unwrap();
        let cfg = MctsConfig {
            iterations: 300,
            ..MctsConfig::default()
        };
        let mut tree: Tree<G> = Tree::default();
        let mut out = Vec::new();
        let mut rng = rng_from_seed(9);
        tree.search(g, &s, me, &cfg, &mut rng, &mut out);
        let (_, n) = allocations(|| tree.search(g, &s, me, &cfg, &mut rng, &mut out));
        assert!(
            tree.iterations == 300 && tree.playout_decisions > 0,
            "{name}"
        );
        assert_eq!(
            n, 0,
            "{name}: {n} allocations in 300 ISMCTS iterations after warm-up"
        );
    }
}

/// Every registered game: no heap allocation in whole games, nor in ISMCTS after warm-up.
#[test]
fn hot_paths_do_not_allocate() {
    for g in GAMES {
        visit(g.name, HotPaths).expect("a registered game");
    }
}
