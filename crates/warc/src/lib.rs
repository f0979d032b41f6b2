//! A streaming WARC reader of our own (WARC/1.0, 1.1, 0.18; CRLF or bare-LF
//! header lines) over a memory map.
//!
//! - `.warc`: records are slices of the map; nothing is copied.
//! - `.warc.gz` (one gzip member per record, the Common Crawl layout, or a
//!   single gzip stream): members are inflated into one reusable buffer,
//!   whole by libdeflate when the file is mapped (feature `libdeflate`),
//!   else streamed by flate2's low-level [`flate2::Decompress`]; each record
//!   knows the compressed offset and length of its member(s).
//! - any byte stream ([`WarcReader::from_stream`]: stdin, a download, a
//!   caller's reader), plain or gzip, through the same buffer; the caller
//!   decides where the bytes come from.
//!
//! Why not the `warc` crate on the fast path: it allocates a fresh 64 KiB
//! header buffer and 1 MiB body `Vec` for every record and copies the body
//! into it, reads gzip through `libflate`'s `MultiDecoder` as one
//! concatenated stream (so no record knows its compressed offset, and one
//! corrupt member ends the file), and only accepts CRLF header lines. It is
//! used as an independent oracle in the tests.
//!
//! Damage is survived and never hides a record: after a wrong
//! `Content-Length`, a record cut short, a corrupt or cut gzip member or
//! junk, the reader reports one [`Problem`] (file, offset, record number)
//! for the damaged stretch and resumes at the next record, wherever it
//! starts: `WARC/1.` or `WARC/0.` anywhere (a record appended after a cut
//! one starts mid-line) followed by a complete header, searched from just
//! after the damaged record's header, not from its claimed end; and for
//! gzip the next member that inflates, searched from one byte into the bad
//! member. A record is accepted when its block ends at a record boundary;
//! when the boundary is only approximate (stray bytes, or junk after the
//! trailer) its block must not hold a record start. In a `.warc.gz`, a
//! record's block never runs into a later gzip member that starts a record
//! (one member per record: a member end is a record end), and a block over
//! the cap is skipped unbuffered but searched for a record start, so a
//! `Content-Length` that lies cannot swallow the records after it.
//! Limit: a record cut short whose claimed length happens to end exactly
//! at a later record's boundary in an uncompressed file is indistinguishable
//! from a record holding WARC data, and is read as one record.

mod gz;
mod headers;
mod split;
#[cfg(feature = "libdeflate")]
mod whole;

pub use headers::Headers;
pub use split::Split;

use gz::GzSource;
use memchr::memmem;
use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, Read};
use std::path::Path;
use std::sync::Arc;

/// Largest WARC header block accepted; anything longer is not a WARC header.
const MAX_HEADER_BYTES: usize = 1 << 20;
/// How much a buffered source appends per fill when nothing more precise is known.
const FILL_CHUNK: usize = 256 << 10;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// One WARC record. Borrows the reader: the map (`.warc`) or its inflate buffer.
#[derive(Debug)]
pub struct Record<'a> {
    /// 1-based position of the record in its file (problems count too).
    pub number: u64,
    /// Byte offset of the record in the input file. For gzip input: of the
    /// gzip member the record starts in.
    pub offset: u64,
    /// Bytes the record occupies in the input file (compressed, for gzip).
    /// `None` when the record shares a gzip member with other records (a
    /// single-stream `.warc.gz`), where no per-record range exists.
    pub length: Option<u64>,
    /// The version line, e.g. `WARC/1.0`.
    pub version: &'a str,
    pub headers: Headers<'a>,
    /// The declared `Content-Length` of the block.
    pub content_length: u64,
    /// The record block; empty when `content_length` exceeds the reader's
    /// record cap (see [`Record::oversized`]).
    pub block: &'a [u8],
}

impl Record<'_> {
    /// True when the block was larger than the reader's cap and was skipped
    /// without being buffered.
    pub fn oversized(&self) -> bool {
        self.block.len() as u64 != self.content_length
    }
}

/// What went wrong with one record (or stretch of input).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// Bytes that do not start a WARC record (`WARC/` expected).
    NotWarc,
    /// The record's `Content-Length` is missing, unreadable, or does not end
    /// where the next record starts.
    BadContentLength,
    /// The input ends inside a record.
    Truncated,
    /// A gzip member could not be inflated.
    CorruptGzip,
    /// Reading the input failed.
    Io,
}

impl ProblemKind {
    /// Short machine-readable reason used in statistics.
    pub fn reason(&self) -> &'static str {
        match self {
            ProblemKind::NotWarc => "not_warc",
            ProblemKind::BadContentLength => "bad_content_length",
            ProblemKind::Truncated => "truncated",
            ProblemKind::CorruptGzip => "corrupt_gzip",
            ProblemKind::Io => "io_error",
        }
    }
}

/// A damaged stretch of a WARC file; the reader has already skipped past it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: record {number} at byte offset {offset}: {detail}")]
pub struct Problem {
    pub file: String,
    pub number: u64,
    pub offset: u64,
    pub kind: ProblemKind,
    pub detail: String,
}

