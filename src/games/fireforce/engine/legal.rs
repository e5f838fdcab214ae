//! The legal actions of each decision, with the capacity bound of `mod.rs`.

use super::*;

impl FireForceGame {
    // ---- legal actions ----

    /// Whether an activated ability `k` of `q`'s Unit `u` can be paid now.
    pub(super) fn can_activate(&self, s: &State, q: Seat, u: u8, k: u8) -> bool {
        let p = s.pl(q);
        let a = &self.card_of(s, q, u).abilities[usize::from(k)];
        if a.cost.once && p.once & 1 << u != 0 {
            return false;
        }
        if a.cost.exhaust && p.exhausted & 1 << u != 0 {
            return false;
        }
        let except = if a.cost.exhaust { 1u64 << u } else { 0 };
        self.can_pay(s, q, except) >= u32::from(a.cost.flame)
            && (a.cond.is_none() || self.play_gate(s, q, u, k))
    }

    /// Decision F-EFF-6: whether the head's condition of ability `k` of `q`'s card `i` (in hand
    /// or on the Scene) holds now ("play only if", "activate only if").
    #[cold]
    pub(super) fn play_gate(&self, s: &State, q: Seat, i: u8, k: u8) -> bool {
        match &self.card_of(s, q, i).abilities[usize::from(k)].cond {
            Some(c) => crate::core::lang::eval::cond(&self.judge(s, q, i, NONE), c),
            None => true,
        }
    }

    /// Whether the attacked player has a legal reaction (F-BAT-10: else step 5 is skipped).
    pub(super) fn any_reaction(&self, s: &State) -> bool {
        !self.each_reaction::<false>(s, &mut |_| false)
    }

    /// F-BAT-5, F-KW-REACTION: Reaction Events in hand and Reaction abilities on the Scene.
    pub(super) fn reactions(&self, s: &State, out: &mut ActionList<Action>) {
        self.each_reaction::<true>(s, &mut |a| {
            out.push(a);
            true
        });
    }

