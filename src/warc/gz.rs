//! Member-by-member gzip inflation for the buffered engine.

use super::{FillError, Mark, ProblemKind, Source};
use flate2::{Decompress, FlushDecompress, Status};
use std::io::BufRead;

/// Output space reserved per inflate call.
const INFLATE_STEP: usize = 64 << 10;

/// Inflates one gzip member at a time from `input` into the caller's buffer,
/// never across a member end, so every member start is a known input offset.
/// zlib checks each member's header and CRC; after a corrupt member the source
/// skips to the next gzip magic whose member inflates.
pub(super) struct GzSource<R> {
    input: R,
    inflater: Decompress,
    /// Input bytes consumed.
    position: u64,
    in_member: bool,
    member_start: u64,
    /// Buffer length when the current member started.
    member_buf_start: usize,
    /// Skipping after damage: failures of candidate members are not reported again.
    resyncing: bool,
    /// No member starting at or after this input offset is read (one part
    /// of a split file ends where the next one's first member starts).
    limit: u64,
}

impl<R: BufRead> GzSource<R> {
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
            resyncing,
            limit,
        }
    }

    /// Input offset of the member being (or last) inflated.
    pub(super) fn member_start(&self) -> u64 {
        self.member_start
    }

    pub(super) fn resyncing(&self) -> bool {
        self.resyncing
    }

    /// Consumes input up to the next gzip magic; `Ok(false)` at end of input.
    /// A magic split across two reads of a stream is missed (one more member lost).
    fn skip_to_magic(&mut self) -> Result<bool, FillError> {
        loop {
            let position = self.position;
            let chunk = self
                .input
                .fill_buf()
                .map_err(|e| FillError::io(position, e))?;
            if chunk.is_empty() {
                return Ok(false);
            }
            let (skip, found) = match memchr::memmem::find(chunk, &[0x1f, 0x8b, 0x08]) {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            self.input.consume(skip);
            self.position += skip as u64;
            if found {
                return Ok(true);
            }
        }
    }
}

impl<R: BufRead> Source for GzSource<R> {
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError> {
        let target = buf.len().saturating_add(want.max(1));
        loop {
            if !self.in_member {
                if self.position >= self.limit {
                    return Ok(false);
                }
                let position = self.position;
                let chunk = self
                    .input
                    .fill_buf()
                    .map_err(|e| FillError::io(position, e))?;
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
                self.in_member = true;
                self.member_start = self.position;
                self.member_buf_start = buf.len();
                marks.push(Mark {
                    pos: buf.len(),
                    offset: self.position,
                    inside: false,
                });
            }
            let position = self.position;
            let chunk = self
                .input
                .fill_buf()
                .map_err(|e| FillError::io(position, e))?;
            if chunk.is_empty() {
                self.in_member = false;
                buf.truncate(self.member_buf_start);
                return Err(FillError {
                    offset: self.member_start,
                    kind: ProblemKind::Truncated,
                    detail: format!(
                        "the input ends inside the gzip member that starts at offset {}",
                        self.member_start
                    ),
                });
            }
            buf.reserve(INFLATE_STEP.min(target.saturating_sub(buf.len()).max(4096)));
            let before_in = self.inflater.total_in();
            let status = self
                .inflater
                .decompress_vec(chunk, buf, FlushDecompress::None);
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
                    buf.truncate(self.member_buf_start);
                    marks.retain(|m| m.pos < self.member_buf_start || m.offset < self.member_start);
                    let reported = self.resyncing;
                    self.resyncing = true;
                    let at = self.member_start;
                    // Start the search one byte past this member's magic.
                    if self.position == at {
                        self.input.consume(1);
                        self.position += 1;
                    }
                    self.skip_to_magic()?;
                    if !reported {
                        return Err(FillError {
                            offset: at,
                            kind: ProblemKind::CorruptGzip,
                            detail: format!(
                                "corrupt gzip member ({e}); resumed at the next member, offset {}",
                                self.position
                            ),
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
}