/// An input that cannot be read at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {file}: {source}")]
pub struct OpenError {
    pub file: String,
    #[source]
    pub source: std::io::Error,
}

/// Reads WARC records one at a time; see the module docs.
pub struct WarcReader {
    name: String,
    engine: Engine,
    max_record_bytes: u64,
    number: u64,
    total_bytes: Option<u64>,
}

enum Engine {
    /// Uncompressed file: records are slices of the map.
    Map {
        map: memmap2::Mmap,
        pos: usize,
        /// The map before this offset was handed back (see [`release_behind`]).
        released: usize,
    },
    /// Nothing to read (an empty file cannot be mapped).
    Empty,
    Buffered(Buffered),
}

impl fmt::Debug for WarcReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WarcReader")
            .field("name", &self.name)
            .field("number", &self.number)
            .finish()
    }
}

impl WarcReader {
    /// Opens a file; plain or gzip is detected from the first bytes.
    /// Records whose block exceeds `max_record_bytes` are returned
    /// [`Record::oversized`] with an empty block.
    pub fn open(path: &Path, max_record_bytes: u64) -> Result<WarcReader, OpenError> {
        Self::open_split(path, max_record_bytes, Split::new(1))
    }

    /// Like [`WarcReader::open`], but a big multi-member `.warc.gz` is
    /// inflated by `split.threads` threads (see [`Split`]); the records,
    /// offsets and problems are the same.
    pub fn open_split(
        path: &Path,
        max_record_bytes: u64,
        split: Split,
    ) -> Result<WarcReader, OpenError> {
        let name = path.display().to_string();
        let err = |source| OpenError {
            file: name.clone(),
            source,
        };
        let file = File::open(path).map_err(err)?;
        let len = file.metadata().map_err(err)?.len();
        if len == 0 {
            return Ok(Self::with_engine(
                name,
                Engine::Empty,
                max_record_bytes,
                Some(0),
            ));
        }
        // SAFETY: the map is read-only; a file truncated underneath us by
        // another process would fault, which is the documented risk of mmap and
        // acceptable for archive files that are not being written.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(err)?;
        #[cfg(unix)]
        {
            // Read ahead, and let the kernel drop pages we have passed.
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        if let Some(kind) = unsupported_compression(&map) {
            let detail = format!("{kind}-compressed WARC files are not supported; decompress it first or pipe it to `crawlsift extract -`");
            return Err(err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                detail,
            )));
        }
        let engine = if map.starts_with(&GZIP_MAGIC) {
            let map = Arc::new(map);
            let source: Box<dyn Source + Send> =
                match split::SplitSource::new(Arc::clone(&map), split) {
                    Some(split) => Box::new(split),
                    None => Box::new(GzSource::new(MapBytes::new(map, 0))),
                };
            Engine::Buffered(Buffered::new(source))
        } else {
            Engine::Map {
                map,
                pos: 0,
                released: 0,
            }
        };
        Ok(Self::with_engine(name, engine, max_record_bytes, Some(len)))
    }

    /// Reads from any byte stream (plain or gzip). `name` labels problems.
    pub fn from_stream<R: BufRead + Send + 'static>(
        name: String,
        mut input: R,
        max_record_bytes: u64,
    ) -> std::io::Result<WarcReader> {
        // A stream may hand out its first byte alone.
        let start = input.fill_buf()?;
        let gzip = start.starts_with(&GZIP_MAGIC) || start == [GZIP_MAGIC[0]];
        let source: Box<dyn Source + Send> = if gzip {
            Box::new(GzSource::new(gz::Rewind::new(input)))
        } else {
            Box::new(PlainSource { input, position: 0 })
        };
        Ok(Self::with_engine(
            name,
            Engine::Buffered(Buffered::new(source)),
            max_record_bytes,
            None,
        ))
    }

    fn with_engine(
        name: String,
        engine: Engine,
        max_record_bytes: u64,
        total_bytes: Option<u64>,
    ) -> Self {
        WarcReader {
            name,
            engine,
            max_record_bytes,
            number: 0,
            total_bytes,
        }
    }

    /// The input's name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sets the input's size in bytes, for a stream whose size is known
    /// (a download's `Content-Length`): what [`WarcReader::total_bytes`]
    /// gives for progress.
    pub fn with_total_bytes(mut self, total_bytes: Option<u64>) -> Self {
        self.total_bytes = total_bytes;
        self
    }

    /// Size of the input in bytes, when known (not for a stream unless
    /// [`WarcReader::with_total_bytes`] said).
    pub fn total_bytes(&self) -> Option<u64> {
        self.total_bytes
    }

    /// Input bytes consumed so far (for progress).
    pub fn position(&self) -> u64 {
        match &self.engine {
            Engine::Map { pos, .. } => *pos as u64,
            Engine::Empty => 0,
            Engine::Buffered(b) => b.source.position(),
        }
    }

    /// The next record, a problem (after which reading continues), or `None`
    /// at the end of the input.
    #[allow(clippy::should_implement_trait)] // records borrow the reader: a lending iterator
    pub fn next(&mut self) -> Option<Result<Record<'_>, Problem>> {
        let outcome = match &mut self.engine {
            Engine::Empty => return None,
            Engine::Map { map, pos, released } => {
                // The previous record (a borrow of the map) is gone by now.
                release_behind(map, released, *pos);
                next_in_slice(map, pos, self.max_record_bytes)
            }
            Engine::Buffered(b) => b.next(self.max_record_bytes),
        };
        self.number += 1;
        let number = self.number;
        match outcome {
            Outcome::End => {
                self.number -= 1;
                None
            }
            Outcome::Problem {
                offset,
                kind,
                detail,
            } => Some(Err(Problem {
                file: self.name.clone(),
                number,
                offset,
                kind,
                detail,
            })),
            Outcome::Record(span) => {
                let (data, offset, length) = match &self.engine {
                    Engine::Map { map, .. } => (
                        &map[..],
                        span.start as u64,
                        Some((span.end - span.start) as u64),
                    ),
                    Engine::Buffered(b) => {
                        let (offset, length) = b.input_range(&span);
                        (&b.buf[..], offset, length)
                    }
                    Engine::Empty => return None,
                };
                Some(Ok(span.record(data, number, offset, length)))
            }
        }
    }
}

