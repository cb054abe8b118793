"""The sphere comparison of the Riemannian Gaussian and Laplace at equal μ-GDP (engine.experiments.gauss_vs_laplace)."""

import numpy as np
import pytest

from engine.experiments import gauss_vs_laplace as study
from engine.manifolds import Sphere
from engine.mechanisms import gdp


@pytest.mark.slow
def test_equal_mu_and_errors_against_their_exact_means():
    errors = study.run(dims=(2,), ns=(20,), reps=2000)["errors"]
    for row in errors.itertuples():
        power = gdp.GAUSSIAN if "Gaussian" in row.mechanism else gdp.LAPLACE
        assert gdp.gdp_mu(Sphere(2), row.sigma, row.sensitivity, power=power).mu <= row.mu
        assert abs(row.mean_error - row.exact_mean_error) < 4 * row.error_se
    assert study.ratios(errors).ratio.iloc[0] < 1


def test_bad_settings_are_refused_in_one_line():
    with pytest.raises(ValueError, match="mu"):
        study.Config(mu=-1.0)
    with pytest.raises(ValueError):
        study.Config(radius=np.pi, ns=(10,))
