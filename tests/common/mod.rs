//! Helpers shared by the integration tests that read the shared datasets.

use crawlsift_eval::dataset::{read_text, Page};

#[path = "../support/shared.rs"]
mod support;

/// `rel` under the shared folder (TESTING.md); a missing folder fails naming it.
#[allow(dead_code)] // not every test file including this module uses it
pub fn shared_dir(rel: &str) -> std::path::PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), rel)
}

/// The HTML (gunzipped) and gold text of page `id` of a shared dataset.
pub fn shared_page(dataset: &str, id: &str) -> (Vec<u8>, String) {
    let root = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets").join(dataset);
    let page = Page {
        id: id.to_string(),
        html: root.join("html").join(format!("{id}.html.gz")),
        gold: root.join("gold").join(format!("{id}.txt")),
        meta: Default::default(),
    };
    let mut html = Vec::new();
    page.read_html(&mut html).expect("shared page");
    let mut buf = Vec::new();
    let gold = read_text(&page.gold, &mut buf).expect("gold").to_string();
    (html, gold)
}
