//! The turn (M-TURN, M-ADJ, M-SET, M-EVT, M-ITM, M-FLIP, M-ATK): the engine advances through the
//! stages on its own until a player must decide, and plays the decisions.

use super::super::cards::{CardId, CardType, Kind, When};
use super::super::Action;
use super::TmntGame;
use crate::core::Seat;
use crate::games::tmnt::state::*;

impl TmntGame {
    /// Plays decision `a` (legal in `s`), then advances to the next decision.
    pub fn play(&self, s: &mut State, a: Action) {
        self.decide(s, a);
        self.advance(s);
    }

    /// Advances until a player must decide among two or more actions, or the game is over.
    /// M-TURN-2: a decision with exactly one legal action is taken without asking.
    pub fn advance(&self, s: &mut State) {
        loop {
            if s.winner.is_some() {
                s.step = Step::Over;
                return;
            }
            if !self.next(s) {
                continue;
            }
            match self.single_legal(s) {
                (Some(a), false) => self.decide(s, a),
                (None, _) => unreachable!("a decision without a legal action: {:?}", s.step),
                (Some(_), true) => return,
            }
        }
    }

    /// One piece of automatic work; `true` when a decision is awaited (`step`, `chooser` set).
    /// Texts come first: a choice a text waits for, the text resolving, the ordering of a group
    /// of "when" texts (M-EFFECTS-2), the group's texts in order, the next group (M-EFFECTS-3);
    /// then the turn goes on.
    fn next(&self, s: &mut State) -> bool {
        // Most of the time no text is under way: one test for all of them.
        let idle = s.pick == Pick::None
            && !s.cur.active()
            && (s.pending[0] | s.pending[1] | s.waiting[0] | s.waiting[1]) == 0
            && s.queue.is_empty();
        if !idle {
            if let Some(asks) = self.texts(s) {
                return asks;
            }
        }
        self.stage(s)
    }

    /// The texts' part of [`TmntGame::next`]: `None` when no text is under way.
    #[inline(never)]
    fn texts(&self, s: &mut State) -> Option<bool> {
        match s.pick {
            Pick::None => {}
            Pick::Discard => {
                s.step = Step::Discard;
                return Some(true);
            }
            Pick::Choose { .. } => {
                s.step = Step::Choose;
                return Some(true);
            }
            Pick::Salvage => {
                s.step = Step::Salvage;
                return Some(true);
            }
        }
        if s.cur.active() {
            self.resolve(s);
            return Some(false);
        }
        // M-EFFECTS: the turn player orders its texts, then the other player; then they
        // resolve, the turn player's first.
        for q in [s.active, s.active.other()] {
            if s.pending[q.index()] != 0 {
                s.step = Step::Order;
                s.chooser = q;
                return Some(true);
            }
        }
        if !s.queue.is_empty() {
            // M-EFFECTS-6: a text triggered n times resolves n times in a row.
            let e = s.queue[0];
            if e >> 8 > 1 {
                s.queue.as_mut_slice()[0] = e - (1 << 8);
            } else {
                s.queue.remove(0);
            }
            s.cur = Frame {
                who: (e >> 6 & 1) as u8,
                src: (e & 63) as u8,
                text: WHEN,
                next: 0,
            };
            return Some(false);
        }
        if s.waiting != [0, 0] {
            s.pending = s.waiting;
            s.pending_n = s.waiting_n;
            s.waiting = [0, 0];
            s.waiting_n = [[0; DECK]; 2];
            return Some(false);
        }
        None
    }

