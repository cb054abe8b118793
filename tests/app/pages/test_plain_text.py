"""Every page speaks to people: no table header, guarantee, note or message at a
page's defaults is written like code (``tests.plain_text``). TeX formulas are exempt: they are drawn."""

from __future__ import annotations

import pytest

from tests.app.conftest import ROOT, run_page
from tests.plain_text import code_spelling
from ui.navigation import PAGES

KINDS = ("markdown", "caption", "text", "info", "success", "warning", "error", "header", "metric")


def _shown_texts(at) -> list[str]:
    """The texts of the last run a reader sees as words: boxes, captions, plain text and table headers."""
    texts = []
    for kind in KINDS:
        for element in getattr(at, kind):
            value = getattr(element, "label", None) if kind == "metric" else element.value
            if kind == "markdown" and str(value).lstrip().startswith("$$"):
                continue
            texts.append(str(value))
    texts += [str(column) for table in at.table for column in table.value.columns]
    return texts


@pytest.mark.parametrize("script", [page.script for page in PAGES], ids=[page.label for page in PAGES])
def test_page_text_is_written_for_people(script):
    at = run_page(ROOT / script)
    spelled = [(code_spelling(text), text[:120]) for text in _shown_texts(at) if code_spelling(text)]
    assert not spelled, spelled
