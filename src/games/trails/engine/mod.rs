//! The Trails rules: legal actions and their effects. Every function cites the rule it implements.
//!
//! After each action, [`TrailsGame::settle`] runs everything that needs no decision (draws, queued
//! abilities without choices, step changes) until a player must decide or the game is over.

use super::action::Action;
use super::cards::{
    CardDb, CardId, CardType, Effect, Filter, Icons, Orgs, Side, StaticEffect, Target, TargetMode,
    Trigger,
};
use super::state::{
    bit, flag, AttackTarget, Bits, Combat, Cursor, Kinds, Pending, State, Step, MAX_CARDS,
};
use crate::core::{ActionList, Outcome, Seat};

/// Decision T-RES-10: the most "always" actions (events, arts, BASEs, crafts, support) a player
/// may take in one turn — a guard against endless loops such as two UNITs readying each other.
pub const MAX_ALWAYS_PER_TURN: u8 = 40;

/// T-WIN-1: starting (and highest) bond.
pub const MAX_BOND: i16 = 40;

/// The result of a combat against a UNIT, before it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The attacking STR (group total, with [Martial Arts]).
    pub str_total: i16,
    pub stuns_defender: bool,
    /// The defender's STR reaches the fight-back target's DEF.
    pub stuns_attacker: bool,
    /// Overkill damage (0 when none).
    pub overkill: i16,
}

/// What legal attack targets and combat read of a set of cards, as masks per seat
/// ([`TrailsGame::marks_of`], and part of every [`FieldView`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The active UNITs ([`TrailsGame::active_units`]), whether covered or not.
    pub active: [u64; 2],
    /// Covered cards that have [Covert] and [Hate] now.
    pub covert: [u64; 2],
    pub hate: [u64; 2],
    /// Covered cards with support until end of turn (T-SCLM-3).
    pub supported: [u64; 2],
}

