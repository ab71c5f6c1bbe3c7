"""The dense solver: LAPACK's symmetric eigensolver, exact, O(n^3)."""

from __future__ import annotations

import contextlib

import numpy as np
import scipy.linalg

from .._threads import one_blas_thread
from .._tuning import DENSE_UP_TO
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
    # A small matrix on one BLAS thread.  NumPy and SciPy each load their
    # own OpenBLAS, each with threads that spin for a while after a call;
    # a fit alternates between them (NumPy's products, SciPy's eigh), and
    # on two cores each library's call then ran beside the other's spinning
    # threads: a Gaussian kernel PCA of 250 points took 8 ms, of which the
    # eigh of its 250 x 250 matrix 7 ms and two matrix products 3 ms each.
    limit = one_blas_thread() if n <= DENSE_UP_TO else contextlib.nullcontext()
    with limit:
        return _dense(A, k, overwrite, n)


def _dense(
    A: np.ndarray, k: int, overwrite: bool, n: int
) -> tuple[np.ndarray, np.ndarray]:
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
