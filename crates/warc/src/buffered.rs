//! The buffered engine: decompressed bytes in one reusable buffer, records
//! parsed from it, damage skipped and reported.

use super::*;

/// The buffered engine: decompressed bytes in one reusable buffer.
pub(super) struct Buffered {
    pub(super) source: Box<dyn Source + Send>,
    pub(super) buf: Vec<u8>,
    /// Where the next record starts in `buf`.
    pub(super) start: usize,
    pub(super) marks: Vec<Mark>,
    pub(super) eof: bool,
    /// Problems met while handling another one, reported next.
    pub(super) pending: VecDeque<Outcome>,
    /// The latest gzip members that failed unreported (see
    /// [`Source::drain_unreported`]), at most [`UNREPORTED_KEPT`].
    pub(super) unreported: VecDeque<u64>,
    /// Set by [`Buffered::more`]: the lowest buffer position whose bytes,
    /// there before that fill, were taken back out (a gzip member's
    /// output, the member then failing); `start` is no later than it.
    pub(super) withdrawn: Option<usize>,
}

/// Unreported member failures remembered: a problem is checked against
/// those met while resyncing past it, a handful at most.
const UNREPORTED_KEPT: usize = 64;

impl Buffered {
    pub(super) fn new(source: Box<dyn Source + Send>) -> Self {
        Buffered {
            source,
            buf: Vec::new(),
            start: 0,
            marks: Vec::new(),
            eof: false,
            pending: VecDeque::new(),
            unreported: VecDeque::new(),
            withdrawn: None,
        }
    }