impl Marks {
    /// Records that `q`'s card `i` has `icons` (among others).
    #[inline]
    fn mark(&mut self, q: Seat, i: u8, icons: Icons) {
        if icons.has(Icons::COVERT) {
            self.covert[q.index()] |= bit(i);
        }
        if icons.has(Icons::HATE) {
            self.hate[q.index()] |= bit(i);
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

/// What the rules read of a card most often, packed into 10 bytes and stored densely by card id:
/// the full [`super::cards::Card`] keeps names and effect lists on the heap, one pointer away.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HotCard {
    pub ctype: CardType,
    pub cost: u8,
    pub str: i8,
    pub def: i8,
    pub icons: Icons,
    /// [`feat`] bits.
    pub feat: u8,
    pub orgs: Orgs,
    /// Arts cost, when the card has arts.
    pub arts: Option<u8>,
}

/// Feature bits of a [`HotCard`].
pub(crate) mod feat {
    /// A UNIT.
    pub const UNIT: u8 = 1;
    /// An EVENT or a card with arts: playable as an "always" action from hand (T-RES-2, T-RES-3).
    pub const FROM_HAND: u8 = 2;
    /// Has a craft with a cost (an ability triggered by the player, T-RES-5).
    pub const ACT: u8 = 4;
    /// Has static effects that change STR/DEF.
    pub const STATS: u8 = 16;
    /// An EVENT, a BASE or a card with arts: may give an "always" action from the hand or face
    /// down in the homebase (T-RES-2, T-RES-3, T-RES-4).
    pub const PLAY: u8 = 32;
    /// Has static effects that grant icons.
    pub const GRANT: u8 = 64;
    /// Has static effects that link organizations (T-TERM-LINK).
    pub const LINK: u8 = 128;
    /// Has static effects of any kind.
    pub const STATICS: u8 = STATS | GRANT | LINK;
}

impl HotCard {
    fn of(c: &super::cards::Card) -> HotCard {
        let mut f = 0;
        if c.ctype == CardType::Unit {
            f |= feat::UNIT;
        }
        if c.ctype == CardType::Event || c.arts_cost.is_some() {
            f |= feat::FROM_HAND;
        }
        if f & feat::FROM_HAND != 0 || c.ctype == CardType::Base {
            f |= feat::PLAY;
        }
        if c.abilities.iter().any(|a| a.trigger == Trigger::Act) {
            f |= feat::ACT;
        }
        for st in &c.statics {
            f |= match st {
                StaticEffect::Stats { .. } => feat::STATS,
                StaticEffect::Grant { .. } => feat::GRANT,
                StaticEffect::Link(_) => feat::LINK,
            };
        }
        HotCard {
            ctype: c.ctype,
            cost: c.cost,
            str: c.str,
            def: c.def,
            icons: c.icons,
            feat: f,
            orgs: c.orgs,
            arts: c.arts_cost,
        }
    }
}

/// The immutable context of a Trails match: the card database and the two decks.
#[derive(Clone, Debug)]
pub struct TrailsGame {
    pub db: CardDb,
    /// The card ids of each seat's deck (T-DECK).
    pub decks: [Vec<CardId>; 2],
    /// The heuristic policy's weights.
    pub weights: super::heuristic::Weights,
    /// Whether any card of either deck links organizations (T-TERM-LINK): when none does,
    /// organizations need no look at the statics.
    has_links: bool,
    /// Whether any card of either deck grants icons statically; likewise stat changes.
    has_static_icons: bool,
    has_static_stats: bool,
    /// [`HotCard`] of every card id of the database.
    hot: Vec<HotCard>,
}

impl TrailsGame {
    pub fn new(db: CardDb, deck_a: Vec<CardId>, deck_b: Vec<CardId>) -> TrailsGame {
        assert!(deck_a.len() <= MAX_CARDS && deck_b.len() <= MAX_CARDS);
        let has_links = deck_a.iter().chain(&deck_b).any(|&id| {
            db.card(id)
                .statics
                .iter()
                .any(|st| matches!(st, StaticEffect::Link(_)))
        });
        let any = |pred: fn(&StaticEffect) -> bool| {
            deck_a
                .iter()
                .chain(&deck_b)
                .any(|&id| db.card(id).statics.iter().any(pred))
        };
        let has_static_icons = any(|st| matches!(st, StaticEffect::Grant { .. }));
        let has_static_stats = any(|st| matches!(st, StaticEffect::Stats { .. }));
        let hot = (0..db.len())
            .map(|id| HotCard::of(db.card(id as CardId)))
            .collect();
        TrailsGame {
            hot,
            db,
            decks: [deck_a, deck_b],
            weights: Default::default(),
            has_links,
            has_static_icons,
            has_static_stats,
        }
    }

    #[inline]
    pub(crate) fn cid(&self, s: &State, q: Seat, i: u8) -> CardId {
        s.pl(q).card[i as usize]
    }

    #[inline]
    pub(crate) fn ctype(&self, s: &State, q: Seat, i: u8) -> CardType {
        self.hot(self.cid(s, q, i)).ctype
    }

    #[inline]
    pub(crate) fn hot(&self, id: CardId) -> &HotCard {
        &self.hot[id as usize]
    }

    // ----------------------------------------------------------------------------------------
    // Effective characteristics
    // ----------------------------------------------------------------------------------------

    /// UNITs of `q` on the field that are not stunned: the ones that count as "on the field"
    /// for targeting and for "no UNIT" checks (T-STATE-2).
    pub fn active_units(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        p.field & !p.flagged(flag::STUNNED) & p.kinds.unit
    }

    /// The active static sources of `q` that have a static effect of a [`feat`] in `kind`, with
    /// their static effects: UNITs (not stunned, T-STATE-2) and ITEMs on the field, face-up BASEs
    /// in the homebase (T-RES-4).
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
            (self.hot(id).feat & kind != 0).then(|| (i, self.db.card(id).statics.as_slice()))
        })
    }

    /// Calls `f(q, i, effect)` for every active static effect that changes STR/DEF (with
    /// `stats`) or grants icons (with `icons`), for each card `i` of seat `q` in `cards` (a mask
    /// per seat) that the effect's side and filter select. Source by source: each effect's own
    /// work is done once, then its filter is read for each card. The one walk over static
    /// effects behind both [`Self::stats`]/[`Self::icons`] (one card) and [`Self::view_of`]
    /// (many); the order of the calls does not matter to sums and unions.
    fn for_static_mods(
        &self,
        s: &State,
        cards: [u64; 2],
        stats: bool,
        icons: bool,
        mut f: impl FnMut(Seat, u8, &StaticEffect),
    ) {
        let kind = if stats { feat::STATS } else { 0 } | if icons { feat::GRANT } else { 0 };
        for src in Seat::ALL {
            for (si, statics) in self.static_sources(s, src, kind) {
                for st in statics {
                    let (side, filter) = match st {
                        StaticEffect::Stats { side, filter, .. } if stats => (*side, filter),
                        StaticEffect::Grant { side, filter, .. } if icons => (*side, filter),
                        _ => continue,
                    };
                    for q in Seat::ALL
                        .into_iter()
                        .filter(|&q| side_matches(side, src, q))
                    {
                        for i in Bits(cards[q.index()]) {
                            if self.static_filter(s, q, i, filter, (src, si)) {
                                f(q, i, st);
                            }
                        }
                    }
                }
            }
        }
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
        for i in 0..p.n_cards {
            let f = self.hot(p.card[i as usize]).feat;
            if f & feat::PLAY != 0 {
                k.play |= bit(i);
            }
            if f & feat::ACT != 0 {
                k.craft |= bit(i);
            }
            if f & feat::UNIT != 0 {
                k.unit |= bit(i);
            }
        }
        k
    }

    /// Sets the card-kind masks of both seats from the instances' cards.
    pub(crate) fn refresh_kinds(&self, s: &mut State) {
        for q in Seat::ALL {
            s.pl_mut(q).kinds = self.card_kinds(s, q);
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
    pub fn linked(&self, s: &State, q: Seat, o: Orgs) -> Orgs {
        if !self.has_links {
            return o;
        }
        let mut linked = o;
        for (_, statics) in self.static_sources(s, q, feat::LINK) {
            for st in statics {
                if let StaticEffect::Link(bits) = *st {
                    if o & bits != 0 {
                        linked |= bits;
                    }
                }
            }
        }
        linked
    }

    /// Whether a static filter matches, read on printed and end-of-turn values (decision
    /// T-STATIC-1: static filters do not see other statics, so statics never depend on each other).
    fn static_filter(&self, s: &State, q: Seat, i: u8, f: &Filter, source: (Seat, u8)) -> bool {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        if f.other && source == (q, i) {
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

    /// Sum of static stat changes and icon grants that apply to `q`'s UNIT `i`.
    fn static_mods(&self, s: &State, q: Seat, i: u8) -> (i16, i16, Icons) {
        let (mut ds, mut dd, mut icons) = (0i16, 0i16, Icons::NONE);
        let mut cards = [0; 2];
        cards[q.index()] = bit(i);
        self.for_static_mods(s, cards, true, true, |_, _, st| match *st {
            StaticEffect::Stats { str, def, .. } => {
                ds += i16::from(str);
                dd += i16::from(def);
            }
            StaticEffect::Grant { icons: g, .. } => icons = icons.union(g),
            StaticEffect::Link(_) => {}
        });
        (ds, dd, icons)
    }

    /// Icons of a UNIT now: printed, gained until end of turn, granted by statics. A stunned UNIT
    /// loses all crafts (T-STATE-2).
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
        own.union(self.static_mods(s, q, i).2)
    }

    /// STR and DEF of a UNIT outside combat: printed, plus end-of-turn and static changes.
    pub fn stats(&self, s: &State, q: Seat, i: u8) -> (i16, i16) {
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        let (ds, dd, _) = if !self.has_static_stats || (s.p[0].static_src | s.p[1].static_src) == 0
        {
            (0, 0, Icons::NONE)
        } else {
            self.static_mods(s, q, i)
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
        let mut cards = [s.p[0].field, s.p[1].field];
        cards[s.combat.attacker.index()] |= s.combat.attackers;
        if let AttackTarget::Unit(d) = s.combat.target {
            cards[s.combat.attacker.other().index()] |= bit(d);
        }
        self.view_of(s, cards)
    }

    /// A [`FieldView`] of the cards in `cards` (a mask per seat) only.
    // Inlined into its two callers so the view is built in place, not copied out (1% of
    // heuristic self-play's instructions).
    #[inline(always)]
    pub(crate) fn view_of(&self, s: &State, cards: [u64; 2]) -> FieldView {
        let mut v = FieldView::default();
        for q in Seat::ALL {
            let (p, k) = (s.pl(q), q.index());
            for i in Bits(cards[k]) {
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
            |q, i, st| {
                let (k, i) = (q.index(), i as usize);
                match *st {
                    StaticEffect::Stats { str, def, .. } => {
                        v.str[k][i] += i16::from(str);
                        v.def[k][i] += i16::from(def);
                    }
                    StaticEffect::Grant { icons, .. } => v.icons[k][i] = v.icons[k][i].union(icons),
                    StaticEffect::Link(_) => {}
                }
            },
        );
        for q in Seat::ALL {
            let (p, k) = (s.pl(q), q.index());
            v.marks.active[k] = self.active_units(s, q);
            v.marks.supported[k] = cards[k] & p.flagged(flag::SUPPORTED);
            // A stunned UNIT loses all crafts (T-STATE-2).
            for i in Bits(cards[k] & p.flagged(flag::STUNNED)) {
                v.icons[k][i as usize] = Icons::NONE;
            }
            // The same marks as `marks_of`, read off the icons just summed: calling `marks_of`
            // would walk the icon grants a second time (+9% heuristic instructions, measured).
            // The field-view test checks that the two agree.
            for i in Bits(cards[k]) {
                v.marks.mark(q, i, v.icons[k][i as usize]);
            }
        }
        v
    }

    /// The [`Marks`] of the cards in `cards` (a mask per seat): those of their [`Self::view_of`],
    /// without reading STR and DEF or storing icons. Legal attack targets need only these.
    pub fn marks_of(&self, s: &State, cards: [u64; 2]) -> Marks {
        let mut m = Marks::default();
        for q in Seat::ALL {
            let (p, k) = (s.pl(q), q.index());
            m.active[k] = self.active_units(s, q);
            m.supported[k] = cards[k] & p.flagged(flag::SUPPORTED);
            // A stunned UNIT loses all crafts (T-STATE-2).
            for i in Bits(cards[k] & !p.flagged(flag::STUNNED)) {
                let c = self.hot(p.card[i as usize]);
                m.mark(q, i, c.icons.union(p.icons_eot[i as usize]));
            }
        }
        let live = [
            !s.p[0].flagged(flag::STUNNED),
            !s.p[1].flagged(flag::STUNNED),
        ];
        self.for_static_mods(s, cards, false, self.has_static_icons, |q, i, st| {
            if let StaticEffect::Grant { icons, .. } = *st {
                if live[q.index()] & bit(i) != 0 {
                    m.mark(q, i, icons);
                }
            }
        });
        m
    }

    /// Whether `q`'s UNIT `i` matches an effect's filter, on current values.
    fn effect_filter(&self, s: &State, q: Seat, i: u8, f: &Filter, source: (Seat, u8)) -> bool {
        if f.other && source == (q, i) {
            return false;
        }
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        if f.org != 0 && self.orgs(s, q, i) & f.org == 0 {
            return false;
        }
        if f.icon != Icons::NONE && !self.icons(s, q, i).has(f.icon) {
            return false;
        }
        if !ready_ok(f, p.has(i, flag::ACTIONED)) {
            return false;
        }
        let (st, df) = if f.str_min.is_some()
            || f.str_max.is_some()
            || f.def_min.is_some()
            || f.def_max.is_some()
        {
            let (st, df) = self.stats(s, q, i);
            (st.clamp(-128, 127) as i8, df.clamp(-128, 127) as i8)
        } else {
            (0, 0)
        };
        bounds_ok(f, c.cost, st, df)
    }

    /// The UNITs an effect of `controller` may pick (T-STATE-2: stunned UNITs are not there).
    pub fn effect_targets(&self, s: &State, controller: Seat, t: &Target, source: u8) -> [u64; 2] {
        let mut out = [0u64; 2];
        for q in Seat::ALL {
            if !side_matches(t.side, controller, q) {
                continue;
            }
            for i in Bits(self.active_units(s, q)) {
                if self.effect_filter(s, q, i, &t.filter, (controller, source)) {
                    out[q.index()] |= bit(i);
                }
            }
        }
        out
    }

    // ----------------------------------------------------------------------------------------
    // Zone changes
    // ----------------------------------------------------------------------------------------

    /// Draws one card; an empty deck loses the game at once (T-WIN-3).
    fn draw(&self, s: &mut State, q: Seat) {
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
    fn reveal(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.known = [p.known[0] | bit(i), p.known[1] | bit(i)];
    }

    /// T-STATE-4: a card goes to its owner's trail.
    fn to_trail(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.hand &= !bit(i);
        p.homebase &= !bit(i);
        p.field &= !bit(i);
        p.trail |= bit(i);
        p.reset_instance(i);
        self.reveal(s, q, i);
        self.refresh_static(s, q, i);
    }

    /// Hand to face-down homebase. The opponent loses track of which card it was (decision
    /// T-INFO-3), unless it was already public knowledge that it is in hand: a card moving between
    /// two hidden zones stays known only to its owner.
    fn hand_to_homebase(&self, s: &mut State, q: Seat, i: u8, actioned: bool) {
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
    }

    /// The copy of card `id` that leaves `q`'s hand openly: one the opponent knows, if any, so the
    /// opponent's knowledge of the others stays true (decision T-INFO-3).
    fn hand_copy(&self, s: &State, q: Seat, id: CardId) -> u8 {
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
    fn leaving_homebase(&self, s: &mut State, q: Seat, i: u8) {
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
    fn end_phase_ep(s: &mut State) {
        for p in &mut s.p {
            p.ep = 0;
            p.ep_paid = 0;
        }
    }

    /// A UNIT or ITEM enters the field face up and ready (T-PREP-3); its enter ability queues.
    fn enter_field(&self, s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.hand &= !bit(i);
        p.homebase &= !bit(i);
        p.field |= bit(i);
        p.reset_instance(i);
        self.reveal(s, q, i);
        self.refresh_static(s, q, i);
        self.queue_trigger(s, q, i, Trigger::Enter);
    }

    fn queue_trigger(&self, s: &mut State, q: Seat, i: u8, trigger: Trigger) {
        let id = self.cid(s, q, i);
        if let Some((k, _)) = self.db.card(id).ability(trigger) {
            s.queue.push(Cursor {
                card: id,
                ability: k as u8,
                effect: 0,
                controller: q,
                source: i,
            });
        }
    }

    /// T-TERM-STUN / T-STATE-2: stun a UNIT; its owner loses bond equal to its printed CP cost.
    fn stun(&self, s: &mut State, q: Seat, i: u8) {
        let cost = self.db.card(self.cid(s, q, i)).cost;
        let p = s.pl_mut(q);
        if p.has(i, flag::STUNNED) {
            return;
        }
        p.set(i, flag::STUNNED | flag::ACTIONED);
        p.clear(i, flag::SUPPORTED);
        p.bond -= i16::from(cost);
        self.refresh_static(s, q, i);
    }

    fn gain_bond(s: &mut State, q: Seat, delta: i16) {
        // T-WIN-1: bond never rises above 40 and has no lower limit.
        let p = s.pl_mut(q);
        p.bond = if delta > 0 {
            (p.bond + delta).min(MAX_BOND)
        } else {
            p.bond + delta
        };
    }

    /// T-RES-1 / decision T-RES-7 (a): pay EP from the pool, then by actioning ready homebase
    /// cards, face-down ones first, lowest instance first.
    fn pay_ep(&self, s: &mut State, q: Seat, mut n: u8) {
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

    // ----------------------------------------------------------------------------------------
    // Setup
    // ----------------------------------------------------------------------------------------

    /// A new game: each deck shuffled by the RNG of `seed`, 4 cards drawn (T-SETUP-2), the
    /// mulligan of the turn-1 initiative player next (T-SETUP-3).
    pub fn setup(&self, seed: u64, first: Seat) -> State {
        use rand::seq::SliceRandom;
        let mut rng = crate::core::rng_from_seed(seed);
        let mut s = State::empty(first, Step::Mulligan);
        for q in Seat::ALL {
            let deck = &self.decks[q.index()];
            let p = s.pl_mut(q);
            let n = deck.len();
            p.n_cards = n as u8;
            p.card[..n].copy_from_slice(deck);
            // Cards are dealt to instances at random, so an instance number says nothing about
            // which card it is (no agent can read a hidden card off the deck list), and the deck
            // order is shuffled (no allocation).
            p.card[..n].shuffle(&mut rng);
            for (k, slot) in p.deck[..n].iter_mut().enumerate() {
                *slot = k as u8;
            }
            p.deck[..n].shuffle(&mut rng);
            p.deck_len = n as u8;
        }
        self.refresh_kinds(&mut s);
        for q in Seat::ALL {
            for _ in 0..4 {
                self.draw(&mut s, q);
            }
        }
        s
    }

    // ----------------------------------------------------------------------------------------
    // Legal actions
    // ----------------------------------------------------------------------------------------

    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear();
        let Some(me) = s.chooser() else { return };
        match s.pending {
            Pending::Target => {
                let c = s.queue[0];
                let e = self.effect_at(&c);
                let t = e.target().expect("pending target on a targeted effect");
                let m = self.effect_targets(s, c.controller, t, c.source);
                for q in Seat::ALL {
                    for i in Bits(m[q.index()]) {
                        out.push(Action::Choose { seat: q, inst: i });
                    }
                }
                return;
            }
            Pending::Plan { left, fixed } => {
                let p = s.pl(me);
                let top = p.deck_len as usize - fixed as usize;
                for &i in &p.deck[top - left as usize..top] {
                    let id = p.card[i as usize];
                    push_unique(out, Action::PlanTop(id));
                    push_unique(out, Action::PlanBottom(id));
                }
                return;
            }
            Pending::Rebuild => {
                let p = s.pl(me);
                for i in Bits(p.homebase) {
                    push_unique(
                        out,
                        Action::Rebuild {
                            card: p.card[i as usize],
                            face_up: p.has(i, flag::FACE_UP),
                        },
                    );
                }
                return;
            }
            Pending::DispatchPut => {
                out.push(Action::Pass);
                let p = s.pl(me);
                for i in Bits(p.hand) {
                    if first_of_card(p, p.hand, i) {
                        out.push(Action::DispatchPut(p.card[i as usize]));
                    }
                }
                return;
            }
            Pending::None => {}
        }
        let p = s.pl(me);
        match s.step {
            Step::Mulligan => {
                out.push(Action::Pass);
                for i in Bits(p.hand) {
                    // T-SETUP-4: one card at a time, in the order the player chooses (each order
                    // of a set is one sequence of actions; copies of a card are one action).
                    if first_of_card(p, p.hand, i) {
                        out.push(Action::Mulligan(p.card[i as usize]));
                    }
                }
            }
            Step::Homebase => {
                out.push(Action::Pass);
                for i in Bits(p.hand) {
                    if first_of_card(p, p.hand, i) {
                        out.push(Action::Homebase(p.card[i as usize]));
                    }
                }
                self.always_actions(s, me, out);
            }
            Step::Deploy => {
                out.push(Action::Pass);
                for i in Bits(p.hand) {
                    let c = self.hot(p.card[i as usize]);
                    if matches!(c.ctype, CardType::Unit | CardType::Item)
                        && c.cost <= p.cp
                        && first_of_card(p, p.hand, i)
                        && self.reinforcement_ok(s, me, p.card[i as usize])
                    {
                        out.push(Action::Deploy(p.card[i as usize]));
                    }
                }
                let down = p.homebase & !p.face_up();
                for i in Bits(down) {
                    let c = self.hot(p.card[i as usize]);
                    if c.ctype == CardType::Unit
                        && c.icons.has(Icons::DISPATCH)
                        && c.cost <= p.cp
                        && first_of_card(p, down, i)
                        && self.reinforcement_ok(s, me, p.card[i as usize])
                    {
                        out.push(Action::Dispatch(p.card[i as usize]));
                    }
                }
                self.always_actions(s, me, out);
            }
            Step::Propose => {
                out.push(Action::Pass);
                for i in Bits(self.active_units(s, me)) {
                    if !p.has(i, flag::ACTIONED) {
                        out.push(Action::Attack(i));
                    }
                }
                self.always_actions(s, me, out);
            }
            Step::Group => {
                // Legal targets depend on icons only ([Covert], [Hate]).
                let m = self.marks_of(s, [s.p[0].field, s.p[1].field]);
                let last = 63 - s.combat.attackers.leading_zeros() as u8;
                for i in Bits(self.active_units(s, me)) {
                    // T-SCLM-1: ready UNITs sharing an organization with every member; added in
                    // increasing instance order so each group is built one way (T-SCLM-4). A
                    // member joins only if the group keeps a legal target (T-SCLM-2).
                    if i > last
                        && !p.has(i, flag::ACTIONED)
                        && self.orgs(s, me, i) & s.combat.group_orgs != 0
                    {
                        let (units, player) =
                            self.group_targets(&m, me, s.combat.attackers | bit(i));
                        if units != 0 || player {
                            out.push(Action::Join(i));
                        }
                    }
                }
                let (units, player) = self.group_targets(&m, me, s.combat.attackers);
                for i in Bits(units) {
                    out.push(Action::TargetUnit(i));
                }
                if player {
                    out.push(Action::TargetPlayer);
                }
            }
            Step::Window => {
                out.push(Action::Pass);
                if let AttackTarget::Unit(d) = s.combat.target {
                    if me != s.combat.attacker
                        && s.always_used[me.index()] < MAX_ALWAYS_PER_TURN
                        && !p.has(d, flag::SUPPORTED)
                        && self.active_units(s, me) & bit(d) != 0
                    {
                        let dorgs = self.orgs(s, me, d);
                        let covert = self.icons(s, me, d).has(Icons::COVERT);
                        for i in Bits(self.active_units(s, me)) {
                            // T-SCLM-3: another ready UNIT sharing an organization; [Covert]
                            // needs a [Covert] supporter. Decision T-RES-8: offered for the
                            // defending UNIT only.
                            if i != d
                                && !p.has(i, flag::ACTIONED)
                                && self.orgs(s, me, i) & dorgs != 0
                                && (!covert || self.icons(s, me, i).has(Icons::COVERT))
                            {
                                out.push(Action::Support(i));
                            }
                        }
                    }
                }
                self.always_actions(s, me, out);
            }
            Step::FightBack => {
                for i in Bits(s.combat.attackers) {
                    out.push(Action::FightBack(i));
                }
            }
            Step::Cure => {
                out.push(Action::Pass);
                for i in Bits(p.field) {
                    if p.has(i, flag::STUNNED) {
                        out.push(Action::Cure(i));
                    }
                }
            }
            Step::Draw | Step::Over => {}
        }
    }

    /// T-RES-6: playing EVENTs, arts and BASEs, and crafts with a cost.
    fn always_actions(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        if s.always_used[me.index()] >= MAX_ALWAYS_PER_TURN {
            return;
        }
        let p = s.pl(me);
        let (ep, up) = (p.ep_available() as u8, p.face_up());
        for i in Bits(p.hand & p.kinds.play) {
            let id = p.card[i as usize];
            let c = self.hot(id);
            if c.feat & feat::FROM_HAND == 0 {
                continue;
            }
            let event = c.ctype == CardType::Event && c.cost <= ep;
            let arts = c.arts.is_some_and(|a| a <= ep);
            // One action per card, whatever the copies (actions name cards by id).
            if !(event || arts) || !first_of_card(p, p.hand, i) {
                continue;
            }
            if event {
                out.push(Action::Event {
                    card: id,
                    from_homebase: false,
                });
            }
            if arts {
                out.push(Action::Arts {
                    card: id,
                    from_homebase: false,
                });
            }
        }
        let hb = p.homebase_count();
        let down = p.homebase & !up;
        // Only cards that can give an action, still in instance order.
        for i in Bits((up & p.kinds.craft) | (down & p.kinds.play)) {
            let id = p.card[i as usize];
            let c = self.hot(id);
            if up & bit(i) != 0 {
                // T-RES-5: face-up non-BASE cards in the homebase have no crafts (the loop
                // visits face-up cards with crafts only).
                if c.ctype == CardType::Base {
                    self.craft_actions(s, me, i, ep, out);
                }
                continue;
            }
            let event = c.ctype == CardType::Event && c.cost <= ep;
            let base = c.ctype == CardType::Base && u32::from(c.cost) <= hb;
            let arts = c.arts.is_some_and(|a| a <= ep);
            if !(event || base || arts) || !first_of_card(p, down, i) {
                continue;
            }
            if event {
                out.push(Action::Event {
                    card: id,
                    from_homebase: true,
                });
            }
            if base {
                out.push(Action::Base(id));
            }
            if arts {
                out.push(Action::Arts {
                    card: id,
                    from_homebase: true,
                });
            }
        }
        for i in Bits(p.field & p.kinds.craft & !p.flagged(flag::STUNNED)) {
            self.craft_actions(s, me, i, ep, out);
        }
    }

    fn craft_actions(&self, s: &State, me: Seat, i: u8, ep: u8, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        let c = self.db.card(p.card[i as usize]);
        for (k, a) in c.abilities.iter().enumerate() {
            if a.trigger == Trigger::Act
                && a.cost.ep <= ep
                && (!a.cost.self_action || !p.has(i, flag::ACTIONED))
            {
                out.push(Action::Craft {
                    inst: i,
                    ability: k as u8,
                });
            }
        }
    }

    /// T-ICON-REINF: a [Reinforcement] card is played as a UNIT only while its player controls a
    /// UNIT sharing one of its organizations.
    fn reinforcement_ok(&self, s: &State, me: Seat, id: CardId) -> bool {
        let c = self.hot(id);
        if !c.icons.has(Icons::REINFORCEMENT) || c.ctype != CardType::Unit {
            return true;
        }
        // Decision T-TERM-LINK-3: the card in hand or homebase has its linked organizations too.
        let own = self.linked(s, me, c.orgs);
        Bits(self.active_units(s, me)).any(|i| self.orgs(s, me, i) & own != 0)
    }

    /// The legal targets of a group: the opposing UNITs it may attack, and whether it may attack
    /// the player — only when no member could attack any opposing UNIT on its own (T-COMBAT-2,
    /// decision T-SCLM-2), so a group never dodges a UNIT (or [Hate]) that a member must face.
    pub fn group_targets(&self, m: &Marks, me: Seat, attackers: u64) -> (u64, bool) {
        let units = self.attack_targets(m, me, attackers);
        let player = units == 0 && Bits(attackers).all(|a| self.attack_targets(m, me, bit(a)) == 0);
        (units, player)
    }

    /// The opposing UNITs a group may target (T-COMBAT-2, T-ICON-COVERT, T-SCLM-2, T-COMBAT-6).
    /// `m` must cover the attackers (as [`Self::marks_of`] the field, or a field view, do).
    pub fn attack_targets(&self, m: &Marks, me: Seat, attackers: u64) -> u64 {
        let opp = me.other();
        let covert = m.covert[me.index()];
        let covert_all = attackers & !covert == 0;
        let covert_none = attackers & covert == 0;
        // T-ICON-COVERT: covert attacks only covert, covert is attacked only by covert; a
        // group needs every member able to attack the UNIT (T-SCLM-2).
        let defenders = m.active[opp.index()];
        let mut legal = 0u64;
        if covert_all {
            legal |= defenders & m.covert[opp.index()];
        }
        if covert_none {
            legal |= defenders & !m.covert[opp.index()];
        }
        // T-COMBAT-6: a legal target with [Hate] must be chosen over the others.
        let hate = legal & m.hate[opp.index()];
        if hate != 0 {
            hate
        } else {
            legal
        }
    }

    // ----------------------------------------------------------------------------------------
    // Applying actions
    // ----------------------------------------------------------------------------------------

    pub fn play(&self, s: &mut State, a: Action) {
        let me = s.chooser().expect("play on a finished game");
        match (s.pending, a) {
            (Pending::Target, Action::Choose { seat, inst }) => {
                let c = s.queue[0];
                let e = *self.effect_at(&c);
                s.pending = Pending::None;
                self.apply_to_unit(s, &e, seat, inst);
                s.queue[0].effect += 1;
            }
            (Pending::Plan { left, fixed }, Action::PlanTop(id) | Action::PlanBottom(id)) => {
                let p = s.pl_mut(me);
                let top = p.deck_len as usize - fixed as usize;
                let lo = top - left as usize;
                let k = (lo..top)
                    .find(|&k| p.card[p.deck[k] as usize] == id)
                    .expect("plan card among the looked-at cards");
                let inst = p.deck[k];
                if matches!(a, Action::PlanTop(_)) {
                    // Move it to the top of the looked-at segment, just below the fixed cards.
                    p.deck.copy_within(k + 1..top, k);
                    p.deck[top - 1] = inst;
                    s.pending = Pending::Plan {
                        left: left - 1,
                        fixed: fixed + 1,
                    };
                } else {
                    p.deck.copy_within(0..k, 1);
                    p.deck[0] = inst;
                    s.pending = Pending::Plan {
                        left: left - 1,
                        fixed,
                    };
                }
                if left == 1 {
                    s.pending = Pending::None;
                }
            }
            (Pending::Rebuild, Action::Rebuild { card, face_up }) => {
                s.pending = Pending::None;
                let p = s.pl(me);
                // Of equal cards, the actioned one is destroyed: it is worth no EP this turn.
                let pick = |want_actioned: bool| {
                    Bits(p.homebase).find(|&i| {
                        p.card[i as usize] == card
                            && p.has(i, flag::FACE_UP) == face_up
                            && p.has(i, flag::ACTIONED) == want_actioned
                    })
                };
                let i = pick(true)
                    .or_else(|| pick(false))
                    .expect("rebuild card in homebase");
                self.leaving_homebase(s, me, i);
                self.to_trail(s, me, i);
                // T-TERM-REBUILD: the top card of the deck into the homebase, face down, actioned.
                let p = s.pl_mut(me);
                if let Some(t) = p.pop_top() {
                    p.homebase |= bit(t);
                    p.reset_instance(t);
                    p.set(t, flag::ACTIONED);
                    p.known[me.index()] |= bit(t);
                }
            }
            (Pending::DispatchPut, Action::DispatchPut(id)) => {
                s.pending = Pending::None;
                let i = s.pl(me).find(s.pl(me).hand, id).expect("card in hand");
                self.hand_to_homebase(s, me, i, true);
            }
            (Pending::DispatchPut, Action::Pass) => s.pending = Pending::None,
            (Pending::None, _) => self.play_step(s, me, a),
            (p, a) => panic!("illegal action {a:?} while {p:?} is pending"),
        }
        self.settle(s);
    }

    fn play_step(&self, s: &mut State, me: Seat, a: Action) {
        match (s.step, a) {
            (Step::Mulligan, Action::Mulligan(id)) => {
                let p = s.pl_mut(me);
                let i = p.find(p.hand, id).expect("mulligan card in hand");
                p.known[me.other().index()] &= !p.hand;
                p.hand &= !bit(i);
                p.push_bottom(i);
                s.mulligan_count += 1;
            }
            (Step::Mulligan, Action::Pass) => {
                // T-SETUP-3: draw as many as were put on the bottom.
                for _ in 0..s.mulligan_count {
                    self.draw(s, me);
                }
                s.mulligan_count = 0;
                if me == s.initiative {
                    s.actor = me.other();
                } else {
                    s.actor = s.initiative;
                    s.step = Step::Draw;
                }
            }
            (Step::Homebase, Action::Homebase(id)) => {
                let p = s.pl(me);
                let i = p.find(p.hand, id).expect("homebase card in hand");
                // T-PREP-2: face down and ready.
                self.hand_to_homebase(s, me, i, false);
                self.start_deploy(s);
            }
            (Step::Homebase, Action::Pass) => self.start_deploy(s),
            (Step::Deploy, Action::Deploy(id)) => {
                let cost = self.db.card(id).cost;
                let i = self.hand_copy(s, me, id);
                s.pl_mut(me).cp -= cost;
                self.enter_field(s, me, i);
            }
            (Step::Deploy, Action::Dispatch(id)) => {
                let cost = self.db.card(id).cost;
                let p = s.pl_mut(me);
                let m = p.homebase & !p.face_up();
                let i = p.find(m, id).expect("dispatch card face down in homebase");
                p.cp -= cost;
                self.leaving_homebase(s, me, i);
                self.enter_field(s, me, i);
                s.pending = Pending::DispatchPut;
            }
            (Step::Deploy, Action::Pass) => {
                // T-PREP-3: unspent CP disappears. The initiative player's preparation is
                // followed by the other player's; then the combat phase (T-PREP, T-COMBAT-1).
                s.pl_mut(me).cp = 0;
                if me == s.initiative {
                    s.actor = me.other();
                    s.step = Step::Draw;
                } else {
                    // The preparation phase ends: its EP is gone (T-RES-1).
                    Self::end_phase_ep(s);
                    s.actor = s.initiative;
                    s.step = Step::Propose;
                    s.combat = Combat::default();
                }
            }
            (Step::Propose, Action::Pass) => {
                s.combat.passes += 1;
                if s.combat.passes >= 2 {
                    // T-COMBAT-1: two consecutive passes end the combat phase.
                    self.start_cure(s);
                } else {
                    s.actor = me.other();
                }
            }
            (Step::Propose, Action::Attack(i)) => {
                s.combat.attackers = bit(i);
                s.combat.group_orgs = self.orgs(s, me, i);
                s.combat.attacker = me;
                s.step = Step::Group;
            }
            (Step::Group, Action::Join(i)) => {
                s.combat.attackers |= bit(i);
                s.combat.group_orgs &= self.orgs(s, me, i);
            }
            (Step::Group, Action::TargetUnit(d)) => self.declare(s, me, AttackTarget::Unit(d)),
            (Step::Group, Action::TargetPlayer) => self.declare(s, me, AttackTarget::Player),
            (Step::Window, Action::Pass) => {
                s.combat.window_passes += 1;
                if s.combat.window_passes >= 2 {
                    self.end_window(s);
                } else {
                    s.actor = me.other();
                }
            }
            (Step::Window, Action::Support(i)) => {
                s.combat.window_passes = 0;
                s.always_used[me.index()] += 1;
                let AttackTarget::Unit(d) = s.combat.target else {
                    unreachable!("support needs a defending UNIT")
                };
                let p = s.pl_mut(me);
                p.set(i, flag::ACTIONED);
                p.set(d, flag::SUPPORTED);
            }
            (Step::FightBack, Action::FightBack(i)) => {
                s.combat.fight_back = i;
                self.resolve_combat(s);
            }
            (Step::Cure, Action::Cure(i)) => {
                // T-CURE-2: turn it face up, actioned (T-CURE-3 readies it right after).
                let p = s.pl_mut(me);
                p.clear(i, flag::STUNNED);
                p.set(i, flag::ACTIONED);
                self.refresh_static(s, me, i);
                self.next_cure(s);
            }
            (Step::Cure, Action::Pass) => self.next_cure(s),
            (
                Step::Homebase | Step::Deploy | Step::Propose | Step::Window,
                Action::Event { .. } | Action::Arts { .. } | Action::Base(_) | Action::Craft { .. },
            ) => {
                match s.step {
                    Step::Window => s.combat.window_passes = 0,
                    // Decision T-RES-11: an "always" action at the start of step I is something
                    // happening, as an attack is: the passes before it no longer count, so the
                    // other player gets a step I to answer before the phase can end.
                    Step::Propose => s.combat.passes = 0,
                    _ => {}
                }
                s.always_used[me.index()] += 1;
                self.play_always(s, me, a);
            }
            (step, a) => panic!("illegal action {a:?} in step {step:?}"),
        }
    }

    /// T-RES-2 to T-RES-5 and crafts.
    fn play_always(&self, s: &mut State, me: Seat, a: Action) {
        match a {
            Action::Event {
                card,
                from_homebase,
            }
            | Action::Arts {
                card,
                from_homebase,
            } => {
                let c = self.db.card(card);
                let (trigger, cost) = if matches!(a, Action::Event { .. }) {
                    (Trigger::Event, c.cost)
                } else {
                    (Trigger::Arts, c.arts_cost.expect("arts cost"))
                };
                let p = s.pl(me);
                let i = if from_homebase {
                    p.find(p.homebase & !p.face_up(), card)
                        .expect("played card face down in the homebase")
                } else {
                    self.hand_copy(s, me, card)
                };
                self.pay_ep(s, me, cost);
                if from_homebase {
                    // T-RES-5: it stays in the homebase in its current state, now face up.
                    s.pl_mut(me).set(i, flag::FACE_UP);
                    self.reveal(s, me, i);
                } else {
                    self.to_trail(s, me, i);
                }
                let (k, _) = c.ability(trigger).expect("ability of the played card");
                s.queue.push(Cursor {
                    card,
                    ability: k as u8,
                    effect: 0,
                    controller: me,
                    source: i,
                });
            }
            Action::Base(card) => {
                let p = s.pl(me);
                let i = p
                    .find(p.homebase & !p.face_up(), card)
                    .expect("face-down BASE");
                s.pl_mut(me).set(i, flag::FACE_UP);
                self.reveal(s, me, i);
                self.refresh_static(s, me, i);
                self.queue_trigger(s, me, i, Trigger::Enter);
            }
            Action::Craft { inst, ability } => {
                let cost = self.db.card(self.cid(s, me, inst)).abilities[ability as usize].cost;
                if cost.self_action {
                    s.pl_mut(me).set(inst, flag::ACTIONED);
                }
                self.pay_ep(s, me, cost.ep);
                s.queue.push(Cursor {
                    card: self.cid(s, me, inst),
                    ability,
                    effect: 0,
                    controller: me,
                    source: inst,
                });
            }
            _ => unreachable!(),
        }
    }

    fn start_deploy(&self, s: &mut State) {
        // T-PREP-3: 1 CP per homebase card, face up or down.
        let p = s.pl_mut(s.actor);
        p.cp = p.homebase_count() as u8;
        s.step = Step::Deploy;
    }

    /// T-COMBAT-3 (first sentence, decision T-COMBAT-7): the attackers are actioned as the attack
    /// is declared; attack and defend abilities queue; the window of T-RES-6 (c) opens.
    fn declare(&self, s: &mut State, me: Seat, target: AttackTarget) {
        s.combat.target = target;
        s.combat.sclm = s.combat.attackers.count_ones() >= 2;
        s.combat.passes = 0;
        s.combat.window_passes = 0;
        let mut orgs = 0;
        for a in Bits(s.combat.attackers) {
            orgs |= self.orgs(s, me, a);
            let p = s.pl_mut(me);
            p.set(a, flag::ACTIONED | flag::ATTACKED);
        }
        // T-ICON-ATTRIB: cards with [Attribution] gain the attackers' organizations this turn.
        s.pl_mut(me).attribution_orgs |= orgs;
        for a in Bits(s.combat.attackers) {
            self.queue_trigger(s, me, a, Trigger::Attack);
        }
        if let AttackTarget::Unit(d) = target {
            self.queue_trigger(s, me.other(), d, Trigger::Defend);
        }
        s.step = Step::Window;
        s.actor = me.other();
    }

    /// After the window: the attack goes on, or stops (T-COMBAT-5).
    fn end_window(&self, s: &mut State) {
        let me = s.combat.attacker;
        let alive = s.combat.attackers & self.active_units(s, me);
        // Decision T-COMBAT-10: the target must still be one the remaining attackers may attack
        // ([Covert] gained or lost in the window counts); [Hate] chose it and is not asked again.
        let target_ok = match s.combat.target {
            AttackTarget::Unit(d) => {
                self.active_units(s, me.other()) & bit(d) != 0 && {
                    let covert = self.icons(s, me.other(), d).has(Icons::COVERT);
                    Bits(alive).all(|a| self.icons(s, me, a).has(Icons::COVERT) == covert)
                }
            }
            // Decision T-COMBAT-12: the player stays a legal target only while no remaining
            // attacker could attack an opposing UNIT ([Covert] gained or lost in the window).
            AttackTarget::Player => {
                alive == 0 || {
                    let m = self.marks_of(s, [s.p[0].field, s.p[1].field]);
                    self.group_targets(&m, me, alive).1
                }
            }
            AttackTarget::None => true,
        };
        s.combat.attackers = alive;
        if alive == 0 || !target_ok {
            // T-COMBAT-5: back to step I; non-stunned attacking UNITs are readied.
            let p = s.pl_mut(me);
            for a in Bits(alive) {
                p.clear(a, flag::ACTIONED);
            }
            s.combat.attackers = 0;
            s.combat.target = AttackTarget::None;
            s.step = Step::Propose;
            s.actor = me;
            return;
        }
        if matches!(s.combat.target, AttackTarget::Unit(_)) && alive.count_ones() >= 2 {
            s.step = Step::FightBack;
            s.actor = me.other();
        } else {
            s.combat.fight_back = alive.trailing_zeros() as u8;
            self.resolve_combat(s);
        }
    }

    /// T-ICON-MA: +1/+1 per combating opposing UNIT without [Martial Arts].
    fn martial_arts_bonus(v: &FieldView, q: Seat, i: u8, opponents: u64, opp: Seat) -> i16 {
        if !v.icons(q, i).has(Icons::MARTIAL_ARTS) {
            return 0;
        }
        Bits(opponents)
            .filter(|&o| !v.icons(opp, o).has(Icons::MARTIAL_ARTS))
            .count() as i16
    }

    /// What a combat between `me`'s `attackers` and `opp`'s UNIT `d` would do now, the
    /// defender fighting back `fb` (T-COMBAT-3, T-SCLM-1, T-ICON-MA); `sclm` when it was declared as
    /// a SCLM attack. Used by resolution and by agents that look ahead.
    /// `v` is a view of the state that covers the attackers and `d` ([`Self::field_view`]).
    pub fn clash(
        &self,
        v: &FieldView,
        me: Seat,
        attackers: u64,
        d: u8,
        fb: u8,
        sclm: bool,
    ) -> Clash {
        let opp = me.other();
        let dmask = bit(d);
        let mut str_total = 0i16;
        for a in Bits(attackers) {
            str_total += v.stats(me, a).0 + Self::martial_arts_bonus(v, me, a, dmask, opp);
        }
        let d_bonus = Self::martial_arts_bonus(v, opp, d, attackers, me);
        let (dstr, ddef) = v.stats(opp, d);
        let (dstr, ddef) = (dstr + d_bonus, ddef + d_bonus);
        let fb_def = v.stats(me, fb).1 + Self::martial_arts_bonus(v, me, fb, dmask, opp);
        // Overkill: not a SCLM attack (even one reduced to a single UNIT, T-COMBAT-8), no
        // support, STR > DEF (T-COMBAT-3, T-SCLM-1, T-SCLM-3).
        let overkill = if !sclm && v.marks.supported[opp.index()] & dmask == 0 && str_total > ddef {
            str_total - ddef
        } else {
            0
        };
        Clash {
            str_total,
            stuns_defender: str_total >= ddef,
            stuns_attacker: dstr >= fb_def,
            overkill,
        }
    }

    /// T-COMBAT-3: combat resolution.
    fn resolve_combat(&self, s: &mut State) {
        let me = s.combat.attacker;
        let opp = me.other();
        let attackers = s.combat.attackers;
        match s.combat.target {
            AttackTarget::Unit(d) => {
                let fb = s.combat.fight_back;
                let mut cards = [0; 2];
                cards[me.index()] = attackers;
                cards[opp.index()] = bit(d);
                let v = self.view_of(s, cards);
                let c = self.clash(&v, me, attackers, d, fb, s.combat.sclm);
                let (stun_d, stun_fb) = (c.stuns_defender, c.stuns_attacker);
                // Both stuns happen together (T-COMBAT-3), each with its stun damage.
                if stun_d {
                    self.stun(s, opp, d);
                }
                if stun_fb {
                    self.stun(s, me, fb);
                }
                s.pl_mut(opp).bond -= c.overkill;
                if stun_d {
                    for a in Bits(attackers) {
                        if !s.pl(me).has(a, flag::STUNNED) {
                            self.queue_trigger(s, me, a, Trigger::Stuns);
                        }
                    }
                }
                if stun_fb && !s.pl(opp).has(d, flag::STUNNED) {
                    self.queue_trigger(s, opp, d, Trigger::Stuns);
                }
            }
            AttackTarget::Player => {
                // Overkill on the player: bond loss equal to the attacking STR (group total).
                let mut str_sum = 0i16;
                for a in Bits(attackers) {
                    str_sum += self.stats(s, me, a).0;
                }
                s.pl_mut(opp).bond -= str_sum.max(0);
            }
            AttackTarget::None => unreachable!(),
        }
        s.combat.attackers = 0;
        s.combat.target = AttackTarget::None;
        s.combat.passes = 0;
        s.step = Step::Propose;
        s.actor = opp;
    }

    fn start_cure(&self, s: &mut State) {
        // The combat phase ends: its EP is gone (T-RES-1).
        Self::end_phase_ep(s);
        s.step = Step::Cure;
        s.actor = s.initiative;
        s.combat = Combat::default();
        // T-CURE-1: the win check comes first.
        let b0 = s.p[0].bond;
        let b1 = s.p[1].bond;
        if b0 <= 0 || b1 <= 0 {
            let w = if b0 <= 0 && b1 > 0 {
                Seat::P2
            } else if b1 <= 0 && b0 > 0 {
                Seat::P1
            } else if b0 != b1 {
                if b0 > b1 {
                    Seat::P1
                } else {
                    Seat::P2
                }
            } else {
                s.initiative.other()
            };
            s.winner = Some(Outcome::Win(w));
        }
    }

    fn next_cure(&self, s: &mut State) {
        if s.actor == s.initiative {
            s.actor = s.initiative.other();
        } else {
            self.end_turn(s);
        }
    }

    /// T-CURE-2 (rest) and T-CURE-3: stunned UNITs to the trail, everything readied, end-of-turn
    /// effects end (decision T-CURE-4), initiative passes.
    fn end_turn(&self, s: &mut State) {
        for q in Seat::ALL {
            for i in Bits(s.pl(q).field) {
                if s.pl(q).has(i, flag::STUNNED) {
                    self.to_trail(s, q, i);
                }
            }
            let p = s.pl_mut(q);
            // Only field and homebase cards have flags (an invariant).
            p.clear_all(flag::ACTIONED | flag::SUPPORTED | flag::ATTACKED);
            for i in Bits(p.field | p.homebase) {
                p.str_mod[i as usize] = 0;
                p.def_mod[i as usize] = 0;
                p.icons_eot[i as usize] = Icons::NONE;
            }
            p.attribution_orgs = 0;
        }
        s.always_used = [0; 2];
        s.initiative = s.initiative.other();
        s.turn += 1;
        s.step = Step::Draw;
        s.actor = s.initiative;
    }

    // ----------------------------------------------------------------------------------------
    // Resolution
    // ----------------------------------------------------------------------------------------

    fn effect_at(&self, c: &Cursor) -> &Effect {
        &self.db.card(c.card).abilities[c.ability as usize].effects[c.effect as usize]
    }

    /// Runs everything that needs no decision, until a decision or the end of the game.
    pub fn settle(&self, s: &mut State) {
        loop {
            if s.winner.is_some() {
                s.step = Step::Over;
                s.pending = Pending::None;
                s.queue.clear();
                return;
            }
            if s.pending != Pending::None {
                return;
            }
            if !s.queue.is_empty() {
                self.resolve_front(s);
                continue;
            }
            match s.step {
                Step::Draw => {
                    // T-PREP-1: draw 2, on turn 1 too.
                    let me = s.actor;
                    self.draw(s, me);
                    self.draw(s, me);
                    s.step = Step::Homebase;
                }
                Step::Cure => {
                    let p = s.pl(s.actor);
                    if !Bits(p.field).any(|i| p.has(i, flag::STUNNED)) {
                        self.next_cure(s);
                    } else {
                        return;
                    }
                }
                Step::FightBack if s.combat.attackers.count_ones() == 1 => {
                    s.combat.fight_back = s.combat.attackers.trailing_zeros() as u8;
                    self.resolve_combat(s);
                }
                _ => return,
            }
        }
    }

    /// Resolves the front ability of the queue as far as it goes without a decision.
    fn resolve_front(&self, s: &mut State) {
        let c = s.queue[0];
        let n = self.db.card(c.card).abilities[c.ability as usize]
            .effects
            .len() as u8;
        if c.effect >= n {
            s.queue.remove(0);
            return;
        }
        let e = *self.effect_at(&c);
        let me = c.controller;
        match e {
            Effect::Draw(k) => {
                for _ in 0..k {
                    self.draw(s, me);
                }
            }
            Effect::Plan(k) => {
                let p = s.pl_mut(me);
                let k = k.min(p.deck_len);
                if k > 0 {
                    // T-TERM-PLAN: the owner looks at the top k cards.
                    let top = p.deck_len as usize;
                    for &i in &p.deck[top - k as usize..top] {
                        p.known[me.index()] |= bit(i);
                    }
                    s.queue[0].effect += 1;
                    s.pending = Pending::Plan { left: k, fixed: 0 };
                    return;
                }
            }
            Effect::Rebuild => {
                if s.pl(me).homebase != 0 {
                    s.queue[0].effect += 1;
                    s.pending = Pending::Rebuild;
                    // Rebuild is the controller's choice, made as `actor` would be: record the
                    // chooser through the queue front (see State::chooser).
                    return;
                }
            }
            Effect::HomebaseTop => {
                let p = s.pl_mut(me);
                if let Some(t) = p.pop_top() {
                    p.homebase |= bit(t);
                    p.reset_instance(t);
                    p.set(t, flag::ACTIONED);
                    p.known[me.index()] |= bit(t);
                }
            }
            Effect::Bond { side, delta } => {
                let q = if side == Side::Enemy { me.other() } else { me };
                Self::gain_bond(s, q, i16::from(delta));
            }
            _ => {
                let t = *e.target().expect("targeted effect");
                match t.mode {
                    TargetMode::This => {
                        if self.active_units(s, me) & bit(c.source) != 0
                            && self.ctype(s, me, c.source) == CardType::Unit
                        {
                            self.apply_to_unit(s, &e, me, c.source);
                        }
                    }
                    TargetMode::All => {
                        let m = self.effect_targets(s, me, &t, c.source);
                        for q in Seat::ALL {
                            for i in Bits(m[q.index()]) {
                                self.apply_to_unit(s, &e, q, i);
                            }
                        }
                    }
                    TargetMode::Choose => {
                        let m = self.effect_targets(s, me, &t, c.source);
                        let n = m[0].count_ones() + m[1].count_ones();
                        if n > 1 {
                            s.pending = Pending::Target;
                            return;
                        }
                        if n == 1 {
                            let q = if m[0] != 0 { Seat::P1 } else { Seat::P2 };
                            let i = m[q.index()].trailing_zeros() as u8;
                            self.apply_to_unit(s, &e, q, i);
                        }
                    }
                }
            }
        }
        s.queue[0].effect += 1;
    }

    fn apply_to_unit(&self, s: &mut State, e: &Effect, q: Seat, i: u8) {
        match *e {
            Effect::Stun(_) => self.stun(s, q, i),
            Effect::Ko(_) => self.to_trail(s, q, i),
            Effect::Ready(_) => s.pl_mut(q).clear(i, flag::ACTIONED),
            Effect::Action(_) => s.pl_mut(q).set(i, flag::ACTIONED),
            Effect::Support(_) => s.pl_mut(q).set(i, flag::SUPPORTED),
            Effect::Bounce(_) => {
                // Back to its owner's hand; the opponent saw it and keeps knowing it (T-INFO-3).
                let p = s.pl_mut(q);
                p.field &= !bit(i);
                p.hand |= bit(i);
                p.reset_instance(i);
                self.reveal(s, q, i);
                self.refresh_static(s, q, i);
            }
            Effect::Buff(_, ds, dd) => {
                let p = s.pl_mut(q);
                p.str_mod[i as usize] = p.str_mod[i as usize].saturating_add(ds);
                p.def_mod[i as usize] = p.def_mod[i as usize].saturating_add(dd);
            }
            Effect::Grant(_, icon) => {
                let p = s.pl_mut(q);
                p.icons_eot[i as usize] = p.icons_eot[i as usize].union(icon);
            }
            _ => unreachable!("not a UNIT effect"),
        }
    }
}

#[inline]
fn side_matches(side: Side, controller: Seat, q: Seat) -> bool {
    match side {
        Side::Own => q == controller,
        Side::Enemy => q != controller,
        Side::Any => true,
    }
}

#[inline]
fn ready_ok(f: &Filter, actioned: bool) -> bool {
    match f.ready {
        Some(ready) => ready != actioned,
        None => true,
    }
}

#[inline]
fn bounds_ok(f: &Filter, cost: u8, st: i8, df: i8) -> bool {
    f.cost_min.is_none_or(|m| cost >= m)
        && f.cost_max.is_none_or(|m| cost <= m)
        && f.str_min.is_none_or(|m| st >= m)
        && f.str_max.is_none_or(|m| st <= m)
        && f.def_min.is_none_or(|m| df >= m)
        && f.def_max.is_none_or(|m| df <= m)
}

/// Whether instance `i` is the first (lowest) of its card in `zone`: actions name cards by id, so
/// only the first copy adds them.
#[inline]
fn first_of_card(p: &super::state::PlayerState, zone: u64, i: u8) -> bool {
    let id = p.card[i as usize];
    !Bits(zone & (bit(i) - 1)).any(|j| p.card[j as usize] == id)
}

#[inline]
fn push_unique(out: &mut ActionList<Action>, a: Action) {
    if !out.contains(&a) {
        out.push(a);
    }
}
