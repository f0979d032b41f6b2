//! A streaming WARC reader of our own (WARC/1.0, 1.1, 0.18; CRLF or bare-LF
//! header lines) over a memory map.
//!
//! - `.warc`: records are slices of the map; nothing is copied.
//! - `.warc.gz` (one gzip member per record, the Common Crawl layout, or a
//!   single gzip stream): members are inflated into one reusable buffer,
//!   whole by libdeflate when the file is mapped (feature `libdeflate`),
//!   else streamed by flate2's low-level [`flate2::Decompress`]; each record
//!   knows the compressed offset and length of its member(s).
//! - `.warc.zst` and `.warc.lz4` (one frame per record, as FastWARC and
//!   the IIPC `.warc.zst` proposal write them, or one frame for all):
//!   frames decoded one at a time into the same buffer as gzip members,
//!   each record knowing the offset and length of its frame; a zstd
//!   dictionary in a leading skippable frame is loaded first. A big file
//!   of many members or frames may be decompressed by several threads
//!   ([`Split`]), with the same records, offsets and problems.
//! - any byte stream ([`WarcReader::from_stream`]: stdin, a download, a
//!   caller's reader), plain or compressed, through the same buffer; the
//!   caller decides where the bytes come from.
//!
//! The compression is told by the first bytes, never by the file's name.
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
//!
//! ```
//! use crawlsift_warc::ReaderBuilder;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data-samples/resiliparse_warcfile.warc.gz");
//! let mut reader = ReaderBuilder::new().max_record_bytes(1 << 20).open(path.as_ref())?;
//! let (mut responses, mut problems) = (0, 0);
//! while let Some(item) = reader.next() {
//!     match item {
//!         Ok(record) if record.headers.warc_type().as_deref() == Some("response") => {
//!             assert!(record.block.starts_with(b"HTTP/"));
//!             responses += 1;
//!         }
//!         Ok(_) => {}
//!         Err(problem) => {
//!             eprintln!("{problem}"); // file, offset, record number; reading goes on
//!             problems += 1;
//!         }
//!     }
//! }
//! assert_eq!((responses, problems), (16, 0));
//! # Ok::<(), crawlsift_warc::OpenError>(())
//! ```

#![warn(missing_docs)]

mod buffered;
mod frames;
mod gz;
mod headers;
mod mapped;
mod scan;
mod source;
mod split;
#[cfg(feature = "libdeflate")]
mod whole;

pub use headers::Headers;
pub use split::Split;

use buffered::*;
use gz::GzSource;
use mapped::Map;
use memchr::memmem;
use scan::*;
use source::*;
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
    /// The header lines between the version line and the blank line.
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
    /// A zstd or LZ4 frame could not be decoded.
    CorruptFrame,
    /// Reading the input failed.
    Io,
}

impl ProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: [ProblemKind; 6] = [
        ProblemKind::NotWarc,
        ProblemKind::BadContentLength,
        ProblemKind::Truncated,
        ProblemKind::CorruptGzip,
        ProblemKind::CorruptFrame,
        ProblemKind::Io,
    ];

    /// Short machine-readable reason used in statistics.
    pub fn reason(&self) -> &'static str {
        match self {
            ProblemKind::NotWarc => "not_warc",
            ProblemKind::BadContentLength => "bad_content_length",
            ProblemKind::Truncated => "truncated",
            ProblemKind::CorruptGzip => "corrupt_gzip",
            ProblemKind::CorruptFrame => "corrupt_frame",
            ProblemKind::Io => "io_error",
        }
    }
}

/// A damaged stretch of a WARC file; the reader has already skipped past it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: record {number} at byte offset {offset}: {detail}")]
pub struct Problem {
    /// The input's name, as given to the reader.
    pub file: String,
    /// 1-based position of the problem in its file (records count too).
    pub number: u64,
    /// Byte offset in the input file where the damage starts. For gzip
    /// input: of the gzip member it starts in.
    pub offset: u64,
    /// What went wrong.
    pub kind: ProblemKind,
    /// A human-readable description of the damage.
    pub detail: String,
}

/// The endings of the names of WARC files the readers take, one per
/// compression (told apart by their first bytes, not by these names): a
/// directory input stands for its files so named.
pub const WARC_FILE_SUFFIXES: [&str; 4] = [".warc", ".warc.gz", ".warc.zst", ".warc.lz4"];

/// The default record cap: a record whose block is larger is returned
/// [`Record::oversized`], its block skipped without being buffered. It
/// bounds the memory a reader holds per record.
pub const DEFAULT_MAX_RECORD_BYTES: u64 = 16 << 20;

