//! Texts (M-EFFECTS): the steps of the text resolving now, one at a time; a choice pauses it
//! (M-EFFECTS-4) and the decision resumes it. A text is a program (`core::lang::program`):
//! effects, `if` conditions, `choose` and `may` decisions (M-EFFECTS-10), `later` texts.

use super::super::cards::{
    class_of, zone, Amount, CardType, Counted, Dest, Effect, Filter, Op, Target,
};
use super::{side_ok, TmntGame};
use crate::core::lang::{Side, TargetMode};
use crate::core::Seat;
use crate::games::tmnt::state::*;

impl TmntGame {
    /// The steps of frame `f`'s text.
    pub fn frame_ops(&self, s: &State, f: Frame) -> &[Op] {
        let c = self.card_of(s, Seat::from_index(f.who as usize), f.src);
        let Some(a) = c.ability(f.text & 15) else {
            return &[];
        };
        if f.text & LATER != 0 {
            a.program
                .later
                .get(usize::from(f.text >> 4 & 7))
                .map_or(&[][..], |(_, ops)| ops.as_slice())
        } else {
            &a.program.ops
        }
    }

    /// The effect resolving now (the one a choice waits for).
    pub fn current_effect(&self, s: &State) -> Option<Effect> {
        if !s.cur.active() {
            return None;
        }
        match self.frame_ops(s, s.cur).get(s.cur.next as usize) {
            Some(Op::Do(e)) => Some(*e),
            _ => None,
        }
    }

    /// Resolves the current text until it is done or waits for a choice. M-EFFECTS-5: a part
    /// with nothing to act on does nothing, and the rest still resolves.
    pub(super) fn resolve(&self, s: &mut State) {
        // The text stays the same while it resolves (only `next` moves).
        let ops = self.frame_ops(s, s.cur);
        loop {
            if s.winner.is_some() {
                return;
            }
            let f = s.cur;
            let who = Seat::from_index(f.who as usize);
            let e = match ops.get(f.next as usize) {
                None => {
                    s.cur = Frame::IDLE;
                    if s.later.next & READY != 0 {
                        // M-EFFECTS-12: its card went to the Trash while this text resolved.
                        s.cur = Frame { next: 0, ..s.later };
                        s.later = Frame::IDLE;
                    }
                    return;
                }
                Some(Op::Do(e)) => *e,
                Some(op) => {
                    if self.step_op(s, op, ops) {
                        continue;
                    }
                    return;
                }
            };
            match e {
                Effect::Draw(n) => {
                    let n = self.amount(s, who, f.src, n);
                    let mut k = 0;
                    for _ in 0..n {
                        if !Self::draw(s, who) {
                            break;
                        }
                        k += 1;
                    }
                    Self::set_x(s, who, k);
                }
                Effect::Trash { enemy, n } => {
                    // M-WIN-3: one deck per effect, one card at a time.
                    let q = if enemy { who.other() } else { who };
                    let n = self.amount(s, who, f.src, n);
                    let k = self.trash_top(s, q, n.max(0) as u32);
                    Self::set_x(s, q, k);
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
                        s.chooser = q;
                        return;
                    }
                }
                Effect::Salvage(filter) => {
                    if self.salvage_any(s, who, &filter) {
                        s.pick = Pick::Salvage;
                        s.chooser = who;
                        return;
                    }
                }
                Effect::Power(t, v) => match t.mode {
                    TargetMode::This => {
                        if s.pl(who).field_up() & (1 << f.src) != 0
                            && (t.zone == zone::PLAY || self.in_zone(s, who, f.src, t.zone))
                        {
                            let v = self.amount(s, who, f.src, v);
                            Self::add_power(s, who, f.src, v);
                        }
                    }
                    TargetMode::All => {
                        let v = self.amount(s, who, f.src, v);
                        for q in Seat::ALL {
                            if !side_ok(t.side, who, q) {
                                continue;
                            }
                            for i in Bits(s.pl(q).field_up()) {
                                if self.matches_in(s, q, i, &t, who, f.src) {
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
                                if self.matches_in(s, q, i, &t, who, f.src) {
                                    mask[q.index()] |= 1 << i;
                                }
                            }
                        }
                        if mask != [0, 0] {
                            s.pick = Pick::Choose { mask, opt: false };
                            s.chooser = who;
                            return;
                        }
                    }
                    TargetMode::That | TargetMode::Role(_) => {
                        let m = self.described(s, who, f.src, &t, false);
                        let v = self.amount(s, who, f.src, v);
                        for q in Seat::ALL {
                            for i in Bits(m[q.index()] & s.pl(q).field_up()) {
                                Self::add_power(s, q, i, v);
                            }
                        }
                    }
                },
                Effect::Bonus(v) => {
                    let p = s.pl_mut(who);
                    p.bonus = p.bonus.saturating_add(v);
                }
                _ => {
                    if !self.effect_other(s, who, f.src, e) {
                        return;
                    }
                }
            }
            s.cur.next += 1;
        }
    }

