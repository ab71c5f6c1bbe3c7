r"""Eigen-decomposition of symmetric matrices, largest eigenvalues first.

Every algorithm of the course ends in the same step: the top :math:`k`
eigenpairs :math:`(\mu_i, v_i)` of a symmetric matrix (a covariance, a centred
kernel matrix, a double-centred distance matrix).  This module provides that
step with three solvers and one sign convention:

``"dense"``
    LAPACK's symmetric eigensolver (``scipy.linalg.eigh``), exact to machine
    precision; :math:`O(n^3)` time.
``"subspace"``
    Randomised block subspace iteration with Rayleigh–Ritz
    :cite:`halko2011finding`, iterated until every kept pair has a residual
    :math:`\lVert A v - \mu v\rVert \le \mathrm{tol}\cdot|\mu_1|`; each
    iteration costs one product of :math:`A` with an :math:`n \times p`
    block, :math:`O(n^2 p)`.  It converges to the eigenvalues of largest
    magnitude, which are the largest ones for positive semi-definite matrices.
``"arpack"``
    Implicitly restarted Lanczos (``scipy.sparse.linalg.eigsh``), stopped at
    the same relative residual; one matrix-vector product per step.

``"auto"`` takes ``"dense"`` for small matrices or many eigenpairs and
``"arpack"`` for a few eigenpairs of a large positive semi-definite matrix,
the fastest choice at equal accuracy in ``benchmarks/bench_kernel_pca.py``.

Eigenvectors are defined only up to sign; :func:`align_signs` fixes it so that
the entry of largest absolute value of each eigenvector is positive.
"""

from __future__ import annotations

import warnings
from typing import Optional

import numpy as np
import scipy.linalg
import scipy.sparse.linalg

__all__ = [
    "EIGEN_SOLVERS",
    "RANK_RTOL",
    "align_signs",
    "numerical_rank",
    "top_eigenpairs",
]

EIGEN_SOLVERS = ("auto", "dense", "subspace", "arpack")

#: Eigenvalues at or below ``RANK_RTOL`` times the largest are treated as zero: below
#: what double-precision centring and eigensolvers resolve, so never divided by.
RANK_RTOL = 1e-10

# Below this size a dense decomposition is as fast as anything iterative.
_DENSE_UP_TO = 600


def align_signs(V: np.ndarray) -> np.ndarray:
    """Flip the columns of ``V`` so that each one's largest-magnitude entry is positive.

    Parameters
    ----------
    V : ndarray, shape (n, k) or (n,)
        Eigenvectors as columns.

    Returns
    -------
    ndarray
        A copy of ``V`` with the fixed sign convention (ties go to the first
        entry of largest magnitude).

    Examples
    --------
    >>> import numpy as np
    >>> align_signs(np.array([[0.6, 0.1], [-0.8, -0.2]]))
    array([[-0.6, -0.1],
           [ 0.8,  0.2]])
    """
    V = np.array(V, dtype=float, copy=True)
    if V.ndim == 1:
        return V if V.size == 0 or V[np.argmax(np.abs(V))] >= 0 else -V
    if V.size == 0:
        return V
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    V *= signs
    return V


def numerical_rank(eigenvalues: np.ndarray, rtol: float = RANK_RTOL) -> int:
    r"""Number of eigenvalues above ``rtol`` times the largest one (0 if none is positive).

    This is the rank :math:`r` of the notes as a computer sees it: eigenvalues
    of a positive semi-definite matrix that are zero in exact arithmetic come
    out as round-off of either sign.

    Examples
    --------
    >>> import numpy as np
    >>> numerical_rank(np.array([4.0, 1.0, 3e-15, -2e-15]))
    2
    """
    w = np.asarray(eigenvalues, dtype=float)
    if w.size == 0 or not np.max(w) > 0:
        return 0
    return int(np.count_nonzero(w > rtol * np.max(w)))


def _dense(
    A: np.ndarray, k: int, overwrite: bool
) -> tuple[np.ndarray, np.ndarray]:
    n = A.shape[0]
    if k == n:
        w, V = scipy.linalg.eigh(A, overwrite_a=overwrite, check_finite=False)
    else:
        w, V = scipy.linalg.eigh(
            A,
            subset_by_index=[n - k, n - 1],
            overwrite_a=overwrite,
            check_finite=False,
            driver="evr",
        )
    return w[::-1], V[:, ::-1]


