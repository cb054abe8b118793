"""Utility page: defaults, every control, invalid addresses, the URL round trip and the Figure 1
preset (AppTest)."""

import dataclasses
import re

import numpy as np
import pytest

from engine.manifolds import Sphere
from engine.mechanisms import specs as mechanism_specs
from engine.mechanisms.gaussian import analytic_gaussian_sigma
from engine.pipelines import figure1_setting
from engine.pipelines import utility as utility_study
from tests.app import charts
from tests.app.charts import specs
from tests.app.conftest import (
    ROOT,
    assert_clean,
    assert_explained,
    messages,
    run_page,
    section_labels,
    who_wins_sentence,
    who_wins_winner,
)
from ui import utility

PAGE = ROOT / "pages" / "3_Utility.py"
CURVES, REDUCTION, PLANNER, WHERE, STUDY = utility.SECTIONS
#: Charts of each tab on the sphere: error against n and against ε; the noise reduction against n (SPD adds
#: the non-positive definite share); the scaling check; the maps of where each mechanism wins (sphere and SPD);
#: the sphere comparison's figure once its study is in the disk cache, the cells a run computes before.
CHARTS = {CURVES: 2, REDUCTION: 1, PLANNER: 1, WHERE: 5, STUDY: 1}


@pytest.fixture(scope="module")
def defaults():
    return run_page(PAGE)


def test_defaults_render_the_error_curves_without_messages(defaults):
    charts = specs(defaults)
    assert len(charts) == CHARTS[CURVES]
    assert section_labels(defaults) == list(utility.SECTIONS)
    names = {trace.get("name") for trace in charts[0]["data"]}
    assert {"Riemannian Laplace", "Euclidean Laplace", utility.BOUND_NAME} <= names
    assert not messages(defaults)


def test_noise_reduction_tab_tabulates_every_n():
    at = run_page(PAGE, {utility.SECTION_KEY: REDUCTION})
    assert not messages(at)
    assert len(specs(at)) == CHARTS[REDUCTION]
    reduction = at.table[0].value
    assert list(reduction["n"]) == list(utility.N_GRIDS["quick"])
    assert reduction["noise reduction (%)"].notna().all()


@pytest.mark.parametrize("address", [{}, {"log": "false"}, {"space": "spd", "reps": "20"}], ids=["sphere", "linear-n",
                                                                                                "spd"])
def test_noise_reduction_tab_charts_its_tables_reduction_per_n_first(address):
    """The tab's first chart draws the table's noise reduction (%) at each n, over its zero line, on every space
    (the sphere, the page's default, had no chart at all); n is on a log axis while the page's log setting is on."""
    at = run_page(PAGE, {utility.SECTION_KEY: REDUCTION, **address})
    assert not messages(at)
    chart = charts.live_args(at)[0]
    assert chart["key"] == "chart-reduction"
    spec = specs(at)[0]
    table = at.table[0].value
    (trace,) = spec["data"]
    assert list(charts.values(trace["x"])) == list(table["n"])
    assert charts.values(trace["y"]) == pytest.approx(table["noise reduction (%)"].to_numpy())
    assert [shape["y0"] for shape in spec["layout"]["shapes"]] == [0]
    assert charts.axis_setting(spec, "xaxis", "type") == ("linear" if address.get("log") == "false" else "log")
    assert at.download_button(key="dl-html-utility-noise-reduction")
    assert at.download_button(key="dl-csv-utility-noise-reduction")


def test_noise_reduction_tab_without_a_reduction_says_why_instead_of_a_chart(monkeypatch):
    """A table whose every reduction is NaN (one mechanism has no release at any n) draws no chart of zeros."""
    tabulate = utility_study.reduction_table
    monkeypatch.setattr(utility_study, "reduction_table",
                        lambda summary: tabulate(summary).assign(**{"noise reduction (%)": np.nan}))
    at = run_page(PAGE, {utility.SECTION_KEY: REDUCTION})
    assert "chart-reduction" not in charts.live_keys(at) and not specs(at)
    assert any("No noise reduction to draw" in text for text in messages(at, "info")), messages(at, "info")
    assert at.download_button(key="dl-csv-utility-noise-reduction")


