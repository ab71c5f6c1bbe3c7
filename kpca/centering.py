r"""Centring in feature space, done on kernel matrices.

With :math:`\mathbf 1_n = \frac1n \mathbf 1\mathbf 1^\top` and
:math:`H = I_n - \mathbf 1_n`, the kernel matrix of the centred feature vectors
:math:`\phi(x_i) - \frac1n\sum_l \phi(x_l)` is

.. math::

    K_c = K - \mathbf 1_n K - K \mathbf 1_n + \mathbf 1_n K \mathbf 1_n = H K H,

so the mean in feature space never has to be formed.
"""

from __future__ import annotations

import numpy as np

from ._packed import PackedSymmetric
from ._threads import rows_times
from ._validation import (
    _BLOCK_ENTRIES,
    check_array,
    check_positive_int,
    check_square,
    check_symmetric,
)

__all__ = ["center_kernel", "center_test_kernel", "centering_matrix"]

# The two functions with a leading underscore are internal: kernel PCA, MDS
# and the pre-image module share them to centre in place (one n x n array
# alive) and to centre new kernel rows with stored training means.


def centering_matrix(n: int) -> np.ndarray:
    r"""The centring matrix :math:`H = I_n - \frac1n \mathbf 1 \mathbf 1^\top`.

    Parameters
    ----------
    n : int
        Size, at least 1.

    Returns
    -------
    H : ndarray, shape (n, n)
        Symmetric and idempotent (:math:`H^2 = H`), with :math:`H\mathbf 1 = 0`.

    Examples
    --------
    >>> centering_matrix(2)
    array([[ 0.5, -0.5],
           [-0.5,  0.5]])
    """
    n = check_positive_int(n, "n")
    return np.eye(n) - np.full((n, n), 1.0 / n)


def _center_kernel_inplace(
    K: np.ndarray, symmetric: bool = False
) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre the square ``K`` in place; return it, its column means and grand mean.

    With ``symmetric=True`` (the caller guarantees ``K == K.T``) the row means
    are the column means and the result is again exactly symmetric.
    """
    col_means = K.mean(axis=0)
    row_means = col_means if symmetric else K.mean(axis=1)
    grand_mean = float(col_means.mean())
    _subtract_means_inplace(K, row_means, col_means, grand_mean)
    return K, col_means, grand_mean


def _subtract_means_inplace(
    K: np.ndarray,
    row_means: np.ndarray,
    col_means: np.ndarray,
    grand_mean: float,
) -> None:
    """``K_ij -= r_i + c_j - g`` in one pass, a block of rows at a time."""
    n = K.shape[1]
    step = max(1, _BLOCK_ENTRIES // max(n, 1))
    for start in range(0, K.shape[0], step):
        block = slice(start, start + step)
        shift = row_means[block, None] + col_means[None, :]
        shift -= grand_mean
        K[block] -= shift


class _CentredKernel:
    r"""The centred kernel matrix :math:`HKH` as an operator, never formed.

    :math:`X^\top HKH = X^\top K - (X^\top \mathbf 1)\, c^\top
    - (X^\top c)\,\mathbf 1^\top + g\,(X^\top \mathbf 1)\,\mathbf 1^\top`
    for the symmetric :math:`K` with column means :math:`c` and grand mean
    :math:`g`: a product with the centred matrix costs one product with
    :math:`K` plus :math:`O(n)` per vector, and no pass over :math:`K` is spent
    on centring it.  Internal to kpca: the iterative eigensolvers take it like
    a matrix, ``Xt @ op`` for vectors as the rows of ``Xt`` (the orientation
    in which BLAS streams :math:`K` with the least work space), ``op @ X``
    for vectors as columns, and ``op @ x`` for one vector.
    """

    # NumPy must hand `Xt @ op` to __rmatmul__ instead of converting `op`.
    __array_ufunc__ = None

    def __init__(self, K: np.ndarray | PackedSymmetric) -> None:
        self._K: np.ndarray | PackedSymmetric | None = K
        # The column means are found in the first product (one more vector
        # in it), not by a pass over K of their own.
        self._col_means: np.ndarray | None = None
        self.shape = K.shape
        self.dtype = K.dtype

    def _matrix(self) -> np.ndarray | PackedSymmetric:
        if self._K is None:
            raise RuntimeError(
                "the operator was materialized: its matrix is gone"
            )
        return self._K

    @property
    def col_means(self) -> np.ndarray:
        if self._col_means is None:
            K = self._matrix()
            self._col_means = (
                K.mean(axis=0, dtype=float)
                if isinstance(K, np.ndarray)
                else _means_by_product(K)
            )
        return self._col_means

    @property
    def grand_mean(self) -> float:
        return float(self.col_means.mean())

    def _centre(self, Y: np.ndarray, Xt: np.ndarray) -> None:
        """Turn ``Y = Xt K`` into ``Xt HKH`` in place (the class formula)."""
        c, totals = self.col_means, Xt.sum(axis=1)
        Y -= (Xt @ c)[:, None]
        Y -= np.outer(totals, c)
        Y += self.grand_mean * totals[:, None]

    def __rmatmul__(self, Xt: np.ndarray) -> np.ndarray:
        K = self._matrix()
        vector = Xt.ndim == 1
        X2 = Xt[None, :] if vector else Xt
        if self._col_means is None:
            # K is symmetric, so its column means are 1^T K / n.
            Y = _times(np.vstack([X2, np.ones((1, K.shape[0]))]), K)
            self._col_means = Y[-1] / K.shape[0]
            Y = Y[:-1]
        else:
            Y = _times(X2, K)
        self._centre(Y, X2)
        return Y[0] if vector else Y

    def __matmul__(self, X: np.ndarray) -> np.ndarray:
        if X.ndim == 1:
            # One vector: BLAS's matrix-vector product, on its own threads.
            # It is one pass over K, which the library's spinning threads
            # share better than kpca's pool can (0.3 against 0.7 ms at
            # n = 2000 on the 2-core benchmark machine).
            K = self._matrix()
            if self._col_means is None:
                self._col_means = _means_by_product(K)
            y = (K @ X.astype(K.dtype, copy=False)).astype(float)[None, :]
            self._centre(y, X[None, :])
            return y[0]
        # HKH is symmetric: its products with columns are the transposed
        # products with rows.
        return (np.ascontiguousarray(X.T) @ self).T

    def materialize(self) -> np.ndarray:
        """Centre :math:`K` in place and return it; the operator is then spent."""
        c = self.col_means  # before the matrix is given away
        K, self._K = self._matrix(), None
        if isinstance(K, PackedSymmetric):
            K = K.materialize()
        _subtract_means_inplace(K, c, c, float(c.mean()))
        return K


def _means_by_product(K: np.ndarray | PackedSymmetric) -> np.ndarray:
    """The column means of the symmetric ``K`` as ``K 1 / n``, in one product."""
    ones = np.ones(K.shape[0], dtype=K.dtype)
    return (K @ ones).astype(float) / K.shape[0]


def _times(Xt: np.ndarray, K: np.ndarray | PackedSymmetric) -> np.ndarray:
    """``Xt @ K`` in K's precision (a float32 K is never copied to float64)."""
    if isinstance(K, PackedSymmetric):
        return Xt @ K
    if K.dtype == Xt.dtype:
        return rows_times(Xt, K)
    return rows_times(Xt.astype(K.dtype), K).astype(Xt.dtype)


