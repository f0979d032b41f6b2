//! The comment thread under an article, found by its jump target or its
//! reply form.
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
//! paragraph ([`is_paragraph`]), the span ends before it
//! ([`before_thread`]). The anchor is a target, not a link (no `href`);
//! its `name` or `id`, split at `-`, `_` and `.`, has the part `comment` or
//! `comments` and no digit (a forum's posts each have a target
//! `comment-4711`: there the posts are the content). The anchor's line is
//! kept when it has text before the anchor (the story's last paragraph
//! ends with it).
//!
//! A thread without a target still has its reply form: a `<textarea>`
//! for the reader's words (a comment, an opinion, a question to the
//! author: a contact form under a service's description is the same
//! shape). The span also ends before the `<form>` of the first visible
//! `<textarea>` below the first paragraph ([`before_reply_form`]): not
//! hidden by its own tag, the tag opening its line or a hidden container
//! (a spam trap's box is hidden), and in a form of at most
//! [`Params::reply_form_fields`] fields (name, e-mail, phone, subject, a
//! consent box: a form of many fields, a questionnaire or an order, is the
//! page's own content).
//!
//! Byte searches over the chosen span (`<a`, `<textarea`, `<form`,
//! `</form`, `<input`, `<select`, each in lower and upper case), each
//! reading a tag where it stops: linear in the span.

use super::params::PARAMS;
use super::parts::is_paragraph;
use crate::density::cleaning::Cue;
use crate::density::tags::attributes;
use crate::density::Line;

#[cfg(doc)]
use super::params::Params;

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

/// The chosen span `(first, last)` of an article reading, its `last` line
/// moved up to just before the reply form under the story (see the
/// module's doc); unchanged when there is none.
pub(super) fn before_reply_form(
    html: &[u8],
    lines: &[Line],
    (first, last): (usize, usize),
) -> usize {
    let (Some(bottom), Some(span_lines)) = (lines.get(last), lines.get(first..=last)) else {
        return last;
    };
    let Some(paragraph) = span_lines.iter().position(is_paragraph) else {
        return last;
    };
    // Below the story's first paragraph.
    let Some(from) = span_lines.get(paragraph).map(|l| l.end as usize) else {
        return last;
    };
    let Some(bytes) = html.get(from..bottom.end as usize) else {
        return last;
    };
    // The line holding the byte `at` of `bytes`.
    let line_of = |at: usize| {
        span_lines
            .partition_point(|l| l.start as usize <= from + at)
            .saturating_sub(1)
    };
    let visible = |at: &usize| {
        let tag = bytes.get(*at..).unwrap_or_default();
        let line = span_lines.get(line_of(*at));
        let line_tag = line
            .and_then(|l| html.get(l.start as usize..))
            .filter(|t| t.first() == Some(&b'<'))
            .unwrap_or_default();
        is_element(tag, TEXTAREA.len())
            && !hides(tag)
            && !hides(line_tag)
            && line.is_none_or(|l| l.furniture != Some(Cue::Hidden))
    };
    // The first visible text box, of each case.
    let lower = memchr::memmem::find_iter(bytes, TEXTAREA).find(visible);
    let upper = memchr::memmem::find_iter(bytes, b"<TEXTAREA").find(visible);
    let Some(area) = lower.into_iter().chain(upper).min() else {
        return last;
    };
    // Its form: the last one opened above it, below the paragraph.
    let above = bytes.get(..area).unwrap_or_default();
    let Some(form) = [
        memchr::memmem::rfind(above, b"<form"),
        memchr::memmem::rfind(above, b"<FORM"),
    ]
    .into_iter()
    .flatten()
    .filter(|&at| is_element(bytes.get(at..).unwrap_or_default(), 5))
    .max() else {
        return last;
    };
    // A form of many fields (a questionnaire, an order) is the page's own.
    let rest = bytes.get(area..).unwrap_or_default();
    let end = [
        memchr::memmem::find(rest, b"</form"),
        memchr::memmem::find(rest, b"</FORM"),
    ]
    .into_iter()
    .flatten()
    .min()
    .map_or(bytes.len(), |end| area + end);
    if fields(bytes.get(form..end).unwrap_or_default()) > PARAMS.reply_form_fields {
        return last;
    }
    let line = line_of(form);
    // The form's line is kept when the story's text ends on it.
    let text_before = span_lines
        .get(line)
        .and_then(|l| html.get(l.start as usize..from + form))
        .is_some_and(has_text);
    first + if text_before { line } else { line - 1 }
}

