//! A table with one entry for every byte: lookups by a `u8` key need no bounds check.

use std::ops::Index;

/// A table indexed by a `u8` key with room for all 256 keys, so that reading it by a key can never
/// be out of range and compiles to one load (a `Vec` indexed by the same key tests the length
/// first). Games read the hot data of a card by its one-byte local id many times a decision.
/// Keys past the entries given are filled with a fill value and are never read by a correct
/// caller.
#[derive(Clone, Debug)]
pub struct ByteTable<T> {
    all: Box<[T; 256]>,
    /// How many entries were given (the rest are fill).
    len: usize,
}

impl<T: Clone> ByteTable<T> {
    /// The table whose key `k` holds the `k`-th item of `items`, the rest `fill`. Panics with more
    /// than 256 items (a logic error of the caller, who keys them by a byte).
    pub fn new(fill: T, items: impl IntoIterator<Item = T>) -> Self {
        let mut t: Box<[T; 256]> = vec![fill; 256]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("256 entries"));
        let mut len = 0;
        for (k, x) in items.into_iter().enumerate() {
            assert!(k < 256, "a byte table holds at most 256 entries");
            t[k] = x;
            len = k + 1;
        }
        ByteTable { all: t, len }
    }
}

impl<T> ByteTable<T> {
    /// The entries given, in key order (without the fill).
    pub fn items(&self) -> &[T] {
        &self.all[..self.len]
    }
}

impl<T> Index<u8> for ByteTable<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, k: u8) -> &T {
        &self.all[usize::from(k)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_by_key_and_fill_beyond() {
        let t = ByteTable::new(0u16, [7, 8, 9]);
        assert_eq!((t[0], t[1], t[2], t[3], t[255]), (7, 8, 9, 0, 0));
        assert_eq!(t.items(), &[7, 8, 9]);
    }

    #[test]
    #[should_panic(expected = "at most 256")]
    fn more_than_256_items_panic() {
        let _ = ByteTable::new(0u8, std::iter::repeat_n(1, 257));
    }
}
