r"""Kernel functions: the inner products of implicit feature maps.

A (valid) kernel is a function :math:`k(x, y) = \phi(x)^\top \phi(y)` for some
feature map :math:`\phi`.  Each function here takes data with the samples as
rows and returns the matrix of kernel values between the rows of ``X`` and the
rows of ``Y``; with ``Y=None`` it returns the kernel (Gram) matrix of ``X``
with itself, which is then exactly symmetric.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from ._validation import check_array, check_nonnegative_int, check_positive_float, check_real

__all__ = [
    "linear_kernel",
    "polynomial_kernel",
    "gaussian_kernel",
    "squared_distances",
    "KernelFunction",
    "make_kernel",
]

KernelFunction = Callable[[np.ndarray, Optional[np.ndarray]], np.ndarray]


def _pair(X, Y) -> tuple[np.ndarray, np.ndarray | None]:
    X = check_array(X, "X")
    if Y is None:
        return X, None
    Y = check_array(Y, "Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"Y has {Y.shape[1]} features but X has {X.shape[1]}: both must have the same number of columns"
        )
    return X, Y


def _gram(X: np.ndarray, Y: np.ndarray | None) -> np.ndarray:
    # X @ X.T is computed by a symmetric rank-k update, so the result is exactly symmetric.
    return X @ X.T if Y is None else X @ Y.T


def linear_kernel(X, Y=None) -> np.ndarray:
    r"""Linear kernel :math:`k(x, y) = x^\top y`.

    Parameters
    ----------
    X : array_like, shape (n_samples_X, n_features)
    Y : array_like, shape (n_samples_Y, n_features), optional
        Defaults to ``X``.

    Returns
    -------
    K : ndarray, shape (n_samples_X, n_samples_Y)
        :math:`K_{ij} = x_i^\top y_j`, i.e. ``X @ Y.T``.

    Examples
    --------
    >>> import numpy as np
    >>> linear_kernel(np.array([[1.0, 1.0], [2.0, 1.0]]))
    array([[2., 3.],
           [3., 5.]])
    """
    X, Y = _pair(X, Y)
    return _gram(X, Y)


def polynomial_kernel(X, Y=None, degree: int = 2, coef0: float = 1.0) -> np.ndarray:
    r"""Polynomial kernel :math:`k(x, y) = (c + x^\top y)^p`.

    With ``coef0`` :math:`c = 1` this is the kernel of the lecture notes, whose
    feature space has dimension :math:`\binom{p + d}{d}`.

    Parameters
    ----------
    X : array_like, shape (n_samples_X, n_features)
    Y : array_like, shape (n_samples_Y, n_features), optional
        Defaults to ``X``.
    degree : int, default 2
        The exponent :math:`p \ge 0`.
    coef0 : float, default 1.0
        The constant :math:`c`.

    Returns
    -------
    K : ndarray, shape (n_samples_X, n_samples_Y)

    Examples
    --------
    The two-point example of the IIT Madras notes:

    >>> import numpy as np
    >>> polynomial_kernel(np.array([[1.0, 1.0], [2.0, 1.0]]), degree=2)
    array([[ 9., 16.],
           [16., 36.]])
    """
    degree = check_nonnegative_int(degree, "degree")
    coef0 = check_real(coef0, "coef0")
    X, Y = _pair(X, Y)
    K = _gram(X, Y)
    K += coef0
    if degree != 1:
        np.power(K, degree, out=K)
    return K


def squared_distances(X, Y=None) -> np.ndarray:
    r"""Squared Euclidean distances :math:`\lVert x_i - y_j\rVert^2`.

    Computed as :math:`\lVert x\rVert^2 + \lVert y\rVert^2 - 2x^\top y` with
    BLAS, clipped at 0; with ``Y=None`` the result is exactly symmetric with a
    zero diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> squared_distances(np.array([[0.0, 0.0], [3.0, 4.0]]))
    array([[ 0., 25.],
           [25.,  0.]])
    """
    X, Y = _pair(X, Y)
    sq_x = np.einsum("ij,ij->i", X, X)
    sq_y = sq_x if Y is None else np.einsum("ij,ij->i", Y, Y)
    D = _gram(X, Y)
    D *= -2.0
    # Row blocks keep the extra memory small; adding the two norms to each other
    # first keeps D[i, j] and D[j, i] bitwise equal.
    step = max(1, 2**22 // max(1, D.shape[1]))
    for start in range(0, D.shape[0], step):
        block = slice(start, start + step)
        D[block] += sq_x[block, None] + sq_y[None, :]
    np.maximum(D, 0.0, out=D)
    if Y is None:
        np.fill_diagonal(D, 0.0)
    return D


def gaussian_kernel(X, Y=None, sigma: float = 1.0) -> np.ndarray:
    r"""Gaussian (RBF) kernel :math:`k(x, y) = \exp(-\lVert x - y\rVert^2 / (2\sigma^2))`.

    Parameters
    ----------
    X : array_like, shape (n_samples_X, n_features)
    Y : array_like, shape (n_samples_Y, n_features), optional
        Defaults to ``X``.
    sigma : float, default 1.0
        The width :math:`\sigma > 0` (scikit-learn's ``gamma`` is
        :math:`1/(2\sigma^2)`).

    Returns
    -------
    K : ndarray, shape (n_samples_X, n_samples_Y)
        Values in :math:`(0, 1]`, with ones on the diagonal when ``Y`` is None.

    Examples
    --------
    >>> import numpy as np
    >>> K = gaussian_kernel(np.array([[0.0], [1.0]]), sigma=1.0)
    >>> np.round(K, 4)
    array([[1.    , 0.6065],
           [0.6065, 1.    ]])
    """
    sigma = check_positive_float(sigma, "sigma")
    K = squared_distances(X, Y)
    K *= -1.0 / (2.0 * sigma * sigma)
    np.exp(K, out=K)
    return K


def make_kernel(
    kernel: str | KernelFunction,
    *,
    sigma: float = 1.0,
    degree: int = 2,
    coef0: float = 1.0,
) -> KernelFunction:
    """Return a function ``k(X, Y=None)`` for a kernel given by name or callable.

    ``kernel`` is ``"linear"``, ``"polynomial"``, ``"gaussian"`` or a callable
    ``k(X, Y)`` returning the ``(len(X), len(Y))`` matrix of kernel values.
    The parameters are validated here, once.

    Examples
    --------
    >>> import numpy as np
    >>> k = make_kernel("polynomial", degree=3, coef0=0.0)
    >>> k(np.array([[2.0]]), np.array([[1.0]]))
    array([[8.]])
    """
    if callable(kernel):
        def k(X, Y=None, _f=kernel):
            X, Y = _pair(X, Y)
            out = check_array(_f(X, X if Y is None else Y), "kernel(X, Y)")
            expected = (X.shape[0], (X if Y is None else Y).shape[0])
            if out.shape != expected:
                raise ValueError(f"the callable kernel returned shape {out.shape}, expected {expected}")
            return out
        return k
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be a string or a callable, got {kernel!r}")
    if kernel == "linear":
        return linear_kernel
    if kernel == "polynomial":
        degree = check_nonnegative_int(degree, "degree")
        coef0 = check_real(coef0, "coef0")
        return lambda X, Y=None: polynomial_kernel(X, Y, degree=degree, coef0=coef0)
    if kernel == "gaussian":
        sigma = check_positive_float(sigma, "sigma")
        return lambda X, Y=None: gaussian_kernel(X, Y, sigma=sigma)
    raise ValueError(
        f"kernel must be 'linear', 'polynomial', 'gaussian', 'precomputed' or a callable, got {kernel!r}"
    )
