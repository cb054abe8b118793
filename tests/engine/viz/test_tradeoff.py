"""The trade-off figure (engine.viz.tradeoff): band, measured curve and claim drawn from the curve's own
numbers, and the α where the band lies below the claim marked."""

import numpy as np

from engine.audit.tradeoff import tradeoff_curve
from engine.odds import dp_tradeoff_bound as epsilon_delta_tradeoff
from engine.viz.tradeoff import tradeoff_figure


def _traces(fig):
    return {trace.name: trace for trace in fig.data}


def test_figure_draws_the_curve_its_band_and_the_claim():
    rng = np.random.default_rng(0)
    claim = type("Claim", (), {"epsilon": 1.0, "delta": 0.0})()
    curve = tradeoff_curve(rng.laplace(0, 1, 20_000), rng.laplace(1, 1, 20_000), claim, label="Laplace pair")
    fig = tradeoff_figure(curve)
    traces = _traces(fig)
    assert np.array_equal(traces["measured"].y, curve.beta) and np.array_equal(traces["measured"].x, curve.alpha)
    band = traces["95.0% simultaneous band"]
    assert band.fill == "tonexty" and np.array_equal(band.y, curve.beta_low)
    assert np.array_equal(fig.data[0].y, curve.beta_high), "the band fills down from its upper edge"
    assert np.allclose(traces["claimed: 1-DP"].y, epsilon_delta_tradeoff(curve.alpha, 1.0))
    assert "band below the claim" not in traces, "a correct mechanism's band reaches its claim"
    assert fig.layout.title.text == "Laplace pair" and tuple(fig.layout.xaxis.range) == (0, 1)


def test_figure_marks_where_a_broken_claim_is_refuted():
    rng = np.random.default_rng(1)
    claim = type("Claim", (), {"epsilon": 1.0, "delta": 0.0})()
    curve = tradeoff_curve(rng.laplace(0, 0.5, 20_000), rng.laplace(1, 0.5, 20_000), claim)  # 2-DP claiming 1
    marks = _traces(tradeoff_figure(curve, title="broken"))["band below the claim"]
    below = curve.beta_high < curve.claimed_beta
    assert below.sum() > 20 and np.array_equal(marks.x, curve.alpha[below])
    assert np.all(marks.y < np.interp(marks.x, curve.alpha, curve.claimed_beta))


def test_measured_curve_added_to_the_lessons_analytic_figure():
    from engine.viz.odds import tradeoff_figure as analytic_figure
    from engine.viz.tradeoff import add_measured

    rng = np.random.default_rng(3)
    claim = type("Claim", (), {"epsilon": 1.0, "delta": 0.0})()
    curve = tradeoff_curve(rng.laplace(0, 1, 5_000), rng.laplace(1, 1, 5_000), claim)
    fig = add_measured(analytic_figure(1.0), curve, name="measured on the pair")
    assert [t.name for t in fig.data][:3] == ["no information (a coin)", "Riemannian Laplace", "ε = 1 bound"]
    traces = _traces(fig)
    assert np.array_equal(traces["measured on the pair"].y, curve.beta)
    assert np.array_equal(traces["95.0% simultaneous band"].y, curve.beta_low)


def test_the_zoomed_panel_shows_where_the_curve_comes_closest_to_the_claim():
    """The right panel repeats every trace, zoomed ``ZOOM_HALF_WIDTH`` either side of the α where the claim exceeds
    the measured curve most, its β range spanning the band and the claim there."""
    from engine.viz.tradeoff import ZOOM_HALF_WIDTH, closest_window

    rng = np.random.default_rng(1)
    claim = type("Claim", (), {"epsilon": 1.0, "delta": 0.0})()
    curve = tradeoff_curve(rng.laplace(0, 0.5, 20_000), rng.laplace(1, 0.5, 20_000), claim)  # 2-DP claiming 1
    fig = tradeoff_figure(curve)
    worst = curve.alpha[np.argmax(curve.claimed_beta - curve.beta)]
    (low, high), (bottom, top) = closest_window(curve)
    assert low <= worst <= high and high - low <= 2 * ZOOM_HALF_WIDTH + 1e-12
    assert tuple(fig.layout.xaxis2.range) == (low, high) and tuple(fig.layout.yaxis2.range) == (bottom, top)
    inside = (curve.alpha >= low) & (curve.alpha <= high)
    assert bottom < curve.beta_low[inside].min() and top > max(curve.beta_high[inside].max(),
                                                               curve.claimed_beta[inside].max())
    left = [t for t in fig.data if t.xaxis in (None, "x")]
    right = [t for t in fig.data if t.xaxis == "x2"]
    assert [t.name for t in left] == [t.name for t in right] and all(np.array_equal(a.y, b.y)
                                                                     for a, b in zip(left, right))
    assert [t.name for t in right if t.showlegend is not False] == []
