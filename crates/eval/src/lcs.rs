//! Length of the longest common subsequence of two token sequences, with the
//! bit-parallel algorithm of Allison–Dix / Hyyrö: one pass over the longer
//! sequence, each step a few word operations per 64 tokens of the shorter one,
//! O(n·⌈m/64⌉) instead of the O(n·m) table.

/// Reusable buffers for [`Lcs::length`].
#[derive(Default)]
pub struct Lcs {
    /// For every token id of the shorter sequence, the bitmask of the
    /// positions where it occurs, ⌈m/64⌉ words each.
    masks: Vec<u64>,
    /// The bit vector V: zero bits count the LCS so far.
    row: Vec<u64>,
}

impl Lcs {
    /// The length of the longest common subsequence of `a` and `b`.
    ///
    /// Token ids index a table sized by the largest id of the shorter
    /// sequence, so they should be interned (small and dense).
    pub fn length(&mut self, a: &[u32], b: &[u32]) -> usize {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        let Some(max_id) = short.iter().max() else {
            return 0;
        };
        let words = short.len().div_ceil(64);
        let alphabet = *max_id as usize + 1;
        self.masks.clear();
        self.masks.resize(alphabet * words, 0);
        for (i, &id) in short.iter().enumerate() {
            if let Some(word) = self.masks.get_mut(id as usize * words + i / 64) {
                *word |= 1 << (i % 64);
            }
        }

        // V starts all ones; per token: U = V & M, V = (V + U) | (V - U),
        // where V - U = V & !M because U is a subset of V. The padding bits
        // above m stay ones (their masks are zero), so every zero bit is one
        // unit of LCS.
        self.row.clear();
        self.row.resize(words, u64::MAX);
        for &id in long {
            let start = id as usize * words;
            let Some(mask) = self.masks.get(start..start + words) else {
                continue; // not in the shorter sequence: V is unchanged
            };
            let mut carry = false;
            for (v, &m) in self.row.iter_mut().zip(mask) {
                let u = *v & m;
                let (sum, c1) = v.overflowing_add(u);
                let (sum, c2) = sum.overflowing_add(u64::from(carry));
                carry = c1 | c2;
                *v = sum | (*v & !m);
            }
        }
        self.row.iter().map(|v| v.count_zeros() as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The textbook O(n·m) dynamic programme, one row at a time.
    fn lcs_dp(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        let mut cur = prev.clone();
        for x in a {
            for (j, y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    cur[j].max(prev[j + 1])
                };
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[b.len()]
    }

    #[test]
    fn hand_examples() {
        let mut lcs = Lcs::default();
        assert_eq!(lcs.length(&[], &[1, 2]), 0);
        assert_eq!(lcs.length(&[1, 2, 3], &[1, 2, 3]), 3);
        // ABCBDAB vs BDCABA: 4 (e.g. BCBA).
        assert_eq!(lcs.length(&[0, 1, 2, 1, 3, 0, 1], &[1, 3, 2, 0, 1, 0]), 4);
        assert_eq!(lcs.length(&[7, 8, 9], &[1, 2]), 0);
    }

    #[test]
    fn crosses_word_boundaries() {
        // 200 tokens: carries must travel across four 64-bit words.
        let a: Vec<u32> = (0..200).map(|i| i % 3).collect();
        let b: Vec<u32> = (0..150).map(|i| (i * 7 + 1) % 3).collect();
        assert_eq!(Lcs::default().length(&a, &b), lcs_dp(&a, &b));
    }

    proptest! {
        #[test]
        fn agrees_with_dynamic_programme(
            a in proptest::collection::vec(0u32..4, 0..300),
            b in proptest::collection::vec(0u32..6, 0..300),
        ) {
            let mut lcs = Lcs::default();
            let expected = lcs_dp(&a, &b);
            prop_assert_eq!(lcs.length(&a, &b), expected);
            prop_assert_eq!(lcs.length(&b, &a), expected);
        }
    }
}
