"""Private optimization page: defaults, every control and application, invalid addresses, the URL round
trip and the Han et al. presets (AppTest); the accountant's ε(t) curve against ``engine.accounting``."""


import numpy as np
import pytest

from engine.experiments import dp_rgd_frechet, dp_rgd_hyperbolic
from engine.pipelines import private_optimization
from tests.app import charts
from tests.app.conftest import ROOT, assert_clean, assert_explained, choose_section, messages, run_page, section_labels
from ui.optimization import apps as cfg
from ui.optimization import compute as opt_compute
from ui.optimization.controls import Settings

PAGE = ROOT / "pages" / "5_Private_optimization.py"
#: Fewer repeats and a shorter MH burn-in keep the walks through the controls quick.
FAST = {"reps": "2", "burn": "100"}


CONVERGENCE, ACCOUNTING, MANIFOLD, STUDY = cfg.SECTIONS
#: Charts drawn by each tab: loss and gradient norm; the accountant; the manifold view; the study
#: (train and test RMSE for matrix completion, which has no picture of Gr(30, 5)).
CHARTS = {CONVERGENCE: 2, ACCOUNTING: 1, MANIFOLD: 1, STUDY: 1}
LRMC_CHARTS = {**CHARTS, MANIFOLD: 0, STUDY: 2}


def chart_names(at, index: int = 0) -> set:
    return {trace.get("name") for trace in charts.specs(at)[index]["data"]}


def assert_charts(at, count: int = CHARTS[CONVERGENCE]) -> None:
    assert_clean(at)
    assert len(charts.specs(at)) == count


@pytest.fixture(scope="module")
def defaults():
    return run_page(PAGE)


def test_defaults_render_the_convergence_tab_without_messages(defaults):
    assert_charts(defaults)
    assert not messages(defaults)
    assert section_labels(defaults) == list(cfg.SECTIONS)
    assert {"DP-RGD", "Non-private"} <= chart_names(defaults, 0)
    assert [e.label for e in defaults.expander] == ["Reproduce this view", "Privacy guarantee of this run"]


@pytest.mark.parametrize(("label", "expected"), [
    (ACCOUNTING, "Calibrated σ (RDP accountant) (this run)"),
    (MANIFOLD, "Minimiser W* (exact, not private)"),
    (STUDY, "K-norm gradient (MH)"),
])
def test_each_tab_draws_only_its_own_chart(label, expected):
    at = run_page(PAGE, {**FAST, cfg.SECTION_KEY: label})
    assert_charts(at, CHARTS[label])
    assert not messages(at)
    assert expected in chart_names(at)
    assert at.query_params[cfg.SECTION_KEY] == label


def test_defaults_spend_exactly_epsilon_and_show_the_paper_rule(defaults):
    metrics = {metric.label: metric.value for metric in defaults.metric}
    assert float(metrics["ε spent (accountant)"]) == pytest.approx(1.0)
    assert metrics["Iterations T"] == "100"  # T = n, the paper's rule
    at = run_page(PAGE, {cfg.SECTION_KEY: ACCOUNTING})
    latex = " ".join(element.value for element in at.latex)
    assert r"c_{\text{needed}}" in latex and r"\sigma_{\text{rule}}" in latex


def test_defaults_write_their_settings_into_the_url(defaults):
    assert defaults.query_params["app"] == "frechet"
    assert defaults.query_params["eps"] == "1.0"
    assert defaults.query_params["delta"] == "0.001"
    assert defaults.query_params["noise"] == "calibrated"
    assert defaults.query_params["Trule"] == "true"


