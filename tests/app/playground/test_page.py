"""Private mean playground: defaults, every control, every space and data source, invalid inputs
and the URL round trip, all through Streamlit's AppTest."""

import re

import pytest

from engine.mechanisms import specs
from engine.spaces import SPACES
from tests.app import charts
from tests.app.conftest import PLAYGROUND, app_at, assert_clean, messages, run_page, who_wins_sentence, who_wins_winner
from ui import playground


def _chart(at) -> dict:
    """The spec of the first plotly chart (fails when there is none)."""
    found = charts.specs(at)
    assert found, "the page shows no plotly chart"
    return found[0]


@pytest.fixture(scope="module")
def defaults():
    """The playground with its default settings, run once for the module."""
    return run_page(PLAYGROUND)


def test_defaults_render_a_chart_without_errors(defaults):
    spec = _chart(defaults)
    assert any(trace.get("type") == "scatter3d" for trace in spec["data"])
    assert not defaults.error
    assert defaults.selectbox(key="space").value == "sphere"
    assert defaults.multiselect(key="mech").value == ["exact", "euclid"]
    assert defaults.table[0].value["Mechanism"].tolist() == ["Riemannian Laplace", "Euclidean Laplace"]
    assert any(r"\Delta" in formula.value for formula in defaults.latex)
    assert sum(e.label.startswith("Privacy guarantee") for e in defaults.expander) == 2  # one per mechanism


def test_defaults_write_their_settings_into_the_url(defaults):
    assert defaults.query_params["space"] == "sphere"
    assert defaults.query_params["mech"] == "exact,euclid"
    assert float(defaults.query_params["r"]) == pytest.approx(3.141592653589793 / 8)


def test_every_sidebar_control_rerenders():
    at = run_page(PLAYGROUND)
    steps = [
        lambda: at.slider(key="eps").set_value(2.5),
        lambda: at.slider(key="n").set_value(120),
        lambda: at.slider(key="r").set_value(0.3),
        lambda: at.slider(key="m").set_value(60),
        lambda: at.number_input(key="seed").set_value(7),
        lambda: at.selectbox(key="outside").select("keep"),
        lambda: at.multiselect(key="mech").select("gauss"),
        lambda: at.select_slider(key="delta").set_value(1e-5),
        lambda: at.multiselect(key="mech").select("mh"),
        lambda: at.slider(key="burn").set_value(300),
        lambda: at.slider(key="thin").set_value(3),
        lambda: at.toggle(key="adapt").set_value(False),
        lambda: at.slider(key="step").set_value(0.05),
        lambda: at.multiselect(key="mech").unselect("exact"),
        lambda: at.multiselect(key="mech").unselect("euclid"),
    ]
    for step in steps:
        step().run()
        assert_clean(at)
        _chart(at)
    assert at.query_params["eps"] == "2.5"
    assert at.query_params["mech"] == "gauss,mh"
    assert at.query_params["delta"] == "1e-05"
    assert at.query_params["step"] == "0.05"
    assert at.table[0].value["Mechanism"].tolist() == ["Riemannian Laplace (MH)", "Tangent Gaussian"]


def test_every_space_and_data_source_rerenders():
    at = run_page(PLAYGROUND)
    for space, spec in playground.SPACES.items():
        at.selectbox(key="space").select(space).run()
        assert_clean(at)
        assert at.multiselect(key="mech").options == [playground.MECHANISMS[m] for m in spec.mechanisms]
        for source in spec.sources:
            at.selectbox(key="source").select(source).run()
            assert_clean(at)
            _chart(at)
        if space == "kendall":
            at.slider(key="k").set_value(11).run()
            assert_clean(at)
            assert at.query_params["k"] == "11"


def test_each_mechanism_alone_on_each_space():
    at = run_page(PLAYGROUND)
    for space, spec in playground.SPACES.items():
        at.selectbox(key="space").select(space).run()
        for mechanism in spec.mechanisms:
            at.multiselect(key="mech").set_value([mechanism]).run()
            assert_clean(at)
            assert not at.error, messages(at, "error")
            assert len(at.table[0].value) == 1


