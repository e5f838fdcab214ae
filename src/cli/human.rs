//! A person at the terminal: shows what their seat may see and the numbered legal actions, and
//! takes a number or the action's text.

use crate::agents::Agent;
use crate::core::{ActionList, Seat};
use crate::games::trails::scenario::step_name;
use crate::games::trails::state::{flag, Bits, State};
use crate::games::trails::{Action, TrailsGame};
use std::io::BufRead;

pub struct HumanAgent;

impl HumanAgent {
    pub fn new() -> Self {
        HumanAgent
    }
}

fn unit_line(g: &TrailsGame, s: &State, q: Seat, m: u64) -> String {
    let p = s.pl(q);
    let items: Vec<String> = Bits(m)
        .map(|i| {
            let c = g.db.card(p.card[i as usize]);
            let mut t = if p.hand & (1 << i) != 0 {
                g.card_name(p.card[i as usize])
            } else {
                g.card_ref(s, q, i)
            };
            if p.hand & (1 << i) != 0 {
                let cost = match c.ctype {
                    crate::games::trails::cards::CardType::Event => format!("{} EP", c.cost),
                    crate::games::trails::cards::CardType::Base => format!("level {}", c.cost),
                    _ => format!("{} CP", c.cost),
                };
                t.push_str(&format!(" ({} {cost})", c.ctype.name()));
            }
            if c.ctype == crate::games::trails::cards::CardType::Unit {
                let (st, df) = g.stats(s, q, i);
                t.push_str(&format!(" {st}/{df}"));
                let icons: Vec<&str> = g.icons(s, q, i).names().collect();
                if !icons.is_empty() {
                    t.push_str(&format!(" [{}]", icons.join(", ")));
                }
            }
            let marks = g.state_marks(s, q, i);
            if !marks.is_empty() {
                t.push_str(&format!(" ({})", marks.join(", ")));
            }
            t
        })
        .collect();
    if items.is_empty() {
        "—".into()
    } else {
        items.join(" · ")
    }
}

/// Shows `text` to the player; when the terminal is gone the game cannot go on: exit code 1.
fn say(text: &str) {
    if super::emit(text).is_err() {
        std::process::exit(1);
    }
}

fn show(g: &TrailsGame, s: &State, me: Seat) {
    let opp = me.other();
    let (p, o) = (s.pl(me), s.pl(opp));
    let hidden_hb = Bits(o.homebase)
        .filter(|&i| !o.has(i, flag::FACE_UP))
        .count();
    let up_hb: u64 = Bits(o.homebase)
        .filter(|&i| o.has(i, flag::FACE_UP))
        .fold(0, |m, i| m | (1 << i));
    say(&format!(
        "\n--- turn {} · {} · initiative {} · you are {me} ---\n",
        s.turn,
        step_name(s.step),
        s.initiative
    ));
    say(&format!(
        "{opp}: bond {} · deck {} · hand {} · homebase {} face down, {}\n",
        o.bond,
        o.deck_len,
        o.hand.count_ones(),
        hidden_hb,
        unit_line(g, s, opp, up_hb)
    ));
    say(&format!(
        "{opp} field: {}\n{me} field: {}\n{me} homebase: {}\n{me} hand: {}\n",
        unit_line(g, s, opp, o.field),
        unit_line(g, s, me, p.field),
        unit_line(g, s, me, p.homebase),
        unit_line(g, s, me, p.hand)
    ));
    say(&format!(
        "{me}: bond {} · deck {} · CP {} · EP available {}\n",
        p.bond,
        p.deck_len,
        p.cp,
        p.ep_available()
    ));
}

impl Agent<TrailsGame> for HumanAgent {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, g: &TrailsGame, s: &State, seat: Seat) -> Action {
        show(g, s, seat);
        let mut list = ActionList::new();
        g.legal(s, &mut list);
        if list.len() == 1 {
            // A forced move is not a decision: play it and say so.
            say(&format!(
                "(only legal action: {})\n",
                g.action_text_for(s, list[0], false)
            ));
            return list[0];
        }
        for (k, &a) in list.iter().enumerate() {
            say(&format!(
                "{:>3}. {}\n",
                k + 1,
                g.action_text_for(s, a, false)
            ));
        }
        let stdin = std::io::stdin();
        loop {
            say(&format!("{seat}> "));
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    super::note("input closed: game abandoned");
                    std::process::exit(2);
                }
                Ok(_) => {}
            }
            let t = line.trim();
            if t.is_empty() {
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
                Err(_) => say("not a legal action: type its number or its text\n"),
            }
        }
    }
}
