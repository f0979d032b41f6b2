//! Time per MB of every algorithm on pages of each markup shape
//! ([`shapes::Shape`]) at 1, 2, 4, 8 and 16 MB: a linear algorithm keeps
//! it flat as the page grows. Prints one Markdown table per shape (rows:
//! algorithms; columns: sizes; cells: milliseconds per MB, the best of the
//! runs) and the ratio of the largest size's time per MB to the smallest's.
//!
//! ```sh
//! cargo bench --bench scaling                       # everything (a few minutes)
//! SHAPES=tiny-lines,nested ALGORITHMS=addanag-plus,ccb SIZES=1,4 cargo bench --bench scaling
//! MARKDOWN=1 SHAPES=wide-table,deep-lists cargo bench --bench scaling   # with the Markdown
//! ```
//!
//! With `MARKDOWN=1` each extractor also renders the Markdown (links and
//! images kept: the most work), as `--markdown --markdown-links
//! --markdown-images` does.
//!
//! `SIZES` are in MB (10^6 bytes); each size runs `RUNS` times (default 3,
//! one for sizes of 8 MB and more) and the best run counts. One thread, one
//! `Extractor` per algorithm, pages generated in memory before timing.

#[path = "common/shapes.rs"]
mod shapes;

use crawlsift::{Algorithm, Extractor, MarkdownOptions};
use shapes::Shape;
use std::time::{Duration, Instant};

/// A comma-separated list from the environment, or `default`.
fn list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the arguments.
    let shapes: Vec<Shape> = list("SHAPES", "")
        .iter()
        .map(|name| {
            Shape::ALL
                .into_iter()
                .find(|s| s.name() == name)
                .unwrap_or_else(|| panic!("unknown shape {name}"))
        })
        .collect();
    let shapes = if shapes.is_empty() {
        Shape::ALL.to_vec()
    } else {
        shapes
    };
    let algorithms: Vec<Algorithm> = list("ALGORITHMS", "")
        .iter()
        .map(|name| name.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let algorithms = if algorithms.is_empty() {
        Algorithm::ALL.to_vec()
    } else {
        algorithms
    };
    let sizes: Vec<f64> = list("SIZES", "1,2,4,8,16")
        .iter()
        .map(|s| s.parse().unwrap_or_else(|_| panic!("bad size {s}")))
        .collect();
    let runs: Option<usize> = std::env::var("RUNS").ok().and_then(|r| r.parse().ok());
    let markdown = std::env::var("MARKDOWN").is_ok_and(|m| !m.is_empty() && m != "0");
    println!(
        "kernels: {}; ms per MB, best of {} runs{}\n",
        crawlsift::extract::kernels(),
        runs.map_or("3 (1 from 8 MB)".to_string(), |r| r.to_string()),
        if markdown { "; with the Markdown" } else { "" }
    );
    for shape in shapes {
        let pages: Vec<String> = sizes
            .iter()
            .map(|&mb| shape.page((mb * 1e6) as usize))
            .collect();
        println!("### {}\n", shape.name());
        let header: Vec<String> = sizes.iter().map(|mb| format!("{mb} MB")).collect();
        println!("| ms/MB | {} | last/first |", header.join(" | "));
        println!("|---|{}---|", "---|".repeat(sizes.len()));
        for &algorithm in &algorithms {
            let mut extractor = Extractor::new(algorithm);
            if markdown {
                extractor = extractor.with_markdown(MarkdownOptions {
                    links: true,
                    images: true,
                });
            }
            let per_mb: Vec<f64> = pages
                .iter()
                .zip(&sizes)
                .map(|(page, &mb)| {
                    let runs = runs.unwrap_or(if mb >= 8.0 { 1 } else { 3 });
                    let best = (0..runs.max(1))
                        .map(|_| {
                            let start = Instant::now();
                            let result = extractor.extract_at(
                                page.as_bytes(),
                                None,
                                Some("https://example.com/"),
                            );
                            let text = result.text.len() + result.markdown.map_or(0, str::len);
                            std::hint::black_box(text);
                            start.elapsed()
                        })
                        .min()
                        .unwrap_or(Duration::ZERO);
                    best.as_secs_f64() * 1e3 / (page.len() as f64 / 1e6)
                })
                .collect();
            let cells: Vec<String> = per_mb.iter().map(|ms| format!("{ms:.2}")).collect();
            let ratio = match (per_mb.first(), per_mb.last()) {
                (Some(&first), Some(&last)) if first > 0.0 => format!("{:.2}", last / first),
                _ => "-".to_string(),
            };
            println!("| {} | {} | {ratio} |", algorithm.name(), cells.join(" | "));
        }
        println!();
    }
}
