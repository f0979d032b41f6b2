//! Text helpers: attributes, entities, whitespace, and the escaping of
//! text that would otherwise render as Markdown.

use super::*;

/// The raw value of attribute `name` (lowercase) of the tag `raw` (from
/// `<` to `>`).
pub(super) fn attr<'t>(raw: &'t str, name: &[u8]) -> Option<&'t str> {
    let bytes = raw.as_bytes();
    let mut i = 1;
    // The element name.
    while bytes
        .get(i)
        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>' && *b != b'/')
    {
        i += 1;
    }
    loop {
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            i += 1;
        }
        let start = i;
        while bytes
            .get(i)
            .is_some_and(|b| !b.is_ascii_whitespace() && !b"=>/".contains(b))
        {
            i += 1;
        }
        if i == start {
            return None;
        }
        let key = bytes.get(start..i).unwrap_or_default();
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let mut value = None;
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match bytes.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let from = i + 1;
                    let len = bytes.get(from..).and_then(|r| memchr(q, r));
                    let to = len.map_or(bytes.len(), |l| from + l);
                    value = raw.get(from..to);
                    i = to + 1;
                }
                _ => {
                    let from = i;
                    while bytes
                        .get(i)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
                    {
                        i += 1;
                    }
                    value = raw.get(from..i);
                }
            }
        }
        if key.eq_ignore_ascii_case(name) {
            return Some(value.unwrap_or_default());
        }
    }
}

/// Appends `text` with its character references decoded.
pub(super) fn decode_into(out: &mut String, text: &str) {
    if memchr(b'&', text.as_bytes()).is_some() {
        html_escape::decode_html_entities_to_string(text, out);
    } else {
        out.push_str(text);
    }
}

/// Appends `text` with whitespace runs as single spaces.
pub(super) fn collapse_into(out: &mut String, text: &str) {
    let mut first = true;
    for word in text.split(char::is_whitespace) {
        if !first && !out.ends_with(' ') {
            out.push(' ');
        }
        first = false;
        out.push_str(word);
    }
}

pub(super) fn push_n(out: &mut String, c: char, n: usize) {
    for _ in 0..n {
        out.push(c);
    }
}

/// The longest run of `byte` in `text`.
pub(super) fn longest_run(text: &str, byte: u8) -> usize {
    let (mut best, mut run) = (0, 0);
    for &b in text.as_bytes() {
        run = if b == byte { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Bytes that may need a backslash inside a word.
pub(super) static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\\`*_[]<&$~";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// Appends `span` (words separated by single `' '`s, no other
/// whitespace in it) escaped where it would change how the Markdown
/// renders, as each of its words would be escaped alone: at the start of
/// a line, `line_start` (its first word); in a heading, `heading`; inside
/// a link's text, `in_link`.
pub(super) fn escape_into(
    out: &mut String,
    span: &str,
    line_start: bool,
    heading: bool,
    in_link: bool,
) {
    if heading && memchr(b'#', span.as_bytes()).is_some() {
        // A word of `#`s is escaped anywhere in a heading.
        for (i, word) in span.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            escape_word_into(out, word, line_start && i == 0, true, in_link);
        }
    } else {
        escape_word_into(out, span, line_start, heading, in_link);
    }
}

/// [`escape_into`] with a `#` word in a heading looked at in the first
/// word only.
fn escape_word_into(out: &mut String, span: &str, line_start: bool, heading: bool, in_link: bool) {
    let b = span.as_bytes();
    let Some(&first) = b.first() else {
        return;
    };
    // The first word, looked at only at the start of a line or in a
    // heading.
    let word = || b.get(..memchr(b' ', b).unwrap_or(b.len())).unwrap_or(b);
    let mut from = 0;
    let all_same = || word().iter().all(|&c| c == first);
    if line_start {
        match first {
            b'#' | b'-' | b'+' | b'=' if all_same() => out.push('\\'),
            b'>' | b'|' => out.push('\\'),
            b'0'..=b'9' => {
                let word = word();
                let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9
                    && digits + 1 == word.len()
                    && matches!(word.last(), Some(b'.' | b')'))
                {
                    out.push_str(span.get(..digits).unwrap_or_default());
                    out.push('\\');
                    from = digits;
                }
            }
            _ => {}
        }
    } else if heading && first == b'#' && all_same() {
        out.push('\\');
    }
    let wordish = |i: Option<&u8>| i.is_some_and(|&c| c.is_ascii_alphanumeric() || c >= 0x80);
    let mut start = from;
    for i in from..b.len() {
        let c = b[i];
        if !SPECIAL[c as usize] {
            continue;
        }
        let next = b.get(i + 1);
        let escape = match c {
            // At a word's end or before punctuation.
            b'\\' => next.is_none_or(|&n| n == b' ' || n.is_ascii_punctuation()),
            b'`' | b'*' | b'~' | b'[' => true,
            b']' => in_link,
            b'_' => !(i > 0 && wordish(b.get(i - 1)) && wordish(next)),
            b'<' => next.is_some_and(|n| n.is_ascii_alphabetic() || b"/!?".contains(n)),
            b'&' => {
                let rest = b.get(i + 1..).unwrap_or_default();
                let rest = rest.strip_prefix(b"#").unwrap_or(rest);
                let name = rest
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .count();
                name > 0 && rest.get(name) == Some(&b';')
            }
            // Math is written between `$`s.
            b'$' => true,
            _ => false,
        };
        if escape {
            out.push_str(span.get(start..i).unwrap_or_default());
            out.push('\\');
            start = i;
        }
    }
    out.push_str(span.get(start..).unwrap_or_default());
}
