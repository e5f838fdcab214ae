//! Paying a cost: which ready cards with Flame are exhausted is the payer's choice (F-COST-1,
//! decision F-COST-3), offered only where it can change the position.
//!
//! A payment is [`Action::Pay`]`(m)`: bit `j` of `m` is the `j`-th ready card with Flame of the
//! payer, by instance (there are at most 8: the Flame limit, F-COST-2, holds at every decision).
//! Cards that are *interchangeable* — swapping them is a symmetry of the position — are one
//! class, and a payment takes the lowest members of each class it uses, so payments that differ
//! only by which of two identical Flame cards is exhausted are one action.

use super::*;

/// Most ready cards with Flame a payment chooses among (F-COST-2's limit).
pub const MAX_PAYERS: u32 = 8;

impl FireForceGame {
    /// F-COST-1: `q`'s ready cards with Flame: Flame cards (given or not, F-COST-5), cards put as
    /// Flame cards, Units with Flame.
    #[inline]
    pub fn ready_payers(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        (p.flame_cards() | self.flame_units(s, q)) & !p.exhausted
    }

    /// `q`'s instances that something names by instance (a battle, an ability being resolved
    /// or waiting, a lasting power change, a pending end-of-turn or When Removed ability): each
    /// is in a class of its own. Inlined: with no frame and no lasting change (a payment in the
    /// main phase) it is a few loads.
    #[inline(always)]
    fn named_by_instance(s: &State, q: Seat) -> u64 {
        let b = &s.battle;
        let m = s.removed[q.index()]
            | if q == s.active {
                s.ends | inst_bit(b.attacker)
            } else {
                inst_bit(b.target) | inst_bit(b.hit)
            };
        if s.frames.is_empty()
            && s.later.is_empty()
            && s.replacing.is_empty()
            && s.lasting.is_empty()
        {
            m
        } else {
            m | Self::named_by_lists(s, q)
        }
    }

    /// [`Self::named_by_instance`]'s part from the frames and the lasting changes.
    #[inline(never)]
    fn named_by_lists(s: &State, q: Seat) -> u64 {
        let mut m = 0;
        // The same as [`inst_bit`] of a `that_code` (codes of the other seat give none).
        let code = |c: u8| match that_card(c) {
            Some((w, i)) if w == q => inst_bit(i),
            _ => 0,
        };
        let who = q.index() as u8;
        // The three lists of frames one by one (an array of the slices cost its construction).
        let mut scan = |list: &[Frame]| {
            for f in list {
                if f.who == who {
                    m |= inst_bit(f.src);
                }
                m |= code(f.that);
            }
        };
        scan(s.frames.as_slice());
        scan(s.later.as_slice());
        scan(s.replacing.as_slice());
        for l in s.lasting.iter() {
            m |= code(l.unit);
        }
        m
    }

    /// Whether exhausting `q`'s ready card with Flame `i` or `j` gives the same position up to
    /// swapping the two: the same card, the same flags, the same power changes, nothing given to
    /// either Unit, the same bearer for Flame cards, and neither named by instance (`named`).
    ///
    /// The derived masks (`flamey`, `statics`, `acting`, `guards`) follow from the card, both
    /// players know every card on the Scene (F-INFO), and the Units' flags are never set on Flame
    /// cards (the invariants): so they are not compared.
    fn alike(s: &State, q: Seat, named: u64, i: u8, j: u8) -> bool {
        let p = s.pl(q);
        p.card[i as usize] == p.card[j as usize] && Self::alike_card(s, q, named, i, j)
    }

    /// [`Self::alike`] of two instances of the same card.
    #[inline(always)]
    fn alike_card(s: &State, q: Seat, named: u64, i: u8, j: u8) -> bool {
        let p = s.pl(q);
        if named & (1 << i | 1 << j) != 0 {
            return false;
        }
        let (fi, fj) = (i as usize >= FLAME_BASE, j as usize >= FLAME_BASE);
        if fi || fj {
            return fi
                && fj
                && p.given_to[i as usize - FLAME_BASE] == p.given_to[j as usize - FLAME_BASE];
        }
        let flags = [
            p.fresh,
            p.once,
            p.blocker[0],
            p.blocker[1],
            p.stilled.get(),
            p.as_flame,
        ];
        let (a, b) = (i as usize, j as usize);
        flags.iter().fold(0, |d, &m| d | ((m >> i) ^ (m >> j))) & 1 == 0
            && p.power_turn[a] == p.power_turn[b]
            && p.power_battle[a] == p.power_battle[b]
            && !p.is_given(i)
            && !p.is_given(j)
    }

