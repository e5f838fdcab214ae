use tcgsim::agents::mcts::{MctsAgent, MctsConfig};
use tcgsim::agents::{Agent, HeuristicAgent};
use tcgsim::core::{Game, Seat};
use tcgsim::games::trails::bundled_cards;
use tcgsim::games::trails::scenario::Scenario;
fn main() {
    let text = "step: propose\n[P1]\nfield: Jaeger Raider, Police Detective\ndeck: 6x Academy Student\n[P2]\nbond: 4\nfield: Guild Junior Bracer\ndeck: 6x Academy Student\n";
    let sc = Scenario::parse(text, "t", bundled_cards()).unwrap();
    let g = &sc.game;
    let mut s = sc.state;
    let mut a1 = MctsAgent::new(
        MctsConfig {
            iterations: 400,
            ..MctsConfig::default()
        },
        0,
    );
    let mut a2 = HeuristicAgent::new(1);
    while let Some(q) = g.to_move(&s) {
        if s.turn != 1 {
            break;
        }
        let a = if q == Seat::P1 {
            a1.choose(g, &s, q)
        } else {
            a2.choose(g, &s, q)
        };
        let before = s;
        g.apply(&mut s, a);
        for l in g.narrate(&before, q, a, &s, true, None) {
            println!("{l}");
        }
    }
    println!("{:?}", s.winner);
}
