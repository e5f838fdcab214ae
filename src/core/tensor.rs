//! Tensors for learning agents (`docs/observation.md`): a game's observation as a fixed-size
//! vector of `f32` in named slots, and its actions as stable ids.
//!
//! - [`ObsLayout`]: the slots of a game's observation vector for one card file — each a name, a
//!   length, bounds and a line of documentation. The vector is the slots one after another; the
//!   dict form (Python) is one array per slot. The length depends on the card file only (counts per
//!   card id), never on the state, so a learning library can fix its input size once.
//! - [`ObsOut`]: what a game's [`GameDef::observe`](super::GameDef::observe) writes into: the
//!   slots in the layout's order, each handed out zeroed. Writing is allocation-free.
//! - [`ActionKind`] and [`ActionCode`]: each legal action has a kind (pass, play a card, attack
//!   …) and an argument below the kind's range (an instance, a card id, a slot); the action's
//!   stable id is the kind's offset in the [`ActionSpace`] plus the argument. The same id means
//!   the same action in every position where it is legal, so a policy's output `k` keeps its
//!   meaning; the `card` and `target` features let a policy generalise across cards.
//!
//! Everything here speaks of one seat's view: [`GameDef::observe`](super::GameDef::observe) must
//! write only what that seat may see (the no-peek test redeals what it cannot see and compares
//! the vectors byte for byte).

use std::ops::Range;

/// One named slot of an observation vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// A short name (`hand`, `life`, `opp_field_power`): the key of the dict form.
    pub name: &'static str,
    /// How many values.
    pub len: usize,
    /// The least value any entry takes.
    pub low: f32,
    /// The greatest value any entry takes.
    pub high: f32,
    /// What the entries are, for `docs/observation.md`.
    pub doc: String,
    /// Where the slot starts in the vector.
    pub offset: usize,
}

impl Slot {
    /// The slot's range in the vector.
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + self.len
    }
}

/// The slots of a game's observation vector, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObsLayout {
    slots: Vec<Slot>,
    len: usize,
}

impl ObsLayout {
    /// An empty layout.
    pub fn new() -> ObsLayout {
        ObsLayout::default()
    }

    /// Adds a slot of `len` values in `low..=high` after the others. Panics on a name already
    /// used (a game's layout is written once, by hand).
    pub fn slot(
        &mut self,
        name: &'static str,
        len: usize,
        low: f32,
        high: f32,
        doc: impl Into<String>,
    ) -> &mut ObsLayout {
        assert!(
            self.slots.iter().all(|s| s.name != name),
            "observation slot {name} declared twice"
        );
        assert!(low <= high, "observation slot {name}: low > high");
        self.slots.push(Slot {
            name,
            len,
            low,
            high,
            doc: doc.into(),
            offset: self.len,
        });
        self.len += len;
        self
    }

    /// The vector's length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the layout has no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slots, in order.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The slot called `name`.
    pub fn get(&self, name: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.name == name)
    }

    /// The least value of every entry, in vector order.
    pub fn lows(&self) -> Vec<f32> {
        self.slots
            .iter()
            .flat_map(|s| std::iter::repeat_n(s.low, s.len))
            .collect()
    }

    /// The greatest value of every entry, in vector order.
    pub fn highs(&self) -> Vec<f32> {
        self.slots
            .iter()
            .flat_map(|s| std::iter::repeat_n(s.high, s.len))
            .collect()
    }

    /// The first entry outside its slot's bounds (or not finite), as `(slot, index in slot,
    /// value)`.
    pub fn out_of_bounds<'a>(&'a self, v: &[f32]) -> Option<(&'a str, usize, f32)> {
        for s in &self.slots {
            for (i, &x) in v[s.range()].iter().enumerate() {
                if !(x >= s.low && x <= s.high) {
                    return Some((s.name, i, x));
                }
            }
        }
        None
    }
}

/// The observation vector a game writes, slot by slot in its layout's order.
pub struct ObsOut<'a> {
    layout: &'a ObsLayout,
    out: &'a mut [f32],
    next: usize,
    /// Whether each slot's name is checked against the layout's (the conformance tests).
    checked: bool,
}

