//! Member-by-member gzip inflation for the buffered engine.

use super::{FillError, MapBytes, Mark, ProblemKind, Source};
use flate2::{Decompress, FlushDecompress, Status};
use std::collections::VecDeque;
use std::io::{BufRead, Read};

/// Compressed bytes of one member a stream keeps so that, when the member
/// turns out corrupt or cut short, the search for the next member can
/// start inside it (a member cut short by a crash is followed by the
/// members appended after it). Longer members are not searched.
const KEEP_LIMIT: usize = 16 << 20;

/// Input a [`GzSource`] reads: it can look a few bytes ahead and go back
/// to the start of the member being inflated.
pub(super) trait Input: BufRead {
    /// At least `n` bytes from the current position, unless the input ends
    /// sooner (a plain `fill_buf` may return fewer, splitting a gzip magic).
    fn peek(&mut self, n: usize) -> std::io::Result<&[u8]>;
    /// The bytes from here on must stay available to [`Input::rewind_to`].
    fn mark(&mut self);
    /// Goes back to input offset `offset` (at or after the last mark);
    /// false when those bytes are no longer held.
    fn rewind_to(&mut self, offset: u64) -> bool;
    /// Everything from the current position to the end of the input, when
    /// it is all at hand (a memory map), so a member can be inflated whole.
    fn ahead(&self) -> Option<&[u8]> {
        None
    }
}

impl Input for MapBytes {
    fn peek(&mut self, _: usize) -> std::io::Result<&[u8]> {
        self.fill_buf()
    }
    fn mark(&mut self) {}
    fn ahead(&self) -> Option<&[u8]> {
        Some(self.0.get(self.1..).unwrap_or_default())
    }
    fn rewind_to(&mut self, offset: u64) -> bool {
        match usize::try_from(offset) {
            Ok(offset) if offset <= self.0.len() => {
                self.1 = offset;
                true
            }
            _ => false,
        }
    }
}

/// A stream that keeps what it read since the last mark (up to
/// [`KEEP_LIMIT`] bytes), so it can be read again.
pub(super) struct Rewind<R> {
    inner: R,
    /// Bytes read since the mark (or looked ahead at); `kept[at..]` is
    /// read before the inner stream.
    kept: Vec<u8>,
    at: usize,
    /// Input offset of `kept[0]`.
    base: u64,
    marked: bool,
}

impl<R: BufRead> Rewind<R> {
    pub(super) fn new(inner: R) -> Self {
        Rewind {
            inner,
            kept: Vec::new(),
            at: 0,
            base: 0,
            marked: false,
        }
    }

    /// Forgets the bytes before the current position.
    fn forget(&mut self) {
        self.kept.drain(..self.at);
        self.base += self.at as u64;
        self.at = 0;
    }
}

impl<R: BufRead> Read for Rewind<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.fill_buf()?.read(out)?;
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Rewind<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at < self.kept.len() {
            return Ok(self.kept.get(self.at..).unwrap_or_default());
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if self.at < self.kept.len() {
            self.at = (self.at + n).min(self.kept.len());
            if !self.marked && self.at == self.kept.len() {
                self.forget();
            }
            return;
        }
        if self.marked {
            // The bytes just returned by `fill_buf`, still in the inner buffer.
            if let Ok(chunk) = self.inner.fill_buf() {
                self.kept.extend_from_slice(chunk.get(..n).unwrap_or(chunk));
            }
            self.at = self.kept.len();
            if self.kept.len() > KEEP_LIMIT {
                self.forget();
                self.marked = false;
            }
        } else {
            self.base += n as u64;
        }
        self.inner.consume(n);
    }
}

impl<R: BufRead> Input for Rewind<R> {
    fn peek(&mut self, n: usize) -> std::io::Result<&[u8]> {
        if !self.marked {
            self.forget();
        }
        while self.kept.len() - self.at < n {
            let chunk = self.inner.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let len = chunk.len();
            self.kept.extend_from_slice(chunk);
            self.inner.consume(len);
        }
        if self.at < self.kept.len() {
            Ok(self.kept.get(self.at..).unwrap_or_default())
        } else {
            self.inner.fill_buf()
        }
    }

    fn mark(&mut self) {
        self.forget();
        self.marked = true;
    }

    fn rewind_to(&mut self, offset: u64) -> bool {
        match offset.checked_sub(self.base) {
            Some(back) if self.marked && back <= self.kept.len() as u64 => {
                self.at = back as usize;
                true
            }
            _ => false,
        }
    }
}