    /// Whether `q`'s ready cards with Flame `i` and `j` are interchangeable (decision F-COST-3).
    pub fn interchangeable(&self, s: &State, q: Seat, i: u8, j: u8) -> bool {
        Self::alike(s, q, Self::named_by_instance(s, q), i, j)
    }

    /// The payers of `q` (`payers`, a mask over instances) as a list by instance, and its
    /// classes of interchangeable cards: masks over the list's positions, in order of their
    /// first member.
    fn payer_classes(&self, s: &State, q: Seat, payers: u64) -> Classes {
        // Eight bytes at once (SWAR): `ONES` repeats a byte, `LOW` is each byte's low 7 bits.
        const ONES: u64 = 0x0101_0101_0101_0101;
        const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let p = s.pl(q);
        // What names cards by instance is looked at only once two payers are the same card.
        let mut named = None;
        let mut inst = [NONE; 8];
        let mut class = [0u8; 8];
        // Each class's first member's instance; its card in byte `x` of `cards`, and 0x80 in
        // byte `x` of `open` for each class `x` made so far.
        let mut first = [0u8; 8];
        let (mut cards, mut open) = (0u64, 0u64);
        let (mut k, mut n) = (0usize, 0usize);
        let mut rest = payers;
        while rest != 0 && k < MAX_PAYERS as usize {
            let i = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let id = p.card[usize::from(i)];
            inst[k] = i;
            // The classes of the same card: the zero bytes of `v`, as 0x80 each (exact: no
            // carry crosses a byte).
            let v = cards ^ u64::from(id).wrapping_mul(ONES);
            let mut same = !(((v & LOW) + LOW) | v | LOW) & open;
            loop {
                if same == 0 {
                    // A class of its own.
                    class[n] = 1 << k;
                    first[n] = i;
                    cards |= u64::from(id) << (8 * n);
                    open |= 0x80 << (8 * n);
                    n += 1;
                    break;
                }
                let x = same.trailing_zeros() as usize / 8;
                let named = *named.get_or_insert_with(|| Self::named_by_instance(s, q));
                if Self::alike_card(s, q, named, first[x], i) {
                    class[x] |= 1 << k;
                    break;
                }
                same &= same - 1;
            }
            k += 1;
        }
        Classes { inst, class, k, n }
    }

    /// [`Self::payer_classes`] as first written, the reference the invariants and the tests
    /// compare it with: each payer compared with each class's first member (`alike`).
    fn payer_classes_by_walk(&self, s: &State, q: Seat, payers: u64) -> Classes {
        let p = s.pl(q);
        let mut named = None;
        let mut c = Classes {
            inst: [NONE; 8],
            class: [0; 8],
            k: 0,
            n: 0,
        };
        let mut first = [0u8; 8];
        let mut card = [0u8; 8];
        for i in Bits(payers).take(MAX_PAYERS as usize) {
            let k = c.k;
            let id = p.card[i as usize];
            c.inst[k] = i;
            let mut found = None;
            for x in 0..c.n {
                if card[x] == id {
                    let named = *named.get_or_insert_with(|| Self::named_by_instance(s, q));
                    if Self::alike(s, q, named, first[x], i) {
                        found = Some(x);
                        break;
                    }
                }
            }
            match found {
                Some(x) => c.class[x] |= 1 << k,
                None => {
                    c.class[c.n] = 1 << k;
                    first[c.n] = i;
                    card[c.n] = id;
                    c.n += 1;
                }
            }
            c.k += 1;
        }
        c
    }

