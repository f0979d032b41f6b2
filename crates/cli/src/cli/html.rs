//! `crawlsift html`: extract main text from HTML files.

use anyhow::Context;
use crawlsift::{Algorithm, Extractor};
use flate2::read::MultiGzDecoder;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// HTML files (`.html`, or gzipped `.html.gz`); `-` reads standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The extraction algorithm.
    #[arg(short, long, default_value_t = Algorithm::DEFAULT)]
    algorithm: Algorithm,
    /// Algorithm 1's gap: how many lines may separate main-content regions.
    #[arg(long, default_value_t = crawlsift::algorithms::DEFAULT_GAP)]
    gap: usize,
    /// One JSON object per file (path, title, text, encoding, algorithm,
    /// line and region counts, selected line range, the page metadata:
    /// author, date_published, date_modified, site_name, description,
    /// canonical_url) instead of plain text.
    #[arg(long)]
    json: bool,
    /// With --json: add the quality signals (`signals`), the Gopher, C4 and
    /// FineWeb decisions (`filters`: per rule set null or the first rule
    /// failed) and the exact-duplicate key (`exact_key`). `lang` and
    /// `lang_score` are always there.
    #[arg(long, requires = "json")]
    signals: bool,
    /// With --json: add the MinHash signature (`minhash`, 14 bands x 8
    /// 64-bit values, datatrove's defaults).
    #[arg(long, requires = "json")]
    minhash: bool,
    /// The CPU time one page's extraction may take: a page over it is
    /// stopped and reported, and the other files go on. 0 turns the limit
    /// off.
    #[arg(long, default_value_t = crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64(), value_name = "SECONDS", value_parser = super::page_timeout)]
    page_timeout: f64,
    /// Print the main content as Markdown (headings, lists, GFM tables,
    /// fenced code, math as LaTeX) instead of plain text; with --json, add
    /// it as `markdown`. Null for the element-based algorithms.
    #[arg(long)]
    markdown: bool,
    /// With --markdown: keep hyperlinks as [text](url), resolved against
    /// --url.
    #[arg(long, requires = "markdown")]
    markdown_links: bool,
    /// With --markdown: give images as their alt text.
    #[arg(long, requires = "markdown")]
    markdown_images: bool,
    /// The URL the pages were fetched from, to resolve relative links
    /// (--markdown-links).
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// Leave the page metadata fields of --json (author, date_published,
    /// date_modified, site_name, description, canonical_url) null.
    #[arg(long)]
    no_metadata: bool,
}

/// A file's output as one JSON object.
#[derive(serde::Serialize)]
struct JsonPage<'a> {
    path: &'a str,
    bytes: usize,
    title: &'a str,
    text: &'a str,
    encoding: &'a str,
    algorithm: &'a str,
    lines: usize,
    regions: usize,
    selected_lines: Option<(usize, usize)>,
    selected_regions: Option<(usize, usize)>,
    page_type: Option<&'a str>,
    confidence: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    markdown: Option<Option<&'a str>>,
    #[serde(flatten)]
    analysis: crawlsift::signals::Analysis,
    author: Option<&'a str>,
    date_published: Option<&'a str>,
    date_modified: Option<&'a str>,
    site_name: Option<&'a str>,
    description: Option<&'a str>,
    canonical_url: Option<&'a str>,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let timeout = crawlsift::pipeline::page_timeout_from_secs(args.page_timeout)
        .map_err(anyhow::Error::msg)?;
    let mut extractor = Extractor::new(args.algorithm)
        .with_gap(args.gap)
        .with_page_timeout(timeout);
    if args.no_metadata {
        extractor = extractor.with_metadata(None);
    }
    if args.markdown {
        extractor = extractor.with_markdown(crawlsift::MarkdownOptions {
            links: args.markdown_links,
            images: args.markdown_images,
        });
    }
    let mut analyser = crawlsift::signals::Analyser::new(crawlsift::signals::Config {
        signals: args.signals,
        minhash: args.minhash,
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    let several = args.files.len() > 1;
    let mut raw = Vec::new();
    for path in &args.files {
        if let Err(err) = read_page(path, &mut raw) {
            eprintln!("crawlsift: {err:#}; skipping it");
            failed += 1;
            continue;
        }
        let page = match extractor.try_extract_at(&raw, None, args.url.as_deref()) {
            Ok(page) => page,
            Err(timeout) => {
                eprintln!(
                    "crawlsift: {}: {timeout} (--page-timeout); skipping it",
                    path.display()
                );
                failed += 1;
                continue;
            }
        };
        let shown = path.display().to_string();
        if args.json {
            let json = JsonPage {
                path: &shown,
                bytes: raw.len(),
                title: page.title,
                text: page.text,
                encoding: page.encoding,
                algorithm: args.algorithm.name(),
                lines: page.lines,
                regions: page.regions,
                selected_lines: page.selection.map(|s| s.lines),
                selected_regions: page.selection.map(|s| s.regions),
                page_type: page.page_type.map(|t| t.as_str()),
                confidence: page.confidence,
                markdown: args.markdown.then_some(page.markdown),
                analysis: analyser.analyse(page.text),
                author: page.metadata.author.as_deref(),
                date_published: page.metadata.date_published.as_deref(),
                date_modified: page.metadata.date_modified.as_deref(),
                site_name: page.metadata.site_name.as_deref(),
                description: page.metadata.description.as_deref(),
                canonical_url: page.metadata.canonical_url.as_deref(),
            };
            // As an io::Error, so that a closed stdout is recognised.
            serde_json::to_writer(&mut out, &json).map_err(io::Error::from)?;
            writeln!(out)?;
        } else {
            if several {
                writeln!(out, "==> {shown} <==")?;
            }
            let shown = if args.markdown {
                page.markdown.unwrap_or_default()
            } else {
                page.text
            };
            writeln!(out, "{shown}")?;
        }
    }
    out.flush()?;
    Ok(if failed == 0 { 0 } else { 1 })
}

/// Reads a page into `raw`, gunzipping it when it starts with the gzip magic.
fn read_page(path: &Path, raw: &mut Vec<u8>) -> anyhow::Result<()> {
    raw.clear();
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        MultiGzDecoder::new(bytes.as_slice())
            .read_to_end(raw)
            .with_context(|| format!("{} is not valid gzip", path.display()))?;
    } else {
        *raw = bytes;
    }
    Ok(())
}
