//! Effective characteristics of the cards now (T-STATE, T-STATIC): STR/DEF, icons and
//! organizations, with the static effects that change them; the [`FieldView`] and [`Marks`] that
//! combat and legal attack targets read; the derived masks `kinds` and `static_src` of the state.

use super::super::cards::{
    Amount, CardType, Filter, Icons, Orgs, Prohibition, Side, StaticEffect, Trigger,
};
use super::super::state::{
    bit, flag, instances, AttackTarget, Bits, Cursor, Kinds, Lid, PlayerState, State, That,
    INSTANCES, MAX_CARDS,
};
use super::{feat, TrailsGame};
use crate::core::hidden::BytePool;
use crate::core::{GameRng, Seat};

/// What legal attack targets and combat read of a set of cards, as masks per seat
/// ([`TrailsGame::marks_of`], and part of every [`FieldView`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The active UNITs ([`TrailsGame::active_units`]), whether covered or not.
    pub active: [u64; 2],
    /// Covered cards that have [Covert] and [Hate] now.
    pub covert: [u64; 2],
    pub hate: [u64; 2],
    /// Covered cards that may attack [Covert] UNITs as though they had [Covert] (`sees_covert`,
    /// decision T-ICON-COVERT-2).
    pub sees: [u64; 2],
    /// Covered cards with support until end of turn (T-SCLM-3).
    pub supported: [u64; 2],
}

impl Marks {
    /// Records that `q`'s card `i` has `icons` (among others).
    #[inline]
    fn mark(&mut self, q: Seat, i: u8, icons: Icons) {
        // Most cards have none of these: one test.
        const ASKED: Icons = Icons(Icons::COVERT.0 | Icons::HATE.0 | Icons::SEES_COVERT.0);
        if !icons.has(ASKED) {
            return;
        }
        if icons.has(Icons::COVERT) {
            self.covert[q.index()] |= bit(i);
        }
        if icons.has(Icons::HATE) {
            self.hate[q.index()] |= bit(i);
        }
        if icons.has(Icons::SEES_COVERT) {
            self.sees[q.index()] |= bit(i);
        }
    }
}

/// STR, DEF and icons of the cards on the field at one moment ([`TrailsGame::field_view`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldView {
    str: [[i16; MAX_CARDS]; 2],
    def: [[i16; MAX_CARDS]; 2],
    icons: [[Icons; MAX_CARDS]; 2],
    marks: Marks,
}

impl Default for FieldView {
    fn default() -> Self {
        FieldView {
            str: [[0; MAX_CARDS]; 2],
            def: [[0; MAX_CARDS]; 2],
            icons: [[Icons::NONE; MAX_CARDS]; 2],
            marks: Marks::default(),
        }
    }
}

impl FieldView {
    /// The masks of the covered cards, as [`TrailsGame::marks_of`].
    #[inline]
    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    /// STR and DEF of `q`'s card `i` on the field, as [`TrailsGame::stats`].
    #[inline]
    pub fn stats(&self, q: Seat, i: u8) -> (i16, i16) {
        (
            self.str[q.index()][i as usize],
            self.def[q.index()][i as usize],
        )
    }

    /// Icons of `q`'s card `i` on the field, as [`TrailsGame::icons`].
    #[inline]
    pub fn icons(&self, q: Seat, i: u8) -> Icons {
        self.icons[q.index()][i as usize]
    }
}

impl TrailsGame {
    /// UNITs of `q` on the field that are not stunned: the ones that count as "on the field"
    /// for targeting and for "no UNIT" checks (T-STATE-2).
    pub fn active_units(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        p.field & !p.flagged(flag::STUNNED) & p.kinds.unit
    }