    /// Calls `f` with each legal reaction until it returns false; false if it stopped. With
    /// `ONCE`, a Reaction Event is offered once per card id (one action a card, as
    /// [`Self::main_actions`]); without it (a caller that stops at the first reaction, as
    /// [`Self::any_reaction`]) the ids met are not kept.
    fn each_reaction<const ONCE: bool>(
        &self,
        s: &State,
        f: &mut impl FnMut(Action) -> bool,
    ) -> bool {
        let d = s.active.other();
        if s.acts[d.index()] >= MAX_ACTS {
            return true;
        }
        let p = s.pl(d);
        let pay = self.can_pay(s, d, 0);
        let mut seen = [0u64; 4];
        for i in Bits(p.hand) {
            let id = p.card[i as usize];
            let b = self.db.brief(id);
            if b.has(Brief::REACT_EVENT | Brief::GATED_REACT)
                && (b.has(Brief::REACT_EVENT) || self.play_gate(s, d, i, 0))
                && u32::from(if self.lang.costs {
                    self.hand_cost(s, d, i)
                } else {
                    b.cost
                }) <= pay
                && !(ONCE && Self::seen(&mut seen, s, d, i))
                && !f(Action::React(id))
            {
                return false;
            }
        }
        for u in Bits(p.units()) {
            for k in Bits(u64::from(self.db.brief(p.card[u as usize]).reaction)) {
                if self.can_activate(s, d, u, k) && !f(Action::Activate(u, k)) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `i`'s card (of `q`) was met before: one action per card id. `seen` is a set of
    /// card ids (they are below 256).
    #[inline]
    pub(super) fn seen(seen: &mut [u64; 4], s: &State, q: Seat, i: u8) -> bool {
        let id = s.pl(q).card[i as usize];
        let (w, b) = (usize::from(id / 64), 1u64 << (id % 64));
        let dup = seen[w] & b != 0;
        seen[w] |= b;
        dup
    }

    /// The answers to a pick (a choice inside an effect or a rule).
    #[inline(never)]
    fn pick_actions(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
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
            }
            Pick::Flame { .. } => {
                for i in Self::flame_choices(s, me) {
                    out.push(Action::Flame(s.pl(me).card[i as usize]));
                }
            }
            Pick::Limit => {
                for i in Bits(self.with_flame(s, me)) {
                    out.push(Action::Pick(me.index() as u8 * 64 + i));
                }
            }
            Pick::Link => {
                let mut seen = [0u64; 4];
                for i in Bits(self.link_cards(s, me)) {
                    if !Self::seen(&mut seen, s, me, i) {
                        out.push(Action::Pick(me.index() as u8 * 64 + i));
                    }
                }
                out.push(Action::Pass);
            }
            Pick::Cards { q, mask, optional } => {
                let q = Seat::ALL[q as usize];
                for i in Self::distinct_cards(s, q, mask) {
                    out.push(Action::Card(s.pl(q).card[i as usize]));
                }
                if optional {
                    out.push(Action::Pass);
                }
            }
            Pick::Mode { n } => {
                for k in 0..n {
                    out.push(Action::Mode(k));
                }
            }
            Pick::Name => {
                // Decision F-EFF-12.
                for &id in &self.names {
                    out.push(Action::Card(id));
                }
            }
            Pick::May { .. } => {
                out.push(Action::Yes);
                out.push(Action::Pass);
            }
            Pick::Pay { n, classes, .. } => Self::payments(n, &classes, out),
        }
    }

    /// The legal actions of the player to move.
    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear_scratch();
        if s.winner.is_some() {
            return;
        }
        let me = s.chooser;
        if !matches!(s.pick, Pick::None) {
            return self.pick_actions(s, me, out);
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
                let mut seen = [0u64; 4];
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

    /// The Units of `m` (of `q`) without `cant self attack_player`.
    #[cold]
    fn strip_no_face(&self, s: &State, q: Seat, m: u64) -> u64 {
        let p = s.pl(q);
        Bits(m)
            .filter(|&u| !self.db.brief(p.card[u as usize]).has(Brief::NO_FACE))
            .fold(0, |acc, u| acc | 1 << u)
    }

    /// F-BAT-1, F-KW-BLITZ: whether `p`'s Unit `u`, of brief `b`, is past the turn it was
    /// dispatched (or has Blitz), so that it may attack when ready.
    #[inline(always)]
    pub fn settled(p: &Player, u: u8, b: Brief) -> bool {
        p.fresh & 1 << u == 0 || b.has(Brief::BLITZ)
    }

    /// F-BAT-2: only a Unit with Flame or given a Flame card attacks the player (the active
    /// player's Unit `u`).
    #[inline]
    pub fn may_attack_player(&self, s: &State, u: u8) -> bool {
        self.may_attack_player_of(s, s.active, u)
    }

    /// [`Self::may_attack_player`] for `q`'s Unit `u`, whoever is the active player: whether it
    /// could attack the player on its own turn.
    #[inline]
    pub fn may_attack_player_of(&self, s: &State, q: Seat, u: u8) -> bool {
        // Decision F-CANT-1: not a Unit that `cant self attack_player`.
        let p = s.pl(q);
        u != NONE && {
            let b = self.db.brief(p.card[usize::from(u)]);
            b.has(Brief::FACE) || (p.is_given(u) && !b.has(Brief::NO_FACE))
        }
    }

    /// F-MAIN-1. Card facts come from [`CardDb::brief`], one small table read per card.
    pub(super) fn main_actions(&self, s: &State, out: &mut ActionList<Action>) {
        // The decks' later constructs (cost changes and bans, decision F-COST-8; `cant self
        // attack_player`, decision F-CANT-1) are asked once here, not once a card.
        if self.lang.costs || self.lang.no_face {
            self.main_actions_of::<true>(s, out);
        } else {
            self.main_actions_of::<false>(s, out);
        }
    }

    /// [`FireForceGame::main_actions`]; `LATER`: whether the match's decks hold cost changes,
    /// bans or `cant self attack_player` (`false` leaves their questions out of the code).
    fn main_actions_of<const LATER: bool>(&self, s: &State, out: &mut ActionList<Action>) {
        let q = s.active;
        if s.acts[q.index()] >= MAX_ACTS {
            // F-MAIN-3: every turn ends, whatever the cards.
            out.push(Action::End);
            return;
        }
        let p = s.pl(q);
        let pay = self.can_pay(s, q, 0);
        let mut seen = [0u64; 4];
        for i in Bits(p.hand) {
            let id = p.card[i as usize];
            let b = self.db.brief(id);
            // F-COST-1: payable; a Unit is dispatched, an Event with a `main` ability played.
            // (A card of neither kind gives nothing, so leaving its id out of `seen` changes no
            // other card's action: `seen` is by card id.)
            if u32::from(if LATER && self.lang.costs {
                self.hand_cost(s, q, i)
            } else {
                b.cost
            }) > pay
                || !(b.has(Brief::UNIT | Brief::MAIN_EVENT)
                    || (b.has(Brief::GATED_MAIN) && self.play_gate(s, q, i, 0)))
                || Self::seen(&mut seen, s, q, i)
            {
                continue;
            }
            out.push(if b.has(Brief::UNIT) {
                Action::Dispatch(id)
            } else {
                Action::Play(id)
            });
        }
        let enemy = s.pl(q.other());
        // F-BAT-12: an attack needs a target: an exhausted enemy Unit, or (F-BAT-2) the player,
        // which only a Unit with Flame or given a Flame card may attack.
        let reach = if enemy.units() & enemy.exhausted != 0 {
            !0
        } else {
            let given = p
                .given_to
                .iter()
                .filter(|&&u| u != NONE)
                .fold(0u64, |m, &u| m | 1 << u);
            if LATER && self.lang.no_face && given != 0 {
                // Decision F-CANT-1: a Unit that `cant self attack_player` has no target.
                self.strip_no_face(s, q, given)
            } else {
                given
            }
        };
        let (units, ready) = (p.units(), !p.exhausted);
        // F-BAT-1, F-KW-BLITZ: a ready Unit attacks once past the turn it was dispatched, or
        // with Blitz (the brief is read for the Units dispatched this turn only).
        let mut settled = !p.fresh;
        for u in Bits(units & ready & p.fresh) {
            if self.db.brief(p.card[u as usize]).has(Brief::BLITZ) {
                settled |= 1 << u;
            }
        }
        // F-BAT-2: [`Brief::FACE`] of a Unit is Flame (`flamey`) without `cant self
        // attack_player` (decision F-CANT-1; no card of the match has it unless `no_face`).
        let face = if LATER && self.lang.no_face {
            self.strip_no_face(s, q, p.flamey)
        } else {
            p.flamey
        };
        let attacks = units & ready & settled & (reach | face);
        // The Units in order, each one's actions in order: its attack, then (for the Units with
        // Pray or an Active ability, `acting`) its Pray and its activated abilities.
        let acting = units & p.acting.get();
        for u in Bits(attacks | acting) {
            let bit = 1u64 << u;
            if attacks & bit != 0 {
                out.push(Action::Attack(u));
            }
            if acting & bit != 0 {
                let b = self.db.brief(p.card[u as usize]);
                // F-KW-PRAY (decision F-KW-PRAY-2: only with a Flame card to give).
                if ready & bit != 0 && b.has(Brief::PRAY) && p.flame_deck != 0 {
                    out.push(Action::Activate(u, PRAY));
                }
                for k in Bits(u64::from(b.active)) {
                    if self.can_activate(s, q, u, k) {
                        out.push(Action::Activate(u, k));
                    }
                }
            }
        }
        out.push(Action::End);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::walk_random_games;
    use crate::core::{rng_from_seed, Game, GameDef};
    use rand::Rng;

    /// The legal-action code as it was before [`CardDb::brief`]: every fact read from the whole
    /// `Card`. The engine's lists must stay these, action for action and in order (agents pick
    /// by index: the same games).
    struct Reference<'a>(&'a FireForceGame);

    impl Reference<'_> {
        fn blockers(&self, s: &State) -> u64 {
            let d = s.pl(s.active.other());
            let m = Bits(d.units() & !d.exhausted)
                .filter(|&u| {
                    self.0
                        .db
                        .card(d.card[u as usize])
                        .keywords
                        .has(Keywords::BLOCKER)
                        || d.blocker[0] & 1 << u != 0
                })
                .fold(0, |m, u| m | 1 << u);
            m & !self.0.barred_blockers(s, m)
        }

        fn support_cards(&self, s: &State) -> u64 {
            let d = s.pl(s.active.other());
            Bits(d.hand)
                .filter(|&i| {
                    let id = d.card[i as usize];
                    self.0.db.card(id).support > 0 && id >= s.battle.support_last
                })
                .fold(0, |m, u| m | 1 << u)
        }

        fn reactions(&self, s: &State, out: &mut ActionList<Action>) {
            let g = self.0;
            let d = s.active.other();
            if s.acts[d.index()] >= MAX_ACTS {
                return;
            }
            let p = s.pl(d);
            let pay = g.can_pay(s, d, 0);
            let mut seen = [0u64; 4];
            for i in Bits(p.hand) {
                let id = p.card[i as usize];
                let c = g.db.card(id);
                if c.ctype == crate::games::fireforce::cards::CardType::Event
                    && c.on(Trigger::Reaction) & 1 != 0
                    && u32::from(g.hand_cost(s, d, i)) <= pay
                    && (c.abilities[0].cond.is_none() || g.play_gate(s, d, i, 0))
                    && !FireForceGame::seen(&mut seen, s, d, i)
                {
                    out.push(Action::React(id));
                }
            }
            for u in Bits(p.units()) {
                for k in Bits(g.card_of(s, d, u).on(Trigger::Reaction)) {
                    if g.can_activate(s, d, u, k) {
                        out.push(Action::Activate(u, k));
                    }
                }
            }
        }

        fn may_attack_player(&self, s: &State, u: u8) -> bool {
            u != NONE && {
                let c = self.0.card_of(s, s.active, u);
                (c.flame || s.pl(s.active).is_given(u)) && !c.cant.attack_player
            }
        }

        fn main_actions(&self, s: &State, out: &mut ActionList<Action>) {
            use crate::games::fireforce::cards::CardType;
            let g = self.0;
            let q = s.active;
            if s.acts[q.index()] >= MAX_ACTS {
                out.push(Action::End);
                return;
            }
            let p = s.pl(q);
            let pay = g.can_pay(s, q, 0);
            let mut seen = [0u64; 4];
            for i in Bits(p.hand) {
                let id = p.card[i as usize];
                let c = g.db.card(id);
                if u32::from(g.hand_cost(s, q, i)) > pay || FireForceGame::seen(&mut seen, s, q, i)
                {
                    continue;
                }
                // Decision F-EFF-6: an Event whose `main` head has a condition is played only
                // if it holds (the card's own ability read here, not the brief).
                match c.ctype {
                    CardType::Unit => out.push(Action::Dispatch(id)),
                    CardType::Event
                        if c.on(Trigger::Main) & 1 != 0
                            && (c.abilities[0].cond.is_none() || g.play_gate(s, q, i, 0)) =>
                    {
                        out.push(Action::Play(id))
                    }
                    _ => {}
                }
            }
            let enemy = s.pl(q.other());
            let targets = enemy.units() & enemy.exhausted != 0;
            for u in Bits(p.units()) {
                let c = g.card_of(s, q, u);
                let ready = p.exhausted & 1 << u == 0;
                if ready
                    && (p.fresh & 1 << u == 0 || c.keywords.has(Keywords::BLITZ))
                    && (targets || c.flame || p.is_given(u))
                    && (targets || !c.cant.attack_player)
                {
                    out.push(Action::Attack(u));
                }
                if ready && c.keywords.has(Keywords::PRAY) && p.flame_deck != 0 {
                    out.push(Action::Activate(u, PRAY));
                }
                for k in Bits(c.on(Trigger::Active)) {
                    if g.can_activate(s, q, u, k) {
                        out.push(Action::Activate(u, k));
                    }
                }
            }
            out.push(Action::End);
        }
    }

    /// Every query the legal actions make through [`CardDb::brief`] answers as the reference's
    /// walk of the whole cards, in any position (whoever's step it is).
    fn same_as_reference(g: &FireForceGame, s: &State) -> usize {
        let r = Reference(g);
        let (mut a, mut b) = (ActionList::new(), ActionList::new());
        g.main_actions(s, &mut a);
        r.main_actions(s, &mut b);
        assert_eq!(a.as_slice(), b.as_slice(), "main actions\n{s:?}");
        assert_eq!(g.blockers(s), r.blockers(s));
        assert_eq!(g.support_cards(s), r.support_cards(s));
        let (mut a, mut b) = (ActionList::new(), ActionList::new());
        g.reactions(s, &mut a);
        r.reactions(s, &mut b);
        assert_eq!(a.as_slice(), b.as_slice(), "reactions\n{s:?}");
        assert_eq!(g.any_reaction(s), !b.is_empty());
        let mut units = s.pl(s.active).units();
        units |= 1 << 63; // and NONE
        for u in Bits(units).map(|u| if u == 63 { NONE } else { u }) {
            assert_eq!(g.may_attack_player(s, u), r.may_attack_player(s, u));
        }
        // The printed power through the brief (`base_power`), against the whole card.
        for q in Seat::ALL {
            let p = s.pl(q);
            for u in Bits(p.units()) {
                let c = g.db.card(p.card[u as usize]);
                let want = i32::from(c.power)
                    + i32::from(p.power_turn[u as usize])
                    + i32::from(p.power_battle[u as usize]);
                assert_eq!(g.base_power(s, q, u), want, "base power\n{s:?}");
            }
        }
        a.len()
    }

    /// Random games of every pair of bundled decks, the card-file ids shuffled by
    /// determinization on the way: at every position the brief-based legal actions equal the
    /// reference. (Breaking `Brief::of`, e.g. dropping `Brief::BLITZ`, fails this test.)
    #[test]
    fn legal_actions_by_brief_equal_the_full_card_walk() {
        let db = crate::games::fireforce::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &crate::games::fireforce::TEST_DECKS,
        );
        let mut rng = rng_from_seed(17);
        let (mut positions, mut actions) = (0usize, 0usize);
        walk_random_games(
            &db,
            &decks,
            6u64,
            31,
            &mut rng,
            |g: &FireForceGame, s, _, rng| {
                actions += same_as_reference(g, s);
                positions += 1;
                if positions % 7 == 0 {
                    let d = g.determinize(s, Seat::ALL[positions % 2], rng);
                    same_as_reference(g, &d);
                }
            },
        );
        eprintln!("legal by brief: {positions} positions, {actions} actions compared");
        assert!(
            positions > 10_000 && actions > 20_000,
            "{positions} {actions}"
        );
    }

