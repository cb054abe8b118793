"""Sidebar navigation keeps each page's controls, in a real headless Chromium.

One browser session walks every ordered pair of pages (an Eulerian circuit of the complete directed
graph on the sidebar's pages), clicking only the sidebar's links. On its first visit each page must
show the controls it shows when opened by its address; one slider is then moved, and every later
visit must show the page exactly as it was left: a value set on one page never reaches a control of
the same name on another, and no control falls to its minimum.
"""

from __future__ import annotations

import pytest

from tests.browser.harness import page_paths, wait_for_app
from ui.navigation import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LABELS = [page.label for page in PAGES]
PATHS = dict(zip(LABELS, page_paths().values()))

#: label -> shown value of every control in the sidebar (sliders, inputs, selects, toggles).
_CONTROLS = """() => {
    const side = document.querySelector('[data-testid="stSidebar"]');
    const out = {};
    if (!side) return out;  // between two pages
    const label = el => (el.querySelector('[data-testid="stWidgetLabel"]') || el).innerText.trim();
    for (const el of side.querySelectorAll('[data-testid="stSlider"]')) {
        out[label(el)] = Array.from(el.querySelectorAll('[data-testid="stSliderThumbValue"]'))
            .map(t => t.innerText.trim()).join(' – ');
    }
    for (const el of side.querySelectorAll('[data-testid="stNumberInput"]')) {
        out[label(el)] = el.querySelector('input')?.value;
    }
    for (const el of side.querySelectorAll('[data-testid="stSelectbox"]')) {
        out[label(el)] = el.querySelector('input[role="combobox"]')?.value;
    }
    for (const el of side.querySelectorAll('[data-testid="stMultiSelect"]')) {
        out[label(el)] = Array.from(el.querySelectorAll('[data-tag]'))
            .map(t => t.getAttribute('aria-label')).join(', ');
    }
    for (const el of side.querySelectorAll('[data-testid="stCheckbox"]')) {
        out[el.innerText.trim()] = el.querySelector('input')?.checked;
    }
    return out;
}"""


def eulerian_walk(nodes: list[str]) -> list[str]:
    """A walk from ``nodes[0]`` that steps once from every node to every other (Hierholzer)."""
    unused = {a: [b for b in nodes if b != a] for a in nodes}
    stack, walk = [nodes[0]], []
    while stack:
        if unused[stack[-1]]:
            stack.append(unused[stack[-1]].pop())
        else:
            walk.append(stack.pop())
    return walk[::-1]


# The script has finished (no status widget) and the sidebar's element count stayed the same over
# four polls in a row; the charts of the main area may still be drawing (they are not inspected).
_SIDEBAR_SETTLED = """() => {
    const count = document.querySelectorAll('[data-testid="stSidebar"] *').length;
    const idle = !document.querySelector('[data-testid="stStatusWidget"]');
    const s = window.__sidebar || (window.__sidebar = {count: -1, same: 0});
    s.same = (idle && count === s.count) ? s.same + 1 : 0;
    s.count = count;
    return s.same >= 4;
}"""
TIMEOUT_MS = 180_000


def _settled(page, controls: int = 0) -> None:
    """Wait until the sidebar shows at least ``controls`` controls and has settled."""
    page.wait_for_function(f"() => Object.keys(({_CONTROLS})()).length >= {controls}", timeout=TIMEOUT_MS,
                           polling=300)
    page.evaluate("() => { window.__sidebar = null; }")
    page.wait_for_function(_SIDEBAR_SETTLED, timeout=TIMEOUT_MS, polling=150)


def _title(page) -> str:
    return page.locator("h1").first.inner_text()


def test_walk_through_every_pair_of_pages_keeps_each_pages_controls(chromium, app_url):
    defaults, titles = {}, {}
    for label in LABELS:
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.goto(f"{app_url}/{PATHS[label]}")
        wait_for_app(page, TIMEOUT_MS, chart=label != "Home")
        _settled(page)
        defaults[label], titles[label] = page.evaluate(_CONTROLS), _title(page)
        context.close()

    walk = eulerian_walk(LABELS)
    assert len(walk) == len(LABELS) * (len(LABELS) - 1) + 1
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{app_url}/{PATHS[walk[0]]}")
    _settled(page, len(defaults[walk[0]]))
    expected, route = dict(defaults), [walk[0]]
    for label in walk[1:]:
        route.append(label)
        page.get_by_test_id("stSidebar").get_by_role("link", name=label, exact=True).click()
        page.wait_for_function("(title) => document.querySelector('h1')?.innerText === title", arg=titles[label],
                               timeout=TIMEOUT_MS)
        _settled(page, len(expected[label]))
        shown = page.evaluate(_CONTROLS)
        assert shown == expected[label], (" → ".join(route), {k: (v, expected[label].get(k)) for k, v in
                                                               shown.items() if expected[label].get(k) != v})
        if label not in route[:-1]:
            sliders = page.get_by_test_id("stSidebar").get_by_role("slider")
            if sliders.count():
                before = page.url
                sliders.first.press("ArrowRight")  # press() focuses the slider first
                page.wait_for_function("(before) => window.location.href !== before", arg=before,
                                       timeout=TIMEOUT_MS)
                _settled(page, len(expected[label]))
                moved = page.evaluate(_CONTROLS)
                assert moved != defaults[label], label
                expected[label] = moved
    context.close()