/// Output space reserved per inflate call.
const INFLATE_STEP: usize = 64 << 10;

/// Output room given to a whole-member inflate (or the bytes the caller
/// asked for, if more) when the buffer has little free room: a Common
/// Crawl record is at most about 1 MiB.
#[cfg(feature = "libdeflate")]
const WHOLE_ROOM: usize = 2 << 20;

/// Free room in the buffer used as it is for a whole-member inflate.
#[cfg(feature = "libdeflate")]
const WHOLE_MIN_SPARE: usize = 256 << 10;

/// Members larger than the room after which a source stops trying to
/// inflate members whole (a file of big members, or one gzip stream):
/// each such try costs inflating `WHOLE_ROOM` bytes for nothing.
#[cfg(feature = "libdeflate")]
const WHOLE_MISSES: u32 = 4;

/// Inflates one gzip member at a time from `input` into the caller's buffer,
/// never across a member end, so every member start is a known input offset.
/// zlib checks each member's header and CRC; after a corrupt or cut member
/// the source searches for the next gzip magic whose member inflates,
/// starting one byte into the bad member (a member cut short by a crash is
/// followed directly by the next one, which its inflate ran into).
pub(super) struct GzSource<R> {
    input: R,
    inflater: Decompress,
    /// Input bytes consumed.
    position: u64,
    in_member: bool,
    member_start: u64,
    /// Buffer position where the current member's output starts.
    member_buf_start: usize,
    /// See [`Source::take_withdrawn`].
    withdrawn: Option<usize>,
    /// Skipping after damage: failures of candidate members are not reported again.
    resyncing: bool,
    /// Input offsets of candidate members that failed, not yet drained
    /// (see [`Source::drain_unreported`]).
    unreported: VecDeque<u64>,
    /// No member starting at or after this input offset is read (one part
    /// of a split file ends where the next one's first member starts).
    limit: u64,
    /// Whole-member inflater (memory-mapped input only); `None` after
    /// [`WHOLE_MISSES`] members too large for it.
    #[cfg(feature = "libdeflate")]
    whole: Option<super::whole::Whole>,
    #[cfg(feature = "libdeflate")]
    whole_misses: u32,
}

impl<R: Input> GzSource<R> {
    pub(super) fn new(input: R) -> Self {
        Self::part(input, 0, u64::MAX, false)
    }

    /// Reads from `input`, which is positioned at input offset `position`,
    /// up to the first member that starts at or after `limit`; `resyncing`
    /// carries the state of the reader that stopped at `position`.
    pub(super) fn part(input: R, position: u64, limit: u64, resyncing: bool) -> Self {
        GzSource {
            input,
            inflater: Decompress::new_gzip(15),
            position,
            in_member: false,
            member_start: position,
            member_buf_start: 0,
            withdrawn: None,
            resyncing,
            unreported: VecDeque::new(),
            limit,
            #[cfg(feature = "libdeflate")]
            whole: None,
            #[cfg(feature = "libdeflate")]
            whole_misses: 0,
        }
    }

    /// Input offset of the member being (or last) inflated.
    pub(super) fn member_start(&self) -> u64 {
        self.member_start
    }

    pub(super) fn resyncing(&self) -> bool {
        self.resyncing
    }

    /// Goes back to one byte past the start `at` of a bad member (or, when
    /// those bytes are gone, stays where inflating stopped) and consumes
    /// input up to the next gzip magic; `Ok(false)` at end of input.
    fn restart_after(&mut self, at: u64) -> Result<bool, FillError> {
        if self.input.rewind_to(at + 1) {
            self.position = at + 1;
        } else if self.position == at {
            self.input.consume(1);
            self.position += 1;
        }
        self.skip_to_magic()
    }

