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
    ``"auto"`` runs it with a block of two vectors up to order
    ``kpca._tuning.PAIR_UP_TO`` (3000: matrix-vector products, cheap while
    the matrix is in the processor's cache), where two wanted eigenvalues
    that come out equal could hide a third copy, and the answer is then
    recomputed with a block of :math:`k`; beyond it, with a block of
    :math:`\max(k, 2)` vectors.
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

A block of :math:`b` vectors with :math:`2b > n` (few points, many pairs)
leaves the Krylov basis no room to grow: the first block spans more than half
the space, so both Lanczos solvers hand such problems to the dense solver,
which is exact and no slower there.

Eigenvectors are defined only up to sign; :func:`align_signs` fixes it so that
the first entry of (within round-off) largest magnitude of each eigenvector is
positive.

The package is organised by concern: the solvers live in private modules
(``_lapack``, ``_krylov``, ``_randomized``, ``_arpack``), the checks of their
answers in ``_checks``, the sign convention in ``_signs``, the rank cut in
:mod:`kpca._spectrum` and the measured thresholds that choose a solver in
:mod:`kpca._tuning`; this module keeps the selection policy and the
guarantee.

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

import warnings
from typing import Any

import numpy as np

from .._spectrum import (
    RANK_RTOL,
    numerical_rank,
    symmetrize,
    symmetry_defect,
)
from .._tuning import DENSE_UP_TO, PAIR_UP_TO
from .._validation import (
    check_array,
    check_bool,
    check_choice,
    check_positive_float,
    check_positive_int,
    check_square,
    random_seed,
)
from . import _arpack, _krylov, _lapack, _randomized
from ._checks import Operator
from ._signs import SIGN_TIE_RTOL, align_signs

__all__ = [
    "EIGEN_SOLVERS",
    "RANK_RTOL",
    "SIGN_TIE_RTOL",
    "align_signs",
    "numerical_rank",
    "top_eigenpairs",
]

EIGEN_SOLVERS = (
    "auto",
    "dense",
    "lanczos",
    "subspace",
    "randomized",
    "arpack",
)


def _chosen_solver(n: int, k: int, solver: str, assume_psd: bool) -> str:
    """The solver that runs first for ``k`` pairs of order ``n`` (see the module documentation).

    ``"dense"`` means the matrix itself is needed; any other answer runs on
    products with it, and needs the matrix itself only if its check fails.
    """
    if solver == "randomized":
        solver = "subspace"
    if solver == "auto":
        solver = "lanczos" if n > DENSE_UP_TO and k <= n // 10 else "dense"
        if solver == "lanczos" and n <= PAIR_UP_TO:
            solver = "pair"
    if solver == "pair" and not _krylov.fits(n, 2):
        solver = "dense"
    if solver == "lanczos" and not _krylov.fits(n, max(k, 2)):
        # The block would span more than half the space (see the module
        # documentation): the dense solver is exact and no slower.
        solver = "dense"
    if solver == "subspace" and not assume_psd:
        # Subspace iteration finds the eigenvalues of largest magnitude, which
        # for an indefinite matrix need not be the largest.
        solver = "dense"
    if solver == "arpack" and k >= n - 1:  # ARPACK needs k < n - 1
        solver = "dense"
    return solver


def _top_eigenpairs(
    A: np.ndarray | Operator,
    k: int,
    *,
    solver: str = "auto",
    tol: float = 1e-10,
    max_iter: int = 500,
    random_state: Any = None,
    overwrite: bool = False,
    assume_psd: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`top_eigenpairs` on validated input.

    ``A`` is an exactly symmetric array, or an operator (see
    ``_checks.Operator``) whose matrix is exactly symmetric; ``overwrite``
    lets the dense solver destroy the array.  ``"randomized"`` is
    scikit-learn's name of ``"subspace"``.  ``"pair"`` is an internal
    strategy of ``"auto"``: Lanczos with a block of two vectors.
    """
    n = A.shape[0]
    rng = np.random.default_rng(random_seed(random_state))
    solver = _chosen_solver(n, k, solver, assume_psd)
    result = None
    if solver == "subspace":
        result = _randomized.subspace(A, k, tol, max_iter, rng)
        if result is None:
            warnings.warn(
                f"subspace iteration did not reach tol={tol:g} in {max_iter} "
                "iterations; the eigenpairs were computed by the dense solver",
                RuntimeWarning,
                stacklevel=3,
            )
    elif solver == "arpack":
        result = _arpack.arpack(A, k, tol, max_iter, rng)
    elif solver == "pair":
        result = _krylov.pair_lanczos(A, k, tol, max_iter, rng)
        if result is None:  # a copy may be missing, or no convergence
            result = _krylov.lanczos(A, k, tol, max_iter, rng, max(k, 2))
    elif solver == "lanczos":
        result = _krylov.lanczos(A, k, tol, max_iter, rng, max(k, 2))
    if result is None:
        result = _lapack.dense(A, k, overwrite)
    w, V = result
    return w, align_signs(V)


def top_eigenpairs(
    A: Any,
    k: int | None = None,
    *,
    solver: str = "auto",
    tol: float = 1e-10,
    max_iter: int = 500,
    random_state: Any = None,
    overwrite: bool = False,
    assume_psd: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The ``k`` largest eigenvalues of a symmetric matrix and their eigenvectors.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Symmetric matrix: :math:`\max|A - A^\top|` at most ``1e-10`` times
        :math:`\max|A|`, checked exactly in one pass that compares each
        tile of :math:`128 \times 128` entries with its mirror image.  A
        matrix symmetric up to round-off is symmetrised,
        :math:`\tfrac12(A + A^\top)`, in a new array (in ``A`` itself with
        ``overwrite``); an exactly symmetric one is used as it is, with no
        copy.
    k : int, optional
        How many eigenpairs, ``1 <= k <= n``; all ``n`` when None.
    solver : {"auto", "dense", "lanczos", "subspace", "randomized", "arpack"}
        Default ``"auto"``, which uses ``"dense"`` for ``n <= 600`` or ``k > n/10`` and
        ``"lanczos"`` otherwise (see the module documentation).  ``"subspace"`` is used only when
        ``assume_psd`` is true.  Whatever the choice, the pairs are checked
        and recomputed by ``"dense"`` if the check fails (see the module
        documentation), so exactly ``k`` pairs are returned.
        ``"randomized"`` is scikit-learn's name of ``"subspace"``.
    tol : float, default 1e-10
        Relative residual :math:`\lVert Av - \mu v\rVert / |\mu_1|` at which
        the iterative solvers stop.
    max_iter : int, default 500
        Iteration cap of the ``"subspace"`` and ``"lanczos"`` solvers
        (restarts for ``"arpack"``).
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the random starting vectors of the iterative solvers (0 when
        None, so results are reproducible; a generator gives a seed drawn
        from it).
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
    given = A
    A = check_square(check_array(A, "A"), "A")
    # check_array made a new array (from a list, or another dtype): ours.
    owned = not (
        isinstance(given, np.ndarray) and np.may_share_memory(A, given)
    )
    asymmetry, largest = symmetry_defect(A)
    if asymmetry > 1e-10 * max(largest, np.finfo(float).tiny):
        raise ValueError(
            "A must be symmetric (max |M - M.T| exceeds 1e-10 of max |M|)"
        )
    n = A.shape[0]
    if k is None:
        k = n
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k must be at most the size {n} of A, got {k}")
    solver = check_choice(solver, "solver", EIGEN_SOLVERS)
    tol = check_positive_float(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter")
    seed = random_seed(random_state)
    overwrite = check_bool(overwrite, "overwrite")
    assume_psd = check_bool(assume_psd, "assume_psd")
    if asymmetry > 0:
        A = symmetrize(A, inplace=overwrite or owned)
        owned = True
    return _top_eigenpairs(
        A,
        k,
        solver=solver,
        tol=tol,
        max_iter=max_iter,
        random_state=seed,
        overwrite=overwrite or owned,
        assume_psd=assume_psd,
    )
