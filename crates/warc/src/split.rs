//! Parallel inflation of one big `.warc.gz`, `.warc.zst` or `.warc.lz4`.
//!
//! One thread inflates ~0.5–1 GB/s, so a single big file would cap a whole
//! job at one core. Common Crawl writes one gzip member per record, and
//! FastWARC and the IIPC `.warc.zst` proposal one zstd or LZ4 frame per
//! record: units that decode on their own. So the file is cut into parts of
//! a few MiB; helper threads each take the next part, find its first unit
//! (a member or frame header at or after the part's start that decodes,
//! checks intact, to bytes starting with `WARC/`) and decode the units that
//! start before the next part does. The reader replays the parts in order,
//! so it sees the bytes, unit offsets and problems the sequential source
//! ([`GzSource`], [`FrameSource`]) would. What a unit is, and how a part
//! is read, is all a compression tells the splitter ([`Units`]); a
//! `.warc.zst`'s dictionary, in its leading skippable frame, is read once
//! and loaded by every helper.
//!
//! Whenever a part's first unit is not where the previous part stopped (a
//! gap of junk, a corrupt unit, a false magic inside a unit, a
//! single-stream file, frames that do not start at records), the reader
//! decodes that part itself from where the previous one stopped; that keeps
//! the output exact at the price of parallelism for that part only (a file
//! whose units are not records is read by the reader alone, the helpers
//! only searching each part for a unit that starts a record).
//!
//! Memory: at most `2 × threads` parts are out at once, each holding at most
//! [`PART_BATCHES`] batches of about [`BATCH_BYTES`] (plus one unit of at
//! most [`MEMBER_CAP`]); a unit larger than that is left to the reader.

use super::frames::{Dictionary, Format, FrameSource};
use super::gz::GzSource;
use super::{FillError, MapBytes, Mark, Source};
use crate::mapped::Map as Mmap;
use crossbeam_channel::{bounded, Receiver, Sender};
use flate2::{Decompress, FlushDecompress, Status};
use std::collections::VecDeque;
use std::sync::Arc;
use std::thread::JoinHandle;

/// A compression whose files are a sequence of units that decode on their
/// own (gzip members, zstd or LZ4 frames), as the splitter sees it.
pub(super) trait Units: Send + Sync + 'static {
    /// The sequential reader of a part.
    type Part: Part + Send + 'static;
    /// Reads `map` from input offset `from` (a unit start, or where the
    /// previous part stopped) up to the first unit that starts at or after
    /// `limit`, as the sequential reader would read on from `from`;
    /// `resyncing` carries the state of the reader that stopped there.
    fn part(&self, map: &Arc<Mmap>, from: u64, limit: u64, resyncing: bool) -> Self::Part;
    /// Offset of the first unit that starts in `[from, limit)` and decodes,
    /// intact, to bytes starting with `WARC/`.
    fn first_unit(&self, map: &Arc<Mmap>, from: u64, limit: u64) -> Option<u64>;
}

/// A sequential reader of one part.
pub(super) trait Part: Source {
    /// Input offset of the unit being (or last) decoded.
    fn unit_start(&self) -> u64;
    /// Skipping after damage (see the sources).
    fn resyncing(&self) -> bool;
}

/// Gzip members.
pub(super) struct Gzip;

impl Part for GzSource<MapBytes> {
    fn unit_start(&self) -> u64 {
        self.member_start()
    }
    fn resyncing(&self) -> bool {
        GzSource::resyncing(self)
    }
}

impl Units for Gzip {
    type Part = GzSource<MapBytes>;
    fn part(&self, map: &Arc<Mmap>, from: u64, limit: u64, resyncing: bool) -> Self::Part {
        let input = MapBytes::new(Arc::clone(map), from as usize);
        GzSource::part(input, from, limit, resyncing)
    }
    fn first_unit(&self, map: &Arc<Mmap>, from: u64, limit: u64) -> Option<u64> {
        first_member(map, from, limit)
    }
}

/// zstd or LZ4 frames, and the dictionary of a `.warc.zst`.
pub(super) struct Frames {
    format: Format,
    /// The file's dictionary, as the sequential reader loads it.
    dictionary: Option<Arc<[u8]>>,
}