def test_airports_state_filter_and_real_data_notes():
    at = run_page(PLAYGROUND, {"space": "sphere", "source": "airports"})
    assert at.selectbox(key="state").value == "CA"
    assert any("random sample of n" in text for text in messages(at, "info"))
    at.selectbox(key="state").select("all").run()
    assert_clean(at)
    assert any("clipped onto the boundary" in text for text in messages(at, "warning"))  # the default keeps Δ valid
    at.selectbox(key="outside").select("keep").run()
    assert any("outside the ball" in text and "NOT ε-DP" in text for text in messages(at, "error"))
    at.selectbox(key="outside").select("drop").run()
    assert_clean(at)
    assert any("dropped" in text and "NOT ε-DP" in text for text in messages(at, "error"))
    assert any("Not differentially private" in text and "were dropped" in text for text in messages(at, "error"))


def test_nothing_selected_warns():
    at = run_page(PLAYGROUND, {"mech": ""})
    assert any("No mechanism" in text for text in messages(at, "warning"))
    _chart(at)


@pytest.mark.parametrize("params, expected", [
    ({"eps": "-1"}, "eps"),
    ({"space": "nonsense"}, "space"),
    ({"n": "lots"}, "n"),
    ({"space": "kendall", "r": "2.0"}, "r"),
    ({"mech": "exact,telepathy"}, "mech"),
])
def test_invalid_query_parameters_fall_back_with_a_warning(params, expected):
    at = run_page(PLAYGROUND, params)
    assert any(expected in text for text in messages(at, "warning"))
    _chart(at)


def test_hyperbolic_scale_beyond_normalisability_is_an_error():
    at = run_page(PLAYGROUND, {"space": "hyperbolic", "n": "5", "eps": "0.1", "r": "2.0"})
    errors = messages(at, "error")
    assert any("not normalisable" in text for text in errors)
    assert any("Riemannian Laplace not released" in text for text in errors)
    _chart(at)


def test_values_left_by_another_page_fall_back_to_defaults():
    at = app_at(PLAYGROUND)
    at.session_state["space"] = "torus"
    at.session_state["source"] = "iris"
    at.session_state["mech"] = ["kng"]
    at.run()
    assert_clean(at)
    assert at.selectbox(key="space").value == "sphere"
    assert at.selectbox(key="source").value == "cap"
    assert at.multiselect(key="mech").value == ["exact", "euclid"]
    _chart(at)


def test_query_parameters_round_trip():
    at = run_page(PLAYGROUND, {"space": "spd", "eps": "2.5", "n": "40", "mech": "exact,gauss", "seed": "3"})
    assert at.selectbox(key="space").value == "spd"
    assert at.slider(key="eps").value == 2.5
    assert at.slider(key="n").value == 40
    assert at.multiselect(key="mech").value == ["exact", "gauss"]
    assert at.number_input(key="seed").value == 3
    at.slider(key="n").set_value(150).run()
    assert_clean(at)
    assert at.query_params["n"] == "150"
    assert at.query_params["eps"] == "2.5"
    assert at.query_params["space"] == "spd"
    assert at.query_params["seed"] == "3"


@pytest.mark.slow
@pytest.mark.parametrize("space", [key for key, entry in SPACES.items() if specs.MH.offered_on(entry)])
def test_adding_mh_at_the_defaults_does_not_warn_that_releases_are_correlated(space):
    """Burn-in 1,000 and thinning 10 always drew the page's own warning."""
    at = run_page(PLAYGROUND, {"space": space, "mech": "exact,mh"})
    assert not [text for text in messages(at) if "correlated" in text]
    assert any("MH chain mixes" in text for text in messages(at, "success"))


def test_radius_slider_stops_below_the_spaces_limit():
    """The r slider went to 1.5 on S² although r* = π/4, and the charts vanished behind red boxes."""
    at = run_page(PLAYGROUND)
    top = at.slider(key="r").max
    assert top < 3.141592653589793 / 4
    at.slider(key="r").set_value(top).run()
    assert_clean(at)
    assert not messages(at, "error")
    assert any("r*" in caption.value for caption in at.sidebar.caption)


