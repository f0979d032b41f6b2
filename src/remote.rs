//! Remote inputs: an `http://` or `https://` file read as a stream.
//!
//! [`RemoteReader`] is a [`Read`] over one HTTP GET (ureq; rustls for
//! https). Nothing is downloaded ahead: bytes are handed on as they arrive.
//! When the connection drops, a read fails or times out, or the body ends
//! before its `Content-Length`, the reader asks again from the first byte it
//! has not delivered (`Range: bytes=N-`) and carries on, so the bytes read
//! are exactly the file's bytes and every offset is the file's offset.
//!
//! - A `206` answer must start at the byte asked for (`Content-Range`), and
//!   the file's size (and `ETag`, when the server gives one) must not have
//!   changed; otherwise the read fails rather than splice two versions.
//! - A server that ignores `Range` (`200` again) is read from the start once
//!   more and the first N bytes are discarded: slower, same bytes.
//! - `408`, `429` and `5xx` answers, refused or failed connections and
//!   timeouts are retried after a back-off (`delay`, doubled each time, at
//!   most 30 s), up to `retries` times in a row. Other answers (`404`,
//!   `403`, …) fail at once.
//! - A connection that delivers less than `min_rate` bytes per second of
//!   waiting for them, measured over `timeout` of waiting (a server that
//!   trickles), counts as a failed try: it is dropped and resumed. Time the
//!   caller spends between reads does not count. The count of failures in a row is reset
//!   only by a connection that delivers at that rate, so a trickle that
//!   starts again on every connection fails the input after `retries` more
//!   windows.
//! - After it gives up, the reader returns the error once, then end of
//!   input: the caller reports the error and stops.
//! - A body sent without `Content-Length` or chunking (read until the server
//!   closes) cannot tell a drop from its end. When it ends, the reader asks
//!   for the bytes after it (`Range: bytes=N-`): a `416` naming size N
//!   confirms the end, a `206` (or a `200` with a size) carries on with the
//!   missing bytes. A server that cannot confirm it (a `200` without a size
//!   again) fails the input with an [`RemoteErrorKind::UnknownSize`] error,
//!   unless `allow_unsized` accepts such a body as it is.
//!
//! The reader asks for the body unencoded (`Accept-Encoding: identity`) and
//! hands on the bytes as sent, with the `Content-Encoding` the server gave
//! anyway ([`RemoteReader::content_encoding`]), so that offsets and `Range`
//! requests are in the same bytes; `crate::pipeline` decides what to decode.

use std::borrow::Cow;
use std::io::{self, Read};
use std::path::Path;
use std::time::{Duration, Instant};

/// Longest back-off between two tries.
const MAX_DELAY: Duration = Duration::from_secs(30);

/// True for the inputs read over HTTP: `http://…` and `https://…`.
pub fn is_url(input: &str) -> bool {
    let scheme = |s: &str| {
        input
            .get(..s.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(s))
    };
    scheme("http://") || scheme("https://")
}

/// The last segment of a URL's path (no query, no fragment), e.g.
/// `CC-MAIN-….warc.gz`; `None` when the path is empty or ends with `/`.
pub fn url_file_name(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    let path = rest.get(..end)?;
    let (_, path) = path.split_once('/')?;
    let name = path.rsplit('/').next()?;
    (!name.is_empty()).then_some(name)
}

/// The file name of an input: the last segment of a URL's path, or the
/// path's file name.
pub fn file_name(input: &Path) -> Option<Cow<'_, str>> {
    match input.to_str() {
        Some(url) if is_url(url) => url_file_name(url).map(Cow::Borrowed),
        _ => input.file_name().map(|n| n.to_string_lossy()),
    }
}

/// How hard a [`RemoteReader`] tries.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Failed requests or dropped connections retried in a row before giving up.
    pub retries: u32,
    /// Back-off before the first retry; doubled for each further one.
    pub delay: Duration,
    /// Longest wait for a connection, an answer, or the next bytes of the
    /// body; also the window over which `min_rate` is measured.
    pub timeout: Duration,
    /// Fewest bytes per second of waiting a connection must deliver,
    /// measured over `timeout` of waiting, before it counts as failed (0: no
    /// minimum).
    pub min_rate: u64,
    /// Accept a body sent without a size whose end the server cannot
    /// confirm (see the module docs) instead of failing the input.
    pub allow_unsized: bool,
}