    /// The active static sources of `q` without conditions that have a static effect of a
    /// [`feat`] in `kind`, with their static effects: UNITs (not stunned, T-STATE-2) and ITEMs on
    /// the field, face-up BASEs in the homebase (T-RES-4). Sources whose statics have conditions
    /// are walked by [`Self::cond_statics`].
    #[inline]
    fn static_sources<'a>(
        &'a self,
        s: &'a State,
        q: Seat,
        kind: u8,
    ) -> impl Iterator<Item = (u8, &'a [StaticEffect])> + 'a {
        let p = s.pl(q);
        Bits(p.static_src).filter_map(move |i| {
            let id = p.card[i as usize];
            (self.hot(id).feat & kind != 0).then(|| (i, self.card(id).statics.as_slice()))
        })
    }

    /// Calls `f(i, effect)` for each static effect that applies now of `q`'s active static
    /// sources whose statics have conditions: a static applies while its condition holds (read
    /// on printed values, decision T-STATIC-2). Off the hot path: no bundled card has one.
    #[cold]
    #[inline(never)]
    fn cond_statics(&self, s: &State, q: Seat, f: &mut dyn FnMut(u8, &StaticEffect)) {
        let p = s.pl(q);
        for i in Bits(p.static_src) {
            let card = self.card(p.card[i as usize]);
            if self.hot(p.card[i as usize]).feat & feat::COND_STATICS == 0 {
                continue;
            }
            for (k, st) in card.statics.iter().enumerate() {
                if self.static_on(s, q, i, &card.static_conds[k]) {
                    f(i, st);
                }
            }
        }
    }

    /// The CP `me`'s card `i` (in the hand or the homebase) costs to play now: printed, changed
    /// by its own `cost self` statics whose conditions hold (decision T-RES-14) and by the `cost
    /// all …` statics of active static sources (decision T-RES-15), to a minimum of 0.
    #[inline]
    pub(crate) fn play_cost(&self, s: &State, me: Seat, i: u8) -> u8 {
        let c = self.hot(s.pl(me).card[i as usize]);
        if !self.has_cost_mods || (c.feat & feat::COND_STATICS == 0 && !self.has_cost_all) {
            return c.cost;
        }
        self.changed_cost(s, me, i, c.cost)
    }

    #[cold]
    #[inline(never)]
    fn changed_cost(&self, s: &State, me: Seat, i: u8, printed: u8) -> u8 {
        let card = self.card(s.pl(me).card[i as usize]);
        let mut cost = i16::from(printed);
        for (k, st) in card.statics.iter().enumerate() {
            if let StaticEffect::CostSelf(n) = *st {
                if self.static_on(s, me, i, &card.static_conds[k]) {
                    cost += i16::from(n);
                }
            }
        }
        if self.has_cost_all {
            cost += self.cost_changes(s, me, i);
        }
        cost.clamp(0, i16::from(u8::MAX)) as u8
    }

    /// The sum of the `cost all …` statics (decision T-RES-15) of both players' active static
    /// sources that apply to `me`'s card `i` in the hand or face down in the homebase: their
    /// side and printed filter select it, it is played from a zone they name, their conditions
    /// hold, and a `first` one only while no card matching its filter was played in this
    /// deployment step.
    fn cost_changes(&self, s: &State, me: Seat, i: u8) -> i16 {
        use super::super::cards::cost_from;
        let id = s.pl(me).card[i as usize];
        let how = self.kind_of(id);
        let zone = if s.pl(me).hand & bit(i) != 0 {
            cost_from::HAND
        } else {
            cost_from::HOMEBASE
        };
        let mut sum = 0;
        for src in Seat::ALL {
            let p = s.pl(src);
            for si in Bits(p.static_src) {
                let card = self.card(p.card[si as usize]);
                for (k, st) in card.statics.iter().enumerate() {
                    let StaticEffect::CostAll {
                        side,
                        ref filter,
                        n,
                        first,
                        from,
                    } = *st
                    else {
                        continue;
                    };
                    if side_matches(side, src, me)
                        && from & zone != 0
                        && self.played_fits(id, how, filter)
                        && !(first && s.firsts & self.first_bit(filter) != 0)
                        && self.static_on(s, src, si, &card.static_conds[k])
                    {
                        sum += i16::from(n);
                    }
                }
            }
        }
        sum
    }

    /// The [`kind`](super::super::cards::kind) of a UNIT or ITEM played with CP.
    fn kind_of(&self, id: Lid) -> u8 {
        use super::super::cards::kind;
        if self.hot(id).ctype == CardType::Unit {
            kind::UNIT
        } else {
            kind::ITEM
        }
    }

    /// The bit of a `first` cost change's filter in [`State::firsts`] (decision T-RES-15).
    fn first_bit(&self, f: &Filter) -> u8 {
        let k = self.db.first_filters.iter().position(|g| g == f);
        1 << k.expect("the card file recorded the filter of every `first` cost change")
    }

    /// Records in [`State::firsts`] the `first` filters `me`'s card `id`, played now in a
    /// deployment step, matches (decision T-RES-15). Called after its cost is paid.
    #[inline]
    pub(crate) fn note_played(&self, s: &mut State, id: Lid) {
        if self.has_first {
            self.note_first(s, id);
        }
    }

    #[cold]
    #[inline(never)]
    fn note_first(&self, s: &mut State, id: Lid) {
        let how = self.kind_of(id);
        for (k, f) in self.db.first_filters.iter().enumerate() {
            if self.played_fits(id, how, f) {
                s.firsts |= 1 << k;
            }
        }
    }

    /// Whether a prohibition (`cant`, decision T-EFF-12) of an active static source applies to
    /// `q`'s UNIT `i` now. Only asked when the match's decks hold one.
    #[cold]
    #[inline(never)]
    pub(crate) fn prohibited(&self, s: &State, q: Seat, i: u8, what: Prohibition) -> bool {
        // Decision T-EFF-15: a prohibition by an effect, until end of turn.
        let mut found = s.cant_eot.contains(&(That::of(q, i), what));
        for src in Seat::ALL {
            self.cond_statics(s, src, &mut |si, st| {
                if let StaticEffect::Cant {
                    side,
                    filter,
                    what: w,
                } = *st
                {
                    found |= w == what
                        && side_matches(side, src, q)
                        && self.static_filter(s, q, i, &filter, (src, si));
                }
            });
        }
        found
    }

    /// `m` (a mask per seat of the UNITs a choice may name for the ability of cursor `c`) less
    /// the opponent's UNITs that can't be targeted by it (decision T-EFF-12): an EVENT's, arts'
    /// or craft's.
    #[inline]
    pub(crate) fn targetable(&self, s: &State, c: &Cursor, m: [u64; 2]) -> [u64; 2] {
        if !self.has_cant {
            return m;
        }
        self.drop_protected(s, c, m)
    }

    #[cold]
    #[inline(never)]
    fn drop_protected(&self, s: &State, c: &Cursor, mut m: [u64; 2]) -> [u64; 2] {
        let ab = &self.card(self.cursor_card(s, c)).abilities[c.ability as usize];
        if !matches!(ab.trigger, Trigger::Event | Trigger::Arts | Trigger::Act) {
            return m;
        }
        let q = c.controller().other();
        let field = s.pl(q).field;
        for i in Bits(m[q.index()] & field) {
            if self.prohibited(s, q, i, Prohibition::BeTargeted) {
                m[q.index()] &= !bit(i);
            }
        }
        m
    }

    /// Whether a static of `q`'s card `i` with condition `cond` applies now.
    pub(super) fn static_on(
        &self,
        s: &State,
        q: Seat,
        i: u8,
        cond: &Option<super::super::cards::Cond>,
    ) -> bool {
        match cond {
            None => true,
            Some(c) => crate::core::lang::eval::cond(&self.printed_judge(s, q, i), c),
        }
    }

    /// Calls `f(q, i, change)` for every active static effect that changes STR/DEF (with
    /// `stats`) or grants icons (with `icons`), for each card `i` of seat `q` in `cards` (a mask
    /// per seat) that the effect's side and filter select. Source by source: each effect's own
    /// work (its amounts, counted on its source) is done once, then its filter is read for each
    /// card. The one walk over static effects behind both [`Self::stats`]/[`Self::icons`] (one
    /// card) and [`Self::view_of_in`] (many); the order of the calls does not matter to sums and
    /// unions.
    #[inline]
    fn for_static_mods(
        &self,
        s: &State,
        cards: [u64; 2],
        stats: bool,
        icons: bool,
        mut f: impl FnMut(Seat, u8, StaticMod),
    ) {
        if !stats && !icons {
            return;
        }
        // No active static source on either side (the conditional ones among them): nothing
        // applies, and the walk's setup (the sources' and the cards' tables read ahead) is not
        // paid.
        if (s.p[0].static_src | s.p[1].static_src) == 0 {
            return;
        }
        let kind = if stats { feat::STATS } else { 0 } | if icons { feat::GRANT } else { 0 };
        for src in Seat::ALL {
            let p = s.pl(src);
            for si in instances(p.static_src) {
                let id = p.card[si as usize];
                let quick = &self.quick[id];
                if quick.kind != 0 {
                    // The card's one static, read off its entry (the same tests as `static_mod`).
                    if quick.kind & kind != 0 {
                        // The state through an opaque reference: its fields that `quick_mod`
                        // reads are read where used, not loaded for both seats and spilled
                        // ahead of the walk (~50 -> ~20 instructions of setup a walk; a hint
                        // only, which no behaviour depends on: docs/performance.md).
                        let s = std::hint::black_box(s);
                        self.quick_mod(s, cards, (src, si), quick, &mut f);
                    }
                    continue;
                }
                if self.hot(id).feat & kind == 0 {
                    continue;
                }
                self.listed_mods(s, cards, (stats, icons), (src, si), id, &mut f);
            }
        }
        if self.has_cond_statics {
            for src in Seat::ALL {
                self.cond_static_mods(s, cards, (stats, icons), src, &mut f);
            }
        }
    }

    /// [`Self::for_static_mods`] for one static effect `st` of `source`.
    #[inline(always)]
    fn static_mod(
        &self,
        s: &State,
        cards: [u64; 2],
        (stats, icons): (bool, bool),
        source: (Seat, u8),
        st: &StaticEffect,
        f: &mut impl FnMut(Seat, u8, StaticMod),
    ) {
        // The effect's change is read once, not for each card it applies to.
        let (side, filter, change) = match *st {
            StaticEffect::Stats {
                side,
                ref filter,
                str,
                def,
            } if stats => (
                side,
                filter,
                StaticMod {
                    str: self.static_amount(s, source, str),
                    def: self.static_amount(s, source, def),
                    icons: Icons::NONE,
                },
            ),
            StaticEffect::Grant {
                side,
                ref filter,
                icons: g,
            } if icons => (
                side,
                filter,
                StaticMod {
                    str: 0,
                    def: 0,
                    icons: g,
                },
            ),
            _ => return,
        };
        // What the filter asks of the source and of the ready state is a mask, read once for all
        // the cards; only its organizations, icon and bounds are read card by card, and the icon
        // and bounds only when it has them (the tests of `static_filter`, in its order).
        let printed = filter.icon != Icons::NONE || !bounds_free(filter);
        for q in Seat::ALL
            .into_iter()
            .filter(|&q| side_matches(side, source.0, q))
        {
            let p = s.pl(q);
            let asks = (filter.other, filter.itself, filter.ready);
            for i in Bits(source_ready_mask(cards[q.index()], p, q, source, asks)) {
                if filter.org != 0 && self.orgs(s, q, i) & filter.org == 0 {
                    continue;
                }
                if printed {
                    let c = self.hot(p.card[i as usize]);
                    if (filter.icon != Icons::NONE
                        && !c.icons.union(p.icons_eot[i as usize]).has(filter.icon))
                        || !bounds_ok(filter, c.cost, c.str, c.def)
                    {
                        continue;
                    }
                }
                f(q, i, change);
            }
        }
    }

    /// [`Self::for_static_mods`] for a source whose statics are not read off a [`QuickStatic`]
    /// (card `id`): [`Self::static_mod`] for each of its static effects. Out of line: inlined,
    /// its setup (the card table and the effects' fields read ahead of the walk) was paid on
    /// every walk, ~60 instructions, where the bench match's static sources are all quick.
    #[inline(never)]
    fn listed_mods(
        &self,
        s: &State,
        cards: [u64; 2],
        kinds: (bool, bool),
        source: (Seat, u8),
        id: Lid,
        f: &mut impl FnMut(Seat, u8, StaticMod),
    ) {
        for st in &self.card(id).statics {
            self.static_mod(s, cards, kinds, source, st, f);
        }
    }

    /// [`Self::static_mod`] for the static of a [`QuickStatic`] `k` of `source`: its change to
    /// each card of `cards` its side and filter select (a filter without an icon or bounds;
    /// T-STATIC-1: an active source's static applies to the UNITs its filter names).
    #[inline(always)]
    fn quick_mod(
        &self,
        s: &State,
        cards: [u64; 2],
        source: (Seat, u8),
        k: &QuickStatic,
        f: &mut impl FnMut(Seat, u8, StaticMod),
    ) {
        for q in Seat::ALL {
            let m = cards[q.index()];
            if m == 0 || !side_matches(k.side, source.0, q) {
                continue;
            }
            let m = source_ready_mask(m, s.pl(q), q, source, (k.other, k.itself, k.ready));
            for i in Bits(m) {
                if k.org != 0 && self.orgs(s, q, i) & k.org == 0 {
                    continue;
                }
                f(q, i, k.change);
            }
        }
    }

    /// [`Self::for_static_mods`] for the statics of `src`'s sources whose statics have conditions.
    #[cold]
    #[inline(never)]
    fn cond_static_mods(
        &self,
        s: &State,
        cards: [u64; 2],
        kinds: (bool, bool),
        src: Seat,
        f: &mut impl FnMut(Seat, u8, StaticMod),
    ) {
        self.cond_statics(s, src, &mut |si, st| {
            self.static_mod(s, cards, kinds, (src, si), st, f)
        });
    }

    /// Whether `q`'s instance `i` provides its static effects now.
    pub fn static_active(&self, s: &State, q: Seat, i: u8) -> bool {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        if c.feat & feat::STATICS == 0 {
            return false;
        }
        let b = bit(i);
        (p.field & b != 0 && !p.has(i, flag::STUNNED))
            || (p.homebase & b != 0 && c.ctype == CardType::Base && p.has(i, flag::FACE_UP))
    }

    /// The masks derived from each instance's card, computed afresh: after the instances of `q`
    /// were given cards.
    pub(crate) fn card_kinds(&self, s: &State, q: Seat) -> Kinds {
        let p = s.pl(q);
        let mut k = Kinds::default();
        for i in 0..u32::from(p.n_cards) {
            k.add_tag(i, self.kind_tag(p.card[i as usize]));
        }
        k
    }

    /// Sets the card-kind masks of both seats from the instances' cards.
    pub(crate) fn refresh_kinds(&self, s: &mut State) {
        for q in Seat::ALL {
            s.pl_mut(q).kinds = self.card_kinds(s, q);
        }
    }

    /// The card-kind bits of card `id` as one byte, the tag of a prepared pool
    /// (`core::hidden::BytePool`): bit 0 [`Kinds::play`], bit 1 [`Kinds::craft`], bit 2
    /// [`Kinds::unit`] ([`Kinds::add_tag`]). The one place the card file's features map to the
    /// kinds: [`Self::card_kinds`] and the deal both read it.
    pub(crate) fn kind_tag(&self, id: Lid) -> u8 {
        let f = self.hot(id).feat;
        u8::from(f & feat::PLAY != 0)
            | u8::from(f & feat::ACT != 0) << 1
            | u8::from(f & feat::UNIT != 0) << 2
    }

    /// Deals each player's prepared pool into `s` ([`BytePool::deal`]: the cards of
    /// `core::hidden::redeal_bytes`) and sets the card-kind masks of the dealt instances from
    /// the tags the pools were prepared with ([`Self::kind_tag`]), the others keeping theirs.
    #[inline]
    pub(crate) fn deal_pools(&self, s: &mut State, pools: &[BytePool; 2], rng: &mut GameRng) {
        for q in Seat::ALL {
            let pool = &pools[q.index()];
            let p = s.pl_mut(q);
            let m = pool.mask;
            let mut k = p.kinds.without(m);
            let card = &mut p.card;
            pool.deal(rng, |i, id, tag| {
                // `i` is an instance (below 50): no bounds check that could panic in the loop.
                if let Some(c) = card.get_mut(i) {
                    *c = id;
                }
                k.add_tag(i as u32, tag);
            });
            p.kinds = k;
        }
    }

    /// Brings `static_src` up to date for one instance after a change of zone or state.
    pub(crate) fn refresh_static(&self, s: &mut State, q: Seat, i: u8) {
        let on = self.static_active(s, q, i);
        let p = s.pl_mut(q);
        if on {
            p.static_src |= bit(i);
        } else {
            p.static_src &= !bit(i);
        }
    }

    /// Organizations of a UNIT before static grants: printed, plus those gained by
    /// T-ICON-ATTRIB, widened by every active T-TERM-LINK of its controller.
    #[inline(always)]
    pub fn orgs(&self, s: &State, q: Seat, i: u8) -> Orgs {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        let mut o = c.orgs;
        if c.icons
            .union(p.icons_eot[i as usize])
            .has(Icons::ATTRIBUTION)
            && !p.has(i, flag::STUNNED)
        {
            o |= p.attribution_orgs;
        }
        self.linked(s, q, o)
    }

    /// T-TERM-LINK, decisions T-TERM-LINK-2 and T-TERM-LINK-3: organizations `o` of a card of `q`,
    /// in any zone, widened by every active link of `q`'s cards that one of them takes part in (not
    /// transitively).
    #[inline(always)]
    pub fn linked(&self, s: &State, q: Seat, o: Orgs) -> Orgs {
        if self.has_static_links {
            return self.static_linked(s, q, o);
        }
        // Links until end of turn made by effects (decision T-EFF-13), none most of the time.
        let eot = s.pl(q).links_eot;
        if eot == [0; 2] {
            return o;
        }
        eot_linked(o, o, eot)
    }

    /// [`Self::linked`] when a card of the match links organizations by a static effect.
    #[cold]
    #[inline(never)]
    fn static_linked(&self, s: &State, q: Seat, o: Orgs) -> Orgs {
        let mut linked = o;
        let mut link = |st: &StaticEffect| {
            if let StaticEffect::Link(bits) = *st {
                if o & bits != 0 {
                    linked |= bits;
                }
            }
        };
        for (_, statics) in self.static_sources(s, q, feat::LINK) {
            statics.iter().for_each(&mut link);
        }
        if self.has_cond_statics {
            self.cond_statics(s, q, &mut |_, st| link(st));
        }
        eot_linked(linked, o, s.pl(q).links_eot)
    }

    /// Whether a static filter matches, read on printed and end-of-turn values (decision
    /// T-STATIC-1: static filters do not see other statics, so statics never depend on each other).
    #[inline(always)]
    fn static_filter(&self, s: &State, q: Seat, i: u8, f: &Filter, source: (Seat, u8)) -> bool {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        // `other` refuses the source, `itself` (never with `other`) everything else.
        if (f.other | f.itself) && (source == (q, i)) == f.other {
            return false;
        }
        if f.org != 0 && self.orgs(s, q, i) & f.org == 0 {
            return false;
        }
        if f.icon != Icons::NONE && !c.icons.union(p.icons_eot[i as usize]).has(f.icon) {
            return false;
        }
        bounds_ok(f, c.cost, c.str, c.def) && ready_ok(f, p.has(i, flag::ACTIONED))
    }

    /// Whether `q`'s card `i` matches a filter on printed values and end-of-turn changes (a
    /// static's condition, decision T-STATIC-2).
    pub(crate) fn card_matches_printed(
        &self,
        s: &State,
        q: Seat,
        i: u8,
        f: &Filter,
        source: (Seat, u8),
    ) -> bool {
        // Organizations without links (a link may itself be a conditional static): printed,
        // and T-ICON-ATTRIB's.
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        let own_icons = c.icons.union(p.icons_eot[i as usize]);
        let mut orgs = c.orgs;
        if own_icons.has(Icons::ATTRIBUTION) && !p.has(i, flag::STUNNED) {
            orgs |= p.attribution_orgs;
        }
        if (f.other && source == (q, i))
            || (f.org != 0 && orgs & f.org == 0)
            || (f.icon != Icons::NONE && !own_icons.has(f.icon))
            || !ready_ok(f, p.has(i, flag::ACTIONED))
            || !f.name_ok(c.name)
        {
            return false;
        }
        if (f.need | f.deny) != 0 {
            let marks = self.marks(s, q, i);
            if marks & f.need != f.need || marks & f.deny != 0 {
                return false;
            }
        }
        // STR/DEF bounds on printed values with end-of-turn changes.
        let (st, df) = self.printed_stats(s, q, i);
        bounds_ok(
            f,
            c.cost,
            st.clamp(-128, 127) as i8,
            df.clamp(-128, 127) as i8,
        )
    }

    /// STR and DEF with end-of-turn changes, without static effects.
    pub(crate) fn printed_stats(&self, s: &State, q: Seat, i: u8) -> (i16, i16) {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        (
            i16::from(c.str) + i16::from(p.str_mod[i as usize]),
            i16::from(c.def) + i16::from(p.def_mod[i as usize]),
        )
    }

    /// A number of a static of `src`'s card, now: counted ones on printed values (decision
    /// T-STATIC-2: a static never depends on a static).
    #[inline]
    fn static_amount(&self, s: &State, src: (Seat, u8), a: Amount) -> i16 {
        match a {
            Amount::Num(n) => i16::from(n),
            Amount::Counted(k) => self.counted_static(s, src, k),
        }
    }

    #[cold]
    #[inline(never)]
    fn counted_static(&self, s: &State, (q, i): (Seat, u8), k: u8) -> i16 {
        let v = &self.card(self.cid(s, q, i)).values[k as usize];
        crate::core::lang::eval::value(&self.printed_judge(s, q, i), v).clamp(-99, 99) as i16
    }

    /// Sum of the static stat changes that apply to `q`'s UNIT `i`.
    fn static_stats(&self, s: &State, q: Seat, i: u8) -> (i16, i16) {
        let (mut ds, mut dd) = (0i16, 0i16);
        let mut cards = [0; 2];
        cards[q.index()] = bit(i);
        self.for_static_mods(s, cards, true, false, |_, _, m| {
            ds += m.str;
            dd += m.def;
        });
        (ds, dd)
    }

    /// Union of the static icon grants that apply to `q`'s UNIT `i`.
    fn static_icons(&self, s: &State, q: Seat, i: u8) -> Icons {
        let mut icons = Icons::NONE;
        let mut cards = [0; 2];
        cards[q.index()] = bit(i);
        self.for_static_mods(s, cards, false, true, |_, _, m| {
            icons = icons.union(m.icons);
        });
        icons
    }

    /// Icons of a UNIT now: printed, gained until end of turn, granted by statics. A stunned UNIT
    /// loses all crafts (T-STATE-2).
    #[inline]
    pub fn icons(&self, s: &State, q: Seat, i: u8) -> Icons {
        let p = s.pl(q);
        if p.has(i, flag::STUNNED) {
            return Icons::NONE;
        }
        let c = self.hot(p.card[i as usize]);
        let own = c.icons.union(p.icons_eot[i as usize]);
        if !self.has_static_icons || (s.p[0].static_src | s.p[1].static_src) == 0 {
            return own;
        }
        own.union(self.static_icons(s, q, i))
    }

    /// STR and DEF of a UNIT outside combat: printed, plus end-of-turn and static changes.
    #[inline]
    pub fn stats(&self, s: &State, q: Seat, i: u8) -> (i16, i16) {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        let (ds, dd) = if !self.has_static_stats || (s.p[0].static_src | s.p[1].static_src) == 0 {
            (0, 0)
        } else {
            self.static_stats(s, q, i)
        };
        (
            i16::from(c.str) + i16::from(p.str_mod[i as usize]) + ds,
            i16::from(c.def) + i16::from(p.def_mod[i as usize]) + dd,
        )
    }

    /// STR, DEF and icons of every card on the field, each read once: one pass over the static
    /// effects per card instead of one per question. Combat predictions ask the same questions many
    /// times in one decision (the heuristic scores every attacker, target and fight-back), so they
    /// read this view. It holds exactly what [`Self::stats`] and [`Self::icons`] return, and is
    /// valid for the state it was read from.
    /// Besides the field it covers the combat's attackers and target, which a prediction made
    /// during the window still names after an effect took them off the field.
    #[inline]
    pub fn field_view(&self, s: &State) -> FieldView {
        self.view_with::<true>(s, Self::field_view_cards(s))
    }

    /// The cards of [`Self::field_view`]: both fields, the combat's attackers and its target.
    #[inline(always)]
    fn field_view_cards(s: &State) -> [u64; 2] {
        let mut cards = [s.p[0].field, s.p[1].field];
        cards[s.combat.attacker.index()] |= s.combat.attackers;
        if let AttackTarget::Unit(d) = s.combat.target {
            cards[s.combat.attacker.other().index()] |= bit(d);
        }
        cards
    }

    /// A [`FieldView`] of the cards in `cards` (a mask per seat) only, built in `slot` (whatever
    /// it held): a view returned by value is built in a local and copied out (the closure of the
    /// static walk holds it), ~90 instructions a view.
    #[inline(always)]
    pub(crate) fn view_of_in<'v>(
        &self,
        s: &State,
        cards: [u64; 2],
        slot: &'v mut Option<FieldView>,
    ) -> &'v FieldView {
        let v = slot.insert(FieldView::default());
        self.fill_view::<true>(s, cards, v);
        v
    }

    /// [`Self::view_of_in`] without its [`Marks`] (left empty): STR, DEF and icons only, for the
    /// observation tensors.
    pub(crate) fn stats_view(&self, s: &State, cards: [u64; 2]) -> FieldView {
        self.view_with::<false>(s, cards)
    }

    #[inline(always)]
    fn view_with<const MARKS: bool>(&self, s: &State, cards: [u64; 2]) -> FieldView {
        let mut v = FieldView::default();
        self.fill_view::<MARKS>(s, cards, &mut v);
        v
    }

    /// Fills `v`, a default [`FieldView`], with the view of `cards` ([`Self::view_with`]).
    #[inline(always)]
    fn fill_view<const MARKS: bool>(&self, s: &State, cards: [u64; 2], v: &mut FieldView) {
        for q in Seat::ALL {
            let (p, k) = (s.pl(q), q.index());
            for i in instances(cards[k]) {
                let c = self.hot(p.card[i as usize]);
                let i = i as usize;
                v.str[k][i] = i16::from(c.str) + i16::from(p.str_mod[i]);
                v.def[k][i] = i16::from(c.def) + i16::from(p.def_mod[i]);
                v.icons[k][i] = c.icons.union(p.icons_eot[i]);
            }
        }
        self.for_static_mods(
            s,
            cards,
            self.has_static_stats,
            self.has_static_icons,
            |q, i, m| {
                let (k, i) = (q.index(), i as usize);
                v.str[k][i] += m.str;
                v.def[k][i] += m.def;
                v.icons[k][i] = v.icons[k][i].union(m.icons);
            },
        );
        for q in Seat::ALL {
            let (p, k) = (s.pl(q), q.index());
            // A stunned UNIT loses all crafts (T-STATE-2).
            for i in Bits(cards[k] & p.flagged(flag::STUNNED)) {
                v.icons[k][i as usize] = Icons::NONE;
            }
            if !MARKS {
                continue;
            }
            v.marks.active[k] = self.active_units(s, q);
            v.marks.supported[k] = cards[k] & p.flagged(flag::SUPPORTED);
            // The same marks as `marks_of`, read off the icons just summed: calling `marks_of`
            // would walk the icon grants a second time (+9% heuristic instructions, measured).
            // The field-view test checks that the two agree.
            for i in Bits(cards[k]) {
                v.marks.mark(q, i, v.icons[k][i as usize]);
            }
        }
    }

    /// The [`Marks`] that [`Self::group_targets`] reads for a group drawn from `me`'s `group`
    /// (its members and would-be members): those cards and the opposing active UNITs, their marks
    /// as the whole field's marks give them ([Covert], [Hate]).
    #[inline]
    pub fn group_marks(&self, s: &State, me: Seat, group: u64) -> Marks {
        let mut cards = [0; 2];
        cards[me.index()] = group & s.pl(me).field;
        cards[me.other().index()] = self.active_units(s, me.other());
        self.marks_of(s, cards)
    }

    /// The [`Marks`] of the cards in `cards` (a mask per seat): those of their [`Self::view_of_in`],
    /// without reading STR and DEF or storing icons. Legal attack targets need only these.
    #[inline(always)]
    pub fn marks_of(&self, s: &State, cards: [u64; 2]) -> Marks {
        let mut m = Marks::default();
        for q in Seat::ALL {
            let (p, k) = (s.pl(q), q.index());
            m.active[k] = self.active_units(s, q);
            m.supported[k] = cards[k] & p.flagged(flag::SUPPORTED);
            // A stunned UNIT loses all crafts (T-STATE-2).
            for i in instances(cards[k] & !p.flagged(flag::STUNNED)) {
                let c = self.hot(p.card[i as usize]);
                m.mark(q, i, c.icons.union(p.icons_eot[i as usize]));
            }
        }
        // No static source on either side grants an icon (as in `icons`): the walk below would
        // find nothing, and its setup (the effects' tables read ahead) costs more than this test.
        if !self.has_static_icons || (s.p[0].static_src | s.p[1].static_src) == 0 {
            return m;
        }
        // Only the cards that are not stunned: the walk calls back for covered cards only.
        let live = [
            cards[0] & !s.p[0].flagged(flag::STUNNED) & INSTANCES,
            cards[1] & !s.p[1].flagged(flag::STUNNED) & INSTANCES,
        ];
        self.for_static_mods(s, live, false, self.has_static_icons, |q, i, g| {
            m.mark(q, i, g.icons);
        });
        m
    }
}

