"""Checks of the book's claims, shared by the chapters and the test suite.

A chapter's folded check cell calls one of these functions on the book's
formula; the test suite calls the same function on a deliberately wrong
formula and asserts that it fails (a *negative control*), so that no check
can silently become true by construction.

Every function returns what it measures: a plain ``bool``, or a number (a
residual, an error, a rate) to compare with a bound; the assert stays in the
caller, where the reader sees it. The functions are grouped by the chapters
that use them, one block per group of chapters.
"""

from __future__ import annotations

import numpy as np

# -----------------------------------------------------------------------------
# Notebooks ch06-ch09 (feature maps, kernels, kernel PCA, centring)
# -----------------------------------------------------------------------------


def expands_to_zero(expr) -> bool:
    """Whether sympy expands ``expr`` (a scalar or a matrix) to zero.

    For polynomials in symbols this decides the identity ``expr = 0``: the
    expansion collects every monomial, so a single wrong coefficient or a
    missing term leaves a non-zero result.

    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> expands_to_zero((x + y) ** 2 - x**2 - 2 * x * y - y**2)
    True
    >>> expands_to_zero((x + y) ** 2 - x**2 - y**2)
    False
    """
    import sympy as sp

    if isinstance(expr, sp.MatrixBase):
        return all(sp.expand(entry) == 0 for entry in expr)
    return sp.expand(expr) == 0


def is_zero_matrix(expr) -> bool:
    """Whether a matrix expression of symbolic size simplifies to zero.

    ``expr`` is built from ``sympy.MatrixSymbol`` objects (sizes may be
    symbols); it is expanded and simplified, and the result must be a
    ``ZeroMatrix``.  Used for the centring identities of ch09.

    >>> import sympy as sp
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> A = sp.MatrixSymbol("A", n, n)
    >>> is_zero_matrix(A + A - 2 * A), is_zero_matrix(A * A - A)
    (True, False)
    """
    import sympy as sp

    result = sp.simplify(sp.expand(expr))
    return isinstance(result, sp.ZeroMatrix) or result == 0


def kernel_has_feature_map(kernel, feature_map, x, y) -> bool:
    """Whether ``kernel`` equals the dot product of the feature maps.

    ``kernel`` is a sympy expression in the symbol vectors ``x`` and ``y``;
    ``feature_map`` maps a symbol vector to a sympy column vector.

    >>> import sympy as sp
    >>> x, y = sp.Matrix(sp.symbols("x1 x2")), sp.Matrix(sp.symbols("y1 y2"))
    >>> def phi(z):
    ...     return sp.Matrix([z[0] ** 2, sp.sqrt(2) * z[0] * z[1], z[1] ** 2])
    >>> kernel_has_feature_map(x.dot(y) ** 2, phi, x, y)
    True
    """
    return expands_to_zero(kernel - feature_map(x).dot(feature_map(y)))


def kernel_is_invariant(kernel, transform, x, y) -> bool:
    """Whether ``kernel(Q x, Q y) = kernel(x, y)`` for the matrix ``Q``.

    ``kernel`` maps two symbol vectors to a sympy expression, ``transform``
    is a sympy matrix whose entries may be symbolic (e.g. a rotation by a
    symbolic angle); the difference is simplified, so trigonometric
    identities such as cos^2 + sin^2 = 1 are used.

    >>> import sympy as sp
    >>> t = sp.Symbol("t", real=True)
    >>> Q = sp.Matrix([[sp.cos(t), -sp.sin(t)], [sp.sin(t), sp.cos(t)]])
    >>> x, y = sp.Matrix(sp.symbols("x1 x2")), sp.Matrix(sp.symbols("y1 y2"))
    >>> kernel_is_invariant(lambda a, b: (1 + a.dot(b)) ** 2, Q, x, y)
    True
    >>> kernel_is_invariant(lambda a, b: a[0] * b[0], Q, x, y)
    False
    """
    import sympy as sp

    difference = kernel(transform * x, transform * y) - kernel(x, y)
    return sp.simplify(sp.expand(difference)) == 0


def feature_series_sums_to(feature, index, kernel, x, y) -> bool:
    """Whether ``sum_{index >= 0} feature(x) feature(y)`` equals ``kernel``.

    ``feature(t)`` is the ``index``-th coordinate of a feature map, a sympy
    expression in ``t`` and the integer symbol ``index``; sympy sums the
    series in closed form and simplifies the difference from ``kernel``.

    >>> import sympy as sp
    >>> x, y = sp.symbols("x y", real=True)
    >>> j = sp.Symbol("j", integer=True, nonnegative=True)
    >>> def phi(t):
    ...     return t**j / sp.sqrt(sp.factorial(j))
    >>> feature_series_sums_to(phi, j, sp.exp(x * y), x, y)
    True
    >>> feature_series_sums_to(lambda t: t**j / sp.factorial(j), j,
    ...                        sp.exp(x * y), x, y)
    False
    """
    import sympy as sp

    total = sp.Sum(feature(x) * feature(y), (index, 0, sp.oo)).doit()
    return sp.simplify(total - kernel) == 0