def test_planner_euclidean_constant_is_at_least_the_noise_alone():
    """The ε-DP baseline releases the ambient mean b + noise N; E‖b + N‖ >= E‖N‖ = c_E/(nε) because N is
    symmetric (triangle inequality on ±N), so the fitted constant cannot fall below the exact noise constant."""
    at = run_page(PAGE, {utility.SECTION_KEY: PLANNER})
    assert len(specs(at)) == CHARTS[PLANNER]
    planner = at.table[0].value.set_index("mechanism")
    exact = utility_study.euclidean_constant("sphere", np.pi / 8)
    assert planner.loc["Euclidean Laplace", "fitted c"] >= 0.95 * exact
    assert "Paper's Euclidean baseline (not ε-DP)" not in planner.index


def test_paper_baseline_is_drawn_only_on_request_with_its_true_epsilon():
    """The paper's baseline appears only when asked for, labelled not ε-DP, with the measured ε."""
    plain = run_page(PAGE, {"space": "spd", "reps": "20"})
    assert not any("not ε-DP" in w.value for w in plain.warning)
    at = run_page(PAGE, {"space": "spd", "reps": "20", "paper": "true"})
    warning = next(w.value for w in at.warning if "paper's baseline" in w.value)
    assert "true ε is 1.67 for a claimed 1" in warning
    assert "Both are ε-differentially private" not in " ".join(m.value for m in at.markdown)


def test_defaults_write_their_settings_into_the_url(defaults):
    assert defaults.query_params["space"] == "sphere"
    assert defaults.query_params["ngrid"] == "quick"
    assert defaults.query_params["eps"] == "1.0"


@pytest.mark.parametrize("label", utility.SECTIONS)
def test_every_control_rerenders(label):
    """Every control, walked on each tab (the tab itself comes from the address, as a click sets it)."""
    at = run_page(PAGE, {"reps": "20", utility.SECTION_KEY: label})
    steps = [
        lambda: at.slider(key="reps").set_value(30),
        lambda: at.slider(key="r_sphere").set_value(0.5),
        lambda: at.selectbox(key="sconst").select("empirical"),
        lambda: at.slider(key="eps").set_value(0.5),
        lambda: at.slider(key="n").set_value(100),
        lambda: at.number_input(key="seed").set_value(1),
        lambda: at.toggle(key="log").set_value(False),
        lambda: at.slider(key="target").set_value(0.2),
        lambda: at.selectbox(key="solve").select("n"),
        lambda: at.selectbox(key="ngrid").select("paper"),
        lambda: at.selectbox(key="ngrid").select("quick"),  # keeps the SPD steps below quick
        lambda: at.selectbox(key="space").select("spd"),
        lambda: at.slider(key="r_spd").set_value(1.0),
    ]
    for step in steps:
        step().run()
        assert_clean(at)
        assert len(specs(at)) >= CHARTS[label]
    assert len(specs(at)) == CHARTS[label] + (label == REDUCTION)  # SPD: the non-PD share
    assert at.query_params["solve"] == "n"
    assert at.query_params["target"] == "0.2"
    assert at.query_params["r_spd"] == "1.0"


@pytest.mark.parametrize(("params", "expected"), [
    ({"eps": "-1"}, "eps"),
    ({"space": "nonsense"}, "space"),
    ({"space": "spd", "r_spd": "0.1", "reps": "20"}, "r_spd"),
    ({"ngrid": "huge"}, "ngrid"),
    ({"preset": "nonsense"}, "preset"),
    ({"r_sphere": "1.0"}, "must lie in [0.05, 0.78]"),
    ({"space": "spd", "eps": "0.05", "reps": "20"}, "not normalisable"),
    ({utility.SECTION_KEY: "Nowhere"}, "Nowhere"),
])
def test_invalid_addresses_show_a_reason_instead_of_failing(params, expected):
    at = run_page(PAGE, params)
    assert_explained(at, expected)
    if expected is None:
        assert len(specs(at)) == CHARTS[CURVES]


