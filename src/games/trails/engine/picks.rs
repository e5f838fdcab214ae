//! Effects on cards in any zone and of any kind (decision T-EFF-11): the cards they may name, the
//! choice of those cards one at a time (`target`, `up_to N`, `N`), moving cards between zones
//! (`move`, `search`, `dig`), `discard`, `look` and `pick`, with what each player knows of the
//! cards afterwards (T-INFO, decision T-INFO-6).

use super::super::action::Action;
use super::super::cards::{kind, CardType, Effect, Place, Target, TargetMode, Zone};
use super::super::state::{bit, flag, Bits, Cursor, Lid, Pending, State, That};
use super::events::Ev;
use super::views::side_matches;
use super::TrailsGame;
use crate::core::{ActionList, Seat};

/// Whether an effect leaves its cards in their zone (so a choice of several keeps instance order
/// and never takes a card twice).
fn stays(e: &Effect) -> bool {
    !matches!(
        e,
        Effect::Move(..) | Effect::Search(..) | Effect::Dig(..) | Effect::Ko(_)
    )
}

impl TrailsGame {
    /// The [`kind`]s of `q`'s card `i`: its type, and `arts` for a UNIT with arts.
    pub(crate) fn kinds_of(&self, id: Lid) -> u8 {
        let c = self.hot(id);
        let k = match c.ctype {
            CardType::Unit => kind::UNIT,
            CardType::Item => kind::ITEM,
            CardType::Event => kind::EVENT,
            CardType::Base => kind::BASE,
        };
        if c.arts.is_some() {
            k | kind::ARTS
        } else {
            k
        }
    }

    /// The cards of `q` in `t`'s zone that `me` may name (decision T-EFF-11): on the field its
    /// UNITs (not stunned, unless the filter asks for stunned ones) and ITEMs; in a hand, its
    /// owner's cards, or the opponent's that `me` knows (after `look`); in a homebase, its
    /// owner's, or the opponent's face-up ones; a trail's; in a deck, its owner's.
    pub(crate) fn zone_cards(&self, s: &State, me: Seat, q: Seat, t: &Target) -> u64 {
        let p = s.pl(q);
        match t.zone {
            None | Some(Zone::Field) => {
                let units = self.candidates(s, q, &t.filter);
                let items = p.field & !p.kinds.unit;
                match t.filter.kinds {
                    0 => units | items,
                    k => {
                        (if k & kind::UNIT != 0 { units } else { 0 })
                            | (if k & kind::ITEM != 0 { items } else { 0 })
                    }
                }
            }
            Some(Zone::Hand) if q == me => p.hand,
            Some(Zone::Hand) => p.hand & p.known[me.index()],
            Some(Zone::Homebase) if q == me => p.homebase,
            Some(Zone::Homebase) => p.face_up(),
            Some(Zone::Trail) => p.trail,
            Some(Zone::Deck) if q == me => p.deck_mask(),
            Some(Zone::Deck) => 0,
        }
    }

    /// Whether `q`'s card `i` is one `t` (of an ability of `me`'s card `src`) names, by its kinds
    /// and filter: on the field read as targets are, elsewhere on printed values.
    pub(crate) fn card_fits(
        &self,
        s: &State,
        me: Seat,
        src: u8,
        q: Seat,
        i: u8,
        t: &Target,
    ) -> bool {
        let id = s.pl(q).card[i as usize];
        if t.filter.kinds != 0 && self.kinds_of(id) & t.filter.kinds == 0 {
            return false;
        }
        if s.pl(q).field & bit(i) != 0 && !s.pl(q).has(i, flag::STUNNED) {
            self.card_matches(s, q, i, &t.filter, (me, src))
        } else {
            self.card_matches_printed(s, q, i, &t.filter, (me, src))
        }
    }

