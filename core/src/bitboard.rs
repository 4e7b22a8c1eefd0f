//! Small helpers for bitboards held in plain unsigned integers.
//!
//! Each game picks the integer that fits its board (`u16` for tic-tac-toe, `u32`
//! for the 32 dark squares of draughts, `u64` for 8×8 Halma); these helpers iterate
//! over set bits without allocation.

/// Iterator over the indices of the set bits of a `u64`, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(i)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn iterates_set_bits_in_order() {
        let mut it = Bits(0b1010_0001);
        assert_eq!(it.len(), 3);
        assert_eq!(it.next(), Some(0));
        assert_eq!(it.next(), Some(5));
        assert_eq!(it.next(), Some(7));
        assert_eq!(it.next(), None);
    }
}