    /// `Player::acting` and `Player::guards`, kept by every arrival on and departure from the
    /// Scene, are at every position of random games of every pair of bundled decks, and of
    /// determinizations of them, what they say, read from the whole card: the Units with Pray or
    /// an Active ability (F-MAIN-1, F-KW-PRAY, F-KW-ACTIVE), the Units with Blocker
    /// (F-KW-BLOCKER).
    #[test]
    fn kept_unit_masks_are_the_units_with_pray_or_an_active_ability_and_the_blockers() {
        let db = crate::games::fireforce::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &crate::games::fireforce::TEST_DECKS,
        );
        let fresh = |g: &FireForceGame, s: &State, q: Seat| -> [u64; 2] {
            let mut m = [0u64; 2];
            for u in Bits(s.pl(q).units()) {
                let c = g.card_of(s, q, u);
                if c.keywords.has(Keywords::PRAY) || c.on(Trigger::Active) != 0 {
                    m[0] |= 1 << u;
                }
                if c.keywords.has(Keywords::BLOCKER) {
                    m[1] |= 1 << u;
                }
            }
            m
        };
        let kept = |s: &State, q: Seat| [s.pl(q).acting.get(), s.pl(q).guards.get()];
        let mut rng = rng_from_seed(23);
        let (mut positions, mut with, mut changed) = (0usize, [0usize; 2], [0usize; 2]);
        for (k, a) in decks.iter().enumerate() {
            for b in &decks {
                let g = FireForceGame::new_match(&db, [a, b]);
                for seed in 0..4u64 {
                    let mut s = g.new_game(seed * 37 + k as u64, Seat::ALL[(seed % 2) as usize]);
                    let mut list = ActionList::new();
                    let mut last = [[0u64; 2]; 2];
                    while g.to_move(&s).is_some() {
                        let d = g.determinize(&s, Seat::ALL[positions % 2], &mut rng);
                        for q in Seat::ALL {
                            let m = fresh(&g, &s, q);
                            assert_eq!(kept(&s, q), m, "{q} at position {positions}");
                            assert_eq!(kept(&d, q), fresh(&g, &d, q), "{q} determinized");
                            for j in 0..2 {
                                with[j] += usize::from(m[j] != 0);
                                changed[j] += usize::from(m[j] != last[q.index()][j]);
                            }
                            last[q.index()] = m;
                        }
                        positions += 1;
                        g.legal_actions(&s, &mut list);
                        let pick = list.as_slice()[rng.gen_range(0..list.len())];
                        g.apply(&mut s, pick);
                    }
                }
            }
        }
        assert!(
            positions > 10_000
                && with.iter().all(|&n| n > 5_000)
                && changed.iter().all(|&n| n > 1_000),
            "{positions} {with:?} {changed:?}"
        );
    }
}
