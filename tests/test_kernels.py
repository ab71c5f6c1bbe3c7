import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import pairwise

import kpca
from kpca.feature_maps import polynomial_exponents


def test_linear_matches_sklearn(rng):
    X, Y = rng.normal(size=(7, 3)), rng.normal(size=(4, 3))
    np.testing.assert_allclose(
        kpca.linear_kernel(X, Y), pairwise.linear_kernel(X, Y)
    )


@pytest.mark.parametrize(
    "degree, coef0", [(1, 0.0), (2, 1.0), (3, 0.5), (5, 1.0)]
)
def test_polynomial_matches_sklearn(rng, degree, coef0):
    X, Y = rng.normal(size=(6, 2)), rng.normal(size=(5, 2))
    expected = pairwise.polynomial_kernel(
        X, Y, degree=degree, gamma=1.0, coef0=coef0
    )
    np.testing.assert_allclose(
        kpca.polynomial_kernel(X, Y, degree=degree, coef0=coef0), expected
    )


@pytest.mark.parametrize("sigma", [0.1, 1.0, 7.5])
def test_gaussian_matches_sklearn(rng, sigma):
    X, Y = rng.normal(size=(9, 4)), rng.normal(size=(3, 4))
    expected = pairwise.rbf_kernel(X, Y, gamma=1.0 / (2 * sigma**2))
    np.testing.assert_allclose(
        kpca.gaussian_kernel(X, Y, sigma=sigma), expected, rtol=1e-12
    )


@pytest.mark.parametrize(
    "kernel",
    [
        kpca.linear_kernel,
        kpca.polynomial_kernel,
        kpca.gaussian_kernel,
        kpca.squared_distances,
    ],
)
def test_y_none_is_exactly_symmetric(rng, kernel):
    X = rng.normal(size=(60, 5)) * 10
    K = kernel(X)
    assert np.array_equal(K, K.T)


def test_gaussian_diagonal_is_one_and_values_in_unit_interval(rng):
    K = kpca.gaussian_kernel(rng.normal(size=(30, 3)), sigma=0.5)
    assert np.array_equal(np.diag(K), np.ones(30))
    assert np.all((K > 0) & (K <= 1))


@settings(max_examples=40, deadline=None)
@given(
    # Rounded: data whose kernel underflows (all entries near 1e-300) are
    # refused, and tested in tests/package/test_hostile_input.py.
    X=arrays(
        np.float64,
        (5, 3),
        elements=st.floats(-3, 3).map(lambda v: round(v, 12)),
    ),
    degree=st.integers(0, 4),
    coef0=st.floats(0, 2),
)
def test_polynomial_feature_map_reproduces_kernel(X, degree, coef0):
    phi = kpca.polynomial_feature_map(X, degree=degree, coef0=coef0)
    K = kpca.polynomial_kernel(X, degree=degree, coef0=coef0)
    np.testing.assert_allclose(
        phi @ phi.T, K, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(K).max())
    )


@pytest.mark.parametrize(
    "d, p", [(1, 3), (2, 2), (3, 2), (2, 5), (3, 6), (4, 3)]
)
def test_feature_dimension_is_binomial(d, p):
    from math import comb

    assert len(polynomial_exponents(d, p)) == comb(p + d, d)
    assert kpca.polynomial_feature_map(np.ones((1, d)), degree=p).shape == (
        1,
        comb(p + d, d),
    )


def test_gaussian_feature_map_converges():
    x = np.linspace(-1.5, 1.5, 7)
    K = kpca.gaussian_kernel(x[:, None], sigma=1.0)
    errors = []
    for J in (2, 5, 10, 20, 30):
        phi = kpca.gaussian_feature_map_1d(x, sigma=1.0, n_terms=J)
        errors.append(np.abs(phi @ phi.T - K).max())
    assert all(a > b for a, b in zip(errors, errors[1:], strict=False))
    assert errors[-1] < 1e-14


def test_make_kernel_callable_is_checked(rng):
    X = rng.normal(size=(4, 2))
    k = kpca.make_kernel(lambda A, B: A @ B.T)
    np.testing.assert_allclose(k(X), X @ X.T)
    bad = kpca.make_kernel(lambda A, B: np.ones((2, 2)))
    with pytest.raises(ValueError, match="callable kernel returned shape"):
        bad(X)