    /// The turn's stages: Adjust, Set, Event, Item, Flip, Attack (M-TURN-1). A stage that
    /// neither triggers a text, starts one, nor can end the game goes straight on to the next
    /// (`continue`); the others return to [`TmntGame::advance`], which looks at the texts and the
    /// winner first.
    fn stage(&self, s: &mut State) -> bool {
        loop {
            let a = s.active;
            let d = a.other();
            match s.stage {
                Stage::Adjust => {
                    // M-ADJ-2: the first player skips it on turn 1.
                    if s.turn == 1 && a == s.first {
                        s.stage = Stage::Shift;
                        continue;
                    }
                    // M-ADJ-1 (1): draw up to 5, or discard down to 5 (M-ADJ-4).
                    while s.pl(a).hand_len() < 5 {
                        if !Self::draw(s, a) {
                            return false;
                        }
                    }
                    s.stage = Stage::AdjustDraw;
                    let h = s.pl(a).hand_len();
                    if h > 5 {
                        s.pick = Pick::Discard;
                        s.discards = (h - 5) as u8;
                        s.discard_floor = 0;
                        s.chooser = a;
                        return false;
                    }
                }
                Stage::AdjustDraw => {
                    // M-ADJ-1 (2), M-ADJ-3: 1 + the empty Block Zones counted now.
                    let n = 1 + s.pl(a).empty_zones();
                    for _ in 0..n {
                        if !Self::draw(s, a) {
                            return false;
                        }
                    }
                    s.stage = Stage::Shift;
                }
                Stage::Shift => {
                    // M-SET-1 (1), M-SET-2: toward Block Zone 1, order and faces kept.
                    let p = s.pl_mut(a);
                    let mut k = 0;
                    for z in 0..ZONES {
                        if p.block[z] != NONE {
                            p.block[k] = p.block[z];
                            k += 1;
                        }
                    }
                    for z in k..ZONES {
                        p.block[z] = NONE;
                    }
                    s.stage = Stage::Set;
                }
                Stage::Set => {
                    // M-SET-1 (2), M-SET-4: fill the empty zones while the hand lasts.
                    let p = s.pl(a);
                    if p.empty_zones() > 0 && p.hand != 0 {
                        s.step = Step::Set;
                        s.chooser = a;
                        return true;
                    }
                    s.stage = Stage::Event;
                }
                Stage::Event => return Self::ask(s, Step::Event, a),
                Stage::Item => {
                    if s.event != NONE {
                        let i = std::mem::replace(&mut s.event, NONE);
                        s.pl_mut(a).trash |= 1 << i;
                        continue;
                    }
                    return Self::ask(s, Step::Item, a);
                }
                Stage::Pay => return Self::ask(s, Step::Pay, a),
                Stage::Flip => {
                    // M-FLIP-1, M-FLIP-2.
                    s.stage = Stage::AttackBegin;
                    let i = s.pl(a).block[0];
                    if i == NONE || s.pl(a).up & (1 << i) != 0 {
                        continue;
                    }
                    s.pl_mut(a).up |= 1 << i;
                    Self::reveal(s, a, i);
                    s.stage = Stage::FlipDone;
                    if self.card_of(s, a, i).flip {
                        s.cur = Frame::start(a, i, FLIP);
                        return false;
                    }
                }
                Stage::FlipDone => {
                    // M-FLIP-1, M-FLIP-3: only a Character or an Attack card stays.
                    let i = s.pl(a).block[0];
                    if i != NONE
                        && s.pl(a).up & (1 << i) != 0
                        && !matches!(
                            self.card_of(s, a, i).ctype,
                            CardType::Character | CardType::Attack
                        )
                    {
                        Self::to_trash(s, a, i);
                    }
                    s.stage = Stage::AttackBegin;
                }
                Stage::AttackBegin => {
                    // M-ATK-1: only with a face-up Character or Attack card on Block Zone 1.
                    match self.attack_card_on_block1(s, a) {
                        None => s.stage = Stage::EndTurn,
                        Some(t) => {
                            self.trigger_one(s, a, When::Attack);
                            self.trigger_one(s, d, When::Defend);
                            if t == CardType::Character {
                                let c = self.card_of(s, a, s.pl(a).block[0]);
                                s.attrs_used = 1 << c.attr;
                                s.plain_floor = NONE;
                                s.stage = Stage::AttackStep;
                            } else {
                                // M-ATK-2: an Attack card on Block Zone 1 skips the Attack
                                // step; no card was placed, so there is no Counter step (M-ATK-7).
                                s.stage = Stage::Forward;
                            }
                            return false;
                        }
                    }
                }
                Stage::AttackStep => {
                    // M-ATK-3: at most 3.
                    if s.pl(a).attack_len as usize >= ATTACK_ZONE {
                        s.stage = Stage::Counter;
                        continue;
                    }
                    return Self::ask(s, Step::Attack, a);
                }
                Stage::Counter => {
                    // M-ATK-7: only if an Attack card was placed.
                    if s.pl(a).attack_len == 0 {
                        s.stage = Stage::Forward;
                        continue;
                    }
                    return Self::ask(s, Step::Counter, d);
                }
                Stage::Forward => {
                    self.forward(s);
                    return false;
                }
                Stage::FlipTexts => {
                    // M-ATK-11: the defender's cards turned face up by the damage, from Block
                    // Zone 1.
                    while s.flipped != 0 {
                        let z = s.flipped.trailing_zeros() as usize;
                        s.flipped &= !(1 << z);
                        let i = s.pl(d).block[z];
                        if i != NONE && self.card_of(s, d, i).flip {
                            s.cur = Frame::start(d, i, FLIP);
                            return false;
                        }
                    }
                    s.stage = Stage::CounterTrash;
                }
                Stage::CounterTrash => {
                    // M-ATK-12: a bigger counter trashes the difference from the attacker's deck.
                    s.stage = Stage::Result;
                    if s.counter > s.total {
                        self.trash_top(s, a, (s.counter - s.total) as u32);
                        return false;
                    }
                }
                Stage::Result => {
                    // M-ATK-13: the Result step begins; M-ATK-14 looked at the Forward step only.
                    s.forward = false;
                    self.trigger_one(s, a, When::Result);
                    self.trigger_one(s, d, When::Result);
                    s.stage = Stage::KeepActive;
                    return false;
                }
                Stage::KeepActive | Stage::KeepOther => {
                    let q = if s.stage == Stage::KeepActive { a } else { d };
                    // M-ATK-14: a player that trashed deck cards in the Forward step keeps none.
                    if s.pl(q).trashed {
                        s.pl_mut(q).kept = NONE;
                        Self::next_keep(s);
                        continue;
                    }
                    s.step = Step::Keep;
                    s.chooser = q;
                    return true;
                }
                Stage::Cleanup => {
                    // M-ATK-13: every other face-up card of the Block and Attack Zones to the
                    // Trash.
                    for p in &mut s.p {
                        let mut gone = 0u64;
                        for z in 0..ZONES {
                            let i = p.block[z];
                            if i != NONE && p.up & (1 << i) != 0 && z as u8 != p.kept {
                                gone |= 1 << i;
                                p.block[z] = NONE;
                            }
                        }
                        for &i in p.attack_zone() {
                            gone |= 1 << i;
                        }
                        p.attack = [NONE; ATTACK_ZONE];
                        p.attack_len = 0;
                        Self::all_to_trash(p, gone);
                        p.kept = NONE;
                        p.trashed = false;
                    }
                    s.stage = Stage::EndTurn;
                }
                Stage::EndTurn => {
                    // M-ATK-16: the power changes end with the turn. M-WIN-4: no turn limit —
                    // every Adjust phase draws, so the decks run out.
                    for p in &mut s.p {
                        p.temp = [0; DECK];
                        p.bonus = 0;
                    }
                    s.turn = s.turn.saturating_add(1);
                    s.active = d;
                    s.stage = Stage::Adjust;
                }
            }
        }
    }

