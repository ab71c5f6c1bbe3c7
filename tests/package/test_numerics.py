"""Numerical accuracy: distances far from the origin, PCA's solvers on
ill-conditioned data, and the cost of enumerating polynomial features."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.spatial.distance import cdist

import kpca
from kpca.feature_maps import polynomial_exponents


def _exact_squared_distances(X):
    """Squared distances of the float64 points X, in exact rational arithmetic."""
    F = [[Fraction(v) for v in row] for row in X]
    n = len(F)
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            d2 = sum((a - b) ** 2 for a, b in zip(F[i], F[j], strict=True))
            D[i, j] = D[j, i] = float(d2)
    return D


@pytest.mark.parametrize("offset", [0.0, 1e2, 1e4, 1e8])
def test_squared_distances_keep_their_digits_far_from_the_origin(rng, offset):
    X = offset + 0.01 * rng.normal(size=(25, 3))
    exact = _exact_squared_distances(X)
    off = ~np.eye(25, dtype=bool)
    relative = np.abs(kpca.squared_distances(X) - exact)[off] / exact[off]
    assert relative.max() < 1e-13
    # The textbook expansion |x|^2 + |y|^2 - 2 x.y without the shift loses
    # digits here (this is what the shift repairs).
    if offset >= 1e4:
        naive = (X**2).sum(1)[:, None] + (X**2).sum(1)[None, :] - 2 * X @ X.T
        assert (np.abs(naive - exact)[off] / exact[off]).max() > 1e-6


def test_squared_distances_between_two_sets_far_from_the_origin(rng):
    X = 1e6 + rng.normal(size=(30, 4))
    Y = 1e6 + rng.normal(size=(7, 4))
    reference = cdist(X - 1e6, Y - 1e6, "sqeuclidean")  # exact shifts
    np.testing.assert_allclose(
        kpca.squared_distances(X, Y), reference, rtol=1e-12
    )


def test_gaussian_kernel_far_from_the_origin(rng):
    X = rng.normal(size=(40, 2))
    np.testing.assert_allclose(
        kpca.gaussian_kernel(X + 1e4, sigma=0.5),
        kpca.gaussian_kernel(X, sigma=0.5),
        rtol=1e-11,
        atol=1e-14,
    )


def test_kernel_pca_and_mds_are_translation_invariant(rng):
    X = rng.normal(size=(50, 3))
    for shift in (1e3, 1e6):
        np.testing.assert_allclose(
            kpca.KernelPCA(3, sigma=1.0).fit(X + shift).eigenvalues_,
            kpca.KernelPCA(3, sigma=1.0).fit(X).eigenvalues_,
            rtol=1e-9,
        )
        np.testing.assert_allclose(
            kpca.ClassicalMDS(3).fit(X + shift).eigenvalues_,
            kpca.ClassicalMDS(3).fit(X).eigenvalues_,
            rtol=1e-9,
        )


def _ill_conditioned(rng, n=200, d=8, smallest=3e-5):
    """Centred data whose singular values run from 1 to ``smallest``."""
    U, _ = np.linalg.qr(rng.normal(size=(n, d)))
    U -= U.mean(axis=0)
    U, _ = np.linalg.qr(U)  # orthonormal columns, each orthogonal to 1
    V, _ = np.linalg.qr(rng.normal(size=(d, d)))
    s = np.geomspace(1.0, smallest, d)
    return (U * s) @ V.T, s


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "gram", "auto"])
def test_pca_solver_accuracy_on_ill_conditioned_data(rng, solver):
    # The documented bounds: eps * s1 / s_i for the SVD, eps * (s1 / s_i)^2
    # for the routes that form X^T X or X X^T, with a safety factor.
    X, s = _ill_conditioned(rng)
    got = kpca.PCA(svd_solver=solver).fit(X).singular_values_
    relative = np.abs(got - s) / s
    eps = np.finfo(float).eps
    # Here n = 200 >= 10 d, so "auto" takes the covariance route.
    squares = solver in ("covariance_eigh", "gram", "auto")
    bound = 100 * eps * (s[0] / s) ** (2 if squares else 1)
    assert np.all(relative <= bound), (relative, bound)


def test_pca_auto_uses_the_svd_for_wide_or_short_data(rng):
    # n = 200 < 10 d: "auto" takes the SVD, accurate to eps * s1 / s_i.
    X, s = _ill_conditioned(rng, n=60, d=8, smallest=1e-6)
    auto = kpca.PCA(svd_solver="auto").fit(X).singular_values_
    svd = kpca.PCA(svd_solver="full").fit(X).singular_values_
    np.testing.assert_array_equal(auto, svd)
    cov = kpca.PCA(svd_solver="covariance_eigh").fit(X).singular_values_
    assert abs(cov[-1] - s[-1]) / s[-1] > abs(svd[-1] - s[-1]) / s[-1]


def test_polynomial_exponents_enumerate_without_exponential_work():
    # d = 30, p = 3: 5456 features; enumerating the 4^30 tuples of
    # {0..3}^30 and filtering them, as before, would never finish.
    exps = polynomial_exponents(30, 3)
    assert len(exps) == math.comb(33, 3) == len(set(exps))
    assert all(sum(e) == 3 and min(e) >= 0 for e in exps)
    totals = [3 - e[0] for e in exps]
    assert totals == sorted(totals)  # graded order