impl Frames {
    /// The frames of `map` in `format`, its dictionary read.
    pub(super) fn new(format: Format, map: &[u8]) -> Frames {
        let dictionary = match format {
            Format::Zstd => super::frames::read_dictionary(map)
                .ok()
                .flatten()
                .map(|(dict, _)| Arc::from(dict)),
            Format::Lz4 => None,
        };
        Frames { format, dictionary }
    }

    fn source(
        &self,
        map: &Arc<Mmap>,
        from: u64,
        limit: u64,
        resyncing: bool,
    ) -> std::io::Result<FrameSource<MapBytes>> {
        // From the file's start, the dictionary is read there (and its
        // problems reported) as the sequential reader does.
        let dictionary = if from == 0 {
            Dictionary::Load
        } else {
            Dictionary::Given(self.dictionary.clone())
        };
        let input = MapBytes::new(Arc::clone(map), from as usize);
        FrameSource::part(self.format, input, from, limit, resyncing, dictionary)
    }
}

impl Part for FrameSource<MapBytes> {
    fn unit_start(&self) -> u64 {
        self.frame_start()
    }
    fn resyncing(&self) -> bool {
        FrameSource::resyncing(self)
    }
}

/// A part whose decoder could not be made (libzstd out of memory): read
/// as the end of the input, after the error.
pub(super) enum FramePart {
    Frames(Box<FrameSource<MapBytes>>),
    Failed {
        error: Option<FillError>,
        position: u64,
    },
}

impl Source for FramePart {
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError> {
        match self {
            FramePart::Frames(source) => source.fill(buf, want, marks),
            FramePart::Failed { error, .. } => match error.take() {
                Some(error) => Err(error),
                None => Ok(false),
            },
        }
    }
    fn position(&self) -> u64 {
        match self {
            FramePart::Frames(source) => source.position(),
            FramePart::Failed { position, .. } => *position,
        }
    }
    fn at_boundary(&self) -> bool {
        match self {
            FramePart::Frames(source) => source.at_boundary(),
            FramePart::Failed { .. } => true,
        }
    }
    fn linear(&self) -> bool {
        false
    }
    fn drain_unreported(&mut self, into: &mut VecDeque<u64>) {
        if let FramePart::Frames(source) = self {
            source.drain_unreported(into);
        }
    }
    fn take_withdrawn(&mut self) -> Option<usize> {
        match self {
            FramePart::Frames(source) => source.take_withdrawn(),
            FramePart::Failed { .. } => None,
        }
    }
    fn removed(&mut self, at: usize, len: usize) {
        if let FramePart::Frames(source) = self {
            source.removed(at, len);
        }
    }
}

impl Part for FramePart {
    fn unit_start(&self) -> u64 {
        match self {
            FramePart::Frames(source) => source.frame_start(),
            FramePart::Failed { position, .. } => *position,
        }
    }
    fn resyncing(&self) -> bool {
        match self {
            FramePart::Frames(source) => source.resyncing(),
            FramePart::Failed { .. } => false,
        }
    }
}

impl Units for Frames {
    type Part = FramePart;
    fn part(&self, map: &Arc<Mmap>, from: u64, limit: u64, resyncing: bool) -> FramePart {
        match self.source(map, from, limit, resyncing) {
            Ok(source) => FramePart::Frames(Box::new(source)),
            Err(e) => FramePart::Failed {
                error: Some(FillError::io(from, e)),
                position: map.len() as u64,
            },
        }
    }

    fn first_unit(&self, map: &Arc<Mmap>, from: u64, limit: u64) -> Option<u64> {
        let data = map.get(from as usize..)?;
        let magic = self.format.magic();
        // A magic starting before `limit` ends at most three bytes after it.
        let headers = data
            .get(..(limit - from) as usize + magic.len() - 1)
            .unwrap_or(data);
        let mut buf = Vec::new();
        let mut marks = Vec::new();
        memchr::memmem::find_iter(headers, &magic)
            .map(|at| from + at as u64)
            .find(|&at| {
                // One frame, decoded whole by the reader a part would use.
                let Ok(mut source) = self.source(map, at, at + 1, false) else {
                    return false;
                };
                let mut head = Vec::with_capacity(5);
                loop {
                    buf.clear();
                    marks.clear();
                    match source.fill(&mut buf, DECODE_CHECK, &mut marks) {
                        Ok(true) => {}
                        // The input ends inside the frame, or it is damaged.
                        Ok(false) | Err(_) => return false,
                    }
                    if head.len() < 5 {
                        head.extend(buf.iter().take(5 - head.len()));
                        if !b"WARC/".starts_with(&head) {
                            return false;
                        }
                    }
                    if source.at_boundary() {
                        return head == b"WARC/" && source.frame_start() == at;
                    }
                }
            })
    }
}

