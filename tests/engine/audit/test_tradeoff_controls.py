"""The positive controls on the trade-off chart: where a control's measured curve can cross its claim, its
default audit on the Audit page shows the band below it; where it cannot, the control's own definition says why in
one sentence (``AuditTarget.unseen_by_curve``), which the audit result carries to the page."""

import numpy as np
import pytest

from engine.audit import AUDITS
from engine.audit.controls import ReusedRandomnessLaplace, halved_bound_delta
from engine.audit.subspace import DELTA
from engine.audit.tradeoff import GRID_POINTS, audit_tradeoff
from engine.pipelines.audit import CONTROLS, audit_one


def _page_default(name: str):
    """The control's audit as the page runs it beside its mechanism: its own first space, the mechanism's budget."""
    spec = AUDITS[name]
    mechanism = AUDITS[name.removeprefix("twin-")] if name.startswith("twin-") else spec
    return audit_one(name, spec.default_space, spec.default_epsilon, mechanism.default_samples, 0)


def test_only_controls_whose_curve_cannot_show_the_break_say_why():
    said = {name for name in CONTROLS if AUDITS[name].target().unseen_by_curve}
    assert said == {"control-reused-randomness", "control-subspace-half-bound"}
    assert AUDITS["control-reused-randomness"].target().unseen_by_curve == ReusedRandomnessLaplace.UNSEEN_BY_CURVE
    half = AUDITS["control-subspace-half-bound"].target().unseen_by_curve
    assert f"{halved_bound_delta(1.0, DELTA):.2g}" in half and f"{1 / (GRID_POINTS - 1):g}" in half
    for sentence in (half, ReusedRandomnessLaplace.UNSEEN_BY_CURVE):
        assert ". " not in sentence and sentence.endswith(".")  # one sentence


def test_the_reused_randomness_curve_cannot_fall_below_its_claim_though_the_bound_flags_it():
    result = _page_default("control-reused-randomness")
    curve = audit_tradeoff(result)
    assert result.flagged and not curve.refutes
    assert result.unseen_by_curve == ReusedRandomnessLaplace.UNSEEN_BY_CURVE


def test_the_half_bound_break_lies_off_the_charts_grid():
    """Its excess δ′ − δ is the only place its curve can cross: at α within δ′ of 0 or 1, off the 0.005 grid."""
    result = _page_default("control-subspace-half-bound")
    curve = audit_tradeoff(result)
    actual = halved_bound_delta(1.0, DELTA)
    assert result.flagged and not curve.refutes and actual < 1 / (GRID_POINTS - 1)
    assert np.all(curve.claimed_beta <= curve.beta_high)


@pytest.mark.slow
def test_the_tail_break_of_the_classical_tangent_gaussians_twin_shows_at_the_pages_budget():
    """A Gaussian's curve leaves f_{ε, δ} only near α = 0 (and, by symmetry, 1): at the mechanism's budget (400,000 per side) the twin's band
    falls below its claim there (deficit 6.7e-4 at seed 0), inside the zoomed panel's window."""
    from engine.viz.tradeoff import closest_window

    result = _page_default("twin-tangent-gaussian")
    curve = audit_tradeoff(result)
    assert curve.refutes and not result.unseen_by_curve
    below = curve.alpha[curve.beta_high < curve.claimed_beta]
    (low, high), _ = closest_window(curve)
    assert np.all((below < 0.1) | (below > 0.9)) and np.any((below >= low) & (below <= high))
