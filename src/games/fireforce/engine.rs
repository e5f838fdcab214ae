//! The Fire Force rules (`docs/rules-fireforce.md`): setup, the turn, costs and Flame, battles,
//! effects. Each rule's ID is cited where it is implemented.
//!
//! The engine advances on its own ([`FireForceGame::settle`]) until a player must decide; the
//! decision is the pair (`State::step`, `State::pick`), and [`FireForceGame::legal`] lists its
//! actions.
//!
//! **Action-list capacity.** A player owns at most 45 instances. In the main phase each card in
//! hand gives at most one action (dispatch or play, by distinct card id) and each Unit on the Scene
//! at most 4 (attack, Pray, at most [`super::cards::MAX_ACTIVATED`] = 2 activated abilities): at
//! most 40 · 4 + 1 = 161 actions. A target is one of at most 40 Units or the player (41); a block
//! 40 + 1; a reaction 40 · 2 + 1; support 40 + 1; a pick at most 2 · 45 + 1 = 91; a Flame card 5.
//! All within `core::MAX_ACTIONS` (256); `legal` asserts it in debug builds.

use super::cards::{CardDb, CardId, CardType, Effect, Filter, Keywords, Target, Trigger, Until};
use super::state::*;
use super::Action;
use crate::core::dsl::{Side, TargetMode};
use crate::core::{ActionList, Outcome, Seat};
use rand::seq::SliceRandom;

/// A match: the card database and both players' decks (main deck and Flame deck, card ids).
#[derive(Clone, Debug)]
pub struct FireForceGame {
    pub db: CardDb,
    pub main: [Vec<CardId>; 2],
    pub flame: [Vec<CardId>; 2],
}

/// The side of `q` as seen by controller `who`.
#[inline]
fn side_ok(side: Side, who: Seat, q: Seat) -> bool {
    match side {
        Side::Own => q == who,
        Side::Enemy => q != who,
        Side::Any => true,
    }
}

impl FireForceGame {
    #[inline]
    pub fn card_of(&self, s: &State, q: Seat, i: u8) -> &super::cards::Card {
        self.db.card(s.pl(q).card[i as usize])
    }

    // ---- setup (F-SETUP) ----

    /// F-SETUP-1, F-SETUP-2: decks shuffled from `seed` and dealt to instances from the top down
    /// (instance numbers carry no identity, F-INFO-1), 5 cards drawn; the redraw decisions follow.
    pub fn setup(&self, seed: u64, first: Seat) -> State {
        self.setup_with(seed, first, true)
    }

    /// [`FireForceGame::setup`]; without `shuffle` the decks keep their order, the first card on
    /// top (scenarios stack decks this way).
    pub fn setup_with(&self, seed: u64, first: Seat, shuffle: bool) -> State {
        let mut rng = crate::core::rng_from_seed(seed);
        let mut s = State {
            p: [Player::EMPTY; 2],
            turn: 0,
            active: first,
            first,
            step: Step::Redraw,
            chooser: first,
            pick: Pick::None,
            battle: Battle::NONE,
            frames: Default::default(),
            removed: [0; 2],
            ends: 0,
            acts: [0; 2],
            winner: None,
            win_reason: 0,
            seed: 0,
        };
        for q in Seat::ALL {
            let k = q.index();
            let main = &self.main[k];
            let n = main.len();
            let p = &mut s.p[k];
            p.n_main = n as u8;
            // Instance i holds the i-th card from the top; the deck array is bottom first.
            p.card[..n].copy_from_slice(main);
            if shuffle {
                p.card[..n].shuffle(&mut rng);
            }
            for k in 0..n {
                p.pile[k] = (n - 1 - k) as u8;
            }
            p.deck_len = n as u8;
            // F-SETUP-1: the Flame deck is public (F-INFO-1).
            for (j, &c) in self.flame[k].iter().enumerate() {
                p.card[FLAME_BASE + j] = c;
                p.flame_deck |= 1 << (FLAME_BASE + j);
            }
            p.known = [FLAME_MASK; 2];
            Self::draw_raw(&mut s, q, 5);
        }
        use rand::Rng;
        s.seed = rng.gen();
        s
    }

    /// Draws `n` cards without the deck-out check (setup).
    fn draw_raw(s: &mut State, q: Seat, n: u8) {
        let p = s.pl_mut(q);
        for _ in 0..n {
            if p.deck_len == 0 {
                return;
            }
            p.deck_len -= 1;
            let i = p.pile[p.deck_len as usize];
            p.hand |= 1 << i;
            p.known[q.index()] |= 1 << i;
        }
    }

    /// F-SETUP-2, F-INFO-2: the whole hand back into the deck, shuffled, 5 drawn.
    fn redraw(s: &mut State, q: Seat) {
        let mut rng = crate::core::rng_from_seed(crate::core::mix_seed(&[s.seed, q.index() as u64]));
        let p = s.pl_mut(q);
        let hand = p.hand;
        for i in Bits(hand) {
            p.pile[p.deck_len as usize] = i;
            p.deck_len += 1;
        }
        p.hand = 0;
        p.known[q.index()] &= !hand;
        let n = p.deck_len as usize;
        p.pile[..n].shuffle(&mut rng);
        Self::draw_raw(s, q, 5);
    }

    // ---- zones ----

    /// F-WIN-2, F-WIN-3: a player whose deck is empty loses at once.
    fn check_deck(s: &mut State, q: Seat) {
        if s.pl(q).deck_len == 0 && s.winner.is_none() {
            s.winner = Some(Outcome::Win(q.other()));
            s.win_reason = 2;
        }
    }

    fn draw(s: &mut State, q: Seat, n: u8) {
        Self::draw_raw(s, q, n);
        Self::check_deck(s, q);
    }

