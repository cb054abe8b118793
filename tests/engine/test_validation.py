"""The engine's argument checks: what they accept, what they refuse and that the message quotes the value."""

import numpy as np
import pytest

from engine.manifolds import Sphere
from engine.mechanisms import RiemannianLaplace
from engine.validation import check_int, check_nonnegative, check_positive, check_probability


@pytest.mark.parametrize("check", [check_positive, check_nonnegative, check_probability, check_int])
@pytest.mark.parametrize("flag", [True, False, np.True_])
def test_a_boolean_is_not_a_number(check, flag):
    with pytest.raises(ValueError, match=repr(flag).replace("(", r"\(").replace(")", r"\)")):
        check("epsilon", flag)


@pytest.mark.parametrize("bad", ["", "abc", None, float("nan"), -1.0, 0.0, float("inf")])
def test_check_positive_refuses_and_quotes(bad):
    with pytest.raises(ValueError, match="epsilon"):
        check_positive("epsilon", bad)


def test_checks_return_floats_for_numbers():
    assert check_positive("x", np.float32(0.5)) == pytest.approx(0.5)
    assert check_positive("x", np.inf, allow_inf=True) == np.inf
    assert check_nonnegative("x", 0) == 0.0
    assert check_probability("x", 0, open_interval=False) == 0.0
    assert check_probability("x", 0.25) == 0.25


@pytest.mark.parametrize("check", [check_positive, check_nonnegative, check_probability])
@pytest.mark.parametrize("text", ["1", "0.25", b"1"])
def test_a_string_that_reads_as_a_number_is_not_a_number(check, text):
    with pytest.raises(ValueError, match=f"epsilon must be a number .*, got {text!r}"):
        check("epsilon", text)


def test_a_mechanism_refuses_epsilon_true():
    with pytest.raises(ValueError, match="True"):
        RiemannianLaplace(manifold=Sphere(2), sensitivity=0.1, epsilon=True)


def test_a_mechanism_refuses_epsilon_as_a_string():
    with pytest.raises(ValueError, match="epsilon must be a number > 0, got '1'"):
        RiemannianLaplace(manifold=Sphere(2), sensitivity=0.1, epsilon="1")