/// Opens [`WarcReader`]s with options other than the defaults.
#[derive(Debug, Clone, Copy)]
pub struct ReaderBuilder {
    max_record_bytes: u64,
    split: Split,
}

impl Default for ReaderBuilder {
    fn default() -> Self {
        ReaderBuilder {
            max_record_bytes: DEFAULT_MAX_RECORD_BYTES,
            split: Split::new(1),
        }
    }
}

impl ReaderBuilder {
    /// The defaults: records up to [`DEFAULT_MAX_RECORD_BYTES`], one
    /// inflating thread.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records whose block is larger than `bytes` are returned
    /// [`Record::oversized`] with an empty block (default
    /// [`DEFAULT_MAX_RECORD_BYTES`]).
    pub fn max_record_bytes(&mut self, bytes: u64) -> &mut Self {
        self.max_record_bytes = bytes;
        self
    }

    /// How a big `.warc.gz` of many members, or `.warc.zst`/`.warc.lz4` of
    /// many frames, is decompressed by several threads (default
    /// [`Split::new`]`(1)`: sequentially); the records, offsets and problems
    /// are the same.
    pub fn split(&mut self, split: Split) -> &mut Self {
        self.split = split;
        self
    }

    /// Opens the file at `path` (plain, gzip, zstd or LZ4, detected from its
    /// first bytes).
    pub fn open(&self, path: &Path) -> Result<WarcReader, OpenError> {
        WarcReader::open_split(path, self.max_record_bytes, self.split)
    }

    /// Reads the byte stream `input` (plain, gzip, zstd or LZ4); `name`
    /// labels its problems.
    pub fn from_stream<R: BufRead + Send + 'static>(
        &self,
        name: String,
        input: R,
    ) -> std::io::Result<WarcReader> {
        WarcReader::from_stream(name, input, self.max_record_bytes)
    }
}

/// An input that cannot be read at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {file}: {source}")]
pub struct OpenError {
    /// The path, as displayed.
    pub file: String,
    /// Why: the I/O error, or the unsupported compression.
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
    /// The memory map behind the engine, watched for its file being cut short.
    mapped: Option<Arc<Map>>,
}

