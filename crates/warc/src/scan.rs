//! Finding and checking one record in a slice of WARC bytes: the header,
//! the block's end, the search for the next record after damage.

use super::*;

/// Where a parsed record lies in the data it was parsed from.
#[derive(Debug)]
pub(super) struct Span {
    /// Start of the `WARC/` line.
    pub(super) start: usize,
    /// End of the version line (exclusive, without line ending).
    pub(super) version_end: usize,
    /// Start of the first header line.
    pub(super) headers_start: usize,
    /// End of the header block (start of the blank line).
    pub(super) headers_end: usize,
    /// The block (empty range for an oversized record).
    pub(super) block: std::ops::Range<usize>,
    pub(super) content_length: u64,
    /// After the record's trailing line endings.
    pub(super) end: usize,
}

impl Span {
    pub(super) fn record(
        self,
        data: &[u8],
        number: u64,
        offset: u64,
        length: Option<u64>,
    ) -> Record<'_> {
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

pub(super) enum Outcome {
    Record(Span),
    Problem {
        offset: u64,
        kind: ProblemKind,
        detail: String,
    },
    End,
    /// Nothing to give (a problem that is not reported); read on.
    Quiet,
}

/// Where the parts of a record lie, relative to its `WARC/` line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    pub(super) version_end: usize,
    pub(super) headers_start: usize,
    pub(super) headers_end: usize,
    pub(super) block_start: usize,
    pub(super) content_length: u64,
}

impl Layout {
    /// The span of this record starting at `start` and ending at `end`; the
    /// block is left empty when it was skipped for being over the cap.
    pub(super) fn span(&self, start: usize, keep_block: bool, end: usize) -> Span {
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
pub(super) enum Head {
    /// A complete header: everything up to the block is known.
    Complete(Layout),
    /// More bytes are needed to see the whole header.
    NeedMore,
    Invalid(ProblemKind, String),
}

/// Parses a WARC header at the start of `data` (which starts with `WARC/` or
/// is junk). Accepts CRLF and bare-LF lines.
pub(super) fn parse_head(data: &[u8]) -> Head {
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
pub(super) fn ends_in_version(line: &[u8], from: usize) -> bool {
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

pub(super) fn cut_header() -> Head {
    Head::Invalid(
        ProblemKind::Truncated,
        "the header is cut short: another record's version line starts inside it".into(),
    )
}

pub(super) fn too_long() -> Head {
    Head::Invalid(
        ProblemKind::NotWarc,
        format!("no end of WARC header within {MAX_HEADER_BYTES} bytes"),
    )
}

/// Number of CR/LF bytes at the start of `data`.
pub(super) fn line_endings(data: &[u8]) -> usize {
    data.iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count()
}

/// Largest header a record found by searching may have: real WARC headers
/// are a few KiB; the bound keeps a search through junk linear.
pub(super) const SEARCH_HEADER_BYTES: usize = 64 << 10;

/// Whether `data` starts with a version line's `WARC/1.` or `WARC/0.`;
/// `None`: too few bytes to tell.
pub(super) fn version_prefix(data: &[u8]) -> Option<bool> {
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
pub(super) enum Found {
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
pub(super) fn find_record(data: &[u8], from: usize, until: usize, at_end: bool) -> Found {
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
    // The data may end in the first bytes of a `WARC/` (a stream handed
    // out a member's output up to the block's end): the bytes to come
    // decide, as they would for a reader that already has them.
    if !at_end && from + hay.len() == data.len() {
        for k in (1..b"WARC/".len()).rev() {
            let at = data.len().saturating_sub(k);
            if at >= from && at < until && hay.ends_with(&b"WARC/"[..k]) {
                return Found::Undecided(at);
            }
        }
    }
    Found::None
}

/// Stray bytes tolerated between a block and the next record (writers that
/// count `Content-Length` a little short; warcio accepts these files too).
pub(super) const TRAILER_SLACK: usize = 32;

/// How the bytes after a record's claimed block look.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum End {
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
pub(super) fn record_end(data: &[u8], block_end: usize, at_end: bool) -> End {
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
pub(super) fn resumed(skipped: u64, at: Option<u64>) -> String {
    match at {
        Some(at) => format!("skipped {skipped} bytes to the next record, at offset {at}"),
        None => format!("skipped {skipped} bytes to the end of the input; no record follows"),
    }
}

/// Bytes [`find_record_releasing`] searches before handing them back.
const SEARCH_CHUNK: usize = 8 << 20;

/// [`find_record`] to the end of the data (`at_end`), a chunk at a time,
/// handing each chunk searched back with `release`: a block over the cap
/// or a damaged stretch of any size is searched without staying resident.
pub(super) fn find_record_releasing(
    data: &[u8],
    from: usize,
    until: usize,
    release: &dyn Fn(usize, usize),
) -> Found {
    let until = until.min(data.len());
    let mut at = from;
    while at < until {
        let to = until.min(at.saturating_add(SEARCH_CHUNK));
        match find_record(data, at, to, true) {
            Found::None => {}
            found => return found,
        }
        release(at, to);
        at = to;
    }
    Found::None
}

/// The uncompressed path: parse the record at `*pos` straight out of the
/// map; `release` hands back pages of the map searched past.
pub(super) fn next_in_slice(
    data: &[u8],
    pos: &mut usize,
    max_record_bytes: u64,
    release: &dyn Fn(usize, usize),
) -> Outcome {
    let start = *pos + line_endings(data.get(*pos..).unwrap_or_default());
    let rest = data.get(start..).unwrap_or_default();
    if rest.is_empty() {
        *pos = data.len();
        return Outcome::End;
    }
    // Resumes at the next record starting at or after `from`; says where.
    let resync = |pos: &mut usize, from: usize| {
        let next = match find_record_releasing(data, from, data.len(), release) {
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
                // Searched without being kept: never paged in as a whole.
                if let Found::At(_) = find_record_releasing(data, block_start, claimed_end, release)
                {
                    return bad(
                        pos,
                        "is over the cap and another record starts inside its block",
                    );
                }
            }
            if content_length > available as u64 {
                if let Found::At(_) = find_record_releasing(data, block_start, data.len(), release)
                {
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
