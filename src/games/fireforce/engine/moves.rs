//! Effects on cards that are not Units on the Scene (decision F-EFF-10): a hand's, a deck's or THE
//! ADOLLA's cards chosen by card id, Flame cards on the Scene, and what each player then knows
//! (look, search, dig: F-INFO-6).

use super::super::cards::{CardType, Dest, Mode, Op, Target, Zone};
use super::*;
use crate::core::lang::Side;

impl FireForceGame {
    /// Whether a target names cards that are not Units on the Scene (the cold path of effects).
    #[inline]
    pub(super) fn off_unit(t: &Target) -> bool {
        t.zone != Zone::Scene || t.filter.types & super::super::cards::CardType::UNIT_BIT == 0
    }

    /// The seat whose cards a one-sided target names.
    fn target_seat(t: &Target, who: Seat) -> Seat {
        if t.side == Side::Enemy {
            who.other()
        } else {
            who
        }
    }

    /// A targeted effect on cards that are not Units on the Scene. Returns false when it waits
    /// for a choice.
    #[cold]
    pub(super) fn resolve_cards(
        &self,
        s: &mut State,
        who: Seat,
        src: u8,
        e: Effect,
        t: &Target,
    ) -> bool {
        let that = s.frames[0].that;
        let c = self.described(s, who, src, that, t, false);
        let n = c[0].count_ones() + c[1].count_ones();
        if t.zone == Zone::Scene {
            // Flame cards on the Scene: public, chosen by instance.
            if (t.mode == Mode::Choose && n > 1) || (t.mode == Mode::UpTo && n > 0) {
                s.pick = Pick::Unit {
                    mask: c,
                    optional: t.mode == Mode::UpTo,
                };
                s.chooser = who;
                return false;
            }
        } else if matches!(t.mode, Mode::Choose | Mode::UpTo) && n > 0 {
            let q = Self::target_seat(t, who);
            let mask = c[q.index()];
            let (first, one) = Self::first_and_one(s, q, mask);
            if t.mode == Mode::UpTo || !one {
                s.pick = Pick::Cards {
                    q: q.index() as u8,
                    mask,
                    optional: t.mode == Mode::UpTo,
                };
                s.chooser = who;
                return false;
            }
            // `target` with one card to choose: no decision (F-EFF-1).
            let i = first.expect("a card");
            s.frames.as_mut_slice()[0].that = that_code(q, i);
            return self.apply_card(s, who, e, q, i);
        }
        for q in Seat::ALL {
            for i in Bits(c[q.index()]) {
                if t.mode == Mode::Choose {
                    s.frames.as_mut_slice()[0].that = that_code(q, i);
                }
                if !self.apply_card(s, who, e, q, i) {
                    return false;
                }
            }
        }
        true
    }