    /// A step of a program that is not an effect (M-EFFECTS-10): `true` when the text goes on,
    /// `false` when it waits for a decision.
    #[inline(never)]
    fn step_op(&self, s: &mut State, op: &Op, ops: &[Op]) -> bool {
        let f = s.cur;
        let who = Seat::from_index(f.who as usize);
        match op {
            Op::Do(_) => unreachable!("an effect is resolved by `resolve`"),
            Op::Unless(c, to) => {
                let holds = self.holds(s, who, f.src, c);
                s.cur.next = if holds { f.next + 1 } else { *to };
                true
            }
            Op::Jump(to) => {
                s.cur.next = *to;
                true
            }
            Op::Choose(n) => {
                s.pick = Pick::Mode { n: *n };
                s.chooser = who;
                false
            }
            Op::May(skip) => {
                // "You may A. If you do, B": yes is offered only when A can be done
                // (M-EFFECTS-10); otherwise the answer is no.
                let first = match ops.get(usize::from(f.next) + 1) {
                    Some(Op::Do(e)) => Some(*e),
                    _ => None,
                };
                if first.is_some_and(|e| self.can_do(s, who, f.src, e)) {
                    s.pick = Pick::May { skip: *skip };
                    s.chooser = who;
                    false
                } else {
                    s.cur.next = *skip;
                    true
                }
            }
            Op::Later(k) => {
                s.later = Frame {
                    who: f.who,
                    src: f.src,
                    text: f.text & 15 | LATER | k << 4,
                    next: 0,
                };
                s.cur.next += 1;
                true
            }
        }
    }

    /// Whether effect `e` of `who`'s card `src` would do something now (the "you may" part of
    /// `may`).
    pub(crate) fn can_do(&self, s: &State, who: Seat, src: u8, e: Effect) -> bool {
        match e {
            Effect::Discard { enemy, .. } => {
                let q = if enemy { who.other() } else { who };
                s.pl(q).hand != 0
            }
            Effect::Move(t, dest) => {
                let (q, m) = self.move_candidates(s, who, src, &t, dest);
                let _ = q;
                m != 0
            }
            Effect::Salvage(f) => self.salvage_any(s, who, &f),
            Effect::Draw(_) | Effect::Arrange(_) | Effect::Search(_) | Effect::Dig(..) => {
                s.pl(who).deck_len > 0
            }
            _ => true,
        }
    }

    /// The number `a` is now, for a text of `who`'s card `src`.
    #[inline(always)]
    pub(crate) fn amount(&self, s: &State, who: Seat, src: u8, a: Amount) -> i16 {
        match a {
            Amount::Num(n) => n,
            _ => self.counted(s, who, src, a),
        }
    }

    /// A counted amount now.
    #[inline(never)]
    fn counted(&self, s: &State, who: Seat, src: u8, a: Amount) -> i16 {
        match a {
            Amount::Num(n) => n,
            Amount::Per { each, of, max } => {
                use crate::core::lang::eval::Judge;
                let j = self.judge(s, who, src);
                let k = match of {
                    Counted::Cards(t) => j.count(&t),
                    Counted::Quantity(q, side) => j.quantity(q, side),
                    Counted::X(side) => j.x(side),
                };
                let n = i32::from(each) * k;
                let n = match max {
                    Some(m) if each >= 0 => n.min(i32::from(m)),
                    Some(m) => n.max(-i32::from(m)),
                    None => n,
                };
                n.clamp(-999, 999) as i16
            }
        }
    }

    #[inline]
    fn set_x(s: &mut State, q: Seat, k: u32) {
        s.x = [0, 0];
        s.x[q.index()] = k.min(255) as u8;
    }