impl<'a> ObsOut<'a> {
    /// Writes into `out`, which must be exactly the layout's length (zeroed here).
    pub fn new(layout: &'a ObsLayout, out: &'a mut [f32]) -> ObsOut<'a> {
        assert_eq!(
            out.len(),
            layout.len(),
            "observation buffer of the wrong length"
        );
        out.fill(0.0);
        ObsOut {
            layout,
            out,
            next: 0,
            checked: false,
        }
    }

    /// As [`ObsOut::new`], and each slot's name is checked against the layout's: a game that
    /// writes its slots out of order panics (the conformance tests use it; the environments skip
    /// the string comparisons).
    pub fn checked(layout: &'a ObsLayout, out: &'a mut [f32]) -> ObsOut<'a> {
        ObsOut {
            checked: true,
            ..ObsOut::new(layout, out)
        }
    }

    /// The next slot, which must be called `name`, zeroed. Panics past the layout's last slot,
    /// and, when [`ObsOut::checked`], on a slot written out of the layout's order.
    #[inline]
    pub fn slot(&mut self, name: &str) -> &mut [f32] {
        let Some(s) = self.layout.slots.get(self.next) else {
            past_the_layout(name)
        };
        if self.checked {
            assert_eq!(s.name, name, "observation slots written out of order");
        }
        self.next += 1;
        let (at, len) = (s.offset, s.len);
        &mut self.out[at..at + len]
    }

    /// The next `N` slots, which must be called `names`, at once (a game that fills several
    /// slots from one walk).
    #[inline]
    pub fn slots<const N: usize>(&mut self, names: [&str; N]) -> [&mut [f32]; N] {
        let first = self.next;
        let Some(last) = self.layout.slots.get(first + N - 1) else {
            past_the_layout(names[N - 1])
        };
        if self.checked {
            for (k, name) in names.iter().enumerate() {
                let s = &self.layout.slots[first + k];
                assert_eq!(s.name, *name, "observation slots written out of order");
            }
        }
        self.next += N;
        let at = self.layout.slots[first].offset;
        let mut rest = &mut self.out[at..last.offset + last.len];
        std::array::from_fn(|k| {
            let len = self.layout.slots[first + k].len;
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            head
        })
    }

    /// Counts card ids into the next slot, `name` (one entry per card id): one for each id of
    /// `ids`, once per copy.
    #[inline(always)]
    pub fn count(&mut self, name: &str, ids: impl IntoIterator<Item = usize>) {
        let v = self.slot(name);
        for id in ids {
            v[id] += 1.0;
        }
    }

    /// Writes `f` of the two things `both` (mine, then the opponent's) into the next slot,
    /// `name`, of length 2.
    #[inline(always)]
    pub fn pair<T>(&mut self, name: &str, both: [T; 2], f: impl Fn(T) -> f32) {
        let v = self.slot(name);
        let [a, b] = both;
        v[0] = f(a);
        v[1] = f(b);
    }

    /// Writes one value into the next slot, `name`, of length 1.
    #[inline]
    pub fn scalar(&mut self, name: &str, v: f32) {
        self.slot(name)[0] = v;
    }

    /// Whether every slot was written.
    pub fn done(&self) -> bool {
        self.next == self.layout.slots.len()
    }
}

#[cold]
#[inline(never)]
fn past_the_layout(name: &str) -> ! {
    panic!("observation slot {name} is not in the layout")
}

/// One kind of action, with the range of its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionKind {
    /// A short name (`pass`, `deploy`, `attack`).
    pub name: &'static str,
    /// How many arguments: an action of this kind has an argument in `0..args`.
    pub args: u32,
    /// What the argument is, for `docs/observation.md`.
    pub doc: &'static str,
}

/// What one legal action is, as a learning agent sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionCode {
    /// The index of its kind in the game's [`ActionKind`] list.
    pub kind: u16,
    /// Its argument, below the kind's `args`.
    pub arg: u32,
    /// The card id it involves (plays, puts, chooses), if any.
    pub card: Option<u32>,
    /// The slot or instance it targets or acts with, if any, numbered as the observation's zones
    /// are.
    pub target: Option<u32>,
}

/// The stable ids of a game's actions: each kind a block of `args` ids, in kind order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    kinds: Vec<ActionKind>,
    offsets: Vec<u32>,
    n: u32,
}

impl ActionSpace {
    /// The space of `kinds`.
    pub fn new(kinds: Vec<ActionKind>) -> ActionSpace {
        let mut offsets = Vec::with_capacity(kinds.len());
        let mut n = 0u32;
        for k in &kinds {
            offsets.push(n);
            n = n.checked_add(k.args).expect("action space over 2^32 ids");
        }
        ActionSpace { kinds, offsets, n }
    }

