"""Values from the address are shown as literal text: a markdown link, HTML, LaTeX, a
colour directive or a very long value in a URL parameter never renders as anything but code."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from tests.app.conftest import PLAYGROUND, ROOT, messages, run_page
from ui.literal import LIMIT, literal

LINK = "[Session expired: click to log in](https://evil.example/login)"
HOSTILE = [
    LINK,
    "https://evil.example/login",
    '<a href="https://evil.example">log in</a>',
    "<script>alert(1)</script><b>bold</b>",
    "$\\href{https://evil.example}{x}$ :red[alarm] :material/lock:",
    "``[a](https://evil.example)`` ` [b](https://evil.example)",
    "fine\n\n[Session expired](https://evil.example)\n\n# heading",
    "x" * 10_000 + LINK,
]
MARKDOWN = MarkdownIt("commonmark")


def outside_code(message: str) -> str:
    """The HTML of ``message`` rendered as CommonMark, with every code span removed."""
    return re.sub(r"<code>.*?</code>", "", MARKDOWN.render(message), flags=re.S)


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_literal_renders_as_one_code_span(value):
    shown = literal(value)
    html = MARKDOWN.render(shown)
    assert html.count("<code>") == 1 and "<a " not in html
    rest = outside_code(shown)
    assert re.sub(r"<[^>]+>", "", rest).strip() == "", rest
    assert len(shown) <= LIMIT + 80


@pytest.mark.slow
@pytest.mark.parametrize(("page", "key", "value"), [
    (PLAYGROUND, "space", LINK),
    (PLAYGROUND, "n", HOSTILE[2]),
    (PLAYGROUND, "mech", HOSTILE[6]),
    (PLAYGROUND, "space", HOSTILE[-1]),
    (ROOT / "pages" / "3_Utility.py", "preset", LINK),
    (ROOT / "pages" / "4_Samplers.py", HOSTILE[2], LINK),
], ids=["space-link", "n-html", "mech-newlines", "space-long", "preset-link", "unknown-key-link"])
def test_address_values_in_warnings_are_literal(page, key, value):
    at = run_page(page, {key: value})
    found = [text for text in messages(at, "warning") if key in text]
    assert found, messages(at)
    for text in found:
        rest = outside_code(text)
        assert "evil" not in rest and "<a " not in rest and "<script" not in rest, text
        assert len(text) < 600