    /// Makes instance `i` of `q` public (it is on the Scene or in THE ADOLLA, face up).
    #[inline]
    fn reveal(s: &mut State, q: Seat, i: u8) {
        s.pl_mut(q).known = s.pl(q).known.map(|k| k | 1 << i);
    }

    /// The top deck card into THE ADOLLA (`mill`).
    fn mill(s: &mut State, q: Seat, n: u8) {
        for _ in 0..n {
            let p = s.pl_mut(q);
            if p.deck_len == 0 {
                break;
            }
            p.deck_len -= 1;
            let i = p.pile[p.deck_len as usize];
            p.adolla |= 1 << i;
            Self::reveal(s, q, i);
        }
        Self::check_deck(s, q);
    }

    /// Top deck cards face down onto the Life area (`life`).
    fn life(s: &mut State, q: Seat, n: u8) {
        for _ in 0..n {
            let p = s.pl_mut(q);
            if p.deck_len == 0 {
                break;
            }
            p.deck_len -= 1;
            let i = p.pile[p.deck_len as usize];
            p.life_len += 1;
            p.pile[FLAME_BASE - p.life_len as usize] = i;
        }
        Self::check_deck(s, q);
    }

    /// Unit `u` of `q` leaves the Scene (to THE ADOLLA or the hand): its flags and changes go;
    /// F-COST-6: a Flame card given to it stays on the Scene, exhausted, given to nobody.
    fn leave_scene(s: &mut State, q: Seat, u: u8) {
        let p = s.pl_mut(q);
        let bit = 1u64 << u;
        p.scene &= !bit;
        p.exhausted &= !bit;
        p.fresh &= !bit;
        p.once &= !bit;
        if (u as usize) < FLAME_BASE {
            p.power_turn[u as usize] = 0;
            p.power_battle[u as usize] = 0;
        }
        for k in 0..FLAME_DECK {
            if p.given_to[k] == u {
                p.given_to[k] = NONE;
                p.exhausted |= 1 << (FLAME_BASE + k);
            }
        }
        if q == s.active && s.battle.attacker == u {
            s.battle.attacker = NONE;
        }
        if q != s.active && !s.battle.on_player && s.battle.target == u {
            s.battle.target = NONE;
        }
    }

    /// F-BAT-7, glossary "Remove": Unit `u` into its owner's THE ADOLLA; its When Removed
    /// ability waits (F-KW-TRIGGERS).
    fn remove(&self, s: &mut State, q: Seat, u: u8) {
        Self::leave_scene(s, q, u);
        s.pl_mut(q).adolla |= 1 << u;
        if self.card_of(s, q, u).abilities_on(Trigger::Removed).next().is_some() {
            s.removed[q.index()] |= 1 << u;
        }
    }

    /// F-COST-2: a card with Flame into THE ADOLLA — not a removal. A Flame card returns to the
    /// Flame deck.
    fn limit_out(s: &mut State, q: Seat, i: u8) {
        let bit = 1u64 << i;
        if bit & FLAME_MASK != 0 {
            let p = s.pl_mut(q);
            p.scene &= !bit;
            p.exhausted &= !bit;
            p.given_to[i as usize - FLAME_BASE] = NONE;
            p.flame_deck |= bit;
        } else if s.pl(q).as_flame & bit != 0 {
            let p = s.pl_mut(q);
            p.scene &= !bit;
            p.exhausted &= !bit;
            p.as_flame &= !bit;
            p.adolla |= bit;
        } else {
            Self::leave_scene(s, q, i);
            s.pl_mut(q).adolla |= bit;
        }
    }

    /// Units of `q` on the Scene that have Flame.
    pub fn flame_units(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        Bits(p.units())
            .filter(|&u| self.db.card(p.card[u as usize]).flame)
            .fold(0, |m, u| m | 1 << u)
    }

    /// F-COST-2: cards with Flame on `q`'s Scene: Flame cards (given or not, F-COST-5), cards put
    /// as Flame cards, Units with Flame.
    pub fn with_flame(&self, s: &State, q: Seat) -> u64 {
        s.pl(q).flame_cards() | self.flame_units(s, q)
    }

    /// F-COST-1: the ready cards with Flame of `q`, in the order F-COST-3 pays with them: Flame
    /// cards first, then Units with Flame dispatched this turn, then the other Units with Flame,
    /// lowest instance first within each.
    pub fn payers(&self, s: &State, q: Seat) -> [u64; 3] {
        let p = s.pl(q);
        let units = self.flame_units(s, q) & !p.exhausted;
        [
            p.flame_cards() & !p.exhausted,
            units & p.fresh,
            units & !p.fresh,
        ]
    }

    /// How many cards with Flame `q` can exhaust, not counting `except`.
    pub fn can_pay(&self, s: &State, q: Seat, except: u64) -> u32 {
        self.payers(s, q)
            .iter()
            .map(|m| (m & !except).count_ones())
            .sum()
    }

    /// F-COST-1, F-COST-3: exhausts `n` cards with Flame of `q` (they are there: checked by
    /// `legal`).
    fn pay(&self, s: &mut State, q: Seat, n: u8) {
        let mut left = n;
        for m in self.payers(s, q) {
            for i in Bits(m) {
                if left == 0 {
                    return;
                }
                s.pl_mut(q).exhausted |= 1 << i;
                left -= 1;
            }
        }
        debug_assert_eq!(left, 0, "a cost legal actions offered is paid");
    }

    // ---- power and filters ----

