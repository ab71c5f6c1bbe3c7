"""Negative controls for the proofs and checks of the notebooks ch01-ch05.

Each check that a chapter's claims table cites as a proof is a function of
``kpca.book.checks``; the chapter applies it to the right formula, and here
the same function is applied to the right formula and to deliberately wrong
ones, which it must reject.  A check that accepted the wrong formula too
would check nothing.
"""

import numpy as np
import sympy as sp

from kpca.book import checks

r = sp.Symbol("r", real=True)
a, b, c, e, theta = sp.symbols("a b c e theta", real=True)


# -- ch01 ---------------------------------------------------------------------


def test_eigenpairs_of_two_standardised_features():
    C = sp.Matrix([[1, r], [r, 1]])
    for sign in (1, -1):
        v = sp.Matrix([1, sign]) / sp.sqrt(2)
        assert checks.is_symbolic_eigenpair(C, v, 1 + sign * r)
        # wrong eigenvalue, wrong eigenvector
        assert not checks.is_symbolic_eigenpair(C, v, 1 - sign * r)
        assert not checks.is_symbolic_eigenpair(C, v, 1 + 2 * sign * r)
        assert not checks.is_symbolic_eigenpair(
            C, sp.Matrix([1, 2 * sign]), 1 + sign * r
        )


def test_covariance_is_half_the_derivative_of_the_variance():
    symmetric = sp.Matrix([[a, b], [b, c]])
    assert checks.covariance_is_half_variance_derivative(symmetric, theta)
    # a non-symmetric matrix: g - f'/2 = (b - e)/2
    assert not checks.covariance_is_half_variance_derivative(
        sp.Matrix([[a, b], [e, c]]), theta
    )
    # the wrong perpendicular (u rotated by -90 degrees) gives -f'/2
    wrong_perp = sp.Matrix([sp.sin(theta), -sp.cos(theta)])
    assert not checks.covariance_is_half_variance_derivative(
        symmetric, theta, perp=wrong_perp
    )


# -- ch02 ---------------------------------------------------------------------


def test_gradient_of_a_quadratic_form():
    assert checks.gradient_of_quadratic_form_matches(
        lambda A, x: (A + A.T) * x
    )
    assert checks.gradient_of_quadratic_form_matches(
        lambda A, x: (A + A.T) * x, dim=2
    )
    # the symmetric-only answer, a transpose dropped, a factor lost
    for wrong in (
        lambda A, x: 2 * A * x,
        lambda A, x: 2 * A.T * x,
        lambda A, x: A * x,
        lambda A, x: (A + A.T) * x / 2,
    ):
        assert not checks.gradient_of_quadratic_form_matches(wrong)


def test_standardisation_gives_unit_variance_only_with_one_divisor():
    n = sp.Symbol("n", integer=True, positive=True)
    assert checks.standardised_moments(lambda m: m) == (0, 1)
    assert checks.standardised_moments(lambda m: m - 1) == (0, 1)
    mean, variance = checks.standardised_moments(lambda m: m, lambda m: m - 1)
    assert mean == 0 and variance != 1
    assert sp.simplify(variance - (n - 1) / n) == 0
    # the check sees a mistaken scale (the variance in place of the sd)
    _, wrong = checks.standardised_moments(lambda m: m, lambda m: m**2)
    assert wrong != 1


# -- ch03 ---------------------------------------------------------------------


def _standardised_iris():
    from sklearn.datasets import load_iris

    X = load_iris().data
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _random_planes(count, d=4, k=2, seed=2025):
    rng = np.random.default_rng(seed)
    return [np.linalg.qr(rng.normal(size=(d, k)))[0] for _ in range(count)]


def test_no_random_plane_beats_the_principal_plane():
    Xs = _standardised_iris()
    U = np.linalg.svd(Xs, full_matrices=False)[2].T
    planes = _random_planes(1000)
    assert checks.no_plane_beats_the_candidate(Xs, U[:, :2], planes)
    # wrong candidates: the planes of u_2, u_3 and of u_1, u_3
    assert not checks.no_plane_beats_the_candidate(Xs, U[:, 1:3], planes)
    assert not checks.no_plane_beats_the_candidate(Xs, U[:, [0, 2]], planes)


# -- ch05 ---------------------------------------------------------------------


def test_roots_of_unity_in_the_circle_proof():
    N = sp.Symbol("N", integer=True, nonnegative=True)
    assert checks.root_of_unity_differs_from_one(1, N + 2)  # the mean
    assert checks.root_of_unity_differs_from_one(2, N + 3)  # C = I/2
    # wrong ranges of n: n = 1 for the mean, n = 2 for the covariance
    assert not checks.root_of_unity_differs_from_one(1, N + 1)
    assert not checks.root_of_unity_differs_from_one(2, N + 2)
    # a fixed n where q_m = 1
    assert not checks.root_of_unity_differs_from_one(3, sp.Integer(3))


# -- ch04 ---------------------------------------------------------------------


def test_held_out_residuals_fall_only_along_nested_subspaces():
    rng = np.random.default_rng(0)
    train = rng.normal(size=(40, 12)) @ np.diag(np.linspace(3, 0.5, 12))
    test = rng.normal(size=(10, 12)) @ np.diag(np.linspace(3, 0.5, 12))
    mean = train.mean(axis=0)
    U = np.linalg.svd(train - mean, full_matrices=False)[2].T
    nested = [U[:, :k] for k in range(1, 12)]
    assert checks.residuals_are_non_increasing(test, mean, nested)
    assert checks.residuals_are_non_increasing(train, mean, nested)
    # not nested: the k-th basis is the k least important directions
    reversed_order = [U[:, -k:] for k in range(1, 12)]
    swapped = [U[:, :1], U[:, 1:3], U[:, :2]]
    assert not checks.residuals_are_non_increasing(test, mean, swapped)
    assert checks.residuals_are_non_increasing(test, mean, reversed_order)
    # a wrong "monotone" claim: the residuals of the reversed order, read
    # backwards, rise
    assert not checks.residuals_are_non_increasing(
        test, mean, reversed_order[::-1]
    )