/// Output a frame being checked is decoded in.
const DECODE_CHECK: usize = 64 << 10;

/// A helper ships its inflated members in batches of about this size.
const BATCH_BYTES: usize = 1 << 20;
/// Room allocated per batch: most members fit in the slack, so a batch
/// rarely reallocates.
const BATCH_ROOM: usize = BATCH_BYTES + (256 << 10);
/// Batches a part may have waiting for the reader; bounds memory per part.
const PART_BATCHES: usize = 16;
/// A member inflating to more than this is handed back to the reader.
const MEMBER_CAP: usize = 2 << 20;
/// Largest part by default: small enough that a helper finishes a part
/// without waiting for the reader, large enough that finding the first
/// member (one extra member inflated) costs about 1 %.
const PART_BYTES: u64 = 2 << 20;
/// Files smaller than this are read by one thread by default.
const MIN_FILE_BYTES: u64 = 64 << 20;

/// How a `.warc.gz`, `.warc.zst` or `.warc.lz4` may be decompressed by
/// several threads (when its members or frames are records).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Inflating threads; 1 reads sequentially.
    pub threads: usize,
    /// Smaller files are read sequentially.
    pub min_file_bytes: u64,
    /// Upper bound on the size of a part (input bytes).
    pub max_part_bytes: u64,
}

impl Split {
    /// The defaults for `threads` inflating threads.
    pub fn new(threads: usize) -> Split {
        Split {
            threads,
            min_file_bytes: MIN_FILE_BYTES,
            max_part_bytes: PART_BYTES,
        }
    }

    /// Part boundaries for a file of `len` bytes: part k is `[b[k], b[k+1])`.
    /// `None` when the file is read sequentially.
    fn bounds(&self, len: u64) -> Option<Vec<u64>> {
        if self.threads < 2 || len < self.min_file_bytes {
            return None;
        }
        // At least four parts per thread, so helpers rarely wait on one slow part.
        let part = (len / (4 * self.threads as u64))
            .min(self.max_part_bytes)
            .max(1);
        let bounds: Vec<u64> = (0..len).step_by(part as usize).chain([len]).collect();
        (bounds.len() > 2).then_some(bounds)
    }
}

/// What a helper found in its part, in input order.
#[derive(Debug)]
enum Item {
    /// The first member of the part, or none in its range.
    Start(Option<u64>),
    /// A whole unit: `len` bytes of the batch, up to input offset `end`;
    /// `mark`: the input offset of its start, unless the sequential reader
    /// leaves no mark for it (an empty frame).
    Member {
        mark: Option<u64>,
        len: usize,
        end: u64,
    },
    /// A unit tried after damage failed, unreported, at this offset (see
    /// [`Source::drain_unreported`]).
    Unreported(u64),
    /// What the sequential reader reports here; the input continues at `position`.
    Failed {
        error: FillError,
        position: u64,
        resyncing: bool,
    },
    /// A unit too large to ship: the reader decodes the rest of the part.
    Local { from: u64, resyncing: bool },
    /// The part is done: the next unit would start at `position`.
    Done { position: u64, resyncing: bool },
}

#[derive(Debug, Default)]
struct Batch {
    data: Vec<u8>,
    items: VecDeque<Item>,
}

impl Batch {
    /// A batch reusing a buffer the reader is done with, if any.
    fn new(pool: &Receiver<Vec<u8>>) -> Batch {
        let mut data = pool
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(BATCH_ROOM));
        data.clear();
        Batch {
            data,
            items: VecDeque::new(),
        }
    }
}

/// A part handed to a helper.
struct PartJob {
    start: u64,
    limit: u64,
    /// Part 0 starts at offset 0 whatever is there, like the sequential reader.
    first: bool,
    out: Sender<Batch>,
}

