//! [`Bits`]: the set bits of a mask, the way every game walks a zone or a set of instances.

/// Iterates the set bits of a mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn bits_lowest_first() {
        assert_eq!(Bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
        assert_eq!(Bits(1 << 63).collect::<Vec<_>>(), vec![63]);
        assert_eq!(Bits(0).count(), 0);
    }
}