    #[inline]
    fn add_power(s: &mut State, q: Seat, i: u8, v: i16) {
        let t = &mut s.pl_mut(q).temp[i as usize];
        *t = t.saturating_add(v);
    }

    /// Whether `q`'s instance `i` is in zone `z` (a [`zone`] id).
    fn in_zone(&self, s: &State, q: Seat, i: u8, z: u8) -> bool {
        Self::zone_mask(s, q, z) & (1 << i) != 0
    }

    /// Whether `q`'s face-up card `i` in play is in `t`'s zone and passes its filter, for a
    /// text of `who`'s card `src`.
    fn matches_in(&self, s: &State, q: Seat, i: u8, t: &Target, who: Seat, src: u8) -> bool {
        if t.zone != zone::PLAY && !self.in_zone(s, q, i, t.zone) {
            return false;
        }
        if Self::plain_filter(&t.filter) {
            self.matches(s, q, i, &t.filter, who, src)
        } else {
            self.passes(s, q, i, &t.filter, (who, src), false)
        }
    }

    /// Whether a filter asks only what the plain texts ask (types, attributes, power, `other`).
    #[inline]
    fn plain_filter(f: &Filter) -> bool {
        f.kinds | f.not_kinds | f.face == 0 && f.attacking.is_none() && !f.those && !f.has_titles()
    }

    /// The card ids of `q`'s Trash a `salvage` with `filter` may take (printed power).
    #[inline]
    pub fn salvage_ids(&self, s: &State, q: Seat, filter: &Filter) -> super::IdSet {
        Self::ids_of(s, q, s.pl(q).trash).and(&self.db.matching(filter))
    }

    /// Whether [`TmntGame::salvage_ids`] has an id: the walk of the Trash stops at the first
    /// card that matches.
    #[inline]
    pub fn salvage_any(&self, s: &State, q: Seat, filter: &Filter) -> bool {
        let set = self.db.matching(filter);
        let p = s.pl(q);
        Bits(p.trash).any(|i| set.contains(p.card[i as usize]))
    }

    /// `target … card`: the chosen card (`seat << 6 | instance`) gets the effect.
    pub(super) fn chosen(&self, s: &mut State, code: u8) {
        let q = Seat::from_index(usize::from(code >> 6));
        let i = code & 63;
        let who = Seat::from_index(usize::from(s.cur.who));
        match self.current_effect(s) {
            Some(Effect::Power(_, v)) => {
                let v = self.amount(s, who, s.cur.src, v);
                Self::add_power(s, q, i, v);
            }
            Some(Effect::Move(_, dest)) => {
                self.move_card(s, q, i, dest);
                Self::set_x(s, q, 1);
            }
            Some(Effect::Peek(_)) => {
                s.pl_mut(q).known[who.index()] |= 1 << i;
            }
            _ => {}
        }
        s.pick = Pick::None;
        s.cur.next += 1;
    }

    // ---- the card language's other effects (cold) ----

