"""DP-RGD's RDP ε against dp_accounting's PLD accountant and the closed-form Gaussian-DP curve.

T full-batch steps with noise multiplier z compose to a Gaussian mechanism with μ = √T / z (Dong,
Roth & Su 2022), whose exact ε(δ) is ``gaussian_epsilon``; the PLD accountant approximates it from
above. The RDP ε the engine reports must never be below either.
"""

import numpy as np
import pytest
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant

from engine import accounting
from engine.audit import gaussian_epsilon

CASES = [(300, 227.6, 1e-3), (20, 5.0, 1e-5), (100, 10.0, 1e-5), (1, 1.0, 1e-5), (1000, 50.0, 1e-6)]


def _pld_epsilon(z, steps, delta):
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    acc.compose(dp_event.GaussianDpEvent(z), steps)
    return acc.get_epsilon(delta)


@pytest.mark.slow
@pytest.mark.parametrize("steps, z, delta", CASES)
def test_rdp_epsilon_is_never_below_the_exact_value(steps, z, delta):
    rdp = accounting.epsilon_for(z, steps, delta=delta)
    exact = gaussian_epsilon(np.sqrt(steps) / z, delta)
    pld = _pld_epsilon(z, steps, delta)
    assert pld == pytest.approx(exact, rel=2e-2, abs=1e-3)
    assert rdp >= exact
    assert rdp >= pld - 1e-6


def test_paper_setting_numbers():
    z = accounting.sigma_to_noise_multiplier(accounting.paper_sigma(0.1, 1e-3, 300, 300, 1.0), clip=1.0,
                                             batch_size=300)
    assert accounting.epsilon_for(z, 300, delta=1e-3) == pytest.approx(0.171, abs=1e-3)
    assert gaussian_epsilon(np.sqrt(300) / z, 1e-3) == pytest.approx(0.142, abs=1e-3)
