"""The scorer's matching on small hand-made pages and Markdown renderings.

Run: benches/structure/.venv/bin/python -m pytest benches/structure
"""

import structure as st


def found(html, gold, kind=None):
    out = st.html_structures(html, st.Gold(gold))
    return [s for s in out if kind is None or s.kind == kind]


def carried(html, gold, markdown, kind):
    """(counted, carried) structures of `kind`."""
    md = st.parse_markdown(markdown)
    got = found(html, gold, kind)
    return len(got), sum(st.carried(s, md) for s in got)


# ------------------------------------------------------------------ headings


def test_heading_counts_only_when_it_is_a_gold_line():
    html = "<h1>Site name</h1><h2>The story</h2><p>Body text here.</p>"
    assert [s.text for s in found(html, "The story\nBody text here.", "heading")] == ["the story"]
    # A gold line that only contains the heading's text is not the heading's line.
    assert found(html, "The story goes on\nBody text here.", "heading") == []


def test_heading_must_be_an_atx_line_with_the_same_text():
    html = "<h2>The story</h2>"
    gold = "the  STORY"
    assert carried(html, gold, "## The story\n", "heading") == (1, 1)
    assert carried(html, gold, "###### The Story ###\n", "heading") == (1, 1)
    assert carried(html, gold, "- ## The story\n", "heading") == (1, 1)
    assert carried(html, gold, "> # The story\n", "heading") == (1, 1)
    # Setext, bold, or a plain line: not a `#` line.
    assert carried(html, gold, "The story\n=========\n", "heading") == (1, 0)
    assert carried(html, gold, "**The story**\n", "heading") == (1, 0)
    assert carried(html, gold, "The story\n", "heading") == (1, 0)
    # Text differs.
    assert carried(html, gold, "## The story so far\n", "heading") == (1, 0)
    # Not a heading: `#` without a space, or inside code.
    assert carried(html, gold, "#The story\n", "heading") == (1, 0)
    assert carried(html, gold, "```\n# The story\n```\n", "heading") == (1, 0)


def test_text_is_compared_as_it_renders():
    html = '<h2>The <em>big</em> <a href="/d">day</a> #1 *now* a_b &amp; c</h2>'
    gold = "The big day #1 *now* a_b & c"
    md = "## The *big* [day](/d) \\#1 \\*now\\* a\\_b &amp; c\n"
    assert carried(html, gold, md, "heading") == (1, 1)
    assert carried(html, gold, "## The **big** day #1 \\*now\\* a_b & c\n", "heading") == (1, 1)
    assert carried(html, gold, "## The big day #1 now a b & c\n", "heading") == (1, 0)


def test_br_and_blocks_separate_words():
    html = "<h2>One<br>two</h2><h3><span>Three</span><div>four</div></h3>"
    assert [s.text for s in found(html, "one two\nthree four", "heading")] == ["one two", "three four"]


def test_scripts_and_styles_are_not_text():
    html = "<h2>Title<script>var x = 1;</script><style>p{}</style></h2>"
    assert [s.text for s in found(html, "Title", "heading")] == ["title"]


# --------------------------------------------------------------- list items


def test_list_item_counts_when_it_begins_a_gold_line():
    html = "<ul><li>First point</li><li>Prices</li><li>Menu</li></ul>"
    gold = "First point, with more said.\nPrices go up"
    # "Prices" begins "Prices go up" at a word boundary; "Menu" is nowhere.
    assert [s.text for s in found(html, gold, "list_item")] == ["first point", "prices"]
    # "Price" does not begin "Prices go up": not at a word boundary.
    assert found("<ul><li>Price</li></ul>", gold, "list_item") == []


def test_gold_list_markers_are_not_text():
    html = "<ol><li>Mix the flour</li><li>Bake it</li></ol><ul><li>Serve</li></ul>"
    gold = "1. Mix the flour\n2) Bake it\n- Serve\n"
    assert len(found(html, gold, "list_item")) == 3


