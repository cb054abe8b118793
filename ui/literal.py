"""Values from the address or a file, shown as literal text inside Streamlit's Markdown messages."""

from __future__ import annotations

#: Characters of a quoted value shown before it is cut (a long value would flood the message).
LIMIT = 60


def literal(value, limit: int = LIMIT) -> str:
    """``value`` as a Markdown code span, so no part of it renders as a link, HTML, LaTeX or colour.

    The value is shown through ``repr`` (a line break cannot end the span), cut after ``limit``
    characters with the full length stated, and fenced with one backtick more than its longest run
    of backticks (a CommonMark code span ends only at a run of the same length).

    >>> literal("[log in](https://evil.example)")
    "`'[log in](https://evil.example)'`"
    """
    if isinstance(value, (int, float)):
        text = str(value)
    else:
        raw = str(value)
        text = repr(raw[:limit]) + (f"… ({len(raw):,} characters)" if len(raw) > limit else "")
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    return f"{fence}{text}{fence}"
