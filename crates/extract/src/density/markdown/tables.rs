//! Tables: written as blocks, and at `</table>` rewritten in place as a
//! GFM table when it is a data table (two columns or more, no table or
//! code block in its cells).

use super::*;

impl Markdown {
    /// Marks the innermost table a layout table when a cell of it is open
    /// (a code block inside a cell: a GFM cell cannot hold one).
    pub(super) fn in_cell_is_layout(&mut self) {
        if let Some(t) = self.tables.last_mut() {
            if t.cell_open {
                t.layout = true;
            }
        }
    }

    pub(super) fn open_table(&mut self) {
        self.close_inline();
        self.end_heading();
        if self.tables.len() >= MAX_TABLES {
            self.table_overflow += 1;
            return;
        }
        if let Some(outer) = self.tables.last_mut() {
            outer.layout = true;
        }
        self.sep(Sep::Blank);
        self.tables.push(Table {
            start: None,
            first_cell: self.cells.len(),
            depth: self.stack.len(),
            row: 0,
            row_has_cells: false,
            cell_open: false,
            layout: false,
        });
    }

    pub(super) fn close_cell(&mut self) {
        let end = self.out.len();
        if let Some(t) = self.tables.last_mut() {
            if t.cell_open {
                t.cell_open = false;
                if let Some(c) = self.cells.last_mut() {
                    c.end = end;
                }
            }
        }
    }

    /// Ends the innermost table: rewritten as a GFM table when it is a
    /// data table, left as blocks otherwise.
    pub(super) fn finish_table(&mut self) {
        self.close_inline();
        self.close_cell();
        let Some(t) = self.tables.pop() else {
            return;
        };
        self.stack.truncate(t.depth.min(self.stack.len()));
        // The line prefix of the table's rows, and its blank-line form.
        let (prefix, blank) = (self.prefix_string(false), self.prefix_string(true));
        let first = t.first_cell.min(self.cells.len());
        let cells = self.cells.get(first..).unwrap_or_default();
        let rows = cells.last().map_or(0, |c| c.row as usize + 1);
        let mut width = 0usize;
        let mut row_width = 0usize;
        let mut row = 0;
        for c in cells {
            if c.row != row {
                row = c.row;
                row_width = 0;
            }
            row_width += c.span as usize;
            width = width.max(row_width);
        }
        let start = t.start.unwrap_or(self.out.len());
        let data = !t.layout
            && width >= 2
            && rows.saturating_mul(width) <= 4 * cells.len() + 64
            && start <= self.out.len();
        if !data {
            self.cells.truncate(first);
            self.sep(Sep::Blank);
            return;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let out_len = self.out.len();
        // Text inside the table but outside its cells (a caption) first.
        let mut loose = String::new();
        let mut at = start;
        for c in cells
            .iter()
            .map(|c| (c.start, c.end))
            .chain([(out_len, out_len)])
        {
            let gap = self.out.get(at..c.0.max(at)).unwrap_or_default();
            flatten(gap, &prefix, &blank, " ", &mut loose);
            at = c.1.max(at);
        }
        if !loose.trim().is_empty() {
            scratch.push_str(loose.trim());
            scratch.push('\n');
            scratch.push_str(&blank);
            scratch.push('\n');
            scratch.push_str(&prefix);
        }
        // Each row: where it started in the output, and where its line
        // (its `\n`) starts in the table.
        let mut row_starts: Vec<(usize, usize)> = Vec::with_capacity(rows);
        let mut i = 0;
        let mut cell_text = String::new();
        for r in 0..rows as u32 {
            let old = cells.get(i).map_or(out_len, |c| c.start);
            row_starts.push((old, start + if r == 0 { 0 } else { scratch.len() }));
            if r > 0 {
                scratch.push('\n');
                scratch.push_str(&prefix);
            }
            scratch.push('|');
            let mut filled = 0;
            while let Some(c) = cells.get(i).filter(|c| c.row == r) {
                cell_text.clear();
                let from = c.start.max(start);
                let content = self.out.get(from..c.end.max(from)).unwrap_or_default();
                flatten(content, &prefix, &blank, "<br>", &mut cell_text);
                scratch.push(' ');
                escape_pipes(cell_text.trim(), &mut scratch);
                scratch.push_str(" |");
                for _ in 1..c.span {
                    scratch.push_str("  |");
                }
                filled += c.span as usize;
                i += 1;
            }
            for _ in filled..width {
                scratch.push_str("  |");
            }
            if r == 0 {
                scratch.push('\n');
                scratch.push_str(&prefix);
                scratch.push('|');
                for _ in 0..width {
                    scratch.push_str(" --- |");
                }
            }
        }
        // A text paragraph that starts inside the table starts with the
        // next row (the first row's, with the table).
        let end = start + scratch.len();
        let mut row = 0;
        // The marks are in order: only those past the table's start move.
        let first_mark = self.marks.partition_point(|&m| m <= start);
        for m in self.marks.iter_mut().skip(first_mark) {
            while row_starts.get(row).is_some_and(|&(old, _)| old < *m) {
                row += 1;
            }
            *m = row_starts.get(row).map_or(end, |&(_, new)| new);
        }
        self.out.truncate(start);
        self.out.push_str(&scratch);
        self.scratch = scratch;
        self.cells.truncate(first);
        self.line_open = true;
        self.line_empty = false;
        self.line_start = false;
        self.pending = None;
        self.sep(Sep::Blank);
    }
}

/// Appends the Markdown of a table cell (or of text between cells) as one
/// line: its lines without the table's line `prefix` (or `blank`) and
/// without heading marks (a GFM cell holds no heading), joined by `join`.
pub(super) fn flatten(content: &str, prefix: &str, blank: &str, join: &str, out: &mut String) {
    let start = out.len();
    for line in content.split('\n') {
        let line = line
            .strip_prefix(prefix)
            .or_else(|| line.strip_prefix(blank))
            .unwrap_or(line)
            .trim();
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        let line = match line.get(hashes..) {
            Some(rest) if (1..=6).contains(&hashes) && rest.starts_with(' ') => rest.trim_start(),
            _ => line,
        };
        if line.is_empty() {
            continue;
        }
        if out.len() > start {
            out.push_str(join);
        }
        out.push_str(line);
    }
}

/// Appends `text` with every `|` not already escaped escaped.
pub(super) fn escape_pipes(text: &str, out: &mut String) {
    let mut backslashes = 0;
    for c in text.chars() {
        if c == '|' && backslashes % 2 == 0 {
            out.push('\\');
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
    }
}
