r"""Explicit feature maps :math:`\phi` behind the kernels of :mod:`kpca.kernels`.

They exist to *check* the kernel trick — :math:`\phi(x)^\top\phi(y) = k(x, y)`
— and to show how fast the feature dimension grows; kernel PCA itself never
forms them.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ._validation import check_array, check_nonnegative_int, check_real
from .kernels import check_sigma

__all__ = [
    "polynomial_exponents",
    "polynomial_feature_map",
    "gaussian_feature_map_1d",
]


def polynomial_exponents(
    n_features: int, degree: int
) -> list[tuple[int, ...]]:
    r"""Exponent tuples :math:`(p_0, p_1, \dots, p_d)` with :math:`\sum_i p_i = p`.

    :math:`p_0` is the power of the constant; the tuples are in graded order
    (by :math:`p_1 + \dots + p_d`, then lexicographically decreasing).  There
    are :math:`\binom{p+d}{d}` of them: one per feature of the polynomial kernel.

    Parameters
    ----------
    n_features : int
        The dimension :math:`d`.
    degree : int
        The degree :math:`p`.

    Returns
    -------
    list of tuple of int
        Tuples of length :math:`d + 1`, found in :math:`O(D\,d)` steps for
        :math:`D` tuples (multisets of variables, never all
        :math:`(p+1)^d` candidate tuples).

    Examples
    --------
    >>> polynomial_exponents(2, 2)
    [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1), (0, 0, 2)]
    """
    d = check_nonnegative_int(n_features, "n_features")
    p = check_nonnegative_int(degree, "degree")
    tuples = []
    for total in range(p + 1):
        # Multisets of `total` variables, in lexicographic order of the
        # variable indices: that is decreasing lexicographic order of the
        # powers, and the loop does one step per feature, never more.
        for variables in itertools.combinations_with_replacement(
            range(d), total
        ):
            powers = [0] * d
            for j in variables:
                powers[j] += 1
            tuples.append((p - total, *powers))
    return tuples


def polynomial_feature_map(
    X, degree: int = 2, coef0: float = 1.0
) -> np.ndarray:
    r"""Feature map of the polynomial kernel :math:`(c + x^\top y)^p`.

    Each exponent tuple :math:`(p_0, \dots, p_d)` of :func:`polynomial_exponents`
    gives the feature

    .. math::

        \sqrt{\binom{p}{p_0, p_1, \dots, p_d}\, c^{p_0}}\; x_1^{p_1}\cdots x_d^{p_d},

    so that, by the multinomial theorem, :math:`\phi(x)^\top\phi(y) = (c + x^\top y)^p`.

    Parameters
    ----------
    X : array_like, shape (n_samples, d)
    degree : int, default 2
    coef0 : float, default 1.0
        Must be :math:`\ge 0` (otherwise no real feature map exists).

    Returns
    -------
    ndarray, shape (n_samples, D) with :math:`D = \binom{p+d}{d}`

    Examples
    --------
    >>> import numpy as np
    >>> phi = polynomial_feature_map(np.array([[1.0, 1.0], [2.0, 1.0]]))
    >>> phi @ phi.T
    array([[ 9., 16.],
           [16., 36.]])
    """
    X = check_array(X, "X")
    p = check_nonnegative_int(degree, "degree")
    c = check_real(coef0, "coef0")
    if c < 0:
        raise ValueError(f"coef0 must be >= 0 for a real feature map, got {c}")
    columns = []
    # NumPy's float powers give inf where Python's raise OverflowError; any
    # inf or NaN is then reported below, naming what to change.
    with np.errstate(over="ignore", invalid="ignore"):
        for powers in polynomial_exponents(X.shape[1], p):
            p0, rest = powers[0], powers[1:]
            weight = math.factorial(p) / math.prod(
                math.factorial(q) for q in powers
            )
            # sqrt(c)^p0 rather than sqrt(c^p0): no overflow in between.
            factor = math.sqrt(weight) * np.float64(math.sqrt(c)) ** p0
            columns.append(factor * np.prod(X ** np.array(rest), axis=1))
        phi = np.column_stack(columns)
    if not np.all(np.isfinite(phi)):
        raise ValueError(
            f"the features of degree={p} overflow float64 (coef0={c!r}, "
            f"largest |x| = {float(np.max(np.abs(X))):.3g}): scale X, or "
            "lower coef0 or degree"
        )
    return phi


def gaussian_feature_map_1d(
    x, sigma: float = 1.0, n_terms: int = 10
) -> np.ndarray:
    r"""First ``n_terms`` coordinates of a feature map of the 1-D Gaussian kernel.

    .. math::

        \phi_j(x) = e^{-x^2/(2\sigma^2)}\,\frac{x^j}{\sigma^j\sqrt{j!}},
        \qquad j = 0, 1, 2, \dots

    Since :math:`e^{xy/\sigma^2} = \sum_j (xy/\sigma^2)^j / j!`, the full
    (infinite) map satisfies :math:`\phi(x)^\top\phi(y) = e^{-(x-y)^2/(2\sigma^2)}`;
    the truncation converges to it as ``n_terms`` grows.

    Parameters
    ----------
    x : array_like, shape (n,)
    sigma : float
    n_terms : int

    Returns
    -------
    ndarray, shape (n, n_terms)

    Examples
    --------
    >>> import numpy as np
    >>> phi = gaussian_feature_map_1d(np.array([0.0, 1.0]), n_terms=20)
    >>> round(float(phi[0] @ phi[1]), 6), round(float(np.exp(-0.5)), 6)
    (0.606531, 0.606531)
    """
    x = check_array(x, "x", ndim=1)
    sigma = check_sigma(sigma)
    J = check_nonnegative_int(n_terms, "n_terms")
    j = np.arange(J)
    log_fact = np.array([math.lgamma(i + 1) for i in j])
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        u = x[:, None] / sigma
        # x^j / sqrt(j!) computed in logs would lose the sign, so scale the power directly.
        powers = u ** j[None, :] / np.exp(0.5 * log_fact)[None, :]
        phi = np.exp(-(x**2) / (2 * sigma**2))[:, None] * powers
    if not np.all(np.isfinite(phi)):
        raise ValueError(
            f"the first {J} features overflow float64 (largest |x| / sigma "
            f"= {float(np.max(np.abs(u))):.3g}): scale x, increase sigma or "
            "lower n_terms"
        )
    return phi
