//! Sources of WARC bytes for the buffered engine: a memory map handed back
//! as it is passed, a plain stream, and (in `gz.rs`, `frames.rs`, `split.rs`)
//! gzip members and zstd/LZ4 frames.

use super::*;

/// A source of decompressed WARC bytes for the buffered engine.
pub(super) trait Source {
    /// Appends at least `want` bytes to `buf` if the input has them, but never
    /// past the end of the current gzip member; records member starts in
    /// `marks`. Returns `Ok(false)` at the end of the input.
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError>;
    /// Input bytes consumed so far.
    fn position(&self) -> u64;
    /// True when the bytes appended so far end exactly at a gzip member end
    /// (or, for plain input, always: every byte is a boundary).
    fn at_boundary(&self) -> bool;
    /// Whether the offset of a byte inside a member is known (plain input).
    fn linear(&self) -> bool;
    /// Moves into `into` the input offsets of the gzip members that failed
    /// unreported since the last call: members tried after damage, while
    /// looking for the next one that inflates (see [`Buffered::unless_member_damaged`]).
    fn drain_unreported(&mut self, _into: &mut VecDeque<u64>) {}
    /// The lowest buffer position from which bytes appended before the
    /// last [`Source::fill`] were taken back out of the buffer since the
    /// last call: output of a gzip member that then failed (zlib checks a
    /// member's CRC only at its end). A reader that had parsed those bytes
    /// must parse again from there.
    fn take_withdrawn(&mut self) -> Option<usize> {
        None
    }
    /// The buffer's bytes `at..at + len` were removed (consumed, or a
    /// block over the cap dropped): buffer positions the source keeps
    /// move with the bytes after them.
    fn removed(&mut self, _at: usize, _len: usize) {}
}

/// A boundary in the buffer: the byte at `pos` came from input offset
/// `offset` (plain input), or starts the gzip member at `offset`; `inside`:
/// the member started before `pos` (its first bytes were dropped).
#[derive(Debug, Clone, Copy)]
pub(super) struct Mark {
    pub(super) pos: usize,
    pub(super) offset: u64,
    pub(super) inside: bool,
}

/// A damaged stretch of the input, already skipped by the source.
#[derive(Debug)]
pub(super) struct FillError {
    pub(super) offset: u64,
    pub(super) kind: ProblemKind,
    pub(super) detail: String,
}

impl FillError {
    pub(super) fn io(offset: u64, e: std::io::Error) -> Self {
        FillError {
            offset,
            kind: ProblemKind::Io,
            detail: format!("read failed: {e}"),
        }
    }
}

/// Bytes of the map read past before they are handed back to the kernel.
pub(super) const RELEASE_EVERY: usize = 1 << 20;
/// Bytes just behind the reading position that stay mapped.
pub(super) const KEEP_MAPPED: usize = 256 << 10;

/// Hands the map's pages in `released..pos` back to the kernel once they are
/// [`RELEASE_EVERY`] bytes or more, so that the process's resident memory
/// does not grow with the file (the pages of a mapped file stay resident
/// once read, even with `Advice::Sequential`). Reading them again is still
/// correct: the map is a read-only shared file map, so a released page is
/// read back from the file (page cache) on its next access.
pub(super) fn release_behind(map: &memmap2::Mmap, released: &mut usize, pos: usize) {
    // The kernel maps pages around a faulting one (64 KiB by default) when
    // they are cached: released pages just behind the reading position
    // would come back and stay. Releasing only up to well behind it keeps
    // those in the range the next release covers.
    let end = pos.min(map.len()).saturating_sub(KEEP_MAPPED);
    if end < released.saturating_add(RELEASE_EVERY) {
        return;
    }
    release_range(map, *released, end);
    *released = end;
}

/// Releases the pages of `map[from..to]` (including the page `from` is on).
pub(super) fn release_range(map: &memmap2::Mmap, from: usize, to: usize) {
    #[cfg(unix)]
    if from < to {
        // SAFETY: `DontNeed` on a read-only shared file map discards no data:
        // a later access (a record still borrowing these bytes, a rewind to
        // a damaged member's start) reads the same bytes back from the file.
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, to - from)
        };
    }
    #[cfg(not(unix))]
    let _ = (map, from, to);
}

/// The memory map as a `BufRead` positioned at `.1`; the pages from `.2`
/// up to the position are handed back to the kernel as it moves on. `.3`:
/// where it started.
pub(super) struct MapBytes(
    pub(super) Arc<Map>,
    pub(super) usize,
    pub(super) usize,
    pub(super) usize,
);

impl MapBytes {
    pub(super) fn new(map: Arc<Map>, pos: usize) -> Self {
        MapBytes(map, pos, pos, pos)
    }
}

impl Drop for MapBytes {
    fn drop(&mut self) {
        let (start, end) = (self.3, self.1.min(self.0.len()));
        release_range(&self.0, self.2, end);
        // The pages just before the start, mapped again around the first
        // page read (another part thread may have released them already).
        release_range(&self.0, start.saturating_sub(KEEP_MAPPED), start.min(end));
    }
}

impl Read for MapBytes {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.fill_buf()?.read(out)?;
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for MapBytes {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Ok(self.0.get(self.1..).unwrap_or_default())
    }
    fn consume(&mut self, amt: usize) {
        self.1 = (self.1 + amt).min(self.0.len());
        release_behind(&self.0, &mut self.2, self.1);
    }
}

pub(super) struct PlainSource<R> {
    pub(super) input: R,
    pub(super) position: u64,
}

impl<R: BufRead> Source for PlainSource<R> {
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError> {
        marks.push(Mark {
            pos: buf.len(),
            offset: self.position,
            inside: false,
        });
        let mut added = 0;
        while added < want.max(1) {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(FillError::io(self.position, e)),
            };
            if chunk.is_empty() {
                return Ok(added > 0);
            }
            let n = chunk.len().min(want.max(1) - added).max(1);
            buf.extend_from_slice(chunk.get(..n).unwrap_or(chunk));
            self.input.consume(n);
            self.position += n as u64;
            added += n;
        }
        Ok(true)
    }
    fn position(&self) -> u64 {
        self.position
    }
    fn at_boundary(&self) -> bool {
        true
    }
    fn linear(&self) -> bool {
        true
    }
}
