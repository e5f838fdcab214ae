//! Plays forbidden by effects (`ban`, decision T-EFF-17): "your opponent can't play cards with
//! the same name as the chosen card until end of turn", "… can't play EVENTs or arts until the end
//! of this combat". A ban is made as its effect resolves and read by the legal actions; it ends
//! with the turn (T-CURE-3) or with the combat.

use super::super::action::Action;
use super::super::cards::{kind, CardType, Dur, Effect, Filter, Op};
use super::super::state::{Ban, Cursor, Lid, State};
use super::views::bounds_ok;
use super::TrailsGame;
use crate::core::{ActionList, Seat};

impl TrailsGame {
    /// Makes the ban of effect `e` of cursor `c`: for the side it names (relative to the
    /// controller), with `that` card's name when it asks for one. Nothing when `same_name` has no
    /// card ("if there is one"), when it lasts during a combat and no attack is going on, or when 2
    /// bans wait already.
    #[cold]
    #[inline(never)]
    pub(super) fn make_ban(&self, s: &mut State, c: &Cursor, e: &Effect) {
        let Effect::Ban { t, same_name, dur } = *e else {
            unreachable!("a ban effect")
        };
        // As a change "during this combat" (decision T-EFF-10), nothing outside an attack.
        if dur == Dur::Combat && !self.in_attack(s) {
            return;
        }
        let name = match (same_name, c.that.get()) {
            (false, _) => u8::MAX,
            (true, Some((q, i))) => s.pl(q).card[i as usize],
            (true, None) => return,
        };
        let me = c.controller();
        let who = match t.side {
            super::super::cards::Side::Own => me,
            _ => me.other(),
        };
        let ban = Ban {
            card: self.cursor_card(s, c),
            ability: c.ability,
            later: c.later,
            pc: c.pc,
            bits: who.index() as u8 | if dur == Dur::Combat { Ban::COMBAT } else { 0 },
            name,
        };
        if !s.bans.contains(&ban) && s.bans.len() < s.bans.capacity() {
            s.bans.push(ban);
        }
    }

    /// The `ban` effect a ban was made by.
    fn ban_effect(&self, b: &Ban) -> &Effect {
        let program = &self.card(b.card).abilities[b.ability as usize].program;
        let ops = match b.later {
            0 => &program.ops,
            k => &program.later[k as usize - 1].1,
        };
        match &ops[b.pc as usize] {
            Op::Do(e) => e,
            op => unreachable!("a ban points at its effect, found {op:?}"),
        }
    }

    /// Whether `me` may not play card `id` as `how` (a [`kind`]: UNIT or ITEM deployed, UNIT
    /// dispatched, EVENT, arts, BASE turned face up) because of a ban.
    fn banned(&self, s: &State, me: Seat, id: Lid, how: u8) -> bool {
        s.bans.iter().any(|b| {
            if b.seat() != me {
                return false;
            }
            let Effect::Ban { t, .. } = self.ban_effect(b) else {
                return false;
            };
            self.played_fits(id, how, &t.filter)
                && (b.name == u8::MAX || self.hot(b.name).name == self.hot(id).name)
        })
    }

    /// Whether card `id`, played as `how` (a [`kind`]), matches a filter on what is printed on
    /// it and on how it is played (a ban's description, a cost change's cards; no kinds: any).
    pub(super) fn played_fits(&self, id: Lid, how: u8, f: &Filter) -> bool {
        let c = self.hot(id);
        (f.kinds == 0 || f.kinds & how != 0)
            && (f.org == 0 || c.orgs & f.org != 0)
            && (f.icon == super::super::cards::Icons::NONE || c.icons.has(f.icon))
            && f.name_ok(c.name)
            && bounds_ok(f, c.cost, c.str, c.def)
    }

    /// Removes from `out` the plays a ban forbids (decision T-EFF-17).
    #[cold]
    #[inline(never)]
    pub(super) fn drop_banned(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        out.retain(|&a| {
            let (id, how) = match a {
                Action::Deploy(id) => (
                    id,
                    if self.hot(id).ctype == CardType::Unit {
                        kind::UNIT
                    } else {
                        kind::ITEM
                    },
                ),
                Action::Dispatch(id) => (id, kind::UNIT),
                Action::Event { card, .. } => (card, kind::EVENT),
                Action::Arts { card, .. } => (card, kind::ARTS),
                Action::Base(id) => (id, kind::BASE),
                _ => return true,
            };
            !self.banned(s, me, id, how)
        });
    }

    /// The bans that end with the combat end (decision T-EFF-17).
    #[cold]
    #[inline(never)]
    pub(super) fn end_combat_bans(s: &mut State) {
        s.bans.retain(|b| b.bits & Ban::COMBAT == 0);
    }
}
