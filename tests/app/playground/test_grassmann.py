"""The Grassmannian of lines Gr(3, 1) in the playground, through its entry and its view alone."""

import numpy as np
import pytest

from tests.app import charts
from tests.app.conftest import PLAYGROUND, assert_clean, messages, run_page


@pytest.fixture(scope="module")
def lines():
    return run_page(PLAYGROUND, {"space": "grassmann"})


def test_lines_render_as_antipodal_pairs_with_the_mean_axis(lines):
    spec = charts.specs(lines)[0]
    names = [trace.get("name") for trace in spec["data"]]
    assert names[:2] == ["unit sphere", f"boundary of the data ball, r = {np.pi / 8:.3g}"]
    releases = [trace for trace in spec["data"] if trace.get("name") == "Riemannian Laplace"]
    x, y, z = (charts.values(releases[0][c]) for c in "xyz")
    assert len(releases) == 1 and x.shape == (2 * 200,)  # both points of each released line
    np.testing.assert_allclose(x[:200], -x[200:])
    np.testing.assert_allclose(x**2 + y**2 + z**2, 1.0)
    assert not lines.error and lines.selectbox(key="space").value == "grassmann"
    assert lines.multiselect(key="mech").value == ["exact", "euclid"]
    assert lines.table[0].value["Mechanism"].tolist() == ["Riemannian Laplace", "Euclidean Laplace"]


def test_the_numbers_speak_of_lines(lines):
    assert any(r"\sqrt{2}\,\sin" in formula.value for formula in lines.latex)  # r_E of the projectors
    captions = [caption.value for caption in lines.caption]
    assert any("two opposite points" in text for text in captions)
    assert any("angle between lines" in text for text in captions)
    assert any("Lines uniform" in text for text in messages(lines, "info"))


def test_the_verdict_says_the_euclidean_lines_were_rounded_onto_the_space(lines):
    # It said "0% of the Euclidean releases lie off the space and were projected back onto it": every noisy
    # projector is no projector, and from_ambient rounds it onto a line before any error is measured.
    verdict = next(text for text in messages(lines, "info") if text.startswith("**Who wins here"))
    assert "0% of the Euclidean releases" not in verdict
    assert "every Euclidean release was off it before rounding" in verdict
    assert "rounded onto the nearest line" in verdict


def test_every_control_of_the_lines_rerenders():
    at = run_page(PLAYGROUND, {"space": "grassmann"})
    steps = [
        lambda: at.slider(key="r").set_value(0.6),
        lambda: at.selectbox(key="source").select("acg"),
        lambda: at.slider(key="eps").set_value(0.5),
        lambda: at.slider(key="n").set_value(30),
        lambda: at.multiselect(key="mech").select("gauss"),
        lambda: at.multiselect(key="mech").select("mh"),
        lambda: at.selectbox(key="outside").select("drop"),
    ]
    for step in steps:
        step().run()
        assert_clean(at)
        assert charts.specs(at)
    assert at.query_params["space"] == "grassmann" and at.query_params["source"] == "acg"
    assert at.table[0].value["Mechanism"].tolist() == ["Riemannian Laplace", "Riemannian Laplace (MH)",
                                                       "Euclidean Laplace", "Tangent Gaussian"]
    assert messages(at, "error") and all("dropped" in text for text in messages(at, "error"))


def test_the_radius_slider_stops_below_theorem_2_s_limit():
    at = run_page(PLAYGROUND, {"space": "grassmann"})
    assert at.slider(key="r").max < np.pi / 4
