//! Short ASCII names (element names, the words of class names) as integer
//! keys, looked up in perfect hash tables.
//!
//! Every tag's name and every word of every container's `class` is looked
//! up. A `match` on byte slices compiles to a switch on the length and
//! chains of compares: branches that follow no pattern. Here a name is
//! read from a 16-byte window into a `u128` (one byte per byte,
//! little-endian, zero past the name) and found with one multiply, one
//! load and one compare.
//!
//! Names are lowercased with `| 0x20`. The tables hold names made of
//! lowercase letters, digits, `-` and `:`; a byte `b` has `b | 0x20` equal
//! to one of those only when `b` is that byte or, for a letter, its
//! uppercase form (the other bytes `| 0x20` maps onto digits, `-` or `:` are
//! control characters, which no name read here contains). So a key matches
//! exactly when the name matches ignoring ASCII case.

/// A name as an integer: byte `i` of the name at bits `8i..8i+8`.
pub(super) type Key = u128;

/// Bytes a key holds; longer names have no key.
pub(super) const WINDOW: usize = 16;

/// The key of the first `len` bytes of `window`, lowercased; 0 (no name's
/// key) when `len` is `WINDOW` or more.
#[inline]
fn key(window: &[u8; WINDOW], len: usize) -> Key {
    if len >= WINDOW {
        return 0;
    }
    let lowered = Key::from_le_bytes(*window) | Key::from_le_bytes([0x20; WINDOW]);
    lowered & ((1 << (8 * len)) - 1)
}

/// Bit `i` set when `window[i]` is in `set`: one byte at a time, the
/// definition the vector masks over a window are tested against.
#[cfg(test)]
pub(super) fn mask_in(window: &[u8; WINDOW], set: &[bool; 256]) -> u32 {
    window.iter().enumerate().fold(0, |mask, (i, &b)| {
        mask | u32::from(set[usize::from(b)]) << i
    })
}

/// The key of `name`, which must be lowercase, as a constant.
pub(super) const fn key_of(name: &[u8]) -> Key {
    let mut key = 0;
    let mut i = 0;
    while i < name.len() {
        key |= (name[i] as Key) << (8 * i);
        i += 1;
    }
    key
}

/// A perfect hash table from keys to values: `2^BITS` slots, a multiplier
/// that sends every name to a slot of its own (found by trying random odd
/// numbers, and checked when the table is built at compile time).
pub(super) struct Table<T: Copy + 'static, const SLOTS: usize> {
    multiplier: u64,
    bits: u32,
    missing: T,
    slots: [(Key, T); SLOTS],
}

impl<T: Copy + 'static, const SLOTS: usize> Table<T, SLOTS> {
    /// Builds the table of `names`; `missing` is the value of every other
    /// key. Fails to compile when two names share a slot.
    pub(super) const fn new(names: &[(&[u8], T)], missing: T, multiplier: u64) -> Self {
        let bits = SLOTS.trailing_zeros();
        assert!(SLOTS.is_power_of_two() && bits > 0);
        let mut slots = [(0, missing); SLOTS];
        let mut i = 0;
        while i < names.len() {
            let key = key_of(names[i].0);
            assert!(key != 0 && names[i].0.len() < WINDOW);
            let slot = slot(key, multiplier, bits);
            assert!(
                slots[slot].0 == 0,
                "two names share a slot: choose another multiplier"
            );
            slots[slot] = (key, names[i].1);
            i += 1;
        }
        Table {
            multiplier,
            bits,
            missing,
            slots,
        }
    }

    /// The value of `key`.
    #[inline]
    pub(super) fn get(&self, key: Key) -> T {
        let (k, value) = self
            .slots
            .get(slot(key, self.multiplier, self.bits))
            .copied()
            .unwrap_or((0, self.missing));
        if k == key {
            value
        } else {
            self.missing
        }
    }
}

/// `key` folded to 64 bits: exact for names of up to 8 bytes, and for
/// longer ones collisions need two names of 9–15 bytes that XOR alike.
#[inline]
pub(super) const fn fold(key: Key) -> u64 {
    (key as u64) ^ ((key >> 64) as u64)
}

const fn slot(key: Key, multiplier: u64, bits: u32) -> usize {
    let folded = fold(key);
    (folded.wrapping_mul(multiplier) >> (64 - bits)) as usize
}

/// Reads the name `bytes` starts with, up to the first byte `ends` marks in
/// a window: its length and its key (0 for names of `WINDOW` bytes or
/// more). `pad`, which fills windows past the input, must be a byte `ends`
/// marks. The end is found with one mask per 16 bytes, not a byte loop:
/// loops that stop after a varying number of bytes are branch
/// mispredictions, one per name.
#[inline]
pub(super) fn read(bytes: &[u8], pad: u8, ends: impl Fn(&[u8; WINDOW]) -> u32) -> (usize, Key) {
    let first = window(bytes, pad);
    let len = (ends(&first) | 1 << WINDOW).trailing_zeros() as usize;
    if len < WINDOW {
        return (len, key(&first, len));
    }
    // Too long for a key: only its length is wanted.
    let mut from = WINDOW;
    loop {
        let next = window(bytes.get(from..).unwrap_or_default(), pad);
        let len = (ends(&next) | 1 << WINDOW).trailing_zeros() as usize;
        if len < WINDOW {
            return (from + len, 0);
        }
        from += WINDOW;
    }
}

/// The first `WINDOW` bytes of `bytes`, padded with `pad` past their end.
#[inline]
fn window(bytes: &[u8], pad: u8) -> [u8; WINDOW] {
    match bytes.first_chunk::<WINDOW>() {
        Some(window) => *window,
        None => super::padded16(bytes, pad),
    }
}
