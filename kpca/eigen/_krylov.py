"""Block Lanczos with full reorthogonalisation, and its block of two."""

from __future__ import annotations

import numpy as np

from .._spectrum import symmetrize
from .._threads import rows_times
from .._tuning import LANCZOS_BASIS_BLOCKS, LANCZOS_BASIS_ROWS
from ._checks import Operator

__all__ = ["fits", "lanczos", "pair_lanczos"]

# Two wanted eigenvalues closer than this fraction of the largest count as
# copies of one (see pair_lanczos).
_REPEAT_RTOL = 1e-6

# Block Lanczos accepts its pairs on the residuals of its recurrence down to
# this relative tolerance; below it, they are checked by a product.
_CERTIFIED_TOL = 1e-11


def fits(n: int, block: int) -> bool:
    """Whether a Krylov basis of order ``n`` has room for two blocks.

    A block of ``b`` vectors with ``2 b > n`` spans more than half of the
    space, so the basis cannot grow by a second block (nor keep a block
    through a thick restart and add one): the Krylov space would be the
    whole space after one step, and the dense solver computes that exactly,
    at no greater cost.
    """
    return 2 * block <= n


def lanczos(
    A: np.ndarray | Operator,
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
    miss them (for ``b < k``, see :func:`pair_lanczos`).

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
    if not fits(n, b):
        return None  # the dense solver runs
    # The basis takes limit x n numbers (see kpca._tuning); with 2 b <= n
    # it holds two blocks, and a thick restart keeps at most limit - b rows.
    limit = min(n, max(LANCZOS_BASIS_BLOCKS * b, LANCZOS_BASIS_ROWS))
    # The basis grows by doubling up to its limit: a fit that converges in
    # a few dozen vectors allocates no more than twice what it uses.
    basis = np.empty((min(limit, max(4 * b, 32)), n))
    T = np.empty((limit, limit))
    tiny = np.finfo(float).tiny
    # Every product runs on the BLAS library's threads: a block product
    # streams A once (rows_times), a matrix-vector product is one pass over
    # A bound by memory bandwidth (0.37 ms at n = 2000 on the 2-core
    # benchmark machine), and no step runs kpca's own threads, whose work
    # would share the cores with BLAS threads still spinning after a call.
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
        basis = _with_room(basis, size, size + width, limit)
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
        T[new, new] = symmetrize(C[:, new])
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


def _with_room(
    basis: np.ndarray, size: int, rows: int, limit: int
) -> np.ndarray:
    """``basis`` (its first ``size`` rows in use), doubled until it has ``rows`` rows."""
    if rows <= basis.shape[0]:
        return basis
    capacity = basis.shape[0]
    while capacity < min(rows, limit):
        capacity = min(limit, 2 * capacity)
    grown = np.empty((capacity, basis.shape[1]))
    grown[:size] = basis[:size]
    return grown


def pair_lanczos(
    A: np.ndarray | Operator,
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
    result = lanczos(A, k, tol, max_iter, rng, 2, by_vector=True)
    if result is None or k <= 2:
        return result
    w = result[0]
    alike = max(_REPEAT_RTOL, 10 * tol) * max(abs(w[0]), np.finfo(float).tiny)
    if np.any(w[:-1] - w[1:] <= alike):
        return None
    return result
