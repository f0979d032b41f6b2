//! Worker threads: HTTP decoding, HTML classification, extraction, serialisation.

use super::reason::{Failed, Filtered, Skipped};
use super::{Done, Message, Options, Outcome};
use crate::http::{self, PayloadDecoder};
use crate::output::{Formatter, Page};
use crate::signals::{Analyser, RuleSet};
use crate::warc::Record;
use crate::Extractor;
use crossbeam_channel::{Receiver, Sender};
use std::sync::Arc;

/// HTTP 206 Partial Content: the payload is a range of the resource.
const PARTIAL_CONTENT: u16 = 206;

/// The `truncated` reason of a page from a 206 response.
const TRUNCATED_PARTIAL: &str = "partial";

/// Which WARC record types can hold a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// An HTTP response; the page is its payload.
    Response,
    /// A stored document (`resource`); the page is the block itself.
    Resource,
}

/// One candidate record, copied out of the reader.
pub(super) struct Job {
    file: usize,
    /// The job's place among its file's jobs (results are written in this order).
    pub(super) seq: u64,
    kind: Kind,
    url: String,
    record_id: String,
    date: String,
    /// `WARC-Truncated`: why the crawler stored only part of the record.
    truncated: Option<String>,
    /// The WARC `Content-Type` (what a `resource` block is).
    warc_content_type: Option<String>,
    filename: Arc<str>,
    /// The input as named on the command line (for warnings).
    input: Arc<str>,
    /// The record's number in its input.
    number: u64,
    offset: u64,
    length: Option<u64>,
    block: Vec<u8>,
}

impl Job {
    /// Whether a record can hold a page; otherwise the reason it is skipped.
    pub(super) fn candidate(record: &Record<'_>) -> Result<Kind, Skipped> {
        let kind = match record
            .headers
            .warc_type()
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("response") => Kind::Response,
            Some("resource") => Kind::Resource,
            Some("request") => return Err(Skipped::Request),
            Some("metadata") => return Err(Skipped::Metadata),
            Some("revisit") => return Err(Skipped::Revisit),
            Some("warcinfo") => return Err(Skipped::Warcinfo),
            Some("conversion") => return Err(Skipped::Conversion),
            Some("continuation") => return Err(Skipped::Continuation),
            _ => return Err(Skipped::OtherType),
        };
        // Documented choice: a record over the cap is skipped, not truncated;
        // a cut page would yield text that looks complete but is not.
        if record.oversized() {
            return Err(Skipped::TooLarge);
        }
        Ok(kind)
    }

    /// The record's `WARC-Record-ID`, as its header gives it.
    pub(super) fn record_id(&self) -> &str {
        &self.record_id
    }

    /// The record's URL, number and offset in its input, for warnings.
    pub(super) fn whereabouts(&self) -> String {
        format!(
            "{}: record {} at byte offset {} ({})",
            self.input, self.number, self.offset, self.url
        )
    }

    /// The block's bytes.
    pub(super) fn block_len(&self) -> usize {
        self.block.len()
    }

    /// Appends the block of a later segment of the record.
    pub(super) fn append(&mut self, bytes: &[u8]) {
        self.block.extend_from_slice(bytes);
    }

    /// Lets the block's bytes go (the record is skipped).
    pub(super) fn clear_block(&mut self) {
        self.block = Vec::new();
    }

    /// Marks the page as holding only part of the record, for `reason`.
    pub(super) fn truncate_for(&mut self, reason: &str) {
        self.truncated = Some(reason.into());
    }

    /// Copies `record` into a job, reusing `block`'s allocation.
    /// Its `seq` is set when it is sent.
    pub(super) fn new(
        file: usize,
        kind: Kind,
        record: &Record<'_>,
        filename: &Arc<str>,
        input: &Arc<str>,
        mut block: Vec<u8>,
    ) -> Job {
        block.clear();
        block.extend_from_slice(record.block);
        let h = &record.headers;
        Job {
            file,
            seq: 0,
            kind,
            url: h.target_uri().unwrap_or_default().into_owned(),
            record_id: h.record_id().unwrap_or_default().into_owned(),
            date: h.date().unwrap_or_default().into_owned(),
            truncated: h.get("WARC-Truncated").map(|t| t.into_owned()),
            warc_content_type: h.content_type().map(|c| c.into_owned()),
            filename: Arc::clone(filename),
            input: Arc::clone(input),
            number: record.number,
            offset: record.offset,
            length: record.length,
            block,
        }
    }
}

pub(super) struct Worker {
    extractor: Extractor,
    decoder: PayloadDecoder,
    formatter: Formatter,
    analyser: Analyser,
    minhash: bool,
    markdown: bool,
    filter: Vec<RuleSet>,
    max_record_bytes: usize,
    jobs: Receiver<Vec<Job>>,
    results: Sender<Message>,
    pool: Sender<Vec<u8>>,
}

impl Worker {
    pub(super) fn new(
        options: &Options,
        jobs: Receiver<Vec<Job>>,
        results: Sender<Message>,
        pool: Sender<Vec<u8>>,
    ) -> Self {
        Worker {
            extractor: {
                let extractor = Extractor::new(options.algorithm)
                    .with_page_timeout(options.page_timeout)
                    .with_metadata(options.metadata.then(crate::MetadataSettings::default));
                match options.markdown {
                    Some(markdown) => extractor.with_markdown(markdown),
                    None => extractor,
                }
            },
            decoder: PayloadDecoder::default(),
            formatter: options.formatter,
            analyser: {
                // `--filter` alone computes only the rule sets it names
                // (`Analyser::analyse_or_drop`).
                let analyser = Analyser::new(crate::signals::Config {
                    signals: options.signals.signals,
                    minhash: options.signals.minhash,
                });
                if options.signals.no_lang {
                    analyser.without_lang()
                } else {
                    analyser
                }
            },
            minhash: options.signals.minhash,
            markdown: options.markdown.is_some(),
            filter: options.signals.filter.clone(),
            max_record_bytes: usize::try_from(options.max_record_bytes).unwrap_or(usize::MAX),
            jobs,
            results,
            pool,
        }
    }

