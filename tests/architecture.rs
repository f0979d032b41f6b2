//! The workspace's shape, as a test: no two modules of a crate import each
//! other in a circle, and the crates depend on each other in one direction
//! (`cli → crawlsift → {warc, extract, signals} → {simd, lang}`,
//! `eval → extract`, `python → {cli, crawlsift}`).
//!
//! Modules are read from the source files: a module's edges are the
//! `crate::…`, `super::…` and `self::…` paths it names (in `use` items,
//! braces expanded, and in code), each resolved to the deepest module it
//! goes through. A module naming its own ancestor or descendant is no edge
//! (a parent holds its children, a child may use its parent's helpers):
//! the circles looked for are between modules side by side. Names a parent
//! re-exports from a child are seen as the parent's. Inline `mod tests`
//! blocks and `tests.rs` files are left out (tests may reach anywhere).
//! Crate dependencies are read from each member's `Cargo.toml`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module of a crate: its path from the crate root (`[]` for the root).
type Module = Vec<String>;

/// The source directories of the workspace's crates, by crate name.
const CRATES: &[(&str, &str)] = &[
    ("crawlsift", "src"),
    ("crawlsift-cli", "crates/cli/src"),
    ("crawlsift-eval", "crates/eval/src"),
    ("crawlsift-extract", "crates/extract/src"),
    ("crawlsift-signals", "crates/signals/src"),
    ("crawlsift-simd", "crates/simd/src"),
    ("crawlsift-warc", "crates/warc/src"),
    ("crawlsift-lang", "lang/src"),
    ("crawlsift-python", "python/src"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file of `src` defines: `lib.rs`/`main.rs` the root,
/// `a/b.rs` and `a/b/mod.rs` the module `a::b`. `None` for test files and
/// binaries beside `main.rs` (`src/bin/…`).
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    if parts.first().is_some_and(|p| p == "bin") || last == "tests.rs" {
        return None;
    }
    if parts.iter().any(|p| p == "tests") {
        return None;
    }
    match last.as_str() {
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        "mod.rs" => {}
        _ => parts.push(last.strip_suffix(".rs")?.to_string()),
    }
    Some(parts)
}

/// `source` without comments, string and character literals (each
/// replaced by a space), and without `#[cfg(test)]`-gated `mod … { … }`
/// blocks: what is left names the paths the module's code uses.
fn code_of(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
            out.push(' ');
        } else if rest.starts_with('"') || rest.starts_with("r\"") || rest.starts_with("r#\"") {
            // A string: to the closing quote (raw strings to `"#`).
            let (open, close) = if rest.starts_with("r#\"") {
                (3, "\"#")
            } else if rest.starts_with("r\"") {
                (2, "\"")
            } else {
                (1, "\"")
            };
            let mut j = open;
            loop {
                match rest[j..].find(['\\', '"']) {
                    Some(k) if close == "\"" && open == 1 && rest.as_bytes()[j + k] == b'\\' => {
                        j += k + 2
                    }
                    Some(k) if rest[j + k..].starts_with(close) => {
                        j += k + close.len();
                        break;
                    }
                    Some(k) => j += k + 1,
                    None => {
                        j = rest.len();
                        break;
                    }
                }
            }
            i += j;
            out.push(' ');
        } else if rest.starts_with('\'') {
            // A character literal (`'a'`, `'\n'`, `b'\''`) or a lifetime.
            let lit = rest.char_indices().nth(2).is_some_and(|(k, c)| {
                c == '\'' || (rest.as_bytes()[1] == b'\\' && rest[k..].contains('\''))
            });
            if lit {
                let end = if rest.as_bytes()[1] == b'\\' {
                    rest[2..].find('\'').map_or(rest.len(), |k| k + 3)
                } else {
                    rest.char_indices().nth(3).map_or(rest.len(), |(k, _)| k)
                };
                i += end;
                out.push(' ');
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    strip_test_modules(&out)
}

/// `code` without the bodies of `#[cfg(test)] mod name { … }`.
fn strip_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let body = item
            .strip_prefix("mod ")
            .and_then(|m| m.find(['{', ';']).map(|k| (k, m)));
        match body {
            Some((k, m)) if m.as_bytes()[k] == b'{' => {
                let mut depth = 0;
                let mut end = m.len();
                for (j, c) in m[k..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = k + j + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &m[end..];
            }
            _ => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// The paths of `use` items (braces expanded) and the `crate::`,
/// `super::` and `self::` paths in the rest of `code`, as segments.
fn paths_of(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    // `use` items.
    let mut others = String::new();
    while let Some(at) = find_word(rest, "use") {
        others.push_str(&rest[..at]);
        let item = &rest[at + 3..];
        let end = item.find(';').unwrap_or(item.len());
        expand(&item[..end], &mut Vec::new(), &mut paths);
        rest = &item[(end + 1).min(item.len())..];
    }
    others.push_str(rest);
    // Paths in code.
    let b = others.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(k) = others[from..].find(start) {
            let at = from + k;
            from = at + start.len();
            if at > 0
                && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_' || b[at - 1] == b':')
            {
                continue;
            }
            let len = others[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(others.len() - at);
            let path: Vec<String> = others[at..at + len]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            paths.push(path);
        }
    }
    paths
}

/// The offset of `word` standing alone in `text` (not part of a longer
/// name).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text[from..].find(word) {
        let at = from + k;
        let before = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let after = b
            .get(at + word.len())
            .is_none_or(|c| c.is_ascii_whitespace());
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}`) prefixed by `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    let tree = tree.strip_prefix("::").unwrap_or(tree);
    match tree.find('{') {
        Some(open) => {
            let head = &tree[..open];
            let close = tree.rfind('}').unwrap_or(tree.len());
            let n = prefix.len();
            prefix.extend(
                head.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            for part in split_top(&tree[open + 1..close]) {
                expand(part, prefix, out);
            }
            prefix.truncate(n);
        }
        None => {
            let path = tree.split(" as ").next().unwrap_or(tree);
            let mut full = prefix.clone();
            full.extend(
                path.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "*")
                    .map(str::to_string),
            );
            if !full.is_empty() {
                out.push(full);
            }
        }
    }
}

/// `list` split at the commas outside braces.
fn split_top(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

/// The module a path used in `from` reaches: the deepest module of
/// `modules` it goes through, or `None` for a path outside the crate.
fn resolve(from: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => from.clone(),
        _ => return None,
    };
    let mut segments = path.iter().peekable();
    if path[0] == "crate" {
        segments.next();
    }
    while let Some(s) = segments.peek() {
        match s.as_str() {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        segments.next();
    }
    for s in segments {
        let mut next = base.clone();
        next.push(s.clone());
        if modules.contains(&next) {
            base = next;
        } else {
            break;
        }
    }
    Some(base)
}

/// Whether `a` is `b`, or an ancestor or descendant of it.
fn related(a: &Module, b: &Module) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// The import edges between the modules of a crate, from each module's
/// code.
fn module_edges(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules: BTreeSet<Module> = files.keys().cloned().collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, source) in files {
        let targets = edges.entry(module.clone()).or_default();
        for path in paths_of(&code_of(source)) {
            if let Some(to) = resolve(module, &path, &modules) {
                if !related(module, &to) {
                    targets.insert(to);
                }
            }
        }
    }
    edges
}

/// A circle of `edges`, as its nodes from the first back to it, if there
/// is one.
fn find_cycle<T: Ord + Clone>(edges: &BTreeMap<T, BTreeSet<T>>) -> Option<Vec<T>> {
    /// 0: not seen, 1: on the path, 2: done.
    fn visit<T: Ord + Clone>(
        node: &T,
        edges: &BTreeMap<T, BTreeSet<T>>,
        state: &mut BTreeMap<T, u8>,
        path: &mut Vec<T>,
    ) -> Option<Vec<T>> {
        state.insert(node.clone(), 1);
        path.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|n| n == next).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, edges, state, path) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if state.get(node).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(node, edges, &mut state, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

/// `a::b → c → a::b` for a message.
fn show(cycle: &[Module]) -> String {
    cycle
        .iter()
        .map(|m| {
            if m.is_empty() {
                "crate".to_string()
            } else {
                m.join("::")
            }
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

#[test]
fn no_module_imports_in_a_circle() {
    let mut checked = 0;
    for (name, dir) in CRATES {
        let src = root().join(dir);
        let mut paths = Vec::new();
        rust_files(&src, &mut paths);
        assert!(
            !paths.is_empty(),
            "{name}: no source under {}",
            src.display()
        );
        let files: BTreeMap<Module, String> = paths
            .iter()
            .filter_map(|p| Some((module_of(&src, p)?, fs::read_to_string(p).ok()?)))
            .collect();
        let edges = module_edges(&files);
        checked += edges.values().map(BTreeSet::len).sum::<usize>();
        if let Some(cycle) = find_cycle(&edges) {
            panic!(
                "{name}: modules import each other in a circle: {}",
                show(&cycle)
            );
        }
    }
    // The reader sees the imports at all (else the test proves nothing).
    assert!(checked > 50, "only {checked} import edges read");
}

/// The crates the workspace's crates may depend on (`[dependencies]`):
/// the one-way data path.
const ALLOWED: &[(&str, &[&str])] = &[
    ("crawlsift-cli", &["crawlsift", "crawlsift-eval"]),
    ("crawlsift-python", &["crawlsift", "crawlsift-cli"]),
    (
        "crawlsift",
        &["crawlsift-warc", "crawlsift-extract", "crawlsift-signals"],
    ),
    ("crawlsift-eval", &["crawlsift-extract"]),
    ("crawlsift-warc", &["crawlsift-simd", "crawlsift-lang"]),
    ("crawlsift-extract", &["crawlsift-simd", "crawlsift-lang"]),
    ("crawlsift-signals", &["crawlsift-simd", "crawlsift-lang"]),
    ("crawlsift-simd", &[]),
    ("crawlsift-lang", &[]),
];

/// Each crate's layer: a crate depends only on lower ones, and tests and
/// benches (`[dev-dependencies]`) may also reach across their own.
fn layer(name: &str) -> usize {
    match name {
        "crawlsift-simd" | "crawlsift-lang" => 0,
        "crawlsift-warc" | "crawlsift-extract" | "crawlsift-signals" => 1,
        "crawlsift" | "crawlsift-eval" => 2,
        "crawlsift-cli" => 3,
        _ => 4,
    }
}

/// The `[package]` name of a `Cargo.toml` and the workspace crates
/// (`crawlsift…`) of each of its dependency tables, by table name.
fn manifest(text: &str) -> (String, BTreeMap<String, BTreeSet<String>>) {
    let mut name = String::new();
    let mut section = String::new();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.trim().to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if section == "package" && key == "name" {
            name = value.trim().trim_matches('"').to_string();
        }
        let table = section.rsplit('.').next().unwrap_or(&section);
        let is_deps = matches!(
            table,
            "dependencies" | "dev-dependencies" | "build-dependencies"
        );
        // `crawlsift-x.workspace = true` or `crawlsift-x = { … }`.
        let dep = key.split('.').next().unwrap_or(key).trim();
        if is_deps && !section.starts_with("workspace") && dep.starts_with("crawlsift") {
            deps.entry(table.to_string())
                .or_default()
                .insert(dep.to_string());
        }
    }
    (name, deps)
}

/// What is wrong with the crate graph `manifests` (name → dependency
/// tables): each edge outside [`ALLOWED`], each dev-dependency on a higher
/// layer, and a circle if there is one.
fn crate_graph_errors(
    manifests: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
) -> Vec<String> {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut errors = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, tables) in manifests {
        let Some(may) = allowed.get(name.as_str()) else {
            errors.push(format!(
                "{name}: a crate the architecture test does not know"
            ));
            continue;
        };
        for (table, deps) in tables {
            for dep in deps {
                if table == "dev-dependencies" {
                    if layer(dep) > layer(name) {
                        errors.push(format!("{name}: dev-dependency {dep} is a layer above it"));
                    }
                } else if !may.contains(&dep.as_str()) {
                    errors.push(format!(
                        "{name}: depends on {dep}, against the one-way path"
                    ));
                }
                edges.entry(name.clone()).or_default().insert(dep.clone());
            }
        }
    }
    let normal: BTreeMap<String, BTreeSet<String>> = manifests
        .iter()
        .map(|(name, tables)| {
            let deps = tables
                .iter()
                .filter(|(t, _)| *t != "dev-dependencies")
                .flat_map(|(_, d)| d.iter().cloned())
                .collect();
            (name.clone(), deps)
        })
        .collect();
    if let Some(cycle) = find_cycle(&normal) {
        errors.push(format!(
            "crates depend on each other in a circle: {}",
            cycle.join(" → ")
        ));
    }
    errors
}

#[test]
fn crates_depend_one_way() {
    let mut manifests = BTreeMap::new();
    for (_, dir) in CRATES {
        let crate_dir = root()
            .join(dir)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path = crate_dir.join("Cargo.toml");
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (name, deps) = manifest(&text);
        manifests.insert(name, deps);
    }
    assert_eq!(manifests.len(), CRATES.len(), "a package name read twice");
    // The reader sees the path the crates are on.
    assert!(manifests["crawlsift"]["dependencies"].contains("crawlsift-extract"));
    let errors = crate_graph_errors(&manifests);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The checks catch what they are for, on small made-up crates.
mod planted {
    use super::*;

    fn files(sources: &[(&str, &str)]) -> BTreeMap<Module, String> {
        sources
            .iter()
            .map(|(path, source)| {
                let module = path
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                (module, source.to_string())
            })
            .collect()
    }

    #[test]
    fn a_circle_of_siblings_is_named() {
        let crate_ = files(&[
            ("", "mod density; mod words;"),
            ("density", "mod kernel; mod tags; mod cleaning; fn padded() {}"),
            ("density::kernel", "use super::tags::Tag; use super::padded;"),
            (
                "density::tags",
                "use super::{cleaning::{self, Cue}, kernel as k};\nfn f() { crate::words::split(); }",
            ),
            ("density::cleaning", "fn g() { super::super::density::kernel::run(); }"),
            ("words", "// use crate::density::tags;\nconst S: &str = \"crate::density\";"),
        ]);
        let cycle = find_cycle(&module_edges(&crate_)).expect("the planted circle");
        let shown = show(&cycle);
        assert!(
            shown.contains("density::kernel") && shown.contains("density::tags"),
            "{shown}"
        );
        assert_eq!(cycle.first(), cycle.last());
        // Comments and strings name nothing; a child using its parent is
        // no circle.
        let words = module_edges(&crate_)[&vec!["words".to_string()]].clone();
        assert!(words.is_empty(), "{words:?}");
    }

    #[test]
    fn a_line_of_imports_is_no_circle() {
        let crate_ = files(&[
            ("", "mod a; mod b; mod c; use a::A;"),
            ("a", "use crate::b::{B, self};"),
            (
                "b",
                "use super::c::*;\n#[cfg(test)]\nmod tests { use crate::a::A; }",
            ),
            ("c", "pub struct C; fn f() { super::c::C; }"),
        ]);
        let edges = module_edges(&crate_);
        assert_eq!(find_cycle(&edges), None, "{edges:?}");
        assert!(edges[&vec!["a".to_string()]].contains(&vec!["b".to_string()]));
    }

    #[test]
    fn a_crate_pointing_back_is_named() {
        let toml = |name: &str, deps: &str, dev: &str| {
            manifest(&format!(
                "[package]\nname = \"{name}\"\n\n[dependencies]\n{deps}\n[dev-dependencies]\n{dev}\n"
            ))
        };
        let good = [
            toml(
                "crawlsift",
                "crawlsift-extract.workspace = true",
                "crawlsift-eval.workspace = true",
            ),
            toml(
                "crawlsift-extract",
                "crawlsift-simd = { workspace = true }",
                "",
            ),
            toml("crawlsift-simd", "", ""),
        ];
        let graph =
            |ms: &[(String, BTreeMap<String, BTreeSet<String>>)]| ms.iter().cloned().collect();
        assert_eq!(crate_graph_errors(&graph(&good)), Vec::<String>::new());
        let back = [
            toml("crawlsift", "crawlsift-extract.workspace = true", ""),
            toml("crawlsift-extract", "crawlsift-simd.workspace = true", ""),
            toml(
                "crawlsift-simd",
                "crawlsift-extract = { path = \"../extract\" }",
                "crawlsift = { path = \"..\" }",
            ),
        ];
        let errors = crate_graph_errors(&graph(&back));
        assert!(
            errors
                .iter()
                .any(|e| e.contains("crawlsift-simd: depends on crawlsift-extract")),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("dev-dependency crawlsift is a layer above")),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e
                    .contains("circle: crawlsift-extract → crawlsift-simd → crawlsift-extract")),
            "{errors:?}"
        );
    }
}
