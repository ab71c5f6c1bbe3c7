"""Checks of the book's claims that the chapters and the tests share.

A chapter proves a claim and then checks it in a folded check cell; the check
is a function here, so that the test suite can apply the *same* function to a
deliberately wrong formula and see it fail (a negative control: a check that
cannot fail checks nothing).  Each function returns a bool and leaves the
asserting to its caller.

The functions are grouped by chapter, one block per group of chapters.
sympy is imported inside the functions, so importing this module is cheap.
"""

from __future__ import annotations

__all__: list[str] = []

# --- Chapters 1-5 (PCA, its two derivations, its uses, the Gram matrix) ---

__all__ += [
    "is_symbolic_eigenpair",
    "covariance_is_half_variance_derivative",
    "gradient_of_quadratic_form_matches",
    "standardised_moments",
    "no_plane_beats_the_candidate",
    "root_of_unity_differs_from_one",
    "residuals_are_non_increasing",
]


def is_symbolic_eigenpair(matrix, vector, value) -> bool:
    r"""Whether ``matrix @ vector == value * vector`` holds identically.

    The residual :math:`Mv - \lambda v` is simplified entry by entry; the
    check holds for every value of the symbols in it.

    Parameters
    ----------
    matrix : sympy.Matrix, shape (d, d)
    vector : sympy.Matrix, shape (d, 1)
    value : sympy expression

    Examples
    --------
    >>> import sympy as sp
    >>> r = sp.Symbol("r", real=True)
    >>> C = sp.Matrix([[1, r], [r, 1]])
    >>> is_symbolic_eigenpair(C, sp.Matrix([1, 1]), 1 + r)
    True
    >>> is_symbolic_eigenpair(C, sp.Matrix([1, 1]), 1 - r)
    False
    """
    import sympy

    residual = matrix * vector - value * vector
    return all(sympy.simplify(entry) == 0 for entry in residual)


def covariance_is_half_variance_derivative(matrix, theta, perp=None) -> bool:
    r"""Whether :math:`g(\theta) = \tfrac12 f'(\theta)` holds identically.

    With :math:`u(\theta) = (\cos\theta, \sin\theta)^\top`,
    :math:`f(\theta) = u^\top C u` is the variance of the first rotated
    coordinate and :math:`g(\theta) = u^\top C u^\perp` the covariance of the
    two rotated coordinates (chapter 1, eq-ch01-two-routes).  The identity
    holds for every symmetric :math:`2\times2` matrix :math:`C`.

    Parameters
    ----------
    matrix : sympy.Matrix, shape (2, 2)
        :math:`C`, usually with symbolic entries.
    theta : sympy.Symbol
        The angle.
    perp : sympy.Matrix, shape (2, 1), optional
        The second axis; default :math:`u^\perp = (-\sin\theta,
        \cos\theta)^\top`.

    Examples
    --------
    >>> import sympy as sp
    >>> a, b, c, e, t = sp.symbols("a b c e theta", real=True)
    >>> covariance_is_half_variance_derivative(sp.Matrix([[a, b], [b, c]]), t)
    True
    >>> covariance_is_half_variance_derivative(sp.Matrix([[a, b], [e, c]]), t)
    False
    """
    import sympy

    u = sympy.Matrix([sympy.cos(theta), sympy.sin(theta)])
    if perp is None:
        perp = sympy.Matrix([-sympy.sin(theta), sympy.cos(theta)])
    f = (u.T * matrix * u)[0, 0]
    g = (u.T * matrix * perp)[0, 0]
    return sympy.simplify(g - sympy.diff(f, theta) / 2) == 0


def gradient_of_quadratic_form_matches(formula, dim: int = 3) -> bool:
    r"""Whether ``formula(A, x)`` is the gradient of :math:`x^\top A x`.

    An instance check, entry by entry: :math:`A` is a general (not
    symmetric) ``dim`` x ``dim`` matrix of independent symbols and :math:`x`
    a vector of symbols; the gradient is formed by differentiating the
    expanded sum :math:`\sum_{ij} x_i A_{ij} x_j` with respect to each
    :math:`x_k` separately, with no matrix-calculus rule involved.

    Parameters
    ----------
    formula : callable
        ``formula(A, x)`` returns the claimed gradient, a ``(dim, 1)``
        sympy Matrix.
    dim : int, default 3

    Examples
    --------
    >>> gradient_of_quadratic_form_matches(lambda A, x: (A + A.T) * x)
    True
    >>> gradient_of_quadratic_form_matches(lambda A, x: 2 * A * x)
    False
    """
    import sympy

    from .symbolic import symbol_matrix, symbol_vector

    A, x = symbol_matrix("a", dim, dim), symbol_vector("x", dim)
    quadratic = sympy.expand(
        sum(x[i] * A[i, j] * x[j] for i in range(dim) for j in range(dim))
    )
    gradient = sympy.Matrix([sympy.diff(quadratic, xk) for xk in x])
    return sympy.expand(gradient - formula(A, x)) == sympy.zeros(dim, 1)