enum Engine {
    /// Uncompressed file: records are slices of the map.
    Map {
        map: Arc<Map>,
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
    /// Opens a file; plain, gzip, zstd or LZ4 is detected from the first bytes.
    /// Records whose block exceeds `max_record_bytes` are returned
    /// [`Record::oversized`] with an empty block.
    pub fn open(path: &Path, max_record_bytes: u64) -> Result<WarcReader, OpenError> {
        Self::open_split(path, max_record_bytes, Split::new(1))
    }

    /// Like [`WarcReader::open`], but a big `.warc.gz` of many members, or
    /// `.warc.zst`/`.warc.lz4` of many frames, is decompressed by
    /// `split.threads` threads (see [`Split`]); the records, offsets and
    /// problems are the same.
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
        let meta = file.metadata().map_err(err)?;
        if !meta.is_file() {
            // A FIFO, a pipe (`/dev/fd/N`, `/dev/stdin`), a character
            // device: its size says nothing; read it once, to its end.
            return Self::read_file(name, file, max_record_bytes, None);
        }
        let len = meta.len();
        if len == 0 {
            return Ok(Self::with_engine(
                name,
                Engine::Empty,
                max_record_bytes,
                Some(0),
            ));
        }
        let Some(map) = Map::open(&file).map_err(err)? else {
            // No guard left for another map: read() is safe whatever
            // happens to the file.
            return Self::read_file(name, file, max_record_bytes, Some(len));
        };
        let map = Arc::new(map);
        #[cfg(unix)]
        {
            // Read ahead, and let the kernel drop pages we have passed.
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        check_compression(&map).map_err(err)?;
        let engine = match Compression::sniff(&map) {
            Compression::Gzip => {
                let source: Box<dyn Source + Send> =
                    match split::SplitSource::new(Arc::clone(&map), split, || split::Gzip) {
                        Some(split) => Box::new(split),
                        None => Box::new(GzSource::new(MapBytes::new(Arc::clone(&map), 0))),
                    };
                Engine::Buffered(Buffered::new(source))
            }
            Compression::Frames(format) => {
                let source: Box<dyn Source + Send> =
                    match split::SplitSource::new(Arc::clone(&map), split, || {
                        split::Frames::new(format, &map)
                    }) {
                        Some(split) => Box::new(split),
                        None => Box::new(
                            frames::FrameSource::new(format, MapBytes::new(Arc::clone(&map), 0))
                                .map_err(err)?,
                        ),
                    };
                Engine::Buffered(Buffered::new(source))
            }
            Compression::None => Engine::Map {
                map: Arc::clone(&map),
                pos: 0,
                released: 0,
            },
        };
        let mut reader = Self::with_engine(name, engine, max_record_bytes, Some(len));
        reader.mapped = Some(map);
        Ok(reader)
    }

    /// Reads the open `file` with `read()`, as a stream of `len` bytes if known.
    fn read_file(
        name: String,
        file: File,
        max_record_bytes: u64,
        len: Option<u64>,
    ) -> Result<WarcReader, OpenError> {
        let err = |source| OpenError {
            file: name.clone(),
            source,
        };
        let mut input = std::io::BufReader::with_capacity(FILL_CHUNK, file);
        check_compression(input.fill_buf().map_err(err)?).map_err(err)?;
        let reader = Self::from_stream(name.clone(), input, max_record_bytes).map_err(err)?;
        Ok(reader.with_total_bytes(len))
    }

    /// Reads from any byte stream (plain, gzip, zstd or LZ4). `name`
    /// labels problems.
    pub fn from_stream<R: BufRead + Send + 'static>(
        name: String,
        mut input: R,
        max_record_bytes: u64,
    ) -> std::io::Result<WarcReader> {
        // The compression is decided by the first four bytes, as for a
        // file; a stream may hand them out one read at a time, so they are
        // taken out and put back in front of the rest.
        const HEAD: usize = 4;
        let mut head = Vec::with_capacity(HEAD);
        while head.len() < HEAD {
            let chunk = match input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min(HEAD - head.len());
            head.extend_from_slice(chunk.get(..n).unwrap_or(chunk));
            input.consume(n);
        }
        check_compression(&head)?;
        let compression = Compression::sniff(&head);
        let input = std::io::Cursor::new(head).chain(input);
        let source: Box<dyn Source + Send> = match compression {
            Compression::Gzip => Box::new(GzSource::new(gz::Rewind::new(input))),
            Compression::Frames(format) => {
                Box::new(frames::FrameSource::new(format, gz::Rewind::new(input))?)
            }
            Compression::None => Box::new(PlainSource { input, position: 0 }),
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
            mapped: None,
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
                let map: &Map = map;
                next_in_slice(map, pos, self.max_record_bytes, &|from, to| {
                    release_range(map, from, to)
                })
            }
            Engine::Buffered(b) => b.next(self.max_record_bytes),
        };
        self.number += 1;
        let number = self.number;
        if let Some(map) = self.mapped.as_ref().filter(|map| map.faulted()) {
            // What was just read may be zeros standing in for lost pages.
            let detail = format!(
                "the file was cut short while being read (another program truncated it; it had {} bytes when opened); the rest of it was not read",
                map.len()
            );
            let offset = self.position();
            self.engine = Engine::Empty;
            self.mapped = None;
            return Some(Err(Problem {
                file: self.name.clone(),
                number,
                offset,
                kind: ProblemKind::Io,
                detail,
            }));
        }
        match outcome {
            Outcome::End | Outcome::Quiet => {
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

/// How an input is compressed, told by its first bytes (never by its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    /// zstd or LZ4 frames.
    Frames(frames::Format),
}

impl Compression {
    fn sniff(start: &[u8]) -> Self {
        if start.starts_with(&GZIP_MAGIC) {
            Compression::Gzip
        } else if start.starts_with(&frames::ZSTD_MAGIC) {
            Compression::Frames(frames::Format::Zstd)
        } else if start.starts_with(&frames::LZ4_MAGIC) {
            Compression::Frames(frames::Format::Lz4)
        } else if frames::is_skippable(start) {
            // Both formats have skippable frames (a `.warc.zst` starts with
            // one holding its dictionary): the first frame after it tells,
            // when it is at hand; else zstd, which writes them.
            let after = start
                .get(4..8)
                .and_then(|n| usize::try_from(u32::from_le_bytes(n.try_into().ok()?)).ok())
                .and_then(|n| start.get(8 + n..));
            match after {
                Some(next) if next.starts_with(&frames::LZ4_MAGIC) => {
                    Compression::Frames(frames::Format::Lz4)
                }
                _ => Compression::Frames(frames::Format::Zstd),
            }
        } else {
            Compression::None
        }
    }
}

/// `Err` (`InvalidData`) when `start`, the first bytes of an input, shows a
/// compression this reader recognises by its magic bytes but cannot read
/// (bzip2); the message names it. For a stream, call it before reading.
pub fn check_compression(start: &[u8]) -> std::io::Result<()> {
    let kind = if start.starts_with(b"BZh") {
        "bzip2"
    } else {
        return Ok(());
    };
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("{kind}-compressed WARC files are not supported; decompress it first (it can then be read from a pipe)"),
    ))
}

#[cfg(test)]
mod tests;