def test_query_params_round_trip():
    params = {"space": "spd", "r_spd": "2.0", "ngrid": "quick", "eps": "2.0", "n": "80", "reps": "30",
              "seed": "5", "log": "false", "target": "0.1", "solve": "n", utility.SECTION_KEY: PLANNER}
    at = run_page(PAGE, params)
    assert not messages(at)
    assert at.selectbox(key="space").value == "spd"
    assert at.slider(key="r_spd").value == pytest.approx(2.0)
    assert at.slider(key="eps").value == pytest.approx(2.0)
    assert at.slider(key="n").value == 80
    assert at.selectbox(key="solve").value == "n"
    assert {key: at.query_params[key] for key in params} == params


def test_preset_holds_the_figure1_settings():
    preset = utility.PRESETS["reimherr-fig1"]
    assert utility.N_GRIDS[preset["ngrid"]] == tuple(figure1_setting.DEFAULT_NS)
    assert utility.N_GRIDS[preset["ngrid"]][0] == 10 and utility.N_GRIDS[preset["ngrid"]][-1] == 300
    assert preset["eps"] == 1.0 and preset["r_spd"] == 1.5 and preset["r_sphere"] == pytest.approx(np.pi / 8)
    assert preset["sconst"] == "empirical" and preset["reps"] == 200


def test_preset_in_the_address_opens_figure1():
    # an explicit value wins over the preset
    at = run_page(PAGE, {"preset": "reimherr-fig1", "reps": "20", utility.SECTION_KEY: REDUCTION})
    assert at.selectbox(key="space").value == "spd"
    assert at.slider(key="r_spd").value == pytest.approx(1.5)
    assert at.selectbox(key="ngrid").value == "paper"
    assert at.slider(key="eps").value == pytest.approx(1.0)
    assert at.slider(key="reps").value == 20
    assert "preset" not in at.query_params and at.query_params["ngrid"] == "paper"
    assert any("Figure 1" in text for text in messages(at, "info"))
    assert list(at.table[0].value["n"]) == list(figure1_setting.DEFAULT_NS)
    at.selectbox(key="space").select("sphere").run()
    assert_clean(at)
    assert at.slider(key="r_sphere").value == pytest.approx(np.pi / 8)
    assert at.selectbox(key="sconst").value == "empirical"


def test_sphere_preset_note_speaks_of_the_sphere():
    """The note of the sphere preset used to describe SPD(2) with r = 1.5."""
    at = run_page(PAGE, {"preset": "reimherr-fig1", "space": "sphere", "reps": "20", "ngrid": "quick",
                         utility.SECTION_KEY: REDUCTION})
    note = next(text for text in messages(at, "info") if "Figure 1" in text)
    assert note.index("S²") < note.index("SPD(2)")
    assert "S² with r = π/8" in note


def test_default_calibration_is_theorem2s_proven_constant(defaults):
    """The page prints a guarantee, so its default C is Theorem 2's 2r(2 − h)/h, not the
    supplement's numerical boundary constant (1.03 at r = π/8)."""
    r = np.pi / 8
    h = np.pi / 4  # 2r·cot(2r) at r = π/8
    assert defaults.selectbox(key="sconst").value == "theorem"
    assert any(f"C = {2 * r * (2 - h) / h:.4f}" in formula.value for formula in defaults.latex)


def _hand_geodesic_errors(n: int, reps: int, seed: int, epsilon: float) -> dict:
    """Mean geodesic error per mechanism on S², r = π/8, recomputed from the simulation's own draws:
    the page's data and noise streams, arccos⟨x̄, x/‖x‖⟩ per release."""
    r = np.pi / 8
    setting = figure1_setting.SpaceSetting("sphere", Sphere(2), r)
    frechet, ambient = utility_study.sample_means("sphere", r, n, reps, seed)
    rng = np.random.default_rng([seed, n, round(epsilon * 1e6)])
    sigmas = {"exact": figure1_setting.sensitivity_constant(setting, "theorem") / (n * epsilon),
              "euclid": 2 * 2 * np.sin(r / 2) / (n * epsilon)}
    errors = {}
    for mechanism, sigma in sigmas.items():
        release, _, _ = figure1_setting.release_errors(setting, frechet, mechanism, sigma, rng, ambient_means=ambient)
        unit = release / np.linalg.norm(release, axis=-1, keepdims=True)
        errors[utility_study.LABELS[mechanism]] = np.arccos(np.clip((unit * frechet).sum(-1), -1, 1)).mean()
    return errors