/// Names a compression this reader recognises by its magic bytes (at the
/// start of `start`) but cannot read, for a message before a stream is read.
pub fn unsupported_compression(start: &[u8]) -> Option<&'static str> {
    if start.starts_with(&[0x04, 0x22, 0x4d, 0x18]) {
        Some("LZ4")
    } else if start.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Some("zstd")
    } else if start.starts_with(b"BZh") {
        Some("bzip2")
    } else {
        None
    }
}

/// Where a parsed record lies in the data it was parsed from.
#[derive(Debug)]
struct Span {
    /// Start of the `WARC/` line.
    start: usize,
    /// End of the version line (exclusive, without line ending).
    version_end: usize,
    /// Start of the first header line.
    headers_start: usize,
    /// End of the header block (start of the blank line).
    headers_end: usize,
    /// The block (empty range for an oversized record).
    block: std::ops::Range<usize>,
    content_length: u64,
    /// After the record's trailing line endings.
    end: usize,
}

impl Span {
    fn record(self, data: &[u8], number: u64, offset: u64, length: Option<u64>) -> Record<'_> {
        let version = data
            .get(self.start..self.version_end)
            .and_then(|v| std::str::from_utf8(v).ok())
            .unwrap_or("WARC/?")
            .trim();
        Record {
            number,
            offset,
            length,
            version,
            headers: Headers::new(
                data.get(self.headers_start..self.headers_end)
                    .unwrap_or_default(),
            ),
            content_length: self.content_length,
            block: data.get(self.block).unwrap_or_default(),
        }
    }
}

enum Outcome {
    Record(Span),
    Problem {
        offset: u64,
        kind: ProblemKind,
        detail: String,
    },
    End,
}

/// Where the parts of a record lie, relative to its `WARC/` line.
#[derive(Debug, Clone, Copy)]
struct Layout {
    version_end: usize,
    headers_start: usize,
    headers_end: usize,
    block_start: usize,
    content_length: u64,
}

impl Layout {
    /// The span of this record starting at `start` and ending at `end`; the
    /// block is left empty when it was skipped for being over the cap.
    fn span(&self, start: usize, keep_block: bool, end: usize) -> Span {
        let block_start = start + self.block_start;
        let block_len = if keep_block {
            usize::try_from(self.content_length).unwrap_or(0)
        } else {
            0
        };
        Span {
            start,
            version_end: start + self.version_end,
            headers_start: start + self.headers_start,
            headers_end: start + self.headers_end,
            block: block_start..block_start + block_len,
            content_length: self.content_length,
            end,
        }
    }
}

/// Result of looking at the bytes where a record should start.
enum Head {
    /// A complete header: everything up to the block is known.
    Complete(Layout),
    /// More bytes are needed to see the whole header.
    NeedMore,
    Invalid(ProblemKind, String),
}

/// Parses a WARC header at the start of `data` (which starts with `WARC/` or
/// is junk). Accepts CRLF and bare-LF lines.
fn parse_head(data: &[u8]) -> Head {
    let prefix = data.get(..5).unwrap_or(data);
    if !b"WARC/".starts_with(prefix) {
        let shown = String::from_utf8_lossy(data.get(..40).unwrap_or(data)).into_owned();
        return Head::Invalid(
            ProblemKind::NotWarc,
            format!("expected a `WARC/` version line, found {shown:?}"),
        );
    }
    let window = data.get(..MAX_HEADER_BYTES).unwrap_or(data);
    let Some(version_nl) = memchr::memchr(b'\n', window) else {
        return if window.len() == MAX_HEADER_BYTES {
            too_long()
        } else {
            Head::NeedMore
        };
    };
    let headers_start = version_nl + 1;
    let version_end = if version_nl > 0 && data.get(version_nl - 1) == Some(&b'\r') {
        version_nl - 1
    } else {
        version_nl
    };
    if ends_in_version(data.get(..version_end).unwrap_or_default(), 1) {
        return cut_header();
    }
    // The blank line ends the header: "\n\n" or "\n\r\n" after the version line.
    let mut search = version_nl;
    let (headers_end, block_start) = loop {
        let Some(nl) = window
            .get(search + 1..)
            .and_then(|rest| memchr::memchr(b'\n', rest))
        else {
            return if window.len() == MAX_HEADER_BYTES {
                too_long()
            } else {
                Head::NeedMore
            };
        };
        let line_start = search + 1;
        let line_end = line_start + nl;
        let line = window.get(line_start..line_end).unwrap_or_default();
        if line.is_empty() || line == b"\r" {
            break (line_start, line_end + 1);
        }
        if ends_in_version(line, 0) {
            return cut_header();
        }
        search = line_end;
    };
    let headers = Headers::new(data.get(headers_start..headers_end).unwrap_or_default());
    let Some(raw) = headers.get("Content-Length") else {
        return Head::Invalid(
            ProblemKind::BadContentLength,
            "the record has no Content-Length header".into(),
        );
    };
    match raw.trim().parse::<u64>() {
        Ok(content_length) => Head::Complete(Layout {
            version_end,
            headers_start,
            headers_end,
            block_start,
            content_length,
        }),
        Err(_) => Head::Invalid(
            ProblemKind::BadContentLength,
            format!("unreadable Content-Length {raw:?}"),
        ),
    }
}