def _subspace(
    A: np.ndarray, k: int, tol: float, max_iter: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, bool]:
    n = A.shape[0]
    p = min(n, max(2 * k, k + 20))
    Q, _ = np.linalg.qr(rng.standard_normal((n, p)))
    w = V = None
    for _ in range(max_iter):
        Y = A @ Q
        T = Q.T @ Y
        T += T.T
        T *= 0.5
        theta, S = np.linalg.eigh(T)
        order = np.argsort(theta)[::-1]
        theta, S = theta[order], S[:, order]
        w, V = theta[:k], Q @ S[:, :k]
        residual = np.linalg.norm(Y @ S[:, :k] - V * w, axis=0)
        if np.all(residual <= tol * max(abs(theta[0]), np.finfo(float).tiny)):
            return w, V, True
        # The next block spans A Q; rotating by S first keeps the Ritz order.
        Q, _ = np.linalg.qr(Y @ S)
    return w, V, False


def _arpack(
    A: np.ndarray, k: int, tol: float, max_iter: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    # ARPACK stops when every Ritz pair has residual <= tol * |Ritz value|.
    v0 = rng.uniform(-1.0, 1.0, A.shape[0])
    w, V = scipy.sparse.linalg.eigsh(
        A, k=k, which="LA", tol=tol, v0=v0, maxiter=max_iter
    )
    order = np.argsort(w)[::-1]
    return w[order], V[:, order]


def top_eigenpairs(
    A: np.ndarray,
    k: Optional[int] = None,
    *,
    solver: str = "auto",
    tol: float = 1e-10,
    max_iter: int = 500,
    random_state: Optional[int] = None,
    overwrite: bool = False,
    assume_psd: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The ``k`` largest eigenvalues of a symmetric matrix and their eigenvectors.

    Parameters
    ----------
    A : ndarray, shape (n, n)
        Symmetric matrix (not checked here; callers validate).
    k : int, optional
        How many eigenpairs; all ``n`` when None (always the dense solver).
    solver : {"auto", "dense", "subspace", "arpack"}
        ``"auto"`` uses ``"dense"`` for small ``n``, for ``k`` above ``n/10``
        or when ``assume_psd`` is false, and ``"arpack"`` otherwise (the
        fastest at equal accuracy in ``benchmarks/``); if ARPACK does not
        converge it falls back to ``"dense"``.
    tol : float, default 1e-10
        Relative residual :math:`\lVert Av - \mu v\rVert / |\mu_1|` at which the
        iterative solvers stop.
    max_iter : int, default 500
        Iteration cap of the ``"subspace"`` solver (restarts for ``"arpack"``).
    random_state : int, optional
        Seed of the random starting block of the iterative solvers (0 when
        None, so results are reproducible).
    overwrite : bool, default False
        Allow the dense solver to destroy ``A`` (saves one :math:`n\times n` copy).
    assume_psd : bool, default True
        Whether the wanted eigenvalues are also the largest in magnitude.

    Returns
    -------
    eigenvalues : ndarray, shape (k,)
        In descending order.
    eigenvectors : ndarray, shape (n, k)
        Orthonormal columns with the sign convention of :func:`align_signs`.

    Examples
    --------
    >>> import numpy as np
    >>> w, V = top_eigenpairs(np.array([[2.0, 1.0], [1.0, 2.0]]), 1)
    >>> w, np.round(V, 4)
    (array([3.]), array([[0.7071],
           [0.7071]]))
    """
    if solver not in EIGEN_SOLVERS:
        raise ValueError(
            f"eigen_solver must be one of {EIGEN_SOLVERS}, got {solver!r}"
        )
    n = A.shape[0]
    if k is None or k >= n:
        k = n
        solver = "dense"
    rng = np.random.default_rng(0 if random_state is None else random_state)
    if solver == "auto":
        use_iterative = assume_psd and n > _DENSE_UP_TO and k <= n // 10
        if not use_iterative:
            solver = "dense"
        else:
            try:
                w, V = _arpack(A, k, tol, max_iter, rng)
            except scipy.sparse.linalg.ArpackNoConvergence:
                w, V = _dense(A, k, overwrite)
            return w, align_signs(V)
    if solver == "dense":
        w, V = _dense(A, k, overwrite)
    elif solver == "subspace":
        w, V, converged = _subspace(A, k, tol, max_iter, rng)
        if not converged:
            warnings.warn(
                f"subspace iteration did not reach tol={tol:g} in {max_iter} iterations; "
                "use eigen_solver='dense' for exact results",
                RuntimeWarning,
                stacklevel=2,
            )
    else:  # arpack
        w, V = (
            _dense(A, k, overwrite)
            if k >= n - 1
            else _arpack(A, k, tol, max_iter, rng)
        )
    return w, align_signs(V)
