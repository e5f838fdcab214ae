//! A person at the terminal: shows what their seat may see and the numbered legal actions, and
//! takes a number, the action's text, or a command (`help`, `show CARD`, `quit`).

use crate::agents::Agent;
use crate::core::{ActionList, GameDef, Seat};
use std::io::BufRead;

pub struct HumanAgent;

/// Shows `text` to the player; when the terminal is gone the game cannot go on: exit code 1.
fn say(text: &str) {
    if super::emit(text).is_err() {
        std::process::exit(1);
    }
}

const HELP: &str = "type the number of an action or its text; `show CARD` prints a card's full \
                    text; `board` shows the table again; `quit` ends the game\n";

impl<G: GameDef> Agent<G> for HumanAgent {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, g: &G, s: &G::State, seat: Seat) -> G::Action {
        say(&format!("\n{}", g.render(s, seat)));
        let mut list = ActionList::new();
        g.legal_actions(s, &mut list);
        if list.len() == 1 {
            // A forced move is not a decision: play it and say so.
            say(&format!(
                "(only legal action: {})\n",
                g.action_text(s, list[0])
            ));
            return list[0];
        }
        let menu = |list: &ActionList<G::Action>| {
            for (k, &a) in list.iter().enumerate() {
                say(&format!("{:>3}. {}\n", k + 1, g.action_text(s, a)));
            }
        };
        menu(&list);
        let stdin = std::io::stdin();
        loop {
            say(&format!("{seat}> "));
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    super::out::error("input closed: game abandoned");
                    std::process::exit(2);
                }
                Ok(_) => {}
            }
            let t = line.trim();
            match t {
                "" => continue,
                "help" | "?" => {
                    say(HELP);
                    continue;
                }
                "quit" | "exit" => {
                    say("game abandoned\n");
                    std::process::exit(0);
                }
                "board" => {
                    say(&g.render(s, seat));
                    menu(&list);
                    continue;
                }
                _ => {}
            }
            if let Some(q) = t.strip_prefix("show ") {
                match G::card_text(g.match_cards(), q) {
                    Ok(text) => say(&format!("{text}\n")),
                    Err(e) => say(&format!("{e}\n")),
                }
                continue;
            }
            if let Ok(n) = t.parse::<usize>() {
                if (1..=list.len()).contains(&n) {
                    return list[n - 1];
                }
                say(&format!("choose 1 to {}\n", list.len()));
                continue;
            }
            match g.parse_action(s, t) {
                Ok(a) => return a,
                Err(_) => say("not a legal action: type its number or its text (`help`)\n"),
            }
        }
    }
}