    /// The cards `t` names now for the ability at the front, a mask per seat.
    pub(crate) fn named_cards(&self, s: &State, c: &Cursor, t: &Target) -> [u64; 2] {
        let (me, src) = (c.controller(), c.source());
        let mut out = [0u64; 2];
        let mut one = |q: Seat, i: u8| {
            if self.zone_cards(s, me, q, t) & bit(i) != 0 && self.card_fits(s, me, src, q, i, t) {
                out[q.index()] |= bit(i);
            }
        };
        match t.mode {
            TargetMode::This => one(me, src),
            TargetMode::That => {
                if let Some((q, i)) = c.that.get() {
                    one(q, i)
                }
            }
            TargetMode::Role(r) => {
                if let Some((q, i)) = self.role(s, r) {
                    one(q, i)
                }
            }
            TargetMode::Choose | TargetMode::All => {
                for q in Seat::ALL {
                    if side_matches(t.side, me, q) {
                        for i in Bits(self.zone_cards(s, me, q, t)) {
                            if self.card_fits(s, me, src, q, i, t) {
                                out[q.index()] |= bit(i);
                            }
                        }
                    }
                }
                if t.mode == TargetMode::Choose {
                    // Decision T-EFF-12: the opponent's protected UNITs are not targets.
                    return self.targetable(s, c, out);
                }
            }
        }
        out
    }

    /// Resolves an effect on cards that is not T-EFF-1's one UNIT target (decision T-EFF-11):
    /// every named card, the one card of `self`/`that`/a role, or a choice of cards one at a
    /// time. Leaves the program counter on the effect while a choice is pending.
    pub(crate) fn card_effect(&self, s: &mut State, e: Effect, t: Target) {
        let c = s.queue[0];
        let me = c.controller();
        match e {
            Effect::Search(..) => {
                // The player looks through the deck (it is shuffled afterwards).
                let p = s.pl_mut(me);
                p.known[me.index()] |= p.deck_mask();
            }
            Effect::Dig(n, ..) => {
                let p = s.pl_mut(me);
                let k = n.min(p.deck_len);
                let top = p.deck_len as usize;
                for &i in &p.deck[top - k as usize..top] {
                    p.known[me.index()] |= bit(i);
                }
                s.pending = Pending::Pick {
                    left: t.max,
                    need: t.min,
                    after: k,
                };
                return self.pick_next(s);
            }
            _ => {}
        }
        if t.mode == TargetMode::Choose {
            s.pending = Pending::Pick {
                left: t.max,
                need: t.min,
                after: 0,
            };
            return self.pick_next(s);
        }
        let m = self.named_cards(s, &c, &t);
        for q in Seat::ALL {
            for i in Bits(m[q.index()]) {
                self.apply_card(s, &e, q, i);
            }
        }
        s.queue[0].pc += 1;
    }

    /// The cards the pending choice may take next.
    pub(crate) fn pick_candidates(&self, s: &State) -> [u64; 2] {
        let c = s.queue[0];
        let e = *self.effect_at(s, &c);
        let t = *e.target().expect("a choice of cards");
        let Pending::Pick { after, .. } = s.pending else {
            return [0; 2];
        };
        let mut m = self.named_cards(s, &c, &t);
        if let Effect::Dig(..) = e {
            // Only the looked-at cards, still on top.
            let p = s.pl(c.controller());
            let top = p.deck_len as usize;
            let mut looked = 0;
            for &i in &p.deck[top - after as usize..top] {
                looked |= bit(i);
            }
            m[c.controller().index()] &= looked;
            m[c.controller().other().index()] = 0;
        } else if stays(&e) {
            // Choices in increasing instance order: `after` is the first key still allowed.
            for q in Seat::ALL {
                let lo = i32::from(after) - 64 * q.index() as i32;
                m[q.index()] &= match lo {
                    i32::MIN..=0 => u64::MAX,
                    64.. => 0,
                    lo => !((1u64 << lo) - 1),
                };
            }
        }
        m
    }