/// What the reader is replaying.
enum Current<P> {
    /// A helper's output for part `part`.
    Remote {
        part: usize,
        batches: Receiver<Batch>,
        batch: Batch,
        /// Read position in `batch.data`.
        at: usize,
    },
    /// Part `part` decoded by the reader itself.
    Local { part: usize, source: Box<P> },
    /// About to open part `.0`.
    Next(usize),
}

/// The reader's side: a [`Source`] fed by the helpers' parts, in order.
pub(super) struct SplitSource<U: Units> {
    map: Arc<Mmap>,
    units: Arc<U>,
    bounds: Vec<u64>,
    /// Parts handed to helpers and not yet opened, in order.
    out: VecDeque<Receiver<Batch>>,
    /// The next part to hand out.
    next_out: usize,
    jobs: Option<Sender<PartJob>>,
    /// Replayed batch buffers going back to the helpers.
    pool: Sender<Vec<u8>>,
    helpers: Vec<JoinHandle<()>>,
    current: Current<U::Part>,
    /// Input offset after the last member replayed (or skipped).
    position: u64,
    resyncing: bool,
    /// See [`Source::drain_unreported`].
    unreported: VecDeque<u64>,
    /// See [`Source::take_withdrawn`]: what the local source withdrew.
    withdrawn: Option<usize>,
    /// Parts replayed from a helper's output (the others the reader read).
    #[cfg(test)]
    replayed: usize,
}

impl<U: Units> SplitSource<U> {
    /// A split source over `map`, whose units `units` tells, or `None`
    /// when `split` says to read it sequentially.
    pub(super) fn new(
        map: Arc<Mmap>,
        split: Split,
        units: impl FnOnce() -> U,
    ) -> Option<SplitSource<U>> {
        let bounds = split.bounds(map.len() as u64)?;
        let parts = bounds.len() - 1;
        let threads = split.threads.min(parts);
        let window = 2 * threads;
        let (jobs, job_rx) = bounded::<PartJob>(window);
        let (pool, pool_rx) = bounded::<Vec<u8>>(window);
        let units = Arc::new(units());
        let helpers = (0..threads)
            .map(|_| {
                let map = Arc::clone(&map);
                let units = Arc::clone(&units);
                let job_rx = job_rx.clone();
                let pool_rx = pool_rx.clone();
                std::thread::spawn(move || {
                    while let Ok(job) = job_rx.recv() {
                        inflate_part(&*units, &map, job, &pool_rx);
                    }
                })
            })
            .collect();
        let mut source = SplitSource {
            map,
            units,
            bounds,
            out: VecDeque::new(),
            next_out: 0,
            jobs: Some(jobs),
            pool,
            helpers,
            current: Current::Next(0),
            position: 0,
            resyncing: false,
            unreported: VecDeque::new(),
            withdrawn: None,
            #[cfg(test)]
            replayed: 0,
        };
        for _ in 0..window {
            source.hand_out();
        }
        Some(source)
    }

    fn parts(&self) -> usize {
        self.bounds.len() - 1
    }

    fn limit(&self, part: usize) -> u64 {
        self.bounds.get(part + 1).copied().unwrap_or(u64::MAX)
    }

    /// Gives the next part to the helpers.
    fn hand_out(&mut self) {
        let part = self.next_out;
        let (Some(jobs), Some(&start)) = (&self.jobs, self.bounds.get(part)) else {
            return;
        };
        if part >= self.parts() {
            return;
        }
        let (out, batches) = bounded(PART_BATCHES);
        let job = PartJob {
            start,
            limit: self.limit(part),
            first: part == 0,
            out,
        };
        // The channel holds a window's worth, so this does not block.
        if jobs.send(job).is_ok() {
            self.out.push_back(batches);
            self.next_out += 1;
        }
    }

    /// The sequential reader, started where the previous part stopped.
    fn local(&self, part: usize, from: u64, resyncing: bool) -> Current<U::Part> {
        Current::Local {
            part,
            source: Box::new(
                self.units
                    .part(&self.map, from, self.limit(part), resyncing),
            ),
        }
    }