    #[inline]
    fn ask(s: &mut State, step: Step, q: Seat) -> bool {
        s.step = step;
        s.chooser = q;
        true
    }

    fn next_keep(s: &mut State) {
        s.stage = if s.stage == Stage::KeepActive {
            Stage::KeepOther
        } else {
            Stage::Cleanup
        };
    }

    /// M-ATK-8..10: the damage, the flips, the overflow to the deck; `when damaged` triggers.
    fn forward(&self, s: &mut State) {
        let a = s.active;
        let d = a.other();
        s.forward = true;
        s.forwards = s.forwards.wrapping_add(1);
        let (total, counter) = self.attack_powers(s);
        s.total = total.clamp(-9999, 9999) as i16;
        s.counter = counter.clamp(-9999, 9999) as i16;
        s.flipped = 0;
        s.stage = Stage::FlipTexts;
        let dmg = total - counter;
        if dmg <= 0 {
            return;
        }
        // M-ATK-9: Block cards from Block Zone 1, face up or down, one point each; empty zones
        // are skipped.
        let mut left = dmg;
        for z in 0..ZONES {
            if left == 0 {
                break;
            }
            let i = s.pl(d).block[z];
            if i == NONE {
                continue;
            }
            left -= 1;
            if s.pl(d).up & (1 << i) == 0 {
                s.pl_mut(d).up |= 1 << i;
                Self::reveal(s, d, i);
                s.flipped |= 1 << z;
            }
        }
        self.trigger_one(s, d, When::Damaged);
        // M-ATK-10: the rest from the deck.
        if left > 0 {
            self.trash_top(s, d, left as u32);
        }
    }