    pub(super) fn run(mut self) {
        // A batch holds jobs of one file (a reader sends each file's jobs in
        // its own batches); its results go back in one message.
        while let Ok(jobs) = self.jobs.recv() {
            let Some(file) = jobs.first().map(|job| job.file) else {
                continue;
            };
            let mut done = Vec::with_capacity(jobs.len());
            for job in jobs {
                let outcome = self.process(&job);
                done.push(Done {
                    seq: job.seq,
                    outcome,
                    bytes: job.block.len() as u64,
                });
                // Hand the block's allocation back to the readers (dropped if the pool is full).
                let _ = self.pool.try_send(job.block);
            }
            if self.results.send(Message::Results { file, done }).is_err() {
                return;
            }
        }
    }

    fn process(&mut self, job: &Job) -> Outcome {
        let (status, content_type, payload) = match job.kind {
            Kind::Response => {
                let head = match http::parse_response(&job.block) {
                    Ok(head) => head,
                    Err(e) => {
                        return Outcome::FailedWarn(
                            Failed::BadHttp,
                            format!(
                                "{}: its block is not an HTTP response ({e}); no page",
                                job.whereabouts()
                            ),
                        )
                    }
                };
                if !(200..300).contains(&head.status) {
                    return Outcome::Skipped(Skipped::HttpStatus);
                }
                let payload = self.decoder.decode(&head, self.max_record_bytes);
                // Documented choice, as for blocks: a body that decodes past
                // the cap is skipped, not cut.
                if payload.capped {
                    return Outcome::SkippedWarn(
                        Skipped::TooLarge,
                        format!(
                            "{}: record {} at byte offset {} ({}): its HTTP body decodes ({}) to more than the record cap of {} bytes (--max-record-bytes, max_record_bytes= in Python); skipped",
                            job.input,
                            job.number,
                            job.offset,
                            job.url,
                            head.content_encoding.unwrap_or_default(),
                            self.max_record_bytes
                        ),
                    );
                }
                (Some(head.status), head.content_type, payload.bytes)
            }
            Kind::Resource => (None, job.warc_content_type.as_deref(), &job.block[..]),
        };
        // A 206 response holds a range of the page, not all of it.
        let truncated = job
            .truncated
            .as_deref()
            .or_else(|| (status == Some(PARTIAL_CONTENT)).then_some(TRUNCATED_PARTIAL));
        if !http::is_html(content_type, payload) {
            return Outcome::Skipped(Skipped::NotHtml);
        }
        let charset = content_type.and_then(http::charset);
        // A page labelled UTF-16 (without a byte-order mark) is half NUL
        // bytes: its code units are tested instead.
        if http::looks_binary(payload)
            && crate::charset::sniff(payload, charset)
                .utf16()
                .is_none_or(|enc| http::looks_binary_utf16(payload, enc))
        {
            return Outcome::Skipped(Skipped::Binary);
        }
        let algorithm = self.extractor.algorithm();
        let extraction = match self.extractor.try_extract_at(payload, charset, Some(&job.url)) {
            Ok(extraction) => extraction,
            Err(timeout) => {
                return Outcome::FailedWarn(
                    Failed::Timeout,
                    format!(
                        "{}: record {} at byte offset {} ({}): its extraction used more than the page timeout of {:?} of CPU time and was stopped (--page-timeout, page_timeout= in Python; 0 turns it off); counted as failed: timeout",
                        job.input,
                        job.number,
                        job.offset,
                        job.url,
                        timeout.limit,
                    ),
                )
            }
        };
        // Without `--filter` (no rule set), nothing is dropped.
        let analysis = match self.analyser.analyse_or_drop(extraction.text, &self.filter) {
            Ok(analysis) => analysis,
            Err((set, rule)) => return Outcome::Skipped(Skipped::Filter(Filtered { set, rule })),
        };
        let page = Page {
            url: &job.url,
            warc_record_id: &job.record_id,
            warc_date: &job.date,
            warc_filename: &job.filename,
            offset: job.offset,
            length: job.length,
            truncated,
            http_status: status,
            content_type,
            charset: extraction.encoding,
            title: extraction.title,
            text: extraction.text,
            algorithm: algorithm.name(),
            lang: analysis.lang,
            lang_score: analysis.lang_score,
            author: extraction.metadata.author.as_deref(),
            date_published: extraction.metadata.date_published.as_deref(),
            date_modified: extraction.metadata.date_modified.as_deref(),
            site_name: extraction.metadata.site_name.as_deref(),
            description: extraction.metadata.description.as_deref(),
            canonical_url: extraction.metadata.canonical_url.as_deref(),
            page_type: extraction.page_type.map(|t| t.as_str()),
            confidence: extraction.confidence.map(f64::from),
            // Present with `--markdown` only.
            markdown: self.markdown.then_some(extraction.markdown),
            // Present with `--signals` only (the analyser's `Config`).
            signals: analysis.signals.as_ref(),
            filters: analysis.filters,
            exact_key: analysis.exact_key,
            minhash: self.minhash.then_some(analysis.minhash.as_deref()),
        };
        match self.formatter.render(&page) {
            Ok(rendered) => Outcome::Page(rendered),
            Err(_) => Outcome::Failed(Failed::Write),
        }
    }
}