/// `linked` widened by the links until end of turn `eot` (decision T-EFF-13) that organizations `o`
/// take part in.
#[inline(always)]
fn eot_linked(mut linked: Orgs, o: Orgs, eot: [Orgs; 2]) -> Orgs {
    for bits in eot {
        if o & bits != 0 {
            linked |= bits;
        }
    }
    linked
}

/// The static effect of a card whose statics are one effect without a condition that changes
/// STR/DEF by numbers written on it or grants icons, with a filter that asks no icon and no cost,
/// STR or DEF bound: what [`TrailsGame::for_static_mods`] reads of it, in one entry by card
/// (`TrailsGame::quick`), instead of the card's static list, the effect's kind, its amounts and
/// its filter's bounds at every source it walks. Other cards have the entry [`Self::NONE`] and
/// are walked from their statics. (T-STATIC-1: it applies to the cards its filter names while
/// its card is an active static source; without a condition, T-STATIC-2 asks nothing more.)
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuickStatic {
    /// [`feat::STATS`] or [`feat::GRANT`]; 0: the card is not read from this entry.
    kind: u8,
    side: Side,
    /// The filter's tests that [`TrailsGame::static_mod`] reads besides the icon and bounds.
    other: bool,
    itself: bool,
    ready: Option<bool>,
    org: Orgs,
    /// What it does to each card it applies to.
    change: StaticMod,
}