    /// The effects beyond the plain ones; `false` when the text waits for a choice.
    #[inline(never)]
    fn effect_other(&self, s: &mut State, who: Seat, src: u8, e: Effect) -> bool {
        match e {
            Effect::DrawTo(n) => {
                let mut k = 0;
                while s.pl(who).hand_len() < u32::from(n) && Self::draw(s, who) {
                    k += 1;
                }
                Self::set_x(s, who, k);
            }
            Effect::Move(t, dest) => return self.start_move(s, who, src, &t, dest),
            Effect::Look { enemy } => {
                let q = if enemy { who.other() } else { who };
                let hand = s.pl(q).hand;
                s.pl_mut(q).known[who.index()] |= hand;
            }
            Effect::Peek(t) => {
                let q = who.other();
                let p = s.pl(q);
                let down = p.blocks_mask() & !p.up;
                let mut m = 0;
                for i in Bits(down) {
                    if self.passes(s, q, i, &t.filter, (who, src), false) {
                        m |= 1 << i;
                    }
                }
                if t.mode == TargetMode::All {
                    s.pl_mut(q).known[who.index()] |= m;
                } else if m != 0 {
                    let mut mask = [0u64; 2];
                    mask[q.index()] = m;
                    s.pick = Pick::Choose { mask, opt: false };
                    s.chooser = who;
                    return false;
                }
            }
            Effect::Search(t) => {
                // M-INFO-5: the searching player looks through its deck (the shuffle after
                // makes it unknown again).
                let deck = s.pl(who).deck_mask();
                s.pl_mut(who).known[who.index()] |= deck;
                let m = self.deck_matching(s, who, src, &t.filter, deck);
                if m != 0 {
                    s.pick = Pick::Take {
                        seat: who.index() as u8,
                        mask: m,
                        left: 1,
                        opt: false,
                        dest: Dest::Hand,
                    };
                    s.chooser = who;
                    return false;
                }
                Self::shuffle(s, who);
            }
            Effect::Dig(n, t) => {
                let top = Self::top_cards(s, who, n);
                let p = s.pl_mut(who);
                p.known[who.index()] |= top;
                let m = self.deck_matching(s, who, src, &t.filter, top);
                s.chooser = who;
                if m != 0 {
                    s.pick = Pick::Take {
                        seat: who.index() as u8,
                        mask: m,
                        left: 1,
                        opt: false,
                        dest: Dest::Hand,
                    };
                    return false;
                }
                if top != 0 {
                    s.pick = Pick::Take {
                        seat: who.index() as u8,
                        mask: top,
                        left: top.count_ones() as u8,
                        opt: false,
                        dest: Dest::Bottom,
                    };
                    return false;
                }
            }
            Effect::Arrange(n) => {
                let top = Self::top_cards(s, who, n);
                s.pl_mut(who).known[who.index()] |= top;
                if top.count_ones() >= 2 {
                    s.pick = Pick::Arrange {
                        n: top.count_ones() as u8,
                        placed: 0,
                    };
                    s.chooser = who;
                    return false;
                }
            }
            Effect::Ban { enemy, classes } => {
                let q = if enemy { who.other() } else { who };
                s.pl_mut(q).fx.ban |= classes;
            }
            Effect::Prevent => s.spared[who.index()] |= 1 << src,
            Effect::Reduce(n) => s.reduce = s.reduce.saturating_add(n),
            Effect::ExcessCap(n) => {
                let fx = &mut s.pl_mut(who).fx;
                fx.cap = fx.cap.min(n);
            }
            Effect::ExcessExtra(n) => {
                let fx = &mut s.pl_mut(who).fx;
                fx.extra = fx.extra.saturating_add(n);
            }
            Effect::KeepAnyway => s.pl_mut(who).fx.rules |= fx::KEEP_ANYWAY,
            Effect::FreeItem => s.pl_mut(who).fx.rules |= fx::FREE_ITEM,
            _ => {}
        }
        true
    }

    /// The top `n` cards of `q`'s deck (fewer if it holds fewer), as a mask.
    fn top_cards(s: &State, q: Seat, n: u8) -> u64 {
        let d = s.pl(q).deck();
        let k = d.len().min(usize::from(n));
        d[d.len() - k..].iter().fold(0, |m, &i| m | 1 << i)
    }

    /// The instances among `m` (of `q`'s deck) whose printed card passes `f`.
    fn deck_matching(&self, s: &State, q: Seat, src: u8, f: &Filter, m: u64) -> u64 {
        let mut out = 0;
        for i in Bits(m) {
            if self.passes(s, q, i, f, (q, src), true) {
                out |= 1 << i;
            }
        }
        out
    }

    /// Where a `move` of `who`'s card `src` takes its cards from: the player and the instances
    /// it may pick.
    pub(crate) fn move_candidates(
        &self,
        s: &State,
        who: Seat,
        src: u8,
        t: &Target,
        dest: Dest,
    ) -> (Seat, u64) {
        if t.mode == TargetMode::This {
            // `self`: the card itself where it is in play (its Item Zone or Block Zone).
            let p = s.pl(who);
            let m = (p.items | p.blocks_mask()) & (1 << src);
            return (who, m);
        }
        let q = if t.side == Side::Enemy {
            who.other()
        } else {
            who
        };
        if dest == Dest::Zone1Up && s.pl(q).block[0] != NONE {
            return (q, 0);
        }
        let mut m = 0;
        for i in Bits(Self::zone_mask(s, q, t.zone)) {
            if self.passes(s, q, i, &t.filter, (who, src), false) {
                m |= 1 << i;
            }
        }
        (q, m)
    }

