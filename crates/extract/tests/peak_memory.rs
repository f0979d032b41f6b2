//! Peak heap of one extraction, counted by a global allocator, on pages of
//! the shapes of `benches/common/shapes.rs`: it must stay within a small
//! multiple of the page for every algorithm, with and without Markdown
//! (issue 39: "keep per-page memory within a small multiple of the page").

#[path = "../../../benches/common/shapes.rs"]
#[allow(dead_code)] // the shapes this test does not use
mod shapes;

use crawlsift_extract::{Algorithm, Extractor, MarkdownOptions};
use shapes::Shape;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The system allocator, counting the bytes live and the most live since
/// the last [`reset_peak`].
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; the counters are
// only read.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // While moving, both blocks may be live: count the new one first.
            grew(new_size);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time: the counters are the process's.
static ONE: Mutex<()> = Mutex::new(());

/// The most heap one extraction of `page` by a new extractor held at once,
/// beyond what was live before it (the page itself is not counted).
fn peak_of(page: &[u8], algorithm: Algorithm, markdown: bool) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut extractor = Extractor::new(algorithm);
    if markdown {
        extractor = extractor.with_markdown(MarkdownOptions {
            links: true,
            images: true,
        });
    }
    let chars = extractor.extract(page, None).text.len();
    std::hint::black_box(chars);
    drop(extractor);
    PEAK.load(Ordering::Relaxed) - base
}

/// The most an algorithm may hold at once on a page of `<div>` nested as
/// deep as the page allows, in multiples of the page. The line-based
/// algorithms (and CETR's tag-ratio lines) hold a line per block tag,
/// folded in runs of markup past 4,096 lines
/// (`density::scan::MAX_MARKUP_RUN`): 12–16 times the page before the
/// folding, 0.4 (CETR 4.8) after. BTE and DSC hold a token per tag (4.5
/// times), CCB, ACCB and TCCB a value per character in work copies (8–23
/// times, PERF.md §12).
fn nested_bound(algorithm: Algorithm) -> f64 {
    match algorithm.to_string().as_str() {
        "ccb" | "accb" => 30.0,
        "tccb" => 10.0,
        "bte" | "dsc" | "cetr" => 6.0,
        _ => 4.0,
    }
}

#[test]
fn deep_nesting_holds_a_small_multiple_of_the_page() {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let page = Shape::Nested.page(2 << 20);
    let mut over = Vec::new();
    for &algorithm in Algorithm::ALL {
        for markdown in [false, true] {
            let peak = peak_of(page.as_bytes(), algorithm, markdown) as f64 / page.len() as f64;
            if peak > nested_bound(algorithm) {
                over.push(format!(
                    "{algorithm} (markdown {markdown}): {peak:.2} times the page"
                ));
            }
        }
    }
    assert!(
        over.is_empty(),
        "{over:?}, on {} bytes of nesting",
        page.len()
    );
}
