"""RDP accounting of DP-RGD / DP-RSGD: calibration, monotonicity, conversions, the paper's rule."""

import numpy as np
import pytest
from dp_accounting import dp_event

from engine import accounting


@pytest.mark.parametrize("epsilon, steps, delta", [(0.1, 300, 1e-3), (1.0, 1, 1e-5), (3.0, 50, 1e-6)])
def test_calibrated_multiplier_spends_exactly_the_target(epsilon, steps, delta):
    z = accounting.calibrate_sigma(epsilon, steps, delta=delta)
    spent = accounting.epsilon_for(z, steps, delta=delta)
    assert spent <= epsilon * (1 + 1e-12)
    assert spent == pytest.approx(epsilon, rel=1e-6)
    # Slightly less noise must overspend: z is the smallest multiplier that meets the target.
    assert accounting.epsilon_for(z * (1 - 1e-4), steps, delta=delta) > epsilon


@pytest.mark.slow
def test_calibration_without_replacement_spends_the_target_and_beats_full_batch():
    q = 10 / 2000
    z = accounting.calibrate_sigma(1.0, 20, delta=1e-3, sampling_rate=q)
    assert accounting.epsilon_for(z, 20, delta=1e-3, sampling_rate=q) == pytest.approx(1.0, rel=1e-6)
    # Amplification by subsampling: far less noise than the same budget with the full batch.
    assert z < 0.5 * accounting.calibrate_sigma(1.0, 20, delta=1e-3)


def test_epsilon_decreases_in_noise_and_increases_in_steps():
    eps_by_z = [accounting.epsilon_for(z, 100, delta=1e-5) for z in (2.0, 4.0, 8.0, 16.0)]
    assert np.all(np.diff(eps_by_z) < 0)
    eps_by_t = [accounting.epsilon_for(4.0, t, delta=1e-5) for t in (1, 10, 100, 1000)]
    assert np.all(np.diff(eps_by_t) > 0)
    sub_by_z = [accounting.epsilon_for(z, 5, delta=1e-3, sampling_rate=0.01) for z in (0.8, 1.6, 3.2)]
    assert np.all(np.diff(sub_by_z) < 0)


def test_no_noise_spends_infinite_epsilon():
    assert accounting.epsilon_for(0.0, 10, delta=1e-5) == np.inf


def test_subsampled_bound_never_exceeds_the_unamplified_one():
    # dp-accounting's without-replacement bound alone levels off near 0.12 here (module notes).
    full = accounting.epsilon_for(100.0, 1, delta=1e-5)
    assert accounting.epsilon_for(100.0, 1, delta=1e-5, sampling_rate=0.5) == pytest.approx(full)
    assert full < 0.05


def test_events_match_the_sampling_scheme():
    full = accounting.dp_rgd_event(2.0, 7)
    assert full == dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(2.0), 7)
    sub = accounting.dp_rgd_event(2.0, 7, sampling_rate=10 / 300).event
    assert isinstance(sub, dp_event.SampledWithoutReplacementDpEvent)
    assert sub.sample_size / sub.source_dataset_size == pytest.approx(10 / 300, rel=1e-15)
    assert sub.event == dp_event.GaussianDpEvent(2.0)


def test_full_batch_gaussian_matches_closed_form_rdp():
    # T steps of a Gaussian with multiplier z have RDP T·α/(2z²); at order α the conversion gives
    # at most T·α/(2z²) + log(1/δ)/(α − 1), so the accountant can only be below the best such value.
    z, steps, delta = 5.0, 40, 1e-5
    alphas = np.linspace(1.5, 200, 4000)
    bound = np.min(steps * alphas / (2 * z * z) + np.log(1 / delta) / (alphas - 1))
    spent = accounting.epsilon_for(z, steps, delta=delta)
    assert spent <= bound
    assert spent > 0.8 * bound


def test_noise_multiplier_and_sigma_convert_with_replace_one_sensitivity():
    assert accounting.step_sensitivity(1.5, 300) == pytest.approx(2 * 1.5 / 300)
    sigma = accounting.noise_multiplier_to_sigma(3.0, clip=1.5, batch_size=300)
    assert sigma == pytest.approx(3.0 * 2 * 1.5 / 300)
    assert accounting.sigma_to_noise_multiplier(sigma, clip=1.5, batch_size=300) == pytest.approx(3.0)


def test_paper_sigma_closed_value():
    # σ² = c T log(1/δ) L0²/(n² ε²) with c = 1, T = n = 300, ε = 0.1, δ = 1e-3, L0 = 1.
    assert accounting.paper_sigma(0.1, 1e-3, 300, 300, 1.0) == pytest.approx(1.5174271293851465, rel=1e-12)
    assert accounting.paper_sigma(0.5, 1e-5, 20, 1000, 2.0, c=4.0) == pytest.approx(
        np.sqrt(4.0 * 20 * np.log(1e5)) * 2.0 / (1000 * 0.5), rel=1e-12)


def test_paper_rule_needs_c_above_eight_for_its_epsilon():
    n, steps, eps, delta, clip = 300, 300, 0.1, 1e-3, 1.0
    spent = {}
    for c in (1.0, 9.0):
        sigma = accounting.paper_sigma(eps, delta, steps, n, clip, c=c)
        z = accounting.sigma_to_noise_multiplier(sigma, clip=clip, batch_size=n)
        spent[c] = accounting.epsilon_for(z, steps, delta=delta)
    assert spent[1.0] == pytest.approx(0.17094805451670425, rel=1e-9)
    assert spent[9.0] <= eps


@pytest.mark.parametrize("call, quoted", [
    (lambda: accounting.epsilon_for(-1.0, 10, delta=1e-5), "-1.0"),
    (lambda: accounting.epsilon_for(1.0, 0, delta=1e-5), "0"),
    (lambda: accounting.epsilon_for(1.0, 10, delta=1.5), "1.5"),
    (lambda: accounting.epsilon_for(1.0, 10, delta=1e-5, sampling_rate=0.0), "0.0"),
    (lambda: accounting.epsilon_for(1.0, 10, delta=1e-5, sampling_rate=1.2), "1.2"),
    (lambda: accounting.calibrate_sigma(0.0, 10, delta=1e-5), "0.0"),
    (lambda: accounting.calibrate_sigma(1.0, 2.5, delta=1e-5), "2.5"),
    (lambda: accounting.paper_sigma(0.1, 1e-3, 10, -5, 1.0), "-5"),
    (lambda: accounting.paper_sigma(0.1, 1e-3, 10, 5, 1.0, c=-2.0), "-2.0"),
    (lambda: accounting.noise_multiplier_to_sigma(1.0, clip=0.0, batch_size=3), "0.0"),
])
def test_bad_inputs_raise_value_errors_quoting_the_value(call, quoted):
    with pytest.raises(ValueError, match=quoted.replace(".", r"\.").replace("-", r"\-")):
        call()


@pytest.mark.parametrize("rate", [1.0, 0.5])
def test_epsilon_curve_matches_the_accountant(rate):
    steps = [1, 7, 40]
    curve = accounting.epsilon_curve(3.0, steps, delta=1e-5, sampling_rate=rate)
    expected = [accounting.epsilon_for(3.0, t, delta=1e-5, sampling_rate=rate) for t in steps]
    np.testing.assert_allclose(curve, expected, rtol=1e-12)
