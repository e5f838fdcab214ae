//! A fixed-capacity vector that is `Copy`, so it can live inside a copyable game state and be used
//! as a caller-owned scratch list without touching the heap.

use std::fmt;

/// A vector of at most `N` elements stored inline. `Copy` when `T` is, so a state that holds one
/// is copied bit for bit. Pushing past the capacity is a logic error and panics: capacities are
/// chosen from the worst case of the rules and documented where they are declared.
#[derive(Clone, Copy)]
pub struct FixedVec<T: Copy + Default, const N: usize> {
    len: u16,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for FixedVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> FixedVec<T, N> {
    pub const CAPACITY: usize = N;

    pub fn new() -> Self {
        FixedVec {
            len: 0,
            items: [T::default(); N],
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// How many items it holds at most.
    #[inline]
    pub const fn capacity(&self) -> usize {
        N
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.len() == N
    }

    #[inline]
    pub fn clear(&mut self) {
        // Reset the tail too, so equal contents always mean equal bytes (apply/undo is compared
        // bit for bit, and determinization compares whole states).
        for x in &mut self.items[..self.len as usize] {
            *x = T::default();
        }
        self.len = 0;
    }

    /// Empties a scratch list without zeroing it: for lists outside a game state (a caller's
    /// legal-action list), where no one compares the bytes past the length. Contents and
    /// equality ([`PartialEq`] compares the elements only) are those of [`FixedVec::clear`].
    #[inline]
    pub fn clear_scratch(&mut self) {
        self.len = 0;
    }

    /// A scratch list that holds `x` alone: [`FixedVec::clear_scratch`] then
    /// [`FixedVec::push`], with no length read and no capacity test (a list of capacity 0
    /// panics). For the first item of a walk that begins on an emptied scratch list.
    #[inline]
    pub fn scratch_one(&mut self, x: T) {
        self.items[0] = x;
        self.len = 1;
    }

    #[inline]
    pub fn push(&mut self, x: T) {
        // The length read once: `self.len += 1` after the element's store made the compiler load
        // it again (it cannot tell the store from the length), an instruction a push.
        let n = self.len();
        assert!(n < N, "FixedVec capacity {N} exceeded");
        self.items[n] = x;
        self.len = n as u16 + 1;
    }

    /// A writer that appends to this list with the length held in the writer (a register, for
    /// a loop that pushes most of the times round) and stored back once, when the writer is
    /// dropped: [`FixedVec::push`] loads and stores the length at every push. The list reads
    /// as if each item had been pushed.
    #[inline(always)]
    #[must_use = "the length is stored when the appender is dropped"]
    pub fn appender(&mut self) -> Appender<'_, T, N> {
        let n = self.len();
        Appender { list: self, n }
    }

    /// [`FixedVec::push`] with no capacity test, for a walk that fills a scratch list (a caller's
    /// legal-action list) within its documented worst case: for a capacity that is a power of two
    /// the slot is the length modulo the capacity (an `and`, no test). A list pushed past its
    /// capacity holds a length past it, and the items past the capacity overwrote the first
    /// ones: what reads the items ([`FixedVec::as_slice`], an index, an iteration, `contains`,
    /// `==`, `push`, `pop`, `remove`, `insert`, `retain`, `clear`) panics, but `len`, `is_empty`,
    /// `is_full` and `first_slot` do not, and `clear_scratch` forgets it. So a caller must bound
    /// its walk and say why at the call. For any other capacity it panics at once, as `push`
    /// does.
    #[inline(always)]
    pub fn push_wrapping(&mut self, x: T) {
        let n = self.len();
        let k = if N.is_power_of_two() { n & (N - 1) } else { n };
        self.items[k] = x;
        self.len = n as u16 + 1;
    }

    /// The first slot: the first item when the list holds one; when it is empty, the default if
    /// it was emptied by `clear`, `pop` or `remove` (they reset the slots past the length), a
    /// stale item after `clear_scratch`. No length read and no bounds test, for a caller whose
    /// list is known not to be empty.
    #[inline(always)]
    pub fn first_slot(&self) -> T {
        self.items[0]
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let x = self.items[self.len as usize];
        self.items[self.len as usize] = T::default();
        Some(x)
    }

    /// Removes the element at `i`, shifting the rest left (order kept).
    pub fn remove(&mut self, i: usize) -> T {
        let len = self.len();
        assert!(i < len);
        let x = self.items[i];
        self.items.copy_within(i + 1..len, i);
        self.items[len - 1] = T::default();
        self.len -= 1;
        x
    }

    /// Inserts at `i`, shifting the rest right.
    pub fn insert(&mut self, i: usize, x: T) {
        let len = self.len();
        assert!(len < N && i <= len);
        self.items.copy_within(i..len, i + 1);
        self.items[i] = x;
        self.len += 1;
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Keeps the elements for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut n = 0;
        for k in 0..self.len() {
            let x = self.items[k];
            if keep(&x) {
                self.items[n] = x;
                n += 1;
            }
        }
        for k in n..self.len() {
            self.items[k] = T::default();
        }
        self.len = n as u16;
    }

    pub fn contains(&self, x: &T) -> bool
    where
        T: PartialEq,
    {
        self.as_slice().contains(x)
    }
}

/// [`FixedVec::appender`]: pushes onto a list, holding its length until it is dropped.
pub struct Appender<'a, T: Copy + Default, const N: usize> {
    list: &'a mut FixedVec<T, N>,
    n: usize,
}

impl<T: Copy + Default, const N: usize> Appender<'_, T, N> {
    /// [`FixedVec::push`]: appends `x`, panicking past the capacity.
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        let n = self.n;
        assert!(n < N, "FixedVec capacity {N} exceeded");
        self.list.items[n] = x;
        self.n = n + 1;
    }
}