    /// Drops consumed bytes from the front of the buffer.
    pub(super) fn compact(&mut self) {
        let start = self.start.min(self.buf.len());
        if start == 0 {
            return;
        }
        self.buf.drain(..start);
        self.source.removed(0, start);
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
    pub(super) fn more(&mut self, want: usize) -> Result<bool, FillError> {
        if self.eof {
            return Ok(false);
        }
        let got = self.source.fill(&mut self.buf, want, &mut self.marks);
        self.withdrawn = self.source.take_withdrawn();
        if let Some(at) = self.withdrawn {
            // Bytes already parsed are gone: parse again from there (the
            // bytes that follow are those a reader meets that never saw the
            // member's output, such as the split reader).
            self.start = self.start.min(at);
        }
        self.source.drain_unreported(&mut self.unreported);
        while self.unreported.len() > UNREPORTED_KEPT {
            self.unreported.pop_front();
        }
        let got = got?;
        if !got {
            self.eof = true;
        }
        Ok(got)
    }

    /// Input offset of buffer position `pos`, and whether it is exact.
    pub(super) fn offset_of(&self, pos: usize) -> (u64, bool) {
        if pos >= self.buf.len() && self.source.at_boundary() {
            return (self.source.position(), true);
        }
        match self.marks.iter().rev().find(|m| m.pos <= pos) {
            Some(m) if self.source.linear() => (m.offset + (pos - m.pos) as u64, true),
            Some(m) => (m.offset, m.pos == pos && !m.inside),
            None => (self.source.position(), false),
        }
    }

    pub(super) fn input_range(&self, span: &Span) -> (u64, Option<u64>) {
        let (offset, exact_start) = self.offset_of(span.start);
        let (end, exact_end) = self.offset_of(span.end);
        let length = (exact_start && exact_end).then(|| end.saturating_sub(offset));
        (offset, length)
    }

    pub(super) fn problem(&self, pos: usize, kind: ProblemKind, detail: String) -> Outcome {
        Outcome::Problem {
            offset: self.offset_of(pos).0,
            kind,
            detail,
        }
    }

    /// The next record, problem or end; never [`Outcome::Quiet`].
    pub(super) fn next(&mut self, max_record_bytes: u64) -> Outcome {
        loop {
            match self.next_outcome(max_record_bytes) {
                Outcome::Quiet => continue,
                outcome => return outcome,
            }
        }
    }

    fn next_outcome(&mut self, max_record_bytes: u64) -> Outcome {
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
    /// `Found::Undecided` when a member's first bytes could start a record
    /// but the buffer ends before that is known (its version line or header
    /// unfinished, the input not at its end): a reader that has inflated
    /// more of the member would know, so the caller reads on first.
    /// `cut`: the input broke off after the buffer (a damaged member
    /// follows), so the members in it are judged by what arrived.
    pub(super) fn member_record_inside(&self, start: usize, until: usize, cut: bool) -> Found {
        if self.source.linear() {
            return Found::None;
        }
        let until = until.min(self.buf.len());
        for pos in self
            .marks
            .iter()
            .filter(|m| !m.inside && m.pos > start && m.pos < until)
            .map(|m| m.pos)
        {
            let member = self.buf.get(pos..).unwrap_or_default();
            match (version_prefix(member), parse_head(member)) {
                (Some(false), _) | (_, Head::Invalid(..)) => {}
                (None, _) | (_, Head::NeedMore) if !self.eof && !cut => {
                    return Found::Undecided(pos)
                }
                (None, _) => {}
                _ => return Found::At(pos),
            }
        }
        Found::None
    }

    /// Reports the record at `start` as having a wrong `Content-Length` and
    /// resumes at the next record found from `from` on.
    pub(super) fn bad_length(
        &mut self,
        start: usize,
        from: usize,
        content_length: u64,
        why: &str,
    ) -> Outcome {
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
    pub(super) fn unless_member_damaged(&mut self, problem: Outcome) -> Outcome {
        let Outcome::Problem { offset, .. } = problem else {
            return problem;
        };
        if self.source.linear() {
            return problem;
        }
        let damage = self.pending.iter().position(|p| match p {
            Outcome::Problem {
                offset: at, kind, ..
            } => {
                *at == offset
                    && matches!(
                        kind,
                        ProblemKind::CorruptGzip
                            | ProblemKind::CorruptFrame
                            | ProblemKind::Truncated
                    )
            }
            _ => false,
        });
        match damage.and_then(|i| self.pending.remove(i)) {
            Some(damage) => damage,
            // A member tried after earlier damage, whose failure is not
            // reported: neither is what was found in its unchecked output.
            None if self.unreported.contains(&offset) => Outcome::Quiet,
            None => problem,
        }
    }

    /// Reads the block and trailer of a record whose header is complete.
    pub(super) fn finish_record(&mut self, max_record_bytes: u64, layout: Layout) -> Outcome {
        let content_length = layout.content_length;
        let start = self.start;
        let block_start = start + layout.block_start;
        let oversized = content_length > max_record_bytes;
        // The input broke off (damage) after what is buffered: the record
        // is judged by what arrived, the damage reported after it.
        let mut cut = false;
        let block_end = if oversized {
            match self.skip_block(layout) {
                Ok(broke) => {
                    cut = broke;
                    block_start
                }
                Err(outcome) => return outcome,
            }
        } else {
            let block_end =
                block_start.saturating_add(usize::try_from(content_length).unwrap_or(usize::MAX));
            loop {
                match self.member_record_inside(start, block_end, cut) {
                    Found::At(next) => {
                        return self.bad_length(
                            start,
                            next,
                            content_length,
                            "runs past the end of its gzip member into another record",
                        )
                    }
                    Found::Undecided(_) => match self.more(FILL_CHUNK) {
                        Ok(_) if self.withdrawn_below(block_end) => return Outcome::Quiet,
                        Ok(_) => continue,
                        // The block is whole and the damage lies past it,
                        // in what was to decide a member start inside the
                        // block: judge the record by what arrived and
                        // report the damage next, as for its trailer. A
                        // reader handed the damaged member's output
                        // before its check failed decided the member
                        // start on it and judged the record the same way.
                        Err(e)
                            if self.buf.len() >= block_end && !self.withdrawn_below(block_end) =>
                        {
                            let problem = self.fill_problem(e);
                            self.pending.push_back(problem);
                            cut = true;
                        }
                        Err(e) => return self.fill_failed(e),
                    },
                    Found::None => {}
                }
                if self.buf.len() >= block_end {
                    break;
                }
                match self.more(block_end - self.buf.len()) {
                    Ok(_) if self.withdrawn_below(block_end) => return Outcome::Quiet,
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
                End::NeedMore => match self.more(FILL_CHUNK) {
                    // The damaged member held part of this record: it is
                    // lost with the member, whose damage is the problem
                    // (as when the damage shows while the block is read).
                    Err(e) if self.withdrawn_below(block_end) => return self.fill_failed(e),
                    Err(e) => {
                        // The input breaks off here: judge the record by
                        // what arrived, report the break next.
                        let problem = self.fill_problem(e);
                        self.pending.push_back(problem);
                        cut = true;
                    }
                    Ok(_) if self.withdrawn_below(block_end) => return Outcome::Quiet,
                    Ok(_) => {}
                },
            }
        };
        self.start = end;
        Outcome::Record(layout.span(start, !oversized, end))
    }

    /// Drops the block of a record over the cap as it arrives, without
    /// buffering it, while looking for a record start inside it (a
    /// `Content-Length` far too large must not swallow the records after
    /// it). `Ok(true)`: the input broke off (damage) past the block, so the
    /// record is judged by what arrived, the damage pending. `Err`: the
    /// outcome for the record (a lie or a cut).
    pub(super) fn skip_block(&mut self, layout: Layout) -> Result<bool, Outcome> {
        let content_length = layout.content_length;
        let start = self.start;
        let block_start = start + layout.block_start;
        // Block bytes not dropped yet (buffered or still to come).
        let mut remaining = content_length;
        let mut cut = false;
        loop {
            let have = (self.buf.len() - block_start) as u64;
            let in_block = block_start + have.min(remaining) as usize;
            match find_record(&self.buf, block_start, in_block, self.eof || cut) {
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
                    return Ok(cut);
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
                Ok(_) if self.withdrawn_below(block_start) => return Err(Outcome::Quiet),
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
                // The block is all here and the damage lies past it, in
                // what was to decide a candidate record start inside it:
                // as in `finish_record`, judged by what arrived.
                Err(e)
                    if (self.buf.len() - block_start) as u64 >= remaining
                        && !self.withdrawn_below(block_start + remaining as usize) =>
                {
                    let problem = self.fill_problem(e);
                    self.pending.push_back(problem);
                    cut = true;
                }
                Err(e) => return Err(self.fill_failed(e)),
            }
        }
    }

    /// Whether the last [`Buffered::more`] withdrew bytes before `pos`: a
    /// record being read that far is parsed again from `start`.
    pub(super) fn withdrawn_below(&self, pos: usize) -> bool {
        self.withdrawn.is_some_and(|at| at < pos)
    }

    /// Removes `len` buffered bytes at `at`, keeping the marks describing the rest.
    pub(super) fn drop_bytes(&mut self, at: usize, len: usize) {
        if len == 0 {
            return;
        }
        // In a linear source, the bytes after the drop keep their offsets
        // only if a mark says where they are: an earlier mark would place
        // them `len` bytes too early.
        let kept = self.source.linear().then(|| self.offset_of(at + len).0);
        self.buf.drain(at..at + len);
        self.source.removed(at, len);
        let linear = self.source.linear();
        for mark in &mut self.marks {
            if mark.pos >= at + len {
                mark.pos -= len;
            } else if mark.pos > at || (linear && mark.pos == at) {
                // The mark's byte is gone: describe the first byte kept
                // after it (plain input: also a mark at `at` itself, left
                // by an earlier drop there, or it would place the bytes
                // after this drop `len` bytes too early), or say it lies
                // inside the member the mark starts (gzip: a member's
                // offset is its start, whatever part of its output was
                // dropped, as in `compact`).
                if linear {
                    mark.offset += (at + len - mark.pos) as u64;
                }
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

    pub(super) fn fill_problem(&self, e: FillError) -> Outcome {
        Outcome::Problem {
            offset: e.offset,
            kind: e.kind,
            detail: e.detail,
        }
    }

    /// A source error: whatever was buffered for the current record is lost.
    pub(super) fn fill_failed(&mut self, e: FillError) -> Outcome {
        self.buf.truncate(self.start);
        self.fill_problem(e)
    }

    /// Moves to the next record starting at or after `from`, reading (and
    /// discarding) input until one appears; a source error on the way is
    /// reported after the current problem. Says how many bytes from `start`
    /// on were skipped.
    pub(super) fn resync(&mut self, start: usize, from: usize) -> String {
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
