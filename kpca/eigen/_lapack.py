"""The dense solver: LAPACK's symmetric eigensolver, exact, O(n^3)."""

from __future__ import annotations

import numpy as np
import scipy.linalg

from ._checks import Operator, pairs_check_out

__all__ = ["dense", "full_dense"]


def full_dense(
    A: np.ndarray, k: int, overwrite: bool
) -> tuple[np.ndarray, np.ndarray]:
    w, V = scipy.linalg.eigh(
        A, overwrite_a=overwrite, check_finite=False, driver="evd"
    )
    return w[::-1][:k].copy(), V[:, ::-1][:, :k].copy()


def dense(
    A: np.ndarray | Operator, k: int, overwrite: bool
) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(A, np.ndarray):
        A = A.materialize()  # the operator is spent; its matrix is ours
        overwrite = True
    n = A.shape[0]
    if k < n:
        # The subset driver must leave A intact: it is needed again if the
        # subset comes back short (scipy issue 13913) or fails the check.
        w, V = scipy.linalg.eigh(
            A,
            subset_by_index=[n - k, n - 1],
            overwrite_a=False,
            check_finite=False,
            driver="evr",
        )
        w, V = w[::-1], V[:, ::-1]
        if pairs_check_out(A, w, V, k, 0.0):
            return w, V
    return full_dense(A, k, overwrite)
