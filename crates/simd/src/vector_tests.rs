//! Every vector against the portable one, operation by operation.

use crate::{scalar, Baseline, Vector};
use proptest::prelude::*;

/// The bytes of `v`.
fn bytes<V: Vector>(v: V) -> Vec<u8> {
    let mut out = vec![0; V::LEN];
    v.store(&mut out);
    out
}

/// Each operation of `V` on `data` (its first `V::LEN` bytes, and from
/// byte 1 for the second operand), as bytes and masks, for comparing two
/// vectors.
fn results<V: Vector>(token: V::Token, data: &[u8], b: u8, from: u8, len: u8) -> Vec<Vec<u8>> {
    let v = V::load(token, data);
    let w = V::load(token, &data[1..]);
    let (lo, hi) = (
        from % 0x7E + 1,
        (from % 0x7E + 1).saturating_add(len % 0x40).min(0x7E),
    );
    let m = v.eq(b) | w.in_range(from, len);
    let mut out = vec![
        bytes(v),
        bytes(V::splat(token, b)),
        bytes(v.eq(b)),
        bytes(v.in_range(from, len)),
        bytes(v.in_ascii_range(lo, hi)),
        bytes(v.at_most(b)),
        bytes(v.or_byte(b)),
        bytes(v.and_byte(b)),
        bytes(m.select(v, w)),
        bytes(v & w),
        bytes(v | w),
        bytes(v ^ w),
        bytes(!v),
    ];
    out.push(v.mask().to_le_bytes().to_vec());
    out.push(vec![u8::from(m.any())]);
    out
}

/// [`results`] of the portable vector over `V::LEN / 16` lanes, joined as
/// `V`'s would be.
fn portable(lanes: usize, data: &[u8], b: u8, from: u8, len: u8) -> Vec<Vec<u8>> {
    let per_lane: Vec<_> = (0..lanes)
        .map(|k| {
            let mut lane = data[16 * k..16 * k + 16].to_vec();
            lane.push(data[16 * k + 16]);
            results::<scalar::V128>(Baseline, &lane, b, from, len)
        })
        .collect();
    let n = per_lane[0].len();
    (0..n)
        .map(|i| match i {
            // The mask: 16 bits a lane.
            _ if i == n - 2 => {
                let bits = per_lane.iter().enumerate().fold(0u32, |bits, (k, r)| {
                    bits | u32::from_le_bytes(r[i].clone().try_into().unwrap()) << (16 * k)
                });
                bits.to_le_bytes().to_vec()
            }
            _ if i == n - 1 => vec![u8::from(per_lane.iter().any(|r| r[i][0] == 1))],
            _ => per_lane.iter().flat_map(|r| r[i].clone()).collect(),
        })
        .collect()
}

proptest! {
    #[test]
    fn v128_equals_portable(data in proptest::collection::vec(any::<u8>(), 17), b: u8, from: u8, len: u8) {
        prop_assert_eq!(
            results::<crate::V128>(Baseline, &data, b, from, len),
            portable(1, &data, b, from, len)
        );
    }

    #[test]
    fn v256_equals_portable(data in proptest::collection::vec(any::<u8>(), 33), b: u8, from: u8, len: u8) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = crate::Avx2::new() {
            prop_assert_eq!(
                results::<crate::x86::avx2::V256>(avx2, &data, b, from, len),
                portable(2, &data, b, from, len)
            );
        }
        let _ = (data, b, from, len);
    }

    #[test]
    fn u32_matches_equals_portable(keys: [u32; 8], pick in 0usize..9, other: u32) {
        let key = keys.get(pick).copied().unwrap_or(other);
        prop_assert_eq!(crate::u32_matches(&keys, key), scalar::u32_matches(&keys, key));
    }
}
