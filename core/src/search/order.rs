//! The order a node of the engine tries its moves in: the best keys first, computed
//! once per move, without moving the moves (the table stores a best move as its index
//! in generation order, so the list keeps that order).

/// Moves ordered by key at a node; in a longer list (Halma) the rest follow in
/// generation order after these. (A node's ordering buffer lives on the stack of
/// every searched ply: 10 bytes a slot.)
pub(crate) const ORDERED: usize = 32;

/// The order a node tries its moves in, without moving them: the (up to) [`ORDERED`]
/// best keys sorted best first (ties in generation order), then every other move in
/// generation order. Move indices are generation-order indices, the form the table
/// stores.
pub(crate) struct MoveOrder {
    /// While moves are offered: the best keys, best first. Once they are all
    /// offered, the keys are not needed any more and this holds the indices in
    /// `top`, ascending, to skip them in the generation-order tail (one buffer for
    /// both: a node's frame is on the stack of every searched ply).
    keys: heapless::Vec<i64, ORDERED>,
    /// The move indices of the best keys, best first.
    top: heapless::Vec<u16, ORDERED>,
    /// Next position in `top`.
    next_top: usize,
    /// Next generation-order index of the tail, and the next taken index in `keys`.
    next_tail: usize,
    next_taken: usize,
    len: usize,
}

impl MoveOrder {
    pub(crate) fn new() -> Self {
        MoveOrder {
            keys: heapless::Vec::new(),
            top: heapless::Vec::new(),
            next_top: 0,
            next_tail: 0,
            next_taken: 0,
            len: 0,
        }
    }

    /// Considers move `index` with `key` (moves are offered in generation order).
    #[inline]
    pub(crate) fn offer(&mut self, key: i64, index: usize) {
        let full = self.keys.is_full();
        if full && self.keys[ORDERED - 1] >= key {
            return;
        }
        if full {
            self.keys.pop();
            self.top.pop();
        }
        // After every equal key: ties keep generation order.
        let mut j = self.keys.len();
        while j > 0 && self.keys[j - 1] < key {
            j -= 1;
        }
        let _ = self.keys.insert(j, key);
        let _ = self.top.insert(j, index as u16);
    }

    /// Ends the offers of a list of `len` moves.
    pub(crate) fn finish(&mut self, len: usize) {
        self.len = len;
        if len > self.top.len() {
            // The keys become the taken indices, ascending.
            self.keys.clear();
            for &i in self.top.iter() {
                let _ = self.keys.push(i64::from(i));
            }
            self.keys.sort_unstable();
        } else {
            // Every move is in `top`: no tail.
            self.next_tail = len;
        }
    }

    /// Helper engines: the moves after the first tried from the `shift`-th on.
    pub(crate) fn rotate_after_first(&mut self, shift: usize) {
        if self.len == self.top.len() && self.top.len() > 2 {
            let rest = &mut self.top[1..];
            let n = rest.len();
            rest.rotate_left(shift % n);
        }
    }
}

impl Iterator for MoveOrder {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.next_top < self.top.len() {
            self.next_top += 1;
            return Some(usize::from(self.top[self.next_top - 1]));
        }
        while self.next_tail < self.len {
            let i = self.next_tail;
            self.next_tail += 1;
            if self.keys.get(self.next_taken).map(|&t| t as usize) == Some(i) {
                self.next_taken += 1;
                continue;
            }
            return Some(i);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::MoveOrder;

    fn collect(keys: &[i64]) -> heapless::Vec<usize, 256> {
        let mut o = MoveOrder::new();
        for (i, &k) in keys.iter().enumerate() {
            o.offer(k, i);
        }
        o.finish(keys.len());
        o.collect()
    }

    #[test]
    fn short_lists_sort_by_key_with_ties_in_generation_order() {
        let got = collect(&[1, 5, 1, 9, 5]);
        assert_eq!(&got[..], &[3, 1, 4, 0, 2]);
    }

    #[test]
    fn long_lists_put_the_best_keys_first_then_the_rest_in_order() {
        // 100 moves: keys 0 except every tenth, which is 10 + its index.
        let keys: heapless::Vec<i64, 100> = (0..100)
            .map(|i| if i % 10 == 0 { 10 + i as i64 } else { 0 })
            .collect();
        let got = collect(&keys);
        assert_eq!(got.len(), 100);
        assert_eq!(&got[..10], &[90, 80, 70, 60, 50, 40, 30, 20, 10, 0]);
        // The rest: the first zero-key moves that made the top, in order, then the
        // others in generation order; every move exactly once.
        let mut seen = [false; 100];
        for &i in got.iter() {
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert!(got[10..].windows(2).all(|w| w[0] < w[1]));
    }
}