    /// Opens `part`: replays the helper's output if it starts where the
    /// previous part stopped, skips it if the previous part ran past it, and
    /// otherwise inflates it here.
    fn open(&mut self, part: usize) -> Current<U::Part> {
        let batches = self.out.pop_front();
        self.hand_out();
        if self.position >= self.limit(part) {
            return Current::Next(part + 1);
        }
        let Some(batches) = batches else {
            return self.local(part, self.position, self.resyncing);
        };
        let mut batch = batches.recv().unwrap_or_default();
        match batch.items.pop_front() {
            Some(Item::Start(Some(start))) if start == self.position => {
                #[cfg(test)]
                {
                    self.replayed += 1;
                }
                Current::Remote {
                    part,
                    batches,
                    batch,
                    at: 0,
                }
            }
            _ => self.local(part, self.position, self.resyncing),
        }
    }
}

impl<U: Units> Source for SplitSource<U> {
    fn fill(
        &mut self,
        buf: &mut Vec<u8>,
        want: usize,
        marks: &mut Vec<Mark>,
    ) -> Result<bool, FillError> {
        loop {
            let next = match &mut self.current {
                Current::Next(part) => {
                    let part = *part;
                    if part >= self.parts() {
                        return Ok(false);
                    }
                    self.open(part)
                }
                Current::Local { part, source } => {
                    let filled = source.fill(buf, want, marks);
                    source.drain_unreported(&mut self.unreported);
                    if let Some(w) = source.take_withdrawn() {
                        self.withdrawn = Some(self.withdrawn.map_or(w, |v| v.min(w)));
                    }
                    self.position = source.position();
                    self.resyncing = source.resyncing();
                    match filled {
                        Ok(false) => Current::Next(*part + 1),
                        other => return other,
                    }
                }
                Current::Remote {
                    part,
                    batches,
                    batch,
                    at,
                } => match batch.items.pop_front() {
                    Some(Item::Member { mark, len, end }) => {
                        let bytes = batch.data.get(*at..*at + len).unwrap_or_default();
                        if let Some(offset) = mark {
                            marks.push(Mark {
                                pos: buf.len(),
                                offset,
                                inside: false,
                            });
                        }
                        buf.extend_from_slice(bytes);
                        *at += len;
                        self.position = end;
                        self.resyncing = false;
                        return Ok(true);
                    }
                    Some(Item::Failed {
                        error,
                        position,
                        resyncing,
                    }) => {
                        self.position = position;
                        self.resyncing = resyncing;
                        return Err(error);
                    }
                    Some(Item::Local { from, resyncing }) => {
                        let part = *part;
                        self.local(part, from, resyncing)
                    }
                    Some(Item::Done {
                        position,
                        resyncing,
                    }) => {
                        self.position = position;
                        self.resyncing = resyncing;
                        Current::Next(*part + 1)
                    }
                    Some(Item::Unreported(offset)) => {
                        self.unreported.push_back(offset);
                        continue;
                    }
                    Some(Item::Start(_)) => continue,
                    None => match batches.recv() {
                        Ok(more) => {
                            let done = std::mem::replace(batch, more);
                            let _ = self.pool.try_send(done.data);
                            *at = 0;
                            continue;
                        }
                        // The helper died mid-part: finish the part here.
                        Err(_) => {
                            let part = *part;
                            self.local(part, self.position, self.resyncing)
                        }
                    },
                },
            };
            self.current = next;
        }
    }

    fn position(&self) -> u64 {
        self.position
    }

    fn at_boundary(&self) -> bool {
        match &self.current {
            Current::Local { source, .. } => source.at_boundary(),
            _ => true,
        }
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
        if let Current::Local { source, .. } = &mut self.current {
            source.removed(at, len);
        }
    }
}

impl<U: Units> Drop for SplitSource<U> {
    fn drop(&mut self) {
        // Closing the channels stops the helpers after their current member.
        self.jobs = None;
        self.out.clear();
        self.current = Current::Next(usize::MAX);
        for helper in self.helpers.drain(..) {
            let _ = helper.join();
        }
    }
}