    /// F-COST-1, decision F-COST-3: `me` pays `n` for action `a`. When the payment can change
    /// the position (fewer than all its ready cards with Flame pay, and they are not all
    /// interchangeable), the choice is left to `me` ([`Pick::Pay`]) and false is returned;
    /// otherwise the cost is paid now.
    pub(super) fn pay_or_ask(&self, s: &mut State, me: Seat, n: u8, a: Action) -> bool {
        if n == 0 {
            return true;
        }
        let payers = self.ready_payers(s, me);
        let k = payers.count_ones();
        debug_assert!(k >= u32::from(n), "legal offers what can be paid");
        debug_assert!(k <= MAX_PAYERS, "F-COST-2 holds at a decision");
        if k > u32::from(n) && k <= MAX_PAYERS {
            let c = self.payer_classes(s, me, payers);
            if c.n > 1 {
                // The classes are kept with the pick: nothing changes them until it is answered.
                s.pick = Pick::Pay {
                    n,
                    then: a,
                    classes: c.class,
                };
                s.chooser = me;
                return false;
            }
        }
        // No choice: all of them, or the lowest `n` of one class.
        let m = Bits(payers).take(n as usize).fold(0u64, |m, i| m | 1 << i);
        s.pl_mut(me).exhausted |= m;
        true
    }

    /// `q`'s ready cards with Flame's classes now, as [`Pick::Pay`] keeps them (for the
    /// invariants: a pending payment's classes are still the position's), by the reference walk
    /// ([`Self::payer_classes_by_walk`]), so the invariants check the engine's classes too.
    pub fn pay_classes(&self, s: &State, q: Seat) -> [u8; 8] {
        self.payer_classes_by_walk(s, q, self.ready_payers(s, q))
            .class
    }

    /// The answers of a [`Pick::Pay`] of `n` among `classes`: every canonical payment. A pick
    /// holds at least two classes (`pay_or_ask` asks only then; the invariants check it).
    pub(super) fn payments(n: u8, classes: &[u8; 8], out: &mut ActionList<Action>) {
        each_payment(n, classes, &mut |m| out.push(Action::Pay(m)));
    }

    /// The instances a payment `m` of `q` exhausts: bit `j` of `m` is the `j`-th ready card
    /// with Flame by instance. A payment is asked only among at most `MAX_PAYERS` of them
    /// (F-COST-2); past eight, bits of `m` do not reach the later payers.
    pub fn payment_cards(&self, s: &State, q: Seat, m: u8) -> u64 {
        // The payers lowest first, as far as `m`'s highest bit.
        let (mut payers, mut m, mut cards) = (self.ready_payers(s, q), m, 0u64);
        while m != 0 {
            let low = payers & payers.wrapping_neg();
            cards |= low & 0u64.wrapping_sub(u64::from(m & 1));
            payers ^= low;
            m >>= 1;
        }
        cards
    }

    /// The canonical payment equal to paying with `q`'s instances `cards` (ready cards with
    /// Flame): each chosen card replaced by the lowest free member of its class. `None` when a
    /// card is not a ready card with Flame.
    pub fn payment_of(&self, s: &State, q: Seat, cards: u64) -> Option<u8> {
        let payers = self.ready_payers(s, q);
        if cards & !payers != 0 {
            return None;
        }
        let c = self.payer_classes(s, q, payers);
        let mut m = 0u8;
        for j in (0..c.k).filter(|&j| cards & 1 << c.inst[j] != 0) {
            // The lowest member of `j`'s class not yet taken.
            let class = c.class[..c.n]
                .iter()
                .find(|&&x| x & 1 << j != 0)
                .copied()
                .unwrap_or(0);
            let free = class & !m;
            m |= free & free.wrapping_neg();
        }
        Some(m)
    }

    /// Answers a [`Pick::Pay`]: exhausts the payment and goes on with the action paid for.
    pub(super) fn paid_with(&self, s: &mut State, me: Seat, m: u8) {
        let Pick::Pay { then, .. } = s.pick else {
            unreachable!("a payment answers a payment pick")
        };
        s.pick = Pick::None;
        let cards = self.payment_cards(s, me, m);
        s.pl_mut(me).exhausted |= cards;
        let i = match then {
            Action::Dispatch(id) | Action::Play(id) | Action::React(id) => {
                self.hand_instance(s, me, id)
            }
            Action::Activate(u, _) => u,
            _ => unreachable!("only a cost is paid for"),
        };
        self.go_on(s, me, then, i);
    }
}

/// An instance as a bit ([`NONE`] gives none).
#[inline(always)]
fn inst_bit(i: u8) -> u64 {
    if i < 64 {
        1 << i
    } else {
        0
    }
}

/// The ready cards with Flame of a payer, by instance, and their classes of interchangeable cards
/// (decision F-COST-3).
struct Classes {
    /// The `k` payers' instances.
    inst: [u8; 8],
    /// `n` classes, each a mask over positions in `inst`.
    class: [u8; 8],
    k: usize,
    n: usize,
}

