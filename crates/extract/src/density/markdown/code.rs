//! Code: `<pre>` as a fenced block with every space, tab and newline and
//! its language, inline `<code>` in backticks, fences longer than any
//! backtick run inside.

use super::*;

impl Markdown {
    pub(super) fn emit_code(&mut self) {
        self.code = None;
        let code = std::mem::take(&mut self.code_buf);
        let trimmed = code.trim_matches(' ');
        if !trimmed.is_empty() {
            self.begin();
            let ticks = longest_run(trimmed, b'`') + 1;
            let pad = trimmed.starts_with('`') || trimmed.ends_with('`');
            push_n(&mut self.out, '`', ticks);
            if pad {
                self.out.push(' ');
            }
            self.out.push_str(trimmed);
            if pad {
                self.out.push(' ');
            }
            push_n(&mut self.out, '`', ticks);
            self.line_empty = false;
            self.line_start = false;
        } else if !code.is_empty() {
            self.sep(Sep::Space);
        }
        self.code_buf = code;
    }

    pub(super) fn emit_pre(&mut self) {
        self.code = None;
        let code = std::mem::take(&mut self.code_buf);
        let body = code.trim_end().trim_start_matches(['\n', '\r']);
        if !body.trim().is_empty() {
            self.sep(Sep::Blank);
            self.begin();
            let ticks = (longest_run(body, b'`') + 1).max(3);
            push_n(&mut self.out, '`', ticks);
            self.out.push_str(&self.lang);
            for line in body.split('\n') {
                self.out.push('\n');
                self.prefix(line.is_empty());
                self.out.push_str(line);
            }
            self.out.push('\n');
            self.prefix(false);
            push_n(&mut self.out, '`', ticks);
            self.line_empty = false;
            self.line_start = false;
        }
        self.code_buf = code;
        self.sep(Sep::Blank);
    }

    /// The language of a code block from the `class` of `raw`.
    pub(super) fn lang_of(&mut self, raw: &str) {
        let Some(class) = attr(raw, b"class") else {
            return;
        };
        for word in class.split_ascii_whitespace() {
            let lang = ["language-", "lang-", "highlight-source-", "highlight-"]
                .iter()
                .find_map(|p| word.strip_prefix(p));
            if let Some(lang) = lang {
                if !lang.is_empty()
                    && lang
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+#._-".contains(&b))
                {
                    self.lang.clear();
                    self.lang.push_str(lang);
                    return;
                }
            }
        }
    }
}
