//! Whole-member inflate with libdeflate (Cargo feature `libdeflate`, on by
//! default): a memory-mapped `.warc.gz` has every member's compressed bytes
//! at hand, so a member is inflated in one call, about 20 % faster than
//! streaming it through zlib-rs (benches/inflate.rs). libdeflate picks its
//! kernels (BMI2, …) at run time, so the default build still runs on any
//! x86-64. It is only a fast path: a member it cannot inflate (corrupt, cut
//! short, or larger than the output room) is inflated again from its first
//! byte by the streaming zlib-rs reader, which reports the damage and
//! resumes exactly as without this feature.

use libdeflate_sys::{
    libdeflate_alloc_decompressor, libdeflate_decompressor, libdeflate_free_decompressor,
    libdeflate_gzip_decompress_ex, libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE,
    libdeflate_result_LIBDEFLATE_SUCCESS,
};
use std::ptr::NonNull;

/// Why a member was not inflated whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Miss {
    /// Corrupt or cut short (or not gzip).
    Bad,
    /// It inflates to more than the room given.
    TooLarge,
}

/// A libdeflate decompressor (about 10 KiB of tables), reused for every member.
pub(super) struct Whole(NonNull<libdeflate_decompressor>);

// SAFETY: the decompressor is plain memory owned by this value; libdeflate
// keeps no thread-local or global state for it.
unsafe impl Send for Whole {}

impl Whole {
    /// `None` when libdeflate cannot allocate its decompressor.
    pub(super) fn new() -> Option<Self> {
        // SAFETY: no preconditions; a null return is handled.
        NonNull::new(unsafe { libdeflate_alloc_decompressor() }).map(Whole)
    }

    /// Inflates the gzip member at the start of `input` (what follows it is
    /// not read) and appends its output to `out`, if it is intact and
    /// inflates to at most `room` bytes. Returns the member's compressed
    /// length; a [`Miss`] leaves `out` as it was (its spare capacity may
    /// have been written).
    pub(super) fn inflate(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        room: usize,
    ) -> Result<usize, Miss> {
        out.reserve(room);
        let spare = out.spare_capacity_mut();
        let n = room.min(spare.len());
        let spare = &mut spare[..n];
        let (mut used_in, mut used_out) = (0usize, 0usize);
        // SAFETY: `input` and `spare` are live, non-overlapping buffers of
        // the lengths passed; libdeflate writes at most `spare.len()` bytes
        // into `spare` and reports how many in `used_out`.
        let result = unsafe {
            libdeflate_gzip_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                spare.as_mut_ptr().cast(),
                spare.len(),
                &mut used_in,
                &mut used_out,
            )
        };
        if result == libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE {
            return Err(Miss::TooLarge);
        }
        if result != libdeflate_result_LIBDEFLATE_SUCCESS || used_out > spare.len() {
            return Err(Miss::Bad);
        }
        let len = out.len() + used_out;
        // SAFETY: libdeflate initialised the first `used_out` spare bytes.
        unsafe { out.set_len(len) };
        Ok(used_in)
    }
}

impl Drop for Whole {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_decompressor, freed once.
        unsafe { libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::{Miss, Whole};
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn inflates_one_member_and_stops_at_its_end() {
        let a: Vec<u8> = (0..300_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let mut input = gzip(&a);
        let first = input.len();
        input.extend(gzip(b"the next member"));
        let mut w = Whole::new().unwrap();
        let mut out = b"kept".to_vec();
        assert_eq!(w.inflate(&input, &mut out, 1 << 20), Err(Miss::TooLarge));
        assert_eq!(out, b"kept");
        assert_eq!(w.inflate(&input, &mut out, 2 << 20), Ok(first));
        assert_eq!(&out[..4], b"kept");
        assert_eq!(&out[4..], &a[..]);
        let mut next = Vec::new();
        assert_eq!(
            w.inflate(&input[first..], &mut next, 1 << 20),
            Ok(input.len() - first)
        );
        assert_eq!(next, b"the next member");
    }

    #[test]
    fn refuses_damaged_and_cut_members() {
        let data = b"some text that compresses, some text that compresses".repeat(100);
        let good = gzip(&data);
        let mut w = Whole::new().unwrap();
        let mut out = Vec::new();
        assert_eq!(
            w.inflate(&good[..good.len() - 1], &mut out, 1 << 20),
            Err(Miss::Bad)
        );
        let mut bad_crc = good.clone();
        let n = bad_crc.len();
        bad_crc[n - 6] ^= 1;
        assert_eq!(w.inflate(&bad_crc, &mut out, 1 << 20), Err(Miss::Bad));
        assert!(out.is_empty());
        assert_eq!(w.inflate(&good, &mut out, 1 << 20), Ok(good.len()));
        assert_eq!(out, data);
    }
}