impl<T: Copy + Default, const N: usize> Drop for Appender<'_, T, N> {
    #[inline(always)]
    fn drop(&mut self) {
        self.list.len = self.n as u16;
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Index<usize> for FixedVec<T, N> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<T: Copy + Default, const N: usize> std::ops::IndexMut<usize> for FixedVec<T, N> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.as_mut_slice()[i]
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for FixedVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for FixedVec<T, N> {}

impl<T: Copy + Default + std::hash::Hash, const N: usize> std::hash::Hash for FixedVec<T, N> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h);
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for FixedVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a FixedVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retain_keeps_order_and_zeroes_the_tail() {
        let mut v: FixedVec<u8, 6> = FixedVec::new();
        for x in [5, 2, 8, 3, 6] {
            v.push(x);
        }
        v.retain(|&x| x % 2 == 0);
        assert_eq!(v.as_slice(), &[2, 8, 6]);
        // The bytes past the length are zero, as after `clear` (a state compares them).
        let mut w: FixedVec<u8, 6> = FixedVec::new();
        for x in [2, 8, 6] {
            w.push(x);
        }
        assert_eq!(v.items, w.items);
        v.retain(|_| false);
        assert!(v.is_empty());
    }

    #[test]
    fn push_pop_insert_remove_keep_order_and_zero_tail() {
        let mut v: FixedVec<u8, 4> = FixedVec::new();
        v.push(1);
        v.push(3);
        v.insert(1, 2);
        assert_eq!(v.as_slice(), &[1, 2, 3]);
        assert_eq!(v.remove(0), 1);
        assert_eq!(v.as_slice(), &[2, 3]);
        assert_eq!(v.pop(), Some(3));
        // The vacated slots are zeroed, so two equal vectors are equal byte for byte.
        let mut w: FixedVec<u8, 4> = FixedVec::new();
        w.push(2);
        assert_eq!(v.items, w.items);
    }

    /// `scratch_one` leaves what `clear_scratch` then `push` leave: the same contents, and the
    /// same bytes (the tail past the length is not touched by either).
    #[test]
    fn scratch_one_is_clear_scratch_then_push() {
        for n in 0..4 {
            let mut a: FixedVec<u8, 4> = FixedVec::new();
            for x in 0..n {
                a.push(10 + x);
            }
            let mut b = a;
            a.scratch_one(7);
            b.clear_scratch();
            b.push(7);
            assert_eq!(a.as_slice(), &[7]);
            assert_eq!((a.len, a.items), (b.len, b.items));
            a.push(8);
            b.push(8);
            assert_eq!((a.len, a.items), (b.len, b.items));
        }
    }

    /// `first_slot` is `self[0]` whenever the list holds an item, after every push, insert,
    /// remove and pop of a run of them; the default once `clear` or `pop` emptied it.
    #[test]
    fn the_first_slot_is_the_first_item() {
        let mut a: FixedVec<u8, 5> = FixedVec::new();
        assert_eq!(a.first_slot(), 0);
        let mut checked = 0;
        for round in 0..40u8 {
            let op = round.wrapping_mul(7) % 5;
            match op {
                0 | 1 if !a.is_full() => a.push(round + 1),
                2 if !a.is_full() => a.insert(usize::from(round) % (a.len() + 1), round + 1),
                3 if !a.is_empty() => {
                    a.remove(usize::from(round) % a.len());
                }
                _ => {
                    a.pop();
                }
            }
            if a.is_empty() {
                assert_eq!(a.first_slot(), 0, "round {round}");
            } else {
                assert_eq!(a.first_slot(), a[0], "round {round}");
                checked += 1;
            }
        }
        a.clear();
        assert_eq!(a.first_slot(), 0);
        assert!(checked > 20, "{checked}");
    }

    /// Pushing through an appender leaves what pushing on the list leaves, from any length and
    /// for any number of items up to the capacity, and the list can be pushed on again after.
    #[test]
    fn an_appender_pushes_as_push_does() {
        for start in 0..=6u8 {
            for n in 0..=6 - start {
                let mut a: FixedVec<u8, 6> = FixedVec::new();
                for x in 0..start {
                    a.push(x);
                }
                let mut b = a;
                let mut w = a.appender();
                for x in 0..n {
                    w.push(20 + x);
                }
                drop(w);
                for x in 0..n {
                    b.push(20 + x);
                }
                assert_eq!((a.len, a.items), (b.len, b.items), "{start} {n}");
                if a.len() < 6 {
                    a.push(9);
                    b.push(9);
                    assert_eq!(a.as_slice(), b.as_slice());
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "capacity")]
    fn an_appender_past_the_capacity_panics() {
        let mut v: FixedVec<u8, 1> = FixedVec::new();
        let mut w = v.appender();
        w.push(1);
        w.push(2);
    }

    /// A panic inside an appender's walk (past the capacity here) leaves the list holding the
    /// items pushed before it: the drop stores the length while unwinding.
    #[test]
    fn an_appender_unwinding_keeps_what_it_pushed() {
        let mut v: FixedVec<u8, 2> = FixedVec::new();
        v.push(7);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut w = v.appender();
            w.push(8);
            w.push(9);
        }));
        assert!(r.is_err());
        assert_eq!(v.as_slice(), &[7, 8]);
    }

    /// `push_wrapping` leaves what `push` leaves (length, items, the slots past the length) for
    /// every start length and count within the capacity, for a capacity that is a power of two
    /// (8, the masked slot) and one that is not (6).
    #[test]
    fn a_wrapping_push_pushes_as_push_does() {
        fn check<const N: usize>() -> usize {
            let mut checked = 0;
            for start in 0..=N {
                for n in 0..=N - start {
                    let mut a: FixedVec<u8, N> = FixedVec::new();
                    for x in 0..start {
                        a.push(x as u8 + 1);
                    }
                    let mut b = a;
                    for x in 0..n {
                        a.push_wrapping(20 + x as u8);
                        b.push(20 + x as u8);
                        assert_eq!((a.len, a.items), (b.len, b.items), "{N} {start} {x}");
                        checked += 1;
                    }
                }
            }
            checked
        }
        assert_eq!(check::<8>(), 120);
        assert_eq!(check::<6>(), 56);
    }

    /// A list of power-of-two capacity pushed past it by `push_wrapping` panics at its next read.
    #[test]
    #[should_panic(expected = "out of range")]
    fn a_wrapping_push_past_the_capacity_panics_at_the_read() {
        let mut v: FixedVec<u8, 2> = FixedVec::new();
        for x in 0..3 {
            v.push_wrapping(x);
        }
        let _ = v.as_slice();
    }

    /// For any other capacity it panics at the push, as `push` does.
    #[test]
    #[should_panic(expected = "out of bounds")]
    fn a_wrapping_push_past_another_capacity_panics_at_once() {
        let mut v: FixedVec<u8, 3> = FixedVec::new();
        for x in 0..4 {
            v.push_wrapping(x);
        }
    }

    #[test]
    #[should_panic(expected = "capacity")]
    fn overflow_panics() {
        let mut v: FixedVec<u8, 1> = FixedVec::new();
        v.push(1);
        v.push(2);
    }
}
