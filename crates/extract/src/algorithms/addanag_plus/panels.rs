//! Collapsed panels among the chosen lines.
//!
//! A product's or a service's page folds part of its text away: the rest
//! of a description behind "Read more", the answers of an accordion, the
//! panels of tabs. The browser shows them on a click; the HTML hides them
//! (`hidden`, `display: none`, `visibility: hidden`), so they are hidden
//! furniture, left out of the text although they sit among the chosen
//! lines. The golds keep them. A hidden line alone is not a panel: a
//! paragraph a page hides on purpose, a tooltip, a heading's other
//! wording; a panel holds a heading and its text, paragraphs or a list
//! ([`Params::panel_lines`]), a few sentences at least
//! ([`Params::panel_text`]). A hidden menu or list of links is furniture
//! still ([`Params::panel_links`]). Nor is a run that repeats one of its
//! lines word for word a panel: a template's unused sections, hidden with
//! their placeholder text, or a widget's copies; a placeholder repeats
//! within its first lines, so a long hidden run (a mega-menu's) is not
//! compared line by line whole ([`Params::panel_compared`]). Only the
//! chosen span is looked at: hidden text elsewhere (a modal dialog, an
//! off-canvas menu) is no part of the content the chain found.

use super::params::PARAMS;
use super::parts::Parts;
use crate::density::cleaning::Cue;
use crate::density::Line;
use std::ops::Range;

#[cfg(doc)]
use super::params::Params;

/// Sets `panels` to the collapsed panels among the lines `first..=last`
/// (ranges of their indices in that span): a run of hidden lines (weak
/// marks nested in none stronger; lines without text go with them) of at
/// least [`Params::panel_text`] characters on [`Params::panel_lines`]
/// lines, under [`Params::panel_links`] of them anchor text, none of its
/// first [`Params::panel_compared`] lines with text the same markup and
/// text as an earlier one.
pub(super) fn collapsed_panels(
    html: &[u8],
    lines: &[Line],
    parts: &[Parts],
    (first, last): (usize, usize),
    panels: &mut Vec<Range<usize>>,
) {
    panels.clear();
    let (Some(lines), Some(parts)) = (lines.get(first..=last), parts.get(first..=last)) else {
        return;
    };
    let hidden = |i: usize| {
        lines
            .get(i)
            .is_some_and(|l| l.furniture == Some(Cue::Hidden))
            && parts.get(i).is_some_and(|p| p.mark == 1)
    };
    let mut i = 0;
    while i < lines.len() {
        let Some(start) = lines
            .get(i..)
            .and_then(|rest| rest.iter().position(|l| l.furniture == Some(Cue::Hidden)))
        else {
            break;
        };
        i += start;
        if !hidden(i) {
            i += 1;
            continue;
        }
        let (mut text, mut links, mut with_text) = (0u64, 0u64, 0usize);
        let mut j = i;
        while let Some(line) = lines.get(j).filter(|l| l.content == 0 || hidden(j)) {
            text += u64::from(line.content);
            links += u64::from(line.link);
            with_text += usize::from(line.content > 0);
            j += 1;
        }
        let repeats = || {
            let texts = lines
                .get(i..j)
                .unwrap_or_default()
                .iter()
                .filter(|l| l.content > 0);
            let bytes = |l: &Line| {
                html.get(l.start as usize..l.end as usize)
                    .unwrap_or_default()
            };
            texts
                .clone()
                .enumerate()
                .take(PARAMS.panel_compared)
                .any(|(k, a)| {
                    texts
                        .clone()
                        .take(k)
                        .any(|b| b.content == a.content && bytes(a) == bytes(b))
                })
        };
        if text >= PARAMS.panel_text
            && with_text >= PARAMS.panel_lines
            && links as f64 <= PARAMS.panel_links * text as f64
            && !repeats()
        {
            panels.push(i..j);
        }
        i = j;
    }
}
