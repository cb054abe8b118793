"""Keys that several pages use: a page reached through the sidebar shows its own
defaults, not the other page's value nor the widget's minimum, and gets back the value it was left
with. One case per shared key: set it on one page, follow the sidebar to another, then come back."""

from __future__ import annotations

import math

import pytest

from tests.app.conftest import ROOT, app_at, assert_clean, messages

PLAYGROUND = "pages/1_Private_mean_playground.py"
SENSITIVITY = "pages/2_Sensitivity.py"
UTILITY = "pages/3_Utility.py"
SAMPLERS = "pages/4_Samplers.py"
OPTIMIZATION = "pages/5_Private_optimization.py"
KINDS = ("slider", "select_slider", "number_input", "selectbox", "multiselect", "toggle")

pytestmark = pytest.mark.slow

#: key, the page it is set on, the value set there, a page that also draws it (with the address
#: values that make it show that control) and that page's default.
CASES = [
    ("n", PLAYGROUND, 100, SENSITIVITY, {}, 50),
    ("eps", UTILITY, 2.0, OPTIMIZATION, {}, 1.0),
    ("eps", OPTIMIZATION, 0.1, PLAYGROUND, {}, 1.0),
    ("seed", SAMPLERS, 7, UTILITY, {}, 0),
    ("space", SENSITIVITY, "spd", SAMPLERS, {}, "sphere"),
    ("reps", SENSITIVITY, 40, OPTIMIZATION, {}, 5),
    ("log", SENSITIVITY, False, UTILITY, {}, True),
    ("r_sphere", UTILITY, 0.5, SENSITIVITY, {}, math.pi / 8),
    ("burn", SAMPLERS, 1000, OPTIMIZATION, {}, 200),
    ("thin", SAMPLERS, 20, PLAYGROUND, {"mech": "mh"}, 25),
    ("adapt", SAMPLERS, False, PLAYGROUND, {"mech": "mh"}, True),
    ("delta", OPTIMIZATION, 1e-5, PLAYGROUND, {"mech": "gauss"}, 1e-3),
]


def widget(at, key: str):
    """The sidebar widget drawn under ``key``."""
    found = [w for kind in KINDS for w in getattr(at.sidebar, kind) if w.key == key]
    assert len(found) == 1, (key, found)
    return found[0]


def expected(value):
    return pytest.approx(value) if isinstance(value, float) else value


def follow_link(at, page: str, params: dict | None = None):
    """What a click on the sidebar's page link does: another page, no address values of the old one."""
    at.query_params.clear()
    at.query_params.update(params or {})
    at.switch_page(page).run()
    assert_clean(at)
    return at


@pytest.mark.parametrize(("key", "page_a", "value", "page_b", "params_b", "default_b"), CASES,
                         ids=[f"{case[0]}-{case[1][6:9]}-{case[3][6:9]}" for case in CASES])
def test_shared_key_keeps_each_page_its_own_value(key, page_a, value, page_b, params_b, default_b):
    at = app_at(ROOT / page_a)
    at.run()
    assert_clean(at)
    widget(at, key).set_value(value).run()
    assert_clean(at)
    assert widget(at, key).value == expected(value)

    follow_link(at, page_b, params_b)
    shown = widget(at, key).value
    assert shown == expected(default_b), (key, shown)
    assert not [text for text in messages(at, "warning") if "Ignored" in text]

    follow_link(at, page_a)
    back = widget(at, key).value
    assert back == expected(value), (key, back)