def test_error_table_caption_speaks_of_the_space_on_show():
    """The caption said "projected back onto the sphere" on SPD, H² and Kendall."""
    for space in (key for key in SPACES if key != "sphere"):
        at = run_page(PLAYGROUND, {"space": space})
        assert not any("onto the sphere" in caption.value for caption in at.main.caption)


def test_sphere_caption_names_the_colour_the_legend_draws(defaults):
    """The caption said grey segments while the legend drew light orange ones."""
    caption = next(c.value for c in defaults.main.caption if "Riemannian releases" in c.value)
    assert "grey" not in caption and "orange" in caption
    gap = next(t for t in _chart(defaults)["data"] if t.get("name", "").endswith("gap to the sphere"))
    assert gap["line"]["color"].startswith("rgba(213, 94, 0")  # the Euclidean Laplace orange, translucent


def test_an_mh_release_says_its_guarantee_is_that_of_the_exact_law(defaults):
    """A printed guarantee is a promise: MH draws only approach the law the guarantee is about."""
    at = run_page(PLAYGROUND, {"mech": "exact,mh", "burn": "200", "thin": "2", "m": "20"})
    caveat = [i.value for i in at.info if i.value.startswith("These releases are Metropolis–Hastings draws")]
    assert len(caveat) == 1
    assert not [i.value for i in defaults.info if "Metropolis–Hastings draws" in i.value]


def test_who_wins_sentence_names_the_winner_the_error_table_shows(defaults):
    """At the defaults (S², n = 50, r = π/8, ε = 1, Theorem 2's constant) the Euclidean Laplace
    has the smaller geodesic error; the page says so, with the table's numbers and the curvature factor."""
    sentence = who_wins_sentence(defaults)
    assert sentence is not None
    errors = defaults.table[0].value.set_index("Mechanism")["Geodesic error"].astype(float)
    assert who_wins_winner(sentence) == errors.idxmin() == "Euclidean Laplace"
    assert f"{errors['Euclidean Laplace']:.3g} against {errors['Riemannian Laplace']:.3g}" in sentence
    assert "(2 − h)/h = 1.55" in sentence and "100% of the Euclidean releases lie off the space" in sentence


def test_who_wins_sentence_only_where_both_mechanisms_released():
    at = run_page(PLAYGROUND, {"mech": "exact,gauss"})
    assert who_wins_sentence(at) is None
    spd = run_page(PLAYGROUND, {"space": "spd"})
    assert who_wins_winner(who_wins_sentence(spd)) == "Riemannian Laplace"


@pytest.mark.parametrize("query, name", [({"mech": "exact,rgauss"}, "Sphere(2)"),
                                         ({"space": "spd", "mech": "exact,rgauss"}, "SPD(2, affine)")])
def test_the_riemannian_gaussian_states_its_mu(query, name):
    at = run_page(PLAYGROUND, query)
    assert not at.error, messages(at, "error")
    stated = [m.value for m in at.markdown if m.value.startswith("**μ-GDP with μ = ")]
    assert len(stated) == 1 and f"hence **(ε, δ) = (1, 0.001)** for Riemannian Gaussian on {name}" in stated[0]


def test_the_playground_says_its_errors_average_one_data_sets_releases():
    """The playground (0.0403 against 0.0542) and the Utility page (0.0418 against 0.0499) disagreed
    at the same setting and neither said what it averages over. The sentence and the table's caption say it, from
    the run's own count of releases, and why the Utility page's numbers differ."""
    at = run_page(PLAYGROUND, {"m": "60"})
    sentence = who_wins_sentence(at)
    assert "These errors average 60 releases of this one data set" in sentence
    assert "the Utility page averages many data sets drawn by the paper's recipe, one release each" in sentence
    assert re.search(r"differ by the noise of their draws \(standard errors 0\.00\d+ and 0\.00\d+ here\)", sentence)
    assert [c.value for c in at.caption if "averaged over the 60 releases of this one data set" in c.value]
