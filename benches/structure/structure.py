"""Structure fidelity: which structures of a page's main content a Markdown
rendering carries (issue 40, item 3). Pure functions, no I/O; `score.py`
drives them over the shared datasets and `test_structure.py` checks them.

A structure counts when it is main content (its text is in the gold):
- heading: an h1-h6 whose text equals a line of the gold;
- list item: an `<li>` whose own text (nested lists left out) begins a gold
  line (at a word boundary);
- code: a `<pre>` with >= 2 non-blank lines whose text is in the gold;
- table: >= 2 rows with text and a row of >= 2 non-empty cells, every
  non-empty cell in the gold, no table nested in it.

It is carried when the Markdown has:
- heading: an ATX (`#`) heading with the same text, anywhere (also inside a
  list item or a quote);
- list item: a list item (`-`, `*`, `+`, `1.`, `1)`) whose own text begins
  with the `<li>`'s text;
- code: a fenced block whose lines hold the `<pre>`'s lines, exact and in a
  row (tabs kept or as four spaces, trailing blanks and the blank lines
  before the first and after the last line of text ignored);
- table: a GFM table holding >= 90 % of the HTML rows in order, a row
  matching when its non-empty cells (colspans repeated) are the same texts in
  the same order.

"Text" is compared as it renders: the HTML's text content (`<br>` and block
boundaries as line breaks, scripts and styles left out); the Markdown's
inline content as CommonMark renders it (links as their text, emphasis marks,
backslash escapes and raw HTML tags dropped, entities decoded, images as
their alt text); then whitespace collapsed and case folded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from selectolax.lexbor import LexborHTMLParser

KINDS = ("heading", "list_item", "code", "table", "math")
# Reported beside them: tables carried by GFM tables only (a delimiter row
# under the header), rows that render as a table.
REPORTED = ("heading", "list_item", "code", "table", "table_gfm", "math")

# Not rendered as text.
_SKIP = frozenset({"script", "style", "template", "noscript", "head", "title", "iframe", "object"})
# Their boundaries are line breaks.
_BLOCK = frozenset(
    """address article aside blockquote caption dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p
    pre section summary table tbody td tfoot th thead tr ul""".split()
)
_LISTS = frozenset({"ul", "ol", "menu"})
# Table row parts whose rows belong to the table.
_ROW_GROUPS = frozenset({"thead", "tbody", "tfoot"})


def norm(text: str) -> str:
    """Whitespace collapsed, case folded: how texts are compared."""
    return " ".join(text.split()).casefold()


def begins(line: str, prefix: str) -> bool:
    """`line` begins with `prefix`, ending at a word boundary."""
    return line.startswith(prefix) and (
        len(line) == len(prefix) or not line[len(prefix)].isalnum() or not prefix[-1].isalnum()
    )


def code_lines(text: str) -> list[str]:
    """A code block's lines as compared: tabs as four spaces, no-break spaces
    as spaces, trailing blanks dropped, blank lines at both ends dropped."""
    lines = [
        line.replace("\t", "    ").replace("\u00a0", " ").rstrip()
        for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ]
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end]


def lines_within(needle: list[str], hay: list[str]) -> bool:
    """`needle`'s lines occur in `hay` as a contiguous run."""
    if not needle:
        return False
    return ("\n" + "\n".join(needle) + "\n") in ("\n" + "\n".join(hay) + "\n")


def row_key(cells: list[str]) -> tuple[str, ...]:
    """A row as matched: its non-empty cells, a run of equal cells (a colspan
    repeated) counted once."""
    out: list[str] = []
    for cell in cells:
        if cell and (not out or out[-1] != cell):
            out.append(cell)
    return tuple(out)


def rows_matched(want: list[tuple[str, ...]], have: list[tuple[str, ...]]) -> int:
    """How many rows of `want` occur in `have`, in order (greedy)."""
    matched, at = 0, 0
    for row in want:
        for j in range(at, len(have)):
            if have[j] == row:
                matched += 1
                at = j + 1
                break
    return matched