    /// A Unit's power: printed, changes until end of turn and during this battle, and the static
    /// abilities of cards on both Scenes.
    pub fn power(&self, s: &State, q: Seat, u: u8) -> i32 {
        let p = s.pl(q);
        let c = self.db.card(p.card[u as usize]);
        let mut v = i32::from(c.power)
            + i32::from(p.power_turn[u as usize])
            + i32::from(p.power_battle[u as usize]);
        for owner in Seat::ALL {
            let o = s.pl(owner);
            for i in Bits(o.scene) {
                let src = self.db.card(o.card[i as usize]);
                for st in &src.statics {
                    if side_ok(st.side, owner, q)
                        && self.static_filter(s, q, u, &st.filter, owner, i)
                    {
                        v += i32::from(st.power);
                    }
                }
            }
        }
        v.max(0)
    }

    /// A static's filter, on printed power (no static reads another's result).
    fn static_filter(&self, s: &State, q: Seat, u: u8, f: &Filter, owner: Seat, src: u8) -> bool {
        let c = self.card_of(s, q, u);
        self.filter_common(s, q, u, f, owner, src)
            && f.power_min.is_none_or(|m| c.power >= m)
            && f.power_max.is_none_or(|m| c.power <= m)
    }

    fn filter_common(&self, s: &State, q: Seat, u: u8, f: &Filter, who: Seat, src: u8) -> bool {
        let p = s.pl(q);
        let c = self.db.card(p.card[u as usize]);
        (f.attrs == 0 || c.attrs & f.attrs != 0)
            && c.keywords.0 & f.keywords.0 == f.keywords.0
            && (!f.flame || c.flame)
            && f.cost_min.is_none_or(|m| c.cost >= m)
            && f.cost_max.is_none_or(|m| c.cost <= m)
            && f.ready.is_none_or(|r| (p.exhausted & 1 << u == 0) == r)
            && !(f.other && q == who && u == src)
    }

    /// Whether Unit `u` of `q` matches `f` for an ability of `who`'s card `src`.
    pub fn matches(&self, s: &State, q: Seat, u: u8, f: &Filter, who: Seat, src: u8) -> bool {
        if !self.filter_common(s, q, u, f, who, src) {
            return false;
        }
        if f.power_min.is_some() || f.power_max.is_some() {
            let v = self.power(s, q, u);
            f.power_min.is_none_or(|m| v >= i32::from(m))
                && f.power_max.is_none_or(|m| v <= i32::from(m))
        } else {
            true
        }
    }

    /// The Units a target names, per seat, for an ability of `who`'s card `src`.
    pub fn candidates(&self, s: &State, t: &Target, who: Seat, src: u8) -> [u64; 2] {
        let mut out = [0u64; 2];
        match *t {
            Target::Attacker => {
                let a = s.battle.attacker;
                if a != NONE && s.step != Step::Main {
                    out[s.active.index()] = 1 << a;
                }
            }
            Target::Attacked => {
                let b = s.battle.target;
                if b != NONE && !s.battle.on_player {
                    out[s.active.other().index()] = 1 << b;
                }
            }
            Target::Units {
                mode: TargetMode::This,
                ..
            } => {
                if s.pl(who).units() & 1 << src != 0 {
                    out[who.index()] = 1 << src;
                }
            }
            Target::Units { side, filter, .. } => {
                for q in Seat::ALL {
                    if side_ok(side, who, q) {
                        out[q.index()] = Bits(s.pl(q).units())
                            .filter(|&u| self.matches(s, q, u, &filter, who, src))
                            .fold(0, |m, u| m | 1 << u);
                    }
                }
            }
        }
        out
    }

    // ---- effects ----

    /// The effects of a frame's ability.
    fn frame_effects(&self, s: &State, f: &Frame) -> &[Effect] {
        let c = self.card_of(s, Seat::ALL[f.who as usize], f.src);
        if f.ability == LIFE_TRIGGER {
            &c.life_trigger
        } else {
            &c.abilities[f.ability as usize].effects
        }
    }

    /// Resolves the first frame as far as it goes. Returns false when it waits for a pick.
    fn run_frame(&self, s: &mut State) -> bool {
        let f = s.frames[0];
        let who = Seat::ALL[f.who as usize];
        if f.ability == PRAY_FRAME || f.ability == LINK_FRAME {
            if f.next > 0 {
                s.frames.remove(0);
                return true;
            }
            s.chooser = who;
            if f.ability == PRAY_FRAME {
                // F-KW-PRAY: up to 1 of your Units (the Flame card follows, `play`).
                let mut mask = [0u64; 2];
                mask[who.index()] = s.pl(who).units();
                s.pick = Pick::Unit {
                    mask,
                    optional: true,
                };
                return false;
            }
            // F-KW-ADOLLA-LINK: up to 1 [THE ADOLLA BURST] card of THE ADOLLA.
            if self.link_cards(s, who) != 0 {
                s.pick = Pick::Link;
                return false;
            }
            s.frames.remove(0);
            return true;
        }
        loop {
            let f = s.frames[0];
            let who = Seat::ALL[f.who as usize];
            let effects = self.frame_effects(s, &f);
            let Some(&e) = effects.get(f.next as usize) else {
                s.frames.remove(0);
                return true;
            };
            if !self.resolve(s, who, f.src, e) {
                return false;
            }
            s.frames.as_mut_slice()[0].next += 1;
            if s.winner.is_some() {
                return true;
            }
        }
    }

