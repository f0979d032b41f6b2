//! Frame-by-frame zstd and LZ4 decompression for the buffered engine.
//!
//! A `.warc.zst` or `.warc.lz4` written as one frame per record (what
//! FastWARC/Resiliparse and the IIPC `.warc.zst` proposal write) is read as
//! a `.warc.gz` is read member by member: every frame start is a known input
//! offset (a record's offset and length), output never runs past a frame
//! end, and a frame that does not decode is reported at its start, after
//! which the search for the next frame magic starts one byte into it.
//!
//! zstd frames are decoded by libzstd through the `zstd` crate (already
//! linked for Parquet output), in steps of at most [`DECODE_STEP`] output
//! bytes, so the memory held is the record cap plus the frame's window
//! (libzstd refuses windows over 128 MiB). A dictionary in a leading
//! skippable frame (magic `0x184D2A5D`, itself zstd-compressed or not) is
//! loaded before the first frame and used for every frame. LZ4 frames are
//! decoded by `lz4_flex`'s frame decoder, one block (at most 4 MiB) at a
//! time.

use super::gz::Input;
use super::{FillError, Mark, ProblemKind, Source};
use std::collections::VecDeque;
use std::io::{ErrorKind, Read};
use zstd::stream::raw::Operation;

/// The first bytes of a zstd frame.
pub(super) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The first bytes of an LZ4 frame.
pub(super) const LZ4_MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];
/// The skippable frame holding the dictionary of a `.warc.zst`.
const DICTIONARY_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];
/// Largest dictionary accepted (compressed or not); zstd's trainer makes
/// dictionaries of about 100 KiB.
const MAX_DICTIONARY: usize = 32 << 20;
/// Largest zstd frame header (`ZSTD_FRAMEHEADERSIZE_MAX`).
const ZSTD_HEADER_MAX: usize = 18;
/// Output produced per decode call.
const DECODE_STEP: usize = 64 << 10;

/// True for the first bytes of a skippable frame (`0x184D2A50..=0x184D2A5F`,
/// the same in zstd and LZ4).
pub(super) fn is_skippable(start: &[u8]) -> bool {
    matches!(start, [b, 0x2a, 0x4d, 0x18, ..] if b & 0xf0 == 0x50)
}

/// Which frame format a source reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Zstd,
    Lz4,
}

impl Format {
    pub(super) fn magic(self) -> [u8; 4] {
        match self {
            Format::Zstd => ZSTD_MAGIC,
            Format::Lz4 => LZ4_MAGIC,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Zstd => "zstd",
            Format::Lz4 => "LZ4",
        }
    }
}

/// The input with the count of bytes consumed.
pub(super) struct Counted<R> {
    input: R,
    position: u64,
}

impl<R: Input> Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(out)?;
        self.position += n as u64;
        Ok(n)
    }
}

impl<R: Input> Counted<R> {
    fn consume(&mut self, n: usize) {
        self.input.consume(n);
        self.position += n as u64;
    }
}

enum Decoder<R: Input> {
    Zstd {
        input: Counted<R>,
        decoder: zstd::stream::raw::Decoder<'static>,
    },
    /// `None` only while being replaced.
    Lz4(Option<lz4_flex::frame::FrameDecoder<Counted<R>>>),
}

impl<R: Input> Decoder<R> {
    fn input(&mut self) -> &mut Counted<R> {
        match self {
            Decoder::Zstd { input, .. } => input,
            Decoder::Lz4(Some(decoder)) => decoder.get_mut(),
            Decoder::Lz4(None) => unreachable!("an LZ4 decoder is only taken out to be replaced"),
        }
    }

    fn input_ref(&self) -> &Counted<R> {
        match self {
            Decoder::Zstd { input, .. } => input,
            Decoder::Lz4(Some(decoder)) => decoder.get_ref(),
            Decoder::Lz4(None) => unreachable!("an LZ4 decoder is only taken out to be replaced"),
        }
    }

    /// Forgets the frame being decoded.
    fn reset(&mut self) {
        match self {
            Decoder::Zstd { decoder, .. } => {
                let _ = decoder.reinit();
            }
            Decoder::Lz4(slot) => {
                if let Some(decoder) = slot.take() {
                    *slot = Some(lz4_flex::frame::FrameDecoder::new(decoder.into_inner()));
                }
            }
        }
    }

