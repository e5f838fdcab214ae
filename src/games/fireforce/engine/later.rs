//! The card language's constructs that reach beyond the effect that sets them up, all off the hot
//! path: delayed end-of-battle abilities (decision F-BAT-17), a new target for the attack
//! (decision F-BAT-17), Life kept out of a battle (decision F-BAT-18), Units that stay exhausted
//! (decision F-PREP-6) and power changes that outlast the turn (decision F-DUR-2).

use super::super::cards::Until;
use super::*;

impl FireForceGame {
    /// `later end battle: …` (decision F-BAT-17): the frame `f` of the ability being resolved
    /// sets up its delayed body starting at step `pc`, with its `that`; outside a battle, or
    /// when two are already waiting, nothing.
    #[cold]
    pub(super) fn set_up_later(s: &mut State, f: Frame, pc: u8) {
        // Released at the end of this battle (the step after `BattleEnd` is too late).
        let in_battle = matches!(
            s.step,
            Step::Attacking
                | Step::Block
                | Step::Reaction
                | Step::Support
                | Step::Damage
                | Step::LifeTrigger
                | Step::BattleEnd
        );
        if in_battle && !s.later.is_full() {
            s.later.push(Frame { pc, done: 0, ..f });
        }
    }

    /// F-BAT-9, decision F-BAT-17: the delayed end-of-battle abilities, after the Units'
    /// end-of-battle abilities, in the order they were set up.
    #[cold]
    pub(super) fn release_later(s: &mut State) {
        for k in 0..s.later.len() {
            let f = s.later.as_slice()[k];
            Self::queue(s, f);
        }
        s.later.clear();
    }

    /// `redirect`: `q`'s Unit `u` becomes the new target of the attack (decision F-BAT-17): only
    /// the attacked player's Unit, only while the attack goes on before the damage step; it is
    /// not a block (no When Blocking).
    #[cold]
    pub(super) fn redirect(&self, s: &mut State, q: Seat, u: u8) {
        if q == s.active.other()
            && s.battle.attacker != NONE
            && matches!(s.step, Step::Block | Step::Reaction | Step::Support)
        {
            s.battle.target = u;
            s.battle.on_player = false;
        }
    }

    /// `guard_life battle` (decision F-BAT-18): in a battle, the attacked player's Life is kept.
    #[cold]
    pub(super) fn guard_life(s: &mut State) {
        if s.battle.attacker != NONE
            && matches!(s.step, Step::Block | Step::Reaction | Step::Support)
        {
            s.battle.guard = true;
        }
    }

    /// A power change of `q`'s Unit `u` until the end of the next turn, or of the controller
    /// `who`'s next turn (decision F-DUR-2): now in `power_turn`, and again after each end of
    /// turn it survives.
    #[cold]
    pub(super) fn power_lasting(s: &mut State, who: Seat, q: Seat, u: u8, n: i16, until: Until) {
        let t = &mut s.pl_mut(q).power_turn[u as usize];
        *t = t.saturating_add(n);
        let ends = if until == Until::OwnNextTurn && s.active == who {
            2
        } else {
            1
        };
        if !s.lasting.is_full() {
            s.lasting.push(Lasting {
                unit: that_code(q, u),
                ends,
                n,
            });
        }
    }

    /// F-END-1 with decision F-DUR-2: after "until end of turn" ended, the changes that outlast
    /// it are kept for the next turn.
    #[cold]
    pub(super) fn keep_lasting(s: &mut State) {
        let mut k = 0;
        while k < s.lasting.len() {
            let l = s.lasting.as_slice()[k];
            if l.ends == 0 {
                s.lasting.remove(k);
                continue;
            }
            let (q, u) = that_card(l.unit).expect("a lasting change names a Unit");
            let t = &mut s.pl_mut(q).power_turn[u as usize];
            *t = t.saturating_add(l.n);
            s.lasting.as_mut_slice()[k].ends -= 1;
            k += 1;
        }
    }

    /// `q`'s Unit `u` left the Scene: its lasting changes end.
    #[cold]
    pub(super) fn forget_lasting(s: &mut State, q: Seat, u: u8) {
        let code = that_code(q, u);
        s.lasting.retain(|l| l.unit != code);
    }
}

/// [`Frame::done`] of a replacement's frame (decision F-EFF-13; `done` counts only a `flame N`
/// step's cards, which no replacement text has).
pub(crate) const INSTEAD: u8 = 0xEE;

impl FireForceGame {
    /// Decision F-EFF-13: `q`'s Unit `u` would be removed; if its `instead removed self` text
    /// applies (its condition holds, Once Per Turn unused: marked now), the replacement waits to
    /// resolve in front of the ability being resolved and the removal waits for it. False when
    /// the Unit is removed as usual.
    #[cold]
    pub(super) fn replaced(&self, s: &mut State, q: Seat, u: u8) -> bool {
        let c = self.card_of(s, q, u);
        let on = c.on(Trigger::Instead);
        if on == 0 || s.replacing.is_full() {
            return false;
        }
        // Decision F-EFF-14: a removal a replacement makes is not replaced in turn.
        if s.frames
            .as_slice()
            .first()
            .is_some_and(|f| f.done == INSTEAD)
        {
            return false;
        }
        let k = on.trailing_zeros() as u8;
        // Its condition and Once Per Turn, marked now (the Unit is on the Scene).
        if !self.trigger_gate(s, q, u, k) {
            return false;
        }
        s.replacing.push(Frame {
            done: INSTEAD,
            that: that_code(q, u),
            ..Frame::new(q, u, k)
        });
        true
    }

    /// The replacements set up by the step just resolved go in front of the ability being
    /// resolved (whose program counter is past that step), in the order set up; its `x` is kept
    /// while they resolve. With no room left, the removal happens.
    #[cold]
    pub(super) fn front_replacements(&self, s: &mut State) {
        s.x_kept = s.x;
        let waiting = s.replacing;
        s.replacing.clear();
        for f in waiting.iter().rev() {
            if s.frames.is_full() {
                self.remove_now(s, Seat::ALL[f.who as usize], f.src);
            } else {
                s.frames.insert(0, *f);
            }
        }
    }

    /// [`Effect::Removal`]: the replaced removal happens (the Unit still on the Scene), counted in
    /// the kept `x`.
    #[cold]
    pub(super) fn replaced_removal(&self, s: &mut State, q: Seat, u: u8) {
        if s.pl(q).units() & 1 << u != 0 {
            self.remove_now(s, q, u);
            s.x_kept[q.index()] = s.x_kept[q.index()].saturating_add(1);
        }
    }
}
