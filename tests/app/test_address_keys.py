"""Address keys a page does not know: each is reported in one warning line that quotes it as
literal text and names the nearest key the page knows; the page's own keys, its tabs' and the Home
page's links raise no such warning."""

from __future__ import annotations

import pytest

from app import PRESETS
from tests.app.conftest import HOME, PLAYGROUND, ROOT, assert_clean, messages, run_page

SENSITIVITY = ROOT / "pages" / "2_Sensitivity.py"
AUDIT = ROOT / "pages" / "8_Audit.py"
UNKNOWN = "no setting of that name"


def unknown_key_warnings(at) -> list[str]:
    return [text for text in messages(at, "warning") if UNKNOWN in text]


@pytest.mark.parametrize(("page", "params", "nearest"), [
    (PLAYGROUND, {"epsilon": "-1"}, "eps"),
    (SENSITIVITY, {"foo": "bar", "sed": "3"}, None),
    (AUDIT, {"epsilon": "2"}, "eps"),
    (HOME, {"foo": "bar"}, None),
], ids=["playground", "sensitivity", "audit", "home"])
def test_each_unknown_key_is_named_with_the_nearest_known_key(page, params, nearest):
    at = run_page(page, params)
    found = unknown_key_warnings(at)
    assert len(found) == len(params), found
    for (key, value), text in zip(params.items(), found):
        assert f"`'{key}={value}'`" in text, text
        if nearest is not None:
            assert f"the nearest key it knows is `'{nearest}'`" in text, text
    if page == SENSITIVITY:
        assert "`'seed'`" in found[1]
    if page == HOME:
        assert "takes no keys from the address" in found[0]


@pytest.mark.parametrize(("page", "params"), [(PLAYGROUND, {"anim": "true"}),
                                            (SENSITIVITY, {"sens_view": "Against κ"})], ids=["playground", "sensitivity"])
def test_only_the_unknown_key_is_reported_beside_the_pages_own(page, params):
    at = run_page(page, {**params, "foo": "bar"})
    at.run()  # now the address holds every key the page wrote, its tab's among them
    assert_clean(at)
    assert len(at.query_params) > 5
    found = unknown_key_warnings(at)
    assert len(found) == 1 and "`'foo=bar'`" in found[0], found


@pytest.mark.slow
@pytest.mark.parametrize(("script", "params"), [(script, params) for _, script, params in PRESETS],
                         ids=range(len(PRESETS)))
def test_home_links_plus_an_unknown_key_warn_once(script, params):
    at = run_page(ROOT / script, {**params, "foo": "bar"})
    found = unknown_key_warnings(at)
    assert len(found) == 1 and "`'foo=bar'`" in found[0], found


@pytest.mark.parametrize(("page", "params"), [
    (PLAYGROUND, {"space": "hyperbolic", "anim": "true", "anim_over": "n", "delta": "0.01", "k": "8"}),
    (SENSITIVITY, {"space": "sphere", "r_spd": "1.0", "kappa_spd": "0.0"}),
    (ROOT / "pages" / "5_Private_optimization.py", {"app": "frechet", "T_eigenvector": "30", "b_barycenter": "4"}),
], ids=["playground", "sensitivity", "optimization"])
def test_keys_of_controls_hidden_in_this_state_are_known(page, params):
    at = run_page(page, {**params, "foo": "bar"})
    found = unknown_key_warnings(at)
    assert len(found) == 1 and "`'foo=bar'`" in found[0], found


@pytest.mark.parametrize(("page", "params", "nearest"), [
    (PLAYGROUND, {"epss": "2"}, "eps"),
    (SENSITIVITY, {"foo": "bar"}, None),
    (ROOT / "pages" / "7_Private_subspaces.py", {"zzz": "1"}, None),
], ids=["playground-epss", "sensitivity-foo", "subspaces-zzz"])
def test_a_key_like_none_the_page_knows_lists_the_known_keys_instead_of_a_far_one(page, params, nearest):
    (key, value), = params.items()
    found = unknown_key_warnings(run_page(page, params))
    assert len(found) == 1 and f"`'{key}={value}'`" in found[0], found
    if nearest is None:
        assert "nearest key" not in found[0] and "the keys it knows are" in found[0] and "`'seed'`" in found[0], found
    else:
        assert f"the nearest key it knows is `'{nearest}'`" in found[0], found