/// Every canonical payment of `n` among `classes` (as [`Pick::Pay`] keeps them), in
/// [`canonical_payments`]'s order. Where each class is a run of consecutive payers (the classes
/// then split the payers `0..k` in order), the payments are copied from [`RUNS`], keyed by where
/// the runs end; otherwise [`canonical_payments`] lists them.
#[inline(always)]
fn each_payment(n: u8, classes: &[u8; 8], out: &mut impl FnMut(u8)) {
    // Bit `e + 1` of `ends` for each class whose highest member is `e`; `runs` while every
    // class is a run (`c + lowest` then clears all of `c`).
    let (mut ends, mut runs, mut r) = (0u16, true, 0usize);
    for &c in classes {
        if c == 0 {
            break;
        }
        let c = u16::from(c);
        let up = c + (c & c.wrapping_neg());
        runs &= up & c == 0;
        ends |= up;
        r += 1;
    }
    if runs && n <= 8 {
        let key = usize::from(ends >> 1);
        let at = RUNS.start[key][usize::from(n)] as usize;
        let len = usize::from(RUNS.len[key][usize::from(n)]);
        for &m in &RUNS.pays[at..at + len] {
            out(m);
        }
    } else {
        canonical_payments(classes, r, n, out);
    }
}

/// How many payments [`RUNS`] holds: for every key and `n`.
const RUN_PAYMENTS: usize = {
    let (mut start, mut len) = ([[0; 9]; 256], [[0; 9]; 256]);
    run_payments(&mut start, &mut len, &mut [], false)
};

/// The canonical payments of every partition of up to 8 payers into runs of consecutive payers
/// (255 of them, keyed by the set of the runs' last members: bit `e` of the key where a run
/// ends at `e`), for every `n` up to 8, in [`canonical_payments`]'s order; built by the
/// compiler.
struct RunTable {
    /// Where the payments of key and `n` start in `pays`.
    start: [[u32; 9]; 256],
    /// How many there are.
    len: [[u8; 9]; 256],
    pays: [u8; RUN_PAYMENTS],
}

#[allow(long_running_const_eval)]
static RUNS: RunTable = {
    let mut t = RunTable {
        start: [[0; 9]; 256],
        len: [[0; 9]; 256],
        pays: [0; RUN_PAYMENTS],
    };
    run_payments(&mut t.start, &mut t.len, &mut t.pays, true);
    t
};

/// Lists the payments of every key and `n` into [`RunTable`]'s arrays (where `write`) by
/// [`list_payments`], and counts them.
const fn run_payments(
    start: &mut [[u32; 9]; 256],
    len: &mut [[u8; 9]; 256],
    pays: &mut [u8],
    write: bool,
) -> usize {
    let mut total = 0usize;
    let mut key = 1usize;
    while key < 256 {
        // The runs: each ends at a set bit of the key.
        let mut classes = [0u8; 8];
        let (mut r, mut from, mut e) = (0usize, 0u32, 0u32);
        while e < 8 {
            if key & 1 << e != 0 {
                classes[r] = (((1u32 << (e + 1)) - 1) & !((1u32 << from) - 1)) as u8;
                r += 1;
                from = e + 1;
            }
            e += 1;
        }
        let mut n = 0u8;
        while n <= 8 {
            start[key][n as usize] = total as u32;
            let first = total;
            total += list_payments(&classes, r, n, pays, total, write);
            len[key][n as usize] = (total - first) as u8;
            n += 1;
        }
        key += 1;
    }
    total
}

