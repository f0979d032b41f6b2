//! Segmented records (WARC 1.1 §6.8): a record too big for one WARC record
//! is written as a first segment (its own type, `WARC-Segment-Number: 1`)
//! and `continuation` records (`WARC-Segment-Origin-ID` naming the first,
//! numbered 2, 3, …, the last with `WARC-Segment-Total-Length`). A reader
//! keeps a first segment back and appends the continuations that follow
//! it in the same input; the page is extracted from the whole record once
//! the last segment is read. A record whose segments are not all in the
//! input in order (one missing, the input ending first, or more records
//! open at once than are kept) becomes a page of the segments read, marked
//! truncated (`"segment"`). Memory: the segments kept back add up to at most the
//! record cap, over at most [`MAX_OPEN`] records; a record whose segments
//! add up to more is skipped as `too_large`, as a record over the cap is.

use super::work::Job;
use crate::warc::Record;
use std::collections::VecDeque;

/// Segmented records kept open at once; opening another finishes the
/// oldest as it is (truncated).
const MAX_OPEN: usize = 4;

/// The `truncated` reason of a page missing some of its record's segments.
pub(super) const TRUNCATED_SEGMENT: &str = "segment";

/// A record's place in a segmented record, from its headers.
pub(super) fn segment_number(record: &Record<'_>) -> Option<u64> {
    record
        .headers
        .get("WARC-Segment-Number")
        .and_then(|n| n.trim().parse().ok())
}

/// What became of a segmented record once it is finished.
pub(super) enum Finished {
    /// Its page is to be extracted (marked truncated when segments are missing).
    Page(Job),
    /// Its segments add up to more than the record cap: skipped.
    TooLarge {
        /// Its URL, number and offset, for the warning.
        whereabouts: String,
        /// The bytes its segments add up to, so far.
        bytes: u64,
    },
}

/// A segmented record being put back together.
struct Open {
    /// The first segment, continuations appended; its block is emptied
    /// once the record is over the cap.
    job: Job,
    /// The segment number expected next.
    next: u64,
    /// The bytes of its segments so far.
    bytes: u64,
    too_large: bool,
}

/// The segmented records of one input that are open (first segment read,
/// last not yet).
pub(super) struct Segments {
    open: VecDeque<Open>,
    /// Block bytes held by `open`.
    held: u64,
    cap: u64,
}

impl Segments {
    pub(super) fn new(cap: u64) -> Self {
        Segments {
            open: VecDeque::new(),
            held: 0,
            cap,
        }
    }

    /// Keeps `job`, the first segment of a record, open; records finished
    /// to make room go to `done`. A first segment without a record ID can
    /// have no continuation: it is finished at once.
    pub(super) fn first(&mut self, mut job: Job, done: &mut Vec<Finished>) {
        if job.record_id().trim().is_empty() {
            job.truncate_for(TRUNCATED_SEGMENT);
            done.push(Finished::Page(job));
            return;
        }
        let bytes = job.block_len() as u64;
        if self.open.len() >= MAX_OPEN {
            self.finish(0, done);
        }
        while self.held.saturating_add(bytes) > self.cap && !self.open.is_empty() {
            self.finish(0, done);
        }
        self.held += bytes;
        self.open.push_back(Open {
            job,
            next: 2,
            bytes,
            too_large: false,
        });
    }

    /// Appends `record`, a `continuation`, to the open record it continues;
    /// false when none is open (its first segment is not in this input, or
    /// was finished before). Records it finishes go to `done`.
    pub(super) fn continuation(&mut self, record: &Record<'_>, done: &mut Vec<Finished>) -> bool {
        let origin = record
            .headers
            .get("WARC-Segment-Origin-ID")
            .unwrap_or_default();
        let origin = origin.trim();
        let Some(mut index) = self
            .open
            .iter()
            .position(|open| !origin.is_empty() && open.job.record_id().trim() == origin)
        else {
            return false;
        };
        if Some(self.open.get(index).map_or(0, |open| open.next)) != segment_number(record) {
            // A segment missing or out of order: the record is what was read.
            self.finish(index, done);
            return false;
        }
        let bytes = record.content_length;
        let over = self.open.get(index).is_none_or(|open| {
            open.too_large || record.oversized() || open.bytes.saturating_add(bytes) > self.cap
        });
        if over {
            // Over the cap: its bytes are let go, its segments still counted.
            if let Some(open) = self.open.get_mut(index) {
                self.held = self.held.saturating_sub(open.job.block_len() as u64);
                open.job.clear_block();
                open.too_large = true;
            }
        } else {
            // Room for it: the oldest other records are finished as they are.
            while self.held.saturating_add(bytes) > self.cap {
                let Some(other) = (0..self.open.len()).find(|&i| i != index) else {
                    break;
                };
                self.finish(other, done);
                if other < index {
                    index -= 1;
                }
            }
        }
        let Some(open) = self.open.get_mut(index) else {
            return true;
        };
        open.next += 1;
        open.bytes = open.bytes.saturating_add(bytes);
        if !open.too_large {
            open.job.append(record.block);
            self.held += bytes;
        }
        if let Some(total) = record.headers.get("WARC-Segment-Total-Length") {
            // The last segment: the record is whole if its length agrees.
            if total.trim().parse::<u64>().ok() != Some(open.bytes) {
                open.job.truncate_for(TRUNCATED_SEGMENT);
            }
            self.remove(index, done);
        }
        true
    }

    /// Finishes every open record (the input ended before their last segment).
    pub(super) fn finish_all(&mut self, done: &mut Vec<Finished>) {
        while !self.open.is_empty() {
            self.finish(0, done);
        }
    }

    /// Finishes the open record at `index` before its last segment.
    fn finish(&mut self, index: usize, done: &mut Vec<Finished>) {
        if let Some(open) = self.open.get_mut(index) {
            open.job.truncate_for(TRUNCATED_SEGMENT);
        }
        self.remove(index, done);
    }

    fn remove(&mut self, index: usize, done: &mut Vec<Finished>) {
        let Some(open) = self.open.remove(index) else {
            return;
        };
        self.held = self.held.saturating_sub(open.job.block_len() as u64);
        done.push(if open.too_large {
            Finished::TooLarge {
                whereabouts: open.job.whereabouts(),
                bytes: open.bytes,
            }
        } else {
            Finished::Page(open.job)
        });
    }
}