    /// Decodes into `out`: the bytes written, and whether the frame ended.
    fn decode(&mut self, out: &mut [u8]) -> std::io::Result<(usize, bool)> {
        match self {
            Decoder::Zstd { input, decoder } => {
                let chunk = input.input.fill_buf()?;
                if chunk.is_empty() {
                    return Err(ErrorKind::UnexpectedEof.into());
                }
                let status = decoder.run_on_buffers(chunk, out)?;
                input.consume(status.bytes_read);
                Ok((status.bytes_written, status.remaining == 0))
            }
            Decoder::Lz4(decoder) => {
                let Some(decoder) = decoder.as_mut() else {
                    return Ok((0, true));
                };
                // The frame decoder returns 0 at the end mark of each frame.
                let n = decoder.read(out)?;
                Ok((n, n == 0))
            }
        }
    }
}

/// Decodes one zstd or LZ4 frame at a time from `input` into the caller's
/// buffer, never across a frame end, so every frame start is a known input
/// offset; after a corrupt or cut frame it searches for the next frame
/// magic, starting one byte into the bad frame.
pub(super) struct FrameSource<R: Input> {
    format: Format,
    decoder: Decoder<R>,
    in_frame: bool,
    frame_start: u64,
    /// Buffer length when the current frame started.
    frame_buf_start: usize,
    /// Output of the current frame so far.
    frame_out: u64,
    /// The size the current zstd frame's header declares, if it does:
    /// libzstd checks it when it has the whole frame at once, not when
    /// the frame arrives in pieces, so it is checked here for both.
    declared: Option<u64>,
    /// Skipping after damage: failures of candidate frames are not reported again.
    resyncing: bool,
    unreported: VecDeque<u64>,
    /// Whether a leading dictionary frame was looked for.
    started: bool,
    /// No frame starting at or after this input offset is read (one part
    /// of a split file ends where the next one's first frame starts).
    limit: u64,
    /// See [`Source::take_withdrawn`].
    withdrawn: Option<usize>,
}

/// The dictionary a part of a split `.warc.zst` decodes with.
#[derive(Clone)]
pub(super) enum Dictionary {
    /// Look for it at the start of the input, as the sequential reader does.
    Load,
    /// The file's, already read (none if it has none or it did not load).
    Given(Option<std::sync::Arc<[u8]>>),
}

/// The dictionary of a `.warc.zst` from its leading skippable frame
/// (`head`: the input from the frame's start, all of it at hand): `Ok(None)`
/// when there is none, else the dictionary and the frame's length; `Err`
/// says why it cannot be used.
pub(super) fn read_dictionary(head: &[u8]) -> Result<Option<(Vec<u8>, usize)>, String> {
    let [_, _, _, _, a, b, c, d, ..] = head else {
        return Ok(None);
    };
    if !head.starts_with(&DICTIONARY_MAGIC) {
        return Ok(None);
    }
    let size = u32::from_le_bytes([*a, *b, *c, *d]) as usize;
    if size > MAX_DICTIONARY {
        // Skipped by the decoder as any skippable frame; the frames
        // that need it then fail.
        return Err(format!(
            "the zstd dictionary frame holds {size} bytes, more than the {MAX_DICTIONARY} accepted; frames are decoded without it"
        ));
    }
    let Some(dict) = head.get(8..8 + size) else {
        return Err(format!(
            "the input ends inside the zstd dictionary frame of {size} bytes"
        ));
    };
    let dict = if dict.starts_with(&ZSTD_MAGIC) {
        zstd::bulk::decompress(dict, MAX_DICTIONARY).map_err(|e| {
            format!("the compressed zstd dictionary does not decode ({e}); frames are decoded without it")
        })?
    } else {
        dict.to_vec()
    };
    // Loaded once here, so that a dictionary libzstd refuses is told now.
    zstd::stream::raw::Decoder::with_dictionary(&dict).map_err(|e| {
        format!("the zstd dictionary cannot be loaded ({e}); frames are decoded without it")
    })?;
    Ok(Some((dict, 8 + size)))
}

impl<R: Input> FrameSource<R> {
    pub(super) fn new(format: Format, input: R) -> std::io::Result<Self> {
        Self::part(format, input, 0, u64::MAX, false, Dictionary::Load)
    }

