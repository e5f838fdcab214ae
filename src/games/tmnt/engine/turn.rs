//! The turn (M-TURN, M-ADJ, M-SET, M-EVT, M-ITM, M-FLIP, M-ATK): the engine advances through the
//! stages on its own until a player must decide, and plays the decisions. Placing attack cards and
//! the forward's damage are `attack.rs`.

use super::super::cards::{hook, phase, zone, CardId, CardType, Dest, Op, Target, When, NO_AB};
use super::super::Action;
use super::{side_ok, IdSet, TmntGame};
use crate::core::Seat;
use crate::games::tmnt::state::*;

impl TmntGame {
    /// Plays decision `a` (legal in `s`), then advances to the next decision.
    #[inline]
    pub fn play(&self, s: &mut State, a: Action) {
        if self.db.sets.lang {
            self.decide_in::<true>(s, a);
            self.advance_in::<true>(s);
        } else {
            self.decide_in::<false>(s, a);
            self.advance_in::<false>(s);
        }
    }

    /// Advances until a player must decide among two or more actions, or the game is over.
    /// M-TURN-2: a decision with exactly one legal action is taken without asking.
    pub fn advance(&self, s: &mut State) {
        if self.db.sets.lang {
            self.advance_in::<true>(s);
        } else {
            self.advance_in::<false>(s);
        }
    }

    /// [`TmntGame::advance`] for a card file with (`L`) or without the card language's texts
    /// ([`super::super::cards::CardSets::lang`]): the card language's stages and checks are
    /// compiled out of the engine of plain texts, which plays as it always did.
    #[inline(never)]
    fn advance_in<const L: bool>(&self, s: &mut State) {
        loop {
            if s.winner.is_some() {
                s.step = Step::Over;
                return;
            }
            if !self.next::<L>(s) {
                continue;
            }
            match self.single_legal(s) {
                (Some(a), false) => self.decide_in::<L>(s, a),
                (None, _) => unreachable!("a decision without a legal action: {:?}", s.step),
                (Some(_), true) => return,
            }
        }
    }

    /// One piece of automatic work; `true` when a decision is awaited (`step`, `chooser` set).
    /// Texts come first: a choice a text waits for, the text resolving, the ordering of a group
    /// of "when" texts (M-EFFECTS-2), the group's texts in order, the next group (M-EFFECTS-3);
    /// then the turn goes on.
    fn next<const L: bool>(&self, s: &mut State) -> bool {
        // Most of the time no text is under way: one test for all of them.
        if !Self::idle(s) {
            if let Some(asks) = self.texts(s) {
                return asks;
            }
        }
        self.stage::<L>(s)
    }

    /// Whether no text is under way: no choice awaited, none resolving, ordered, queued or
    /// waiting (then [`TmntGame::next`] goes on with the stages).
    #[inline(always)]
    fn idle(s: &State) -> bool {
        s.pick == Pick::None
            && !s.cur.active()
            && (s.pending[0] | s.pending[1] | s.waiting[0] | s.waiting[1]) == 0
            && s.queue.is_empty()
    }