impl QuickStatic {
    pub(crate) const NONE: QuickStatic = QuickStatic {
        kind: 0,
        side: Side::Any,
        other: false,
        itself: false,
        ready: None,
        org: 0,
        change: StaticMod {
            str: 0,
            def: 0,
            icons: Icons::NONE,
        },
    };

    /// The entry of card `c`: [`Self::NONE`] unless its statics are one such effect.
    pub(crate) fn of(c: &super::super::cards::Card) -> QuickStatic {
        let ([st], [None]) = (c.statics.as_slice(), c.static_conds.as_slice()) else {
            return QuickStatic::NONE;
        };
        let (kind, side, filter, change) = match *st {
            StaticEffect::Stats {
                side,
                ref filter,
                str: Amount::Num(str),
                def: Amount::Num(def),
            } => (
                feat::STATS,
                side,
                filter,
                StaticMod {
                    str: i16::from(str),
                    def: i16::from(def),
                    icons: Icons::NONE,
                },
            ),
            StaticEffect::Grant {
                side,
                ref filter,
                icons,
            } => (
                feat::GRANT,
                side,
                filter,
                StaticMod {
                    str: 0,
                    def: 0,
                    icons,
                },
            ),
            _ => return QuickStatic::NONE,
        };
        if filter.icon != Icons::NONE || !bounds_free(filter) {
            return QuickStatic::NONE;
        }
        QuickStatic {
            kind,
            side,
            other: filter.other,
            itself: filter.itself,
            ready: filter.ready,
            org: filter.org,
            change,
        }
    }
}