    /// Inflates the member starting here in one call when the input is all
    /// at hand, the member intact and its output within the room; false
    /// leaves everything as it was, for the streaming inflater.
    #[cfg(feature = "libdeflate")]
    fn inflate_whole(&mut self, buf: &mut Vec<u8>, target: usize) -> bool {
        if self.whole_misses >= WHOLE_MISSES {
            return false;
        }
        let Some(rest) = self.input.ahead() else {
            return false;
        };
        if self.whole.is_none() {
            self.whole = super::whole::Whole::new();
        }
        let Some(whole) = self.whole.as_mut() else {
            return false;
        };
        // The buffer's free room when it is big enough for most members,
        // so a reused buffer is not regrown per member (regrowing leaves
        // the allocator's arenas fragmented: +40 MB peak RSS at -j 2 on a
        // 1 GB file); a member larger than it is streamed into the buffer,
        // which then grows as far as that member needs.
        let spare = buf.capacity() - buf.len();
        let room = if spare >= WHOLE_MIN_SPARE {
            spare
        } else {
            WHOLE_ROOM.max(target.saturating_sub(buf.len()))
        };
        let used = match whole.inflate(rest, buf, room) {
            Ok(used) => used,
            // Corrupt or cut short: zlib-rs inflates it again and says where.
            Err(super::whole::Miss::Bad) => return false,
            Err(super::whole::Miss::TooLarge) => {
                if room >= WHOLE_ROOM {
                    self.whole_misses += 1;
                }
                return false;
            }
        };
        self.input.consume(used);
        self.position += used as u64;
        self.in_member = false;
        self.resyncing = false;
        true
    }

    /// Takes the output of the member that just failed back out of `buf`,
    /// which held `fill_start` bytes when this fill began: any of them
    /// the caller has seen are withdrawn.
    fn withdraw(&mut self, buf: &mut Vec<u8>, fill_start: usize) {
        let at = self.member_buf_start;
        if at < fill_start.min(buf.len()) {
            self.withdrawn = Some(self.withdrawn.map_or(at, |w| w.min(at)));
        }
        buf.truncate(at);
    }

    /// Appends output zlib holds from input it has consumed (with all the
    /// input at hand, a map's, it may consume a member's last bytes before
    /// it has room for their output): at the end of the input, what a
    /// member cut short gave is its output up to there, however the input
    /// came. False when there is none.
    fn inflate_pending(&mut self, buf: &mut Vec<u8>, target: usize) -> bool {
        let room = target.saturating_sub(buf.len()).clamp(1, INFLATE_STEP);
        let len = buf.len();
        buf.resize(len + room, 0);
        let before = self.inflater.total_out();
        let status = self.inflater.decompress(
            &[],
            buf.get_mut(len..).unwrap_or_default(),
            FlushDecompress::None,
        );
        let produced = (self.inflater.total_out() - before) as usize;
        buf.truncate(len + produced);
        if let Ok(Status::StreamEnd) = status {
            self.in_member = false;
            self.resyncing = false;
            return true;
        }
        produced > 0
    }

    /// Consumes input up to the next gzip magic; `Ok(false)` at end of input.
    fn skip_to_magic(&mut self) -> Result<bool, FillError> {
        skip_to_magic(&mut self.input, &mut self.position, &[0x1f, 0x8b, 0x08])
    }
}

