//! Events abilities trigger on beyond a card's own (decisions T-EFF-6 to T-EFF-9): another card
//! becoming stunned, leaving the field, being played or put into the homebase, a phase or step
//! starting or ending. A card listens while it is an active source (T-EFF-7); a card's own
//! "stunned" and "leaves" abilities look back at the moment of the event.
//!
//! Every event point costs one test of a per-match mask (`event_mask`, `phase_mask`, from
//! [`TrailsGame::listens`] and the cards' own abilities): the search through the cards runs only
//! when a card of the two decks has an ability for that kind of event.

use super::super::cards::{kind, About, CardType, Phase, Trigger, Zone};
use super::super::state::{bit, flag, Bits, Cursor, State, That};
use super::views::side_matches;
use super::TrailsGame;
use crate::core::Seat;

/// One thing that happened, that abilities may trigger on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ev {
    pub trigger: Trigger,
    /// The card it happened to (owner, instance); none for a phase.
    pub card: Option<(Seat, u8)>,
    /// `that` card of the abilities it triggers: the card it happened to, or for `stuns` the one
    /// stunned.
    pub that: That,
    /// The card was played as arts (`played … arts`).
    pub arts: bool,
    /// Where the card went (`leaves to trail`, `put … to homebase`).
    pub to: Option<Zone>,
    /// The phase or step that starts or ends, and whose it is.
    pub phase: Option<(Phase, Seat)>,
}

impl Ev {
    /// An event that happened to `q`'s card `i`.
    pub fn card(trigger: Trigger, q: Seat, i: u8) -> Ev {
        Ev {
            trigger,
            card: Some((q, i)),
            that: That::of(q, i),
            arts: false,
            to: None,
            phase: None,
        }
    }

    /// The start or end (`trigger`) of `phase`, `whose`.
    pub fn phase(trigger: Trigger, phase: Phase, whose: Seat) -> Ev {
        Ev {
            trigger,
            card: None,
            that: That::NONE,
            arts: false,
            to: None,
            phase: Some((phase, whose)),
        }
    }

    pub fn to(self, z: Zone) -> Ev {
        Ev {
            to: Some(z),
            ..self
        }
    }
}

impl TrailsGame {
    /// An event happened: the card's own ability for it (when the event is about a card) and
    /// then, when some card of the match listens for its kind, the abilities of the active
    /// sources that listen (decision T-EFF-6).
    #[inline]
    pub(crate) fn happen(&self, s: &mut State, ev: Ev) {
        if self.event_mask & ev.trigger.bit() == 0 {
            return;
        }
        self.happened(s, ev);
    }

    /// [`Self::happen`] for an event that some card of the match has an ability for. Out of
    /// line (one call where there were two): a caller whose event is its last step needs no
    /// frame for it.
    #[inline(never)]
    fn happened(&self, s: &mut State, ev: Ev) {
        let bit = ev.trigger.bit();
        if self.self_events & bit != 0 {
            if let Some((q, i)) = ev.card {
                self.queue_own(s, q, i, ev);
            }
        }
        if self.listens & bit != 0 {
            self.queue_listeners(s, ev);
        }
    }

    /// The start or end of a phase or step.
    #[inline]
    pub(crate) fn phase_event(&self, s: &mut State, trigger: Trigger, phase: Phase, whose: Seat) {
        if self.phase_mask & trigger.bit() == 0 {
            return;
        }
        self.phase_happened(s, trigger, phase, whose);
    }

    /// [`Self::phase_event`] for a phase or step event that some card of the match has an
    /// ability for: one out-of-line call (as [`Self::happened`]).
    #[inline(never)]
    fn phase_happened(&self, s: &mut State, trigger: Trigger, phase: Phase, whose: Seat) {
        if !s.later.is_empty() {
            self.queue_later(s, Ev::phase(trigger, phase, whose));
        }
        if self.listens & trigger.bit() != 0 {
            self.queue_listeners(s, Ev::phase(trigger, phase, whose));
        }
    }

    /// Decision T-EFF-10: the delayed triggers waiting for `ev` queue, in the order they were
    /// set up, before the abilities that listen for it; each triggers once.
    #[cold]
    #[inline(never)]
    fn queue_later(&self, s: &mut State, ev: Ev) {
        let mut k = 0;
        while k < s.later.len() {
            let c = s.later.as_slice()[k];
            let program = &self.card(self.cursor_card(s, &c)).abilities[c.ability as usize].program;
            let (trigger, about) = program.later[c.later as usize - 1].0;
            if trigger == ev.trigger && self.about_ok(s, c.controller(), c.source(), &about, &ev) {
                s.later.remove(k);
                Self::push_cursor(s, c);
            } else {
                k += 1;
            }
        }
    }

