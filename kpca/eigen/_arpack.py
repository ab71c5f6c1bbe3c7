"""Implicitly restarted Lanczos: ARPACK through ``scipy.sparse.linalg.eigsh``."""

from __future__ import annotations

import numpy as np
import scipy.sparse.linalg

from ._checks import Operator, missed_above, pairs_check_out

__all__ = ["arpack"]


def arpack(
    A: np.ndarray | Operator,
    k: int,
    tol: float,
    max_iter: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray] | None:
    # ARPACK stops when every Ritz pair has residual <= tol * |Ritz value|.
    v0 = rng.uniform(-1.0, 1.0, A.shape[0])
    operator = A
    if not isinstance(A, np.ndarray):
        operator = scipy.sparse.linalg.LinearOperator(
            A.shape, matvec=A.__matmul__, matmat=A.__matmul__, dtype=float
        )
    try:
        w, V = scipy.sparse.linalg.eigsh(
            operator, k=k, which="LA", tol=tol, v0=v0, maxiter=max_iter
        )
    except scipy.sparse.linalg.ArpackError:  # no convergence, or a breakdown
        return None
    order = np.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    if not pairs_check_out(A, w, V, k, 10 * tol) or missed_above(A, w, V, rng):
        return None
    return w, V
