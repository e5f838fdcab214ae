//! Why search strength flattens with budget (issue 33): for positions of heuristic self-play of a
//! game's bench match, runs ISMCTS at several budgets with two seeds each, and PIMC, and reports
//! how often their chosen moves agree with each other and with a long search (the reference),
//! and how far apart the reference's root means are.
//!
//! `cargo run --release --features tools --example search_agreement -- [GAME] [POSITIONS] [REF_ITERS] [SPEC...]`
//! Each SPEC is an `ismcts:`/`pimc:` agent spec; default: ismcts 1000, ismcts 4000, pimc 16×64.
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::{Agent, AgentSpec, HeuristicAgent};
use tcgsim::core::{rng_from_seed, ActionList, GameDef, Seat};
use tcgsim::games::{visit, Visit};

struct Run {
    n: usize,
    reference: u32,
    specs: Vec<String>,
}

impl Visit for Run {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let g = G::bench_match().expect("the bench match");
        let mut states = Vec::new();
        let mut seed = 0u64;
        let mut list = ActionList::new();
        while states.len() < self.n {
            seed += 1;
            let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            let mut h = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 99)];
            let stop = 5 + (seed as usize * 37) % 120;
            for _ in 0..stop {
                let Some(q) = g.to_move(&s) else { break };
                let a = h[q.index()].choose(&g, &s, q);
                g.apply(&mut s, a);
            }
            if g.to_move(&s).is_none() {
                continue;
            }
            g.legal_actions(&s, &mut list);
            if list.len() >= 2 {
                states.push(s);
            }
        }
        let specs: Vec<AgentSpec> = self
            .specs
            .iter()
            .map(|t| AgentSpec::parse(t).expect("a spec"))
            .collect();
        let cfg = MctsConfig {
            iterations: self.reference,
            ..MctsConfig::default()
        };
        let reference = AgentSpec::Mcts(cfg);
        // The reference's mean result of each root action, per position (a third seed): how far
        // apart the actions are.
        let mut ref_means: Vec<Vec<(G::Action, u32, f64)>> = Vec::new();
        {
            let mut t: Tree<G> = Tree::default();
            let mut out = Vec::new();
            for (k, s) in states.iter().enumerate() {
                let me = g.to_move(s).unwrap();
                t.search(
                    &g,
                    s,
                    me,
                    &cfg,
                    &mut rng_from_seed(k as u64 + 555),
                    &mut out,
                );
                ref_means.push(t.root_stats().collect());
            }
        }
        let spread: f64 = ref_means
            .iter()
            .map(|m| {
                let v: Vec<f64> = m.iter().filter(|x| x.1 >= 100).map(|x| x.2).collect();
                v.iter().cloned().fold(f64::MIN, f64::max)
                    - v.iter().cloned().fold(f64::MAX, f64::min)
            })
            .sum::<f64>()
            / states.len() as f64;
        // choices[k][seed][position]
        let mut choices: Vec<[Vec<G::Action>; 2]> = Vec::new();
        for spec in specs.iter().chain(std::iter::once(&reference)) {
            let mut by_seed = [Vec::new(), Vec::new()];
            for (r, out) in by_seed.iter_mut().enumerate() {
                for (k, s) in states.iter().enumerate() {
                    let me = g.to_move(s).unwrap();
                    let mut a = spec.build::<G>(1000 * k as u64 + r as u64 + 7);
                    out.push(a.choose(&g, s, me));
                }
            }
            choices.push(by_seed);
        }
        let n = states.len() as f64;
        let agree = |x: &[G::Action], y: &[G::Action]| {
            x.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / n
        };
        let r = choices.len() - 1;
        println!(
            "{} positions of heuristic self-play; reference ismcts:iters={} (its two seeds agree {:.1}%)",
            states.len(),
            self.reference,
            100.0 * agree(&choices[r][0], &choices[r][1])
        );
        println!(
            "mean spread of the reference's root means (actions with >= 100 visits): {spread:.4}"
        );
        println!("spec, self-agreement (2 seeds), agreement with the reference (mean of seeds)");
        for (k, t) in self.specs.iter().enumerate() {
            println!(
                "{t}, {:.1}%, {:.1}%",
                100.0 * agree(&choices[k][0], &choices[k][1]),
                50.0 * (agree(&choices[k][0], &choices[r][0])
                    + agree(&choices[k][1], &choices[r][1]))
            );
        }
        for i in 0..self.specs.len() {
            for j in i + 1..self.specs.len() {
                println!(
                    "{} vs {}: {:.1}%",
                    self.specs[i],
                    self.specs[j],
                    50.0 * (agree(&choices[i][0], &choices[j][0])
                        + agree(&choices[i][1], &choices[j][1]))
                );
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().cloned().unwrap_or_else(|| "tmnt".into());
    let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let reference = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16000);
    let mut specs: Vec<String> = args.iter().skip(3).cloned().collect();
    if specs.is_empty() {
        specs = vec![
            "ismcts:iters=1000".into(),
            "ismcts:iters=4000".into(),
            "pimc:dets=16,iters=64".into(),
        ];
    }
    visit(
        &game,
        Run {
            n,
            reference,
            specs,
        },
    )
    .unwrap_or_else(|| panic!("no game named {game}"));
}