# ---------------------------------------------------------------- HTML side


def _text(root, skip=_SKIP) -> str:
    """The rendered text of `root`'s subtree: text nodes, `<br>` and block
    boundaries as newlines; subtrees whose tag is in `skip` left out."""
    out: list[str] = []

    def newline():
        if out and not out[-1].endswith("\n"):
            out.append("\n")

    stack = list(reversed(list(root.iter(include_text=True))))
    while stack:
        node = stack.pop()
        if node is None:
            newline()
            continue
        tag = node.tag
        if tag == "-text":
            data = node.text_content
            if data:
                out.append(data)
            continue
        if tag.startswith("-") or tag.startswith("!") or tag in skip:
            continue
        if tag == "br":
            out.append("\n")
            continue
        block = tag in _BLOCK
        if block:
            newline()
            stack.append(None)
        children = list(node.iter(include_text=True))
        stack.extend(reversed(children))
    return "".join(out)


def _inside(node, tags) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag in tags:
            return True
        parent = parent.parent
    return False


@dataclass
class Structure:
    """One structure of a page that is main content."""

    kind: str
    # Normalised text (heading, list item), code lines, or table rows.
    text: str = ""
    lines: list[str] = field(default_factory=list)
    rows: list[tuple[str, ...]] = field(default_factory=list)
    # What it looks like in the HTML, for failure reports.
    shown: str = ""


# A list or heading marker a gold text may keep at the start of a line.
_GOLD_MARKER = re.compile(r"^(?:#{1,6}|[-*+\u2022\u00b7\u25aa\u25e6\u2023]|\d{1,3}[.)])\s+")


class Gold:
    """A gold text, prepared for the tests of main content. A line that
    starts with a list or heading marker (`- `, `* `, `• `, `1. `, `## `)
    also stands without it."""

    def __init__(self, gold: str):
        lines = [line for line in (norm(raw) for raw in gold.split("\n")) if line]
        seen = set(lines)
        for line in list(lines):
            bare = _GOLD_MARKER.sub("", line)
            if bare and bare not in seen:
                seen.add(bare)
                lines.append(bare)
        self.lines = lines
        self.line_set = set(self.lines)
        self.flat = norm(gold)
        self._by_start: dict[str, list[str]] = {}
        for line in self.lines:
            self._by_start.setdefault(line[:3], []).append(line)

    def has_line(self, text: str) -> bool:
        return text in self.line_set

    def begins_line(self, text: str) -> bool:
        pool = self._by_start.get(text[:3], []) if len(text) >= 3 else self.lines
        return any(begins(line, text) for line in pool)

    def contains(self, text: str) -> bool:
        return text in self.flat


def html_structures(html: str, gold: Gold) -> list[Structure]:
    """The page's structures that are main content, in document order per kind."""
    tree = LexborHTMLParser(html)
    found: list[Structure] = []
    for node in tree.css("h1, h2, h3, h4, h5, h6"):
        text = norm(_text(node))
        if text and gold.has_line(text):
            found.append(Structure("heading", text=text, shown=f"<{node.tag}>{text}"))
    for node in tree.css("li"):
        text = norm(_text(node, _SKIP | _LISTS))
        if text and gold.begins_line(text):
            found.append(Structure("list_item", text=text, shown=f"<li>{text}"))
    for node in tree.css("pre"):
        if _inside(node, {"pre"}):
            continue
        raw = _text(node)
        lines = code_lines(raw)
        if sum(1 for line in lines if line.strip()) >= 2 and gold.contains(norm(raw)):
            found.append(Structure("code", lines=lines, shown="<pre>" + "\n".join(lines)))
    for node in tree.css("table"):
        table = _html_table(node, gold)
        if table is not None:
            found.append(table)
    for node in tree.css('math, script[type^="math/tex"]'):
        math = _html_math(node, gold)
        if math is not None:
            found.append(math)
    return found