/// The default [`RetryPolicy::min_rate`]: 1 KiB/s, i.e. a connection that
/// delivers less than 60 KiB in the default 60 s window is dropped.
pub const DEFAULT_MIN_RATE: u64 = 1024;

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: 5,
            delay: Duration::from_millis(500),
            timeout: Duration::from_secs(60),
            min_rate: DEFAULT_MIN_RATE,
            allow_unsized: false,
        }
    }
}

impl RetryPolicy {
    /// The defaults, changed by the environment variables `CRAWLSIFT_HTTP_RETRIES`
    /// (a count), `CRAWLSIFT_HTTP_RETRY_DELAY` and `CRAWLSIFT_HTTP_TIMEOUT` (seconds,
    /// fractions allowed), `CRAWLSIFT_HTTP_MIN_RATE` (bytes per second, 0 for
    /// none) and `CRAWLSIFT_HTTP_ALLOW_UNSIZED` (`1`/`true`/`yes` or
    /// `0`/`false`/`no`): what the command line and the Python and Spark
    /// readers pass to the pipeline ([`crate::pipeline::Options::retry`]),
    /// so they are configured the same way. The library itself reads no
    /// environment.
    pub fn from_env() -> Result<RetryPolicy, RemoteError> {
        let mut policy = RetryPolicy::default();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let bad = |name: &str, value: &str, want: &str| RemoteError {
            url: String::new(),
            offset: 0,
            kind: RemoteErrorKind::Config,
            detail: format!("{name}={value:?} is not {want}; fix or unset it"),
        };
        if let Some(v) = var("CRAWLSIFT_HTTP_RETRIES") {
            policy.retries = v
                .trim()
                .parse()
                .map_err(|_| bad("CRAWLSIFT_HTTP_RETRIES", &v, "a count (e.g. 5)"))?;
        }
        if let Some(v) = var("CRAWLSIFT_HTTP_MIN_RATE") {
            policy.min_rate = v.trim().parse().map_err(|_| {
                bad(
                    "CRAWLSIFT_HTTP_MIN_RATE",
                    &v,
                    "a number of bytes per second (e.g. 1024, or 0 for no minimum)",
                )
            })?;
        }
        if let Some(v) = var("CRAWLSIFT_HTTP_ALLOW_UNSIZED") {
            policy.allow_unsized = match v.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" => true,
                "0" | "false" | "no" => false,
                _ => return Err(bad("CRAWLSIFT_HTTP_ALLOW_UNSIZED", &v, "1 or 0")),
            };
        }
        for (name, field) in [
            ("CRAWLSIFT_HTTP_RETRY_DELAY", &mut policy.delay),
            ("CRAWLSIFT_HTTP_TIMEOUT", &mut policy.timeout),
        ] {
            if let Some(v) = var(name) {
                *field = v
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .ok_or_else(|| bad(name, &v, "a number of seconds (e.g. 0.5)"))?;
            }
        }
        Ok(policy)
    }

    fn backoff(&self, retry: u32) -> Duration {
        self.delay
            .saturating_mul(1 << retry.saturating_sub(1).min(16))
            .min(MAX_DELAY)
    }
}

/// What kind of failure a [`RemoteError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteErrorKind {
    /// The server answered with a status that retrying will not change (404, 403, …).
    Status(u16),
    /// Retries were exhausted (connection refused or dropped, timeouts, 5xx).
    GaveUp,
    /// The file on the server changed between two requests.
    Changed,
    /// The server's answer cannot be used (a range other than the one asked for).
    BadAnswer,
    /// The URL or the retry settings are invalid.
    Config,
    /// The body came without a size and the server could not confirm where
    /// it ends (see [`RetryPolicy::allow_unsized`]).
    UnknownSize,
}

/// A remote input that cannot be read (further): names the URL, the byte
/// offset reached, and what the user can do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{url}: {detail}")]
pub struct RemoteError {
    /// The URL being read.
    pub url: String,
    /// Bytes of the file delivered before the failure.
    pub offset: u64,
    /// What kind of failure it is.
    pub kind: RemoteErrorKind,
    /// The message without the URL.
    pub detail: String,
}

