"""The playground's chart-first run (``ui.first_paint``) in a real headless Chromium: the chart
is drawn before the sidebar's widgets arrive, the full run that follows keeps that chart as it is, and the
same happens on a return to the page through the sidebar, with the values the user left."""

import pytest

from tests.browser.harness import PLOTS, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Records (in the top window only) the time of the first frame in which the playground's sphere scene
# is drawn and the first in which its sidebar shows the releases slider (another page's charts and
# sliders may still be on screen).
_WATCH = f"""(() => {{
    if (window.top !== window) return;
    window.__firstSeen = {{}};
    const look = () => {{
        const seen = window.__firstSeen, now = performance.now();
        if (seen.chart === undefined && {PLOTS}().some(el => el._fullLayout && el._fullLayout.scene
                                                                && el.querySelector('.main-svg'))) seen.chart = now;
        if (seen.slider === undefined && Array.from(document.querySelectorAll(
                '[data-testid="stSidebar"] [data-testid="stSlider"]')).some(s => s.textContent.includes('Private releases')))
            seen.slider = now;
        if (seen.chart === undefined || seen.slider === undefined) requestAnimationFrame(look);
    }};
    requestAnimationFrame(look);
}})()"""
# Records (in the top window only) the first frame in which each of these is on screen: a drawn chart, the
# page's title, a page link in the sidebar and an enabled value widget of the page's controls, in the sidebar or
# the Lesson's step selector (as benchmarks/pages.py).
_ORDER = f"""(() => {{
    if (window.top !== window) return;
    const seen = window.__firstSeen = {{}};
    const marks = {{
        chart: () => {PLOTS}().some(el => el.querySelector('.main-svg')),
        title: () => document.querySelector('h1'),
        links: () => document.querySelector('[data-testid="stSidebar"] [data-testid^="stPageLink"]'),
        widget: () => Array.from(document.querySelectorAll(
            ':is([data-testid="stSidebar"], .st-key-step) :is([role="slider"], input, textarea)')).some(
            el => !el.disabled && el.getAttribute('aria-disabled') !== 'true'),
    }};
    const look = () => {{
        const now = performance.now();
        for (const [name, shown] of Object.entries(marks)) if (seen[name] === undefined && shown()) seen[name] = now;
        if (Object.keys(marks).some(name => seen[name] === undefined)) requestAnimationFrame(look);
    }};
    requestAnimationFrame(look);
}})()"""
_CHART_BODY = f"""() => {{
    const body = {PLOTS}()[0].ownerDocument.body;
    return {{draws: Number(body.dataset.draws), chartFirst: body.dataset.chartFirst}};
}}"""


def _epsilon(page):
    return page.get_by_test_id("stSidebar").get_by_test_id("stSlider").filter(has_text="Privacy budget ε")


def _epsilon_shown(page) -> str:
    return _epsilon(page).get_by_test_id("stSliderThumbValue").inner_text()


def _assert_chart_first(page) -> None:
    """The chart came before the sidebar's widgets, and the full run did not draw it again."""
    seen = page.evaluate("() => window.__firstSeen")
    assert seen["chart"] < seen["slider"], seen
    assert page.evaluate(_CHART_BODY) == {"draws": 1, "chartFirst": "done"}


def test_the_chart_comes_first_and_the_full_page_keeps_it(app_page, app_url):
    page = app_page
    page.add_init_script(_WATCH)
    page.goto(f"{app_url}/Private_mean_playground?eps=2&n=80")
    wait_for_app(page, 180_000)
    _assert_chart_first(page)
    assert _epsilon_shown(page) == "2.00"
    assert "eps=2.0" in page.url and "n=80" in page.url and "space=sphere" in page.url
    assert page.get_by_text("Privacy guarantees").is_visible()


def test_a_return_through_the_sidebar_draws_the_chart_first_with_the_values_left(app_page, app_url):
    page = app_page
    page.add_init_script(_WATCH)
    page.goto(f"{app_url}/Private_mean_playground")
    wait_for_app(page, 180_000)
    _epsilon(page).get_by_role("slider").press("ArrowRight")
    page.wait_for_function("() => location.search.includes('eps=1.05')", timeout=60_000)
    wait_for_app(page, 120_000)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_role("link", name="Sensitivity", exact=True).click()
    page.wait_for_selector("h1:has-text('Sensitivity')", timeout=60_000)
    wait_for_app(page, 120_000)
    page.evaluate(_WATCH)
    sidebar.get_by_role("link", name="Private mean playground", exact=True).click()
    page.wait_for_selector("h1:has-text('Private mean playground')", timeout=60_000)
    wait_for_app(page, 120_000)
    _assert_chart_first(page)
    assert _epsilon_shown(page) == "1.05" and "eps=1.05" in page.url


def _script_runs(frames) -> int:
    """How many of the browser's messages to the server ask for a run of the page (a fragment's own
    timed reruns, which leave the rest of the page as it is, not counted)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    messages = [BackMsg.FromString(bytes(frame)) for frame in frames]
    return sum(m.WhichOneof("type") == "rerun_script" and not m.rerun_script.is_auto_rerun for m in messages)


@pytest.mark.parametrize(("path", "key"), [("Private_mean_playground", "eps"), ("Utility", "preset")])
def test_a_visit_runs_the_page_twice_only(app_page, app_url, path, key):
    """The drawn chart asks for the full run once, although Streamlit sends its render message again when
    the iframe is resized: a further run would replace the full run and lose what it shows once."""
    page = app_page
    frames = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    page.goto(f"{app_url}/{path}?{key}=unknown")
    wait_for_app(page, 180_000)
    page.wait_for_timeout(2_500)
    runs = _script_runs(frames)
    assert runs == 2, f"{runs} runs of the page: the chart-first run, the full run and {runs - 2} more"
    assert page.get_by_test_id("stAlert").filter(has_text=f"Ignored the address parameter {key}=").count() == 1


@pytest.mark.parametrize("path", ["Utility", "Sensitivity", "Lesson"])
def test_the_chart_comes_before_the_title_and_the_page_links(app_page, app_url, path):
    """The chart-first run sends the chart alone: the title, the introduction and the sidebar's page links
    (and the widgets) come with the full run, which keeps the drawn chart."""
    page = app_page
    page.add_init_script(_ORDER)
    page.goto(f"{app_url}/{path}")
    wait_for_app(page, 180_000)
    page.wait_for_function("() => Object.keys(window.__firstSeen).length === 4", timeout=60_000)
    seen = page.evaluate("() => window.__firstSeen")
    assert seen["chart"] < min(seen["title"], seen["links"], seen["widget"]), seen
    assert page.evaluate(_CHART_BODY) == {"draws": 1, "chartFirst": "done"}