/// What one static effect does to a card it applies to ([`TrailsGame::for_static_mods`]): STR
/// and DEF added (a `Stats` effect's), icons granted (a `Grant` effect's).
#[derive(Clone, Copy, Debug)]
struct StaticMod {
    str: i16,
    def: i16,
    icons: Icons,
}

/// The cards of `m` (seat `q`'s, `p`) that a static filter's questions of the source and of the
/// ready state select, as one mask for all the cards (T-STATIC-1): `other` refuses the static's
/// `source` itself, `itself` (never with `other`) everything else, `ready` the actioned cards
/// (`Some(true)`) or the ready ones (`Some(false)`). Shared by [`TrailsGame::static_mod`] and
/// its one-entry form `quick_mod`.
#[inline(always)]
fn source_ready_mask(
    mut m: u64,
    p: &PlayerState,
    q: Seat,
    source: (Seat, u8),
    (other, itself, ready): (bool, bool, Option<bool>),
) -> u64 {
    if other | itself {
        let own = if source.0 == q { bit(source.1) } else { 0 };
        m &= if other { !own } else { own };
    }
    if let Some(ready) = ready {
        let actioned = p.flagged(flag::ACTIONED);
        m &= if ready { !actioned } else { actioned };
    }
    m
}

/// Whether an effect of `controller` on `side` reaches seat `q`.
#[inline]
pub(super) fn side_matches(side: Side, controller: Seat, q: Seat) -> bool {
    match side {
        Side::Own => q == controller,
        Side::Enemy => q != controller,
        Side::Any => true,
    }
}