def normalising_scale(eigenvalue):
    """Scale t of ``alpha = t v`` that makes ``u = Phi_c alpha`` a unit vector.

    The derivation of ch08, eq-ch08-li-norm, for matrix symbols of
    symbolic size: ``Phi_c`` is ``D x n``, ``K_c = Phi_c^T Phi_c``, and ``v``
    a unit eigenvector with ``K_c v = eigenvalue * v``.  Sympy expands
    ``u^T u = t^2 v^T K_c v``, substitutes the two relations and solves
    ``u^T u = 1`` for ``t > 0``.  Returns ``(u^T u, ||alpha||^2, [t])``.

    >>> import sympy as sp
    >>> mu = sp.Symbol("mu", positive=True)
    >>> normalising_scale(mu)[2] == [1 / sp.sqrt(mu)]
    True
    """
    import sympy as sp

    n, D = sp.symbols("n D", integer=True, positive=True)
    t = sp.Symbol("t", positive=True)
    Phi = sp.MatrixSymbol("Phi_c", D, n)
    K = sp.MatrixSymbol("K_c", n, n)
    v = sp.MatrixSymbol("v", n, 1)
    alpha = t * v
    u = Phi * alpha
    u_norm2 = (u.T * u).subs(Phi.T * Phi, K)  # alpha^T K_c alpha
    u_norm2 = u_norm2.subs(K * v, eigenvalue * v)  # K_c v = mu v
    u_norm2 = u_norm2.subs(v.T * v, sp.Identity(1))[0, 0]  # v^T v = 1
    alpha_norm2 = (alpha.T * alpha).subs(v.T * v, sp.Identity(1))[0, 0]
    return u_norm2, alpha_norm2, sp.solve(sp.Eq(u_norm2, 1), t)


def gap_in_words(a, b, tol: float = 1e-10, *, up_to_sign: bool = False) -> str:
    """How far apart two arrays are, in words that round-off does not change.

    The gap is the largest entrywise difference relative to the largest
    entry of ``b``.  Below ``tol`` the answer is ``"equal to <tol>"``, a
    bound, so that another CPU or BLAS prints the same; above it the gap
    itself, to two digits.  With ``up_to_sign`` each column of ``a`` is
    first given the sign that matches it best with the same column of ``b``
    (eigenvectors and scores are defined up to sign).

    >>> import numpy as np
    >>> gap_in_words(np.eye(2), np.eye(2) + 1e-14)
    'equal to 1e-10'
    >>> gap_in_words(np.eye(2), np.eye(2) + 1e-14, 1e-9)
    'equal to 1e-9'
    >>> gap_in_words(-np.eye(2), np.eye(2), up_to_sign=True)
    'equal to 1e-10'
    >>> gap_in_words(np.zeros(2), np.ones(2))
    'differ by 1 (relative)'
    """
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if up_to_sign:
        signs = np.sign(np.sum(a * b, axis=0))
        a = a * np.where(signs == 0, 1.0, signs)
    gap = float(np.abs(a - b).max() / max(float(np.abs(b).max()), 1e-300))
    if gap < tol:
        return "equal to " + f"{tol:.0e}".replace("e-0", "e-")
    return f"differ by {gap:.2g} (relative)"


def max_subspace_angle(A, B) -> float:
    """Largest principal angle, in radians, between the column spans of A, B.

    >>> import numpy as np
    >>> float(max_subspace_angle(np.eye(3)[:, :2], np.eye(3)[:, [1, 0]]))
    0.0
    """
    import numpy as np
    from scipy.linalg import subspace_angles

    return float(np.max(subspace_angles(np.asarray(A), np.asarray(B))))


def column_permutation(A, B, atol: float = 1e-10):
    """The permutation ``p`` with ``A[:, p] == B`` (to ``atol``), or None.

    Used to compare a feature map printed in one order of its features with
    an implementation that lists them in another.

    >>> import numpy as np
    >>> A = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> column_permutation(A, A[:, [2, 0, 1]])
    [2, 0, 1]
    >>> column_permutation(A, 2 * A) is None
    True
    """
    import numpy as np

    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    if A.shape != B.shape:
        return None
    perm = []
    for column in B.T:
        gaps = np.abs(A - column[:, None]).max(axis=0)
        best = int(np.argmin(gaps))
        if gaps[best] > atol or best in perm:
            return None
        perm.append(best)
    return perm


# --- end of the notebooks ch06-ch09 ------------------------------------------

# -- Notebooks ch10-ch14: limits of kernel PCA, MDS, kernel PCA at scale ------


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


# -- end of the notebooks ch10-ch14 -------------------------------------------

# --- Notebooks ch01-ch05 (PCA, its derivations, its uses, the Gram matrix) ---


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
    two rotated coordinates (ch01, eq-ch01-two-routes).  The identity
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
    :math:`p = q` (ch02, eq-ch02-unit-variance).

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
    is :math:`\lVert X - XWW^\top\rVert_F^2` (ch03,
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
    assumptions on the symbols in ``n`` (ch05, ch05-prop-circle).

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
    (ch04, ch04-prop-residual-monotone); for subspaces that are not
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