def test_list_item_own_text_leaves_nested_lists_out():
    html = "<ul><li>Fruit<ul><li>Apple</li><li>Pear</li></ul></li></ul>"
    gold = "Fruit\nApple\nPear"
    assert [s.text for s in found(html, gold, "list_item")] == ["fruit", "apple", "pear"]
    md = "- Fruit\n  - Apple\n  - Pear\n"
    assert carried(html, gold, md, "list_item") == (3, 3)
    # Flattened into one item: the children are not items.
    assert carried(html, gold, "- Fruit Apple Pear\n", "list_item") == (3, 1)


def test_list_item_markers():
    html = "<ul><li>Alpha beta</li></ul>"
    for md in ("- Alpha beta\n", "* Alpha beta\n", "+ Alpha beta\n", "1. Alpha beta\n", "3) Alpha beta\n",
               "> - Alpha beta\n", "- **Alpha** [beta](x)\n"):
        assert carried(html, "Alpha beta", md, "list_item") == (1, 1), md
    for md in ("Alpha beta\n", "-Alpha beta\n", "• Alpha beta\n", "## Alpha beta\n", "- Alphabet\n"):
        assert carried(html, "Alpha beta", md, "list_item") == (1, 0), md
    # The item may say more than the `<li>` (its text begins with it).
    assert carried(html, "Alpha beta", "- Alpha beta gamma\n", "list_item") == (1, 1)
    assert carried(html, "Alpha beta", "- Alpha beta\n  gamma\n", "list_item") == (1, 1)


# --------------------------------------------------------------------- code

PRE = "<pre>def f(x):\n\treturn x &lt; 2\n\nprint(f(1))</pre>"
GOLD_CODE = "def f(x):\n    return x < 2\n\nprint(f(1))"


def test_pre_counts_with_two_lines_in_the_gold():
    (code,) = found(PRE, GOLD_CODE, "code")
    assert code.lines == ["def f(x):", "    return x < 2", "", "print(f(1))"]
    assert found("<pre>one line only\n\n</pre>", "one line only", "code") == []
    assert found(PRE, "something else", "code") == []


def test_pre_must_be_fenced_with_exact_lines():
    ok = "Code:\n\n```python\ndef f(x):\n\treturn x < 2\n\nprint(f(1))\n```\n"
    assert carried(PRE, GOLD_CODE, ok, "code") == (1, 1)
    # Tabs as four spaces; tilde fences; inside a list item (indent stripped).
    assert carried(PRE, GOLD_CODE, ok.replace("\t", "    "), "code") == (1, 1)
    assert carried(PRE, GOLD_CODE, "~~~~\ndef f(x):\n\treturn x < 2\n\nprint(f(1))\n~~~~\n", "code") == (1, 1)
    in_item = "- step\n\n  ```\n  def f(x):\n  \treturn x < 2\n\n  print(f(1))\n  ```\n"
    assert carried(PRE, GOLD_CODE, in_item, "code") == (1, 1)
    # The blank line dropped, the indentation lost, an escaped `<`, or no fence.
    assert carried(PRE, GOLD_CODE, "```\ndef f(x):\n\treturn x < 2\nprint(f(1))\n```\n", "code") == (1, 0)
    assert carried(PRE, GOLD_CODE, "```\ndef f(x):\nreturn x < 2\n\nprint(f(1))\n```\n", "code") == (1, 0)
    assert carried(PRE, GOLD_CODE, "```\ndef f(x):\n\treturn x \\< 2\n\nprint(f(1))\n```\n", "code") == (1, 0)
    assert carried(PRE, GOLD_CODE, "    def f(x):\n    \treturn x < 2\n\n    print(f(1))\n", "code") == (1, 0)
    assert carried(PRE, GOLD_CODE, "def f(x):\n\treturn x < 2\n\nprint(f(1))\n", "code") == (1, 0)


def test_pre_markup_and_br_are_rendered():
    html = '<pre><code class="language-sh"><span>$ ls</span><br>a.txt&nbsp;b.txt</code></pre>'
    (code,) = found(html, "$ ls a.txt b.txt", "code")
    assert code.lines == ["$ ls", "a.txt b.txt"]
    assert carried(html, "$ ls a.txt b.txt", "```sh\n$ ls\na.txt b.txt\n```\n", "code") == (1, 1)