def test_every_control_of_the_frechet_mean_rerenders():
    at = run_page(PAGE, FAST)
    steps = [
        lambda: at.slider(key="n_frechet").set_value(60),
        lambda: at.select_slider(key="eps").set_value(0.5),
        lambda: at.select_slider(key="delta").set_value(1e-5),
        lambda: at.selectbox(key="noise").select("paper"),
        lambda: at.toggle(key="Trule").set_value(False),
        lambda: at.slider(key="T_frechet").set_value(30),
        lambda: at.number_input(key="b_frechet").set_value(30),  # DP-RSGD, q = 1/2: a quick calibration
        lambda: at.slider(key="eta_frechet").set_value(0.1),
        lambda: at.slider(key="reps").set_value(3),
        lambda: at.number_input(key="seed").set_value(1),
        lambda: at.slider(key="burn").set_value(200),
    ]
    for step in steps:
        step().run()
        assert_charts(at)
    assert not messages(at)
    metrics = {metric.label: metric.value for metric in at.metric}
    assert metrics["Batch"] == "b = 30" and metrics["Iterations T"] == "30"
    choose_section(at, ACCOUNTING)
    assert_charts(at, CHARTS[ACCOUNTING])
    assert any(name.startswith("Paper's rule") and name.endswith("(this run)") for name in chart_names(at) if name)
    assert at.query_params["b_frechet"] == "30" and at.query_params["T_frechet"] == "30"
    assert at.query_params["delta"] == "1e-05" and at.query_params["noise"] == "paper"


@pytest.mark.parametrize("label", [MANIFOLD, STUDY])
def test_every_application_rerenders(label):
    """Every control of every application, walked on the manifold tab and on the study tab."""
    at = run_page(PAGE, {**FAST, "n_barycenter": "40", cfg.SECTION_KEY: label})
    at.selectbox(key="app").select("barycenter").run()
    assert_charts(at, CHARTS[label])
    at.slider(key="n_barycenter").set_value(60).run()
    assert_charts(at, CHARTS[label])
    at.selectbox(key="app").select("eigenvector").run()
    assert_charts(at, CHARTS[label])
    assert any("public radius R = √(d/n)" in text for text in messages(at, "info"))
    if label == MANIFOLD:
        assert "Top eigenvector u₁ (exact, not private)" in chart_names(at)
    else:
        assert {"DP-PGD (ambient noise)", "Analyze Gauss (noisy covariance)"} <= chart_names(at)
    for step in (lambda: at.slider(key="n_eigenvector").set_value(5_000),
                 lambda: at.selectbox(key="data").select("wine"),
                 lambda: at.slider(key="eta_eigenvector").set_value(0.5),
                 lambda: at.selectbox(key="grid").select("full")):
        step().run()
        assert_charts(at, CHARTS[label])
    at.selectbox(key="app").select("hyperbolic").run()
    assert_charts(at, CHARTS[label])
    if label == MANIFOLD:
        assert "Truth: the held-out leaf (not private)" in chart_names(at)
    for step in (lambda: at.slider(key="height").set_value(4),
                 lambda: at.slider(key="eta_hyperbolic").set_value(0.002),
                 lambda: at.selectbox(key="grid").select("quick"),
                 lambda: at.number_input(key="b_hyperbolic").set_value(20)):
        step().run()
        assert_charts(at, CHARTS[label])
    assert at.query_params["app"] == "hyperbolic" and at.query_params["height"] == "4"


@pytest.mark.parametrize("label", cfg.SECTIONS)
def test_matrix_completion_tabs_render(label):
    at = run_page(PAGE, {**FAST, "app": "lrmc", "n_lrmc": "200", "b_lrmc": "100", "T_lrmc": "40", cfg.SECTION_KEY: label})
    assert_charts(at, LRMC_CHARTS[label])
    if label == MANIFOLD:
        assert any("no faithful picture" in element.value for element in at.markdown)


def test_matrix_completion_rerenders():
    at = run_page(PAGE, {**FAST, "app": "lrmc", "n_lrmc": "200", "b_lrmc": "100", "T_lrmc": "40", cfg.SECTION_KEY: STUDY})
    assert_charts(at, LRMC_CHARTS[STUDY])
    assert any("RMSE" in (figure.get("layout", {}).get("yaxis", {}).get("title", {}).get("text") or "")
               for figure in charts.specs(at))
    for step in (lambda: at.slider(key="T_lrmc").set_value(60),
                 lambda: at.number_input(key="b_lrmc").set_value(0),
                 lambda: at.slider(key="n_lrmc").set_value(300),
                 lambda: at.slider(key="eta_lrmc").set_value(0.1)):
        step().run()
        assert_charts(at, LRMC_CHARTS[STUDY])