    /// `q`'s card `i`'s own ability for `ev` (`stunned:`, `leaves to trail:`): it triggers
    /// wherever the card is now (decision T-EFF-7: it looks back at the event).
    #[cold]
    #[inline(never)]
    fn queue_own(&self, s: &mut State, q: Seat, i: u8, ev: Ev) {
        let id = self.cid(s, q, i);
        let Some((k, ab)) = self.card(id).ability(ev.trigger) else {
            return;
        };
        if ab.about.to.is_some_and(|z| Some(z) != ev.to) {
            return;
        }
        if ab.gated() && !self.gate_open(s, q, i, ab, That::NONE) {
            return;
        }
        if ab.once {
            s.pl_mut(q).once |= bit(i);
        }
        Self::push_cursor(s, Cursor::new(q, i, k as u8, That::NONE));
    }

    /// The cards of `q` whose abilities work now (decision T-EFF-7): non-stunned UNITs and ITEMs
    /// on the field (T-STATE-2), face-up BASEs in the homebase (T-RES-4).
    pub(crate) fn ability_sources(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        let mut m = p.field & !p.flagged(flag::STUNNED);
        for i in Bits(p.homebase & p.flagged(flag::FACE_UP)) {
            if self.hot(p.card[i as usize]).ctype == CardType::Base {
                m |= bit(i);
            }
        }
        m
    }

    /// Decision T-EFF-6: the listening abilities an event triggers queue after the card's own,
    /// the initiative player's cards first, each player's in instance order and each card's in
    /// the order of its text.
    #[cold]
    #[inline(never)]
    fn queue_listeners(&self, s: &mut State, ev: Ev) {
        for l in [s.initiative, s.initiative.other()] {
            for i in Bits(self.ability_sources(s, l)) {
                let id = self.cid(s, l, i);
                if self.listen_of[id] & ev.trigger.bit() == 0 {
                    continue;
                }
                for (k, ab) in self.card(id).abilities.iter().enumerate() {
                    if ab.trigger != ev.trigger
                        || !ab.listens()
                        || !self.about_ok(s, l, i, &ab.about, &ev)
                        || (ab.gated() && !self.gate_open(s, l, i, ab, ev.that))
                    {
                        continue;
                    }
                    if ab.once {
                        s.pl_mut(l).once |= bit(i);
                    }
                    Self::push_cursor(s, Cursor::new(l, i, k as u8, ev.that));
                }
            }
        }
    }

    /// Whether an event is one that `l`'s card `src`'s listening ability is about.
    pub(super) fn about_ok(&self, s: &State, l: Seat, src: u8, about: &About, ev: &Ev) -> bool {
        if about.to.is_some() && about.to != ev.to {
            return false;
        }
        match (about.phase, ev.phase) {
            (Some((ph, side)), Some((at, whose))) => {
                if ph != at || !side_matches(side, l, whose) {
                    return false;
                }
            }
            (None, None) => {}
            _ => return false,
        }
        match (&about.subject, ev.card) {
            (Some((side, f)), Some((q, i))) => {
                if !side_matches(*side, l, q) {
                    return false;
                }
                let c = self.hot(self.cid(s, q, i));
                let k = if ev.arts {
                    kind::ARTS
                } else {
                    match c.ctype {
                        CardType::Unit => kind::UNIT,
                        CardType::Item => kind::ITEM,
                        CardType::Event => kind::EVENT,
                        CardType::Base => kind::BASE,
                    }
                };
                if f.kinds != 0 && f.kinds & k == 0 {
                    return false;
                }
                // A card on the field is read as targets are; elsewhere on printed values.
                if s.pl(q).field & bit(i) != 0 && !s.pl(q).has(i, flag::STUNNED) {
                    self.card_matches(s, q, i, f, (l, src))
                } else {
                    self.card_matches_printed(s, q, i, f, (l, src))
                }
            }
            (None, _) => ev.card.is_none(),
            (Some(_), None) => false,
        }
    }

    /// Queues an ability. Decision T-EFF-9: at most 16 wait at once; an ability that would be
    /// the 17th does not trigger.
    pub(crate) fn push_cursor(s: &mut State, c: Cursor) {
        if s.queue.len() < s.queue.capacity() {
            s.queue.push(c);
        }
    }
}