/// What one request came to.
enum Attempt {
    /// A body positioned at the byte asked for.
    Body(ureq::BodyReader<'static>),
    /// The file ends exactly at the byte asked for (`416` naming that size).
    End,
    /// Worth another try after a back-off.
    Retry(String),
    Fatal(RemoteErrorKind, String),
}

/// A streaming [`Read`] over an HTTP(S) file that resumes dropped
/// connections with `Range` requests; see the module docs.
pub struct RemoteReader {
    url: String,
    agent: ureq::Agent,
    policy: RetryPolicy,
    body: Option<ureq::BodyReader<'static>>,
    /// Bytes delivered to the caller: the file offset of the next byte.
    position: u64,
    /// The file's size, when the server said.
    len: Option<u64>,
    etag: Option<String>,
    /// The `Content-Encoding` of the first answer (lower case), if any.
    encoding: Option<String>,
    /// A first `200` answer has been seen.
    answered: bool,
    /// The body without a size is chunked: its end is marked, not guessed.
    chunked: bool,
    /// The server answered a request for the bytes after an unsized body's
    /// end in a way that cannot confirm it (a `200` without a size).
    unconfirmable: Option<String>,
    /// Where the end of an unsized body was last checked.
    checked_at: Option<u64>,
    /// Failed tries since a connection last delivered at the minimum rate.
    failures: u32,
    /// Requests sent.
    requests: u32,
    last_error: String,
    /// Why the current connection was dropped, for the next resume.
    dropped: Option<String>,
    /// Time spent waiting in reads of the current connection's body, and
    /// the bytes they received, since the rate was last measured.
    window: (Duration, u64),
    /// The error that ended reading, once returned.
    failed: bool,
    done: bool,
}

impl std::fmt::Debug for RemoteReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteReader")
            .field("url", &self.url)
            .field("position", &self.position)
            .field("len", &self.len)
            .field("requests", &self.requests)
            .finish()
    }
}

impl RemoteReader {
    /// Sends the first request (retrying as the policy says) and returns a
    /// reader at byte 0 of the body.
    pub fn open(url: &str, policy: &RetryPolicy) -> Result<RemoteReader, RemoteError> {
        let timeout = Some(policy.timeout);
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .user_agent(concat!("crawlsift/", env!("CARGO_PKG_VERSION")))
            .timeout_connect(timeout)
            .timeout_recv_response(timeout)
            .timeout_per_read(timeout)
            .build();
        let mut reader = RemoteReader {
            url: url.to_string(),
            agent: config.into(),
            policy: policy.clone(),
            body: None,
            position: 0,
            len: None,
            etag: None,
            encoding: None,
            answered: false,
            chunked: false,
            unconfirmable: None,
            checked_at: None,
            failures: 0,
            requests: 0,
            last_error: String::new(),
            dropped: None,
            window: (Duration::ZERO, 0),
            failed: false,
            done: false,
        };
        reader.connect()?;
        Ok(reader)
    }

    /// The URL being read.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The file's size from the server's `Content-Length`, when given.
    pub fn len(&self) -> Option<u64> {
        self.len
    }

