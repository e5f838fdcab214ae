//! Cards changing zones (draws, the trail, the homebase, the field) and what each player knows of
//! them (T-STATE, T-INFO); stuns, bond (T-WIN-1) and paying EP (T-RES).

use super::super::cards::{Trigger, Zone};
use super::super::state::Lid;
use super::super::state::{bit, flag, Bits, State, That};
use super::events::Ev;
use super::{feat, TrailsGame, MAX_BOND};
use crate::core::{Outcome, Seat};

impl TrailsGame {
    /// Draws one card; an empty deck loses the game at once (T-WIN-3).
    pub(super) fn draw(&self, s: &mut State, q: Seat) {
        let p = s.pl_mut(q);
        match p.pop_top() {
            Some(i) => {
                p.hand |= bit(i);
                // The owner now sees the card (T-STATE-3).
                p.known[q.index()] |= bit(i);
            }
            None => s.winner = Some(Outcome::Win(q.other())),
        }
    }

    /// Moves `q`'s card to a public zone: both players know it from now on (T-STATE-3).
    pub(super) fn reveal(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.known = [p.known[0] | bit(i), p.known[1] | bit(i)];
    }

    /// T-STATE-4: a card goes to its owner's trail; from the field, it leaves the field.
    pub(super) fn to_trail(&self, s: &mut State, q: Seat, i: u8) {
        let from_field = s.pl(q).field & bit(i) != 0;
        self.to_trail_quiet(s, q, i);
        if from_field {
            self.left_field_to_trail(s, q, i);
        }
    }

    /// What follows [`Self::to_trail`] of a card that was on the field. Out of line, and the
    /// last thing `to_trail` does: `to_trail` needs no frame (a card from the hand or the
    /// homebase is the most frequent).
    #[inline(never)]
    fn left_field_to_trail(&self, s: &mut State, q: Seat, i: u8) {
        if !s.combat_mods.is_empty() {
            Self::forget_combat_mods(s, q, i);
        }
        if Self::marked_eot(s) {
            Self::forget_turn_marks(s, q, i);
        }
        self.happen(s, Ev::card(Trigger::Leaves, q, i).to(Zone::Trail));
    }

    /// [`Self::to_trail`] without the event.
    fn to_trail_quiet(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.hand &= !bit(i);
        p.homebase &= !bit(i);
        p.field &= !bit(i);
        p.trail |= bit(i);
        p.reset_instance(i);
        // A card in the trail provides no static (T-STATIC-1: only field cards and face-up BASEs
        // do; `refresh_static` would find it inactive).
        p.static_src &= !bit(i);
        self.reveal(s, q, i);
    }

    /// Hand to face-down homebase. The opponent loses track of which card it was (decision
    /// T-INFO-3), unless it was already public knowledge that it is in hand: a card moving between
    /// two hidden zones stays known only to its owner.
    pub(super) fn hand_to_homebase(&self, s: &mut State, q: Seat, i: u8, actioned: bool) {
        let p = s.pl_mut(q);
        // The opponent sees a card leave the hand but not which: it no longer knows any card of
        // this hand (decision T-INFO-3).
        p.known[q.other().index()] &= !p.hand;
        p.hand &= !bit(i);
        p.homebase |= bit(i);
        p.reset_instance(i);
        if actioned {
            p.set(i, flag::ACTIONED);
        }
        self.happen(s, Ev::card(Trigger::Put, q, i).to(Zone::Homebase));
    }

    /// The copy of card `id` that leaves `q`'s hand openly: one the opponent knows, if any, so the
    /// opponent's knowledge of the others stays true (decision T-INFO-3).
    pub(super) fn hand_copy(&self, s: &State, q: Seat, id: Lid) -> u8 {
        let p = s.pl(q);
        p.find(p.hand & p.known[q.other().index()], id)
            .or_else(|| p.find(p.hand, id))
            .expect("card in hand")
    }

    /// Decision T-RES-7 (b): homebase card `i` leaves by its owner's action or choice (dispatch,
    /// rebuild). If it is ready, the player would have gained its EP first: had a card been
    /// actioned to pay EP in this phase, the leaving card would have paid instead, so that card is
    /// readied again (a ready card is worth at least an EP in the pool); otherwise its EP goes into
    /// the pool.
    pub(super) fn leaving_homebase(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        if !p.has(i, flag::ACTIONED) {
            match Bits(p.ep_paid & p.homebase & !bit(i)).next() {
                Some(j) => {
                    p.clear(j, flag::ACTIONED);
                    p.ep_paid &= !bit(j);
                }
                None => p.ep += 1,
            }
        }
        p.ep_paid &= !bit(i);
    }

    /// T-RES-1: the end of a phase; the EP left in the pools disappears.
    pub(super) fn end_phase_ep(s: &mut State) {
        for p in &mut s.p {
            p.ep = 0;
            p.ep_paid = 0;
        }
    }