def standardised_moments(divisor_of_variance, divisor_of_scale=None):
    r"""Mean and variance of a standardised sample of symbolic size ``n``.

    The sample :math:`x_1, \dots, x_n` (symbols, any ``n``) is centred and
    divided by :math:`s = \sqrt{\sum_i (x_i - \bar x)^2 / q}` with ``q =
    divisor_of_scale``; the function returns the mean and
    :math:`\frac1p\sum_i y_i^2` with ``p = divisor_of_variance``, both
    simplified.  Standardisation gives unit variance exactly when
    :math:`p = q` (chapter 2, eq-ch02-unit-variance).

    Parameters
    ----------
    divisor_of_variance : callable
        ``n -> p``, e.g. ``lambda n: n``.
    divisor_of_scale : callable, optional
        ``n -> q``; default the same as ``divisor_of_variance``.

    Returns
    -------
    (mean, variance) : sympy expressions in the symbol ``n``

    Examples
    --------
    >>> standardised_moments(lambda n: n)
    (0, 1)
    >>> standardised_moments(lambda n: n, lambda n: n - 1)
    (0, (n - 1)/n)
    """
    import sympy

    n = sympy.Symbol("n", integer=True, positive=True)
    i = sympy.Symbol("i", integer=True, positive=True)
    x = sympy.IndexedBase("x", real=True)
    q = (divisor_of_scale or divisor_of_variance)(n)
    p = divisor_of_variance(n)
    mean = sympy.Sum(x[i], (i, 1, n)) / n
    squares = sympy.Sum((x[i] - mean) ** 2, (i, 1, n))
    y = (x[i] - mean) / sympy.sqrt(squares / q)
    first = sympy.simplify(sympy.Sum(y, (i, 1, n)).expand().doit() / n)
    second = sympy.simplify(sympy.Sum(y**2, (i, 1, n)) / p)
    return first, second


def no_plane_beats_the_candidate(X, candidate, planes) -> bool:
    r"""Whether no subspace in ``planes`` reconstructs ``X`` better.

    The reconstruction error of a subspace with orthonormal basis :math:`W`
    is :math:`\lVert X - XWW^\top\rVert_F^2` (chapter 3,
    eq-ch03-recon-error).  Eckart–Young says the top-:math:`k` principal
    directions are never beaten; this instance check compares them with
    given subspaces, e.g. many random ones.

    Parameters
    ----------
    X : ndarray, shape (n, d)
        Centred data, points as rows.
    candidate : ndarray, shape (d, k)
        Orthonormal basis of the subspace claimed to be optimal.
    planes : iterable of ndarray, shape (d, k)
        Orthonormal bases of the competitors.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.diag([3.0, 2.0, 1.0])
    >>> e = np.eye(3)
    >>> no_plane_beats_the_candidate(X, e[:, :2], [e[:, 1:], e[:, ::2]])
    True
    >>> no_plane_beats_the_candidate(X, e[:, 1:], [e[:, :2]])
    False
    """
    import numpy as np

    def error(W):
        return np.linalg.norm(X - X @ W @ W.T, "fro") ** 2

    best = error(candidate)
    return all(error(W) >= best for W in planes)


def root_of_unity_differs_from_one(m: int, n) -> bool:
    r"""Whether :math:`q_m=e^{2\pi im/n}\ne1` for every admissible ``n``.

    :math:`q_m=1` exactly when the angle :math:`2\pi m/n` is a multiple of
    :math:`2\pi`; for :math:`m\ge1` it suffices that the angle lies strictly
    between :math:`0` and :math:`2\pi`, which sympy decides from the
    assumptions on the symbols in ``n`` (chapter 5, ch05-prop-circle).

    Parameters
    ----------
    m : int
    n : sympy expression
        The number of points, e.g. ``N + 3`` with ``N`` a non-negative
        integer symbol.

    Examples
    --------
    >>> import sympy as sp
    >>> N = sp.Symbol("N", integer=True, nonnegative=True)
    >>> root_of_unity_differs_from_one(2, N + 3)
    True
    >>> root_of_unity_differs_from_one(2, N + 2)  # n = 2 gives q_2 = 1
    False
    """
    import sympy

    angle = 2 * sympy.pi * m / n
    inside = (
        angle.is_positive and sympy.together(2 * sympy.pi - angle).is_positive
    )
    return bool(inside)


def residuals_are_non_increasing(X, mean, bases, tol: float = 1e-12) -> bool:
    r"""Whether every row's residual falls (weakly) along ``bases``.

    The residual of a point :math:`x` for an orthonormal basis :math:`W` is
    :math:`\lVert(I-WW^\top)(x-\bar x)\rVert^2`.  For nested subspaces, such
    as the spans of the first :math:`k` principal directions, it is
    non-increasing in :math:`k` for every point, in the sample or not
    (chapter 4, ch04-prop-residual-monotone); for subspaces that are not
    nested it need not be.

    Parameters
    ----------
    X : ndarray, shape (n, d)
        Points as rows.
    mean : ndarray, shape (d,)
    bases : sequence of ndarray, shape (d, k)
        Orthonormal bases, in the order of the sequence to test.
    tol : float, default 1e-12
        Allowed rise, relative to the largest squared norm of ``X - mean``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    >>> e = np.eye(3)
    >>> residuals_are_non_increasing(X, np.zeros(3), [e[:, :1], e[:, :2]])
    True
    >>> residuals_are_non_increasing(X, np.zeros(3), [e[:, :1], e[:, 1:2]])
    False
    """
    import numpy as np

    Y = np.asarray(X, dtype=float) - mean
    scale = np.max(np.sum(Y**2, axis=1))
    residuals = np.array(
        [np.sum((Y - Y @ W @ W.T) ** 2, axis=1) for W in bases]
    )
    return bool(np.all(np.diff(residuals, axis=0) <= tol * scale))
