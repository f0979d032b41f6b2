//! The HTML5 tokenizer's script data states on a real page: a script whose
//! text opens `<!--` and writes a `<script>` tag with `document.write`
//! is one element up to its own end tag, as browsers read it.

mod common;

use common::shared_page;
use crawlsift::{Algorithm, Extractor};
use crawlsift_eval::Scorer;

/// sina.com.cn's health pages (daniel_dev): a script opening `//<!--` and
/// writing `<script …></script>` tags. Ended at the first `</script>`, its
/// remaining 600 bytes of code were read as the page's first text (F1 .83
/// and .91 before).
#[test]
fn a_double_escaped_script_is_not_text() {
    for (id, min_f1) in [
        (
            "20120112_sh.sina.com.cn_500d5839bd615b23f11654f9800eae2aa3007dd98ac2bb58cc91155b",
            0.94,
        ),
        (
            "20120112_sh.sina.com.cn_aa60052c00b6476a029313e13275721feb3d03010187fd12fcebd989",
            0.97,
        ),
    ] {
        let (html, gold) = shared_page("daniel_dev", id);
        let text = Extractor::new(Algorithm::AddanagPlus)
            .extract(&html, None)
            .text
            .to_string();
        assert!(!text.contains("getElementById"), "{id}: {text}");
        let f1 = Scorer::new().score(&text, &gold).f1;
        assert!(f1 > min_f1, "{id}: F1 {f1:.3}: {text}");
    }
}