/// A helper's work on one part; stops early if the reader hangs up.
fn inflate_part<U: Units>(units: &U, map: &Arc<Mmap>, job: PartJob, pool: &Receiver<Vec<u8>>) {
    let start = if job.first {
        Some(job.start)
    } else {
        units.first_unit(map, job.start, job.limit)
    };
    let mut batch = Batch::new(pool);
    batch.items.push_back(Item::Start(start));
    let Some(start) = start else {
        let _ = job.out.send(batch);
        return;
    };
    let mut source = units.part(map, start, job.limit, false);
    let mut marks = Vec::new();
    let mut unreported = VecDeque::new();
    loop {
        let before = batch.data.len();
        let filled = source.fill(&mut batch.data, MEMBER_CAP, &mut marks);
        // A whole unit per fill: at most its start is marked.
        let mark = marks.last().map(|m| m.offset);
        marks.clear();
        source.drain_unreported(&mut unreported);
        batch
            .items
            .extend(unreported.drain(..).map(Item::Unreported));
        let last = match filled {
            Ok(true) if source.at_boundary() => {
                batch.items.push_back(Item::Member {
                    mark,
                    len: batch.data.len() - before,
                    end: source.position(),
                });
                false
            }
            Ok(true) => {
                batch.data.truncate(before);
                batch.items.push_back(Item::Local {
                    from: source.unit_start(),
                    resyncing: source.resyncing(),
                });
                true
            }
            Ok(false) => {
                batch.items.push_back(Item::Done {
                    position: source.position(),
                    resyncing: source.resyncing(),
                });
                true
            }
            Err(error) => {
                batch.data.truncate(before);
                batch.items.push_back(Item::Failed {
                    error,
                    position: source.position(),
                    resyncing: source.resyncing(),
                });
                false
            }
        };
        if last {
            let _ = job.out.send(batch);
            return;
        }
        if batch.data.len() >= BATCH_BYTES
            && job
                .out
                .send(std::mem::replace(&mut batch, Batch::new(pool)))
                .is_err()
        {
            return;
        }
    }
}

/// Offset of the first gzip member that starts in `[from, limit)`: a gzip
/// header (deflate, no reserved flags) whose member inflates with a good
/// CRC to bytes starting with `WARC/`.
fn first_member(map: &[u8], from: u64, limit: u64) -> Option<u64> {
    let data = map.get(from as usize..)?;
    // A header starting before `limit` ends at most two bytes after it.
    let headers = data.get(..(limit - from) as usize + 2).unwrap_or(data);
    let mut inflater = Decompress::new_gzip(15);
    let mut scratch = vec![0; 64 << 10];
    memchr::memmem::find_iter(headers, &[0x1f, 0x8b, 0x08])
        .find(|&at| {
            let flags = data.get(at + 3).copied().unwrap_or(0xff);
            flags & 0xe0 == 0
                && data
                    .get(at..)
                    .is_some_and(|member| is_warc_member(member, &mut inflater, &mut scratch))
        })
        .map(|at| from + at as u64)
}

