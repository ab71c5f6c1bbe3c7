"""Checks of the book's claims, shared by the chapters and the test suite.

A chapter's folded check cell calls one of these functions on the book's
formula; the test suite calls the same function on a deliberately wrong
formula and asserts that it fails (a *negative control*), so that no check
can silently become true by construction.

Every function returns a plain ``bool`` (or a number to compare with a
bound); the assert stays in the caller, where the reader sees it.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------
# Chapters 6-9 (feature maps, kernels, kernel PCA, centring in feature space)
# ---------------------------------------------------------------------------


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
    ``ZeroMatrix``.  Used for the centring identities of chapter 9.

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
    """Whether ``kernel`` equals ``feature_map(x) . feature_map(y)``.

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

    The derivation of chapter 8, eq-ch08-li-norm, for matrix symbols of
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


# --- end of chapters 6-9 ---