    /// The number of ids.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// Whether there are no ids.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The kinds, in order.
    pub fn kinds(&self) -> &[ActionKind] {
        &self.kinds
    }

    /// The stable id of an action, or `None` when its kind or argument is out of range (a bug in
    /// the game's [`GameDef::action_code`](super::GameDef::action_code)).
    pub fn id(&self, c: ActionCode) -> Option<u32> {
        let k = self.kinds.get(c.kind as usize)?;
        (c.arg < k.args).then(|| self.offsets[c.kind as usize] + c.arg)
    }

    /// The kind and argument of a stable id.
    pub fn decode(&self, id: u32) -> Option<(u16, u32)> {
        if id >= self.n {
            return None;
        }
        let k = self.offsets.partition_point(|&o| o <= id) - 1;
        Some((k as u16, id - self.offsets[k]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_puts_slots_one_after_another_and_obs_out_hands_them_out_in_order() {
        let mut l = ObsLayout::new();
        l.slot("a", 2, 0.0, 1.0, "two flags")
            .slot("b", 3, -1.0, 9.0, "three counts");
        assert_eq!(l.len(), 5);
        assert_eq!(l.get("b").unwrap().range(), 2..5);
        assert_eq!(l.lows(), vec![0.0, 0.0, -1.0, -1.0, -1.0]);
        let mut v = [7.0f32; 5];
        let mut o = ObsOut::new(&l, &mut v);
        o.slot("a")[1] = 1.0;
        assert!(!o.done());
        o.count("b", [2, 0, 2]);
        assert!(o.done());
        assert_eq!(v, [0.0, 1.0, 1.0, 0.0, 2.0]);
        assert_eq!(l.out_of_bounds(&v), None);
        v[4] = 9.0;
        v[3] = 9.5;
        assert_eq!(l.out_of_bounds(&v), Some(("b", 1, 9.5)));
        v[3] = f32::NAN;
        assert_eq!(l.out_of_bounds(&v).map(|t| t.0), Some("b"));
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn slots_written_out_of_order_panic() {
        let mut l = ObsLayout::new();
        l.slot("a", 1, 0.0, 1.0, "").slot("b", 1, 0.0, 1.0, "");
        let mut v = [0.0f32; 2];
        ObsOut::checked(&l, &mut v).slot("b");
    }

    #[test]
    fn several_slots_at_once_are_the_slots_in_order() {
        let mut l = ObsLayout::new();
        l.slot("a", 1, 0.0, 9.0, "")
            .slot("b", 2, 0.0, 9.0, "")
            .slot("c", 3, 0.0, 9.0, "")
            .slot("d", 1, 0.0, 9.0, "");
        let mut v = [7.0f32; 7];
        let mut o = ObsOut::checked(&l, &mut v);
        o.scalar("a", 1.0);
        let [b, c] = o.slots(["b", "c"]);
        assert_eq!((b.len(), c.len()), (2, 3));
        b[1] = 2.0;
        c[2] = 3.0;
        o.scalar("d", 4.0);
        assert!(o.done());
        assert_eq!(v, [1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 4.0]);
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn several_slots_written_out_of_order_panic() {
        let mut l = ObsLayout::new();
        l.slot("a", 1, 0.0, 1.0, "").slot("b", 1, 0.0, 1.0, "");
        let mut v = [0.0f32; 2];
        ObsOut::checked(&l, &mut v).slots(["b", "a"]);
    }

    #[test]
    fn stable_ids_are_kind_offsets_plus_arguments_and_decode_back() {
        let k = |name, args| ActionKind {
            name,
            args,
            doc: "",
        };
        let s = ActionSpace::new(vec![k("pass", 1), k("play", 10), k("none", 0), k("hit", 4)]);
        assert_eq!(s.len(), 15);
        let code = |kind, arg| ActionCode {
            kind,
            arg,
            ..ActionCode::default()
        };
        assert_eq!(s.id(code(0, 0)), Some(0));
        assert_eq!(s.id(code(1, 9)), Some(10));
        assert_eq!(s.id(code(1, 10)), None);
        assert_eq!(s.id(code(3, 0)), Some(11));
        assert_eq!(s.id(code(4, 0)), None);
        for id in 0..15 {
            let (kind, arg) = s.decode(id).unwrap();
            assert_eq!(s.id(code(kind, arg)), Some(id));
        }
        assert_eq!(s.decode(15), None);
    }
}