/// Whether `data` starts with a whole gzip member holding WARC data.
fn is_warc_member(data: &[u8], inflater: &mut Decompress, scratch: &mut [u8]) -> bool {
    inflater.reset(true);
    let mut head = Vec::with_capacity(5);
    loop {
        let (in_before, out_before) = (inflater.total_in(), inflater.total_out());
        let input = data.get(in_before as usize..).unwrap_or_default();
        let status = inflater.decompress(input, scratch, FlushDecompress::None);
        let produced = (inflater.total_out() - out_before) as usize;
        if head.len() < 5 {
            let more = scratch.get(..produced).unwrap_or_default();
            head.extend(more.iter().take(5 - head.len()));
            if !b"WARC/".starts_with(&head) {
                return false;
            }
        }
        match status {
            Ok(Status::StreamEnd) => return head == b"WARC/",
            Ok(Status::Ok) => {}
            // The input ended inside the member, or it is not deflate.
            Ok(Status::BufError) | Err(_) => return false,
        }
        if inflater.total_in() == in_before && produced == 0 {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_the_file_in_parts() {
        let split = Split {
            threads: 2,
            min_file_bytes: 10,
            max_part_bytes: 30,
        };
        assert_eq!(split.bounds(9), None);
        assert_eq!(
            split.bounds(100),
            Some(vec![0, 12, 24, 36, 48, 60, 72, 84, 96, 100])
        );
        assert_eq!(Split::new(1).bounds(1 << 40), None);
    }

    /// `n` records with blocks of `block` bytes (text that compresses a
    /// little), one `Vec` each.
    fn records(n: usize, block: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| {
                let body: String = (0..block)
                    .map(|j| char::from(b'a' + ((i * 31 + j * j) % 26) as u8))
                    .collect();
                format!(
                    "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:x:{i}>\r\nContent-Length: {block}\r\n\r\n{body}\r\n\r\n"
                )
                .into_bytes()
            })
            .collect()
    }

    /// The bytes a source gave, and the input offsets of its marks.
    type Output = (Vec<u8>, Vec<u64>);

    /// Reads `data` through the split source (parts of 512 bytes, two
    /// helpers) and sequentially: (bytes, mark offsets) of each, and how
    /// many parts the split reader replayed from a helper out of how many.
    fn split_and_sequential(
        data: &[u8],
        units: impl Units,
        sequential: Box<dyn Source>,
    ) -> (Output, Output, usize, usize) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("input");
        std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
        let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let map = Arc::new(
            Mmap::open(&file)
                .unwrap_or_else(|e| panic!("{e}"))
                .unwrap_or_else(|| panic!("not mapped")),
        );
        let split = Split {
            threads: 2,
            min_file_bytes: 0,
            max_part_bytes: 512,
        };
        let mut source =
            SplitSource::new(map, split, || units).unwrap_or_else(|| panic!("not split"));
        let drain = |source: &mut dyn Source| {
            let (mut buf, mut marks) = (Vec::new(), Vec::new());
            while source
                .fill(&mut buf, 1 << 16, &mut marks)
                .unwrap_or_else(|e| panic!("{}: {}", e.offset, e.detail))
            {}
            (buf, marks.iter().map(|m| m.offset).collect::<Vec<_>>())
        };
        let got = drain(&mut source);
        let mut sequential = sequential;
        let expected = drain(&mut *sequential);
        (got, expected, source.replayed, source.parts())
    }

    fn sequential_frames(format: Format, data: &[u8]) -> Box<dyn Source> {
        Box::new(
            FrameSource::new(
                format,
                crate::gz::Rewind::new(std::io::Cursor::new(data.to_vec())),
            )
            .unwrap_or_else(|e| panic!("{e}")),
        )
    }

    /// Frames one per record (zstd with a dictionary frame, LZ4): the
    /// helpers' parts are replayed, and the bytes and frame offsets are
    /// the sequential reader's. Frames cut elsewhere than at records: no
    /// part is the helpers', nothing is lost.
    #[test]
    fn frames_at_records_are_split_and_frames_elsewhere_are_not() {
        let records = records(300, 200);
        let dict = b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 200\r\n";
        let mut zst = vec![0x5d, 0x2a, 0x4d, 0x18];
        zst.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        zst.extend_from_slice(dict);
        let mut compressor =
            zstd::bulk::Compressor::with_dictionary(3, dict).unwrap_or_else(|e| panic!("{e}"));
        let mut lz4 = Vec::new();
        for record in &records {
            zst.extend(
                compressor
                    .compress(record)
                    .unwrap_or_else(|e| panic!("{e}")),
            );
            lz4.extend(lz4_frame(record));
        }
        let all = records.concat();
        let unaligned: Vec<u8> = all.chunks(1000).flat_map(lz4_frame).collect();
        for (what, format, data, aligned) in [
            ("zstd with a dictionary", Format::Zstd, &zst, true),
            ("lz4", Format::Lz4, &lz4, true),
            ("lz4 frames of 1000 bytes", Format::Lz4, &unaligned, false),
        ] {
            let units = Frames::new(format, data);
            assert_eq!(units.dictionary.is_some(), format == Format::Zstd, "{what}");
            let (got, expected, replayed, parts) =
                split_and_sequential(data, units, sequential_frames(format, data));
            assert_eq!(expected.0, all, "{what}");
            assert!(got == expected, "{what}: split and sequential differ");
            assert!(parts > 10, "{what}: {parts} parts");
            if aligned {
                // Part 0 always; a part none of whose frames starts is skipped.
                assert!(replayed * 10 >= parts * 9, "{what}: {replayed} of {parts}");
            } else {
                assert_eq!(replayed, 1, "{what}: {replayed} of {parts}");
            }
        }
    }

    fn lz4_frame(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut lz4 = lz4_flex::frame::FrameEncoder::new(Vec::new());
        lz4.write_all(data).unwrap_or_else(|e| panic!("{e}"));
        lz4.finish().unwrap_or_else(|e| panic!("{e}"))
    }
}
