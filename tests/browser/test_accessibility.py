"""WCAG 2 A/AA and heading order under axe-core on every page and every section.

axe-core comes from the npm registry (``tests/browser/axe/package.json``, installed by ``make
install-test``) and is injected from that file: nothing is fetched from a CDN. A violation is
reported with its rule, the first elements it names and axe's summary of the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.harness import page_paths, section_buttons, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
TIMEOUT_MS = 120_000

#: Rules beyond WCAG's tags that the pages keep too: headings that skip no level (st.subheader's h3
#: straight under the page's h1 on four pages).
BEST_PRACTICE = ["heading-order"]

_VIOLATIONS = """async ([tags, rules]) => {
    const wcag = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    const more = await axe.run(document, {runOnly: {type: 'rule', values: rules}});
    return [...wcag.violations, ...more.violations].map(v => `${v.id} (${v.impact}, ${v.nodes.length} elements): ${v.help}; ` +
        v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' -> ' + (n.failureSummary || '')).join(' | '));
}"""


def _violations(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(_VIOLATIONS, [WCAG_AA, BEST_PRACTICE])


@pytest.mark.parametrize("title", list(page_paths()))
def test_page_and_its_sections_pass_wcag_aa(app_page, app_url, title):
    from playwright.sync_api import expect

    if not AXE.exists():
        pytest.skip(f"accessibility test skipped: axe-core is not installed at {AXE} (make install-test runs "
                    "npm ci in tests/browser/axe)")
    page = app_page
    page.goto(f"{app_url}/{page_paths()[title]}")
    wait_for_app(page, TIMEOUT_MS, chart=title != "Home")
    found = {"first section": _violations(page)}
    buttons = section_buttons(page)
    for index in range(1, buttons.count()):
        label = buttons.nth(index).inner_text().strip()
        buttons.nth(index).click()
        expect(buttons.nth(index)).to_have_attribute("aria-checked", "true")
        wait_for_app(page, TIMEOUT_MS, chart=False)
        found[label] = _violations(page)
    assert not any(found.values()), {view: rules for view, rules in found.items() if rules}
