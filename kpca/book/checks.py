"""Reusable checks of the book's claims.

A chapter's check cell calls a function of this module on the book's
formula; the test suite calls the same function on a deliberately wrong
formula and asserts that the check fails (a *negative control*), so that a
check that cannot fail is caught.  Each function returns what it measures
(a residual, an error, a rate), and the caller decides; none of them
asserts.

Each chapter developer keeps their functions in one block headed by a
comment naming the chapters.
"""

from __future__ import annotations

import numpy as np

# -- Chapters 10-14: limits of kernel PCA, MDS, kernel PCA at scale --------


def report(message: str, width: int = 60) -> None:
    """Print what a check verified, reflowed to ``width`` columns.

    Line breaks in ``message`` are ignored, so the output fits a phone's
    column (about 60 characters of code font) whatever the source layout.

    Examples
    --------
    >>> report("checked:   spaces    collapse")
    checked: spaces collapse
    """
    import textwrap

    print(textwrap.fill(" ".join(message.split()), width))


def double_centring_residual(scale=None):
    """``scale * H D H - (HX)(HX)^T`` for a symbolic number of points.

    ``D`` is the matrix of squared distances of the rows of ``X`` (``n``
    points in ``R^d``, with ``n`` and ``d`` symbolic), ``H`` the centring
    matrix.  The only fact used about the vector of ones is
    ``1^T 1 = n``.  The double-centring identity says that the residual is
    the zero matrix for ``scale = -1/2``.

    Parameters
    ----------
    scale : sympy expression, default ``-1/2``

    Returns
    -------
    sympy matrix expression
        The expanded and simplified residual (``ZeroMatrix(n, n)`` exactly
        when SymPy proves it zero).

    Examples
    --------
    >>> is_zero_matrix(double_centring_residual())
    True
    """
    import sympy as sp

    if scale is None:
        scale = sp.Rational(-1, 2)
    n, d = sp.symbols("n d", integer=True, positive=True)
    X = sp.MatrixSymbol("X", n, d)  # rows = points
    s = sp.MatrixSymbol("s", n, 1)  # s_i = ||x_i||^2
    ones = sp.MatrixSymbol(r"\mathbf{1}", n, 1)
    H = sp.Identity(n) - ones * ones.T / n
    D = s * ones.T + ones * s.T - 2 * X * X.T
    difference = sp.expand(scale * H * D * H - (H * X) * (H * X).T)
    difference = difference.subs(ones.T * ones, n * sp.Identity(1))
    return sp.simplify(sp.expand(difference))


def is_zero_matrix(expr) -> bool:
    """Whether SymPy reduced a matrix expression to a zero matrix.

    Examples
    --------
    >>> import sympy as sp
    >>> is_zero_matrix(sp.ZeroMatrix(2, 2)), is_zero_matrix(sp.Identity(2))
    (True, False)
    """
    import sympy as sp

    return isinstance(expr, sp.ZeroMatrix) or expr == sp.ZeroMatrix(
        *expr.shape
    )


def vanishes(expr, equal_products=()) -> bool:
    """Whether a SymPy matrix expression expands to zero.

    Parameters
    ----------
    expr : sympy matrix expression
    equal_products : sequence of (a, b)
        1 x 1 products that are equal although SymPy does not know it (such
        as ``s^T 1`` and ``1^T s``); each ``a`` is replaced by ``b`` before
        the final expansion.

    Examples
    --------
    >>> import sympy as sp
    >>> A = sp.MatrixSymbol("A", 3, 3)
    >>> vanishes(A * sp.Identity(3) - A), vanishes(A.T - A)
    (True, False)
    """
    import sympy as sp

    expr = sp.expand(expr.doit()).doit()
    for a, b in equal_products:
        expr = sp.expand(expr.subs(a, b)).doit()
    return expr == 0 or isinstance(expr, sp.ZeroMatrix)


def gaussian_expansion_residual(second_order):
    """``exp(-t/(2 sigma^2))`` to order ``sigma^-4`` minus a claimed form.

    Returns the simplified difference between SymPy's series at
    ``sigma -> oo`` (truncated) and ``second_order``, an expression in the
    symbols ``t`` and ``sigma`` (both positive); 0 when the claim is right.

    Examples
    --------
    >>> import sympy as sp
    >>> t, s = sp.symbols("t sigma", positive=True)
    >>> gaussian_expansion_residual(1 - t / (2 * s**2) + t**2 / (8 * s**4))
    0
    """
    import sympy as sp

    t, s = sp.symbols("t sigma", positive=True)
    expansion = sp.series(sp.exp(-t / (2 * s**2)), s, sp.oo, n=5)
    return sp.simplify(expansion.removeO() - second_order)