# ------------------------------------------------------------------- tables

TABLE = (
    "<table><thead><tr><th>Name</th><th>Age</th></tr></thead>"
    "<tbody><tr><td>Ann</td><td>31</td></tr><tr><td>Bob</td><td>42</td></tr></tbody></table>"
)
GOLD_TABLE = "Name Age\nAnn 31\nBob 42"


def test_table_counts_when_its_cells_are_in_the_gold():
    (table,) = found(TABLE, GOLD_TABLE, "table")
    assert table.rows == [("name", "age"), ("ann", "31"), ("bob", "42")]
    assert found(TABLE, "Name Age\nAnn 31", "table") == []  # Bob is not in the gold
    one_column = "<table><tr><td>Ann</td></tr><tr><td>Bob</td></tr></table>"
    assert found(one_column, "Ann Bob", "table") == []
    one_row = "<table><tr><td>Ann</td><td>31</td></tr></table>"
    assert found(one_row, "Ann 31", "table") == []
    nested = "<table><tr><td>x</td><td>" + TABLE + "</td></tr><tr><td>y</td><td>z</td></tr></table>"
    assert len(found(nested, GOLD_TABLE + " x y z", "table")) == 1  # the inner one


def test_table_rows_in_order():
    gfm = "| Name | Age |\n|---|---|\n| Ann | 31 |\n| Bob | 42 |\n"
    assert carried(TABLE, GOLD_TABLE, gfm, "table") == (1, 1)
    assert carried(TABLE, GOLD_TABLE, "Name | Age\n--- | ---\n**Ann** | 31\nBob | 42\n", "table") == (1, 1)
    # Cells swapped in a row, a row missing (2 of 3 < 90 %), or plain lines.
    assert carried(TABLE, GOLD_TABLE, gfm.replace("| Ann | 31 |", "| 31 | Ann |"), "table") == (1, 0)
    assert carried(TABLE, GOLD_TABLE, "| Name | Age |\n|---|---|\n| Ann | 31 |\n", "table") == (1, 0)
    assert carried(TABLE, GOLD_TABLE, "Name Age\n\nAnn 31\n\nBob 42\n", "table") == (1, 0)


def test_rows_without_a_delimiter_row_are_rows_but_not_a_gfm_table():
    rows = "| Name | Age |\n| Ann | 31 |\n| Bob | 42 |\n"
    md = st.parse_markdown(rows)
    (table,) = found(TABLE, GOLD_TABLE, "table")
    assert md.has_table(table.rows)
    assert not md.has_table(table.rows, gfm_only=True)
    assert md.has_table(table.rows, gfm_only=False)
    assert st.parse_markdown("| Name | Age |\n|---|---|\n| Ann | 31 |\n| Bob | 42 |\n").has_table(table.rows, gfm_only=True)


def test_ninety_percent_of_rows():
    body = "".join(f"<tr><td>r{i}</td><td>v{i}</td></tr>" for i in range(10))
    html = f"<table>{body}</table>"
    gold = " ".join(f"r{i} v{i}" for i in range(10))
    rows = [f"| r{i} | v{i} |" for i in range(10)]
    head = "| a | b |\n|---|---|\n"
    assert carried(html, gold, head + "\n".join(rows[:9]) + "\n", "table") == (1, 1)
    assert carried(html, gold, head + "\n".join(rows[:8]) + "\n", "table") == (1, 0)


def test_colspan_repeated_or_padded():
    html = "<table><tr><th colspan=2>Both</th></tr><tr><td>a</td><td>b|c</td></tr></table>"
    gold = "Both a b|c"
    assert carried(html, gold, "| Both | Both |\n|---|---|\n| a | b\\|c |\n", "table") == (1, 1)
    assert carried(html, gold, "| Both | |\n|---|---|\n| a | b\\|c |\n", "table") == (1, 1)
    assert carried(html, gold, "| Both | |\n|---|---|\n| a | b | c |\n", "table") == (1, 0)