def tex_key(tex: str) -> str:
    """TeX as compared: without whitespace, a `{\\displaystyle …}` wrapper
    (MediaWiki's) taken off."""
    key = "".join(tex.split())
    if key.startswith("{\\displaystyle") and key.endswith("}"):
        key = key[len("{\\displaystyle") : -1]
    return key


def _html_math(node, gold: Gold) -> Structure | None:
    """A formula with a TeX source (MathML's x-tex annotation or alttext, or
    MathJax's script), counted when the text around it (its block, formulas
    left out; the first eight words) is in the gold."""
    if node.tag == "script":
        tex = node.text(deep=True) or ""
    else:
        annotation = next(
            (a for a in node.css("annotation") if (a.attributes.get("encoding") or "").lower() == "application/x-tex"),
            None,
        )
        tex = annotation.text(deep=True) if annotation is not None else node.attributes.get("alttext") or ""
    key = tex_key(tex)
    if not key:
        return None
    block = node.parent
    for _ in range(4):
        if block is None or block.tag in _BLOCK:
            break
        block = block.parent
    if block is None:
        return None
    context = norm(_text(block, _SKIP | {"math"})).split()[:8]
    if len(context) < 3 or not gold.contains(" ".join(context)):
        return None
    return Structure("math", text=key, shown=f"<math> {tex.strip()[:200]}")


def _html_table(node, gold: Gold) -> Structure | None:
    if len(node.css("table")) > 1:  # the selector matches the node itself
        return None
    rows: list[tuple[str, ...]] = []
    shown: list[str] = []
    wide = False
    for part in node.iter():
        trs = [part] if part.tag == "tr" else list(part.iter()) if part.tag in _ROW_GROUPS else []
        for tr in trs:
            if tr.tag != "tr":
                continue
            cells: list[str] = []
            for cell in tr.iter():
                if cell.tag not in ("td", "th"):
                    continue
                text = norm(_text(cell))
                if text and not gold.contains(text):
                    return None
                try:
                    span = max(1, min(int(cell.attributes.get("colspan") or 1), 1000))
                except ValueError:
                    span = 1
                cells.extend([text] * span)
            key = row_key(cells)
            if key:
                rows.append(key)
                shown.append(" | ".join(key))
                wide = wide or len(key) >= 2
    if len(rows) < 2 or not wide:
        return None
    return Structure("table", rows=rows, shown="<table> " + " / ".join(shown)[:300])


# ------------------------------------------------------------ Markdown side

_MD = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
_TAG = re.compile(r"<[^>]*>")
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _inline(token, breaks: str = " ") -> str:
    """An inline token's text as CommonMark renders it."""
    out: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind in ("text", "code_inline"):
            out.append(child.content)
        elif kind in ("softbreak", "hardbreak") or (kind == "html_inline" and _BR.match(child.content)):
            out.append(breaks)
        elif kind == "image":
            out.append(_inline(child, breaks))
    return "".join(out)


@dataclass
class Markdown:
    """What a Markdown document carries, as compared."""

    headings: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    fences: list[list[str]] = field(default_factory=list)
    # Runs of table rows: GFM tables, and runs of lines that start with `|`
    # (rows without a delimiter row, which render as text).
    tables: list[list[tuple[str, ...]]] = field(default_factory=list)
    # The TeX of `$…$` and `$$…$$` spans outside code, as tex_key gives it.
    math: set = field(default_factory=set)
    # Only the GFM tables (a delimiter row under the header): what renders as a table.
    gfm_tables: list[list[tuple[str, ...]]] = field(default_factory=list)
    # The document with its markup stripped, for word-level F1.
    plain: str = ""
    # The stripped text's lines, prepared as a gold text is (in_text).
    lines: "Gold | None" = None
    source: str = ""

    def has_heading(self, text: str) -> bool:
        return text in self._heading_set

    def has_item(self, text: str) -> bool:
        pool = self._items_by_start.get(text[:3], []) if len(text) >= 3 else self.items
        return any(begins(item, text) for item in pool)

    def has_code(self, lines: list[str]) -> bool:
        return any(lines_within(lines, fence) for fence in self.fences)

    def has_table(self, rows: list[tuple[str, ...]], gfm_only: bool = False) -> bool:
        need = 0.9 * len(rows)
        tables = self.gfm_tables if gfm_only else self.tables
        return any(rows_matched(rows, table) >= need for table in tables)

    def __post_init__(self):
        self.index()

    def index(self):
        self._heading_set = set(self.headings)
        self._items_by_start: dict[str, list[str]] = {}
        for item in self.items:
            self._items_by_start.setdefault(item[:3], []).append(item)