def rff_variance_residual(variance):
    """Monte-Carlo-free check of the random-feature variance for ``d = 1``.

    Integrates ``(2 cos(w x + b) cos(w y + b))^2`` over the phase ``b``
    (uniform on ``[0, 2 pi)``) and the frequency ``w ~ N(0, 1/sigma^2)``,
    subtracts the squared mean ``k^2``, and returns the difference with
    ``variance``, an expression in ``k = exp(-delta^2 / (2 sigma^2))``
    given as a function of the SymPy symbol ``k``.  Zero (after
    simplification) when ``variance`` is the variance of one feature
    product.

    Examples
    --------
    >>> rff_variance_residual(lambda k: 1 + k**4 / 2 - k**2)
    0
    """
    import sympy as sp

    w, b, delta = sp.symbols("omega b delta", real=True)
    s = sp.symbols("sigma", positive=True)
    kk = sp.Symbol("k", positive=True)
    # zeta(x) zeta(y) = 2 cos(w x + b) cos(w y + b), with y = 0, x = delta
    product = 2 * sp.cos(w * delta + b) * sp.cos(b)
    second_moment_b = sp.integrate(
        sp.expand(sp.expand_trig(product**2)), (b, 0, 2 * sp.pi)
    ) / (2 * sp.pi)
    density = sp.exp(-(w**2) * s**2 / 2) * s / sp.sqrt(2 * sp.pi)
    second_moment = sp.integrate(
        sp.simplify(second_moment_b) * density, (w, -sp.oo, sp.oo)
    )
    k_value = sp.exp(-(delta**2) / (2 * s**2))
    claimed = variance(kk).subs(kk, k_value)
    return sp.simplify(second_moment - k_value**2 - claimed)


def gittens_failure_rate(
    U1, m, bound, n_draws=2000, random_state=0
) -> tuple[float, float]:
    """How often ``||Omega_1^+||_2^2`` exceeds ``bound`` over uniform draws.

    ``U1`` is the ``n x k`` matrix of the top ``k`` eigenvectors of ``K``;
    each draw selects ``m`` of the ``n`` rows uniformly without
    replacement, ``Omega_1 = U1[rows].T``, and compares
    ``||Omega_1^+||_2^2 = 1 / s_min(Omega_1)^2`` with ``bound``.

    Returns
    -------
    (rate, largest) : the fraction of draws above ``bound`` and the largest
        value of ``||Omega_1^+||_2^2`` seen.

    Examples
    --------
    With all the rows, ``Omega_1`` has orthonormal rows and the norm is 1:

    >>> import numpy as np
    >>> U1 = np.linalg.qr(np.random.default_rng(0).normal(size=(20, 2)))[0]
    >>> rate, largest = gittens_failure_rate(U1, 20, 1.5, n_draws=3)
    >>> rate, round(largest, 6)
    (0.0, 1.0)
    """
    rng = np.random.default_rng(random_state)
    n, k = U1.shape
    values = np.empty(n_draws)
    for i in range(n_draws):
        rows = rng.choice(n, size=m, replace=False)
        s_min = np.linalg.svd(U1[rows], compute_uv=False)[k - 1]
        values[i] = np.inf if s_min == 0 else 1.0 / s_min**2
    return float(np.mean(values > bound)), float(values.max())


def loglog_slope(sizes, values) -> float:
    """Least-squares slope of ``log(values)`` against ``log(sizes)``.

    Examples
    --------
    >>> round(loglog_slope([10, 20, 40], [3, 12, 48]), 6)
    2.0
    """
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])


def loewner_gap(A, B) -> float:
    """Smallest eigenvalue of ``A - B`` over the largest of ``A``.

    Non-negative (up to round-off) exactly when ``B`` lies below ``A`` in the
    Loewner order, ``B <= A``.

    Examples
    --------
    >>> import numpy as np
    >>> loewner_gap(np.eye(2), np.diag([0.5, 1.0])), loewner_gap(np.eye(2), 2 * np.eye(2))
    (0.0, -1.0)
    """
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    return float(np.linalg.eigvalsh(A - B)[0] / np.linalg.eigvalsh(A)[-1])


def charpoly_identity_residual(D: int, N: int, extra_power: int = 0):
    """``lambda^(D + extra) p_G - lambda^N p_C`` for a symbolic D x N matrix.

    ``p_G`` and ``p_C`` are the characteristic polynomials of ``X^T X``
    (N x N) and ``X X^T`` (D x D) for a matrix ``X`` of independent symbols;
    the theorem says that the expanded residual is 0 for ``extra = 0``.
    An instance check: one pair of sizes, every entry symbolic.

    Examples
    --------
    >>> charpoly_identity_residual(2, 3), charpoly_identity_residual(2, 3, 1) == 0
    (0, False)
    """
    import sympy as sp

    from kpca.book.symbolic import symbol_matrix

    lam = sp.Symbol("lambda")
    X = symbol_matrix("x", D, N)
    p_G = (lam * sp.eye(N) - X.T * X).det()
    p_C = (lam * sp.eye(D) - X * X.T).det()
    return sp.expand(lam ** (D + extra_power) * p_G - lam**N * p_C)


def mds_reconstruction_error(D, coordinates) -> float:
    """Largest error of the distances between the rows of ``coordinates``.

    The largest absolute difference from the table ``D``, divided by the
    largest entry of ``D``.

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[0.0, 2.0], [2.0, 0.0]])
    >>> mds_reconstruction_error(D, np.array([[0.0], [2.0]]))
    0.0
    """
    diff = coordinates[:, None, :] - coordinates[None, :, :]
    fitted = np.sqrt(np.sum(diff**2, axis=-1))
    return float(np.abs(fitted - D).max() / np.abs(D).max())


# -- end of chapters 10-14 -------------------------------------------------