    /// Reads from `input`, which is positioned at input offset `position`,
    /// up to the first frame that starts at or after `limit`; `resyncing`
    /// carries the state of the reader that stopped at `position`.
    pub(super) fn part(
        format: Format,
        input: R,
        position: u64,
        limit: u64,
        resyncing: bool,
        dictionary: Dictionary,
    ) -> std::io::Result<Self> {
        let input = Counted { input, position };
        let started = matches!(dictionary, Dictionary::Given(_));
        let decoder = match format {
            Format::Zstd => Decoder::Zstd {
                input,
                decoder: match &dictionary {
                    Dictionary::Given(Some(dict)) => {
                        zstd::stream::raw::Decoder::with_dictionary(dict)?
                    }
                    _ => zstd::stream::raw::Decoder::new()?,
                },
            },
            Format::Lz4 => Decoder::Lz4(Some(lz4_flex::frame::FrameDecoder::new(input))),
        };
        Ok(FrameSource {
            format,
            decoder,
            in_frame: false,
            frame_start: 0,
            frame_buf_start: 0,
            frame_out: 0,
            declared: None,
            resyncing,
            unreported: VecDeque::new(),
            started,
            limit,
            withdrawn: None,
        })
    }

    /// Input offset of the frame being (or last) decoded.
    pub(super) fn frame_start(&self) -> u64 {
        self.frame_start
    }

    pub(super) fn resyncing(&self) -> bool {
        self.resyncing
    }

    fn position(&self) -> u64 {
        self.decoder.input_ref().position
    }

    /// Loads the dictionary of a `.warc.zst` from its leading skippable
    /// frame, if it has one.
    fn load_dictionary(&mut self) -> Result<(), FillError> {
        let Decoder::Zstd { input, decoder } = &mut self.decoder else {
            return Ok(());
        };
        let at = input.position;
        let head = input.input.peek(8).map_err(|e| FillError::io(at, e))?;
        if !head.starts_with(&DICTIONARY_MAGIC) || head.len() < 8 {
            return Ok(());
        }
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        let head = input
            .input
            .peek(8 + size.min(MAX_DICTIONARY))
            .map_err(|e| FillError::io(at, e))?;
        let bad = |detail: String| FillError {
            offset: at,
            kind: ProblemKind::CorruptFrame,
            detail,
        };
        let Some((dict, len)) = read_dictionary(head).map_err(bad)? else {
            return Ok(());
        };
        input.consume(len);
        *decoder = zstd::stream::raw::Decoder::with_dictionary(&dict)
            .map_err(|e| bad(format!("the zstd dictionary cannot be loaded ({e})")))?;
        Ok(())
    }

    /// Consumes the skippable frame that starts here (a cut one to the
    /// end of the input).
    fn skip_skippable(&mut self) -> Result<(), FillError> {
        let input = self.decoder.input();
        let at = input.position;
        let head = input.input.peek(8).map_err(|e| FillError::io(at, e))?;
        let mut left = match head {
            [_, _, _, _, a, b, c, d, ..] => 8 + u64::from(u32::from_le_bytes([*a, *b, *c, *d])),
            _ => head.len() as u64,
        };
        while left > 0 {
            let position = input.position;
            let chunk = input
                .input
                .fill_buf()
                .map_err(|e| FillError::io(position, e))?;
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            input.consume(n);
            left -= n as u64;
        }
        Ok(())
    }

    /// Goes back to one byte past the start `at` of a bad frame (or, when
    /// those bytes are gone, stays where decoding stopped) and consumes
    /// input up to the next frame magic; `Ok(false)` at end of input.
    fn restart_after(&mut self, at: u64) -> Result<bool, FillError> {
        self.decoder.reset();
        let input = self.decoder.input();
        if input.input.rewind_to(at + 1) {
            input.position = at + 1;
        } else if input.position == at {
            input.consume(1);
        }
        self.skip_to_magic()
    }

    /// Consumes input up to the next frame magic; `Ok(false)` at end of input.
    fn skip_to_magic(&mut self) -> Result<bool, FillError> {
        let magic = self.format.magic();
        let input = self.decoder.input();
        super::gz::skip_to_magic(&mut input.input, &mut input.position, &magic)
    }

    /// Handles a frame that failed: drops its output, resumes at the next
    /// frame, and reports it unless it was tried while resyncing.
    fn failed(
        &mut self,
        buf: &mut Vec<u8>,
        fill_start: usize,
        marks: &mut Vec<Mark>,
        e: std::io::Error,
    ) -> Result<bool, FillError> {
        self.in_frame = false;
        // Output of the frame the caller has seen (an earlier fill's) is withdrawn.
        let at = self.frame_buf_start;
        if at < fill_start.min(buf.len()) {
            self.withdrawn = Some(self.withdrawn.map_or(at, |w| w.min(at)));
        }
        buf.truncate(at);
        marks.retain(|m| m.pos < self.frame_buf_start || m.offset < self.frame_start);
        let reported = self.resyncing;
        self.resyncing = true;
        let at = self.frame_start;
        if reported {
            self.unreported.push_back(at);
        }
        let found = self.restart_after(at)?;
        if reported {
            return Ok(found);
        }
        let name = self.format.name();
        let next = if found {
            format!("resumed at the next frame, offset {}", self.position())
        } else {
            "no frame follows".to_string()
        };
        Err(if e.kind() == ErrorKind::UnexpectedEof {
            FillError {
                offset: at,
                kind: ProblemKind::Truncated,
                detail: format!("the {name} frame is cut short; {next}"),
            }
        } else {
            FillError {
                offset: at,
                kind: ProblemKind::CorruptFrame,
                detail: format!("corrupt {name} frame ({e}); {next}"),
            }
        })
    }
}

