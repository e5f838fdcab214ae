//! Texts (M-EFFECTS): the effects of the text resolving now, one at a time; a choice pauses it
//! (M-EFFECTS-4) and the decision resumes it.

use super::super::cards::{Effect, Filter};
use super::{side_ok, TmntGame};
use crate::core::lang::TargetMode;
use crate::core::Seat;
use crate::games::tmnt::state::*;

impl TmntGame {
    /// The effects of frame `f`'s text.
    pub fn frame_effects(&self, s: &State, f: Frame) -> &[Effect] {
        let c = self.card_of(s, Seat::from_index(f.who as usize), f.src);
        match f.text {
            PLAY => c.play_text(),
            FLIP => c.flip_text(),
            _ => c.when().map(|(_, e)| e),
        }
        .unwrap_or(&[])
    }

    /// The effect resolving now (the one a choice waits for).
    pub fn current_effect(&self, s: &State) -> Option<Effect> {
        if !s.cur.active() {
            return None;
        }
        self.frame_effects(s, s.cur)
            .get(s.cur.next as usize)
            .copied()
    }

    /// Resolves the current text until it is done or waits for a choice. M-EFFECTS-5: a part
    /// with nothing to act on does nothing, and the rest still resolves.
    pub(super) fn resolve(&self, s: &mut State) {
        // The text stays the same while it resolves (only `next` moves).
        let effects = self.frame_effects(s, s.cur);
        loop {
            if s.winner.is_some() {
                return;
            }
            let f = s.cur;
            let who = Seat::from_index(f.who as usize);
            let Some(&e) = effects.get(f.next as usize) else {
                s.cur = Frame::IDLE;
                return;
            };
            match e {
                Effect::Draw(n) => {
                    for _ in 0..n {
                        if !Self::draw(s, who) {
                            break;
                        }
                    }
                }
                Effect::Trash { enemy, n } => {
                    // M-WIN-3: one deck per effect, one card at a time.
                    let q = if enemy { who.other() } else { who };
                    self.trash_top(s, q, u32::from(n));
                }
                Effect::Discard { enemy, n } => {
                    let q = if enemy { who.other() } else { who };
                    let hand = s.pl(q).hand;
                    if hand.count_ones() <= u32::from(n) {
                        for i in Bits(hand) {
                            Self::to_trash(s, q, i);
                        }
                    } else {
                        // M-EFFECTS-4: the discarding player chooses (the text names it).
                        s.pick = Pick::Discard;
                        s.discards = n;
                        s.discard_floor = 0;
                        s.chooser = q;
                        return;
                    }
                }
                Effect::Salvage(filter) => {
                    if !self.salvage_ids(s, who, &filter).is_empty() {
                        s.pick = Pick::Salvage;
                        s.chooser = who;
                        return;
                    }
                }
                Effect::Power(t, v) => match t.mode {
                    TargetMode::This => {
                        if s.pl(who).field_up() & (1 << f.src) != 0 {
                            Self::add_power(s, who, f.src, v);
                        }
                    }
                    TargetMode::All => {
                        for q in Seat::ALL {
                            if !side_ok(t.side, who, q) {
                                continue;
                            }
                            for i in Bits(s.pl(q).field_up()) {
                                if self.matches(s, q, i, &t.filter, who, f.src) {
                                    Self::add_power(s, q, i, v);
                                }
                            }
                        }
                    }
                    TargetMode::Choose => {
                        let mut mask = [0u64; 2];
                        for q in Seat::ALL {
                            if !side_ok(t.side, who, q) {
                                continue;
                            }
                            for i in Bits(s.pl(q).field_up()) {
                                if self.matches(s, q, i, &t.filter, who, f.src) {
                                    mask[q.index()] |= 1 << i;
                                }
                            }
                        }
                        if mask != [0, 0] {
                            s.pick = Pick::Choose { mask };
                            s.chooser = who;
                            return;
                        }
                    }
                    // The card file refuses `that` and roles for TMNT (`dsl.rs`).
                    TargetMode::That | TargetMode::Role(_) => {}
                },
                Effect::Bonus(v) => {
                    let p = s.pl_mut(who);
                    p.bonus = p.bonus.saturating_add(v);
                }
            }
            s.cur.next += 1;
        }
    }

    #[inline]
    fn add_power(s: &mut State, q: Seat, i: u8, v: i16) {
        let t = &mut s.pl_mut(q).temp[i as usize];
        *t = t.saturating_add(v);
    }

    /// The card ids of `q`'s Trash a `salvage` with `filter` may take (printed power).
    pub fn salvage_ids(&self, s: &State, q: Seat, filter: &Filter) -> super::IdSet {
        Self::ids_of(s, q, s.pl(q).trash).and(&self.db.matching(filter))
    }

    /// `target … card`: the chosen card (`seat << 6 | instance`) gets the effect's change.
    pub(super) fn chosen(&self, s: &mut State, code: u8) {
        let q = Seat::from_index(usize::from(code >> 6));
        let i = code & 63;
        if let Some(Effect::Power(_, v)) = self.current_effect(s) {
            Self::add_power(s, q, i, v);
        }
        s.pick = Pick::None;
        s.cur.next += 1;
    }
}
