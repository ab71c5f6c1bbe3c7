"""Negative controls for the proofs and checks of chapters 1-5.

Each check that a chapter's claims table cites as a proof is a function of
``kpca.book.checks``; the chapter applies it to the right formula, and here
the same function is applied to the right formula and to deliberately wrong
ones, which it must reject.  A check that accepted the wrong formula too
would check nothing.
"""

import sympy as sp

from kpca.book import checks

r = sp.Symbol("r", real=True)
a, b, c, e, theta = sp.symbols("a b c e theta", real=True)


# -- chapter 1 --------------------------------------------------------------


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