    /// Whether the server said the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == Some(0)
    }

    /// The `Content-Encoding` the server sent the body with (lower case),
    /// although `identity` was asked for; `None` without one.
    pub fn content_encoding(&self) -> Option<&str> {
        self.encoding.as_deref()
    }

    /// Bytes delivered so far (the file offset of the next byte).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// How many requests were sent after the first (resumed or retried).
    pub fn resumes(&self) -> u32 {
        self.requests.saturating_sub(1)
    }

    fn error(&self, kind: RemoteErrorKind, detail: String) -> RemoteError {
        RemoteError {
            url: self.url.clone(),
            offset: self.position,
            kind,
            detail,
        }
    }

    /// Gets a body positioned at `self.position`, retrying with back-off
    /// while fewer than `retries` tries in a row have failed.
    fn connect(&mut self) -> Result<(), RemoteError> {
        loop {
            if self.failures > 0 {
                if self.failures > self.policy.retries {
                    let at = match self.len {
                        Some(len) => format!("at byte {} of {len}", self.position),
                        None => format!("at byte {}", self.position),
                    };
                    let slow = self.last_error.contains("minimum rate");
                    return Err(self.error(
                        RemoteErrorKind::GaveUp,
                        format!(
                            "reading stopped {at} after {} in a row (last: {}); check the network or the server and run again, or raise CRAWLSIFT_HTTP_RETRIES / CRAWLSIFT_HTTP_TIMEOUT{}",
                            if self.failures == 1 {
                                "1 failure".to_string()
                            } else {
                                format!("{} failures", self.failures)
                            },
                            self.last_error,
                            if slow {
                                " or lower the minimum rate (CRAWLSIFT_HTTP_MIN_RATE, http_min_rate= in Python)"
                            } else {
                                ""
                            }
                        ),
                    ));
                }
                std::thread::sleep(self.policy.backoff(self.failures));
            }
            self.requests += 1;
            match self.request() {
                Attempt::Body(body) => {
                    self.body = Some(body);
                    self.window = (Duration::ZERO, 0);
                    return Ok(());
                }
                Attempt::End => {
                    self.done = true;
                    return Ok(());
                }
                Attempt::Retry(why) => {
                    self.last_error = why;
                    self.failures += 1;
                }
                Attempt::Fatal(kind, detail) => return Err(self.error(kind, detail)),
            }
        }
    }

    /// One GET from `self.position`. The first answer gives the file's
    /// size and validator, which later answers must repeat.
    fn request(&mut self) -> Attempt {
        let from = self.position;
        let initial = !self.answered;
        let mut request = self
            .agent
            .get(&self.url)
            .header("Accept-Encoding", "identity");
        if from > 0 {
            request = request.header("Range", format!("bytes={from}-"));
        }
        let response = match request.call() {
            Ok(response) => response,
            Err(e) => {
                return match e {
                    // rustls reports a certificate it rejects as InvalidData:
                    // asking again will not change it.
                    ureq::Error::Io(ref io) if io.kind() == io::ErrorKind::InvalidData => {
                        Attempt::Fatal(
                            RemoteErrorKind::Config,
                            format!("the connection failed ({e}); check the URL and the server's TLS certificate"),
                        )
                    }
                    ureq::Error::Io(_)
                    | ureq::Error::Timeout(_)
                    | ureq::Error::HostNotFound
                    | ureq::Error::ConnectionFailed
                    | ureq::Error::Protocol(_)
                    | ureq::Error::BodyStalled => Attempt::Retry(e.to_string()),
                    _ => Attempt::Fatal(
                        RemoteErrorKind::Config,
                        format!("the request failed ({e}); check the URL"),
                    ),
                };
            }
        };
        let status = response.status();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let etag = header("etag").filter(|e| !e.starts_with("W/"));
        let content_range = header("content-range");
        let encoding = header("content-encoding")
            .map(|e| e.trim().to_ascii_lowercase())
            .filter(|e| !e.is_empty() && e != "identity");
        let chunked =
            header("transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
        let length = response.body().content_length();
        let code = status.as_u16();
        let reason = status.canonical_reason().unwrap_or("");
        if initial {
            self.etag = etag.clone();
        } else if let (Some(was), Some(now)) = (&self.etag, &etag) {
            if was != now && (200..300).contains(&code) {
                return Attempt::Fatal(
                    RemoteErrorKind::Changed,
                    format!("the file changed on the server while it was read (ETag {was} became {now}); run again"),
                );
            }
        }
        if (200..300).contains(&code) && !initial && encoding != self.encoding {
            return Attempt::Fatal(
                RemoteErrorKind::Changed,
                format!(
                    "the server sent the file with Content-Encoding {}, after {} at first; run again",
                    encoding.as_deref().unwrap_or("identity"),
                    self.encoding.as_deref().unwrap_or("identity")
                ),
            );
        }
        match code {
            200 => {
                if initial {
                    self.len = length;
                    self.encoding = encoding;
                    self.chunked = chunked;
                    self.answered = true;
                }
                match (self.len, length) {
                    (Some(len), Some(now)) if len != now => {
                        return Attempt::Fatal(
                            RemoteErrorKind::Changed,
                            format!("the file changed on the server while it was read (its size was {len} bytes, now {now}); run again"),
                        );
                    }
                    (None, Some(now)) if now < from => {
                        return Attempt::Fatal(
                            RemoteErrorKind::Changed,
                            format!("the file changed on the server while it was read ({from} bytes were read, it now has {now}); run again"),
                        );
                    }
                    (None, Some(now)) => self.len = Some(now),
                    (None, None) if from > 0 && !chunked => {
                        self.unconfirmable = Some(format!(
                            "asked for the bytes from byte {from}, it sent the whole file again (200), still without a size"
                        ));
                    }
                    _ => {}
                }
                let mut body = response.into_body().into_reader();
                if from > 0 {
                    // The server ignored the Range header: skip what was delivered.
                    match io::copy(&mut (&mut body).take(from), &mut io::sink()) {
                        Ok(n) if n == from => {}
                        Ok(n) => {
                            return Attempt::Retry(format!(
                                "the server does not support Range requests and the body ended after {n} of the {from} bytes to skip"
                            ))
                        }
                        Err(e) => {
                            return Attempt::Retry(format!(
                                "the server does not support Range requests and reading the {from} bytes to skip failed: {e}"
                            ))
                        }
                    }
                }
                Attempt::Body(body)
            }
            206 if from > 0 => {
                let Some((start, total)) = content_range.as_deref().and_then(parse_content_range)
                else {
                    return Attempt::Fatal(
                        RemoteErrorKind::BadAnswer,
                        format!(
                            "the server answered 206 to a request from byte {from} with {}; download the file and extract it locally",
                            match &content_range {
                                Some(range) => format!("an unusable Content-Range ({range})"),
                                None => "no Content-Range".into(),
                            }
                        ),
                    );
                };
                if let (Some(len), Some(total)) = (self.len, total) {
                    if len != total {
                        return Attempt::Fatal(
                            RemoteErrorKind::Changed,
                            format!("the file changed on the server while it was read (its size was {len} bytes, now {total}); run again"),
                        );
                    }
                }
                if start != from {
                    return Attempt::Fatal(
                        RemoteErrorKind::BadAnswer,
                        format!("asked for the bytes from {from}, the server sent the bytes from {start}; download the file and extract it locally"),
                    );
                }
                if self.len.is_none() {
                    self.len = total;
                }
                Attempt::Body(response.into_body().into_reader())
            }
            416 if from > 0 => {
                let total = content_range.as_deref().and_then(|v| {
                    v.trim()
                        .strip_prefix("bytes */")
                        .and_then(|t| t.trim().parse::<u64>().ok())
                });
                match total {
                    Some(total) if total == from => {
                        self.len = Some(total);
                        Attempt::End
                    }
                    Some(total) => Attempt::Fatal(
                        RemoteErrorKind::Changed,
                        format!("the server has no bytes from byte {from} on (416 Range Not Satisfiable): it says the file has {total} bytes now; the file changed or was cut on the server; run again"),
                    ),
                    None => Attempt::Fatal(
                        RemoteErrorKind::BadAnswer,
                        format!("the server has no bytes from byte {from} on (416 Range Not Satisfiable) and does not say the file's size; the file changed or was cut on the server; run again"),
                    ),
                }
            }
            408 | 429 | 500..=599 => Attempt::Retry(format!("the server answered {code} {reason}")),
            _ => {
                let hint = match code {
                    404 | 410 => "; check the URL (with --base-url: that the base and the paths list belong together)",
                    401 | 403 => "; the server refuses access: check the URL and whether it needs a signed address",
                    _ => "; check the URL",
                };
                Attempt::Fatal(
                    RemoteErrorKind::Status(code),
                    format!("the server answered {code} {reason}{hint}"),
                )
            }
        }
    }

    /// The connection failed at `self.position`: drop it and reconnect.
    fn resume(&mut self, why: String) -> io::Result<()> {
        self.body = None;
        self.last_error = why;
        self.failures += 1;
        self.reconnect()
    }

    fn reconnect(&mut self) -> io::Result<()> {
        self.connect().map_err(|e| {
            self.failed = true;
            io::Error::other(e)
        })
    }

    /// Counts `n` bytes received on the current connection after waiting
    /// `waited` for them in a read: a connection at the minimum rate resets
    /// the failures; one below it over a whole window is dropped, to be
    /// resumed as a failed try. Only time spent waiting in reads counts: a
    /// caller that reads slowly does not make the connection slow.
    fn received(&mut self, n: u64, waited: Duration) {
        self.window.0 += waited;
        self.window.1 += n;
        let rate = self.policy.min_rate;
        if rate == 0 {
            self.failures = 0;
            return;
        }
        let window = self.policy.timeout.max(Duration::from_millis(1));
        if self.window.1 as f64 >= rate as f64 * window.as_secs_f64() {
            self.failures = 0;
        }
        let (waited, bytes) = self.window;
        if waited >= window {
            if (bytes as f64) < rate as f64 * waited.as_secs_f64() {
                self.body = None;
                self.dropped = Some(format!(
                    "only {bytes} bytes arrived in {:.1} s, below the minimum rate of {rate} bytes/s",
                    waited.as_secs_f64()
                ));
            }
            self.window = (Duration::ZERO, 0);
        }
    }

    /// An unsized body ended at `self.position`: ask for the bytes after it
    /// to tell the end of the file from a cut connection.
    fn check_end(&mut self) -> io::Result<()> {
        let position = self.position;
        if let Some(answer) = self.unconfirmable.take().or_else(|| {
            (self.checked_at == Some(position)).then(|| {
                format!("asked for the bytes from byte {position}, it sent none, without a size")
            })
        }) {
            self.failed = true;
            return Err(io::Error::other(self.error(
                RemoteErrorKind::UnknownSize,
                format!(
                    "the server sent the file without a size (no Content-Length), so the end of its body at byte {position} cannot be told from a cut connection ({answer}); download the file and extract it locally, or accept such bodies as they are (CRAWLSIFT_HTTP_ALLOW_UNSIZED=1)"
                ),
            )));
        }
        self.checked_at = Some(self.position);
        self.body = None;
        self.reconnect()
    }
}