# ------------------------------------------------------- plain text, gold view


def test_plain_text_drops_the_markup():
    md = st.parse_markdown(
        "# Title\n\nSome *emphasis* and [a link](http://x) \\*.\n\n- one\n- two\n\n"
        "| h | i |\n|---|---|\n| j | k |\n\n| p | q |\n\n```py\nx = 1\n```\n"
    )
    assert md.plain.split() == ["Title", "Some", "emphasis", "and", "a", "link", "*.", "one", "two",
                                "h", "i", "j", "k", "p", "q", "x", "=", "1"]
    # Case is kept: the F1 counts it.
    assert st.parse_markdown("| Name | Age |\n|---|---|\n| Ann | 31 |\n").plain.split() == ["Name", "Age", "Ann", "31"]


def test_gold_markdown_view():
    gold_md = st.parse_markdown(
        "# Title\n\n- one\n- two\n\n```\na\nb\n```\n\n```\nsingle\n```\n\n| h | i |\n|---|---|\n| j | k |\n"
    )
    got = st.gold_markdown_structures(gold_md)
    assert [s.kind for s in got] == ["heading", "list_item", "list_item", "code", "table"]
    tool = st.parse_markdown("## title\n\n* one\n\ntwo\n\n```\na\nb\n```\n| h | i |\n| j | k |\n")
    assert [st.carried(s, tool) for s in got] == [True, True, False, True, True]


def test_br_in_a_cell_is_a_line_break():
    html = "<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic</td><td>$5<br>($60 a year)</td></tr></table>"
    gold = "Plan Price\nBasic $5 ($60 a year)"
    md = "| Plan | Price |\n| --- | --- |\n| Basic | $5<br>($60 a year) |\n"
    assert carried(html, gold, md, "table") == (1, 1)


def test_in_text_tells_selection_from_rendering():
    html = "<h2>Kept as text</h2><h2>Left out</h2>"
    md = st.parse_markdown("Kept as **text**\n\nOther words\n")
    kept, left = found(html, "Kept as text\nLeft out")
    assert not st.carried(kept, md) and st.in_text(kept, md)
    assert not st.carried(left, md) and not st.in_text(left, md)
    # A heading's text inside a longer line is not that heading's line.
    assert not st.in_text(kept, st.parse_markdown("Words kept as text here\n"))


MATH_PAGE = (
    "<p>The sum <math alttext='{\\displaystyle a_1 < a_2}'><mi>a</mi></math> holds for every pair of terms here.</p>"
    "<p>Display form:<math display='block'><semantics><mi>x</mi>"
    "<annotation encoding='application/x-tex'>x^2 + y^2</annotation></semantics></math> closes the proof now.</p>"
    "<p>Script form <script type='math/tex; mode=display'>\\frac{1}{2}</script> is a third kind of math.</p>"
    "<nav><p>Menu words that no gold has <math alttext='z'></math></p></nav>"
)
MATH_GOLD = "The sum holds for every pair of terms here.\nDisplay form: closes the proof now.\nScript form is a third kind of math."


def test_math_with_a_tex_source_counts_in_main_content():
    got = found(MATH_PAGE, MATH_GOLD, "math")
    assert [s.text for s in got] == ["a_1<a_2", "x^2+y^2", "\\frac{1}{2}"]


def test_math_as_latex_between_dollars():
    good = "The sum $a_1 < a_2$ holds.\n\nDisplay form:\n\n$$\nx^2 + y^2\n$$\n\nScript form $$\\frac{1}{2}$$ is.\n"
    assert carried(MATH_PAGE, MATH_GOLD, good, "math") == (3, 3)
    # Escaped as trafilatura does, or left as its text, or inside a code fence.
    escaped = "The sum $a\\_1 \\< a\\_2$ holds.\n\n```\n$$x^2 + y^2$$\n```\n\nScript form 1/2 is.\n"
    assert carried(MATH_PAGE, MATH_GOLD, escaped, "math") == (3, 0)
