r"""The smallest eigenvalues of a symmetric matrix, by the top-k solvers.

The :math:`m` smallest eigenvalues of :math:`A` are :math:`\sigma` minus the
:math:`m` largest of the shifted matrix :math:`C = \sigma I - A`, which is
never formed: a product with :math:`C` is one product with :math:`A`.  The
shift is the largest eigenvalue of :math:`A`, already known to the caller,
so that the solvers' relative tolerance, taken against the largest
eigenvalue of :math:`C`, :math:`\sigma - \lambda_{\min}(A)`, is relative to
the spread of the whole spectrum.  Without the shift it would be relative
to :math:`|\lambda_{\min}(A)|`, which is round-off for a positive
semi-definite matrix: no residual could reach it.
"""

from __future__ import annotations

import numpy as np

from .._threads import rows_times

__all__ = ["ShiftedNegative"]


class ShiftedNegative:
    r"""The operator :math:`\sigma I - A` of a symmetric array ``A``.

    It satisfies the solvers' operator protocol (``kpca.eigen._checks``):
    products with rows (``Xt @ op``), with columns or one vector
    (``op @ X``), and ``materialize()``, which forms the matrix as a new
    array (only the dense fallback, after a failed check, calls it).
    """

    # NumPy must hand `Xt @ op` to __rmatmul__ instead of converting `op`.
    __array_ufunc__ = None

    def __init__(self, A: np.ndarray, shift: float) -> None:
        self._A = A
        self._shift = float(shift)
        self.shape = A.shape
        self.dtype = A.dtype

    def __rmatmul__(self, Xt: np.ndarray) -> np.ndarray:
        Y = rows_times(Xt, self._A) if Xt.ndim == 2 else Xt @ self._A
        Y *= -1.0
        Y += self._shift * Xt
        return Y

    def __matmul__(self, X: np.ndarray) -> np.ndarray:
        Y = self._A @ X
        Y *= -1.0
        Y += self._shift * X
        return Y

    def materialize(self) -> np.ndarray:
        C = np.negative(self._A)
        C.flat[:: C.shape[0] + 1] += self._shift
        return C
