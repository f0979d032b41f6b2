//! Parallel inflation of one multi-member `.warc.gz`.
//!
//! One thread inflates ~0.5–1 GB/s, so a single big file would cap a whole
//! job at one core. Common Crawl writes one gzip member per record, so the
//! file is cut into parts of a few MiB; helper threads each take the next
//! part, find its first member (a gzip header at or after the part's start
//! that inflates with a good CRC to bytes starting with `WARC/`) and inflate
//! the members that start before the next part does. The reader replays the
//! parts in order, so it sees the bytes, member offsets and problems the
//! sequential [`GzSource`] would.
//!
//! Whenever a part's first member is not where the previous part stopped (a
//! gap of junk, a corrupt member, a false gzip header inside a member, a
//! single-stream file), the reader inflates that part itself from where the
//! previous one stopped; that keeps the output exact at the price of
//! parallelism for that part only.
//!
//! Memory: at most `2 × threads` parts are out at once, each holding at most
//! [`PART_BATCHES`] batches of about [`BATCH_BYTES`] (plus one member of at
//! most [`MEMBER_CAP`]); a member larger than that is left to the reader.

use super::gz::GzSource;
use super::{FillError, MapBytes, Mark, Source};
use crate::mapped::Map as Mmap;
use crossbeam_channel::{bounded, Receiver, Sender};
use flate2::{Decompress, FlushDecompress, Status};
use std::collections::VecDeque;
use std::sync::Arc;
use std::thread::JoinHandle;

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

/// How a `.warc.gz` may be inflated by several threads.
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
    /// A whole member: `len` bytes of the batch, from input `offset` to `end`.
    Member { offset: u64, len: usize, end: u64 },
    /// What the sequential reader reports here; the input continues at `position`.
    Failed {
        error: FillError,
        position: u64,
        resyncing: bool,
    },
    /// A member too large to ship: the reader inflates the rest of the part.
    Local { from: u64, resyncing: bool },
    /// The part is done: the next member would start at `position`.
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
enum Current {
    /// A helper's output for part `part`.
    Remote {
        part: usize,
        batches: Receiver<Batch>,
        batch: Batch,
        /// Read position in `batch.data`.
        at: usize,
    },
    /// Part `part` inflated by the reader itself.
    Local {
        part: usize,
        source: Box<GzSource<MapBytes>>,
    },
    /// About to open part `.0`.
    Next(usize),
}

/// The reader's side: a [`Source`] fed by the helpers' parts, in order.
pub(super) struct SplitSource {
    map: Arc<Mmap>,
    bounds: Vec<u64>,
    /// Parts handed to helpers and not yet opened, in order.
    out: VecDeque<Receiver<Batch>>,
    /// The next part to hand out.
    next_out: usize,
    jobs: Option<Sender<PartJob>>,
    /// Replayed batch buffers going back to the helpers.
    pool: Sender<Vec<u8>>,
    helpers: Vec<JoinHandle<()>>,
    current: Current,
    /// Input offset after the last member replayed (or skipped).
    position: u64,
    resyncing: bool,
    /// See [`Source::drain_unreported`].
    unreported: VecDeque<u64>,
    /// See [`Source::take_withdrawn`]: what the local source withdrew.
    withdrawn: Option<usize>,
}

impl SplitSource {
    /// A split source over `map`, or `None` when `split` says to read it sequentially.
    pub(super) fn new(map: Arc<Mmap>, split: Split) -> Option<SplitSource> {
        let bounds = split.bounds(map.len() as u64)?;
        let parts = bounds.len() - 1;
        let threads = split.threads.min(parts);
        let window = 2 * threads;
        let (jobs, job_rx) = bounded::<PartJob>(window);
        let (pool, pool_rx) = bounded::<Vec<u8>>(window);
        let helpers = (0..threads)
            .map(|_| {
                let map = Arc::clone(&map);
                let job_rx = job_rx.clone();
                let pool_rx = pool_rx.clone();
                std::thread::spawn(move || {
                    while let Ok(job) = job_rx.recv() {
                        inflate_part(&map, job, &pool_rx);
                    }
                })
            })
            .collect();
        let mut source = SplitSource {
            map,
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
    fn local(&self, part: usize, from: u64, resyncing: bool) -> Current {
        let input = MapBytes::new(Arc::clone(&self.map), from as usize);
        Current::Local {
            part,
            source: Box::new(GzSource::part(input, from, self.limit(part), resyncing)),
        }
    }

    /// Opens `part`: replays the helper's output if it starts where the
    /// previous part stopped, skips it if the previous part ran past it, and
    /// otherwise inflates it here.
    fn open(&mut self, part: usize) -> Current {
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
            Some(Item::Start(Some(start))) if start == self.position => Current::Remote {
                part,
                batches,
                batch,
                at: 0,
            },
            _ => self.local(part, self.position, self.resyncing),
        }
    }
}

impl Source for SplitSource {
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
                    Some(Item::Member { offset, len, end }) => {
                        let bytes = batch.data.get(*at..*at + len).unwrap_or_default();
                        marks.push(Mark {
                            pos: buf.len(),
                            offset,
                            inside: false,
                        });
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

impl Drop for SplitSource {
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
fn inflate_part(map: &Arc<Mmap>, job: PartJob, pool: &Receiver<Vec<u8>>) {
    let start = if job.first {
        Some(job.start)
    } else {
        first_member(map, job.start, job.limit)
    };
    let mut batch = Batch::new(pool);
    batch.items.push_back(Item::Start(start));
    let Some(start) = start else {
        let _ = job.out.send(batch);
        return;
    };
    let input = MapBytes::new(Arc::clone(map), start as usize);
    let mut source = GzSource::part(input, start, job.limit, false);
    let mut marks = Vec::new();
    loop {
        let before = batch.data.len();
        let filled = source.fill(&mut batch.data, MEMBER_CAP, &mut marks);
        marks.clear();
        let last = match filled {
            Ok(true) if source.at_boundary() => {
                batch.items.push_back(Item::Member {
                    offset: source.member_start(),
                    len: batch.data.len() - before,
                    end: source.position(),
                });
                false
            }
            Ok(true) => {
                batch.data.truncate(before);
                batch.items.push_back(Item::Local {
                    from: source.member_start(),
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
}