/// Lists into `pays` from `at` (where `write`; else only counts) the canonical payments of `n`
/// cards given the classes of interchangeable payers (masks over positions; the first `r` of
/// `classes`, at least one), in the order the agents index (`canonical_payments`), and returns how many: an
/// odometer over how many each class but the last pays (the first class its fastest digit, each
/// from 0), the last class paying the rest, its lowest members, where it can. A `const fn`: the
/// compiler fills [`RUNS`] with it, and [`canonical_payments`] calls it for three classes or more.
const fn list_payments(
    classes: &[u8; 8],
    r: usize,
    n: u8,
    pays: &mut [u8],
    at: usize,
    write: bool,
) -> usize {
    let last = classes[r - 1];
    let size = last.count_ones() as u8;
    let mut total = at;
    // `x[c]`: how many class `c` pays; `left[c]`: its members not yet taken; `acc`: the
    // members taken.
    let mut x = [0u8; 8];
    let mut left = *classes;
    let (mut acc, mut sum) = (0u8, 0u8);
    loop {
        if n - sum <= size {
            let mut m = acc;
            let mut l = last;
            let mut j = 0;
            while j < n - sum {
                m |= l & l.wrapping_neg();
                l &= l - 1;
                j += 1;
            }
            if write {
                pays[total] = m;
            }
            total += 1;
        }
        let mut c = 0;
        loop {
            if c == r - 1 {
                return total - at;
            }
            if left[c] != 0 && sum < n {
                let low = left[c] & left[c].wrapping_neg();
                left[c] &= !low;
                acc |= low;
                x[c] += 1;
                sum += 1;
                break;
            }
            sum -= x[c];
            x[c] = 0;
            acc &= !classes[c];
            left[c] = classes[c];
            c += 1;
        }
    }
}