    /// One effect (T-EFF-like sequencing: in order, each as far as it can). Returns false when it
    /// waits for a pick (the pick's action finishes it).
    fn resolve(&self, s: &mut State, who: Seat, src: u8, e: Effect) -> bool {
        match e {
            Effect::Draw(n) => Self::draw(s, who, n),
            Effect::Mill(n) => Self::mill(s, who.other(), n),
            Effect::Life(n) => Self::life(s, who, n),
            Effect::Flame(n) => {
                if s.pl(who).flame_deck != 0 {
                    s.pick = Pick::Flame {
                        to: NONE,
                        more: n - 1,
                    };
                    s.chooser = who;
                    return false;
                }
            }
            _ => {
                let t = e.target().expect("the other effects have a target");
                let c = self.candidates(s, t, who, src);
                let choose = matches!(
                    t,
                    Target::Units {
                        mode: TargetMode::Choose,
                        ..
                    }
                );
                let n = c[0].count_ones() + c[1].count_ones();
                if choose && n > 1 {
                    s.pick = Pick::Unit {
                        mask: c,
                        optional: false,
                    };
                    s.chooser = who;
                    return false;
                }
                for q in Seat::ALL {
                    for u in Bits(c[q.index()]) {
                        if !self.apply_to(s, who, e, q, u) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// An effect on Unit `u` of `q` (still on the Scene). False when it waits for a pick (Give).
    fn apply_to(&self, s: &mut State, who: Seat, e: Effect, q: Seat, u: u8) -> bool {
        if s.pl(q).units() & 1 << u == 0 {
            return true;
        }
        match e {
            Effect::Remove(_) => self.remove(s, q, u),
            Effect::Exhaust(_) => s.pl_mut(q).exhausted |= 1 << u,
            Effect::Ready(_) => s.pl_mut(q).exhausted &= !(1 << u),
            Effect::Bounce(_) => {
                Self::leave_scene(s, q, u);
                s.pl_mut(q).hand |= 1 << u;
            }
            Effect::Power(_, n, Until::EndOfTurn) => s.pl_mut(q).power_turn[u as usize] += n,
            Effect::Power(_, n, Until::EndOfBattle) => {
                if s.battle.attacker == NONE && s.battle.target == NONE {
                    s.pl_mut(q).power_turn[u as usize] += n;
                } else {
                    s.pl_mut(q).power_battle[u as usize] += n;
                }
            }
            Effect::Give(_) => {
                debug_assert_eq!(q, who);
                if s.pl(q).flame_deck != 0 {
                    s.pick = Pick::Flame { to: u, more: 0 };
                    s.chooser = q;
                    return false;
                }
            }
            _ => unreachable!("effects without a target"),
        }
        true
    }

    /// F-PREP-5: the distinct cards of `q`'s Flame deck, one instance each (lowest).
    pub fn flame_choices(s: &State, q: Seat) -> impl Iterator<Item = u8> + '_ {
        let p = s.pl(q);
        Bits(p.flame_deck).filter(move |&i| {
            Bits(p.flame_deck & ((1u64 << i) - 1)).all(|j| p.card[j as usize] != p.card[i as usize])
        })
    }

    /// The first two Flame choices of the chooser (is there a choice at all?).
    fn first_two(s: &State) -> (Option<u8>, Option<u8>) {
        let mut c = Self::flame_choices(s, s.chooser);
        (c.next(), c.next())
    }

    /// Puts Flame instance `i` of `q` from the Flame deck onto the Scene (F-PREP-3, F-SETUP-5,
    /// F-KW-PRAY): exhausted or ready, given to Unit `to` or to none.
    fn place_flame(s: &mut State, q: Seat, i: u8, exhausted: bool, to: u8) {
        let p = s.pl_mut(q);
        let bit = 1u64 << i;
        p.flame_deck &= !bit;
        p.scene |= bit;
        if exhausted {
            p.exhausted |= bit;
        }
        p.given_to[i as usize - FLAME_BASE] = if to != NONE && p.units() & 1 << to != 0 {
            to
        } else {
            NONE
        };
    }

    // ---- the turn (F-PREP, F-END) ----

    /// F-PREP-1..3 of `q`'s turn.
    fn begin_turn(&self, s: &mut State, q: Seat) {
        s.active = q;
        s.turn += 1;
        s.acts = [0; 2];
        // F-PREP-1: exhausted cards, and Flame cards given to Units, become ready.
        s.pl_mut(q).exhausted = 0;
        // F-PREP-2 (F-PREP-4: on turn 1 too).
        Self::draw(s, q, 1);
        // F-PREP-3.
        s.step = if s.pl(q).flame_deck != 0 {
            Step::PrepFlame
        } else {
            Step::Main
        };
        s.chooser = q;
    }

    /// F-END-1 (after the end-of-turn abilities): "until end of turn" ends, the turn passes.
    fn end_turn(&self, s: &mut State) {
        for p in &mut s.p {
            p.power_turn = [0; FLAME_BASE];
            p.fresh = 0;
            p.once = 0;
        }
        self.begin_turn(s, s.active.other());
    }

    /// Advances until a player must decide or the game is over.
    pub fn settle(&self, s: &mut State) {
        loop {
            if s.winner.is_some() {
                s.step = Step::Over;
                s.pick = Pick::None;
                s.frames.clear();
                return;
            }
            // F-COST-2: at once, whatever else is going on.
            if s.pick == Pick::None {
                for q in [s.active, s.active.other()] {
                    if self.with_flame(s, q).count_ones() > FLAME_LIMIT {
                        s.pick = Pick::Limit;
                        s.chooser = q;
                        return;
                    }
                }
            }
            if s.pick != Pick::None {
                if let Pick::Flame { to, more } = s.pick {
                    // A Flame choice with one distinct card is no choice.
                    let two = Self::first_two(s);
                    if let (Some(i), None) = two {
                        self.choose_flame(s, i, to, more);
                        continue;
                    }
                }
                return;
            }
            if !s.frames.is_empty() {
                if self.run_frame(s) {
                    continue;
                }
                return;
            }
            // When Removed abilities, the turn player's first, lowest instance first.
            if let Some(q) = [s.active, s.active.other()]
                .into_iter()
                .find(|q| s.removed[q.index()] != 0)
            {
                let u = s.removed[q.index()].trailing_zeros() as u8;
                s.removed[q.index()] &= !(1 << u);
                self.push_triggers(s, q, u, Trigger::Removed);
                continue;
            }
            match s.step {
                Step::Redraw => {
                    if let Some(q) = [s.first, s.first.other()]
                        .into_iter()
                        .find(|q| !s.pl(*q).redraw_done)
                    {
                        s.chooser = q;
                        return;
                    }
                    // F-SETUP-3.
                    for q in Seat::ALL {
                        Self::life(s, q, 5);
                    }
                    s.step = Step::SetupFlame;
                    s.chooser = s.first.other();
                    if s.pl(s.chooser).flame_deck == 0 {
                        self.begin_turn(s, s.first);
                    }
                }
                Step::SetupFlame | Step::PrepFlame => {
                    s.chooser = if s.step == Step::SetupFlame {
                        s.first.other()
                    } else {
                        s.active
                    };
                    match Self::first_two(s) {
                        (Some(i), None) => self.flame_step(s, i),
                        (None, _) => s.step = Step::Main,
                        _ => return,
                    }
                }
                Step::Main | Step::Target => {
                    s.chooser = s.active;
                    return;
                }
                Step::LifeTrigger => {
                    s.chooser = s.active.other();
                    return;
                }
                Step::Attacking => {
                    // F-BAT-3.
                    let a = s.battle.attacker;
                    s.step = Step::Block;
                    if a != NONE {
                        self.push_triggers(s, s.active, a, Trigger::Attacking);
                    }
                }
                Step::Block => {
                    if s.battle.attacker == NONE || self.blockers(s) == 0 {
                        s.step = Step::Reaction;
                        continue;
                    }
                    s.chooser = s.active.other();
                    return;
                }
                Step::Reaction => {
                    if !self.battle_on(s) || !self.any_reaction(s) {
                        s.step = Step::Support;
                        continue;
                    }
                    s.chooser = s.active.other();
                    return;
                }
                Step::Support => {
                    if !self.battle_on(s) || s.battle.on_player || self.support_cards(s) == 0 {
                        s.step = Step::Damage;
                        continue;
                    }
                    s.chooser = s.active.other();
                    return;
                }
                Step::Damage => self.damage(s),
                Step::BattleEnd => {
                    // F-BAT-9: end-of-battle abilities of the Units that took part.
                    s.step = Step::BattleOver;
                    let (a, t) = (s.battle.attacker, s.battle.target);
                    if a != NONE {
                        self.push_triggers(s, s.active, a, Trigger::BattleEnd);
                    }
                    if t != NONE && !s.battle.on_player {
                        self.push_triggers(s, s.active.other(), t, Trigger::BattleEnd);
                    }
                }
                Step::BattleOver => {
                    for p in &mut s.p {
                        p.power_battle = [0; FLAME_BASE];
                    }
                    s.battle = Battle::NONE;
                    s.step = Step::Main;
                    s.chooser = s.active;
                }
                Step::End => {
                    // F-END-1: end-of-turn abilities, lowest instance first.
                    let units = s.pl(s.active).units();
                    let next = Bits(s.ends & units).next();
                    match next {
                        Some(u) => {
                            s.ends &= !(1 << u);
                            self.push_triggers(s, s.active, u, Trigger::TurnEnd);
                        }
                        None => {
                            s.ends = 0;
                            self.end_turn(s);
                        }
                    }
                }
                Step::Over => return,
            }
        }
    }

    /// Whether the battle goes on: the attacker and (for an attack on a Unit) the attacked Unit
    /// are still on the Scene (F-BAT-13).
    fn battle_on(&self, s: &State) -> bool {
        s.battle.attacker != NONE && (s.battle.on_player || s.battle.target != NONE)
    }

    /// F-BAT-7, F-BAT-8.
    fn damage(&self, s: &mut State) {
        s.step = Step::BattleEnd;
        if !self.battle_on(s) {
            return;
        }
        let (att, def) = (s.active, s.active.other());
        if s.battle.on_player {
            let p = s.pl_mut(def);
            if p.life_len == 0 {
                // F-WIN-1.
                s.winner = Some(Outcome::Win(att));
                s.win_reason = 1;
                return;
            }
            let i = p.pile[FLAME_BASE - p.life_len as usize];
            p.life_len -= 1;
            p.adolla |= 1 << i;
            Self::reveal(s, def, i);
            s.battle.revealed = i;
            if !self.card_of(s, def, i).life_trigger.is_empty() {
                s.step = Step::LifeTrigger;
                s.chooser = def;
            }
        } else {
            let t = s.battle.target;
            if self.power(s, att, s.battle.attacker) >= self.power(s, def, t) {
                self.remove(s, def, t);
            }
        }
    }

    /// Queues `q`'s Unit `u`'s abilities with trigger `t`.
    fn push_triggers(&self, s: &mut State, q: Seat, u: u8, t: Trigger) {
        let c = self.card_of(s, q, u);
        for (k, _) in c.abilities_on(t) {
            s.frames.push(Frame {
                who: q.index() as u8,
                src: u,
                ability: k as u8,
                next: 0,
            });
        }
    }

    /// A Flame card chosen at setup or in preparation.
    fn flame_step(&self, s: &mut State, i: u8) {
        if s.step == Step::SetupFlame {
            // F-SETUP-5: exhausted.
            Self::place_flame(s, s.chooser, i, true, NONE);
            self.begin_turn(s, s.first);
        } else {
            // F-PREP-3: ready.
            Self::place_flame(s, s.active, i, false, NONE);
            s.step = Step::Main;
        }
    }

    /// A Flame card chosen for an effect (`give`, `flame N`, Pray): placed exhausted.
    fn choose_flame(&self, s: &mut State, i: u8, to: u8, more: u8) {
        let q = s.chooser;
        Self::place_flame(s, q, i, true, to);
        if more > 0 && s.pl(q).flame_deck != 0 {
            s.pick = Pick::Flame { to, more: more - 1 };
        } else {
            s.pick = Pick::None;
            if !s.frames.is_empty() {
                s.frames.as_mut_slice()[0].next += 1;
            }
        }
    }

    // ---- legal actions ----

    /// F-BAT-4: the attacked player's ready Units with Blocker.
    pub fn blockers(&self, s: &State) -> u64 {
        let d = s.pl(s.active.other());
        Bits(d.units() & !d.exhausted)
            .filter(|&u| {
                self.db
                    .card(d.card[u as usize])
                    .keywords
                    .has(Keywords::BLOCKER)
            })
            .fold(0, |m, u| m | 1 << u)
    }

    /// F-BAT-6: the attacked player's hand cards with support power, of card id at least the last
    /// one used (F-BAT-10).
    pub fn support_cards(&self, s: &State) -> u64 {
        let d = s.pl(s.active.other());
        Bits(d.hand)
            .filter(|&i| {
                let id = d.card[i as usize];
                self.db.card(id).support > 0 && id >= s.battle.support_last
            })
            .fold(0, |m, u| m | 1 << u)
    }

    /// Whether an activated ability `k` of `q`'s Unit `u` can be paid now.
    fn can_activate(&self, s: &State, q: Seat, u: u8, k: usize) -> bool {
        let p = s.pl(q);
        let a = &self.card_of(s, q, u).abilities[k];
        if a.cost.once && p.once & 1 << u != 0 {
            return false;
        }
        if a.cost.exhaust && p.exhausted & 1 << u != 0 {
            return false;
        }
        let except = if a.cost.exhaust { 1u64 << u } else { 0 };
        self.can_pay(s, q, except) >= u32::from(a.cost.flame)
    }

    fn any_reaction(&self, s: &State) -> bool {
        let mut out = ActionList::new();
        self.reactions(s, &mut out);
        !out.is_empty()
    }

    /// F-BAT-5, F-KW-REACTION: Reaction Events in hand and Reaction abilities on the Scene.
    fn reactions(&self, s: &State, out: &mut ActionList<Action>) {
        let d = s.active.other();
        if s.acts[d.index()] >= MAX_ACTS {
            return;
        }
        let p = s.pl(d);
        let pay = self.can_pay(s, d, 0);
        let mut seen = 0u64;
        for i in Bits(p.hand) {
            let id = p.card[i as usize];
            let c = self.db.card(id);
            if c.ctype == CardType::Event
                && c.abilities[0].trigger == Trigger::Reaction
                && u32::from(c.cost) <= pay
                && !Self::seen(&mut seen, s, d, i)
            {
                out.push(Action::React(id));
            }
        }
        for u in Bits(p.units()) {
            for (k, _) in self.card_of(s, d, u).abilities_on(Trigger::Reaction) {
                if self.can_activate(s, d, u, k) {
                    out.push(Action::Activate(u, k as u8));
                }
            }
        }
    }

    /// Whether another instance of `i`'s card in `q`'s hand came first (one action per card id).
    fn seen(seen: &mut u64, s: &State, q: Seat, i: u8) -> bool {
        // Card ids < 250 fit in four words; a u64 per id range is plenty for a hand: compare ids.
        let p = s.pl(q);
        let id = p.card[i as usize];
        let dup = Bits(*seen).any(|j| p.card[j as usize] == id);
        *seen |= 1 << i;
        dup
    }

    /// The legal actions of the player to move.
    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear();
        if s.winner.is_some() {
            return;
        }
        let me = s.chooser;
        match s.pick {
            Pick::None => {}
            Pick::Unit { mask, optional } => {
                for q in Seat::ALL {
                    for u in Bits(mask[q.index()]) {
                        out.push(Action::Pick(q.index() as u8 * 64 + u));
                    }
                }
                if optional {
                    out.push(Action::Pass);
                }
                return;
            }
            Pick::Flame { .. } => {
                for i in Self::flame_choices(s, me) {
                    out.push(Action::Flame(s.pl(me).card[i as usize]));
                }
                return;
            }
            Pick::Limit => {
                for i in Bits(self.with_flame(s, me)) {
                    out.push(Action::Pick(me.index() as u8 * 64 + i));
                }
                return;
            }
            Pick::Link => {
                let mut seen = 0u64;
                for i in Bits(self.link_cards(s, me)) {
                    if !Self::seen(&mut seen, s, me, i) {
                        out.push(Action::Pick(me.index() as u8 * 64 + i));
                    }
                }
                out.push(Action::Pass);
                return;
            }
        }
        match s.step {
            Step::Redraw => {
                out.push(Action::Keep);
                out.push(Action::Redraw);
            }
            Step::SetupFlame | Step::PrepFlame => {
                for i in Self::flame_choices(s, me) {
                    out.push(Action::Flame(s.pl(me).card[i as usize]));
                }
            }
            Step::Main => self.main_actions(s, out),
            Step::Target => {
                let d = s.pl(me.other());
                for u in Bits(d.units() & d.exhausted) {
                    out.push(Action::Target(u));
                }
                if self.may_attack_player(s, s.battle.attacker) {
                    out.push(Action::Target(NONE));
                }
            }
            Step::Block => {
                for u in Bits(self.blockers(s)) {
                    out.push(Action::Block(u));
                }
                out.push(Action::Pass);
            }
            Step::Reaction => {
                self.reactions(s, out);
                out.push(Action::Pass);
            }
            Step::Support => {
                let mut seen = 0u64;
                for i in Bits(self.support_cards(s)) {
                    if !Self::seen(&mut seen, s, me, i) {
                        out.push(Action::Support(s.pl(me).card[i as usize]));
                    }
                }
                out.push(Action::Pass);
            }
            Step::LifeTrigger => {
                out.push(Action::UseTrigger);
                out.push(Action::Pass);
            }
            _ => {}
        }
        debug_assert!(out.len() <= crate::core::MAX_ACTIONS);
    }

    /// F-KW-ADOLLA-LINK: the [THE ADOLLA BURST] cards of `q`'s THE ADOLLA.
    pub fn link_cards(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        Bits(p.adolla)
            .filter(|&i| self.card_of(s, q, i).adolla_burst(&self.db))
            .fold(0, |m, i| m | 1 << i)
    }

    /// F-BAT-2: only a Unit with Flame or given a Flame card attacks the player.
    pub fn may_attack_player(&self, s: &State, u: u8) -> bool {
        u != NONE && (self.card_of(s, s.active, u).flame || s.pl(s.active).is_given(u))
    }

    /// F-MAIN-1.
    fn main_actions(&self, s: &State, out: &mut ActionList<Action>) {
        let q = s.active;
        if s.acts[q.index()] >= MAX_ACTS {
            // F-MAIN-3: every turn ends, whatever the cards.
            out.push(Action::End);
            return;
        }
        let p = s.pl(q);
        let pay = self.can_pay(s, q, 0);
        let mut seen = 0u64;
        for i in Bits(p.hand) {
            let id = p.card[i as usize];
            let c = self.db.card(id);
            if u32::from(c.cost) > pay || Self::seen(&mut seen, s, q, i) {
                continue;
            }
            match c.ctype {
                CardType::Unit => out.push(Action::Dispatch(id)),
                CardType::Event if c.abilities[0].trigger == Trigger::Main => {
                    out.push(Action::Play(id))
                }
                _ => {}
            }
        }
        let enemy = s.pl(q.other());
        let targets = enemy.units() & enemy.exhausted != 0;
        for u in Bits(p.units()) {
            let c = self.card_of(s, q, u);
            let ready = p.exhausted & 1 << u == 0;
            // F-BAT-1, F-KW-BLITZ; F-BAT-12: it needs a target.
            if ready
                && (p.fresh & 1 << u == 0 || c.keywords.has(Keywords::BLITZ))
                && (targets || c.flame || p.is_given(u))
            {
                out.push(Action::Attack(u));
            }
            // F-KW-PRAY (decision F-KW-PRAY-2: only with a Flame card to give).
            if ready && c.keywords.has(Keywords::PRAY) && p.flame_deck != 0 {
                out.push(Action::Activate(u, PRAY));
            }
            for (k, _) in c.abilities_on(Trigger::Active) {
                if self.can_activate(s, q, u, k) {
                    out.push(Action::Activate(u, k as u8));
                }
            }
        }
        out.push(Action::End);
    }

    // ---- playing an action ----

    /// Plays a legal action.
    pub fn play(&self, s: &mut State, a: Action) {
        let me = s.chooser;
        if s.pick == Pick::None
            && matches!(
                a,
                Action::Dispatch(_)
                    | Action::Play(_)
                    | Action::React(_)
                    | Action::Activate(..)
                    | Action::Attack(_)
            )
        {
            s.acts[me.index()] += 1;
        }
        match a {
            Action::Pick(code) => {
                let (q, i) = (Seat::ALL[usize::from(code >= 64)], code % 64);
                match s.pick {
                    Pick::Limit => {
                        s.pick = Pick::None;
                        Self::limit_out(s, q, i);
                    }
                    Pick::Link => {
                        // F-KW-ADOLLA-LINK: face down onto the Scene as an exhausted Flame card.
                        s.pick = Pick::None;
                        s.frames.as_mut_slice()[0].next += 1;
                        let p = s.pl_mut(me);
                        p.adolla &= !(1 << i);
                        p.scene |= 1 << i;
                        p.as_flame |= 1 << i;
                        p.exhausted |= 1 << i;
                    }
                    Pick::Unit { .. } => {
                        s.pick = Pick::None;
                        let f = s.frames[0];
                        let done = if f.ability == PRAY_FRAME {
                            // F-KW-PRAY: the chosen Unit is given a Flame card.
                            s.pick = Pick::Flame { to: i, more: 0 };
                            s.chooser = me;
                            false
                        } else {
                            let e = self.frame_effects(s, &f)[f.next as usize];
                            self.apply_to(s, me, e, q, i)
                        };
                        if done {
                            s.frames.as_mut_slice()[0].next += 1;
                        }
                    }
                    _ => unreachable!("a pick action answers a pick"),
                }
            }
            Action::Flame(id) => {
                let i = Self::flame_choices(s, me)
                    .find(|&i| s.pl(me).card[i as usize] == id)
                    .expect("a legal Flame card");
                match s.pick {
                    Pick::Flame { to, more } => self.choose_flame(s, i, to, more),
                    _ => self.flame_step(s, i),
                }
            }
            Action::Pass => match s.pick {
                Pick::Link => {
                    s.pick = Pick::None;
                    s.frames.as_mut_slice()[0].next += 1;
                }
                Pick::Unit { .. } => {
                    s.pick = Pick::None;
                    s.frames.as_mut_slice()[0].next += 1;
                }
                _ => match s.step {
                    Step::Block => s.step = Step::Reaction,
                    Step::Reaction => s.step = Step::Support,
                    Step::Support => s.step = Step::Damage,
                    Step::LifeTrigger => s.step = Step::BattleEnd,
                    _ => unreachable!("pass is legal in these steps"),
                },
            },
            Action::Keep | Action::Redraw => {
                if a == Action::Redraw {
                    Self::redraw(s, me);
                }
                s.pl_mut(me).redraw_done = true;
            }
            Action::Dispatch(id) => {
                let i = self.hand_instance(s, me, id);
                let cost = self.db.card(id).cost;
                self.pay(s, me, cost);
                let p = s.pl_mut(me);
                p.hand &= !(1 << i);
                p.scene |= 1 << i;
                p.fresh |= 1 << i;
                Self::reveal(s, me, i);
                // F-KW-TRIGGERS: When Dispatched; F-KW-ADOLLA-LINK after it.
                self.push_triggers(s, me, i, Trigger::Dispatched);
                if self
                    .db
                    .card(id)
                    .keywords
                    .has(Keywords::ADOLLA_LINK)
                {
                    s.frames.push(Frame {
                        who: me.index() as u8,
                        src: i,
                        ability: LINK_FRAME,
                        next: 0,
                    });
                }
            }
            Action::Play(id) | Action::React(id) => {
                let i = self.hand_instance(s, me, id);
                self.pay(s, me, self.db.card(id).cost);
                let p = s.pl_mut(me);
                p.hand &= !(1 << i);
                // F-MAIN-2: the Event goes into THE ADOLLA as it resolves.
                p.adolla |= 1 << i;
                Self::reveal(s, me, i);
                s.frames.push(Frame {
                    who: me.index() as u8,
                    src: i,
                    ability: 0,
                    next: 0,
                });
            }
            Action::Activate(u, PRAY) => {
                // F-KW-PRAY: exhaust this Unit; choose up to 1 of your Units.
                s.pl_mut(me).exhausted |= 1 << u;
                s.frames.push(Frame {
                    who: me.index() as u8,
                    src: u,
                    ability: PRAY_FRAME,
                    next: 0,
                });
            }
            Action::Activate(u, k) => {
                let cost = self.card_of(s, me, u).abilities[k as usize].cost;
                if cost.exhaust {
                    s.pl_mut(me).exhausted |= 1 << u;
                }
                if cost.once {
                    s.pl_mut(me).once |= 1 << u;
                }
                self.pay(s, me, cost.flame);
                s.frames.push(Frame {
                    who: me.index() as u8,
                    src: u,
                    ability: k,
                    next: 0,
                });
            }
            Action::Attack(u) => {
                // F-BAT-1.
                s.pl_mut(me).exhausted |= 1 << u;
                s.battle = Battle {
                    attacker: u,
                    ..Battle::NONE
                };
                s.step = Step::Target;
            }
            Action::Target(t) => {
                // F-BAT-2.
                s.battle.target = t;
                s.battle.on_player = t == NONE;
                s.step = Step::Attacking;
            }
            Action::Block(u) => {
                // F-BAT-4, F-BAT-11.
                s.pl_mut(me).exhausted |= 1 << u;
                s.battle.target = u;
                s.battle.on_player = false;
                s.step = Step::Reaction;
                self.push_triggers(s, me, u, Trigger::Blocking);
            }
            Action::Support(id) => {
                // F-BAT-6, F-BAT-10.
                let i = self.hand_instance(s, me, id);
                let p = s.pl_mut(me);
                p.hand &= !(1 << i);
                p.adolla |= 1 << i;
                Self::reveal(s, me, i);
                let t = s.battle.target;
                s.pl_mut(me).power_battle[t as usize] += self.db.card(id).support;
                s.battle.support_last = id;
            }
            Action::UseTrigger => {
                // F-BAT-8.
                s.frames.push(Frame {
                    who: me.index() as u8,
                    src: s.battle.revealed,
                    ability: LIFE_TRIGGER,
                    next: 0,
                });
                s.step = Step::BattleEnd;
            }
            Action::End => {
                s.step = Step::End;
                s.ends = Bits(s.pl(me).units())
                    .filter(|&u| {
                        self.card_of(s, me, u)
                            .abilities_on(Trigger::TurnEnd)
                            .next()
                            .is_some()
                    })
                    .fold(0, |m, u| m | 1 << u);
            }
        }
        self.settle(s);
    }

    /// The lowest instance of card `id` in `q`'s hand.
    fn hand_instance(&self, s: &State, q: Seat, id: CardId) -> u8 {
        let p = s.pl(q);
        Bits(p.hand)
            .find(|&i| p.card[i as usize] == id)
            .expect("a legal action names a card in hand")
    }

    /// A static estimate that `seat` wins.
    pub fn estimate(&self, s: &State, seat: Seat) -> f64 {
        if let Some(o) = s.winner {
            return match o {
                Outcome::Win(w) if w == seat => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            };
        }
        let side = |q: Seat| {
            let p = s.pl(q);
            let board: i32 = Bits(p.units()).map(|u| self.power(s, q, u)).sum();
            f64::from(p.life_len) * 1.0
                + f64::from(board) / 3000.0
                + f64::from(p.hand.count_ones()) * 0.3
                + f64::from(self.with_flame(s, q).count_ones()) * 0.3
                + if p.deck_len < 5 { -2.0 } else { 0.0 }
        };
        let d = side(seat) - side(seat.other());
        1.0 / (1.0 + (-d / 3.0).exp())
    }
}

/// [`Frame::ability`] of F-KW-PRAY's resolution (the Unit pick, then the Flame card).
pub const PRAY_FRAME: u8 = 0xFC;
/// [`Frame::ability`] of F-KW-ADOLLA-LINK's resolution (the [ADOLLA BURST] pick).
pub const LINK_FRAME: u8 = 0xFD;

#[allow(dead_code)]
fn _assert_state_size() {
    const _: () = assert!(std::mem::size_of::<State>() <= 1024);
}