/// Whether a header line (from byte `from` on) ends with a version line's
/// `WARC/1.0`: the writer stopped inside this header and another record's
/// version line follows (a header value never ends like that).
fn ends_in_version(line: &[u8], from: usize) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if !line.last().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let Some(i) = line.get(from..).and_then(|l| memmem::rfind(l, b"WARC/")) else {
        return false;
    };
    let version = line.get(from + i..).unwrap_or_default();
    version_prefix(version) == Some(true)
        && version
            .get(7..)
            .is_some_and(|minor| minor.iter().all(u8::is_ascii_digit))
}

fn cut_header() -> Head {
    Head::Invalid(
        ProblemKind::Truncated,
        "the header is cut short: another record's version line starts inside it".into(),
    )
}

fn too_long() -> Head {
    Head::Invalid(
        ProblemKind::NotWarc,
        format!("no end of WARC header within {MAX_HEADER_BYTES} bytes"),
    )
}

/// Number of CR/LF bytes at the start of `data`.
fn line_endings(data: &[u8]) -> usize {
    data.iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count()
}

/// Largest header a record found by searching may have: real WARC headers
/// are a few KiB; the bound keeps a search through junk linear.
const SEARCH_HEADER_BYTES: usize = 64 << 10;

/// Whether `data` starts with a version line's `WARC/1.` or `WARC/0.`;
/// `None`: too few bytes to tell.
fn version_prefix(data: &[u8]) -> Option<bool> {
    const V1: &[u8] = b"WARC/1.";
    const V0: &[u8] = b"WARC/0.";
    match data.get(..V1.len()) {
        Some(start) => Some(start == V1 || start == V0),
        None if V1.starts_with(data) || V0.starts_with(data) => None,
        None => Some(false),
    }
}

/// Where a search for the next record stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// A record starts here.
    At(usize),
    /// A candidate starts here whose header runs past the data: more bytes decide.
    Undecided(usize),
    None,
}

/// The first record that starts in `from..until`: `WARC/1.` or `WARC/0.`
/// anywhere (not only at a line start: a record appended right after a cut
/// one starts mid-line) followed by a complete header with a
/// `Content-Length`, so a `WARC/1.0` quoted in a page is not taken for a
/// record. `at_end`: no more bytes will follow `data`, so a candidate whose
/// header runs past its end is junk.
fn find_record(data: &[u8], from: usize, until: usize, at_end: bool) -> Found {
    let until = until.min(data.len());
    let Some(hay) = data.get(from..until.saturating_add(4).min(data.len())) else {
        return Found::None;
    };
    for i in memmem::find_iter(hay, b"WARC/") {
        let at = from + i;
        if at >= until {
            break;
        }
        let candidate = data.get(at..).unwrap_or_default();
        match version_prefix(candidate) {
            Some(true) => {}
            Some(false) => continue,
            None if at_end => continue,
            None => return Found::Undecided(at),
        }
        let window = candidate.get(..SEARCH_HEADER_BYTES).unwrap_or(candidate);
        match parse_head(window) {
            Head::Complete(_) => return Found::At(at),
            Head::NeedMore if !at_end && window.len() < SEARCH_HEADER_BYTES => {
                return Found::Undecided(at)
            }
            Head::NeedMore | Head::Invalid(..) => {}
        }
    }
    Found::None
}

/// Stray bytes tolerated between a block and the next record (writers that
/// count `Content-Length` a little short; warcio accepts these files too).
const TRAILER_SLACK: usize = 32;

/// How the bytes after a record's claimed block look.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// Line endings, then the next `WARC/` line or the end of the data: the
    /// record ends at `.0`.
    Clean(usize),
    /// A full trailer (two line ends) followed by something that is not a
    /// record (junk, reported by the next read), or a few stray bytes before
    /// the next `WARC/` line: the record ends at `.0` if its block holds no
    /// record start (a record cut short whose claimed length ran on).
    Suspect(usize),
    /// No record boundary here: the `Content-Length` is wrong.
    Bad,
    /// Cannot tell until more bytes arrive.
    NeedMore,
}

