//! A set of (or counter over) 64-bit keys that are already hashes, shared
//! by the line and n-gram passes of the rule sets.

/// A set of (or counter over) 64-bit keys that are already hashes: open
/// addressing with linear probing, emptied in O(1) by a generation stamp,
/// so one table serves every page and every pass over a page.
#[derive(Default)]
pub(crate) struct HashTable {
    slots: Vec<Slot>,
    /// Slots whose stamp is this are occupied.
    generation: u32,
    /// The slots in use are `slots[..=mask]`.
    mask: usize,
    /// `64 - log2(mask + 1)`: a key's home slot is its top bits.
    shift: u32,
    len: usize,
}

/// 16 bytes: the tables are read at random, so their size is their cost.
#[derive(Clone, Copy, Default)]
pub(crate) struct Slot {
    key: u64,
    stamp: u32,
    pub(crate) count: u32,
}

impl HashTable {
    /// Empties the table, sized for about `expected` keys (it grows if more come).
    pub(crate) fn clear(&mut self, expected: usize) {
        let size = expected.saturating_mul(2).next_power_of_two().max(64);
        if size > self.slots.len() {
            self.slots = vec![Slot::default(); size];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|slot| slot.stamp = 0);
            self.generation = 1;
        }
        self.mask = size - 1;
        self.shift = 64 - size.trailing_zeros();
        self.len = 0;
    }

    /// The first slot `key` may be in: its top bits. Every key is a hash
    /// whose top bits depend on all its input (xxh3's, or an n-gram's,
    /// which ends in a multiplication: its low bits are the weak ones).
    #[inline]
    fn home(&self, key: u64) -> usize {
        (key >> self.shift) as usize
    }

    /// The slot of `key`, and whether the key is there (else the slot is free).
    #[inline]
    fn find(&mut self, key: u64) -> (usize, bool) {
        if 2 * (self.len + 1) > self.mask + 1 {
            self.grow();
        }
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot.stamp != self.generation {
                return (i, false);
            }
            if slot.key == key {
                return (i, true);
            }
            i = (i + 1) & self.mask;
        }
    }

    fn occupy(&mut self, i: usize, key: u64) {
        self.slots[i] = Slot {
            key,
            stamp: self.generation,
            count: 0,
        };
        self.len += 1;
    }

    /// Adds `key`; false if it was there already (`HashSet::insert`).
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        let (i, found) = self.find(key);
        if !found {
            self.occupy(i, key);
        }
        !found
    }

    /// The slots in use: every slot index this table gives is below it.
    pub(crate) fn size(&self) -> usize {
        self.mask + 1
    }

    /// Counts one more `key`: its slot (in [`HashTable::counted`]) and count.
    #[cfg(test)]
    pub(crate) fn count(&mut self, key: u64) -> (u32, u32) {
        let (i, found) = self.find(key);
        if !found {
            self.occupy(i, key);
        }
        let slot = &mut self.slots[i];
        slot.count += 1;
        (i as u32, slot.count)
    }

    /// Counts the key of each of `candidates`, which bring at most as
    /// many new keys as [`HashTable::clear`] was told (so the table does not
    /// grow), and writes each one's slot (in [`HashTable::counted`]);
    /// gives the highest count. A key's slot is written whether the key is
    /// new or not, its count chosen by a conditional move.
    pub(crate) fn count_all(&mut self, candidates: &mut [Candidate]) -> u32 {
        assert!(
            2 * (self.len + candidates.len()) <= self.size(),
            "the table would grow"
        );
        let (generation, mask, shift) = (self.generation, self.mask, self.shift);
        let table = &mut self.slots[..=mask];
        let (mut most, mut new) = (0, 0);
        for candidate in candidates {
            let key = candidate.gram;
            let mut i = (key >> shift) as usize;
            let mut slot = table[i];
            while (slot.stamp == generation) & (slot.key != key) {
                i = (i + 1) & mask;
                slot = table[i];
            }
            let fresh = slot.stamp != generation;
            let count = if fresh { 1 } else { slot.count + 1 };
            table[i] = Slot {
                key,
                stamp: generation,
                count,
            };
            new += usize::from(fresh);
            most = most.max(count);
            candidate.slot = i as u32;
        }
        self.len += new;
        most
    }

    /// The slots, where [`HashTable::count_all`] put the keys: a key's
    /// count is in the slot it was given (the slot stays the key's while
    /// the table does not grow).
    pub(crate) fn counted(&self) -> &[Slot] {
        &self.slots
    }

    /// Doubles the slots in use, keeping the keys.
    #[cold]
    fn grow(&mut self) {
        let generation = self.generation;
        let live: Vec<Slot> = self.slots[..=self.mask]
            .iter()
            .filter(|slot| slot.stamp == generation)
            .copied()
            .collect();
        self.clear(self.mask + 1);
        for slot in live {
            let (i, _) = self.find(slot.key);
            self.occupy(i, slot.key);
            self.slots[i].count = slot.count;
        }
    }
}

/// A position whose n-gram may repeat: what the passes over the candidates
/// read and write of it, together (16 bytes), so that keeping some moves
/// one value each.
#[derive(Clone, Copy)]
pub(crate) struct Candidate {
    /// The hash of the n-gram.
    pub gram: u64,
    /// The n-gram's first word.
    pub pos: u32,
    /// The n-gram's slot in `counts`, once counted.
    pub slot: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_table_counts_grows_and_forgets_on_clear() {
        let mut table = HashTable::default();
        table.clear(1);
        // Far more keys than the table was sized for, and keys equal in
        // their low bits.
        for round in 0..3u64 {
            for k in 0..1000u64 {
                let (slot, count) = table.count(k << 32);
                assert_eq!(count, round as u32 + 1, "{k}");
                assert_eq!(table.counted()[slot as usize].count, count);
            }
        }
        assert_eq!(table.len, 1000);
        table.clear(10);
        assert!(table.insert(5 << 32));
        assert!(!table.insert(5 << 32));
        assert!(table.insert(6 << 32));
        // The generation stamp wraps: the slots are really emptied.
        table.generation = u32::MAX;
        table.clear(10);
        assert_eq!(table.generation, 1);
        assert!(table.insert(5 << 32));
    }
}
