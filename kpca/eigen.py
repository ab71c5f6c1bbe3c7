r"""Eigen-decomposition of symmetric matrices, largest eigenvalues first.

Every algorithm of the course ends in the same step: the top :math:`k`
eigenpairs :math:`(\mu_i, v_i)` of a symmetric matrix (a covariance, a centred
kernel matrix, a double-centred distance matrix).  This module provides that
step with four solvers, one guarantee and one sign convention.

``"dense"``
    LAPACK's symmetric eigensolver (``scipy.linalg.eigh``), exact to machine
    precision; :math:`O(n^3)` time.
``"subspace"``
    Randomised block subspace iteration with Rayleigh--Ritz [1]_, iterated
    until every kept pair has a residual
    :math:`\lVert A v - \mu v\rVert \le \mathrm{tol}\cdot|\mu_1|`; each
    iteration costs one product of :math:`A` with an :math:`n \times p`
    block, :math:`O(n^2 p)`.  It converges to the eigenvalues of largest
    magnitude, which are the largest ones for positive semi-definite matrices.
``"lanczos"``
    Block Lanczos with full reorthogonalisation and Rayleigh--Ritz [3]_,
    stopped at the same relative residual.  Each step multiplies :math:`A` by
    a block of :math:`\max(k, 2)` vectors (one pass over :math:`A`, BLAS-3),
    and a block of :math:`b` vectors finds up to :math:`b` copies of a
    repeated eigenvalue, so none of the top :math:`k` can be missed.
    ``"auto"`` runs it with a block of two vectors up to :math:`n = 3000`,
    where the matrix is near the processor's cache and a matrix-vector
    product costs a fraction of a block product; two wanted eigenvalues
    that come out equal could then hide a third copy, and the answer is
    recomputed with a block of :math:`k`.
``"arpack"``
    Implicitly restarted Lanczos (``scipy.sparse.linalg.eigsh``) [2]_, stopped
    at the same relative residual; one matrix-vector product per step.

The guarantee: whatever the solver, exactly ``k`` orthonormal eigenpairs come
back, each checked.  An iterative or subset solver's answer is accepted only
if it has ``k`` pairs with small residuals and orthonormal vectors, and, for
ARPACK, if no eigenvalue above the :math:`k`-th was missed (single-vector
Lanczos can miss copies of a repeated eigenvalue, so the operator deflated by
the pairs found is searched once more).  Lanczos with a block of two vectors
answers only if no two of the wanted eigenvalues are equal; otherwise a block
of :math:`k` vectors runs.  When a check fails the pairs are recomputed by
the full dense decomposition, which is exact.  This matters: LAPACK's
subset driver can silently return fewer pairs than asked for when the wanted
eigenvalues are clustered (scipy issue 13913), and how many depends on the
CPU's BLAS kernels.

Eigenvectors are defined only up to sign; :func:`align_signs` fixes it so that
the first entry of (within round-off) largest magnitude of each eigenvector is
positive.

References
----------
.. [1] N. Halko, P.-G. Martinsson and J. A. Tropp, "Finding structure with
   randomness: probabilistic algorithms for constructing approximate matrix
   decompositions", SIAM Review 53(2), 2011.
.. [2] R. B. Lehoucq, D. C. Sorensen and C. Yang, *ARPACK Users' Guide*,
   SIAM, 1998.
.. [3] G. H. Golub and C. F. Van Loan, *Matrix Computations*, 4th ed.,
   Johns Hopkins University Press, 2013, section 10.3.6.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any, Protocol

import numpy as np
import scipy.linalg
import scipy.sparse.linalg

from ._threads import one_blas_thread, rows_times
from ._validation import (
    check_array,
    check_bool,
    check_choice,
    check_positive_float,
    check_positive_int,
    check_random_state,
    check_symmetric,
)

__all__ = [
    "EIGEN_SOLVERS",
    "RANK_RTOL",
    "SIGN_TIE_RTOL",
    "align_signs",
    "numerical_rank",
    "top_eigenpairs",
]

EIGEN_SOLVERS = ("auto", "dense", "lanczos", "subspace", "arpack")

#: Eigenvalues at or below ``RANK_RTOL`` times the largest are treated as zero:
#: below what double-precision centring and eigensolvers resolve, so never
#: divided by.
RANK_RTOL = 1e-10

#: Entries whose magnitudes differ by less than this fraction of the largest
#: count as tied for the sign convention, so round-off cannot flip a sign.
SIGN_TIE_RTOL = 1e-6


class _Operator(Protocol):
    """A symmetric matrix known through its products (``A @ X``, ``Xt @ A``).

    ``materialize()`` returns the matrix itself, for the dense solver; after
    it the operator may not be used again.
    """

    shape: tuple[int, int]

    def __matmul__(self, X: np.ndarray) -> np.ndarray: ...

    def __rmatmul__(self, Xt: np.ndarray) -> np.ndarray: ...

    def materialize(self) -> np.ndarray: ...


# Below this size a dense decomposition is as fast as anything iterative.
_DENSE_UP_TO = 600

# Up to this order "auto" runs Lanczos with a block of two vectors, whose
# products are matrix-vector products (_pair_lanczos), rather than a block of
# k: while the matrix is near the last-level cache a matrix-vector product is
# cheap, and a block product costs several of them however few its rows.
# Measured on the 2-core benchmark machine (32 MiB L3), k = 10, fresh
# processes: 14, 31 and 74 ms against 23, 48 and 86 ms at n = 1000, 2000 and
# 3000, and 146 against 113 ms at n = 4000.
_PAIR_UP_TO = 3000

# Two wanted eigenvalues closer than this fraction of the largest count as
# copies of one (see _pair_lanczos).
_REPEAT_RTOL = 1e-6

# Block Lanczos accepts its pairs on the residuals of its recurrence down to
# this relative tolerance; below it, they are checked by a product.
_CERTIFIED_TOL = 1e-11

# An accepted pair has ||A v - mu v|| below this many units of round-off of
# ||A||_F, and vectors orthonormal to the same order.
_CHECK_ROUNDOFF_UNITS = 1e3


def align_signs(V: Any) -> np.ndarray:
    """Flip the columns of ``V`` so that each one's leading entry is positive.

    The leading entry of a column is its first entry whose magnitude is
    within ``SIGN_TIE_RTOL`` (a millionth) of the column's largest magnitude.
    Taking the *first* of the near-largest entries, not the largest one,
    makes the convention immune to round-off: ``(0.7071, -0.7071)`` keeps
    its sign whichever of its two entries comes out one ulp larger.

    Parameters
    ----------
    V : array_like, shape (n, k) or (n,)
        Eigenvectors as columns.

    Returns
    -------
    ndarray
        A copy of ``V`` with the fixed sign convention; zero columns are left
        as they are.

    Examples
    --------
    >>> import numpy as np
    >>> align_signs(np.array([[0.6, 0.1], [-0.8, -0.2]]))
    array([[-0.6, -0.1],
           [ 0.8,  0.2]])

    A tie goes to the first entry, whatever the round-off:

    >>> align_signs(np.array([-0.7071067811865475, 0.7071067811865476]))
    array([ 0.70710678, -0.70710678])
    """
    try:
        ndim = np.ndim(V)
    except ValueError:  # ragged nested lists: check_array says why
        ndim = 2
    if ndim not in (1, 2):
        raise ValueError(f"V must be 1-D or 2-D, got shape {np.shape(V)}")
    # Real, finite numbers (complex input raises): a copy, never V itself.
    V = check_array(V, "V", ndim=ndim, min_rows=0, min_cols=0, copy=True)
    if V.size == 0:
        return V
    M = V[:, None] if V.ndim == 1 else V
    magnitude = np.abs(M)
    near_largest = magnitude >= (1.0 - SIGN_TIE_RTOL) * magnitude.max(axis=0)
    rows = np.argmax(near_largest, axis=0)  # first True in each column
    signs = np.sign(M[rows, np.arange(M.shape[1])])
    signs[signs == 0] = 1.0
    M *= signs
    return V


def numerical_rank(eigenvalues: Any, rtol: float = RANK_RTOL) -> int:
    r"""Number of eigenvalues above ``rtol`` times the largest one.

    This is the rank :math:`r` of the notes as a computer sees it:
    eigenvalues of a positive semi-definite matrix that are zero in exact
    arithmetic come out as round-off of either sign.

    Parameters
    ----------
    eigenvalues : array_like, shape (n,)
        Eigenvalues in any order.
    rtol : float, default ``RANK_RTOL``
        Relative threshold.

    Returns
    -------
    int
        The count, 0 if no eigenvalue is positive.

    Examples
    --------
    >>> import numpy as np
    >>> numerical_rank(np.array([4.0, 1.0, 3e-15, -2e-15]))
    2
    """
    w = check_array(eigenvalues, "eigenvalues", ndim=1, min_rows=0)
    rtol = check_positive_float(rtol, "rtol")
    if w.size == 0 or not np.max(w) > 0:
        return 0
    return int(np.count_nonzero(w > rtol * np.max(w)))


def _components_to_keep(
    eigenvalues: np.ndarray,
    n_components: int | None,
    matrix: str,
    empty_message: str,
    stacklevel: int,
    roundoff: float = 0.0,
    advice: str = "",
) -> int:
    """How many leading eigenpairs an estimator keeps: the numerical rank.

    Raises ``ValueError(empty_message)`` when no eigenvalue is positive, and
    warns when ``n_components`` asked for more than the rank of ``matrix``.
    ``roundoff`` bounds the error of the eigenvalues of the matrix as it
    was computed (its entries' round-off, on the scale of the uncentred
    matrix): eigenvalues at or below it are not resolved and count as zero
    too; if none is left, ``ValueError`` ends with ``advice``, as does the
    warning when the round-off is why fewer than ``n_components`` are kept.
    """
    keep = numerical_rank(eigenvalues)
    if keep == 0:
        raise ValueError(empty_message)
    resolved = int(np.count_nonzero(eigenvalues[:keep] > roundoff))
    if resolved == 0:
        raise ValueError(
            f"the {matrix} is lost in round-off: its largest eigenvalue "
            f"{eigenvalues[0]:.3g} is below the round-off {roundoff:.3g} of "
            f"the matrix as computed; {advice}"
        )
    if n_components is not None and resolved < n_components:
        if resolved == keep:
            reason = f"the numerical rank {keep} of the {matrix}"
        else:
            reason = (
                f"the {resolved} eigenvalues of the {matrix} above the "
                f"round-off {roundoff:.3g} of the matrix as computed"
            )
        warnings.warn(
            f"n_components={n_components} exceeds {reason}; keeping "
            f"{resolved} components"
            + ("" if resolved == keep else f"; {advice}"),
            RuntimeWarning,
            stacklevel=stacklevel + 1,
        )
    return resolved


def _pairs_check_out(
    A: np.ndarray | _Operator, w: np.ndarray, V: np.ndarray, k: int, tol: float
) -> bool:
    """Whether ``(w, V)`` are ``k`` orthonormal eigenpairs of ``A`` to ``tol``."""
    if (
        w.shape != (k,)
        or V.shape != (A.shape[0], k)
        or not np.all(np.isfinite(w))
    ):
        return False
    if isinstance(A, np.ndarray):
        scale = float(np.linalg.norm(A))
    else:  # an operator: the largest eigenvalue found bounds its scale
        scale = float(np.max(np.abs(w))) if w.size else 0.0
    scale = max(scale, np.finfo(float).tiny)
    roundoff = _CHECK_ROUNDOFF_UNITS * np.finfo(float).eps
    residual = np.linalg.norm(A @ V - V * w, axis=0)
    if np.any(residual > max(tol, roundoff) * scale):
        return False
    gram = V.T @ V
    np.fill_diagonal(gram, np.diag(gram) - 1.0)
    return bool(np.max(np.abs(gram)) <= max(tol, roundoff) * max(1, k))


def _full_dense(
    A: np.ndarray, k: int, overwrite: bool
) -> tuple[np.ndarray, np.ndarray]:
    w, V = scipy.linalg.eigh(
        A, overwrite_a=overwrite, check_finite=False, driver="evd"
    )
    return w[::-1][:k].copy(), V[:, ::-1][:, :k].copy()


def _dense(
    A: np.ndarray | _Operator, k: int, overwrite: bool
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
        if _pairs_check_out(A, w, V, k, 0.0):
            return w, V
    return _full_dense(A, k, overwrite)


def _subspace(
    A: np.ndarray | _Operator,
    k: int,
    tol: float,
    max_iter: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray] | None:
    n = A.shape[0]
    p = min(n, max(2 * k, k + 20))
    Q, _ = np.linalg.qr(rng.standard_normal((n, p)))
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
            return w, V
        # The next block spans A Q; rotating by S first keeps the Ritz order.
        Q, _ = np.linalg.qr(Y @ S)
    return None


def _lanczos(
    A: np.ndarray | _Operator,
    k: int,
    tol: float,
    max_iter: int,
    rng: np.random.Generator,
    block: int,
    by_vector: bool = False,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Block Lanczos with full reorthogonalisation and Rayleigh--Ritz.

    The Krylov space of a random block of ``b = block`` vectors grows by
    ``A`` times its newest block until the ``k`` leading Ritz pairs have
    relative residuals below ``tol``.  Each step is one product of ``A`` with
    a block of ``b`` vectors: one pass over ``A`` (BLAS-3), or with
    ``by_vector``, one matrix-vector product per vector.  A block of ``b`` vectors
    finds up to ``b`` copies of a repeated eigenvalue; with ``b >= k`` none
    of the ``k`` wanted pairs can be missed the way single-vector Lanczos can
    miss them (for ``b < k``, see :func:`_pair_lanczos`).

    The vectors are the rows of the basis ``U``: in that orientation the
    product streams ``A`` with the least BLAS work space, and only the rows
    in use are ever touched.  The residuals come from the block Lanczos
    relation ``A U^T = U^T T + Q^T R E^T`` (``T`` the projected matrix,
    ``R^T Q`` the next block before normalising, ``E`` the last block's
    columns): a Ritz vector ``U^T s`` has the residual ``Q^T R s_last``, of
    norm ``|R s_last|``, with no product of its own.  The relation itself is
    exact up to round-off and ``|A|`` times the departure of ``U`` from
    orthonormality, which is measured when the pairs are accepted; after a
    breakdown (a row replaced by a random direction), or for a ``tol`` below
    ``1e-11``, the residuals are checked by one more product instead.  When
    the basis reaches its size limit the method restarts from the leading
    Ritz vectors (thick restart).  None after ``max_iter`` steps without
    convergence, or if a check fails (the dense solver then runs).
    """
    n = A.shape[0]
    b = block
    # An ordinary kernel matrix converges well before the first restart; the
    # basis takes limit x n numbers, 2.5% of the n x n matrix at n = 8000 and
    # less beyond.
    limit = min(n, max(20 * b, 200))
    basis = np.empty((limit, n))
    T = np.empty((limit, limit))
    tiny = np.finfo(float).tiny
    # A block product runs on one BLAS thread throughout: it splits A's
    # columns between the cores itself (rows_times), and a multi-threaded
    # BLAS call in between would leave OpenBLAS threads spinning on those
    # cores.  A matrix-vector product is one pass over A, bound by memory
    # bandwidth, and BLAS's own threads, which spin between its calls, share
    # it best: 0.32 ms at n = 2000 on the 2-core benchmark machine, against
    # 0.7 ms split by kpca's threads.  A block product of two rows costs
    # 1.7 ms, as BLAS copies (packs) A for every matrix product.
    with contextlib.nullcontext() if by_vector else one_blas_thread():
        Q = np.linalg.qr(rng.standard_normal((n, b)))[0].T
        size = 0  # rows of the basis in use
        broke_down = False
        for _ in range(max_iter):
            width = Q.shape[0]
            if by_vector:
                AQ = np.stack([A @ q for q in Q])  # A is symmetric
            elif isinstance(A, np.ndarray):
                AQ = rows_times(Q, A)
            else:
                AQ = Q @ A
            new = slice(size, size + width)
            basis[new] = Q
            size += width
            U = basis[:size]
            # The next block is A Q minus its projection on the basis, taken
            # twice (twice is enough); both projections' coefficients belong to
            # the new rows of the projected matrix U A U^T.
            C = AQ @ U.T
            Z = AQ - C @ U
            D = Z @ U.T
            Z -= D @ U
            C += D
            T[new, :size] = C
            T[:size, new] = C.T
            T[new, new] = 0.5 * (C[:, new] + C[:, new].T)
            theta, S = np.linalg.eigh(T[:size, :size])
            theta, S = theta[::-1], S[:, ::-1]
            scale = max(abs(theta[0]), tiny)
            Q, R = np.linalg.qr(Z.T)
            Q = Q.T
            # A row that vanished spans nothing new (an invariant subspace was
            # found; below 1e-10 of the block's scale its direction is round-off):
            # replace it by a random direction, orthogonalised.
            lost = np.abs(np.diag(R)) <= 1e-10 * max(
                np.abs(R).max(initial=0.0), scale
            )
            if np.any(lost):
                broke_down = True
                Q[lost] = rng.standard_normal((int(lost.sum()), n))
                Q -= (Q @ U.T) @ U
                Q = np.linalg.qr(Q.T)[0].T
            if np.any(lost) or np.min(np.abs(np.diag(R))) < 1e-3 * scale:
                # A row of Z much shorter than A's norm carries the round-off of
                # its projections, magnified by normalising: one more pass.
                Q -= (Q @ U.T) @ U
                Q = np.linalg.qr(Q.T)[0].T
                R = Q @ Z.T  # Z = R^T Q again, for the residuals
            Sk = S[:, :k]
            residual = np.linalg.norm(R @ Sk[new], axis=0)
            if size >= k and np.all(residual <= tol * scale):
                V = Sk.T @ U
                gram = U @ U.T
                np.fill_diagonal(gram, np.diag(gram) - 1.0)
                # The relation's error is about |A| times this loss of
                # orthogonality per block of the basis: at most 1e-13, with
                # at most 20 blocks, keeps it below a fifth of a tolerance of
                # 1e-11.  Smaller tolerances, and a breakdown, take a true
                # product instead.
                if np.max(np.abs(gram)) > 1e-13:
                    return None
                if broke_down or tol < _CERTIFIED_TOL:
                    true_residual = np.linalg.norm(
                        V @ A - theta[:k, None] * V, axis=1
                    )
                    if np.any(true_residual > 10 * tol * scale):
                        return None
                return theta[:k].copy(), V.T
            if size + b > limit or size + b > n:
                # Thick restart from the leading Ritz vectors (half the basis, as
                # thick-restart Lanczos does).  Their residuals all lie in the
                # span of the next block Q, which continues the iteration.
                keep = max(b, min(limit // 2, size - b))
                basis[:keep] = S[:, :keep].T @ U
                T[:keep, :keep] = np.diag(theta[:keep])
                size = keep
    return None


def _pair_lanczos(
    A: np.ndarray | _Operator,
    k: int,
    tol: float,
    max_iter: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Lanczos with a block of two vectors; None if a copy may be missing.

    A block of two finds two copies of a repeated eigenvalue and no more.  A
    third copy can be missing only where two were found, so an answer with
    two wanted eigenvalues equal (to ``_REPEAT_RTOL``, or ``10 * tol``, of the
    largest) is not trusted: the caller then runs a block of ``k``.
    """
    result = _lanczos(A, k, tol, max_iter, rng, 2, by_vector=True)
    if result is None or k <= 2:
        return result
    w = result[0]
    alike = max(_REPEAT_RTOL, 10 * tol) * max(abs(w[0]), np.finfo(float).tiny)
    if np.any(w[:-1] - w[1:] <= alike):
        return None
    return result


def _missed_above(
    A: np.ndarray | _Operator,
    w: np.ndarray,
    V: np.ndarray,
    rng: np.random.Generator,
) -> bool:
    """Whether ``A`` has an eigenvalue above ``w[-1]`` outside ``span(V)``.

    Lanczos on the operator deflated by the pairs found: its top eigenvalue is
    the largest eigenvalue of ``A`` that was not found.
    """
    n = A.shape[0]

    def deflated(x):
        x = x - V @ (V.T @ x)
        y = A @ x
        return y - V @ (V.T @ y)

    operator = scipy.sparse.linalg.LinearOperator(
        (n, n), matvec=deflated, dtype=float
    )
    try:
        top = scipy.sparse.linalg.eigsh(
            operator,
            k=1,
            which="LA",
            tol=1e-8,
            v0=rng.uniform(-1.0, 1.0, n),
            return_eigenvectors=False,
        )[0]
    except scipy.sparse.linalg.ArpackError:
        return True
    margin = 1e-8 * max(abs(w[0]), np.finfo(float).tiny)
    return bool(top > w[-1] + margin)


def _arpack(
    A: np.ndarray | _Operator,
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
    if not _pairs_check_out(A, w, V, k, 10 * tol) or _missed_above(
        A, w, V, rng
    ):
        return None
    return w, V


def _top_eigenpairs(
    A: np.ndarray | _Operator,
    k: int,
    solver: str,
    tol: float,
    max_iter: int,
    random_state: int | None,
    overwrite: bool,
    assume_psd: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`top_eigenpairs` on validated input.

    ``A`` is an exactly symmetric array, or an operator (see ``_Operator``)
    whose matrix is exactly symmetric; ``overwrite`` lets the dense solver
    destroy the array.
    """
    n = A.shape[0]
    rng = np.random.default_rng(0 if random_state is None else random_state)
    if solver == "auto":
        solver = "lanczos" if n > _DENSE_UP_TO and k <= n // 10 else "dense"
        if solver == "lanczos" and n <= _PAIR_UP_TO:
            solver = "pair"
    if solver == "subspace" and not assume_psd:
        # Subspace iteration finds the eigenvalues of largest magnitude, which
        # for an indefinite matrix need not be the largest.
        solver = "dense"
    if solver == "arpack" and k >= n - 1:  # ARPACK needs k < n - 1
        solver = "dense"
    result = None
    if solver == "subspace":
        result = _subspace(A, k, tol, max_iter, rng)
        if result is None:
            warnings.warn(
                f"subspace iteration did not reach tol={tol:g} in {max_iter} "
                "iterations; the eigenpairs were computed by the dense solver",
                RuntimeWarning,
                stacklevel=3,
            )
    elif solver == "arpack":
        result = _arpack(A, k, tol, max_iter, rng)
    elif solver == "pair":
        result = _pair_lanczos(A, k, tol, max_iter, rng)
        if result is None:  # a copy may be missing, or no convergence
            result = _lanczos(A, k, tol, max_iter, rng, max(k, 2))
    elif solver == "lanczos":
        result = _lanczos(A, k, tol, max_iter, rng, max(k, 2))
    if result is None:
        result = _dense(A, k, overwrite)
    w, V = result
    return w, align_signs(V)


def top_eigenpairs(
    A: Any,
    k: int | None = None,
    *,
    solver: str = "auto",
    tol: float = 1e-10,
    max_iter: int = 500,
    random_state: int | None = None,
    overwrite: bool = False,
    assume_psd: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The ``k`` largest eigenvalues of a symmetric matrix and their eigenvectors.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Symmetric matrix (symmetric to ``1e-10`` of its largest entry; it is
        symmetrised exactly before the decomposition).
    k : int, optional
        How many eigenpairs, ``1 <= k <= n``; all ``n`` when None.
    solver : {"auto", "dense", "lanczos", "subspace", "arpack"}
        Default ``"auto"``, which uses ``"dense"`` for ``n <= 600`` or ``k > n/10`` and
        ``"lanczos"`` otherwise (with a block of two vectors up to
        ``n = 3000``; see the module documentation).  ``"subspace"`` is used only when
        ``assume_psd`` is true.  Whatever the choice, the pairs are checked
        and recomputed by ``"dense"`` if the check fails (see the module
        documentation), so exactly ``k`` pairs are returned.
    tol : float, default 1e-10
        Relative residual :math:`\lVert Av - \mu v\rVert / |\mu_1|` at which
        the iterative solvers stop.
    max_iter : int, default 500
        Iteration cap of the ``"subspace"`` and ``"lanczos"`` solvers
        (restarts for ``"arpack"``).
    random_state : int, optional
        Seed of the random starting vectors of the iterative solvers (0 when
        None, so results are reproducible).
    overwrite : bool, default False
        Allow the dense solver to destroy ``A`` (saves one
        :math:`n\times n` copy).
    assume_psd : bool, default True
        Whether the wanted eigenvalues are also the largest in magnitude
        (true for positive semi-definite matrices).

    Returns
    -------
    eigenvalues : ndarray, shape (k,)
        In descending order.
    eigenvectors : ndarray, shape (n, k)
        Orthonormal columns with the sign convention of :func:`align_signs`.

    Raises
    ------
    ValueError, TypeError
        If ``A`` is not a finite symmetric square matrix or a parameter is
        out of range.

    Examples
    --------
    >>> import numpy as np
    >>> w, V = top_eigenpairs(np.array([[2.0, 1.0], [1.0, 2.0]]), 1)
    >>> w, np.round(V, 4)
    (array([3.]), array([[0.7071],
           [0.7071]]))

    A repeated eigenvalue: the centring matrix :math:`H = I - \frac1n
    \mathbf 1\mathbf 1^\top` has eigenvalue 1 with multiplicity :math:`n-1`,
    and every one of the pairs asked for comes back:

    >>> from kpca import centering_matrix
    >>> w, V = top_eigenpairs(centering_matrix(100), 3)
    >>> w.round(12), V.shape
    (array([1., 1., 1.]), (100, 3))
    """
    A = check_symmetric(check_array(A, "A"), "A")
    n = A.shape[0]
    if k is None:
        k = n
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k must be at most the size {n} of A, got {k}")
    solver = check_choice(solver, "solver", EIGEN_SOLVERS)
    tol = check_positive_float(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter")
    random_state = check_random_state(random_state)
    overwrite = check_bool(overwrite, "overwrite")
    assume_psd = check_bool(assume_psd, "assume_psd")
    if overwrite:
        A += A.T
        A *= 0.5
    else:
        A = 0.5 * (A + A.T)
    return _top_eigenpairs(
        A, k, solver, tol, max_iter, random_state, True, assume_psd
    )