    /// Goes on with a choice of cards: done when nothing more may or need be taken; the cards
    /// that must all be taken are taken without a decision.
    pub(crate) fn pick_next(&self, s: &mut State) {
        loop {
            let Pending::Pick { left, need, .. } = s.pending else {
                return;
            };
            let m = self.pick_candidates(s);
            let n = Seat::count_in(m);
            if left == 0 || n == 0 {
                return self.finish_pick(s);
            }
            if n > u32::from(need) {
                return;
            }
            // Every candidate must be taken: take the first.
            let (q, i) = Seat::first_in(m).expect("n > 0");
            self.take(s, q, i);
        }
    }

    /// Takes `q`'s card `i` for the pending choice.
    fn take(&self, s: &mut State, q: Seat, i: u8) {
        let Pending::Pick {
            left,
            need,
            mut after,
        } = s.pending
        else {
            unreachable!("a pending choice of cards")
        };
        let c = s.queue[0];
        let e = *self.effect_at(s, &c);
        if let Effect::Dig(..) = e {
            after -= 1;
        } else if stays(&e) {
            after = (q.index() as u8) * 64 + i + 1;
        }
        s.pending = Pending::Pick {
            left: left - 1,
            need: need.saturating_sub(1),
            after,
        };
        self.apply_card(s, &e, q, i);
    }

    /// The choice of cards is over: `search` shuffles the deck, `dig` puts the rest of the
    /// looked-at cards on the bottom in the order the player chooses; the program goes on.
    fn finish_pick(&self, s: &mut State) {
        let c = s.queue[0];
        let me = c.controller();
        let e = *self.effect_at(s, &c);
        let Pending::Pick { after, .. } = s.pending else {
            unreachable!("a pending choice of cards")
        };
        s.pending = Pending::None;
        s.queue[0].pc += 1;
        match e {
            Effect::Search(..) => self.shuffle_deck(s, me),
            Effect::Dig(..) if after >= 2 => s.pending = Pending::Bottom { left: after },
            Effect::Dig(..) if after == 1 => {
                let p = s.pl_mut(me);
                if let Some(i) = p.pop_top() {
                    p.push_bottom(i);
                }
            }
            _ => {}
        }
    }

