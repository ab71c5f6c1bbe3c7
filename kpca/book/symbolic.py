r"""Symbolic helpers (sympy) for proving the notes' algebraic claims.

sympy is imported lazily, inside each function, so ``import kpca`` stays fast.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from .._validation import check_nonnegative_int
from ..feature_maps import polynomial_exponents

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = [
    "symbol_vector",
    "symbol_matrix",
    "polynomial_kernel_expr",
    "polynomial_feature_vector",
    "monomials_of_polynomial_kernel",
    "count_polynomial_features",
    "stars_and_bars",
    "all_stars_and_bars",
    "centering_matrix_sym",
]


def symbol_vector(name: str, d: int) -> sympy.Matrix:
    """Column vector of the real symbols ``name1``, ..., ``name{d}``.

    Parameters
    ----------
    name : str
        Stem of the symbols' names.
    d : int
        Number of entries.

    Returns
    -------
    sympy.Matrix, shape (d, 1)

    Examples
    --------
    >>> symbol_vector("x", 2)
    Matrix([
    [x1],
    [x2]])
    """
    import sympy

    d = check_nonnegative_int(d, "d")
    return sympy.Matrix(sympy.symbols(f"{name}1:{d + 1}", real=True))


def symbol_matrix(name: str, rows: int, cols: int) -> sympy.Matrix:
    """Matrix of real symbols ``name_{ij}`` (1-based indices).

    Parameters
    ----------
    name : str
        Stem of the symbols' names.
    rows, cols : int
        Shape of the matrix.

    Returns
    -------
    sympy.Matrix, shape (rows, cols)

    Examples
    --------
    >>> symbol_matrix("a", 2, 2)
    Matrix([
    [a_11, a_12],
    [a_21, a_22]])
    """
    import sympy

    rows = check_nonnegative_int(rows, "rows")
    cols = check_nonnegative_int(cols, "cols")
    return sympy.Matrix(
        rows,
        cols,
        lambda i, j: sympy.Symbol(f"{name}_{i + 1}{j + 1}", real=True),
    )


def polynomial_kernel_expr(
    x: sympy.Matrix, y: sympy.Matrix, degree: int = 2, coef0=1
) -> sympy.Expr:
    r"""The expression :math:`(c + x^\top y)^p` (not expanded).

    Parameters
    ----------
    x, y : sympy.Matrix, shape (d, 1)
        Column vectors, e.g. from :func:`symbol_vector`.
    degree : int, default 2
        The exponent :math:`p`.
    coef0 : sympy expression or number, default 1
        The constant :math:`c`.

    Returns
    -------
    sympy.Expr

    Examples
    --------
    >>> x, y = symbol_vector("x", 2), symbol_vector("y", 2)
    >>> polynomial_kernel_expr(x, y, 2)
    (x1*y1 + x2*y2 + 1)**2
    """
    degree = check_nonnegative_int(degree, "degree")
    return (coef0 + (x.T * y)[0, 0]) ** degree


def polynomial_feature_vector(
    x: sympy.Matrix, degree: int = 2, coef0=1
) -> sympy.Matrix:
    r"""Symbolic feature map of :math:`(c + x^\top y)^p`, multinomial weights included.

    Same feature order as :func:`kpca.feature_maps.polynomial_feature_map`.

    Parameters
    ----------
    x : sympy.Matrix, shape (d, 1)
        A column vector of symbols.
    degree : int, default 2
        The exponent :math:`p`.
    coef0 : sympy expression or number, default 1
        The constant :math:`c \ge 0`.

    Returns
    -------
    sympy.Matrix, shape (D, 1)
        :math:`\phi(x)` with :math:`D = \binom{p+d}{d}` entries, so that
        :math:`\phi(x)^\top\phi(y) = (c + x^\top y)^p`.

    Examples
    --------
    >>> import sympy
    >>> x = symbol_vector("x", 2)
    >>> polynomial_feature_vector(x, 2).T
    Matrix([[1, sqrt(2)*x1, sqrt(2)*x2, x1**2, sqrt(2)*x1*x2, x2**2]])
    """
    import sympy

    degree = check_nonnegative_int(degree, "degree")
    entries = []
    for powers in polynomial_exponents(len(x), degree):
        weight = sympy.Integer(math.factorial(degree)) / math.prod(
            math.factorial(q) for q in powers
        )
        monomial = sympy.Mul(
            *[xi**q for xi, q in zip(x, powers[1:], strict=True)]
        )
        entries.append(
            sympy.sqrt(weight * sympy.sympify(coef0) ** powers[0]) * monomial
        )
    return sympy.Matrix(entries)


def monomials_of_polynomial_kernel(d: int, degree: int) -> list:
    r"""Distinct monomials in :math:`x` of the expansion of :math:`(1 + x^\top y)^p`.

    Parameters
    ----------
    d : int
        Dimension of :math:`x` and :math:`y`.
    degree : int
        The exponent :math:`p`.

    Returns
    -------
    list of sympy.Expr
        One monomial :math:`x_1^{p_1}\cdots x_d^{p_d}` per feature of the
        kernel, in sympy's order.

    Examples
    --------
    >>> monomials_of_polynomial_kernel(1, 2)
    [x1**2, x1, 1]
    """
    import sympy

    x, y = symbol_vector("x", d), symbol_vector("y", d)
    expanded = sympy.expand(polynomial_kernel_expr(x, y, degree))
    return [
        sympy.Mul(*[g**e for g, e in zip(x, m[:d], strict=True)])
        for m in sympy.Poly(expanded, *x).monoms()
    ]


def count_polynomial_features(d: int, degree: int) -> int:
    r"""Number of distinct monomials in :math:`(1 + x^\top y)^p`, counted from the expansion.

    This is the feature dimension :math:`D`; it equals :math:`\binom{p+d}{d}`.

    Parameters
    ----------
    d : int
        Dimension of the data.
    degree : int
        The exponent :math:`p`.

    Returns
    -------
    int

    Examples
    --------
    >>> [count_polynomial_features(d, p) for d, p in [(2, 2), (3, 2), (2, 5), (3, 6)]]
    [6, 10, 21, 84]
    """
    return len(monomials_of_polynomial_kernel(d, degree))


def stars_and_bars(exponents) -> str:
    r"""Draw an exponent tuple :math:`(p_0, \dots, p_d)` as balls ``o`` and sticks ``/``.

    Parameters
    ----------
    exponents : sequence of int
        :math:`(p_0, \dots, p_d)`, each :math:`\ge 0`.

    Returns
    -------
    str
        :math:`p_0` balls, a stick, :math:`p_1` balls, ..., :math:`p_d` balls.

    Examples
    --------
    >>> stars_and_bars((1, 2, 0, 3))
    'o/oo//ooo'
    """
    counts = [check_nonnegative_int(e, "exponents") for e in exponents]
    return "/".join("o" * c for c in counts)


def all_stars_and_bars(d: int, degree: int) -> list[str]:
    r"""Every arrangement of ``degree`` balls and ``d`` sticks (there are :math:`\binom{p+d}{d}`).

    Parameters
    ----------
    d : int
        Number of sticks (the dimension).
    degree : int
        Number of balls :math:`p`.

    Returns
    -------
    list of str
        The drawings, in the graded order of
        :func:`kpca.feature_maps.polynomial_exponents`.

    Examples
    --------
    >>> all_stars_and_bars(1, 2)
    ['oo/', 'o/o', '/oo']
    """
    d = check_nonnegative_int(d, "d")
    p = check_nonnegative_int(degree, "degree")
    out = []
    for sticks in itertools.combinations(range(p + d), d):
        out.append("".join("/" if i in sticks else "o" for i in range(p + d)))
    return sorted(out, key=lambda s: [c == "/" for c in s])


def centering_matrix_sym(n: int) -> sympy.Matrix:
    r"""Exact :math:`H = I_n - \frac1n\mathbf 1\mathbf 1^\top` with rational entries.

    Parameters
    ----------
    n : int
        Size.

    Returns
    -------
    sympy.Matrix, shape (n, n)

    Examples
    --------
    >>> centering_matrix_sym(2)
    Matrix([
    [ 1/2, -1/2],
    [-1/2,  1/2]])
    """
    import sympy

    n = check_nonnegative_int(n, "n")
    return sympy.eye(n) - sympy.ones(n, n) / n