/// The canonical payments of `n` cards given the classes of interchangeable payers (masks over
/// positions; the first `r` of `classes`, at least one): each a choice of how many cards of
/// each class pay, taking the lowest members, in [`list_payments`]' order. Two classes take a
/// loop of their own (the common case off [`RUNS`]); the others are listed by [`list_payments`].
fn canonical_payments(classes: &[u8; 8], r: usize, n: u8, out: &mut impl FnMut(u8)) {
    debug_assert!((1..=8).contains(&r));
    if r == 2 {
        // `low[j]`: the lowest `j` members of the last class, for `j` up to its size.
        let mut low = [0u8; 9];
        let mut size = 0u8;
        let mut l = classes[1];
        while l != 0 {
            low[usize::from(size) + 1] = low[usize::from(size)] | (l & l.wrapping_neg());
            l &= l - 1;
            size += 1;
        }
        // Two classes: the first pays `x`, from what the last cannot pay up to all it can.
        let mut left = classes[0];
        let mut taken = 0u8;
        let mut x = n.saturating_sub(size);
        if u32::from(x) > left.count_ones() {
            return;
        }
        for _ in 0..x {
            taken |= left & left.wrapping_neg();
            left &= left - 1;
        }
        loop {
            out(taken | low[usize::from(n - x)]);
            if x == n || left == 0 {
                return;
            }
            taken |= left & left.wrapping_neg();
            left &= left - 1;
            x += 1;
        }
    }
    // One class, or three or more: the shared odometer (at most one payment a subset of the 8
    // payers).
    let mut pays = [0u8; 256];
    let count = list_payments(classes, r, n, &mut pays, 0, true);
    for &m in &pays[..count] {
        out(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use crate::core::testing::walk_random_games;

    /// [`canonical_payments`] as first written (the last class's members taken one by one), the
    /// reference of the order: agents pick by index, so the order is part of the games.
    fn canonical_payments_by_odometer(classes: &[u8], n: u8, out: &mut impl FnMut(u8)) {
        let Some((&last, rest)) = classes.split_last() else {
            if n == 0 {
                out(0);
            }
            return;
        };
        let r = rest.len();
        let mut x = [0u8; 8];
        let mut left = [0u8; 8];
        left[..r].copy_from_slice(rest);
        let mut acc = 0u8;
        let mut sum = 0u8;
        let size = last.count_ones() as u8;
        loop {
            if n - sum <= size {
                let mut m = acc;
                let mut l = last;
                for _ in 0..n - sum {
                    m |= l & l.wrapping_neg();
                    l &= l - 1;
                }
                out(m);
            }
            let mut c = 0;
            loop {
                if c == r {
                    return;
                }
                if left[c] != 0 && sum < n {
                    let low = left[c] & left[c].wrapping_neg();
                    left[c] &= !low;
                    acc |= low;
                    x[c] += 1;
                    sum += 1;
                    break;
                }
                sum -= x[c];
                x[c] = 0;
                acc &= !rest[c];
                left[c] = rest[c];
                c += 1;
            }
        }
    }

    /// Decision F-COST-3: the payments offered, in their order, are the reference's for every
    /// partition of 1 to 8 payers into classes (in order of first member, as
    /// `payer_classes` makes them: 5,295 partitions) and every `n` up to one more than the payers.
    #[test]
    fn canonical_payments_equal_the_reference_for_every_partition_f_cost_3() {
        let mut partitions = 0;
        let mut payments = 0usize;
        // (Partition, n) pairs whose classes are all runs: the table's.
        let mut runs = 0usize;
        for k in 1..=8usize {
            // Restricted growth strings: label[j] <= 1 + the largest label before it.
            let mut label = [0usize; 8];
            loop {
                let mut classes = [0u8; 8];
                for (j, &l) in label[..k].iter().enumerate() {
                    classes[l] |= 1 << j;
                }
                let r = classes.iter().position(|&c| c == 0).unwrap_or(8);
                for n in 0..=k as u8 + 1 {
                    let (mut got, mut want) = (Vec::new(), Vec::new());
                    canonical_payments(&classes, r, n, &mut |m| got.push(m));
                    canonical_payments_by_odometer(&classes[..r], n, &mut |m| want.push(m));
                    assert_eq!(got, want, "classes {:?} n={n}", &classes[..r]);
                    // And as offered (from the table of runs where the classes are runs).
                    let mut offered = Vec::new();
                    each_payment(n, &classes, &mut |m| offered.push(m));
                    assert_eq!(offered, want, "offered: classes {:?} n={n}", &classes[..r]);
                    runs += usize::from(classes[..r].iter().all(|&c| {
                        let c = u16::from(c);
                        (c + (c & c.wrapping_neg())) & c == 0
                    }));
                    payments += got.len();
                }
                partitions += 1;
                // The next string, the last position first.
                let mut j = k - 1;
                loop {
                    let top = label[..j].iter().max().map_or(0, |&m| m + 1);
                    if j > 0 && label[j] < top {
                        label[j] += 1;
                        label[j + 1..k].iter_mut().for_each(|l| *l = 0);
                        break;
                    }
                    if j <= 1 {
                        j = usize::MAX;
                        break;
                    }
                    j -= 1;
                }
                if j == usize::MAX {
                    break;
                }
            }
        }
        // Bell numbers 1 + 2 + 5 + 15 + 52 + 203 + 877 + 4,140.
        assert_eq!(partitions, 5_295);
        assert!(payments > 100_000, "{payments}");
        // The 255 partitions into runs (of 1 to 8 payers), each for `n` in `0..=k + 1`.
        assert_eq!(runs, (1..=8).map(|k| (k + 2) << (k - 1)).sum::<usize>());
        // One payment per way of choosing how many of each run pay: the product of (size + 1)
        // over the runs, summed over the partitions into runs of 1 to 8 payers.
        assert_eq!(RUN_PAYMENTS, 2 + 7 + 24 + 82 + 280 + 956 + 3_264 + 11_144);
    }

    /// Decision F-COST-3: the engine's payer classes (bytes compared eight at once) are the
    /// reference walk's (each payer against each class's first member, `alike`) for both
    /// players at every position of random games of every pair of bundled decks, payers and
    /// positions included, and so are the cards of every payment mask (`payment_cards`); asks
    /// for positions where two payers are alike, where two payers of
    /// the same card are not (some of them because one is named by instance), and pending
    /// payments.
    #[test]
    fn payer_classes_equal_the_reference_walk_f_cost_3() {
        let db = crate::games::fireforce::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &crate::games::fireforce::TEST_DECKS,
        );
        let mut rng = rng_from_seed(33);
        let (mut positions, mut alike, mut split, mut named, mut picks) = (0, 0, 0, 0, 0);
        walk_random_games(
            &db,
            &decks,
            3u64,
            41,
            &mut rng,
            |g: &FireForceGame, s, _, _| {
                for q in Seat::ALL {
                    let payers = g.ready_payers(s, q);
                    let got = g.payer_classes(s, q, payers);
                    let want = g.payer_classes_by_walk(s, q, payers);
                    let at = format!("{q} at position {positions}");
                    assert_eq!(got.class, want.class, "{at}");
                    assert_eq!(got.inst, want.inst, "{at}");
                    assert_eq!((got.k, got.n), (want.k, want.n), "{at}");
                    // The cards of each payment: the `j`-th payer for each bit `j`
                    // (where a payment can be asked for: at most 8 payers).
                    let few = payers.count_ones() <= MAX_PAYERS;
                    for m in (0..=u8::MAX).filter(|_| few) {
                        let cards = Bits(payers)
                            .enumerate()
                            .filter(|&(j, _)| m & 1 << j != 0)
                            .fold(0u64, |acc, (_, i)| acc | 1 << i);
                        assert_eq!(g.payment_cards(s, q, m), cards, "{at} m={m}");
                    }
                    let c = &want.class[..want.n];
                    alike += usize::from(c.iter().any(|m| m.count_ones() > 1));
                    let p = s.pl(q);
                    let ids =
                        |m: u8| Bits(u64::from(m)).map(|j| p.card[want.inst[j as usize] as usize]);
                    let apart = (0..c.len())
                        .any(|x| (0..x).any(|y| ids(c[x]).any(|i| ids(c[y]).any(|j| i == j))));
                    split += usize::from(apart);
                    let nm = FireForceGame::named_by_instance(s, q);
                    named += usize::from(
                        apart && want.inst.iter().any(|&i| i != NONE && nm & 1 << i != 0),
                    );
                }
                picks += usize::from(matches!(s.pick, Pick::Pay { .. }));
                positions += 1;
            },
        );
        eprintln!(
            "payer_classes: {positions} positions, {alike} with alike payers, {split} split, \
             {named} named, {picks} payment picks"
        );
        assert!(
            positions > 10_000 && alike > 5_000 && split > 1_000 && named > 30 && picks > 500,
            "{positions} {alike} {split} {named} {picks}"
        );
    }

    /// The payments offered are one per multiset of classes: counted here by brute force over
    /// every subset (the multiset of class labels it takes), not by the enumeration.
    #[test]
    fn one_payment_per_multiset_of_classes_f_cost_3() {
        // Each payer's class label by position.
        for labels in [
            &[0u8, 0, 0, 1, 1, 2, 3, 4][..],
            &[0, 1, 0, 1, 0, 1, 2, 2],
            &[0, 1, 2, 3, 4, 5, 6, 7],
            &[0, 0, 0, 0, 0],
            &[3, 1, 3],
        ] {
            let k = labels.len();
            let mut classes: Vec<u8> = Vec::new();
            let mut order: Vec<u8> = Vec::new();
            for (j, &l) in labels.iter().enumerate() {
                match order.iter().position(|&o| o == l) {
                    Some(x) => classes[x] |= 1 << j,
                    None => {
                        order.push(l);
                        classes.push(1 << j);
                    }
                }
            }
            let multiset = |m: u16| {
                let mut v: Vec<u8> = (0..k)
                    .filter(|&j| m & 1 << j != 0)
                    .map(|j| labels[j])
                    .collect();
                v.sort_unstable();
                v
            };
            for n in 1..=k as u8 {
                let mut got = Vec::new();
                let mut array = [0u8; 8];
                array[..classes.len()].copy_from_slice(&classes);
                canonical_payments(&array, classes.len(), n, &mut |m| got.push(m));
                let mut want: Vec<Vec<u8>> = (0u16..1 << k)
                    .filter(|m| m.count_ones() == u32::from(n))
                    .map(multiset)
                    .collect();
                want.sort();
                want.dedup();
                let mut seen: Vec<Vec<u8>> = got
                    .iter()
                    .map(|&m| {
                        assert_eq!(m.count_ones(), u32::from(n), "{labels:?} n={n}");
                        multiset(u16::from(m))
                    })
                    .collect();
                seen.sort();
                // One payment per multiset, none twice.
                assert_eq!(got.len(), want.len(), "{labels:?} n={n}");
                assert_eq!(seen, want, "{labels:?} n={n}");
                // Each takes the lowest members of its classes.
                for &m in &got {
                    for &c in &classes {
                        let taken = m & c;
                        let low = (0..taken.count_ones()).fold((0u8, c), |(acc, rest), _| {
                            let b = rest & rest.wrapping_neg();
                            (acc | b, rest & !b)
                        });
                        assert_eq!(taken, low.0, "{labels:?} n={n} m={m:b}");
                    }
                }
            }
        }
        // By hand: classes a, b, c, d, e of sizes 3, 2, 1, 1, 1 and n = 3: aaa (1); aa and one
        // of b..e (4); a and two of bb, bc, bd, be, cd, ce, de (7); no a: bbc, bbd, bbe, bcd,
        // bce, bde, cde (7): 19 in all.
        let mut count = 0;
        canonical_payments(
            &[0b111, 0b11000, 1 << 5, 1 << 6, 1 << 7, 0, 0, 0],
            5,
            3,
            &mut |_| count += 1,
        );
        assert_eq!(count, 19);
    }
}
