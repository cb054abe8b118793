"""Private subspaces page (AppTest): defaults, every method, a line, the n the guarantee needs, noise
that breaks the exact case, an invalid address, the Home preset, and the d-sweep.

The sweep runs on two small dimensions here (patched); ``test_the_real_sweep_shows_d_independence``
runs the page's own sweep once (slow).
"""

import base64
import json

import numpy as np
import pytest

from tests.app.charts import specs
from tests.app.conftest import ROOT, assert_clean, messages, run_page
from ui.subspaces import views

PAGE = ROOT / "pages" / "7_Private_subspaces.py"


@pytest.fixture(scope="module", autouse=True)
def small_sweep(tmp_path_factory):
    """A sweep over d = 10, 20 and n = 100, 1600 with the disk cache in a temporary folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(views, "SWEEP_DIMENSIONS", (10, 20))
        patch.setattr(views, "SWEEP_SIZES", (100, 1600))
        patch.setenv("MPE_CACHE_DIR", str(tmp_path_factory.mktemp("study-cache")))
        yield


@pytest.fixture(scope="module")
def defaults():
    return run_page(PAGE)


def spec(at, index: int) -> dict:
    return specs(at)[index]


def numbers(array) -> list:
    """A plotly JSON array as a list (plotly writes numpy arrays as base64 ``bdata``)."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"])).tolist()
    return list(array)


def metrics(at) -> dict:
    return {metric.label: metric.value for metric in at.metric}


def test_defaults_recover_the_plane_exactly(defaults):
    assert metrics(defaults)["⊥ rate"] == "0%" and metrics(defaults)["Success"] == "100%"
    assert float(metrics(defaults)["Error"]) < 1e-8
    assert not messages(defaults)
    figure = spec(defaults, 0)
    kinds = [trace["type"] for trace in figure["data"]]
    assert kinds[0] == "scatter3d" and kinds.count("mesh3d") == 2  # the truth and the one release (all identical)
    assert any("1 distinct subspace among the 50 private releases" in c.value for c in defaults.caption)
    assert {trace.get("name") for trace in figure["data"]} >= {"data", "true subspace U (not private)", "private releases"}
    assert any("needs n ≥ 59" in caption.value for caption in defaults.caption)
    assert any("Singhal-Steinke exact subspace" in text.value for text in defaults.text)
    angles = defaults.table[0].value
    assert list(angles.columns) == ["release", "θ1", "θ2", "‖Π̂ − Π‖"] and len(angles) == 5
    assert defaults.query_params["method"] == "exact" and defaults.query_params["shape"] == "plane"


def test_the_exact_release_says_why_epsilon_leaves_the_figure_unchanged(defaults):
    """The exact algorithm releases U itself at every ε its n allows: the page says so (a teacher moving ε
    sees the same figure), and only where it holds."""
    why = "so the figure stays the same as ε changes"
    assert any(why in caption.value for caption in defaults.caption)
    at = run_page(PAGE, {"eps": "2"})
    assert spec(at, 0)["data"] == spec(defaults, 0)["data"]
    assert any(why in caption.value for caption in at.caption)
    for params in ({"noise": "0.01"}, {"method": "analyze-gauss", "n": "500"}):
        assert not any(why in caption.value for caption in run_page(PAGE, params).caption), params


def test_the_sweep_chart_and_explanation(defaults):
    sweep = spec(defaults, 1)
    names = [trace["name"] for trace in sweep["data"]]
    assert len(names) == 3 * 2 and "SS exact, d = 10" in names and "Analyze Gauss, d = 20" in names
    assert sweep["layout"]["xaxis"]["title"]["text"] == "sample size n"
    exact = {trace["name"]: numbers(trace["y"]) for trace in sweep["data"] if trace["name"].startswith("SS exact")}
    assert exact["SS exact, d = 10"] == exact["SS exact, d = 20"] == [1.0, 1.0]
    assert any("Why the dimension drops out" in md.value for md in defaults.markdown)


def test_a_rerun_shows_the_cached_figure_without_building_it(monkeypatch):
    # The 3D scene took 17-32 ms to build on every rerun, before the chart could be sent.
    at = run_page(PAGE)
    monkeypatch.setattr("ui.subspaces.compute.private_subspace_figure",
                        lambda result: pytest.fail("the figure was built again"))
    at.run()
    assert_clean(at)
    assert specs(at)[0]["data"]


def test_n_below_the_guarantee_says_what_n_is_needed():
    at = run_page(PAGE, {"n": "50"})
    errors = messages(at, "error")
    assert len(errors) == 1 and "n = 50 is too small" in errors[0] and "needs n >= 59" in errors[0]
    assert not specs(at)


def test_outliers_raise_the_n_needed_and_are_drawn():
    at = run_page(PAGE, {"outliers": "5", "n": "200"})
    assert metrics(at)["Success"] == "100%"
    assert any("needs n ≥ 74" in caption.value for caption in at.caption)
    assert "outliers" in [trace.get("name") for trace in spec(at, 0)["data"]]