/// Whether a filter's ready/actioned condition holds.
#[inline]
pub(super) fn ready_ok(f: &Filter, actioned: bool) -> bool {
    match f.ready {
        Some(ready) => ready != actioned,
        None => true,
    }
}

/// Whether a filter has no cost, STR or DEF bound ([`bounds_ok`] holds for every card).
#[inline]
fn bounds_free(f: &Filter) -> bool {
    f.cost_min.is_none()
        && f.cost_max.is_none()
        && f.str_min.is_none()
        && f.str_max.is_none()
        && f.def_min.is_none()
        && f.def_max.is_none()
}

/// Whether a filter's cost, STR and DEF bounds hold.
#[inline]
pub(super) fn bounds_ok(f: &Filter, cost: u8, st: i8, df: i8) -> bool {
    f.cost_min.is_none_or(|m| cost >= m)
        && f.cost_max.is_none_or(|m| cost <= m)
        && f.str_min.is_none_or(|m| st >= m)
        && f.str_max.is_none_or(|m| st <= m)
        && f.def_min.is_none_or(|m| df >= m)
        && f.def_max.is_none_or(|m| df <= m)
}

#[cfg(test)]
mod tests {
    use super::super::super::cards::CardDb;
    use super::*;

    /// `PlayerState::find` (the walk within `INSTANCES`) finds the first instance of the clear
    /// walk (every bit of the mask, lowest first), for every card of the match in every mask the
    /// engine looks a card up in (the hand, its cards the opponent knows, the face-down homebase),
    /// for both seats at every position of random games (2 seeds) of the bench match and the
    /// bundled deck pairs.
    #[test]
    fn find_finds_the_first_instance_of_the_clear_walk() {
        let games = crate::games::trails::test_games(true);
        let (mut asked, mut found) = (0usize, 0usize);
        crate::games::trails::walk_test_games(&games, 2, 1, |g, s, _, seed| {
            for q in Seat::ALL {
                let p = s.pl(q);
                let masks = [
                    p.hand,
                    p.hand & p.known[q.other().index()],
                    p.homebase & !p.face_up(),
                ];
                for m in masks {
                    for id in g.lids() {
                        let want = Bits(m).find(|&i| p.card[i as usize] == id);
                        assert_eq!(p.find(m, id), want, "seed {seed} {q:?} {m:#x} {id}");
                        asked += 1;
                        found += usize::from(want.is_some());
                    }
                }
            }
        });
        eprintln!("find: {asked} questions, {found} found");
        assert!(found > 10_000, "{found}");
    }