def test_who_wins_sentence_names_the_winner_the_simulation_shows(defaults):
    """At the defaults (n = 50, ε = 1, 200 data sets) the sentence's geodesic errors are those of
    the simulated releases, and it names the smaller; the page once said the reverse (noise reduction 23–72%)."""
    sentence = who_wins_sentence(defaults)
    errors = _hand_geodesic_errors(50, 200, 0, 1.0)
    winner = min(errors, key=errors.get)
    assert who_wins_winner(sentence) == winner == "Euclidean Laplace"
    assert f"{errors['Euclidean Laplace']:.3g} against {errors['Riemannian Laplace']:.3g}" in sentence
    assert "paper's numerical boundary constant" not in sentence


def test_figure1_preset_keeps_the_proven_verdict_and_says_what_the_papers_constant_changes():
    at = run_page(PAGE, {"preset": "reimherr-fig1", "space": "sphere", "ngrid": "quick", utility.SECTION_KEY: REDUCTION})
    assert at.selectbox(key="sconst").value == "empirical"
    sentence = who_wins_sentence(at)
    errors = _hand_geodesic_errors(50, 200, 0, 1.0)
    assert who_wins_winner(sentence) == min(errors, key=errors.get)
    assert "The paper's numerical boundary constant (C = 1.03, not a proven bound)" in sentence


def test_the_utility_page_says_its_errors_average_data_sets():
    """The Utility page did not say that its errors average data sets (one release each), unlike the
    playground's releases of one data set. The sentence and the error chart's caption say it, from the run's reps."""
    at = run_page(PAGE, {"reps": "60"})
    sentence = who_wins_sentence(at)
    assert "These errors average 60 simulated data sets, one release each" in sentence
    assert "the playground averages releases of one data set" in sentence
    assert re.search(r"differ by the noise of their draws \(standard errors 0\.00\d+ and 0\.00\d+ here\)", sentence)
    assert [c.value for c in at.caption if c.value.startswith("Each point averages 60 simulated data sets")]


def test_the_radius_slider_stops_below_theorem_twos_limit():
    """The sphere's r slider reached 1.5, past r* = π/4, where the page can only say that no
    constant calibrates the noise. It stops on its grid below r*; SPD (κ ≤ 0, no limit) keeps the full range."""
    at = run_page(PAGE)
    assert np.pi / 4 - 0.01 <= at.slider(key="r_sphere").max < np.pi / 4
    assert run_page(PAGE, {"space": "spd"}).slider(key="r_spd").max == 3.0


def test_a_spec_added_to_the_page_is_simulated_on_request_where_it_is_supported(monkeypatch):
    """The Riemannian Gaussian joins the error curves through its spec (``utility=True``): a switch on the sphere
    and on SPD(2) (exact μ there since the R × H² split), none on a space its guarantee does not cover. Its σ is the Euclidean analytic Gaussian's here (its exact
    μ costs about a second per (n, ε); ``tests/engine/pipelines/test_utility_added.py`` checks the page's pipeline with it)."""
    fast = dataclasses.replace(mechanism_specs.RGAUSS, scale=lambda manifold, *, epsilon, sensitivity, delta:
                               analytic_gaussian_sigma(epsilon, delta, sensitivity))
    monkeypatch.setitem(mechanism_specs.SPECS, "rgauss", fast)
    at = run_page(PAGE, {"reps": "20", "add_rgauss": "true", utility.SECTION_KEY: CURVES})
    assert not messages(at)
    names = {trace.get("name") for trace in specs(at)[0]["data"]}
    assert {"Riemannian Laplace", "Euclidean Laplace", "Riemannian Gaussian"} <= names
    assert at.query_params["add_rgauss"] == "true"
    spd = run_page(PAGE, {"space": "spd", "reps": "20"})
    assert any(toggle.key == "add_rgauss" for toggle in spd.toggle)
    monkeypatch.setitem(mechanism_specs.SPECS, "rgauss", dataclasses.replace(fast, supports=lambda m: False))
    spd = run_page(PAGE, {"space": "spd", "reps": "20"})
    assert not any(toggle.key == "add_rgauss" for toggle in spd.toggle)