def center_kernel(K) -> np.ndarray:
    r"""Centre a kernel matrix: :math:`K_c = K - \mathbf 1_n K - K\mathbf 1_n + \mathbf 1_n K\mathbf 1_n`.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Kernel matrix :math:`K_{ij} = k(x_i, x_j)` of the training points.

    Returns
    -------
    K_c : ndarray, shape (n, n)
        Equal to :math:`HKH`; its rows and columns sum to zero.  ``K`` is not
        modified.

    Examples
    --------
    The notes' two-point example, :math:`K = [[9, 16], [16, 36]]`:

    >>> center_kernel([[9.0, 16.0], [16.0, 36.0]])
    array([[ 3.25, -3.25],
           [-3.25,  3.25]])
    """
    K = check_square(check_array(K, "K"), "K")
    return _center_kernel_inplace(K.copy())[0]


def center_test_kernel(K_test, K_train) -> np.ndarray:
    r"""Centre the kernel between new points and the training points.

    For :math:`m` new points :math:`x` with kernel rows
    :math:`k(x) = (k(x, x_1), \dots, k(x, x_n))`, the kernel between
    :math:`\phi(x) - \bar\phi` and :math:`\phi(x_j) - \bar\phi`, where
    :math:`\bar\phi = \frac1n\sum_l\phi(x_l)` is the *training* mean, is

    .. math::

        \tilde k(x)_j = k(x)_j - \tfrac1n \textstyle\sum_l K_{lj}
        - \tfrac1n \sum_l k(x)_l + \tfrac1{n^2}\sum_{l,l'} K_{ll'},

    i.e. :math:`\tilde K = K_{\text{test}} - \mathbf 1_{m\times n} K
    - K_{\text{test}}\mathbf 1_n + \mathbf 1_{m\times n} K \mathbf 1_n`.

    Parameters
    ----------
    K_test : array_like, shape (m, n)
        :math:`k(x_{\text{new}, i}, x_j)`.
    K_train : array_like, shape (n, n)
        The uncentred training kernel matrix: real and symmetric (to
        ``1e-10`` of its largest entry).

    Returns
    -------
    ndarray, shape (m, n)
        With ``K_test = K_train`` this equals ``center_kernel(K_train)``.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[9.0, 16.0], [16.0, 36.0]])
    >>> center_test_kernel(K, K)
    array([[ 3.25, -3.25],
           [-3.25,  3.25]])
    """
    K_train = check_symmetric(check_array(K_train, "K_train"), "K_train")
    K_test = check_array(K_test, "K_test")
    if K_test.shape[1] != K_train.shape[0]:
        raise ValueError(
            f"K_test has {K_test.shape[1]} columns but K_train has {K_train.shape[0]} training points"
        )
    col_means = K_train.mean(axis=0)
    return _center_test_kernel_with_means(
        K_test, col_means, float(col_means.mean())
    )


def _center_test_kernel_with_means(
    K_test: np.ndarray, train_col_means: np.ndarray, train_grand_mean: float
) -> np.ndarray:
    out = K_test - train_col_means[None, :]
    out -= K_test.mean(axis=1)[:, None]
    out += train_grand_mean
    return out