def test_noise_breaks_the_exact_case_and_the_page_says_why():
    at = run_page(PAGE, {"noise": "0.01"})
    assert metrics(at)["⊥ rate"] == "100%"
    assert any("needs the points to lie exactly in U" in info for info in messages(at, "info"))
    assert all(value == "⊥" for value in at.table[0].value["θ1"])


def test_points_only_near_the_plane_are_refused_with_one_error():
    """At noise 1e-8 the exact method still finds U, but its δ term would exceed δ/20: st.error, no traceback."""
    at = run_page(PAGE, {"noise": "1e-08"})
    errors = messages(at, "error")
    assert not at.exception and len(errors) == 1
    assert "Cannot release the subspace" in errors[0] and "> delta/20 = 5e-08" in errors[0]
    assert not specs(at)


@pytest.mark.parametrize("method, guarantee", [("analyze-gauss", "Analyze Gauss"), ("bingham", "Bingham")])
def test_baselines_on_a_line(method, guarantee):
    at = run_page(PAGE, {"shape": "line", "method": method, "n": "500"})
    assert metrics(at)["⊥ rate"] == "0%"
    lines = [trace for trace in spec(at, 0)["data"] if trace.get("mode") == "lines"]
    assert len(lines) == 1 + 8 and not [t for t in spec(at, 0)["data"] if t["type"] == "mesh3d"]
    assert list(at.table[0].value.columns) == ["release", "θ1", "‖Π̂ − Π‖"]
    assert any(guarantee in text.value for text in at.text)


def test_approximate_case_needs_thousands_of_points():
    at = run_page(PAGE, {"method": "approx", "n": "1000"})
    assert "needs m = 33 blocks" in messages(at, "error")[0] and "n >= 1320" in messages(at, "error")[0]
    at = run_page(PAGE, {"method": "approx", "n": "2000", "noise": "1e-06"})
    assert int(metrics(at)["Success"][:-1]) >= 90 and any("needs n ≥ 1,320" in c.value for c in at.caption)
    at = run_page(PAGE, {"method": "approx", "n": "2000", "noise": "0.0001"})
    assert metrics(at)["Success"] == "0%"
    assert any("grid cells are" in info and "lower the noise" in info for info in messages(at, "info"))


def test_non_private_pca_has_no_guarantee():
    at = run_page(PAGE, {"method": "non-private"})
    assert any("no privacy guarantee" in warning for warning in messages(at, "warning"))


def test_switching_the_method_in_the_sidebar(defaults):
    at = defaults.selectbox(key="method").set_value("analyze-gauss").run()
    assert_clean(at)
    assert at.query_params["method"] == "analyze-gauss"
    assert any("Analyze Gauss" in text.value for text in at.text)


def test_invalid_address_falls_back_with_a_warning():
    at = run_page(PAGE, {"method": "<b>pca</b>", "n": "7"})
    warnings = messages(at, "warning")
    assert any("method=" in w and "'<b>pca</b>'" in w for w in warnings)
    assert any("n=" in w and "'7'" in w for w in warnings)
    assert at.selectbox(key="method").value == "exact" and metrics(at)["Success"] == "100%"


def test_home_preset_opens_with_its_settings():
    from urllib.parse import parse_qsl

    from tests.app.conftest import HOME

    home = run_page(HOME)
    links = [element.proto.query_string for element in home.main.get("page_link")
             if element.proto.page == "Private_subspaces" and element.proto.query_string]
    assert len(links) == 1
    params = dict(parse_qsl(links[0]))
    at = run_page(PAGE, params)
    assert not messages(at)
    assert {key: at.query_params[key] for key in params if key != "preset"} == \
        {key: value for key, value in params.items() if key != "preset"}
    assert metrics(at)["Success"] == "100%" and "outliers" in [t.get("name") for t in spec(at, 0)["data"]]


def test_the_sweep_settings_download_is_a_runnable_study():
    """The JSON under the sweep names the study and holds valid Config for the command line."""
    from engine.experiments import singhal_steinke_dimension
    from engine.experiments.protocol import make_config
    from ui.subspaces.compute import SWEEP_REPS, sweep_config

    settings = views.sweep_settings(2, 0.5, 1e-5, 3)
    params = make_config(singhal_steinke_dimension.Config, json.loads(json.dumps(settings)))
    assert params.dimensions == views.SWEEP_DIMENSIONS and params.sample_sizes == views.SWEEP_SIZES
    assert params.reps == SWEEP_REPS and (params.epsilon, params.delta, params.seed) == (0.5, 1e-5, 3)
    cell = sweep_config(2, 0.5, 1e-5, 3, 20, 1600)
    assert [task.key for task in singhal_steinke_dimension.tasks(cell)] == [
        task.key for task in singhal_steinke_dimension.tasks(params) if task.key[:2] == (20, 1600)]