/// Where the record whose block ends at `block_end` ends (`at_end`: no
/// more bytes will follow `data`).
fn record_end(data: &[u8], block_end: usize, at_end: bool) -> End {
    let after = data.get(block_end..).unwrap_or_default();
    let skip = line_endings(after);
    let rest = after.get(skip..).unwrap_or_default();
    if rest.is_empty() {
        return if at_end {
            End::Clean(data.len())
        } else {
            End::NeedMore
        };
    }
    if rest.starts_with(b"WARC/") {
        return End::Clean(block_end + skip);
    }
    if b"WARC/".starts_with(rest) && !at_end {
        return End::NeedMore;
    }
    let trailer = after.get(..skip).unwrap_or_default();
    if memchr::memchr_iter(b'\n', trailer).nth(1).is_some() {
        return End::Suspect(block_end + skip);
    }
    let window = after.get(..TRAILER_SLACK + 6).unwrap_or(after);
    match memmem::find(window, b"\nWARC/") {
        Some(i) => End::Suspect(block_end + i + 1),
        None if window.len() < TRAILER_SLACK + 6 && !at_end => End::NeedMore,
        None => End::Bad,
    }
}

/// The end of a problem's detail saying where reading resumed.
fn resumed(skipped: u64, at: Option<u64>) -> String {
    match at {
        Some(at) => format!("skipped {skipped} bytes to the next record, at offset {at}"),
        None => format!("skipped {skipped} bytes to the end of the input; no record follows"),
    }
}

/// The uncompressed path: parse the record at `*pos` straight out of the map.
fn next_in_slice(data: &[u8], pos: &mut usize, max_record_bytes: u64) -> Outcome {
    let start = *pos + line_endings(data.get(*pos..).unwrap_or_default());
    let rest = data.get(start..).unwrap_or_default();
    if rest.is_empty() {
        *pos = data.len();
        return Outcome::End;
    }
    // Resumes at the next record starting at or after `from`; says where.
    let resync = |pos: &mut usize, from: usize| {
        let next = match find_record(data, from, data.len(), true) {
            Found::At(next) => Some(next),
            Found::Undecided(_) | Found::None => None,
        };
        *pos = next.unwrap_or(data.len());
        resumed((*pos - start) as u64, next.map(|n| n as u64))
    };
    let problem = |kind, detail| Outcome::Problem {
        offset: start as u64,
        kind,
        detail,
    };
    match parse_head(rest) {
        Head::NeedMore => {
            *pos = data.len();
            problem(
                ProblemKind::Truncated,
                "the file ends inside a WARC header".into(),
            )
        }
        Head::Invalid(kind, detail) => {
            let resumed = resync(pos, start + 1);
            problem(kind, format!("{detail}; {resumed}"))
        }
        Head::Complete(layout) => {
            let content_length = layout.content_length;
            let block_start = start + layout.block_start;
            let available = data.len() - block_start;
            let claimed_end = usize::try_from(content_length).map_or(data.len(), |n| {
                block_start.saturating_add(n).min(data.len())
            });
            let oversized = content_length > max_record_bytes;
            // A record start inside a block too big to read, or inside a
            // block whose end is no clean boundary: the Content-Length lies.
            let bad = |pos: &mut usize, why: &str| {
                let resumed = resync(pos, block_start);
                problem(
                    ProblemKind::BadContentLength,
                    format!("Content-Length {content_length} {why}; {resumed}"),
                )
            };
            if oversized {
                if let Found::At(_) = find_record(data, block_start, claimed_end, true) {
                    return bad(
                        pos,
                        "is over the cap and another record starts inside its block",
                    );
                }
            }
            if content_length > available as u64 {
                if let Found::At(_) = find_record(data, block_start, data.len(), true) {
                    return bad(pos, "runs past the end of the input");
                }
                *pos = data.len();
                return problem(
                    ProblemKind::Truncated,
                    format!(
                        "the input ends {available} bytes into a block of {content_length} bytes"
                    ),
                );
            }
            let end = match record_end(data, claimed_end, true) {
                End::Clean(end) => end,
                End::Suspect(end) if oversized => end,
                End::Suspect(end) => match find_record(data, block_start, claimed_end, true) {
                    Found::At(_) => return bad(pos, "runs over the start of another record"),
                    Found::Undecided(_) | Found::None => end,
                },
                End::Bad | End::NeedMore => return bad(pos, "does not end at a record boundary"),
            };
            *pos = end;
            Outcome::Record(layout.span(start, !oversized, end))
        }
    }
}

/// A source of decompressed WARC bytes for the buffered engine.
trait Source {
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
}

/// A boundary in the buffer: the byte at `pos` came from input offset
/// `offset` (plain input), or starts the gzip member at `offset`; `inside`:
/// the member started before `pos` (its first bytes were dropped).
#[derive(Debug, Clone, Copy)]
struct Mark {
    pos: usize,
    offset: u64,
    inside: bool,
}

/// A damaged stretch of the input, already skipped by the source.
#[derive(Debug)]
struct FillError {
    offset: u64,
    kind: ProblemKind,
    detail: String,
}