@pytest.mark.parametrize(("params", "expected"), [
    ({"eps": "-1"}, "eps"),
    ({"app": "nonsense"}, "app"),
    ({"delta": "2"}, "delta"),
    ({"delta": "0"}, "delta"),
    ({"b_frechet": "-5"}, "b_frechet"),
    ({"b_frechet": "500"}, "exceeds n = 100"),
    ({"Trule": "false", "T_frechet": "0"}, "T_frechet"),
    ({"noise": "loud"}, "noise"),
    ({"preset": "nonsense"}, "preset"),
    ({cfg.SECTION_KEY: "Nowhere"}, "Nowhere"),
])
def test_invalid_addresses_show_a_reason_instead_of_failing(params, expected):
    at = run_page(PAGE, params)
    assert_explained(at, expected)
    assert_charts(at)


def test_query_params_round_trip():
    params = {"app": "hyperbolic", "height": "4", "eps": "0.5", "delta": "1e-05", "noise": "paper", "Trule": "false",
              "T_hyperbolic": "30", "b_hyperbolic": "0", "eta_hyperbolic": "0.002", "reps": "3", "seed": "5",
              "grid": "quick", cfg.SECTION_KEY: STUDY}
    at = run_page(PAGE, params)
    assert not messages(at)
    assert at.selectbox(key="app").value == "hyperbolic"
    assert at.select_slider(key="eps").value == pytest.approx(0.5)
    assert at.select_slider(key="delta").value == pytest.approx(1e-5)
    assert at.slider(key="T_hyperbolic").value == 30
    assert at.slider(key="eta_hyperbolic").value == pytest.approx(0.002)
    assert {key: at.query_params[key] for key in params} == params


def test_presets_hold_the_papers_settings():
    frechet = cfg.PRESETS["han-frechet-mean"]
    assert cfg.APPS["frechet"].grids[frechet["grid"]][1] == tuple(dp_rgd_frechet.NS)
    assert frechet["eps"] == 0.1 and frechet["delta"] == 1e-3 and frechet["eta_frechet"] == 0.01
    assert frechet["reps"] == 20 and frechet["noise"] == "paper" and frechet["Trule"] is True
    assert all(spec.preset is None or spec.preset in cfg.PRESETS for spec in cfg.APPS.values())
    for name, preset in cfg.PRESETS.items():
        assert cfg.APPS[preset["app"]].preset == name


def test_preset_in_the_address_opens_the_frechet_mean_study():
    at = run_page(PAGE, {"preset": "han-frechet-mean", "grid": "quick", "reps": "3", "burn": "100"})
    assert_charts(at)  # explicit values win over the preset: a quick check of the full settings
    assert at.selectbox(key="app").value == "frechet"
    assert at.select_slider(key="eps").value == pytest.approx(0.1)
    assert at.selectbox(key="noise").value == "paper"
    assert at.slider(key="eta_frechet").value == pytest.approx(0.01)
    assert at.toggle(key="Trule").value is True
    assert at.slider(key="reps").value == 3 and at.selectbox(key="grid").value == "quick"
    assert "preset" not in at.query_params and at.query_params["eps"] == "0.1"
    assert any("§6.1" in text for text in messages(at, "info"))
    metrics = {metric.label: metric.value for metric in at.metric}
    assert float(metrics["ε spent (accountant)"]) > 0.1  # the paper's rule with c = 1 overspends


def test_sphere_view_keeps_the_angle_to_the_top_eigenvector():
    rng = np.random.default_rng(0)
    basis = np.linalg.qr(rng.standard_normal((6, 3)))[0]
    w = rng.standard_normal((4, 6))
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    points = private_optimization.sphere_coordinates(w, basis)
    np.testing.assert_allclose(np.linalg.norm(points, axis=1), 1.0)
    np.testing.assert_allclose(points[:, 0], np.abs(w @ basis[:, 0]))
    np.testing.assert_allclose(private_optimization.sphere_coordinates(-w, basis), points)


def test_hyperbolic_problem_is_the_studys():
    setup = private_optimization.problem(app="hyperbolic", data="balanced", size=4, seed=0)
    points = dp_rgd_hyperbolic.run(reps=2, height=4, nonprivate_iterations=1)["points"]
    lorentz = {role: rows[["x0", "x1", "x2"]].to_numpy() for role, rows in points.groupby("role")}
    np.testing.assert_allclose(setup.view["truth"], lorentz["truth"][0])
    np.testing.assert_allclose(setup.optimum, lorentz["non-private"][0], atol=1e-8)