    /// `q`'s "when" texts of clause `w` trigger: its Items and its face-up characters on Block
    /// Zones (M-EFFECTS; they wait for the next group, M-EFFECTS-3).
    pub(super) fn trigger_one(&self, s: &mut State, q: Seat, w: When) {
        let p = s.pl(q);
        let (items, chars) = (
            &self.db.sets.when_items[w as usize],
            &self.db.sets.when_chars[w as usize],
        );
        let mut m = 0u64;
        for i in Bits(p.items) {
            m |= u64::from(items.contains(p.card[i as usize])) << i;
        }
        // Face-up marks are on Block Zones only (`invariants`), so `up` is the face-up Block cards.
        for i in Bits(p.up) {
            m |= u64::from(chars.contains(p.card[i as usize])) << i;
        }
        s.waiting[q.index()] |= m;
        for i in Bits(m) {
            let n = &mut s.waiting_n[q.index()][i as usize];
            *n = n.saturating_add(1);
        }
    }

    /// Plays one decision. The common ones (M-SET-3, passing) here, the rest out of line.
    #[inline]
    pub(super) fn decide(&self, s: &mut State, a: Action) {
        match (s.step, a) {
            (Step::Set, Action::Set(id)) => Self::set(s, id),
            (Step::Event, Action::Pass) => s.stage = Stage::Item,
            (Step::Item, Action::Pass) => s.stage = Stage::Flip,
            _ => self.decide_other(s, a),
        }
    }

    /// M-SET-3: the card onto the lowest empty Block Zone, face down.
    fn set(s: &mut State, id: CardId) {
        let q = s.chooser;
        let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal set");
        let p = s.pl_mut(q);
        let z = p
            .block
            .iter()
            .position(|&x| x == NONE)
            .expect("an empty zone");
        p.block[z] = i;
        p.hand &= !(1 << i);
        // M-INFO-2: face down, the opponent follows the zone, not the card — and it cannot tell
        // which card of the hand went there, so a card it knew in the hand (a salvaged one) is
        // known no more, wherever it is now.
        let other = q.other().index();
        p.known[other] &= !(p.hand | 1 << i);
    }