def parse_markdown(source: str) -> Markdown:
    """Headings, list items, fenced blocks, GFM tables and plain text of a
    Markdown document (CommonMark with GFM tables)."""
    md = Markdown(source=source)
    plain: list[str] = []
    depth = 0  # list nesting
    items: list[tuple[int, list[str]]] = []  # open items: (list depth, own texts)
    heading = False
    table: list[tuple[str, ...]] | None = None
    row: list[str] | None = None
    code_ranges: list[list[int]] = []  # lines of code blocks and GFM tables
    fence_ranges: list[list[int]] = []  # lines of code blocks
    for token in _MD.parse(source):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif kind == "list_item_open":
            items.append((depth, []))
        elif kind == "list_item_close":
            _, texts = items.pop()
            text = norm(" ".join(texts))
            if text:
                md.items.append(text)
        elif kind == "heading_open":
            heading = token.markup.startswith("#")
        elif kind == "heading_close":
            heading = False
        elif kind == "table_open":
            table = []
            if token.map:
                code_ranges.append(token.map)
        elif kind == "table_close":
            if table:
                md.gfm_tables.append(table)
            table = None
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            if table is not None and row is not None:
                table.append(row_key([norm(cell) for cell in row]))
                plain.append(" ".join(row))
            row = None
        elif kind == "inline":
            text = _inline(token)
            if row is not None:
                row.append(text)
                continue
            if heading:
                md.headings.append(norm(text))
            if items and items[-1][0] == depth:
                items[-1][1].append(text)
            # Rows without a delimiter row are paragraphs: their pipes are markup.
            plain.append(
                "\n".join(
                    _PIPE.sub(" ", line) if line.lstrip().startswith("|") else line
                    for line in _inline(token, "\n").split("\n")
                )
            )
        elif kind in ("fence", "code_block"):
            if token.map:
                code_ranges.append(token.map)
                fence_ranges.append(token.map)
            if kind == "fence":
                md.fences.append(code_lines(token.content))
            plain.append(token.content)
        elif kind == "html_block":
            plain.append(_TAG.sub(" ", token.content))
    md.tables = md.gfm_tables + _pipe_rows(source, code_ranges)
    md.math = _math_spans(source, fence_ranges)
    md.plain = "\n".join(plain)
    md.index()
    return md


_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*")
_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER = re.compile(r"^\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")


def _pipe_rows(source: str, skip: list[list[int]]) -> list[list[tuple[str, ...]]]:
    """Runs of consecutive lines that start with `|` (outside code and GFM
    tables, whose line ranges are `skip`), each line
    a row; delimiter rows skipped. Cells are split at unescaped `|` and
    rendered inline."""
    in_code = set()
    for start, end in skip:
        in_code.update(range(start, end))
    runs: list[list[tuple[str, ...]]] = []
    run: list[tuple[str, ...]] = []
    for number, line in enumerate(source.split("\n")):
        body = _QUOTE.sub("", line, count=1).rstrip()
        if number in in_code or not body.startswith("|"):
            if run:
                runs.append(run)
                run = []
            continue
        if _DELIMITER.match(body):
            continue
        cells = _PIPE.split(body)[1:]
        if cells and not cells[-1].strip():
            cells.pop()
        run.append(row_key([norm(render_inline(cell)) for cell in cells]))
    if run:
        runs.append(run)
    return runs