# -- bad input -----------------------------------------------------------------
@pytest.mark.parametrize(
    "X, exc, match",
    [
        (np.array([[1.0, np.nan]]), ValueError, "X contains NaN or infinity"),
        (np.array([[1.0, np.inf]]), ValueError, "X contains NaN or infinity"),
        (np.ones(3), ValueError, "X must be a 2-D array"),
        (np.ones((0, 3)), ValueError, "X has 0 sample"),
        (np.ones((3, 0)), ValueError, "X has 0 feature"),
        ("abc", TypeError, "X must be an array-like"),
        (np.array([["a", "b"]]), TypeError, "X must hold real numbers"),
        (np.ones((2, 2)) * 1j, TypeError, "X must hold real numbers"),
        (None, TypeError, "X must be an array-like"),
    ],
)
@pytest.mark.parametrize(
    "kernel",
    [kpca.linear_kernel, kpca.polynomial_kernel, kpca.gaussian_kernel],
)
def test_bad_X(kernel, X, exc, match):
    with pytest.raises(exc, match=match):
        kernel(X)


def test_feature_mismatch():
    with pytest.raises(ValueError, match="Y has 3 features but X has 2"):
        kpca.gaussian_kernel(np.ones((2, 2)), np.ones((2, 3)))


@pytest.mark.parametrize(
    "sigma, exc",
    [
        (0.0, ValueError),
        (-1.0, ValueError),
        (np.inf, ValueError),
        (np.nan, ValueError),
        ("1", TypeError),
        (None, TypeError),
    ],
)
def test_bad_sigma(sigma, exc):
    with pytest.raises(exc, match="sigma"):
        kpca.gaussian_kernel(np.ones((2, 2)), sigma=sigma)


@pytest.mark.parametrize(
    "degree, exc",
    [
        (-1, ValueError),
        (2.5, TypeError),
        (2.0, TypeError),
        (True, TypeError),
        ("2", TypeError),
    ],
)
def test_bad_degree(degree, exc):
    with pytest.raises(exc, match="degree"):
        kpca.polynomial_kernel(np.ones((2, 2)), degree=degree)


def test_bad_coef0():
    with pytest.raises(ValueError, match="coef0"):
        kpca.polynomial_kernel(np.ones((2, 2)), coef0=np.nan)
    with pytest.raises(ValueError, match="coef0"):
        kpca.polynomial_feature_map(np.ones((2, 2)), coef0=-1.0)


def test_bad_kernel_name():
    with pytest.raises(ValueError, match="kernel must be"):
        kpca.make_kernel("rbf")
    with pytest.raises(TypeError, match="kernel must be"):
        kpca.make_kernel(3)


def test_degree_zero_is_constant(rng):
    np.testing.assert_array_equal(
        kpca.polynomial_kernel(rng.normal(size=(3, 2)), degree=0),
        np.ones((3, 3)),
    )


@pytest.mark.parametrize(
    "kernel",
    [
        kpca.linear_kernel,
        kpca.polynomial_kernel,
        kpca.gaussian_kernel,
        kpca.squared_distances,
    ],
)
def test_tiled_computation_is_exact_and_symmetric_beyond_one_tile(rng, kernel):
    X, Y = rng.normal(size=(1100, 3)), rng.normal(size=(700, 3))
    K = kernel(X)
    assert np.array_equal(K, K.T)
    reference = {
        kpca.linear_kernel: lambda A, B: A @ B.T,
        kpca.polynomial_kernel: lambda A, B: (1 + A @ B.T) ** 2,
        kpca.gaussian_kernel: lambda A, B: pairwise.rbf_kernel(
            A, B, gamma=0.5
        ),
        kpca.squared_distances: lambda A, B: pairwise.euclidean_distances(
            A, B, squared=True
        ),
    }[kernel]
    np.testing.assert_allclose(K, reference(X, X), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(
        kernel(X, Y), reference(X, Y), rtol=1e-10, atol=1e-10
    )
