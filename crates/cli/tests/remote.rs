//! Remote inputs (`http://`) against a server on 127.0.0.1 that this test
//! starts and makes misbehave: it drops the connection at chosen offsets,
//! may ignore `Range`, send no `Content-Length`, trickle, tag the body with
//! a `Content-Encoding`, and answers 404 for unknown paths. `crawlsift
//! extract URL` must write what `crawlsift extract FILE` writes, or fail
//! the input naming its URL and offset.

use crawlsift::remote::{RemoteReader, RetryPolicy};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "../../../tests/support/shared.rs"]
mod support;
/// Every socket operation of the server and the clients is bounded by this.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The server stops by itself after this long, whatever the test does.
const SERVER_LIFETIME: Duration = Duration::from_secs(120);

fn shared(name: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How the server misbehaves.
#[derive(Clone, Default)]
struct Behaviour {
    /// Answer every request with `200` and the whole file (no Range support).
    ignore_range: bool,
    /// File offsets at which a response is cut (the socket closed after
    /// sending the bytes before it); each is used once, in order.
    drops: Vec<u64>,
    /// Cut every response at this offset (one that starts there sends no
    /// body byte), forever.
    always_drop_at: Option<u64>,
    /// From the second request on, serve the file with these bytes
    /// appended and another ETag (the file changed on the server).
    changed_tail: Option<&'static [u8]>,
    /// Send `200` answers without `Content-Length`: the body ends when the
    /// server closes the connection.
    no_length: bool,
    /// Send the body one byte at a time, this long apart.
    trickle: Option<Duration>,
    /// Send this `Content-Encoding` header with the body.
    content_encoding: Option<&'static str>,
    /// Answer every Range request with `416` and `Content-Range: bytes */N`.
    refuse_ranges_with_size: Option<u64>,
}

struct Server {
    port: u16,
    requests: Arc<AtomicUsize>,
    /// The `Range` header of each request (`None` without one).
    ranges: Arc<Mutex<Vec<Option<String>>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Serves `files` (URL path → bytes) until dropped or SERVER_LIFETIME.
    fn start(files: HashMap<String, Vec<u8>>, behaviour: Behaviour) -> Server {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|e| panic!("bind: {e}"));
        listener
            .set_nonblocking(true)
            .unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
        let requests = Arc::new(AtomicUsize::new(0));
        let ranges = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let state = (
            Arc::new(files),
            Arc::new(Mutex::new(behaviour)),
            Arc::clone(&requests),
            Arc::clone(&ranges),
            Arc::clone(&stop),
        );
        std::thread::spawn(move || {
            let (files, behaviour, requests, ranges, stop) = state;
            let started = Instant::now();
            while !stop.load(Ordering::Relaxed) && started.elapsed() < SERVER_LIFETIME {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let files = Arc::clone(&files);
                        let behaviour = Arc::clone(&behaviour);
                        let requests = Arc::clone(&requests);
                        let ranges = Arc::clone(&ranges);
                        std::thread::spawn(move || {
                            // A failed write is the client going away: nothing to do.
                            let _ = serve(stream, &files, &behaviour, &requests, &ranges);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Server {
            port,
            requests,
            ranges,
            stop,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// One request per connection: parse the head, answer, close.
fn serve(
    stream: TcpStream,
    files: &HashMap<String, Vec<u8>>,
    behaviour: &Mutex<Behaviour>,
    requests: &AtomicUsize,
    ranges: &Mutex<Vec<Option<String>>>,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    let mut head = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    head.read_line(&mut request_line)?;
    let mut range = None;
    loop {
        let mut line = String::new();
        if head.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("range") {
                range = Some(value.trim().to_string());
            }
        }
    }
    let earlier = requests.fetch_add(1, Ordering::Relaxed);
    if let Ok(mut r) = ranges.lock() {
        r.push(range.clone());
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .trim_start_matches('/');
    let mut out = stream;
    let Some(data) = files.get(path).cloned() else {
        let body = b"not here";
        write!(
            out,
            "HTTP/1.1 404 Not Found\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )?;
        return out.write_all(body);
    };
    let mut b = behaviour
        .lock()
        .map_err(|_| std::io::Error::other("poisoned"))?;
    let (data, etag) = match b.changed_tail {
        Some(tail) if earlier > 0 => ([data, tail.to_vec()].concat(), "\"v2\""),
        _ => (data, "\"v1\""),
    };
    let len = data.len() as u64;
    let (ignore_range, cut) = {
        let from = start_of(range.as_deref()).filter(|_| !b.ignore_range);
        let from = from.unwrap_or(0);
        let cut = match b.drops.first().copied() {
            Some(d) if d > from && d < len => {
                b.drops.remove(0);
                Some(d)
            }
            _ => b.always_drop_at.map(|d| d.max(from)),
        };
        (b.ignore_range, cut)
    };
    let (no_length, trickle, encoding, refuse) = (
        b.no_length,
        b.trickle,
        b.content_encoding,
        b.refuse_ranges_with_size,
    );
    drop(b);
    let from = if ignore_range {
        0
    } else {
        start_of(range.as_deref()).unwrap_or(0)
    };
    let encoding = encoding.map_or(String::new(), |e| format!("Content-Encoding: {e}\r\n"));
    if from > 0 && (from >= len || refuse.is_some()) {
        return write!(
            out,
            "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            refuse.unwrap_or(len)
        );
    }
    if from > 0 {
        write!(
            out,
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {from}-{}/{len}\r\nContent-Length: {}\r\n{encoding}ETag: {etag}\r\nConnection: close\r\n\r\n",
            len - 1,
            len - from
        )?;
    } else {
        write!(
            out,
            "HTTP/1.1 200 OK\r\n{}{}{encoding}ETag: {etag}\r\nConnection: close\r\n\r\n",
            if no_length {
                String::new()
            } else {
                format!("Content-Length: {len}\r\n")
            },
            if ignore_range {
                ""
            } else {
                "Accept-Ranges: bytes\r\n"
            }
        )?;
    }
    let end = cut.unwrap_or(len).min(len) as usize;
    let body = data.get(from as usize..end).unwrap_or_default();
    match trickle {
        Some(every) => {
            for byte in body.chunks(1) {
                out.write_all(byte)?;
                out.flush()?;
                std::thread::sleep(every);
            }
        }
        None => out.write_all(body)?,
    }
    out.flush()?;
    // Closing here, before Content-Length bytes were sent, is the drop.
    out.shutdown(std::net::Shutdown::Both)
}

/// `bytes=N-` → N.
fn start_of(range: Option<&str>) -> Option<u64> {
    range?
        .strip_prefix("bytes=")?
        .strip_suffix('-')?
        .parse()
        .ok()
}

fn crawlsift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("extract")
        .args(args)
        .env("CRAWLSIFT_HTTP_RETRY_DELAY", "0.01")
        .env("CRAWLSIFT_HTTP_TIMEOUT", "10")
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn ok(out: Output) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_else(|| panic!("non-UTF-8 path"))
}

fn serve_one(name: &str, behaviour: Behaviour) -> (Server, PathBuf) {
    let local = shared(name);
    let files = HashMap::from([(name.to_string(), read(&local))]);
    (Server::start(files, behaviour), local)
}

fn fast_policy() -> RetryPolicy {
    RetryPolicy {
        retries: 5,
        delay: Duration::from_millis(10),
        timeout: IO_TIMEOUT,
        ..RetryPolicy::default()
    }
}

/// The reader delivers exactly the file's bytes although the server cuts
/// three responses, and resumes each with a Range from the byte it stopped at.
#[test]
fn reader_resumes_dropped_connections_with_ranges() {
    let name = "resiliparse_warcfile.warc.gz";
    let drops = vec![1, 40_000, 40_001, 100_000];
    let (server, local) = serve_one(
        name,
        Behaviour {
            drops: drops.clone(),
            ..Behaviour::default()
        },
    );
    let mut reader =
        RemoteReader::open(&server.url(name), &fast_policy()).unwrap_or_else(|e| panic!("{e}"));
    let expected = read(&local);
    assert_eq!(reader.len(), Some(expected.len() as u64));
    let mut got = Vec::new();
    reader
        .read_to_end(&mut got)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(got == expected, "the bytes differ from the file's");
    assert_eq!(reader.resumes(), 4);
    let ranges = server.ranges.lock().map(|r| r.clone()).unwrap_or_default();
    let mut wanted = vec![None];
    wanted.extend(drops.iter().map(|d| Some(format!("bytes={d}-"))));
    assert_eq!(ranges, wanted);
}

/// A server without Range support: the reader reads from the start again
/// and discards what it already delivered.
#[test]
fn reader_restarts_when_the_server_ignores_range() {
    let name = "dolma_sample-0000.warc.gz";
    let (server, local) = serve_one(
        name,
        Behaviour {
            ignore_range: true,
            drops: vec![70_000, 150_000],
            ..Behaviour::default()
        },
    );
    let mut reader =
        RemoteReader::open(&server.url(name), &fast_policy()).unwrap_or_else(|e| panic!("{e}"));
    let mut got = Vec::new();
    reader
        .read_to_end(&mut got)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(got == read(&local), "the bytes differ from the file's");
    assert_eq!(server.requests(), 3);
}

/// A server that cuts at the same byte every time: the reader gives up after
/// the configured retries with an error naming the URL and the offset, then
/// reports end of input.
#[test]
fn reader_gives_up_after_the_retries() {
    let name = "cc_whirlwind.warc.gz";
    let (server, _) = serve_one(
        name,
        Behaviour {
            always_drop_at: Some(5_000),
            ..Behaviour::default()
        },
    );
    let policy = RetryPolicy {
        retries: 2,
        ..fast_policy()
    };
    let url = server.url(name);
    let mut reader = RemoteReader::open(&url, &policy).unwrap_or_else(|e| panic!("{e}"));
    let mut got = Vec::new();
    let err = reader
        .read_to_end(&mut got)
        .expect_err("a file that is always cut cannot be read");
    let message = err.to_string();
    assert!(
        message.contains(&url) && message.contains("at byte 5000 of 18857"),
        "{message}"
    );
    assert_eq!(got.len(), 5_000);
    // The first request, then 2 retries that each get no further.
    assert_eq!(server.requests(), 3);
    let mut rest = Vec::new();
    assert_eq!(reader.read_to_end(&mut rest).ok(), Some(0));
}

/// A resumed answer from a file that changed meanwhile is refused, not spliced.
#[test]
fn reader_refuses_a_file_that_changed_between_requests() {
    let name = "cc_whirlwind.warc.gz";
    let (server, _) = serve_one(
        name,
        Behaviour {
            drops: vec![10_000],
            changed_tail: Some(b"appended"),
            ..Behaviour::default()
        },
    );
    let url = server.url(name);
    let mut reader = RemoteReader::open(&url, &fast_policy()).unwrap_or_else(|e| panic!("{e}"));
    let mut got = Vec::new();
    let err = reader
        .read_to_end(&mut got)
        .expect_err("two versions of a file must not be spliced");
    let message = err.to_string();
    assert!(
        message.contains(&url) && message.contains("changed on the server"),
        "{message}"
    );
    assert_eq!(got.len(), 10_000);
    assert_eq!(server.requests(), 2, "a changed file is not retried");
}

#[test]
fn reader_names_the_url_of_a_404() {
    let (server, _) = serve_one("cc_whirlwind.warc.gz", Behaviour::default());
    let url = server.url("nothing/here.warc.gz");
    let err = RemoteReader::open(&url, &fast_policy()).expect_err("404");
    let message = err.to_string();
    assert!(
        message.contains(&url) && message.contains("404"),
        "{message}"
    );
    assert_eq!(server.requests(), 1, "a 404 is not retried");
}

/// `crawlsift extract URL` writes the same JSONL as `crawlsift extract FILE` (same
/// offsets, lengths and warc_filename), for a gzip and a plain WARC, with
/// the connection dropped mid-record several times.
#[test]
fn extract_from_a_dropping_server_equals_the_local_file() {
    for (name, drops) in [
        ("resiliparse_warcfile.warc.gz", vec![3_000, 60_000, 120_000]),
        (
            "warcio_example-iana.org-chunked.warc",
            vec![100, 2_500, 8_000],
        ),
    ] {
        let (server, local) = serve_one(
            name,
            Behaviour {
                drops,
                ..Behaviour::default()
            },
        );
        let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
        assert!(!expected.is_empty(), "{name}: no pages extracted locally");
        let got = ok(crawlsift(&[&server.url(name), "--quiet"]));
        assert!(
            got == expected,
            "{name}: remote output differs from the local one:\n{}\n---\n{}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&expected)
        );
        assert_eq!(server.requests(), 4, "{name}: one request and 3 resumes");
    }
}

#[test]
fn extract_from_a_server_without_range_support_equals_the_local_file() {
    let name = "resiliparse_warcfile.warc.gz";
    let (server, local) = serve_one(
        name,
        Behaviour {
            ignore_range: true,
            drops: vec![50_000],
            ..Behaviour::default()
        },
    );
    let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
    let got = ok(crawlsift(&[&server.url(name), "--quiet"]));
    assert!(got == expected, "remote output differs from the local one");
    assert_eq!(server.requests(), 2);
}

/// A 404 fails the run naming the URL; the other inputs are still extracted.
#[test]
fn a_missing_url_fails_the_run_and_the_rest_is_extracted() {
    let (server, local) = serve_one("jwarc_cc.warc.gz", Behaviour::default());
    let missing = server.url("crawl-data/missing.warc.gz");
    let out = crawlsift(&[&missing, path_str(&local), "--quiet"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&missing) && stderr.contains("404 Not Found"),
        "{stderr}"
    );
    let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
    assert!(!expected.is_empty());
    assert_eq!(out.stdout, expected);
}

/// A remote `.warc.lz4` (told by its first bytes, as a local one) gives
/// the local file's pages, through dropped connections resumed mid-frame.
#[test]
fn a_remote_lz4_warc_equals_the_local_one() {
    let name = "resiliparse_warcfile.warc.lz4";
    let (server, local) = serve_one(
        name,
        Behaviour {
            drops: vec![5_000, 90_000],
            ..Behaviour::default()
        },
    );
    let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
    assert!(!expected.is_empty());
    let got = ok(crawlsift(&[&server.url(name), "--quiet"]));
    assert!(got == expected, "remote output differs from the local one");
}

/// `--paths` with Common Crawl style relative entries and `--base-url`;
/// outputs are named after the URL's last segment.
#[test]
fn paths_list_with_base_url() {
    let names = ["cc_whirlwind.warc.gz", "dolma_sample-0001.warc.gz"];
    let files: HashMap<String, Vec<u8>> = names
        .iter()
        .map(|n| (format!("mirror/crawl-data/{n}"), read(&shared(n))))
        .collect();
    let server = Server::start(
        files,
        Behaviour {
            drops: vec![100_000],
            ..Behaviour::default()
        },
    );
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let list = dir.path().join("warc.paths");
    let entries: Vec<String> = names.iter().map(|n| format!("crawl-data/{n}")).collect();
    std::fs::write(&list, entries.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    let remote_out = dir.path().join("remote");
    let local_out = dir.path().join("local");
    let base = server.url("mirror/");
    ok(crawlsift(&[
        "--paths",
        path_str(&list),
        "--base-url",
        &base,
        "-o",
        path_str(&remote_out),
        "--quiet",
    ]));
    let locals: Vec<PathBuf> = names.iter().map(|n| shared(n)).collect();
    let mut args: Vec<&str> = locals.iter().map(|p| path_str(p)).collect();
    args.extend(["-o", path_str(&local_out), "--quiet"]);
    ok(crawlsift(&args));
    for output in ["cc_whirlwind.jsonl", "dolma_sample-0001.jsonl"] {
        let got = read(&remote_out.join(output));
        assert!(!got.is_empty(), "{output} is empty");
        assert!(got == read(&local_out.join(output)), "{output} differs");
    }
    assert_eq!(server.requests(), 3, "two files and one resume");
}

/// A download that fails for good fails the run and leaves no complete
/// output behind, so a rerun reads the input again.
#[test]
fn a_failed_download_is_not_taken_for_a_complete_output() {
    let name = "dolma_sample-0000.warc.gz";
    let (server, local) = serve_one(
        name,
        Behaviour {
            always_drop_at: Some(100_000),
            ..Behaviour::default()
        },
    );
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let url = server.url(name);
    let run = |url: &str| {
        Command::new(env!("CARGO_BIN_EXE_crawlsift"))
            .args(["extract", url, "-o", path_str(dir.path()), "--quiet"])
            .env("CRAWLSIFT_HTTP_RETRY_DELAY", "0.01")
            .env("CRAWLSIFT_HTTP_RETRIES", "2")
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let out = run(&url);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&url) && stderr.contains("at byte 100000 of 214006"),
        "{stderr}"
    );
    let output = dir.path().join("dolma_sample-0000.jsonl");
    assert!(!output.exists(), "a cut download must not look complete");

    let (good, _) = serve_one(name, Behaviour::default());
    let out = run(&good.url(name));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
    assert!(read(&output) == expected);
}

/// Resume knows a URL by all of it: another crawl's file of the same name,
/// or the same path with another query, is not taken for the output it
/// would share; it is refused, without a request, and the output is kept.
#[test]
fn another_url_with_the_same_file_name_is_refused_not_skipped() {
    let files = HashMap::from([
        (
            "crawl-a/x.warc.gz".to_string(),
            read(&shared("jwarc_cc.warc.gz")),
        ),
        (
            "crawl-b/x.warc.gz".to_string(),
            read(&shared("cc_whirlwind.warc.gz")),
        ),
    ]);
    let server = Server::start(files, Behaviour::default());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let run = |url: &str| crawlsift(&[url, "-o", path_str(dir.path()), "--quiet"]);
    let first = server.url("crawl-a/x.warc.gz");
    ok(run(&first));
    let kept = read(&dir.path().join("x.jsonl"));
    assert_eq!(server.requests(), 1);
    for other in [server.url("crawl-b/x.warc.gz"), format!("{first}?crawl=2")] {
        let out = run(&other);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{other}: {stderr}");
        assert!(
            stderr.contains("written from another input") && stderr.contains(&first),
            "{stderr}"
        );
        assert_eq!(server.requests(), 1, "refused before any request");
        assert!(read(&dir.path().join("x.jsonl")) == kept);
    }
    // The same URL again is complete: skipped without a request.
    ok(run(&first));
    assert_eq!(server.requests(), 1);
}

/// The paths list itself may be a URL (gzipped, like Common Crawl's
/// warc.paths.gz); its relative entries resolve against --base-url.
#[test]
fn paths_list_read_from_a_url() {
    let names = ["jwarc_cc.warc.gz", "cc_whirlwind.warc.gz"];
    let list: String = names.iter().map(|n| format!("crawl-data/{n}\n")).collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(list.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut files: HashMap<String, Vec<u8>> = names
        .iter()
        .map(|n| (format!("crawl-data/{n}"), read(&shared(n))))
        .collect();
    files.insert(
        "warc.paths.gz".into(),
        gz.finish().unwrap_or_else(|e| panic!("{e}")),
    );
    let server = Server::start(files, Behaviour::default());
    let got = ok(crawlsift(&[
        "--paths",
        &server.url("warc.paths.gz"),
        "--base-url",
        &server.url(""),
        "--quiet",
    ]));
    let locals: Vec<PathBuf> = names.iter().map(|n| shared(n)).collect();
    let mut args: Vec<&str> = locals.iter().map(|p| path_str(p)).collect();
    args.push("--quiet");
    let expected = ok(crawlsift(&args));
    assert_eq!(jsonl_lines(&expected), 2);
    assert!(got == expected, "remote output differs from the local one");
}

fn jsonl_lines(out: &[u8]) -> usize {
    out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count()
}

/// `crawlsift extract ARGS` with `env`, killed if it runs past `limit`:
/// (output, how long it ran).
fn crawlsift_within(args: &[&str], env: &[(&str, &str)], limit: Duration) -> (Output, Duration) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crawlsift"));
    command
        .arg("extract")
        .args(args)
        .env("CRAWLSIFT_HTTP_RETRY_DELAY", "0.01")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let started = Instant::now();
    let mut child = command.spawn().unwrap_or_else(|e| panic!("{e}"));
    // Both pipes are drained while the child runs: a child whose output
    // fills a pipe nobody reads would block, and look like a hang.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = std::io::Read::read_to_end(&mut pipe, &mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    while started.elapsed() < limit {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let ran = started.elapsed();
    let _ = child.kill();
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let output = Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    (output, ran)
}

/// A server that sends one byte every 200 ms (and starts again on every
/// connection) is dropped once a window of CRAWLSIFT_HTTP_TIMEOUT delivers
/// less than CRAWLSIFT_HTTP_MIN_RATE bytes/s, and the input fails after the
/// retries, naming its URL and offset; it leaves no complete output.
#[test]
fn a_trickling_server_fails_the_input_at_the_minimum_rate() {
    let name = "cc_whirlwind.warc.gz";
    let (server, _) = serve_one(
        name,
        Behaviour {
            trickle: Some(Duration::from_millis(200)),
            ..Behaviour::default()
        },
    );
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let url = server.url(name);
    let (out, ran) = crawlsift_within(
        &[&url, "-o", path_str(dir.path()), "--quiet"],
        &[
            ("CRAWLSIFT_HTTP_TIMEOUT", "1"),
            ("CRAWLSIFT_HTTP_MIN_RATE", "100"),
            ("CRAWLSIFT_HTTP_RETRIES", "1"),
        ],
        Duration::from_secs(30),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(ran < Duration::from_secs(15), "still reading after {ran:?}");
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&url)
            && stderr.contains("below the minimum rate of 100 bytes/s")
            && stderr.contains("reading stopped at byte "),
        "{stderr}"
    );
    assert!(!dir.path().join("cc_whirlwind.jsonl").exists());
    // The first connection and one retry, each given one window.
    assert_eq!(server.requests(), 2);
}

/// The offset of the last page the local file gives: a record boundary
/// (a gzip member's start for `.warc.gz`).
fn last_record_offset(local: &Path) -> u64 {
    let out = ok(crawlsift(&[path_str(local), "--quiet"]));
    let last = out
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .unwrap_or_else(|| panic!("no pages"));
    let row: serde_json::Value = serde_json::from_slice(last).unwrap_or_else(|e| panic!("{e}"));
    row["offset"]
        .as_u64()
        .unwrap_or_else(|| panic!("no offset in {row}"))
}

/// A body sent without Content-Length and cut at a record boundary looks
/// like a whole WARC: the reader asks for the bytes after its end, gets
/// them (206) and carries on; an uncut one is confirmed by a 416 naming
/// its size. Either way the output is the local file's.
#[test]
fn an_unsized_body_cut_at_a_record_boundary_is_resumed() {
    for name in [
        "resiliparse_warcfile.warc.gz",
        "warcio_example-iana.org-chunked.warc",
    ] {
        let local = shared(name);
        let boundary = last_record_offset(&local);
        assert!(boundary > 0, "{name}: one record only");
        let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
        for drops in [vec![boundary], vec![]] {
            let (server, _) = serve_one(
                name,
                Behaviour {
                    no_length: true,
                    drops: drops.clone(),
                    ..Behaviour::default()
                },
            );
            let got = ok(crawlsift(&[&server.url(name), "--quiet"]));
            assert!(
                got == expected,
                "{name} cut at {drops:?}: remote output differs from the local one:\n{}",
                String::from_utf8_lossy(&got)
            );
            let ranges = server.ranges.lock().map(|r| r.clone()).unwrap_or_default();
            let len = read(&local).len() as u64;
            let end = drops.first().copied().unwrap_or(len);
            // The 206 answer gives the size (Content-Range): read to it.
            assert_eq!(ranges, [None, Some(format!("bytes={end}-"))], "{name}");
        }
    }
}

/// A server that sends no size and ignores Range cannot confirm where the
/// body ends: the input fails saying so (exit status non-zero, no complete
/// output), unless CRAWLSIFT_HTTP_ALLOW_UNSIZED accepts the body as it is.
#[test]
fn an_unsized_body_whose_end_cannot_be_confirmed_fails_unless_allowed() {
    let name = "resiliparse_warcfile.warc.gz";
    let local = shared(name);
    let boundary = last_record_offset(&local);
    let behaviour = Behaviour {
        no_length: true,
        ignore_range: true,
        drops: vec![boundary],
        ..Behaviour::default()
    };
    let (server, _) = serve_one(name, behaviour.clone());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let url = server.url(name);
    let out = crawlsift(&[&url, "-o", path_str(dir.path()), "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&url)
            && stderr.contains("without a size (no Content-Length)")
            && stderr.contains("CRAWLSIFT_HTTP_ALLOW_UNSIZED"),
        "{stderr}"
    );
    assert!(!dir.path().join("resiliparse_warcfile.jsonl").exists());

    let (server, _) = serve_one(name, behaviour);
    let (out, _) = crawlsift_within(
        &[&server.url(name), "--quiet"],
        &[("CRAWLSIFT_HTTP_ALLOW_UNSIZED", "1")],
        Duration::from_secs(60),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.requests(), 1, "an unsized body taken as it is");
}

/// Object stores serve a gzip-tagged object with `Content-Encoding: gzip`:
/// either the `.warc.gz` gzipped once more for transport (decoded, the
/// connection dropped and resumed in the encoded bytes) or the `.warc.gz`
/// itself. Both give the local file's output.
#[test]
fn a_warc_gz_sent_with_content_encoding_gzip_is_read() {
    let name = "resiliparse_warcfile.warc.gz";
    let local = shared(name);
    let expected = ok(crawlsift(&[path_str(&local), "--quiet"]));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&read(&local))
        .unwrap_or_else(|e| panic!("{e}"));
    let encoded = gz.finish().unwrap_or_else(|e| panic!("{e}"));
    for (body, drops) in [(encoded, vec![3_000, 50_000]), (read(&local), vec![])] {
        let server = Server::start(
            HashMap::from([(name.to_string(), body)]),
            Behaviour {
                content_encoding: Some("gzip"),
                drops: drops.clone(),
                ..Behaviour::default()
            },
        );
        let got = ok(crawlsift(&[&server.url(name), "--quiet"]));
        assert!(
            got == expected,
            "remote output differs from the local one:\n{}",
            String::from_utf8_lossy(&got)
        );
        assert_eq!(server.requests(), 1 + drops.len());
    }
}

/// An encoding crawlsift does not decode is named, not taken for "not a WARC file".
#[test]
fn an_unknown_content_encoding_is_named() {
    let name = "cc_whirlwind.warc.gz";
    let (server, _) = serve_one(
        name,
        Behaviour {
            content_encoding: Some("br"),
            ..Behaviour::default()
        },
    );
    let out = crawlsift(&[&server.url(name), "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("Content-Encoding: br") && !stderr.contains("not a WARC file"),
        "{stderr}"
    );
}

/// A 416 that names another size says so in words, without Rust debug text.
#[test]
fn a_416_naming_another_size_is_a_readable_error() {
    let name = "cc_whirlwind.warc.gz";
    let (server, _) = serve_one(
        name,
        Behaviour {
            drops: vec![5_000],
            refuse_ranges_with_size: Some(4_000),
            ..Behaviour::default()
        },
    );
    let url = server.url(name);
    let mut reader = RemoteReader::open(&url, &fast_policy()).unwrap_or_else(|e| panic!("{e}"));
    let mut got = Vec::new();
    let message = reader
        .read_to_end(&mut got)
        .expect_err("a 416 cannot be read past")
        .to_string();
    assert_eq!(
        message,
        format!("{url}: the server has no bytes from byte 5000 on (416 Range Not Satisfiable): it says the file has 4000 bytes now; the file changed or was cut on the server; run again")
    );
    assert_eq!(got.len(), 5_000);
}