@pytest.mark.slow
def test_hyperbolic_taxonomy_choice_renders_or_explains():
    """WordNet's 1,182 nouns make the ε sweep take tens of seconds: a longer timeout."""
    from engine.data import wordnet_available

    at = run_page(PAGE, {"app": "hyperbolic", "reps": "2", "grid": "quick"})
    at.selectbox(key="taxonomy").select("wordnet-mammal").run(timeout=240)
    assert_clean(at)
    if not wordnet_available()[0]:
        assert any("wordnet-base" in text for text in messages(at, "error"))
    else:
        assert charts.specs(at)


def test_eigenvector_clipping_norm_is_the_public_bound():
    """L0 = 2R² with the public R = √(d/n) (d = 50), printed as an assumption."""
    at = run_page(PAGE, {**FAST, "app": "eigenvector", "n_eigenvector": "2000", cfg.SECTION_KEY: ACCOUNTING})
    metrics = {metric.label: metric.value for metric in at.metric}
    assert metrics["Clipping norm L0"] == f"{2 * 50 / 2000:.4g}"
    note = [text for text in messages(at, "info") if "public radius" in text]
    assert note and f"{(50 / 2000) ** 0.5:.4g}" in note[0]


def test_default_picture_shows_both_runs_descend_and_the_privacy_floor(defaults):
    """Started next to the optimum, DP-RGD's excess loss rose from 0.002 to 0.004
    while the noiseless one fell: the first picture looked like failure."""
    spec = charts.specs(defaults)[0]
    _, private = charts.line(spec, "DP-RGD")
    _, plain = charts.line(spec, "Non-private")
    assert private[-1] < private[0] / 10  # DP-RGD descends ...
    assert plain[-1] < private[-1]  # ... to a floor above the noiseless run's: the cost of privacy
    caption = " ".join(c.value for c in defaults.main.caption)
    assert "floor" in caption and "outside the data ball" in caption


class _Bar:
    """Stands in for ``st.progress`` (``st.progress(value, text)`` returns the bar itself): records the
    text of every update, and None when the bar is removed."""

    def __init__(self):
        self.texts = []

    def __call__(self, value, text=None):
        return self.progress(value, text)

    def progress(self, value, text=None):
        self.texts.append(text)
        return self

    def empty(self):
        self.texts.append(None)


def test_the_run_reports_calibration_and_each_block_of_repeats(monkeypatch):
    """At ε = 0.002 with 50 repeats the bar stayed on one text for the whole run.
    Now the sampled-batch calibration and every block of 10 repeats say what they do."""
    bar = _Bar()
    monkeypatch.setattr(opt_compute.st, "progress", bar)
    settings = Settings(app="frechet", data="synthetic", size=40, eps=1.0, delta=1e-3, noise="calibrated", steps=20,
                        batch=20, eta=0.05, reps=23, seed=0, grid=None, burn=200)
    computed = opt_compute.run(settings)
    texts = bar.texts
    assert computed.run.outputs["dp-rgd"].shape == (23, 2, 2)
    assert any(text and text.startswith("Calibrating σ for batches of b = 20 of n = 40") for text in texts)
    blocks = [text for text in texts if text and text.startswith("Running DP-RSGD (b = 20)")]
    assert [text.split("repeats ")[1] for text in blocks] == ["1–10 of 23 …", "11–20 of 23 …", "21–23 of 23 …"]
    assert texts[-1] is None  # the bar is gone once the charts can draw


def test_tiny_epsilon_explains_why_the_spd_run_stops():
    """At ε = 0.002 with 50 repeats the noise (σ ≈ 62 per step) carries the SPD iterates off
    the cone; the page said "x has a point off SPD(2, affine)" from inside the exponential map."""
    at = run_page(PAGE, {"eps": "0.002", "reps": "50"})
    errors = messages(at, "error")
    assert len(errors) == 1 and "iterates left SPD(2, affine)" in errors[0]
    assert "raise epsilon, or lower step_size or steps" in errors[0]