    #[inline(never)]
    fn decide_other(&self, s: &mut State, a: Action) {
        let q = s.chooser;
        match (s.step, a) {
            (Step::Discard, Action::Discard(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal discard");
                Self::to_trash(s, q, i);
                s.discard_floor = id;
                s.discards -= 1;
                if s.discards == 0 || s.pl(q).hand == 0 {
                    s.discards = 0;
                    s.pick = Pick::None;
                    if s.cur.active() {
                        s.cur.next += 1;
                    }
                }
            }
            (Step::Event, Action::Event(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal event");
                // M-EVT-1, M-EVT-2, M-EVT-3: placed face up, its text resolves, then it goes to
                // the Trash (the Item stage does that first, `Stage::Item`), so its own text
                // cannot `salvage` it.
                Self::reveal(s, q, i);
                s.pl_mut(q).hand &= !(1 << i);
                s.event = i;
                s.cur = Frame::start(q, i, PLAY);
                s.stage = Stage::Item;
            }
            (Step::Item, Action::Item(id)) => {
                s.item = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal item");
                s.stage = Stage::Pay;
            }
            (Step::Pay, Action::Pay(id)) => {
                // M-ITM-1: the Item to the Item Zone, the other card to the Trash.
                let item = s.item;
                let hand = s.pl(q).hand & !(1 << item);
                let i = Self::instance_of(s, q, hand, id).expect("legal pay");
                Self::to_trash(s, q, i);
                let p = s.pl_mut(q);
                p.hand &= !(1 << item);
                p.items |= 1 << item;
                Self::reveal(s, q, item);
                s.item = NONE;
                s.stage = Stage::Flip;
            }
            (Step::Attack, Action::Attack(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal attack");
                let c = self.db.card(id);
                s.attrs_used |= 1 << c.attr;
                let text = c.play;
                // M-ATK-5: a <Play> text resolves once, as its card is placed.
                Self::place(s, q, i);
                // M-ATK-6: the canonical order of cards without <Play>.
                if text {
                    s.plain_floor = NONE;
                    s.cur = Frame::start(q, i, PLAY);
                } else {
                    s.plain_floor = id;
                }
            }
            (Step::Attack, Action::Pass) => s.stage = Stage::Counter,
            (Step::Counter, Action::Counter(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal counter");
                Self::place(s, q, i);
                if self.db.card(id).play {
                    s.cur = Frame::start(q, i, PLAY);
                }
                s.stage = Stage::Forward;
            }
            (Step::Counter, Action::Pass) => s.stage = Stage::Forward,
            (Step::Keep, Action::Keep(z)) => {
                s.pl_mut(q).kept = z;
                Self::next_keep(s);
            }
            (Step::Keep, Action::Pass) => {
                s.pl_mut(q).kept = NONE;
                Self::next_keep(s);
            }
            (Step::Order, Action::Order(id)) => {
                let i = Self::instance_of(s, q, s.pending[q.index()], id).expect("legal order");
                s.pending[q.index()] &= !(1 << i);
                let times = std::mem::take(&mut s.pending_n[q.index()][i as usize]);
                s.queue
                    .push(u16::from(times) << 8 | (q.index() as u16) << 6 | u16::from(i));
            }
            (Step::Choose, Action::Choose(code)) => self.chosen(s, code),
            (Step::Salvage, Action::Salvage(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).trash, id).expect("legal salvage");
                // M-INFO-2: a public card put into a hand stays known to both players.
                let p = s.pl_mut(q);
                p.trash &= !(1 << i);
                p.milled &= !(1 << i);
                p.hand |= 1 << i;
                s.pick = Pick::None;
                s.cur.next += 1;
            }
            (step, a) => panic!("{a:?} is not a legal action at {step:?}"),
        }
    }

    /// Places `q`'s hand card `i` in its Attack Zone, face up (M-ATK-3, M-ATK-7).
    fn place(s: &mut State, q: Seat, i: u8) {
        Self::reveal(s, q, i);
        let p = s.pl_mut(q);
        p.hand &= !(1 << i);
        p.attack[p.attack_len as usize] = i;
        p.attack_len += 1;
    }

    /// Whether `q` may place attack card `id` from hand now (M-ATK-3, M-ATK-4, M-ATK-6).
    pub(super) fn placeable(&self, s: &State, q: Seat, id: u8) -> bool {
        let c = self.db.card(id);
        if c.ctype != CardType::Attack || s.attrs_used & (1 << c.attr) != 0 {
            return false;
        }
        let ok_kind = match c.kind {
            Kind::Normal | Kind::Counter => true,
            Kind::Forceful => {
                let ch = s.pl(q).block[0];
                ch != NONE && c.combo.contains(&self.card_of(s, q, ch).title)
            }
            _ => false,
        };
        ok_kind && (c.play || s.plain_floor == NONE || id > s.plain_floor)
    }
}