    /// Static effects with every kind of filter `static_mod` reads as masks or card by card
    /// (`other`, `self`, ready, actioned, an icon, cost and STR bounds, a side, an organization).
    const CARDS: &str = "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n\
        X-1,Army Chief,,UNIT,2,2,3,army,,,static: own units org=army other +1/+0\n\
        X-2,Self Lifter,,UNIT,2,1,2,army,,,static: buff self +2/+1\n\
        X-3,Ready Drill,,UNIT,2,2,2,church,,,static: own units ready +0/+1\n\
        X-4,Hate Banner,,ITEM,1,,,church,,,static: own units icon=hate +1/+0\n\
        X-5,Crusher Yard,,BASE,1,,,,,,static: enemy units cost>=2 -1/+0\n\
        X-6,Small Guard,,UNIT,3,3,3,church,,,static: own units str<=2 +0/+2\n\
        X-7,Hater,,UNIT,1,1,1,army,hate,,\n\
        X-8,Grunt,,UNIT,1,2,1,church,,,\n\
        X-9,Shade Keeper,,UNIT,2,2,2,army,,,static: own units actioned covert\n";

    /// Every field card's STR, DEF and icons by the field view and by `stats`/`icons` equal
    /// [`by_card`]'s sums at position `s`; the number of cards compared.
    fn agree_card_by_card(g: &TrailsGame, s: &State, seed: u64, hits: &mut [[u32; 2]; 16]) -> u32 {
        let v = g.field_view(s);
        let mut checked = 0;
        for p in Seat::ALL {
            for i in Bits(s.pl(p).field) {
                let (st, df, icons) = by_card(g, s, p, i, hits);
                assert_eq!(v.stats(p, i), (st, df), "seed {seed}");
                assert_eq!(g.stats(s, p, i), (st, df), "seed {seed}");
                assert_eq!(v.icons(p, i), icons, "seed {seed}");
                assert_eq!(g.icons(s, p, i), icons, "seed {seed}");
                checked += 1;
            }
        }
        checked
    }