    /// Starts a `move` of `who`'s card `src`; `false` when a choice is awaited.
    fn start_move(&self, s: &mut State, who: Seat, src: u8, t: &Target, dest: Dest) -> bool {
        s.x = [0, 0];
        let (q, m) = self.move_candidates(s, who, src, t, dest);
        if m == 0 {
            return true;
        }
        if t.mode == TargetMode::This {
            self.move_card(s, q, src, dest);
            Self::set_x(s, q, 1);
            return true;
        }
        s.chooser = who;
        if matches!(
            t.zone,
            zone::ITEMS | zone::ATTACK_ZONE | zone::BLOCKS | zone::ZONE1
        ) {
            // Cards in play: named by instance.
            let mut mask = [0u64; 2];
            mask[q.index()] = m;
            s.pick = Pick::Choose {
                mask,
                opt: t.min == 0,
            };
        } else {
            if t.zone == zone::HAND && q != who {
                // M-INFO-5: choosing from the opponent's hand shows it to the chooser.
                let hand = s.pl(q).hand;
                s.pl_mut(q).known[who.index()] |= hand;
            }
            s.pick = Pick::Take {
                seat: q.index() as u8,
                mask: m,
                left: t.max,
                opt: t.min == 0,
                dest,
            };
        }
        false
    }

    /// `q`'s instance `i` taken from wherever it is and put at `dest` (M-INFO-5 says who knows
    /// it after).
    pub(crate) fn move_card(&self, s: &mut State, q: Seat, i: u8, dest: Dest) {
        let bit = 1u64 << i;
        let from_hand = s.pl(q).hand & bit != 0;
        let from_trash = s.pl(q).trash & bit != 0;
        let from_items = s.pl(q).items & bit != 0;
        let from_zone = s.pl(q).attack_zone().contains(&i);
        let from_blocks = s.pl(q).block.contains(&i);
        let from_deck = !(from_hand || from_trash || from_items || from_zone || from_blocks);
        {
            let p = s.pl_mut(q);
            p.hand &= !bit;
            p.trash &= !bit;
            p.milled &= !bit;
            p.items &= !bit;
            p.up &= !bit;
            for z in &mut p.block {
                if *z == i {
                    *z = NONE;
                }
            }
            if let Some(k) = p.attack_zone().iter().position(|&x| x == i) {
                p.attack.copy_within(k + 1.., k);
                p.attack_len -= 1;
                p.attack[p.attack_len as usize] = NONE;
            }
            if from_deck {
                if let Some(k) = p.deck().iter().position(|&x| x == i) {
                    let len = p.deck_len as usize;
                    p.deck.copy_within(k + 1..len, k);
                    p.deck_len -= 1;
                }
            }
        }
        let other = q.other().index();
        match dest {
            Dest::Hand => {
                s.pl_mut(q).hand |= bit;
                s.pl_mut(q).known[q.index()] |= bit;
            }
            Dest::Trash => {
                Self::reveal(s, q, i);
                s.pl_mut(q).trash |= bit;
            }
            Dest::Bottom | Dest::Top => {
                let p = s.pl_mut(q);
                if from_hand {
                    // M-INFO-2, M-INFO-5: put face down from a hand, as a set card.
                    p.known[other] &= !(p.hand | bit);
                }
                p.known[q.index()] |= bit;
                let len = p.deck_len as usize;
                if dest == Dest::Bottom {
                    p.deck.copy_within(0..len, 1);
                    p.deck[0] = i;
                } else {
                    p.deck[len] = i;
                }
                p.deck_len += 1;
            }
            Dest::Zone1Up => {
                let p = s.pl_mut(q);
                p.block[0] = i;
                p.up |= bit;
                Self::reveal(s, q, i);
            }
        }
        if dest == Dest::Trash && (from_items || from_zone || from_blocks) {
            let from = if from_items {
                zone::ITEMS
            } else if from_zone {
                zone::ATTACK_ZONE
            } else {
                zone::BLOCKS
            };
            self.left(s, q, bit, from);
        }
        if dest == Dest::Trash {
            self.later_check(s, q, i);
        }
    }