_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)((?:[^$\\\n]|\\.)+?)(?<!\\)\$(?!\$)")


def _math_spans(source: str, skip: list[list[int]]) -> set:
    """The TeX of the `$$…$$` and `$…$` spans of the Markdown, outside the
    code blocks' line ranges in `skip`."""
    lines = source.split("\n")
    for start, end in skip:
        for i in range(start, min(end, len(lines))):
            lines[i] = ""
    text = "\n".join(lines)
    spans = {tex_key(m.group(1)) for m in _DISPLAY.finditer(text)}
    spans |= {tex_key(m.group(1)) for m in _INLINE_MATH.finditer(_DISPLAY.sub(" ", text))}
    return spans


def render_inline(text: str) -> str:
    """A piece of inline Markdown as CommonMark renders it."""
    tokens = _MD.parseInline(text.strip())
    return _inline(tokens[0]) if tokens else ""


# ------------------------------------------------------------------ scoring


def carried(structure: Structure, md: Markdown) -> bool:
    """Whether the Markdown carries the structure."""
    if structure.kind == "heading":
        return md.has_heading(structure.text)
    if structure.kind == "list_item":
        return md.has_item(structure.text)
    if structure.kind == "code":
        return md.has_code(structure.lines)
    if structure.kind == "math":
        return structure.text in md.math
    return md.has_table(structure.rows)


def in_text(structure: Structure, md: Markdown) -> bool:
    """Whether the structure's text is in the Markdown's stripped text: a
    heading as a line, a list item beginning a line, code and table cells
    anywhere. One missing from it was not selected; one found in it was
    selected but not rendered as that structure."""
    if md.lines is None:
        md.lines = Gold(md.plain)
    if structure.kind == "heading":
        return md.lines.has_line(structure.text)
    if structure.kind == "list_item":
        return md.lines.begins_line(structure.text)
    if structure.kind == "code":
        return norm("\n".join(structure.lines)) in md.lines.flat
    if structure.kind == "math":
        return "".join(structure.text.split()) in "".join(md.source.split())
    return all(cell in md.lines.flat for row in structure.rows for cell in row)


def gold_markdown_structures(gold_md: Markdown) -> list[Structure]:
    """The second view: the structures of the annotators' gold Markdown."""
    found = [Structure("heading", text=t, shown=f"# {t}") for t in gold_md.headings if t]
    found += [Structure("list_item", text=t, shown=f"- {t}") for t in gold_md.items if t]
    found += [
        Structure("code", lines=lines, shown="```\n" + "\n".join(lines))
        for lines in gold_md.fences
        if sum(1 for line in lines if line.strip()) >= 2
    ]
    found += [
        Structure("table", rows=rows, shown="| " + " / ".join(" | ".join(r) for r in rows)[:300])
        for rows in gold_md.tables
        if len(rows) >= 2 and any(len(r) >= 2 for r in rows)
    ]
    return found


def near(md: Markdown, structure: Structure, width: int = 200) -> str:
    """The Markdown lines around where the structure's text occurs, for
    failure reports; '' if its text is not found on any line."""
    if structure.kind in ("heading", "list_item"):
        probe = structure.text[:40]
    elif structure.kind == "code":
        probe = next((norm(line) for line in structure.lines if line.strip()), "")[:40]
    elif structure.kind == "math":
        return ""
    else:
        probe = next((cell for row in structure.rows for cell in row if len(cell) > 3), "")[:40]
    if not probe:
        return ""
    lines = md.source.split("\n")
    for i, line in enumerate(lines):
        if probe in norm(re.sub(r"[\\*_`]", "", line)):
            window = "\n".join(lines[max(0, i - 1) : i + 3])
            return window[:width] if structure.kind != "code" else "\n".join(lines[max(0, i - 2) : i + 6])[:400]
    return ""
