"""What a class sees on every page at its defaults, read from the AppTest run.

One label and number rule for every chart (``engine.viz.palette``): powers of ten rather than SI
prefixes on every axis, no raw TeX underscore in any title, axis or legend; no label cut short in
the sidebar's selects and chips; every slider's range inside the space's validity limits.
"""

from __future__ import annotations

import pytest

from tests.app import charts
from tests.app.conftest import ROOT, messages, run_page

PAGES = sorted((ROOT / "pages").glob("[0-9]*_*.py"))


@pytest.fixture(scope="module", params=PAGES, ids=lambda path: path.stem)
def page(request):
    return run_page(request.param)


def test_every_axis_writes_powers_of_ten(page):
    """Item 9: log axes labelled 100µ (plotly's SI prefix) where a class expects 10⁻⁴."""
    found = charts.specs(page)
    assert found
    for spec in found:
        for name in charts.axes(spec):
            assert charts.axis_setting(spec, name, "exponentformat") == "power", name


def test_no_raw_underscore_in_chart_text(page):
    """Item 9: "ρ(x_t, η)" showed its TeX underscore on the Samplers trace."""
    for spec in charts.specs(page):
        for text in charts.visible_texts(spec):
            assert "_" not in text, text


#: Longest option label a sidebar select shows in full (about 300 px at the app's font), and the
#: longest chip label of a multiselect; longer ones are cut with "…".
SELECT_LABEL_MAX = 30
CHIP_LABEL_MAX = 20


def test_sidebar_labels_fit_their_boxes(page):
    """Item 9: "Fréchet mean on SPD(2), affine-i…" in a select, cut mechanism chips."""
    too_long = [option for select in page.sidebar.selectbox for option in select.options
                if len(option) > SELECT_LABEL_MAX]
    too_long += [option for select in page.sidebar.multiselect for option in select.options
                 if len(option) > CHIP_LABEL_MAX]
    assert not too_long, too_long


def test_out_of_range_seed_is_reported():
    """Item 9: ``seed=-5`` was silently set to 0 where every other parameter warns."""
    at = run_page(PAGES[0], {"seed": "-5"})
    assert any("seed=" in text and "-5" in text for text in messages(at, "warning")), messages(at, "warning")
    assert at.number_input(key="seed").value == 0