impl FillError {
    fn io(offset: u64, e: std::io::Error) -> Self {
        FillError {
            offset,
            kind: ProblemKind::Io,
            detail: format!("read failed: {e}"),
        }
    }
}

/// Bytes of the map read past before they are handed back to the kernel.
const RELEASE_EVERY: usize = 1 << 20;
/// Bytes just behind the reading position that stay mapped.
const KEEP_MAPPED: usize = 256 << 10;

/// Hands the map's pages in `released..pos` back to the kernel once they are
/// [`RELEASE_EVERY`] bytes or more, so that the process's resident memory
/// does not grow with the file (the pages of a mapped file stay resident
/// once read, even with `Advice::Sequential`). Reading them again is still
/// correct: the map is a read-only shared file map, so a released page is
/// read back from the file (page cache) on its next access.
fn release_behind(map: &memmap2::Mmap, released: &mut usize, pos: usize) {
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
fn release_range(map: &memmap2::Mmap, from: usize, to: usize) {
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
struct MapBytes(Arc<memmap2::Mmap>, usize, usize, usize);

impl MapBytes {
    fn new(map: Arc<memmap2::Mmap>, pos: usize) -> Self {
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

struct PlainSource<R> {
    input: R,
    position: u64,
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

/// The buffered engine: decompressed bytes in one reusable buffer.
struct Buffered {
    source: Box<dyn Source + Send>,
    buf: Vec<u8>,
    /// Where the next record starts in `buf`.
    start: usize,
    marks: Vec<Mark>,
    eof: bool,
    /// Problems met while handling another one, reported next.
    pending: VecDeque<Outcome>,
}

impl Buffered {
    fn new(source: Box<dyn Source + Send>) -> Self {
        Buffered {
            source,
            buf: Vec::new(),
            start: 0,
            marks: Vec::new(),
            eof: false,
            pending: VecDeque::new(),
        }
    }

    /// Drops consumed bytes from the front of the buffer.
    fn compact(&mut self) {
        let start = self.start.min(self.buf.len());
        if start == 0 {
            return;
        }
        self.buf.drain(..start);
        self.start = 0;
        // Keep the last mark at or before the new start (it still describes it).
        let keep_from = self.marks.iter().rposition(|m| m.pos <= start).unwrap_or(0);
        self.marks.drain(..keep_from);
        let linear = self.source.linear();
        for mark in &mut self.marks {
            if mark.pos < start {
                // The mark's byte is gone; the new first byte lies inside its stretch.
                if linear {
                    mark.offset += (start - mark.pos) as u64;
                } else {
                    mark.inside = true;
                }
            }
            mark.pos = mark.pos.saturating_sub(start);
        }
    }

    /// Appends more bytes; `Ok(false)` when the input is exhausted.
    fn more(&mut self, want: usize) -> Result<bool, FillError> {
        if self.eof {
            return Ok(false);
        }
        let got = self.source.fill(&mut self.buf, want, &mut self.marks)?;
        if !got {
            self.eof = true;
        }
        Ok(got)
    }

    /// Input offset of buffer position `pos`, and whether it is exact.
    fn offset_of(&self, pos: usize) -> (u64, bool) {
        if pos >= self.buf.len() && self.source.at_boundary() {
            return (self.source.position(), true);
        }
        match self.marks.iter().rev().find(|m| m.pos <= pos) {
            Some(m) if self.source.linear() => (m.offset + (pos - m.pos) as u64, true),
            Some(m) => (m.offset, m.pos == pos && !m.inside),
            None => (self.source.position(), false),
        }
    }

    fn input_range(&self, span: &Span) -> (u64, Option<u64>) {
        let (offset, exact_start) = self.offset_of(span.start);
        let (end, exact_end) = self.offset_of(span.end);
        let length = (exact_start && exact_end).then(|| end.saturating_sub(offset));
        (offset, length)
    }

    fn problem(&self, pos: usize, kind: ProblemKind, detail: String) -> Outcome {
        Outcome::Problem {
            offset: self.offset_of(pos).0,
            kind,
            detail,
        }
    }

    fn next(&mut self, max_record_bytes: u64) -> Outcome {
        if let Some(problem) = self.pending.pop_front() {
            return problem;
        }
        self.compact();
        loop {
            let skip = line_endings(self.buf.get(self.start..).unwrap_or_default());
            self.start += skip;
            if self.start < self.buf.len() {
                break;
            }
            match self.more(FILL_CHUNK) {
                Ok(true) => continue,
                Ok(false) => return Outcome::End,
                Err(e) => return self.fill_failed(e),
            }
        }
        loop {
            let rest = self.buf.get(self.start..).unwrap_or_default();
            match parse_head(rest) {
                Head::NeedMore => match self.more(FILL_CHUNK) {
                    Ok(true) => {}
                    Ok(false) => {
                        let at = self.start;
                        self.start = self.buf.len();
                        return self.problem(
                            at,
                            ProblemKind::Truncated,
                            "the input ends inside a WARC header".into(),
                        );
                    }
                    Err(e) => return self.fill_failed(e),
                },
                Head::Invalid(kind, detail) => {
                    let at = self.start;
                    let offset = self.offset_of(at).0;
                    let resumed = self.resync(at, at + 1);
                    return self.unless_member_damaged(Outcome::Problem {
                        offset,
                        kind,
                        detail: format!("{detail}; {resumed}"),
                    });
                }
                Head::Complete(layout) => return self.finish_record(max_record_bytes, layout),
            }
        }
    }

    /// The first gzip member starting inside `start + 1..until` (a record's
    /// claimed extent) with a record start: in the one-record-per-member
    /// layout a member end is a record end, so such a record's
    /// `Content-Length` lies.
    fn member_record_inside(&self, start: usize, until: usize) -> Option<usize> {
        if self.source.linear() {
            return None;
        }
        let until = until.min(self.buf.len());
        self.marks
            .iter()
            .filter(|m| !m.inside && m.pos > start && m.pos < until)
            .map(|m| m.pos)
            .find(|&pos| {
                let member = self.buf.get(pos..).unwrap_or_default();
                version_prefix(member) == Some(true)
                    && !matches!(parse_head(member), Head::Invalid(..))
            })
    }

    /// Reports the record at `start` as having a wrong `Content-Length` and
    /// resumes at the next record found from `from` on.
    fn bad_length(&mut self, start: usize, from: usize, content_length: u64, why: &str) -> Outcome {
        let offset = self.offset_of(start).0;
        let resumed = self.resync(start, from);
        self.unless_member_damaged(Outcome::Problem {
            offset,
            kind: ProblemKind::BadContentLength,
            detail: format!("Content-Length {content_length} {why}; {resumed}"),
        })
    }

    /// `problem`, found in a record at some offset, or instead the damage
    /// of the gzip member holding that record when `resync` ran into it
    /// (the source reports a corrupt or cut member at the member's start,
    /// the offset a record inside it is reported at). That record's bytes
    /// were then the member's unchecked output (zlib checks the CRC only
    /// at the member's end), and the damage is the one problem to report:
    /// how much of a damaged member a reader had inflated before the
    /// damage showed depends on its read sizes, so the record problem came
    /// from some readers (a stream) and not others (the map).
    fn unless_member_damaged(&mut self, problem: Outcome) -> Outcome {
        let Outcome::Problem { offset, .. } = problem else {
            return problem;
        };
        if self.source.linear() {
            return problem;
        }
        let damage = self.pending.iter().position(|p| match p {
            Outcome::Problem {
                offset: at, kind, ..
            } => *at == offset && matches!(kind, ProblemKind::CorruptGzip | ProblemKind::Truncated),
            _ => false,
        });
        match damage.and_then(|i| self.pending.remove(i)) {
            Some(damage) => damage,
            None => problem,
        }
    }

    /// Reads the block and trailer of a record whose header is complete.
    fn finish_record(&mut self, max_record_bytes: u64, layout: Layout) -> Outcome {
        let content_length = layout.content_length;
        let start = self.start;
        let block_start = start + layout.block_start;
        let oversized = content_length > max_record_bytes;
        let block_end = if oversized {
            match self.skip_block(layout) {
                Ok(()) => block_start,
                Err(outcome) => return outcome,
            }
        } else {
            let block_end =
                block_start.saturating_add(usize::try_from(content_length).unwrap_or(usize::MAX));
            loop {
                if let Some(next) = self.member_record_inside(start, block_end) {
                    return self.bad_length(
                        start,
                        next,
                        content_length,
                        "runs past the end of its gzip member into another record",
                    );
                }
                if self.buf.len() >= block_end {
                    break;
                }
                match self.more(block_end - self.buf.len()) {
                    Ok(true) => {}
                    Ok(false) => {
                        if let Found::At(_) =
                            find_record(&self.buf, block_start, self.buf.len(), true)
                        {
                            return self.bad_length(
                                start,
                                block_start,
                                content_length,
                                "runs past the end of the input",
                            );
                        }
                        let outcome = self.problem(
                            start,
                            ProblemKind::Truncated,
                            format!(
                                "the input ends {} bytes into a block of {content_length} bytes",
                                self.buf.len() - block_start
                            ),
                        );
                        self.start = self.buf.len();
                        return outcome;
                    }
                    Err(e) => return self.fill_failed(e),
                }
            }
            block_end
        };
        // The trailer: line endings, then the next record, a member end, or the end.
        let mut cut = false;
        let end = loop {
            let after = self.buf.get(block_end..).unwrap_or_default();
            let at_end = self.eof
                || cut
                || (self.source.at_boundary() && line_endings(after) == after.len());
            match record_end(&self.buf, block_end, at_end) {
                End::Clean(end) => break end,
                End::Suspect(end) => match find_record(&self.buf, block_start, block_end, true) {
                    Found::At(_) => {
                        return self.bad_length(
                            start,
                            block_start,
                            content_length,
                            "runs over the start of another record",
                        )
                    }
                    Found::Undecided(_) | Found::None => break end,
                },
                End::Bad => {
                    return self.bad_length(
                        start,
                        block_start,
                        content_length,
                        "does not end at a record boundary",
                    )
                }
                End::NeedMore => {
                    if let Err(e) = self.more(FILL_CHUNK) {
                        // The input breaks off here: judge the record by
                        // what arrived, report the break next.
                        let problem = self.fill_problem(e);
                        self.pending.push_back(problem);
                        cut = true;
                    }
                }
            }
        };
        self.start = end;
        Outcome::Record(layout.span(start, !oversized, end))
    }

    /// Drops the block of a record over the cap as it arrives, without
    /// buffering it, while looking for a record start inside it (a
    /// `Content-Length` far too large must not swallow the records after
    /// it). `Err`: the outcome for the record (a lie or a cut).
    fn skip_block(&mut self, layout: Layout) -> Result<(), Outcome> {
        let content_length = layout.content_length;
        let start = self.start;
        let block_start = start + layout.block_start;
        // Block bytes not dropped yet (buffered or still to come).
        let mut remaining = content_length;
        loop {
            let have = (self.buf.len() - block_start) as u64;
            let in_block = block_start + have.min(remaining) as usize;
            match find_record(&self.buf, block_start, in_block, self.eof) {
                Found::At(_) => {
                    return Err(self.bad_length(
                        start,
                        block_start,
                        content_length,
                        "is over the cap and another record starts inside its block",
                    ))
                }
                Found::Undecided(at) => {
                    remaining -= (at - block_start) as u64;
                    self.drop_bytes(block_start, at - block_start);
                }
                Found::None if have >= remaining => {
                    self.drop_bytes(block_start, remaining as usize);
                    return Ok(());
                }
                Found::None => {
                    // Keep a tail where a `WARC/` may begin.
                    let drop = (in_block - block_start).saturating_sub(4);
                    remaining -= drop as u64;
                    self.drop_bytes(block_start, drop);
                }
            }
            // The buffer may hold bytes past the block (a candidate whose
            // header runs on past it).
            let want = remaining
                .saturating_sub((self.buf.len() - block_start) as u64)
                .clamp(1, FILL_CHUNK as u64);
            match self.more(want as usize) {
                Ok(true) => {}
                Ok(false) => {
                    let have = (self.buf.len() - block_start) as u64;
                    if have >= remaining
                        || matches!(
                            find_record(&self.buf, block_start, self.buf.len(), true),
                            Found::At(_)
                        )
                    {
                        continue;
                    }
                    let outcome = self.problem(
                        start,
                        ProblemKind::Truncated,
                        format!("the input ends inside a block of {content_length} bytes"),
                    );
                    self.start = self.buf.len();
                    return Err(outcome);
                }
                Err(e) => return Err(self.fill_failed(e)),
            }
        }
    }

    /// Removes `len` buffered bytes at `at`, keeping the marks describing the rest.
    fn drop_bytes(&mut self, at: usize, len: usize) {
        if len == 0 {
            return;
        }
        // In a linear source, the bytes after the drop keep their offsets
        // only if a mark says where they are: an earlier mark would place
        // them `len` bytes too early.
        let kept = self.source.linear().then(|| self.offset_of(at + len).0);
        self.buf.drain(at..at + len);
        for mark in &mut self.marks {
            if mark.pos >= at + len {
                mark.pos -= len;
            } else if mark.pos > at {
                // The mark's byte is gone: describe the first byte kept after it.
                mark.offset += (at + len - mark.pos) as u64;
                mark.pos = at;
                mark.inside = true;
            }
        }
        if let Some(offset) = kept {
            if !self.marks.iter().any(|m| m.pos == at) {
                let i = self.marks.partition_point(|m| m.pos < at);
                self.marks.insert(
                    i,
                    Mark {
                        pos: at,
                        offset,
                        inside: false,
                    },
                );
            }
        }
    }

    fn fill_problem(&self, e: FillError) -> Outcome {
        Outcome::Problem {
            offset: e.offset,
            kind: e.kind,
            detail: e.detail,
        }
    }

    /// A source error: whatever was buffered for the current record is lost.
    fn fill_failed(&mut self, e: FillError) -> Outcome {
        self.buf.truncate(self.start);
        self.fill_problem(e)
    }

    /// Moves to the next record starting at or after `from`, reading (and
    /// discarding) input until one appears; a source error on the way is
    /// reported after the current problem. Says how many bytes from `start`
    /// on were skipped.
    fn resync(&mut self, start: usize, from: usize) -> String {
        let mut start = start;
        let mut search = from;
        let mut dropped = 0u64;
        loop {
            let keep = match find_record(&self.buf, search, self.buf.len(), self.eof) {
                Found::At(next) => {
                    self.start = next;
                    let skipped = dropped + (next - start) as u64;
                    return resumed(skipped, Some(self.offset_of(next).0));
                }
                Found::Undecided(at) => at,
                // Keep a tail where a `WARC/` may begin.
                Found::None => self.buf.len().saturating_sub(4).max(search),
            };
            if self.eof {
                let skipped = dropped + (self.buf.len() - start) as u64;
                self.start = self.buf.len();
                return resumed(skipped, None);
            }
            // Drop what was searched; the buffer then starts at `keep`.
            dropped += (keep - start) as u64;
            self.start = keep;
            self.compact();
            start = 0;
            search = 0;
            if let Err(e) = self.more(FILL_CHUNK) {
                let problem = self.fill_problem(e);
                self.pending.push_back(problem);
            }
        }
    }
}

#[cfg(test)]
mod tests;