/// `bytes START-END/TOTAL` (TOTAL may be `*`) → (START, TOTAL).
fn parse_content_range(value: &str) -> Option<(u64, Option<u64>)> {
    let rest = value.trim().strip_prefix("bytes")?.trim_start();
    let (range, total) = rest.split_once('/')?;
    let (start, _end) = range.trim().split_once('-')?;
    let total = match total.trim() {
        "*" => None,
        t => Some(t.parse().ok()?),
    };
    Some((start.trim().parse().ok()?, total))
}

impl Read for RemoteReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if self.failed || self.done {
                return Ok(0);
            }
            let Some(body) = self.body.as_mut() else {
                let why = self
                    .dropped
                    .take()
                    .unwrap_or_else(|| "no connection".into());
                self.resume(why)?;
                continue;
            };
            let started = Instant::now();
            match body.read(out) {
                Ok(0) => match self.len {
                    Some(len) if self.position < len => {
                        self.resume(format!("the body ended at byte {} of {len}", self.position))?;
                    }
                    None if !self.chunked && !self.policy.allow_unsized => self.check_end()?,
                    _ => {
                        self.done = true;
                        return Ok(0);
                    }
                },
                Ok(n) => {
                    self.position += n as u64;
                    self.received(n as u64, started.elapsed());
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => self.resume(e.to_string())?,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_recognised_and_named_by_their_last_segment() {
        assert!(is_url("https://data.commoncrawl.org/crawl-data/x.warc.gz"));
        assert!(is_url("HTTP://127.0.0.1:80/x"));
        assert!(!is_url("httpx://a"));
        assert!(!is_url("crawl-data/x.warc.gz"));
        assert!(!is_url("/tmp/http://x"));
        assert_eq!(
            url_file_name("https://h/crawl-data/CC-MAIN-1/a.warc.gz?sig=1#f"),
            Some("a.warc.gz")
        );
        assert_eq!(url_file_name("http://h:8/a.warc"), Some("a.warc"));
        assert_eq!(url_file_name("http://h/dir/"), None);
        assert_eq!(url_file_name("http://h"), None);
        assert_eq!(url_file_name("http://h?x=/y"), None);
    }

    #[test]
    fn content_ranges_are_parsed_strictly() {
        assert_eq!(
            parse_content_range("bytes 100-199/200"),
            Some((100, Some(200)))
        );
        assert_eq!(parse_content_range("bytes 5-9/*"), Some((5, None)));
        assert_eq!(parse_content_range("bytes */200"), None);
        assert_eq!(parse_content_range("items 1-2/3"), None);
        assert_eq!(parse_content_range("bytes x-9/10"), None);
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let policy = RetryPolicy {
            delay: Duration::from_millis(500),
            ..RetryPolicy::default()
        };
        assert_eq!(policy.backoff(1), Duration::from_millis(500));
        assert_eq!(policy.backoff(2), Duration::from_secs(1));
        assert_eq!(policy.backoff(4), Duration::from_secs(4));
        assert_eq!(policy.backoff(40), MAX_DELAY);
    }
}