    /// Whether [`TmntGame::advance`]'s loop, back from automatic work, would go straight on
    /// with the stages: no winner and no text under way. The stages that may end the game or
    /// trigger texts test it and go on themselves when it holds.
    #[inline(always)]
    fn quiet(s: &State) -> bool {
        s.winner.is_none() && Self::idle(s)
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
            Pick::Mode { .. } => {
                s.step = Step::Mode;
                return Some(true);
            }
            Pick::May { .. } => {
                s.step = Step::May;
                return Some(true);
            }
            Pick::Take { .. } => {
                s.step = Step::Take;
                return Some(true);
            }
            Pick::Arrange { .. } => {
                s.step = Step::Arrange;
                return Some(true);
            }
            Pick::Activate => {
                s.step = Step::Activate;
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
            let (q, i) = (Seat::from_index(usize::from(e >> 6 & 1)), (e & 63) as u8);
            let c = self.card_of(s, q, i);
            s.cur = Frame {
                who: q.index() as u8,
                src: i,
                text: c.when_ab,
                next: 0,
            };
            // M-EFFECTS-8: a "when" text's condition is checked again as it resolves.
            if c.gated && !self.still_holds(s, q, i) {
                s.cur = Frame::IDLE;
            }
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
    /// neither triggers a text, starts one, nor can end the game goes straight on to the next;
    /// the others return to [`TmntGame::advance`], which looks at the texts and the winner first
    /// — unless nothing is there to look at ([`TmntGame::quiet`]: no winner, no text under way),
    /// when they go on as well. A decision whose only action is `pass` is taken here
    /// ([`TmntGame::auto`], M-TURN-2) for the steps that test it cheaply.
    ///
    /// The stages of a card file of plain texts follow one another in four runs (`turn_start`,
    /// `main_phase`, `attack_phase`, `result_step`), each a function in which a stage falls
    /// through into the next stage's code: the stage is looked up once a run (and once more in
    /// it, for the stage it starts at), not once a stage, which cost some 9 instructions a
    /// stage (~19 stages a turn). At a run's end, and for a stage of the card language or an
    /// Item stage to be taken again, the run returns `None` and the stage is looked up again
    /// here; `Some(asks)`: return it.
    fn stage<const L: bool>(&self, s: &mut State) -> bool {
        loop {
            let next = match s.stage {
                Stage::TurnBegin
                | Stage::AdjustBegin
                | Stage::AttackStepBegin
                | Stage::CounterBegin
                | Stage::ForwardBegin
                | Stage::Window
                | Stage::ResultWindow
                | Stage::Replace
                | Stage::CleanupDone => self.lang_stage(s),
                Stage::EndTurn | Stage::Adjust | Stage::AdjustDraw | Stage::Shift | Stage::Set => {
                    self.turn_start::<L>(s)
                }
                Stage::Event
                | Stage::Item
                | Stage::Flip
                | Stage::FlipDone
                | Stage::AttackBegin
                | Stage::AttackStep => self.main_phase::<L>(s),
                Stage::Pay => {
                    let a = s.active;
                    return Self::ask(s, Step::Pay, a);
                }
                Stage::Counter
                | Stage::Forward
                | Stage::FlipTexts
                | Stage::CounterTrash
                | Stage::Result => self.attack_phase::<L>(s),
                Stage::KeepActive | Stage::KeepOther | Stage::Cleanup => self.result_step::<L>(s),
            };
            if let Some(asks) = next {
                return asks;
            }
        }
    }

    /// The stages EndTurn, Adjust, AdjustDraw, Shift and Set, from `s.stage` on (a run of
    /// [`TmntGame::stage`]).
    #[inline(always)]
    fn turn_start<const L: bool>(&self, s: &mut State) -> Option<bool> {
        'set: {
            'shift: {
                'draw: {
                    'adjust: {
                        match s.stage {
                            Stage::Set => break 'set,
                            Stage::Adjust => break 'adjust,
                            Stage::AdjustDraw => break 'draw,
                            Stage::Shift => break 'shift,
                            _ => {}
                        }
                        // EndTurn. M-ATK-16: the power changes end with the turn. M-WIN-4: no
                        // turn limit — every Adjust phase draws, so the decks run out.
                        for p in &mut s.p {
                            p.temp = [0; DECK];
                            p.bonus = 0;
                        }
                        if L {
                            Self::end_turn_fx(s);
                        }
                        s.turn = s.turn.saturating_add(1);
                        s.active = s.active.other();
                        s.stage = lang_or::<L>(Stage::TurnBegin, Stage::Adjust);
                        if L {
                            return None;
                        }
                    }
                    // Adjust. M-ADJ-2: the first player skips it on turn 1.
                    let a = s.active;
                    if s.turn == 1 && a == s.first {
                        s.stage = Stage::Shift;
                        break 'shift;
                    }
                    // M-ADJ-1 (1): draw up to 5, or discard down to 5 (M-ADJ-4).
                    if !Self::draw_n(s, a, 5u32.saturating_sub(s.pl(a).hand_len())) {
                        return Some(false);
                    }
                    s.stage = Stage::AdjustDraw;
                    let h = s.pl(a).hand_len();
                    if h > 5 {
                        s.pick = Pick::Discard;
                        s.discards = (h - 5) as u8;
                        s.chooser = a;
                        return Some(false);
                    }
                }
                // AdjustDraw. M-ADJ-1 (2), M-ADJ-3: 1 + the empty Block Zones counted now.
                let a = s.active;
                let n = 1 + s.pl(a).empty_zones() as u32;
                if !Self::draw_n(s, a, n) {
                    return Some(false);
                }
                s.stage = Stage::Shift;
            }
            // Shift. M-SET-1 (1), M-SET-2: toward Block Zone 1, order and faces kept.
            let p = s.pl_mut(s.active);
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
        // Set. M-SET-1 (2), M-SET-4: fill the empty zones while the hand lasts.
        let a = s.active;
        let p = s.pl(a);
        if p.empty_zones() > 0 && p.hand != 0 {
            s.step = Step::Set;
            s.chooser = a;
            return Some(true);
        }
        s.stage = Stage::Event;
        None
    }

    /// The stages Event, Item, Flip, FlipDone, AttackBegin and AttackStep, from `s.stage` on
    /// (a run of [`TmntGame::stage`]).
    #[inline(always)]
    fn main_phase<const L: bool>(&self, s: &mut State) -> Option<bool> {
        let a = s.active;
        let d = a.other();
        'step: {
            'begin: {
                'done: {
                    'flip: {
                        'item: {
                            match s.stage {
                                Stage::Item => break 'item,
                                Stage::Flip => break 'flip,
                                Stage::FlipDone => break 'done,
                                Stage::AttackBegin => break 'begin,
                                Stage::AttackStep => break 'step,
                                _ => {}
                            }
                            // Event. M-EVT-1: with no <Play> Event in hand, `pass` is the only
                            // action; it is taken here (M-TURN-2) without a turn of `advance`'s
                            // loop.
                            if L || self.hand_has(s, a, &self.db.sets.play_events) {
                                return Some(Self::ask(s, Step::Event, a));
                            }
                            Self::auto(s, Step::Event, a);
                            s.stage = Stage::Item;
                        }
                        // Item.
                        if s.event != NONE {
                            let i = std::mem::replace(&mut s.event, NONE);
                            s.pl_mut(a).trash |= 1 << i;
                            if L && self.later_check(s, a, i) {
                                return Some(false);
                            }
                            // The Item stage again.
                            return None;
                        }
                        // M-ITM-1: with no Item in hand, `pass` is the only action (M-TURN-2).
                        if L || self.item_in_hand(s, a) {
                            return Some(Self::ask(s, Step::Item, a));
                        }
                        Self::auto(s, Step::Item, a);
                        s.stage = Stage::Flip;
                    }
                    // Flip. M-FLIP-1, M-FLIP-2.
                    s.stage = Stage::AttackBegin;
                    let i = s.pl(a).block[0];
                    if i == NONE || s.pl(a).up & (1 << i) != 0 {
                        break 'begin;
                    }
                    s.pl_mut(a).up |= 1 << i;
                    Self::reveal(s, a, i);
                    s.stage = Stage::FlipDone;
                    let fired = L && self.fire_flipped(s, a, 1 << i);
                    let c = self.card_of(s, a, i);
                    if c.flip {
                        s.cur = Frame::start(a, i, c.flip_ab);
                        return Some(false);
                    }
                    if fired {
                        return Some(false);
                    }
                }
                // FlipDone. M-FLIP-1, M-FLIP-3: only a Character or an Attack card stays.
                let i = s.pl(a).block[0];
                if i != NONE
                    && s.pl(a).up & (1 << i) != 0
                    && !matches!(
                        self.card_of(s, a, i).ctype,
                        CardType::Character | CardType::Attack
                    )
                {
                    Self::to_trash(s, a, i);
                    s.stage = Stage::AttackBegin;
                    if L && self.trashed_from_block(s, a, i) {
                        return Some(false);
                    }
                }
                s.stage = Stage::AttackBegin;
            }
            // AttackBegin. M-ATK-1: only with a face-up Character or Attack card on Block Zone 1.
            let Some(t) = self.attack_card_on_block1(s, a) else {
                s.stage = Stage::EndTurn;
                return None;
            };
            self.trigger_one(s, a, When::Attack);
            self.trigger_one(s, d, When::Defend);
            if L {
                self.fire_start(s, phase::ATTACK);
            }
            if t != CardType::Character {
                // M-ATK-2: an Attack card on Block Zone 1 skips the Attack step; no card was
                // placed, so there is no Counter step (M-ATK-7).
                s.stage = lang_or::<L>(Stage::ForwardBegin, Stage::Forward);
                return if Self::quiet(s) { None } else { Some(false) };
            }
            let c = self.card_of(s, a, s.pl(a).block[0]);
            s.attrs_used = 1 << c.attr;
            s.stage = lang_or::<L>(Stage::AttackStepBegin, Stage::AttackStep);
            if !Self::quiet(s) {
                return Some(false);
            }
            if L {
                return None;
            }
        }
        // AttackStep. M-ATK-3: at most 3.
        if s.pl(a).attack_len as usize >= ATTACK_ZONE {
            s.stage = lang_or::<L>(Stage::CounterBegin, Stage::Counter);
            return None;
        }
        // M-ATK-3: with no attack card in hand that may be placed, `pass` is the only action
        // (M-TURN-2).
        if L || self.any_placeable(s, a) {
            return Some(Self::ask(s, Step::Attack, a));
        }
        Self::auto(s, Step::Attack, a);
        s.stage = Stage::Counter;
        None
    }

    /// The stages Counter, Forward, FlipTexts, CounterTrash and Result, from `s.stage` on (a run
    /// of [`TmntGame::stage`]).
    #[inline(always)]
    fn attack_phase<const L: bool>(&self, s: &mut State) -> Option<bool> {
        let a = s.active;
        let d = a.other();
        'result: {
            'excess: {
                'flips: {
                    'forward: {
                        match s.stage {
                            Stage::Forward => break 'forward,
                            Stage::FlipTexts => break 'flips,
                            Stage::CounterTrash => break 'excess,
                            Stage::Result => break 'result,
                            _ => {}
                        }
                        // Counter. M-ATK-7: only if an Attack card was placed.
                        if s.pl(a).attack_len == 0 {
                            s.stage = Stage::Forward;
                            break 'forward;
                        }
                        // M-ATK-7: with no counter in hand, `pass` is the only action (M-TURN-2).
                        if L || self.hand_has(s, d, &self.db.sets.counters) {
                            return Some(Self::ask(s, Step::Counter, d));
                        }
                        Self::auto(s, Step::Counter, d);
                        s.stage = Stage::Forward;
                    }
                    // Forward.
                    self.forward::<L>(s);
                    if !Self::quiet(s) {
                        return Some(false);
                    }
                }
                // FlipTexts. M-ATK-11: the defender's cards turned face up by the damage, from
                // Block Zone 1.
                while s.flipped != 0 {
                    let z = s.flipped.trailing_zeros() as usize;
                    s.flipped &= !(1 << z);
                    let i = s.pl(d).block[z];
                    if i != NONE && self.card_of(s, d, i).flip {
                        s.cur = Frame::start(d, i, self.card_of(s, d, i).flip_ab);
                        return Some(false);
                    }
                }
                s.stage = Stage::CounterTrash;
            }
            // CounterTrash. M-ATK-12: a bigger counter trashes the difference from the
            // attacker's deck.
            s.stage = Stage::Result;
            if s.counter > s.total {
                // M-DMG-3: `excess_extra` of the defender's texts.
                let extra = u32::from(s.pl(d).fx.extra);
                self.trash_top(s, a, (s.counter - s.total) as u32 + extra);
                if !Self::quiet(s) {
                    return Some(false);
                }
            }
        }
        // Result. M-ATK-13: the Result step begins; M-ATK-14 looked at the Forward step only.
        s.forward = false;
        self.trigger_one(s, a, When::Result);
        self.trigger_one(s, d, When::Result);
        if L {
            self.fire_start(s, phase::RESULT);
        }
        s.stage = lang_or::<L>(Stage::ResultWindow, Stage::KeepActive);
        if Self::quiet(s) {
            None
        } else {
            Some(false)
        }
    }

    /// The stages KeepActive, KeepOther and Cleanup, from `s.stage` on (a run of
    /// [`TmntGame::stage`]).
    #[inline(always)]
    fn result_step<const L: bool>(&self, s: &mut State) -> Option<bool> {
        let a = s.active;
        let d = a.other();
        'cleanup: {
            'other: {
                match s.stage {
                    Stage::KeepOther => break 'other,
                    Stage::Cleanup => break 'cleanup,
                    _ => {}
                }
                // KeepActive.
                if self.keep_step::<L>(s, a) {
                    return Some(true);
                }
            }
            // KeepOther.
            if self.keep_step::<L>(s, d) {
                return Some(true);
            }
            if L {
                return None;
            }
        }
        // Cleanup. M-ATK-13: every other face-up card of the Block and Attack Zones to the
        // Trash.
        let lang = L;
        let mut left = [[0u64; 2]; 2];
        for (k, p) in s.p.iter_mut().enumerate() {
            debug_assert_eq!(
                p.up & !p.blocks_mask(),
                0,
                "a face-up mark off the Block Zones"
            );
            // Face-up marks are on Block cards only (`invariants`): the face-up Block cards are
            // `up`, less the kept one's (the card on zone `kept`) and, in the card language, the
            // cards an `instead` text spared.
            let kept = match p.kept {
                NONE => 0,
                z => match p.block[usize::from(z)] {
                    NONE => 0,
                    i => 1u64 << i,
                },
            };
            let mut gone = p.up & !kept;
            if lang {
                gone &= !s.spared[k];
            }
            if gone != 0 {
                for z in 0..ZONES {
                    let i = p.block[z];
                    if i != NONE && gone & (1 << i) != 0 {
                        p.block[z] = NONE;
                    }
                }
            }
            let from_blocks = gone;
            for &i in p.attack_zone() {
                gone |= 1 << i;
            }
            left[k] = [from_blocks, gone & !from_blocks];
            p.attack = [NONE; ATTACK_ZONE];
            p.attack_len = 0;
            Self::all_to_trash(p, gone);
            p.kept = NONE;
            p.trashed = false;
        }
        s.stage = lang_or::<L>(Stage::CleanupDone, Stage::EndTurn);
        if lang && self.cleaned(s, left) {
            return Some(false);
        }
        None
    }

    /// M-ATK-13: the Keep stage of `q` (KeepActive or KeepOther): whether `q` is asked; else it
    /// keeps none and the stage is the next one.
    #[inline(always)]
    fn keep_step<const L: bool>(&self, s: &mut State, q: Seat) -> bool {
        // M-ATK-14: a player that trashed deck cards in the Forward step keeps none (unless a
        // `keep_anyway` of its texts says otherwise).
        if s.pl(q).trashed && s.pl(q).fx.rules & fx::KEEP_ANYWAY == 0 {
            self.keep_none::<L>(s, q);
            return false;
        }
        // M-ATK-15: with no face-up Character on its Block Zones, `pass` is the only action
        // (M-TURN-2).
        if !self.any_keepable(s, q) {
            Self::auto(s, Step::Keep, q);
            self.keep_none::<L>(s, q);
            return false;
        }
        s.step = Step::Keep;
        s.chooser = q;
        true
    }

    /// The stages only a card file with the card language's texts goes through (cold): what
    /// [`TmntGame::stage`] does with them; `None` to go on with the next stage.
    #[inline(never)]
    fn lang_stage(&self, s: &mut State) -> Option<bool> {
        let a = s.active;
        let d = a.other();
        match s.stage {
            Stage::TurnBegin => {
                s.stage = Stage::AdjustBegin;
                if self.starts(phase::TURN) {
                    self.fire_start(s, phase::TURN);
                    return Some(false);
                }
            }
            Stage::AdjustBegin => {
                // M-ADJ-2: the first player skips it on turn 1 (so it does not begin).
                if s.turn == 1 && a == s.first {
                    s.stage = Stage::Shift;
                    return None;
                }
                s.stage = Stage::Adjust;
                if self.starts(phase::ADJUST) {
                    self.fire_start(s, phase::ADJUST);
                    return Some(false);
                }
            }
            Stage::AttackStepBegin => {
                // M-WHEN-1: `attack` texts of the card on Block Zone 1 and `start …
                // attack_step` texts.
                s.stage = Stage::AttackStep;
                let mut fired = false;
                if self.db.sets.hooks & 1 << When::Attacks as u32 != 0 {
                    let i = s.pl(a).block[0];
                    if self.db.sets.when_chars[When::Attacks as usize]
                        .contains(s.pl(a).card[i as usize])
                    {
                        self.wait(s, a, 1 << i);
                        fired = true;
                    }
                }
                if self.starts(phase::ATTACK_STEP) {
                    self.fire_start(s, phase::ATTACK_STEP);
                    fired = true;
                }
                if fired {
                    return Some(false);
                }
            }
            Stage::CounterBegin => {
                // M-ATK-7: only if an Attack card was placed; a skipped step does not
                // begin (M-WHEN-2).
                if s.pl(a).attack_len == 0 {
                    s.stage = Stage::ForwardBegin;
                    return None;
                }
                s.stage = Stage::Counter;
                let mut fired = false;
                if self.db.sets.hooks & 1 << When::Defends as u32 != 0 {
                    let set = &self.db.sets.when_chars[When::Defends as usize];
                    let p = s.pl(d);
                    let m = Bits(p.up).fold(0u64, |m, i| {
                        m | u64::from(set.contains(p.card[i as usize])) << i
                    });
                    if m != 0 {
                        self.wait(s, d, m);
                        fired = true;
                    }
                }
                if self.starts(phase::COUNTER) {
                    self.fire_start(s, phase::COUNTER);
                    fired = true;
                }
                if fired {
                    return Some(false);
                }
            }
            Stage::ForwardBegin => {
                s.stage = Stage::Window;
                if self.starts(phase::FORWARD) {
                    self.fire_start(s, phase::FORWARD);
                    return Some(false);
                }
            }
            Stage::Window | Stage::ResultWindow => {
                // M-ACT-1: the turn player, then the other player, may activate texts.
                if self.db.sets.hooks & hook::ANYTIME != 0 && self.window(s) {
                    return Some(false);
                }
                s.window = 0;
                s.stage = if s.stage == Stage::Window {
                    Stage::Forward
                } else {
                    Stage::KeepActive
                };
            }
            Stage::Replace => {
                // M-REPL-1: the `instead` texts of the cards about to go to the Trash.
                if self.db.sets.hooks & hook::INSTEAD != 0 && self.replace(s) {
                    return Some(false);
                }
                s.stage = Stage::Cleanup;
            }
            Stage::CleanupDone => s.stage = Stage::EndTurn,
            _ => unreachable!("not a stage of the card language"),
        }
        None
    }

    #[inline]
    fn ask(s: &mut State, step: Step, q: Seat) -> bool {
        s.step = step;
        s.chooser = q;
        true
    }

    /// A decision whose only legal action is `pass`, taken by [`TmntGame::stage`] itself
    /// (M-TURN-2) instead of returning to [`TmntGame::advance`], which would find the one action
    /// (`single_legal`) and play it: the state is left as that would leave it, the step and its
    /// chooser included (the caller does what `pass` does).
    #[inline(always)]
    fn auto(s: &mut State, step: Step, q: Seat) {
        let _asks = Self::ask(s, step, q);
    }

    /// Whether a card of `q`'s hand has an id of `set`.
    #[inline(always)]
    pub(super) fn hand_has(&self, s: &State, q: Seat, set: &IdSet) -> bool {
        let p = s.pl(q);
        Bits(p.hand).any(|i| set.contains(p.card[i as usize]))
    }

    /// M-ITM-1: whether `q` has an Item in hand; without an Item in the match's decks
    /// ([`CardSets::item_any`](super::super::cards::CardSets::item_any)), no, without a walk of
    /// the hand.
    #[inline(always)]
    pub(super) fn item_in_hand(&self, s: &State, q: Seat) -> bool {
        self.db.sets.item_any && self.hand_has(s, q, &self.db.sets.items)
    }

    /// M-ATK-3, M-ATK-4, M-ATK-6: whether `q` has an attack card in hand it may place (a card
    /// file of plain texts: no M-BAN-1 or placing conditions).
    #[inline(always)]
    fn any_placeable(&self, s: &State, q: Seat) -> bool {
        let p = s.pl(q);
        let attacks = &self.db.sets.attacks;
        Bits(p.hand).any(|i| {
            let id = p.card[i as usize];
            attacks.contains(id) && self.placeable(s, q, id)
        })
    }

    /// M-ATK-13, M-ATK-15: whether `q` has a face-up Character on a Block Zone (a `keep`
    /// besides `pass`).
    #[inline(always)]
    fn any_keepable(&self, s: &State, q: Seat) -> bool {
        s.pl(q).block.iter().any(|&i| self.keepable(s, q, i))
    }

    /// M-ATK-13: whether the card on a Block Zone of `q`'s (`i`, [`NONE`] for an empty one) is a
    /// face-up Character, which `q` may keep.
    #[inline(always)]
    pub(super) fn keepable(&self, s: &State, q: Seat, i: u8) -> bool {
        i != NONE
            && s.pl(q).up & (1 << i) != 0
            && self.card_of(s, q, i).ctype == CardType::Character
    }

    /// M-ATK-13: `q` keeps no character (`pass`, or nothing to keep, M-ATK-14); the Keep stage
    /// goes on to the other player's, or past both.
    #[inline(always)]
    fn keep_none<const L: bool>(&self, s: &mut State, q: Seat) {
        s.pl_mut(q).kept = NONE;
        self.next_keep::<L>(s);
    }

    fn next_keep<const L: bool>(&self, s: &mut State) {
        s.stage = if s.stage == Stage::KeepActive {
            Stage::KeepOther
        } else {
            lang_or::<L>(Stage::Replace, Stage::Cleanup)
        };
    }

    /// `q`'s "when" texts of clause `w` trigger: its Items and its face-up characters on Block
    /// Zones (M-EFFECTS; they wait for the next group, M-EFFECTS-3).
    ///
    /// When no card of the match's decks has a text of clause `w` (`CardSets::hooks`, narrowed
    /// to the two decks by `CardDb::narrow_to`), nothing triggers and no card is looked at.
    /// Inlined at each call is one test for every clause ([`hook::WHENS`]: no "when" text in
    /// the match at all); the clause's own test and the walk are out of line
    /// ([`TmntGame::trigger_hooked`]). A test per clause inlined made `advance_in` compute the
    /// four clauses' flags at its every entry (the compiler hoists the loads out of its loop and
    /// keeps them on the stack), some 17 instructions a decision for tests made once a turn.
    #[inline(always)]
    pub(super) fn trigger_one(&self, s: &mut State, q: Seat, w: When) {
        if self.db.sets.hooks & hook::WHENS != 0 {
            self.trigger_hooked(s, q, w);
        }
    }

    /// [`TmntGame::trigger_one`] in a match with "when" texts: the walk when a card of the
    /// match has a text of clause `w`.
    #[inline(never)]
    fn trigger_hooked(&self, s: &mut State, q: Seat, w: When) {
        if self.db.sets.hooks & 1 << w as u32 != 0 {
            self.trigger_walk(s, q, w);
        }
    }

    /// The walk of `q`'s Items and face-up Block cards for clause `w`, whatever the hooks.
    #[inline(always)]
    fn trigger_walk(&self, s: &mut State, q: Seat, w: When) {
        let m = self.candidates(s, q, w);
        self.wait(s, q, m);
    }

    /// `q`'s instances that may have a text of clause `w` trigger now: its Items and its
    /// face-up Characters on Block Zones with such a text.
    #[inline(always)]
    fn candidates(&self, s: &State, q: Seat, w: When) -> u64 {
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
        m
    }

    /// The texts of `q`'s instances `m` trigger: they wait for the next group (M-EFFECTS-3),
    /// a gated one only if its condition holds and its once-per-turn use is left (M-EFFECTS-8,
    /// M-ONCE-1).
    #[inline(always)]
    pub(super) fn wait(&self, s: &mut State, q: Seat, mut m: u64) {
        if self.db.sets.lang {
            m = self.gate(s, q, m);
        }
        s.waiting[q.index()] |= m;
        for i in Bits(m) {
            let n = &mut s.waiting_n[q.index()][i as usize];
            *n = n.saturating_add(1);
        }
    }

    /// The instances of `m` whose gated "when" text may trigger now (the once-per-turn ones
    /// marked).
    #[inline(never)]
    fn gate(&self, s: &mut State, q: Seat, m: u64) -> u64 {
        if self.db.sets.hooks & hook::GATED == 0 {
            return m;
        }
        let mut out = 0;
        for i in Bits(m) {
            let c = self.card_of(s, q, i);
            let bit = 1u64 << i;
            if c.gated {
                let a = c.ability(c.when_ab).expect("a when text");
                if a.once && s.once[q.index()] & bit != 0 {
                    continue;
                }
                if let Some(cond) = &a.cond {
                    if !self.holds(s, q, i, cond) {
                        continue;
                    }
                }
                if a.once {
                    s.once[q.index()] |= bit;
                }
            }
            out |= bit;
        }
        out
    }

    /// M-EFFECTS-8: whether the condition of `q`'s card `i`'s "when" text still holds.
    #[inline(never)]
    pub(super) fn still_holds(&self, s: &State, q: Seat, i: u8) -> bool {
        let c = self.card_of(s, q, i);
        match c.ability(c.when_ab).and_then(|a| a.cond.as_ref()) {
            Some(cond) => self.holds(s, q, i, cond),
            None => true,
        }
    }

    /// Whether some card's `start` text names `phase`.
    #[inline(always)]
    fn starts(&self, phase: u8) -> bool {
        self.db.sets.starts & (1 << phase) != 0
    }

    /// `start [own|enemy] PHASE` texts trigger: the turn player's, then the other player's.
    #[inline(never)]
    fn fire_start(&self, s: &mut State, phase: u8) {
        if !self.starts(phase) {
            return;
        }
        for q in [s.active, s.active.other()] {
            let mut m = 0;
            for i in Bits(self.candidates(s, q, When::Start)) {
                let c = self.card_of(s, q, i);
                let a = c.ability(c.when_ab).expect("a when text");
                // `own`: the phase of the text's owner.
                if a.moment.phase == phase && side_ok(a.moment.side, q, s.active) {
                    m |= 1 << i;
                }
            }
            if m != 0 {
                self.wait(s, q, m);
            }
        }
    }

    /// Whether `q`'s card `j` is the subject `t` of a text of `me`'s card `i`.
    fn subject_ok(&self, s: &State, t: &Target, (me, i): (Seat, u8), (q, j): (Seat, u8)) -> bool {
        side_ok(t.side, me, q)
            && (matches!(t.zone, zone::PLAY | zone::BLOCKS)
                || Self::zone_mask(s, q, t.zone) & (1 << j) != 0)
            && self.passes(s, q, j, &t.filter, (me, i), true)
    }

    /// `flipped` texts: `q`'s cards `m` were turned face up on its Block Zones. Whether any
    /// triggered.
    #[inline(never)]
    pub(super) fn fire_flipped(&self, s: &mut State, q: Seat, m: u64) -> bool {
        if self.db.sets.hooks & 1 << When::Flipped as u32 == 0 {
            return false;
        }
        let mut fired = false;
        for me in [s.active, s.active.other()] {
            let mut trig = 0;
            for i in Bits(self.candidates(s, me, When::Flipped)) {
                let c = self.card_of(s, me, i);
                let a = c.ability(c.when_ab).expect("a when text");
                let hit = match &a.moment.subject {
                    None => me == q && m & (1 << i) != 0,
                    Some(t) => Bits(m).any(|j| self.subject_ok(s, t, (me, i), (q, j))),
                };
                if hit {
                    trig |= 1 << i;
                }
            }
            if trig != 0 {
                // M-WHEN-5: `that` is the card on the lowest Block Zone of those flipped.
                let p = s.pl(q);
                if let Some(&j) = p.block.iter().find(|&&j| j != NONE && m & (1 << j) != 0) {
                    s.that = (q.index() as u8) << 6 | j;
                }
                self.wait(s, me, trig);
                fired = true;
            }
        }
        fired
    }

    /// `placed` texts: `q` placed its card `i` (M-EVT-1, M-ITM-1, M-ATK-3, M-ATK-7).
    #[inline(never)]
    pub(super) fn fire_placed(&self, s: &mut State, q: Seat, i: u8) {
        s.that = (q.index() as u8) << 6 | i;
        for me in [s.active, s.active.other()] {
            let mut trig = 0;
            for k in Bits(self.candidates(s, me, When::Placed)) {
                let c = self.card_of(s, me, k);
                let a = c.ability(c.when_ab).expect("a when text");
                let hit = match &a.moment.subject {
                    None => me == q && k == i,
                    Some(t) => self.subject_ok(s, t, (me, k), (q, i)),
                };
                if hit {
                    trig |= 1 << k;
                }
            }
            if trig != 0 {
                self.wait(s, me, trig);
            }
        }
    }

    /// `leaves` texts: `q`'s cards `m` went from zone `from` (Block Zones, an Attack Zone, an
    /// Item Zone) to its Trash. Whether any triggered.
    #[inline(never)]
    pub(super) fn left(&self, s: &mut State, q: Seat, m: u64, from: u8) -> bool {
        if m == 0 || self.db.sets.hooks & 1 << When::Leaves as u32 == 0 {
            return false;
        }
        let mut fired = false;
        for me in [s.active, s.active.other()] {
            let mut trig = 0;
            let mut those = 0;
            for i in Bits(self.candidates(s, me, When::Leaves)) {
                let c = self.card_of(s, me, i);
                let a = c.ability(c.when_ab).expect("a when text");
                let Some(t) = &a.moment.subject else { continue };
                let zone_ok = t.zone == from
                    || t.zone == zone::PLAY && matches!(from, zone::BLOCKS | zone::ATTACK_ZONE);
                if !zone_ok || !matches!(a.moment.to, zone::PLAY | zone::TRASH) {
                    continue;
                }
                let mm = Bits(m).fold(0u64, |acc, j| {
                    let t = Target {
                        zone: zone::PLAY,
                        ..*t
                    };
                    acc | u64::from(self.subject_ok(s, &t, (me, i), (q, j))) << j
                });
                if mm != 0 {
                    trig |= 1 << i;
                    if c.reads_those {
                        those |= mm;
                    }
                }
            }
            if trig != 0 {
                if those != 0 {
                    self.add_those(s, q, those);
                }
                self.wait(s, me, trig);
                fired = true;
            }
        }
        fired
    }

    /// `those`: the cards `m` of `q` are the event's cards of the texts it triggers; with
    /// texts reading `those` still to resolve, the cards of both events are (M-EFFECTS-11).
    fn add_those(&self, s: &mut State, q: Seat, m: u64) {
        if !self.those_busy(s) {
            s.those = [0, 0];
        }
        s.those[q.index()] |= m;
    }

    /// Whether a text that reads `those` waits, is ordered, queued or resolving.
    fn those_busy(&self, s: &State) -> bool {
        let reads = |q: Seat, i: u8| self.card_of(s, q, i).reads_those;
        if s.cur.active() && reads(Seat::from_index(usize::from(s.cur.who)), s.cur.src) {
            return true;
        }
        for q in Seat::ALL {
            let k = q.index();
            if Bits(s.waiting[k] | s.pending[k]).any(|i| reads(q, i)) {
                return true;
            }
        }
        s.queue
            .iter()
            .any(|&e| reads(Seat::from_index(usize::from(e >> 6 & 1)), (e & 63) as u8))
    }

    /// The card language's part of milling `q`'s instances `m`: `those` for its `milled own`
    /// texts that read them, `milled enemy` texts of the other player.
    #[inline(never)]
    pub(super) fn milled_texts(&self, s: &mut State, q: Seat, m: u64) {
        if self.db.sets.hooks & hook::THOSE != 0 {
            let c = self.candidates(s, q, When::Trash);
            if Bits(c).any(|i| self.card_of(s, q, i).reads_those) {
                self.add_those(s, q, m);
            }
        }
        if self.db.sets.hooks & 1 << When::MilledEnemy as u32 != 0 {
            self.trigger_one(s, q.other(), When::MilledEnemy);
        }
    }

    /// `q`'s card `i` left Block Zone 1 for the Trash in the Flip phase (M-FLIP-1): `leaves`
    /// and `later` texts. Whether any began.
    #[inline(never)]
    fn trashed_from_block(&self, s: &mut State, q: Seat, i: u8) -> bool {
        let left = self.left(s, q, 1 << i, zone::BLOCKS);
        let later = self.later_check(s, q, i);
        left || later
    }

    /// M-EFFECTS-12: a `later leaves to trash` text of `q`'s card `i`, which went to the Trash,
    /// begins. Whether it did.
    #[inline(never)]
    pub(super) fn later_check(&self, s: &mut State, q: Seat, i: u8) -> bool {
        let l = s.later;
        if !l.active() || l.who != q.index() as u8 || l.src != i {
            return false;
        }
        if s.cur.active() {
            // Moved by the text resolving now: the delayed text begins when it is done.
            s.later.next |= READY;
            return false;
        }
        s.later = Frame::IDLE;
        s.cur = l;
        true
    }

    /// The Result step's moves are done: `leaves` and `later` texts of the cards it sent to
    /// the Trash (`left[seat] = [from Block Zones, from the Attack Zone]`). Whether any began.
    #[inline(never)]
    fn cleaned(&self, s: &mut State, left: [[u64; 2]; 2]) -> bool {
        let mut fired = false;
        for q in [s.active, s.active.other()] {
            let [blocks, zone] = left[q.index()];
            fired |= self.left(s, q, blocks, zone::BLOCKS);
            fired |= self.left(s, q, zone, zone::ATTACK_ZONE);
            if self.db.sets.hooks & hook::LATER != 0 {
                for i in Bits(blocks | zone) {
                    fired |= self.later_check(s, q, i);
                }
            }
        }
        fired
    }

    /// M-REPL-1: the next `instead` text of a card about to go from a Block Zone to the Trash
    /// in the Result step begins (the turn player's cards first, from Block Zone 1). Whether
    /// one did.
    #[inline(never)]
    fn replace(&self, s: &mut State) -> bool {
        for q in [s.active, s.active.other()] {
            let k = q.index();
            for z in 0..ZONES {
                let p = s.pl(q);
                let i = p.block[z];
                if i == NONE
                    || p.up & (1 << i) == 0
                    || z as u8 == p.kept
                    || s.replaced[k] & (1 << i) != 0
                {
                    continue;
                }
                let c = self.card_of(s, q, i);
                if c.instead_ab == NO_AB {
                    continue;
                }
                s.replaced[k] |= 1 << i;
                let a = c.ability(c.instead_ab).expect("an instead text");
                if a.cond.as_ref().is_none_or(|cond| self.holds(s, q, i, cond)) {
                    s.cur = Frame::start(q, i, c.instead_ab);
                    return true;
                }
            }
        }
        false
    }

    /// M-ACT-1: asks the next player of the window who has a text to activate. Whether one is
    /// asked.
    #[inline(never)]
    fn window(&self, s: &mut State) -> bool {
        while s.window < 2 {
            let q = if s.window == 0 {
                s.active
            } else {
                s.active.other()
            };
            if !self.activatable(s, q).is_empty() {
                s.pick = Pick::Activate;
                s.chooser = q;
                return true;
            }
            s.window += 1;
        }
        false
    }

    /// The card ids of `q`'s Items whose `anytime` text may be activated now (M-ACT-1).
    pub(crate) fn activatable(&self, s: &State, q: Seat) -> IdSet {
        let mut set = IdSet::default();
        for i in Bits(s.pl(q).items) {
            if self.can_activate(s, q, i) {
                set.insert(s.pl(q).card[i as usize]);
            }
        }
        set
    }

    fn can_activate(&self, s: &State, q: Seat, i: u8) -> bool {
        let c = self.card_of(s, q, i);
        let Some(a) = c.ability(c.anytime_ab) else {
            return false;
        };
        if a.once && s.once[q.index()] & (1 << i) != 0 {
            return false;
        }
        a.cond.as_ref().is_none_or(|cond| self.holds(s, q, i, cond))
    }

    /// M-ACT-1: `q` activates the `anytime` text of its Item `id`: pays, then it resolves.
    fn activate(&self, s: &mut State, q: Seat, id: CardId) {
        let mut m = 0;
        for i in Bits(s.pl(q).items) {
            if s.pl(q).card[i as usize] == id && self.can_activate(s, q, i) {
                m |= 1 << i;
            }
        }
        let i = Self::instance_of(s, q, m, id).expect("legal activate");
        let c = self.card_of(s, q, i);
        let (ab, a) = (
            c.anytime_ab,
            c.ability(c.anytime_ab).expect("an anytime text"),
        );
        s.pick = Pick::None;
        if a.once {
            s.once[q.index()] |= 1 << i;
        }
        if a.trash_self {
            self.move_card(s, q, i, Dest::Trash);
        }
        s.cur = Frame::start(q, i, ab);
    }

    /// M-ITM-1: `q`'s Item `item` goes to its Item Zone.
    fn item_placed(&self, s: &mut State, q: Seat, item: u8) {
        let p = s.pl_mut(q);
        p.hand &= !(1 << item);
        p.items |= 1 << item;
        Self::reveal(s, q, item);
        s.item = NONE;
        s.stage = Stage::Flip;
        if self.db.sets.hooks & 1 << When::Placed as u32 != 0 {
            self.fire_placed(s, q, item);
        }
    }

    /// The end of the turn for the card language's state: rule changes, once-per-turn marks,
    /// `those`, `that`, delayed texts end (M-ONCE-1, M-EFFECTS-12).
    fn end_turn_fx(s: &mut State) {
        for p in &mut s.p {
            p.fx = TurnFx::NONE;
        }
        s.once = [0, 0];
        s.those = [0, 0];
        s.that = NONE;
        s.x = [0, 0];
        s.reduce = 0;
        s.later = Frame::IDLE;
        s.window = 0;
        s.replaced = [0, 0];
        s.spared = [0, 0];
    }

    /// Plays one decision. The common ones (M-SET-3, passing) here, the rest out of line.
    #[inline]
    fn decide_in<const L: bool>(&self, s: &mut State, a: Action) {
        match (s.step, a) {
            (Step::Set, Action::Set(id)) => Self::set(s, id),
            (Step::Event, Action::Pass) => s.stage = Stage::Item,
            (Step::Item, Action::Pass) => s.stage = Stage::Flip,
            _ => self.decide_other::<L>(s, a),
        }
    }

    /// M-SET-3: the card onto the lowest empty Block Zone, face down.
    #[inline(always)]
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
    fn decide_other<const L: bool>(&self, s: &mut State, a: Action) {
        let q = s.chooser;
        match (s.step, a) {
            (Step::Discard, Action::Discard(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal discard");
                Self::to_trash(s, q, i);
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
                s.cur = Frame::start(q, i, self.db.card(id).play_ab);
                s.stage = Stage::Item;
                if self.db.sets.hooks & 1 << When::Placed as u32 != 0 {
                    self.fire_placed(s, q, i);
                }
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
                self.item_placed(s, q, item);
            }
            (Step::Pay, Action::Pass) => {
                // M-ITM-4: a free Item, nothing discarded.
                s.pl_mut(q).fx.rules |= fx::FREE_USED;
                self.item_placed(s, q, s.item);
            }
            (Step::Attack, Action::Attack(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal attack");
                let c = self.db.card(id);
                s.attrs_used |= 1 << c.attr;
                let text = c.play;
                // M-ATK-5: a <Play> text resolves once, as its card is placed.
                Self::place(s, q, i);
                // M-ATK-6-2: cards are placed in any order (no canonical order of plain cards).
                if text {
                    s.cur = Frame::start(q, i, c.play_ab);
                }
                if self.db.sets.hooks & 1 << When::Placed as u32 != 0 {
                    self.fire_placed(s, q, i);
                }
            }
            (Step::Attack, Action::Pass) => {
                s.stage = lang_or::<L>(Stage::CounterBegin, Stage::Counter)
            }
            (Step::Counter, Action::Counter(id)) => {
                let i = Self::instance_of(s, q, s.pl(q).hand, id).expect("legal counter");
                Self::place(s, q, i);
                let c = self.db.card(id);
                if c.play {
                    s.cur = Frame::start(q, i, c.play_ab);
                }
                s.stage = lang_or::<L>(Stage::ForwardBegin, Stage::Forward);
                if self.db.sets.hooks & 1 << When::Placed as u32 != 0 {
                    self.fire_placed(s, q, i);
                }
            }
            (Step::Counter, Action::Pass) => {
                s.stage = lang_or::<L>(Stage::ForwardBegin, Stage::Forward)
            }
            (Step::Keep, Action::Keep(z)) => {
                s.pl_mut(q).kept = z;
                self.next_keep::<L>(s);
            }
            (Step::Keep, Action::Pass) => {
                self.keep_none::<L>(s, q);
            }
            (Step::Order, Action::Order(id)) => {
                let i = Self::instance_of(s, q, s.pending[q.index()], id).expect("legal order");
                s.pending[q.index()] &= !(1 << i);
                let times = std::mem::take(&mut s.pending_n[q.index()][i as usize]);
                s.queue
                    .push(u16::from(times) << 8 | (q.index() as u16) << 6 | u16::from(i));
            }
            (Step::Choose, Action::Choose(code)) => self.chosen(s, code),
            (Step::Choose, Action::Pass) => {
                s.pick = Pick::None;
                s.cur.next += 1;
            }
            (Step::Mode, Action::Mode(k)) => {
                // `choose`: the option's jump follows the Choose step.
                s.pick = Pick::None;
                let ops = self.frame_ops(s, s.cur);
                let Some(Op::Jump(to)) = ops.get(usize::from(s.cur.next + 1 + k)) else {
                    unreachable!("a choose step is followed by its options' jumps")
                };
                s.cur.next = *to;
            }
            (Step::May, Action::Yes) => {
                s.pick = Pick::None;
                s.cur.next += 1;
            }
            (Step::May, Action::Pass) => {
                let Pick::May { skip } = s.pick else {
                    unreachable!("a may step")
                };
                s.pick = Pick::None;
                s.cur.next = skip;
            }
            (Step::Take, Action::Take(id)) => self.take(s, id),
            (Step::Take, Action::Pass) => self.take_done(s),
            (Step::Arrange, Action::Top(id)) => self.arrange(s, id),
            (Step::Activate, Action::Activate(id)) => self.activate(s, q, id),
            (Step::Activate, Action::Pass) => {
                s.pick = Pick::None;
                s.window += 1;
            }
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
}

/// `lang` for a card file whose texts need the card language's stages, `plain` for one of plain
/// texts (the games of plain texts go through the stages they always did).
#[inline(always)]
fn lang_or<const L: bool>(lang: Stage, plain: Stage) -> Stage {
    if L {
        lang
    } else {
        plain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random games of every pair of bundled decks (and determinizations of their positions): at
    /// every position, for both players and every "when" clause, `trigger_one` (which skips a
    /// clause no card of the match's decks has) leaves the state exactly as the walk of the cards
    /// alone does, and both cases occur: clauses that trigger, clauses that are skipped.
    #[test]
    fn trigger_one_skips_only_clauses_that_cannot_trigger() {
        let (mut fired, mut skipped) = (0usize, 0usize);
        super::super::walk_bundled_positions(41, 2, 37, |g, states, _| {
            for t in states {
                for q in Seat::ALL {
                    for w in When::ALL {
                        let (mut one, mut walk) = (t, t);
                        g.trigger_one(&mut one, q, w);
                        g.trigger_walk(&mut walk, q, w);
                        assert_eq!(one, walk, "{q} {w:?}\n{t:?}");
                        if walk != t {
                            fired += 1;
                        } else if g.db.sets.hooks & 1 << w as u32 == 0 {
                            skipped += 1;
                        }
                    }
                }
            }
        });
        assert!(fired > 100 && skipped > 10_000, "{fired} {skipped}");
    }

    /// M-ADJ-3, M-WIN-2: `q` draws one card, and the game ends the moment its deck is empty —
    /// the rule [`TmntGame::draw_n`] takes several cards at once for, written out card by card.
    fn draw_one(s: &mut State, q: Seat) -> bool {
        if s.winner.is_some() || s.pl(q).deck_len == 0 {
            return false;
        }
        let p = s.pl_mut(q);
        p.deck_len -= 1;
        let i = p.deck[usize::from(p.deck_len)];
        p.hand |= 1 << i;
        p.known[q.index()] |= 1 << i;
        if p.deck_len == 0 {
            s.winner = Some(crate::core::Outcome::Win(q.other()));
            s.step = Step::Over;
        }
        s.winner.is_none()
    }

    /// M-ATK-10, M-ATK-12, M-WIN-2: the top `n` cards of `q`'s deck to its Trash one at a time,
    /// the game over the moment the deck is empty; then what a move of cards to the Trash
    /// triggers (M-ATK-14, `when trash`, the card language's `milled`).
    fn trash_one_at_a_time(g: &TmntGame, s: &mut State, q: Seat, n: u32) -> u32 {
        let (mut moved, mut mask) = (0, 0u64);
        for _ in 0..n {
            if s.winner.is_some() || s.pl(q).deck_len == 0 {
                break;
            }
            let p = s.pl_mut(q);
            p.deck_len -= 1;
            let i = p.deck[usize::from(p.deck_len)];
            p.trash |= 1 << i;
            p.milled |= 1 << i;
            p.known[0] |= 1 << i;
            p.known[1] |= 1 << i;
            mask |= 1 << i;
            moved += 1;
            if p.deck_len == 0 {
                s.winner = Some(crate::core::Outcome::Win(q.other()));
                s.step = Step::Over;
            }
        }
        if moved > 0 {
            if s.forward {
                s.pl_mut(q).trashed = true;
            }
            if g.db.sets.lang {
                g.milled_texts(s, q, mask);
            }
            g.trigger_one(s, q, When::Trash);
        }
        moved
    }

    /// Random games of every pair of bundled decks and of the designer set's decks
    /// (`walk_bundled_positions`), and determinizations of their positions: at every position,
    /// for both players, 0 to 7 cards — and again with the deck cut to at most 3 cards, so that
    /// it runs out — `draw_n` leaves the state and answers as that many draws one at a time
    /// (`draw_one`, stopping at the first that fails, as the Adjust phase does), and
    /// `trash_top` as the moves one at a time; games end both ways. Rules: M-ADJ-1 and M-ADJ-3
    /// (the Adjust phase's draws, one card at a time), M-WIN-2 (the player whose deck runs out
    /// loses, checked after each card).
    #[test]
    fn draw_n_and_trash_top_are_moves_one_at_a_time() {
        use rand::Rng;
        let (mut ended, mut went_on) = (0usize, 0usize);
        super::super::walk_bundled_positions(53, 2, 47, |g, states, rng| {
            for t in states {
                for q in Seat::ALL {
                    let mut short = t;
                    let p = short.pl_mut(q);
                    p.deck_len = p.deck_len.min(rng.gen_range(0..=3));
                    for u in [t, short] {
                        for n in 0..=7 {
                            let (mut a, mut b) = (u, u);
                            let got = TmntGame::draw_n(&mut a, q, n);
                            let want = (0..n).all(|_| draw_one(&mut b, q));
                            assert_eq!((got, a), (want, b), "{q} draws {n}\n{u:?}");
                            let (mut a, mut b) = (u, u);
                            let got = g.trash_top(&mut a, q, n);
                            let want = trash_one_at_a_time(g, &mut b, q, n);
                            assert_eq!((got, a), (want, b), "{q} trashes {n}\n{u:?}");
                            if b.winner.is_some() && u.winner.is_none() {
                                ended += 1;
                            } else if n > 0 {
                                went_on += 1;
                            }
                        }
                    }
                }
            }
        });
        assert!(ended > 1_000 && went_on > 10_000, "{ended} {went_on}");
    }

    /// `CardSets::item_any` of a match (the bundled decks' 81 pairs, the designer set's 4) is
    /// whether a card of its two decks is an Item (M-ITM-1); both answers occur (the bench
    /// match starter_north vs starter_east has none).
    #[test]
    fn item_any_is_an_item_in_the_two_decks() {
        use crate::core::GameDef;
        let mut seen = [0usize; 2];
        for (cards, set) in &super::super::test_deck_sets() {
            for a in set {
                for b in set {
                    let g = TmntGame::new_match(cards, [a, b]);
                    let item = [a, b]
                        .iter()
                        .flat_map(|d| d.cards.iter())
                        .any(|&id| cards.card(id).ctype == CardType::Item);
                    assert_eq!(g.db.sets.item_any, item, "{} {}", a.name, b.name);
                    seen[usize::from(item)] += 1;
                    if (a.name.as_str(), b.name.as_str()) == ("starter_north", "starter_east") {
                        assert!(!item, "the bench match has no Item");
                    }
                }
            }
        }
        // Both kinds of pair are there.
        assert!(seen[0] >= 9 && seen[1] >= 50, "{seen:?}");
    }

    /// Random games of every pair of bundled decks and of the designer set's decks (card
    /// language; `walk_bundled_positions`), and determinizations of their positions: at
    /// every position `advance` stopped at, and at the Set, Discard, Event, Item, Attack, Counter and Keep steps made
    /// up from it for both players that `stage` would ask (M-TURN-2: for Event, Attack and
    /// Counter in a card file of plain texts, and for Keep, only with an action besides `pass`),
    /// `single_legal` agrees with the whole list (`legal`): one action, that one and no other;
    /// two or more, an action of the list and "more"; none, none. Both answers occur for Set
    /// and Discard (one distinct card id in hand, or more: the hand is also cut to one card).
    #[test]
    fn single_legal_agrees_with_the_list_at_asked_steps() {
        use crate::core::ActionList;
        let mut list = ActionList::new();
        let (mut one, mut more) = ([0usize; 8], [0usize; 8]);
        let steps = [
            Step::Set,
            Step::Discard,
            Step::Event,
            Step::Item,
            Step::Attack,
            Step::Counter,
            Step::Keep,
        ];
        super::super::walk_bundled_positions(47, 2, 43, |g, states, _| {
            for (n, t) in states.into_iter().enumerate() {
                // The position itself as `advance` left it (a determinization's opponent may
                // hold other cards than the step was asked with: only made-up steps from it).
                let mut made = if n == 0 { vec![(7, t)] } else { vec![] };
                for q in Seat::ALL {
                    for (k, step) in steps.into_iter().enumerate() {
                        let mut u = t;
                        u.step = step;
                        u.chooser = q;
                        let plain = !g.db.sets.lang;
                        let sets = &g.db.sets;
                        let asked = match step {
                            Step::Event => !plain || g.hand_has(&u, q, &sets.play_events),
                            Step::Attack => !plain || g.any_placeable(&u, q),
                            Step::Counter => !plain || g.hand_has(&u, q, &sets.counters),
                            Step::Keep => g.any_keepable(&u, q),
                            _ => true,
                        };
                        if asked {
                            made.push((k, u));
                        }
                        if matches!(step, Step::Set | Step::Discard) {
                            // The hand cut to its lowest card: one card id, one action.
                            let h = u.pl(q).hand;
                            u.pl_mut(q).hand = h & h.wrapping_neg();
                            made.push((k, u));
                        }
                    }
                }
                for (k, u) in made {
                    g.legal(&u, &mut list);
                    let got = g.single_legal(&u);
                    match list.as_slice() {
                        [] => assert_eq!(got.0, None, "{u:?}"),
                        [a] => {
                            assert_eq!(got, (Some(*a), false), "{u:?}");
                            one[k] += 1;
                        }
                        all => {
                            assert!(got.1 && all.contains(&got.0.unwrap()), "{all:?} {u:?}");
                            more[k] += 1;
                        }
                    }
                }
            }
        });
        for k in [0, 1] {
            assert!(one[k] > 1_000 && more[k] > 1_000, "{one:?} {more:?}");
        }
        assert!(more[2..].iter().all(|&n| n > 100), "{one:?} {more:?}");
    }

    /// Random games of every pair of bundled decks and of the designer set's decks (card
    /// language; `walk_bundled_positions`), and determinizations of their positions: at
    /// every position, for both players, the Event, Item, Attack, Counter and Keep steps made up
    /// from it (M-EVT-1, M-ITM-1, M-ATK-3, M-ATK-7, M-ATK-13) — `stage` takes the step itself
    /// (M-TURN-2) only when the legal list (`legal`, which lists every action) is `pass` alone:
    /// exactly so for Event, Attack, Counter and Keep, and the Item step only then (an Item in
    /// hand without a card to pay for it is `pass` alone too, and is asked). The first four are
    /// taken so in card files of plain texts only (`CardSets::lang` false); Keep in every file.
    #[test]
    fn stage_takes_only_steps_whose_one_action_is_pass() {
        use crate::core::ActionList;
        let mut list = ActionList::new();
        let mut seen = [[0usize; 2]; 5];
        // Keep in the card language's file (the designer set): asked and taken.
        let mut lang_keep = [0usize; 2];
        super::super::walk_bundled_positions(43, 2, 31, |g, states, _| {
            for t in states {
                for q in Seat::ALL {
                    let steps = [
                        Step::Event,
                        Step::Item,
                        Step::Attack,
                        Step::Counter,
                        Step::Keep,
                    ];
                    for (k, step) in steps.into_iter().enumerate() {
                        if g.db.sets.lang && step != Step::Keep {
                            continue;
                        }
                        let mut u = t;
                        u.step = step;
                        u.chooser = q;
                        g.legal(&u, &mut list);
                        let only_pass = list.as_slice() == [Action::Pass];
                        let sets = &g.db.sets;
                        let skip = match step {
                            Step::Event => !g.hand_has(&u, q, &sets.play_events),
                            Step::Item => !g.item_in_hand(&u, q),
                            Step::Attack => !g.any_placeable(&u, q),
                            Step::Counter => !g.hand_has(&u, q, &sets.counters),
                            _ => !g.any_keepable(&u, q),
                        };
                        if step == Step::Item {
                            assert!(
                                !skip || only_pass,
                                "{q} {step:?} {:?}\n{u:?}",
                                list.as_slice()
                            );
                        } else {
                            assert_eq!(
                                skip,
                                only_pass,
                                "{q} {step:?} {:?}\n{u:?}",
                                list.as_slice()
                            );
                        }
                        seen[k][usize::from(skip)] += 1;
                        if g.db.sets.lang {
                            lang_keep[usize::from(skip)] += 1;
                        }
                    }
                }
            }
        });
        for (k, [asked, taken]) in seen.iter().enumerate() {
            assert!(*asked > 500 && *taken > 500, "step {k}: {seen:?}");
        }
        assert!(lang_keep.iter().all(|&n| n > 50), "{lang_keep:?}");
    }
}