    /// The legal choices of a pending choice of cards: field cards by instance, others by card
    /// (copies alike are one choice), and `pass` once enough are taken.
    pub(crate) fn legal_pick(&self, s: &State, out: &mut ActionList<Action>) {
        let Pending::Pick { need, .. } = s.pending else {
            return;
        };
        let m = self.pick_candidates(s);
        for q in Seat::ALL {
            let p = s.pl(q);
            for i in Bits(m[q.index()]) {
                if p.field & bit(i) != 0 {
                    out.push(Action::Choose { seat: q, inst: i });
                } else {
                    let a = Action::Pick {
                        seat: q,
                        card: p.card[i as usize],
                        up: p.homebase & bit(i) != 0 && p.has(i, flag::FACE_UP),
                    };
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
        if need == 0 {
            out.push(Action::Pass);
        }
    }

    /// Plays a choice of the pending choice of cards.
    pub(crate) fn play_pick(&self, s: &mut State, a: Action) {
        match a {
            Action::Choose { seat, inst } => self.take(s, seat, inst),
            Action::Pick { seat, card, up } => {
                let m = self.pick_candidates(s)[seat.index()];
                let p = s.pl(seat);
                let i = Bits(m)
                    .find(|&i| {
                        p.card[i as usize] == card
                            && (p.homebase & bit(i) != 0 && p.has(i, flag::FACE_UP)) == up
                    })
                    .expect("a legal choice");
                self.take(s, seat, i);
            }
            Action::Pass => return self.finish_pick(s),
            a => panic!("illegal action {a:?} in a choice of cards"),
        }
        self.pick_next(s);
    }

    /// What an effect does to one card it names (decision T-EFF-11); the card becomes `that`
    /// and counts for `x`.
    pub(crate) fn apply_card(&self, s: &mut State, e: &Effect, q: Seat, i: u8) {
        s.queue[0].that = That::of(q, i);
        s.x[q.index()] = s.x[q.index()].saturating_add(1);
        match *e {
            Effect::Move(t, to, place) => {
                // From a public zone, or from a hand the opponent looked at, both players see
                // the card go.
                let seen = self.is_public(s, q, i);
                let from_hand = t.zone == Some(Zone::Hand);
                self.move_card(s, q, i, to, place, seen, from_hand);
            }
            Effect::Search(_, to, place) | Effect::Dig(_, _, to, place) => {
                // "Reveal it".
                self.move_card(s, q, i, to, place, true, false);
            }
            Effect::Pick(_) => {}
            Effect::Ready(_) => {
                let p = s.pl_mut(q);
                p.clear(i, flag::ACTIONED);
                p.ep_paid &= !bit(i);
            }
            Effect::Action(_) => s.pl_mut(q).set(i, flag::ACTIONED),
            Effect::Ko(_) => self.to_trail(s, q, i),
            _ => self.apply_to_unit(s, e, q, i),
        }
    }

    /// Whether both players know which card `q`'s card `i` is.
    fn is_public(&self, s: &State, q: Seat, i: u8) -> bool {
        let p = s.pl(q);
        let open = (p.trail | p.field) & bit(i) != 0
            || (p.homebase & bit(i) != 0 && p.has(i, flag::FACE_UP));
        open || p.known[0] & p.known[1] & bit(i) != 0
    }

    /// Moves `q`'s card `i` into zone `to` (decision T-EFF-11). `seen`: both players see which
    /// card it is; otherwise only its owner does, and from the hand the opponent loses track of
    /// the hand (decision T-INFO-3). Leaving the field and being put into the homebase are
    /// events; onto the field it enters as T-PREP-3 says, not played.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn move_card(
        &self,
        s: &mut State,
        q: Seat,
        i: u8,
        to: Zone,
        place: Place,
        seen: bool,
        from_hand: bool,
    ) {
        let from_field = s.pl(q).field & bit(i) != 0;
        match to {
            Zone::Trail => return self.to_trail(s, q, i),
            Zone::Field => {
                self.take_out(s, q, i, seen, from_hand);
                if seen {
                    self.reveal(s, q, i);
                }
                return self.enter_field(s, q, i);
            }
            Zone::Homebase if from_hand && !seen => {
                return self.hand_to_homebase(s, q, i, place == Place::Actioned);
            }
            _ => {}
        }
        self.take_out(s, q, i, seen, from_hand);
        let p = s.pl_mut(q);
        p.reset_instance(i);
        match to {
            Zone::Hand => p.hand |= bit(i),
            Zone::Deck => {
                if place == Place::Bottom {
                    p.push_bottom(i);
                } else {
                    p.deck[p.deck_len as usize] = i;
                    p.deck_len += 1;
                }
            }
            _ => {
                p.homebase |= bit(i);
                if place == Place::Actioned {
                    p.set(i, flag::ACTIONED);
                }
            }
        }
        if seen {
            self.reveal(s, q, i);
        }
        if from_field {
            self.happen(
                s,
                Ev::card(super::super::cards::Trigger::Leaves, q, i).to(to),
            );
        }
        if to == Zone::Homebase {
            self.happen(
                s,
                Ev::card(super::super::cards::Trigger::Put, q, i).to(Zone::Homebase),
            );
        }
    }

    /// Takes `q`'s card `i` out of its zone (the deck closes up), with what leaving says.
    fn take_out(&self, s: &mut State, q: Seat, i: u8, seen: bool, from_hand: bool) {
        let from_field = s.pl(q).field & bit(i) != 0;
        let p = s.pl_mut(q);
        if from_hand && !seen {
            // Decision T-INFO-3: the opponent sees a card leave the hand but not which.
            p.known[q.other().index()] &= !p.hand;
        }
        p.hand &= !bit(i);
        p.homebase &= !bit(i);
        p.field &= !bit(i);
        p.trail &= !bit(i);
        let n = p.deck_len as usize;
        if let Some(k) = p.deck[..n].iter().position(|&d| d == i) {
            p.deck.copy_within(k + 1..n, k);
            p.deck_len -= 1;
            p.deck[p.deck_len as usize] = 0;
        }
        self.refresh_static(s, q, i);
        if from_field && !s.combat_mods.is_empty() {
            Self::forget_combat_mods(s, q, i);
        }
        if from_field && Self::marked_eot(s) {
            Self::forget_turn_marks(s, q, i);
        }
    }

    /// Shuffles `q`'s deck (`search`): nobody knows its order any more (T-INFO).
    pub(crate) fn shuffle_deck(&self, s: &mut State, q: Seat) {
        use rand::seq::SliceRandom;
        use rand::Rng;
        let mut rng = crate::core::rng_from_seed(s.seed);
        s.seed = rng.gen();
        let p = s.pl_mut(q);
        let n = p.deck_len as usize;
        p.deck[..n].shuffle(&mut rng);
        let m = p.deck_mask();
        p.known = [p.known[0] & !m, p.known[1] & !m];
    }

    /// The legal choices of [`Pending::Bottom`]: the looked-at cards on top, by card.
    pub(crate) fn legal_bottom(s: &State, me: Seat, left: u8, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        let top = p.deck_len as usize;
        for &i in &p.deck[top - left as usize..top] {
            let a = Action::PlanBottom(p.card[i as usize]);
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }

    /// Puts the chosen looked-at card on the bottom; the last one goes without a decision.
    pub(crate) fn play_bottom(s: &mut State, me: Seat, left: u8, id: Lid) {
        let p = s.pl_mut(me);
        let top = p.deck_len as usize;
        let lo = top - left as usize;
        let k = (lo..top)
            .find(|&k| p.card[p.deck[k] as usize] == id)
            .expect("a looked-at card");
        let i = p.deck[k];
        p.deck.copy_within(0..k, 1);
        p.deck[0] = i;
        if left <= 2 {
            // The last one follows.
            let top = p.deck_len as usize;
            let last = p.deck[top - 1];
            p.deck.copy_within(0..top - 1, 1);
            p.deck[0] = last;
            s.pending = Pending::None;
        } else {
            s.pending = Pending::Bottom { left: left - 1 };
        }
    }

    /// The legal choices of [`Pending::Discard`]: the discarding player's hand, by card.
    pub(crate) fn legal_discard(s: &State, q: Seat, out: &mut ActionList<Action>) {
        let p = s.pl(q);
        for i in Bits(p.hand) {
            let a = Action::Pick {
                seat: q,
                card: p.card[i as usize],
                up: false,
            };
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }

    /// Discards the chosen card: it goes openly into the trail (T-INFO-3: a copy the opponent
    /// knows, if any).
    pub(crate) fn play_discard(&self, s: &mut State, q: Seat, id: Lid) {
        let Pending::Discard { left, enemy } = s.pending else {
            unreachable!("a pending discard")
        };
        let i = self.hand_copy(s, q, id);
        self.to_trail(s, q, i);
        s.x[q.index()] = s.x[q.index()].saturating_add(1);
        s.pending = if left > 1 && s.pl(q).hand != 0 {
            Pending::Discard {
                left: left - 1,
                enemy,
            }
        } else {
            Pending::None
        };
    }

    /// Starts a discard of up to `n` cards by the controller (or with `enemy` its opponent);
    /// nothing from an empty hand.
    pub(crate) fn start_discard(&self, s: &mut State, n: u8, enemy: bool) {
        let me = s.queue[0].controller();
        let q = if enemy { me.other() } else { me };
        let held = s.pl(q).hand.count_ones() as u8;
        if n > 0 && held > 0 {
            s.pending = Pending::Discard {
                left: n.min(held),
                enemy,
            };
        }
    }
}