    /// A UNIT or ITEM enters the field face up and ready (T-PREP-3); its enter ability queues.
    pub(super) fn enter_field(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.hand &= !bit(i);
        p.homebase &= !bit(i);
        p.field |= bit(i);
        p.reset_instance(i);
        // On the field and not stunned (its flags were just cleared): a source of statics
        // exactly when its card has some (T-STATIC-1, T-STATE-2; what `refresh_static` would find).
        if self.hot(p.card[i as usize]).feat & feat::STATICS != 0 {
            p.static_src |= bit(i);
        } else {
            p.static_src &= !bit(i);
        }
        self.reveal(s, q, i);
        self.queue_trigger(s, q, i, Trigger::Enter);
        if self.listens & Trigger::Enter.bit() != 0 {
            self.happen(s, Ev::card(Trigger::Enter, q, i));
        }
    }

    /// T-TERM-STUN / T-STATE-2: stun a UNIT; its owner loses bond equal to its printed CP cost.
    /// Abilities on its becoming stunned trigger.
    pub(super) fn stun(&self, s: &mut State, q: Seat, i: u8) {
        if self.stun_quiet(s, q, i) {
            self.happen(s, Ev::card(Trigger::Stunned, q, i));
        }
    }

    /// [`Self::stun`] without the event; whether the UNIT was not stunned before.
    pub(super) fn stun_quiet(&self, s: &mut State, q: Seat, i: u8) -> bool {
        let cost = self.hot(self.cid(s, q, i)).cost;
        if s.pl(q).has(i, flag::STUNNED) {
            return false;
        }
        if !s.shields.is_empty() && Self::use_shield(s, q, i) {
            return false;
        }
        let p = s.pl_mut(q);
        p.set(i, flag::STUNNED | flag::ACTIONED);
        p.clear(i, flag::SUPPORTED);
        p.bond -= i16::from(cost);
        let unit = p.card[i as usize];
        super::trace::bond(
            q,
            super::trace::BondCause::StunDamage { unit },
            -i16::from(cost),
        );
        self.refresh_static(s, q, i);
        true
    }

    /// Decision T-EFF-14: a shield of `q`'s UNIT `i` is used up instead of the stun; whether
    /// there was one.
    #[cold]
    #[inline(never)]
    fn use_shield(s: &mut State, q: Seat, i: u8) -> bool {
        let that = That::of(q, i);
        match s.shields.as_slice().iter().position(|&t| t == that) {
            Some(k) => {
                s.shields.remove(k);
                true
            }
            None => false,
        }
    }

    /// A UNIT that leaves the field loses its shield (decision T-EFF-14) and its prohibitions
    /// until end of turn (decision T-EFF-15: it is a new card if it comes back).
    #[cold]
    #[inline(never)]
    pub(super) fn forget_turn_marks(s: &mut State, q: Seat, i: u8) {
        let that = That::of(q, i);
        if let Some(k) = s.shields.as_slice().iter().position(|&t| t == that) {
            s.shields.remove(k);
        }
        while let Some(k) = s.cant_eot.as_slice().iter().position(|&(t, _)| t == that) {
            s.cant_eot.remove(k);
        }
    }

    /// Whether a card leaving the field may have something to forget ([`Self::forget_turn_marks`]).
    #[inline]
    pub(super) fn marked_eot(s: &State) -> bool {
        !s.shields.is_empty() || !s.cant_eot.is_empty()
    }

    /// The top card of `q`'s deck into its homebase, face down and actioned; its owner sees it
    /// (homebase_top, T-TERM-REBUILD). Nothing with an empty deck (decision T-WIN-4).
    pub(super) fn top_to_homebase(&self, s: &mut State, q: Seat) {
        let p = s.pl_mut(q);
        if let Some(t) = p.pop_top() {
            p.homebase |= bit(t);
            p.reset_instance(t);
            p.set(t, flag::ACTIONED);
            p.known[q.index()] |= bit(t);
            self.happen(s, Ev::card(Trigger::Put, q, t).to(Zone::Homebase));
        }
    }

    /// A `bond` effect of `card`'s ability.
    pub(super) fn gain_bond(s: &mut State, q: Seat, delta: i16, card: Lid) {
        // T-WIN-1: bond never rises above 40 and has no lower limit.
        let p = s.pl_mut(q);
        let was = p.bond;
        p.bond = if delta > 0 {
            (p.bond + delta).min(MAX_BOND)
        } else {
            p.bond + delta
        };
        super::trace::bond(q, super::trace::BondCause::Effect { card }, p.bond - was);
    }

    /// T-RES-1 / decision T-RES-7 (a): pay EP from the pool, then by actioning ready homebase
    /// cards, face-down ones first, lowest instance first.
    pub(super) fn pay_ep(&self, s: &mut State, q: Seat, mut n: u8) {
        let p = s.pl_mut(q);
        let from_pool = n.min(p.ep);
        p.ep -= from_pool;
        n -= from_pool;
        let ready = p.homebase & !p.flagged(flag::ACTIONED);
        for side in [
            ready & !p.flagged(flag::FACE_UP),
            ready & p.flagged(flag::FACE_UP),
        ] {
            for i in Bits(side) {
                if n == 0 {
                    return;
                }
                p.set(i, flag::ACTIONED);
                p.ep_paid |= bit(i);
                n -= 1;
            }
        }
        debug_assert_eq!(n, 0, "EP paid beyond the ready homebase");
    }
}
