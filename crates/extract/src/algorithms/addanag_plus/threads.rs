//! The comment thread under an article, found by its jump target.
//!
//! A news page links "12 comments" to the thread under its story, and the
//! link's target is an anchor set where the thread starts: `<a
//! name="comments">`, `<a id="article-comments">`, `<a name="comment_block">`
//! (the markup of the 2000s and 2010s: older pages wrap their thread in a
//! `<div>` named for its layout, or not at all, so the furniture marks
//! miss it). Its posts are as dense as the story, so the chain runs on
//! through them, with the thread's form and the page's "most read" under
//! it; the golds stop at the story.
//!
//! When the article reading's chosen span holds such an anchor below a
//! paragraph ([`is_paragraph`]), the span ends before it. The anchor is
//! a target, not a link (no `href`); its `name` or `id`, split at `-`,
//! `_` and `.`, has the part `comment` or `comments` and no digit (a
//! forum's posts each have a target `comment-4711`: there the posts are
//! the content). The anchor's line is kept when it has text before the
//! anchor (the story's last paragraph ends with it).
//!
//! Two byte searches over the chosen span (`<a`, `<A`), each to its first
//! target, and a tag read for each `<a` before it: linear in the span.

use super::parts::is_paragraph;
use crate::density::tags::attributes;
use crate::density::Line;

/// The chosen span `(first, last)` of an article reading, its `last` line
/// moved up to just before the first comment thread's jump target below a
/// paragraph (see the module's doc); unchanged when there is none.
pub(super) fn before_thread(html: &[u8], lines: &[Line], (first, last): (usize, usize)) -> usize {
    let (Some(top), Some(bottom), Some(span_lines)) =
        (lines.get(first), lines.get(last), lines.get(first..=last))
    else {
        return last;
    };
    // The story's first paragraph: a target above it is not under a story.
    let Some(paragraph) = span_lines.iter().position(is_paragraph) else {
        return last;
    };
    let span = top.start as usize..bottom.end as usize;
    let Some(bytes) = html.get(span.clone()) else {
        return last;
    };
    // The first target under the paragraph, of each case of `<a`: both
    // searches go down the span, so each stops at its first.
    let below = |at: &usize| {
        let offset = span.start + at;
        // The line holding the target: the last starting at or before it.
        let line = span_lines
            .partition_point(|l| l.start as usize <= offset)
            .saturating_sub(1);
        (line > paragraph && bytes.get(*at..).is_some_and(is_thread_target))
            .then_some((line, offset))
    };
    let lower = memchr::memmem::find_iter(bytes, b"<a").find_map(|at| below(&at));
    let upper = memchr::memmem::find_iter(bytes, b"<A").find_map(|at| below(&at));
    let Some((line, offset)) = lower.into_iter().chain(upper).min() else {
        return last;
    };
    // The target's line is kept when the story's text ends on it.
    let text_before = span_lines
        .get(line)
        .and_then(|l| html.get(l.start as usize..offset))
        .is_some_and(has_text);
    first + if text_before { line } else { line - 1 }
}

/// The longest start tag read: an anchor's attributes are a few dozen
/// bytes.
const MAX_TAG: usize = 1024;

/// Whether `tag` (from its `<`) opens an `<a>` that is a comment thread's
/// jump target: no `href`, a `name` or `id` with a part `comment` or
/// `comments` and no digit.
fn is_thread_target(tag: &[u8]) -> bool {
    if !tag.get(2).is_some_and(u8::is_ascii_whitespace) {
        return false;
    }
    // A tag is read up to its `>` within `MAX_TAG` bytes: a page of
    // `<a ` never closed stays linear.
    let tag = tag.get(..MAX_TAG).unwrap_or(tag);
    let end = memchr::memchr(b'>', tag).unwrap_or(tag.len());
    let Some(tag) = tag.get(2..end) else {
        return false;
    };
    let mut target = false;
    for (name, value) in attributes(tag) {
        if name.eq_ignore_ascii_case(b"href") {
            return false;
        }
        if (name.eq_ignore_ascii_case(b"name") || name.eq_ignore_ascii_case(b"id"))
            && !value.iter().any(u8::is_ascii_digit)
            && value
                .split(|b| matches!(b, b'-' | b'_' | b'.'))
                .any(|part| {
                    part.eq_ignore_ascii_case(b"comment") || part.eq_ignore_ascii_case(b"comments")
                })
        {
            target = true;
        }
    }
    target
}

/// Whether `html` (a stretch of markup and text) holds text: a byte other
/// than whitespace outside its tags.
fn has_text(html: &[u8]) -> bool {
    let mut in_tag = false;
    html.iter().any(|&b| {
        match b {
            b'<' => in_tag = true,
            b'>' => in_tag = false,
            _ => return !in_tag && !b.is_ascii_whitespace(),
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert!(is_thread_target(br#"<a name="comments"></a>"#));
        assert!(is_thread_target(br#"<a id='article-comments'>"#));
        assert!(is_thread_target(br#"<A NAME=Comment_Block>"#));
        assert!(is_thread_target(br#"<a name="zdnet.anchor.comments">"#));
        // A link to the thread, a post's own target, other names.
        assert!(!is_thread_target(
            br##"<a href="#comments" name="comments">"##
        ));
        assert!(!is_thread_target(br#"<a id="comment-67260087">"#));
        assert!(!is_thread_target(br#"<a id="aMostCommented">"#));
        assert!(!is_thread_target(br#"<a name="commentary">"#));
        assert!(!is_thread_target(br#"<abbr id="comments">"#));
    }

    #[test]
    fn text_outside_tags() {
        assert!(has_text(b"<p>The end. "));
        assert!(!has_text(b"<p class=\"x\">\n  <span>"));
    }
}