impl<R: Input> Source for GzSource<R> {
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError> {
        let target = buf.len().saturating_add(want.max(1));
        let fill_start = buf.len();
        loop {
            if !self.in_member {
                if self.position >= self.limit {
                    return Ok(false);
                }
                let position = self.position;
                let chunk = self.input.peek(2).map_err(|e| FillError::io(position, e))?;
                if chunk.is_empty() {
                    return Ok(false);
                }
                // A stream may hand out a member's first byte alone (its
                // read ended there): start the member, zlib checks the rest.
                if !chunk.starts_with(&[0x1f, 0x8b]) && chunk != [0x1f] {
                    let at = self.position;
                    let reported = self.resyncing;
                    self.resyncing = true;
                    let found = self.skip_to_magic()?;
                    if !reported {
                        return Err(FillError {
                            offset: at,
                            kind: ProblemKind::CorruptGzip,
                            detail: format!(
                                "no gzip member starts here; skipped {} bytes to {}",
                                self.position - at,
                                if found {
                                    "the next member"
                                } else {
                                    "the end of the input"
                                }
                            ),
                        });
                    }
                    continue;
                }
                self.inflater.reset(true);
                self.input.mark();
                self.in_member = true;
                self.member_start = self.position;
                self.member_buf_start = buf.len();
                marks.push(Mark {
                    pos: buf.len(),
                    offset: self.position,
                    inside: false,
                });
                #[cfg(feature = "libdeflate")]
                if self.inflate_whole(buf, target) {
                    return Ok(true);
                }
            }
            let position = self.position;
            let ended = self
                .input
                .fill_buf()
                .map_err(|e| FillError::io(position, e))?
                .is_empty();
            if ended && self.inflate_pending(buf, target) {
                if !self.in_member || buf.len() >= target {
                    return Ok(true);
                }
                continue;
            }
            if ended {
                self.in_member = false;
                self.withdraw(buf, fill_start);
                marks.retain(|m| m.pos < self.member_buf_start || m.offset < self.member_start);
                let reported = self.resyncing;
                self.resyncing = true;
                let at = self.member_start;
                if reported {
                    self.unreported.push_back(at);
                }
                let found = self.restart_after(at)?;
                if reported && found {
                    continue;
                }
                if reported {
                    return Ok(false);
                }
                return Err(FillError {
                    offset: at,
                    kind: ProblemKind::Truncated,
                    detail: if found {
                        format!(
                            "the gzip member is cut short; resumed at the next member, offset {}",
                            self.position
                        )
                    } else {
                        "the input ends inside this gzip member".to_string()
                    },
                });
            }
            let chunk = self
                .input
                .fill_buf()
                .map_err(|e| FillError::io(position, e))?;
            // Output stops at `target` whatever the input at hand (a map
            // gives all of it, a stream a read's worth): every reader of the
            // same bytes then sees a member's output in the same steps, and
            // its damage at the same point.
            let room = target.saturating_sub(buf.len()).clamp(1, INFLATE_STEP);
            let len = buf.len();
            buf.resize(len + room, 0);
            let (before_in, before_out) = (self.inflater.total_in(), self.inflater.total_out());
            let status = self.inflater.decompress(
                chunk,
                buf.get_mut(len..).unwrap_or_default(),
                FlushDecompress::None,
            );
            let produced = (self.inflater.total_out() - before_out) as usize;
            buf.truncate(len + produced);
            let consumed = (self.inflater.total_in() - before_in) as usize;
            self.input.consume(consumed);
            self.position += consumed as u64;
            match status {
                Ok(Status::StreamEnd) => {
                    self.in_member = false;
                    self.resyncing = false;
                    return Ok(true);
                }
                Ok(Status::Ok | Status::BufError) => {
                    if buf.len() >= target {
                        return Ok(true);
                    }
                }
                Err(e) => {
                    self.in_member = false;
                    self.withdraw(buf, fill_start);
                    marks.retain(|m| m.pos < self.member_buf_start || m.offset < self.member_start);
                    let reported = self.resyncing;
                    self.resyncing = true;
                    let at = self.member_start;
                    if reported {
                        self.unreported.push_back(at);
                    }
                    let found = self.restart_after(at)?;
                    if !reported {
                        return Err(FillError {
                            offset: at,
                            kind: ProblemKind::CorruptGzip,
                            detail: if found {
                                format!(
                                    "corrupt gzip member ({e}); resumed at the next member, offset {}",
                                    self.position
                                )
                            } else {
                                format!("corrupt gzip member ({e}); no member follows")
                            },
                        });
                    }
                }
            }
        }
    }

    fn position(&self) -> u64 {
        self.position
    }

    fn at_boundary(&self) -> bool {
        !self.in_member
    }

    fn linear(&self) -> bool {
        false
    }

    fn drain_unreported(&mut self, into: &mut VecDeque<u64>) {
        into.append(&mut self.unreported);
    }

    fn take_withdrawn(&mut self) -> Option<usize> {
        self.withdrawn.take()
    }

    fn removed(&mut self, at: usize, len: usize) {
        let start = &mut self.member_buf_start;
        if *start >= at + len {
            *start -= len;
        } else if *start > at {
            *start = at;
        }
    }
}

/// Consumes `input` (at offset `*position`, advanced with it) up to the
/// next `magic`, a gzip member's or a zstd/LZ4 frame's; `Ok(false)` at end
/// of input.
pub(super) fn skip_to_magic<R: Input>(
    input: &mut R,
    position: &mut u64,
    magic: &[u8],
) -> Result<bool, FillError> {
    loop {
        let at = *position;
        let chunk = input.peek(magic.len()).map_err(|e| FillError::io(at, e))?;
        if chunk.is_empty() {
            return Ok(false);
        }
        let (skip, found) = match memchr::memmem::find(chunk, magic) {
            Some(i) => (i, true),
            // Keep the last bytes: a magic may start there.
            None if chunk.len() >= magic.len() => (chunk.len() + 1 - magic.len(), false),
            None => (chunk.len(), false),
        };
        input.consume(skip);
        *position += skip as u64;
        if found {
            return Ok(true);
        }
    }
}