/// `<textarea`.
const TEXTAREA: &[u8] = b"<textarea";

/// Whether `tag`, from its `<`, opens the element whose name is its next
/// `name_len - 1` bytes (not a longer name: `<format>`).
fn is_element(tag: &[u8], name_len: usize) -> bool {
    tag.get(name_len)
        .is_some_and(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
}

/// The fields a user fills in a form's markup `form`: its `<select>`s
/// and its `<input>`s but the hidden ones and buttons.
fn fields(form: &[u8]) -> usize {
    let tags = |name: &'static [u8]| memchr::memmem::find_iter(form, name);
    let inputs = tags(b"<input")
        .chain(tags(b"<INPUT"))
        .filter(|&at| {
            let tag = form.get(at..).unwrap_or_default();
            let tag = tag.get(..MAX_TAG).unwrap_or(tag);
            let end = memchr::memchr(b'>', tag).unwrap_or(tag.len());
            let inside = tag.get(6..end).unwrap_or_default();
            !attributes(inside).any(|(name, value)| {
                name.eq_ignore_ascii_case(b"type")
                    && [&b"hidden"[..], b"submit", b"button", b"image", b"reset"]
                        .iter()
                        .any(|t| value.eq_ignore_ascii_case(t))
            })
        })
        .count();
    inputs + tags(b"<select").count() + tags(b"<SELECT").count()
}

/// Whether the start tag at the start of `tag` hides its element: a
/// `hidden` attribute, or a `style` with `display: none` or `visibility:
/// hidden` (`!important` or not).
fn hides(tag: &[u8]) -> bool {
    let tag = tag.get(..MAX_TAG).unwrap_or(tag);
    let end = memchr::memchr(b'>', tag).unwrap_or(tag.len());
    let Some(inside) = tag.get(1..end) else {
        return false;
    };
    let name = inside
        .iter()
        .position(|b| b.is_ascii_whitespace() || *b == b'/')
        .unwrap_or(inside.len());
    attributes(inside.get(name..).unwrap_or_default()).any(|(name, value)| {
        name.eq_ignore_ascii_case(b"hidden")
            || (name.eq_ignore_ascii_case(b"style") && hiding_style(value))
    })
}

/// Whether a `style` attribute's value hides its element: a declaration
/// `display: none` or `visibility: hidden`, `!important` or not.
fn hiding_style(style: &[u8]) -> bool {
    style.split(|&b| b == b';').any(|declaration| {
        let squeezed = || {
            declaration
                .iter()
                .filter(|b| !b.is_ascii_whitespace())
                .map(u8::to_ascii_lowercase)
        };
        [&b"display:none"[..], b"visibility:hidden"]
            .iter()
            .any(|hiding| squeezed().take(hiding.len()).eq(hiding.iter().copied()))
    })
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
    fn hidden_text_boxes() {
        assert!(hides(br#"<textarea hidden name="a">"#));
        assert!(hides(
            br#"<p style="display: none !important;" class="akismet-fields">"#
        ));
        assert!(hides(br#"<div style='color:red; Visibility : Hidden'>"#));
        assert!(!hides(br#"<textarea name="comment" rows="10">"#));
        assert!(!hides(br#"<p style="display: block">"#));
    }

    #[test]
    fn form_fields() {
        let reply = br#"<form><input type="text" name="author"><input name="email">
            <input type="hidden" name="id"><textarea name="comment"></textarea>
            <INPUT TYPE=SUBMIT value="Send"></form>"#;
        assert_eq!(fields(reply), 2);
        assert_eq!(
            fields(br#"<form><select name="a"></select><input type="checkbox">"#),
            2
        );
        assert!(is_element(b"<form action=x>", 5));
        assert!(!is_element(b"<format>", 5));
        assert!(is_element(b"<textarea>", TEXTAREA.len()));
    }

    #[test]
    fn text_outside_tags() {
        assert!(has_text(b"<p>The end. "));
        assert!(!has_text(b"<p class=\"x\">\n  <span>"));
    }
}