impl<R: Input> Source for FrameSource<R> {
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError> {
        if !self.started {
            self.started = true;
            self.load_dictionary()?;
        }
        let target = buf.len().saturating_add(want.max(1));
        let fill_start = buf.len();
        let magic = self.format.magic();
        loop {
            if !self.in_frame {
                if self.position() >= self.limit {
                    return Ok(false);
                }
                let input = self.decoder.input();
                let position = input.position;
                let chunk = input
                    .input
                    .peek(magic.len())
                    .map_err(|e| FillError::io(position, e))?;
                if chunk.is_empty() {
                    return Ok(false);
                }
                if is_skippable(chunk) {
                    // Data for other programs (neither decoder needs it).
                    self.skip_skippable()?;
                    continue;
                }
                if !chunk.starts_with(&magic) {
                    let at = position;
                    let reported = self.resyncing;
                    self.resyncing = true;
                    let found = self.skip_to_magic()?;
                    if !reported {
                        return Err(FillError {
                            offset: at,
                            kind: ProblemKind::CorruptFrame,
                            detail: format!(
                                "no {} frame starts here; skipped {} bytes to {}",
                                self.format.name(),
                                self.position() - at,
                                if found {
                                    "the next frame"
                                } else {
                                    "the end of the input"
                                }
                            ),
                        });
                    }
                    continue;
                }
                let input = self.decoder.input();
                input.input.mark();
                self.declared = None;
                if self.format == Format::Zstd {
                    let header = input
                        .input
                        .peek(ZSTD_HEADER_MAX)
                        .map_err(|e| FillError::io(position, e))?;
                    let header = header.get(..ZSTD_HEADER_MAX).unwrap_or(header);
                    self.declared = zstd::zstd_safe::get_frame_content_size(header)
                        .ok()
                        .flatten();
                }
                self.in_frame = true;
                self.frame_start = position;
                self.frame_buf_start = buf.len();
                self.frame_out = 0;
                marks.push(Mark {
                    pos: buf.len(),
                    offset: position,
                    inside: false,
                });
            }
            let room = target.saturating_sub(buf.len()).clamp(1, DECODE_STEP);
            let len = buf.len();
            buf.resize(len + room, 0);
            let result = self.decoder.decode(buf.get_mut(len..).unwrap_or_default());
            match result {
                Ok((produced, ended)) => {
                    buf.truncate(len + produced);
                    self.frame_out += produced as u64;
                    if ended && self.declared.is_some_and(|n| n != self.frame_out) {
                        let e = std::io::Error::new(
                            ErrorKind::InvalidData,
                            format!(
                                "its header declares {} bytes, it holds {}",
                                self.declared.unwrap_or_default(),
                                self.frame_out
                            ),
                        );
                        buf.truncate(len);
                        match self.failed(buf, fill_start, marks, e) {
                            Ok(true) => continue,
                            other => return other,
                        }
                    }
                    if ended {
                        self.in_frame = false;
                        self.resyncing = false;
                        if self.frame_out == 0 {
                            // An empty frame: nothing in the buffer came from it.
                            marks.retain(|m| m.pos < len || m.offset < self.frame_start);
                        }
                        return Ok(true);
                    }
                    if buf.len() >= target {
                        return Ok(true);
                    }
                }
                Err(e) => {
                    buf.truncate(len);
                    match self.failed(buf, fill_start, marks, e) {
                        Ok(true) => continue,
                        other => return other,
                    }
                }
            }
        }
    }

    fn position(&self) -> u64 {
        FrameSource::position(self)
    }

    fn at_boundary(&self) -> bool {
        !self.in_frame
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
        let start = &mut self.frame_buf_start;
        if *start >= at + len {
            *start -= len;
        } else if *start > at {
            *start = at;
        }
    }
}