    /// A card named by id for `Pick::Take`.
    pub(super) fn take(&self, s: &mut State, id: u8) {
        let Pick::Take {
            seat,
            mask,
            left,
            opt,
            dest,
        } = s.pick
        else {
            unreachable!("a take while a card is awaited")
        };
        let q = Seat::from_index(usize::from(seat));
        let i = Self::instance_of(s, q, mask, id).expect("legal take");
        let search = matches!(self.current_effect(s), Some(Effect::Search(_)));
        self.move_card(s, q, i, dest);
        if search {
            // Shown to the opponent (the text says so).
            Self::reveal(s, q, i);
        }
        s.x[q.index()] = s.x[q.index()].saturating_add(1);
        let mask = mask & !(1 << i);
        let left = left - 1;
        Self::check_deck(s, q);
        if left > 0 && mask != 0 && s.winner.is_none() {
            s.pick = Pick::Take {
                seat,
                mask,
                left,
                opt,
                dest,
            };
            return;
        }
        self.take_done(s);
    }

    /// A `Pick::Take` is over (all named, or `pass`): what follows in its effect.
    pub(super) fn take_done(&self, s: &mut State) {
        let who = Seat::from_index(usize::from(s.cur.who));
        let dest = match s.pick {
            Pick::Take { dest, .. } => dest,
            _ => Dest::Hand,
        };
        s.pick = Pick::None;
        match self.current_effect(s) {
            Some(Effect::Search(_)) => Self::shuffle(s, who),
            Some(Effect::Dig(n, _)) if dest == Dest::Hand => {
                // The other looked-at cards, to the bottom in the order the owner names them.
                let rest = Self::top_cards(s, who, n - 1);
                if rest != 0 && s.winner.is_none() {
                    s.pick = Pick::Take {
                        seat: who.index() as u8,
                        mask: rest,
                        left: rest.count_ones() as u8,
                        opt: false,
                        dest: Dest::Bottom,
                    };
                    return;
                }
            }
            _ => {}
        }
        s.cur.next += 1;
    }

    /// `arrange`: the card named goes below those already placed on top.
    pub(super) fn arrange(&self, s: &mut State, id: u8) {
        let Pick::Arrange { n, placed } = s.pick else {
            unreachable!("an arrange while one is awaited")
        };
        let q = s.chooser;
        let p = s.pl_mut(q);
        let len = p.deck_len as usize;
        let (lo, hi) = (len - usize::from(n), len - usize::from(placed));
        let k = (lo..hi)
            .find(|&k| p.card[p.deck[k] as usize] == id)
            .expect("legal arrange");
        p.deck.swap(k, hi - 1);
        let placed = placed + 1;
        if placed + 1 >= n {
            s.pick = Pick::None;
            s.cur.next += 1;
        } else {
            s.pick = Pick::Arrange { n, placed };
        }
    }

    /// The card ids `arrange` may put next (the looked-at cards not yet placed).
    pub fn arrange_ids(s: &State, q: Seat) -> super::IdSet {
        let Pick::Arrange { n, placed } = s.pick else {
            return super::IdSet::default();
        };
        let p = s.pl(q);
        let len = p.deck_len as usize;
        let m = p.deck[len - usize::from(n)..len - usize::from(placed)]
            .iter()
            .fold(0, |m, &i| m | 1 << i);
        Self::ids_of(s, q, m)
    }

    /// M-SHUF-1: `q`'s deck in a new random order from the state's generator; nobody knows
    /// where any of its cards is.
    fn shuffle(s: &mut State, q: Seat) {
        let mut x = s.rng;
        let p = s.pl_mut(q);
        let len = p.deck_len as usize;
        for k in (1..len).rev() {
            // splitmix64
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            let j = (z % (k as u64 + 1)) as usize;
            p.deck.swap(k, j);
        }
        let d = p.deck_mask();
        p.known = [p.known[0] & !d, p.known[1] & !d];
        s.rng = x;
    }

    /// Whether `q` may place card `id` now by the card language's rules: no `ban` of its class
    /// (M-BAN-1) and its placing condition (M-EFFECTS-9).
    #[inline(never)]
    pub(crate) fn may_place(&self, s: &State, q: Seat, id: u8) -> bool {
        let c = self.db.card(id);
        if s.pl(q).fx.ban & class_of(c) != 0 {
            return false;
        }
        if c.play_cond {
            let Some(i) = Self::instance_of(s, q, s.pl(q).hand, id) else {
                return false;
            };
            let a = c.ability(c.play_ab).expect("a placing text");
            if let Some(cond) = &a.cond {
                return self.holds(s, q, i, cond);
            }
        }
        true
    }