    /// What the statics give `q`'s card `i`, summed source by source with `static_filter` (the
    /// per-card test the masks replaced, which prohibitions still use): STR, DEF and icons.
    fn by_card(
        g: &TrailsGame,
        s: &State,
        q: Seat,
        i: u8,
        hits: &mut [[u32; 2]; 16],
    ) -> (i16, i16, Icons) {
        let (mut st, mut df) = g.printed_stats(s, q, i);
        let p = s.pl(q);
        let mut icons = g
            .hot(p.card[i as usize])
            .icons
            .union(p.icons_eot[i as usize]);
        for src in Seat::ALL {
            for si in Bits(s.pl(src).static_src) {
                let id = s.pl(src).card[si as usize];
                for e in &g.card(id).statics {
                    let (side, filter) = match e {
                        StaticEffect::Stats { side, filter, .. }
                        | StaticEffect::Grant { side, filter, .. } => (*side, filter),
                        _ => continue,
                    };
                    if !side_matches(side, src, q) {
                        continue;
                    }
                    let on = g.static_filter(s, q, i, filter, (src, si));
                    hits[usize::from(id) % 16][usize::from(on)] += 1;
                    if !on {
                        continue;
                    }
                    match *e {
                        StaticEffect::Stats { str, def, .. } => {
                            st += g.static_amount(s, (src, si), str);
                            df += g.static_amount(s, (src, si), def);
                        }
                        StaticEffect::Grant { icons: gi, .. } => icons = icons.union(gi),
                        _ => {}
                    }
                }
            }
        }
        if p.has(i, flag::STUNNED) {
            icons = Icons::NONE;
        }
        (st, df, icons)
    }

    /// The field view, `stats` and `icons` (the static walk with its masks) agree with the
    /// per-card filter at every decision of random games between decks of those cards, and
    /// every static was both applied and refused by its filter.
    #[test]
    fn the_static_walk_applies_what_the_per_card_filter_applies() {
        let db = CardDb::parse(CARDS, "statics.csv").expect("card file");
        let deck = |ids: &[u16]| -> Vec<u16> { (0..40).map(|k| ids[k % ids.len()]).collect() };
        let g = TrailsGame::new(db, deck(&[0, 1, 2, 3, 6, 7, 8]), deck(&[0, 2, 4, 5, 6, 7]));
        let mut hits = [[0u32; 2]; 16];
        let mut checked = 0;
        let games = [g];
        crate::games::trails::walk_test_games(&games, 40, 1, |g, s, _, seed| {
            checked += agree_card_by_card(g, s, seed, &mut hits);
        });
        let g = &games[0];
        assert!(checked > 10_000, "{checked}");
        // Both ways of reading a static were walked: the cards read off their entry, and those
        // whose filter asks an icon or bounds.
        let quick = |name: &str| {
            let l = g.lids().find(|&l| g.card(l).name == name).expect("a card");
            g.quick[l].kind != 0
        };
        for name in ["Army Chief", "Self Lifter", "Ready Drill", "Shade Keeper"] {
            assert!(quick(name), "{name}");
        }
        for name in ["Hate Banner", "Crusher Yard", "Small Guard"] {
            assert!(!quick(name), "{name}");
        }
        for name in [
            "Army Chief",
            "Self Lifter",
            "Ready Drill",
            "Hate Banner",
            "Crusher Yard",
            "Small Guard",
            "Shade Keeper",
        ] {
            let l = g
                .lids()
                .find(|&l| g.card(l).name == name)
                .expect("a card of the match");
            let [off, on] = hits[usize::from(l) % 16];
            assert!(off > 0 && on > 0, "{name}: refused {off}, applied {on}");
        }
    }

    /// The same comparison in random games of every pair of the bundled decks, most of whose
    /// statics are read off their [`QuickStatic`] entries: the field view, `stats` and `icons` against the
    /// per-card filter summing the card's static effects.
    #[test]
    fn the_quick_statics_apply_what_the_per_card_filter_applies() {
        let mut hits = [[0u32; 2]; 16];
        let (mut checked, mut quick) = (0u32, 0u32);
        let games = crate::games::trails::test_games(false);
        crate::games::trails::walk_test_games(&games, 4, 5, |g, s, _, seed| {
            for p in Seat::ALL {
                for i in Bits(s.pl(p).static_src) {
                    quick += u32::from(g.quick[s.pl(p).card[i as usize]].kind != 0);
                }
            }
            checked += agree_card_by_card(g, s, seed, &mut hits);
        });
        assert!(checked > 100_000 && quick > 10_000, "{checked} {quick}");
    }
}