    /// The instances of `mask` (of `q`) one per card id: the lowest, or, in a hand, a copy the
    /// opponent knows if there is one (F-INFO-5).
    pub(crate) fn distinct_cards(s: &State, q: Seat, mask: u64) -> impl Iterator<Item = u8> + '_ {
        let p = s.pl(q);
        let known = p.hand & p.known[q.other().index()];
        Bits(mask).filter(move |&i| {
            let id = p.card[i as usize];
            let same = Bits(mask).filter(|&j| p.card[j as usize] == id);
            // The representative: the lowest known copy in hand, else the lowest copy.
            let rep = same
                .clone()
                .find(|&j| known & 1 << j != 0)
                .or_else(|| same.clone().next());
            rep == Some(i)
        })
    }

    /// The first choice of `mask`, and whether it is the only card id there.
    fn first_and_one(s: &State, q: Seat, mask: u64) -> (Option<u8>, bool) {
        let mut ids = Self::distinct_cards(s, q, mask);
        let first = ids.next();
        (first, ids.next().is_none())
    }

    /// The instance of card `id` among `mask` (of `q`) that [`Action::Card`] names.
    pub(super) fn card_instance(s: &State, q: Seat, mask: u64, id: CardId) -> u8 {
        Self::distinct_cards(s, q, mask)
            .find(|&i| s.pl(q).card[i as usize] == id)
            .expect("a legal card names a card of the choice")
    }

    /// An effect on `q`'s card `i` (not a Unit on the Scene). False when it waits for a choice.
    pub(super) fn apply_card(&self, s: &mut State, who: Seat, e: Effect, q: Seat, i: u8) -> bool {
        if e.counts() {
            s.x[q.index()] = s.x[q.index()].saturating_add(1);
        }
        match e {
            Effect::Move(_, to) => {
                let p = s.pl(q);
                let bit = 1u64 << i;
                if p.scene & bit != 0 {
                    // A Flame card into THE ADOLLA: it returns to its Flame deck (F-COST-2); a
                    // card put as a Flame card goes into THE ADOLLA.
                    Self::limit_out(s, q, i);
                } else {
                    Self::take(s, q, i);
                    Self::put(s, q, i, to);
                }
            }
            Effect::Ready(_) => s.pl_mut(q).exhausted &= !(1 << i),
            Effect::Dispatch(_) => {
                // Out of THE ADOLLA onto the Scene, ready; it cannot attack this turn unless it
                // has Blitz (F-BAT-1, as a Unit dispatched from hand).
                if s.pl(q).adolla & 1 << i != 0 {
                    s.pl_mut(q).adolla &= !(1 << i);
                    self.enter_scene(s, q, i);
                    s.pl_mut(q).fresh |= 1 << i;
                    self.dispatched(s, q, i);
                }
            }
            Effect::Search(..) | Effect::Dig(..) => {
                Self::take(s, q, i);
                Self::put(s, q, i, Dest::Hand);
                if matches!(e, Effect::Search(..)) {
                    // "reveal it".
                    Self::reveal(s, q, i);
                }
                self.end_look(s, who, e);
            }
            Effect::Remove(_)
            | Effect::Exhaust(_)
            | Effect::Bounce(_)
            | Effect::Power(..)
            | Effect::Give(_)
            | Effect::Pick(_) => {}
            _ => unreachable!("an effect on a card"),
        }
        true
    }

    /// [`Action::Pass`] on a choice of cards: none ("up to 1"); a search or a dig ends its look.
    #[cold]
    pub(super) fn cards_passed(&self, s: &mut State) {
        s.pick = Pick::None;
        let f = s.frames[0];
        let e = self.frame_effect(s, &f);
        if matches!(e, Effect::Search(..) | Effect::Dig(..)) {
            self.end_look(s, Seat::ALL[f.who as usize], e);
        }
        s.frames.as_mut_slice()[0].pc += 1;
    }

    /// [`Action::Card`]: the card chosen for the current frame's effect (decision F-EFF-10).
    #[cold]
    pub(super) fn card_chosen(&self, s: &mut State, me: Seat, id: CardId) {
        let Pick::Cards { q, mask, .. } = s.pick else {
            unreachable!("a card answers a choice of cards")
        };
        s.pick = Pick::None;
        let q = Seat::ALL[q as usize];
        let i = Self::card_instance(s, q, mask, id);
        let f = s.frames[0];
        match self.frame_effect(s, &f) {
            Effect::Discard { .. } => self.discarded(s, q, i),
            e => {
                if e.counts() {
                    s.x = [0; 2];
                }
                // Decision F-EFF-8: the chosen card is `that`.
                s.frames.as_mut_slice()[0].that = that_code(q, i);
                if self.apply_card(s, me, e, q, i) {
                    s.frames.as_mut_slice()[0].pc += 1;
                }
            }
        }
    }

    /// When Dispatched and Adolla Link of `q`'s Unit `i`, just put onto the Scene (F-KW-TRIGGERS).
    #[inline(always)]
    pub(super) fn dispatched(&self, s: &mut State, q: Seat, i: u8) {
        self.push_triggers(s, q, i, Trigger::Dispatched);
        if self.card_of(s, q, i).keywords.has(Keywords::ADOLLA_LINK) {
            s.frames.push(Frame::new(q, i, LINK_FRAME));
        }
    }

    /// Takes `q`'s card `i` out of its hand, THE ADOLLA or its deck.
    fn take(s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        let bit = 1u64 << i;
        if p.hand & bit != 0 {
            p.hand &= !bit;
        } else if p.adolla & bit != 0 {
            p.adolla &= !bit;
        } else if let Some(k) = p.deck().iter().position(|&j| j == i) {
            let n = p.deck_len as usize;
            p.pile.copy_within(k + 1..n, k);
            p.deck_len -= 1;
        }
    }

    /// Puts `q`'s card `i` (out of every zone) into `to`. A card put into a deck or the Life area
    /// is forgotten by both players (F-INFO-6); one put into THE ADOLLA is public; one put into
    /// a hand is known to its owner (and still to whoever knew it).
    fn put(s: &mut State, q: Seat, i: u8, to: Dest) {
        let bit = 1u64 << i;
        match to {
            Dest::Hand => {
                let p = s.pl_mut(q);
                p.hand |= bit;
                p.known[q.index()] |= bit;
            }
            Dest::Adolla => {
                s.pl_mut(q).adolla |= bit;
                Self::reveal(s, q, i);
            }
            Dest::DeckBottom => {
                let p = s.pl_mut(q);
                let n = p.deck_len as usize;
                p.pile.copy_within(0..n, 1);
                p.pile[0] = i;
                p.deck_len += 1;
                p.known = p.known.map(|k| k & !bit);
            }
            Dest::Life => {
                let p = s.pl_mut(q);
                p.life_len += 1;
                p.pile[FLAME_BASE - p.life_len as usize] = i;
                p.known = p.known.map(|k| k & !bit);
            }
        }
    }

    /// `discard [enemy] n`: one card at a time, chosen by its owner (`Frame::done` counts them).
    /// False when it waits for the choice.
    #[cold]
    pub(super) fn discard(&self, s: &mut State, who: Seat, enemy: bool, n: u8) -> bool {
        let q = if enemy { who.other() } else { who };
        let f = s.frames[0];
        let hand = s.pl(q).hand;
        if f.done < n && hand != 0 {
            let (first, one) = Self::first_and_one(s, q, hand);
            let first = first.expect("a card in hand");
            if one {
                // One card (or copies of one card): no decision.
                s.frames.as_mut_slice()[0].done += 1;
                Self::take(s, q, first);
                Self::put(s, q, first, Dest::Adolla);
                return self.discard(s, who, enemy, n);
            }
            s.pick = Pick::Cards {
                q: q.index() as u8,
                mask: hand,
                optional: false,
            };
            s.chooser = q;
            return false;
        }
        s.frames.as_mut_slice()[0].done = 0;
        true
    }

    /// A card discarded by a choice: into THE ADOLLA, then the next one.
    pub(super) fn discarded(&self, s: &mut State, q: Seat, i: u8) {
        Self::take(s, q, i);
        Self::put(s, q, i, Dest::Adolla);
        s.frames.as_mut_slice()[0].done += 1;
    }

    /// The top `n` cards of `q`'s deck, as a mask.
    pub(crate) fn top_cards(s: &State, q: Seat, n: u8) -> u64 {
        let d = s.pl(q).deck();
        let from = d.len().saturating_sub(usize::from(n));
        d[from..].iter().fold(0, |m, &i| m | 1 << i)
    }

    /// `search` and `dig`: the controller looks at its deck (the top `n` for `dig`) and may take
    /// a matching card. False when it waits for the choice.
    #[cold]
    pub(super) fn look_for(&self, s: &mut State, who: Seat, src: u8, e: Effect) -> bool {
        let (t, seen) = match e {
            Effect::Search(t, _) => (t, s.pl(who).deck_mask()),
            Effect::Dig(n, t, _) => (t, Self::top_cards(s, who, n)),
            _ => unreachable!("search or dig"),
        };
        // F-INFO-6: the controller sees the cards it looks at.
        s.pl_mut(who).known[who.index()] |= seen;
        let that = s.frames[0].that;
        let mask = self.described(s, who, src, that, &t, false)[who.index()] & seen;
        if mask == 0 {
            self.end_look(s, who, e);
            return true;
        }
        s.pick = Pick::Cards {
            q: who.index() as u8,
            mask,
            optional: true,
        };
        s.chooser = who;
        false
    }

    /// The end of a `search` (the deck is shuffled) or a `dig` (the cards looked at go to the
    /// bottom of the deck, in their order): nobody knows the deck's cards any more (F-INFO-6).
    pub(super) fn end_look(&self, s: &mut State, who: Seat, e: Effect) {
        match e {
            Effect::Search(..) => Self::shuffle_deck(s, who),
            Effect::Dig(n, ..) => {
                // The cards still among the top `n` that were looked at: the top n minus the one
                // taken is the top n - 1 now, or n if none was taken. Which were looked at is what
                // the controller knows of its deck.
                let p = s.pl(who);
                let looked: u64 = p.deck_mask() & p.known[who.index()];
                let k = looked.count_ones() as usize;
                debug_assert!(k <= usize::from(n));
                let p = s.pl_mut(who);
                let len = p.deck_len as usize;
                // The looked-at cards are the top k; rotate them to the bottom.
                p.pile[..len].rotate_right(k);
            }
            _ => {}
        }
        let p = s.pl_mut(who);
        let deck = p.deck_mask();
        p.known = p.known.map(|m| m & !deck);
        Self::check_deck(s, who);
    }

    /// Shuffles `q`'s deck with the state's seed of play, which it then draws anew (a search
    /// must not know future shuffles: determinization draws the seed again, `core::hidden`).
    fn shuffle_deck(s: &mut State, q: Seat) {
        use rand::Rng;
        let mut rng = crate::core::rng_from_seed(crate::core::mix_seed(&[
            s.seed,
            q.index() as u64,
            u64::from(s.turn),
        ]));
        let p = s.pl_mut(q);
        let n = p.deck_len as usize;
        p.pile[..n].shuffle(&mut rng);
        s.seed = rng.gen();
    }

    /// `look enemy hand`: the controller knows the opponent's hand (F-INFO-6).
    #[cold]
    pub(super) fn look(s: &mut State, who: Seat) {
        let hand = s.pl(who.other()).hand;
        s.pl_mut(who.other()).known[who.index()] |= hand;
    }

    /// The cards the controller of a pending `search` or `dig` is looking at (the invariants
    /// allow it to know them).
    pub(crate) fn looking(&self, s: &State, q: Seat) -> u64 {
        if let (Pick::Cards { .. }, Some(f)) = (s.pick, s.frames.iter().next()) {
            if (f.ability < PRAY_FRAME || f.ability == LIFE_TRIGGER) && f.who == q.index() as u8 {
                if let Some(Op::Do(Effect::Search(..) | Effect::Dig(..))) = self.frame_op(s, f) {
                    return s.pl(q).deck_mask();
                }
            }
        }
        0
    }

    /// Whether `q`'s card `i` is a Unit card (as opposed to an Event or a Flame card).
    #[allow(dead_code)]
    pub(crate) fn is_unit_card(&self, s: &State, q: Seat, i: u8) -> bool {
        self.card_of(s, q, i).ctype == CardType::Unit
    }
}
