"""Every string a page shows a reader in an AppTest run: labels, text, options, table cells and the
``help=`` tooltips, kept apart from the sidebar's "Terms on this page" list (``ui.glossary``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Elements whose strings are not read as words: charts (their JSON), custom components, empty
#: placeholders (the sidebar's links to the pages, their names, are skipped too).
SKIPPED = frozenset({"plotly_chart", "component_instance", "empty", "vega_lite_chart", "deck_gl_json_chart"})
#: Label of the glossary's list in the sidebar.
TERM_LIST = "Terms on this page"


@dataclass(frozen=True)
class PageText:
    """What a run shows: ``shown`` (text, labels, options, table cells), ``tooltips`` (the ``help=``
    texts) and ``term_list`` (the entries of the sidebar's glossary list)."""

    shown: list[str]
    tooltips: list[str]
    term_list: list[str]


def _strings(message, tooltips: list[str], shown: list[str]) -> None:
    """The string fields of a protobuf ``message``, recursively: ``help`` ones into ``tooltips``."""
    for field, value in message.ListFields():
        items = value if isinstance(value, Sequence) and not isinstance(value, (str, bytes)) else [value]
        for item in items:
            if isinstance(item, str):
                (tooltips if field.name == "help" else shown).append(item)
            elif hasattr(item, "ListFields"):
                _strings(item, tooltips, shown)


def _walk(node, in_sidebar: bool, in_term_list: bool, text: PageText) -> None:
    kind = getattr(node, "type", None)
    if kind in SKIPPED or (kind == "page_link" and in_sidebar):
        return
    proto = getattr(node, "proto", None)
    if proto is not None and hasattr(proto, "ListFields"):
        strings: list[str] = []
        _strings(proto, text.tooltips, strings)
        in_term_list = in_term_list or TERM_LIST in strings
        target = text.term_list if in_term_list else text.shown
        target += [s for s in strings if s != TERM_LIST]
    if kind in ("table", "dataframe"):
        frame = node.value
        text.shown.extend(str(column) for column in frame.columns)
        text.shown.extend(str(cell) for cell in frame.to_numpy().ravel())
    children = getattr(node, "children", None) or {}
    for child in children.values() if isinstance(children, dict) else children:
        _walk(child, in_sidebar, in_term_list, text)


def page_text(at) -> PageText:
    """The strings of the last run of the AppTest ``at``, main area and sidebar."""
    text = PageText([], [], [])
    _walk(at.main, False, False, text)
    _walk(at.sidebar, True, False, text)
    return text