    /// Whether the Item `id` may be placed by `q` with the card language's Item rules
    /// (M-ITM-4, M-ITM-5): whether another card pays it.
    #[inline(never)]
    pub(crate) fn item_payable(&self, s: &State, q: Seat, id: u8) -> bool {
        let p = s.pl(q);
        if p.fx.rules & fx::FREE_ITEM != 0 && p.fx.rules & fx::FREE_USED == 0 {
            return true;
        }
        let i = Self::instance_of(s, q, p.hand, id).expect("an item in hand");
        !self.pay_ids(s, q, id, p.hand & !(1 << i)).is_empty()
    }

    /// The card ids of `hand` that may pay for Item `id` (M-ITM-1, M-ITM-5).
    pub(crate) fn pay_ids(&self, s: &State, q: Seat, id: u8, hand: u64) -> super::IdSet {
        let attr = self.db.card(id).attr;
        let ids = Self::ids_of(s, q, hand);
        if self.any_attribute(s, q) {
            let mut set = super::IdSet::default();
            for a in 0..super::super::cards::NO_ATTR {
                set = set.or(&self.db.sets.attrs[usize::from(a)]);
            }
            ids.and(&set)
        } else {
            ids.and(&self.db.sets.attrs[usize::from(attr)])
        }
    }

    /// M-ITM-5: `q` has an `item_any_attribute` Item in its Item Zone.
    pub(crate) fn any_attribute(&self, s: &State, q: Seat) -> bool {
        if self.db.sets.hooks & super::super::cards::hook::ITEM_RULE == 0 {
            return false;
        }
        let p = s.pl(q);
        Bits(p.items).any(|i| {
            self.card_of(s, q, i)
                .ability(self.card_of(s, q, i).static_ab)
                .is_some_and(|a| a.effects.contains(&Effect::ItemAnyAttribute))
        })
    }

    /// The statics of Items and Characters the hot path leaves out (M-STATIC-1): conditions,
    /// Block Zone 1, a Character's own power. The power `q`'s card `i` gets from `src`'s
    /// static.
    #[inline(never)]
    pub(crate) fn cold_statics(&self, s: &State, q: Seat, i: u8) -> i32 {
        let p = s.pl(q);
        let mut v = 0;
        if self.card_of(s, q, i).static_cold {
            v += self.cold_static(s, q, i, i);
        }
        for it in Bits(p.items) {
            if self.card_of(s, q, it).static_cold {
                v += self.cold_static(s, q, it, i);
            }
        }
        v
    }

    /// The power `q`'s card `i` gets from the cold static of `q`'s card `src`.
    pub(crate) fn cold_static(&self, s: &State, q: Seat, src: u8, i: u8) -> i32 {
        let c = self.card_of(s, q, src);
        let Some(a) = c.ability(c.static_ab) else {
            return 0;
        };
        if c.ctype == CardType::Character && (src != i || s.pl(q).up & (1 << src) == 0) {
            return 0;
        }
        if let Some(cond) = &a.cond {
            if !self.static_holds(s, q, src, cond) {
                return 0;
            }
        }
        let target = self.card_of(s, q, i);
        let mut v = 0;
        for e in &a.effects {
            if let Effect::Power(t, Amount::Num(n)) = e {
                let zone_ok = match t.zone {
                    zone::ZONE1 => s.pl(q).block[0] == i && s.pl(q).up & (1 << i) != 0,
                    _ => true,
                };
                let ok = match t.mode {
                    TargetMode::This => src == i,
                    _ => Self::matches_printed(target, &t.filter),
                };
                if zone_ok && ok {
                    v += i32::from(*n);
                }
            }
        }
        v
    }

    /// The titles the Character `q`'s card `i` also counts as for combos (M-ATK-4, M-STATIC-1).
    #[inline(never)]
    pub(crate) fn also_titled(&self, s: &State, q: Seat, i: u8, title: u8) -> bool {
        let c = self.card_of(s, q, i);
        let Some(a) = c.ability(c.static_ab) else {
            return false;
        };
        if let Some(cond) = &a.cond {
            if !self.static_holds(s, q, i, cond) {
                return false;
            }
        }
        a.effects
            .iter()
            .any(|e| matches!(e, Effect::AlsoTitled(t) if t.contains(&title)))
    }
}
