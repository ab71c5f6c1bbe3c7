r"""Kernel functions: the inner products of implicit feature maps.

A (valid) kernel is a function :math:`k(x, y) = \phi(x)^\top \phi(y)` for some
feature map :math:`\phi`.  Each function here takes data with the samples as
rows and returns the matrix of kernel values between the rows of ``X`` and the
rows of ``Y``; with ``Y=None`` it returns the kernel (Gram) matrix of ``X``
with itself, which is then exactly symmetric.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import numpy as np

from ._packed import PackedSymmetric
from ._threads import map_chunks
from ._validation import (
    check_array,
    check_nonnegative_int,
    check_positive_float,
    check_real,
)

__all__ = [
    "KernelFunction",
    "cosine_kernel",
    "gaussian_kernel",
    "kernel_diagonal",
    "linear_kernel",
    "make_kernel",
    "polynomial_kernel",
    "sigmoid_kernel",
    "squared_distances",
]


class KernelFunction(Protocol):
    """A kernel ``k(X, Y=None)``: the matrix of kernel values between rows."""

    def __call__(self, X: Any, Y: Any = None) -> np.ndarray: ...


def _pair(X, Y, *, sparse: bool = True) -> tuple[Any, Any]:
    # float32 data give a float32 kernel matrix (half the memory), and
    # scipy.sparse data are multiplied as they are, a dense tile at a time.
    X = check_array(X, "X", keep_float32=True, accept_sparse=sparse)
    if Y is None:
        return X, None
    Y = check_array(Y, "Y", keep_float32=True, accept_sparse=sparse)
    if Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"Y has {Y.shape[1]} features but X has {X.shape[1]}: both must have the same number of columns"
        )
    return X, Y


# Tiles of this many rows/columns stay in cache while the element-wise part
# of a kernel (norms, exp, power) is applied right after the matrix product;
# a tile is also all the temporary memory a thread needs.
_TILE = 512
# Rows of a diagonal tile that get their squared norms added at a time.
_STRIP = 64

# A squared distance below this fraction of ||x||^2 + ||y||^2 has lost more
# than two of its digits to cancellation in ||x||^2 + ||y||^2 - 2 x.y; such
# entries are recomputed from the differences x - y.
_CANCELLATION = 1e-2


# Set by packed_gram(): a kernel matrix of X with itself is then returned as
# its upper triangle (PackedSymmetric), for callers that only take products.
_PACKED_GRAM: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "packed_gram", default=False
)


@contextlib.contextmanager
def packed_gram() -> Iterator[None]:
    """Within it, ``k(X)`` of a named kernel returns a :class:`PackedSymmetric`.

    Internal to kpca: kernel PCA asks for it when its eigensolver needs the
    matrix only through products, which halves the memory of the matrix.
    """
    token = _PACKED_GRAM.set(True)
    try:
        yield
    finally:
        _PACKED_GRAM.reset(token)


TileFunction = Callable[
    [np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool], None
]


# Tiling, the mirror tile, the cancellation check and the overflow checks
# of each tile share their loop variables: to split, tracked in R7.12.
def _tiled(  # noqa: C901
    X: np.ndarray,
    Y: np.ndarray | None,
    finish: TileFunction | None,
    *,
    what: str,
    translation_invariant: bool = False,
    inner_products: bool = False,
) -> np.ndarray:
    """``finish(X @ Y.T)`` computed tile by tile.

    Within :func:`packed_gram`, with ``Y=None``, the tiles on and above the
    diagonal are all there is: the result is a :class:`PackedSymmetric`.

    ``finish(T, X_rows, Y_rows, sq_rows, sq_cols, on_diagonal)`` transforms
    a tile of inner products in place, given the rows it came from and their
    squared norms.  With ``Y=None`` only the tiles on and above the diagonal
    are computed and the others are their mirror images, so the result is
    exactly symmetric (the diagonal tiles come from a symmetric rank-k
    update, itself symmetric).  A ``translation_invariant`` kernel (a
    function of ``x - y``) is computed from data shifted by the mean of
    ``X``, so that points far from the origin lose no digits.

    Overflow and underflow raise a ``ValueError`` naming ``what`` (the
    matrix being computed): squared distances that would overflow are
    found from the squared norms before any product, and every tile is
    checked for infinities and NaNs; the kernel of ``inner_products``
    (linear, polynomial) is also refused when all its values lie below
    :data:`_SMALLEST`, where float64 has lost its digits to underflow.
    """
    symmetric = Y is None
    dtype = X.dtype if Y is None else np.result_type(X.dtype, Y.dtype)
    shift = None
    if translation_invariant:
        with np.errstate(over="ignore", invalid="ignore"):
            shift = np.asarray(X.mean(axis=0)).ravel().astype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        rows = _Rows(X, shift)
        columns = rows if Y is None else _Rows(Y, shift)
        n, m = rows.shape[0], columns.shape[0]
        sq_x = rows.squared_norms()
        sq_y = sq_x if symmetric else columns.squared_norms()
    if translation_invariant:
        _check_squared_norms(sq_x, sq_y, rows, columns, what)
    packed = symmetric and _PACKED_GRAM.get()
    K: Any = (
        PackedSymmetric(n, dtype, _TILE)
        if packed
        else np.empty((n, m), dtype=dtype)
    )
    # The largest |entry| of each tile (NaN if a tile holds one).
    peaks: list[float] = []

    def panel(i0: int) -> None:
        # One row panel, tile by tile: each tile's product and element-wise
        # part stay in cache, and the temporaries are a tile, not a panel.
        i1 = min(i0 + _TILE, n)
        Xi = rows[i0:i1]
        for j0 in range(i0 if symmetric else 0, m, _TILE):
            j1 = min(j0 + _TILE, m)
            diagonal = symmetric and j0 == i0
            # A diagonal tile is a symmetric rank-k update, itself exactly
            # symmetric (a general product need not be).
            Yj = Xi if diagonal else columns[j0:j1]
            # The tile is made where it belongs in K: no tile-sized
            # temporary per thread, and no copy.
            T = K.block(i0, i1, j0, j1) if packed else K[i0:i1, j0:j1]
            with np.errstate(over="ignore", invalid="ignore"):
                np.matmul(Xi, Yj.T, out=T)
                if finish is not None:
                    finish(T, Xi, Yj, sq_x[i0:i1], sq_y[j0:j1], diagonal)
            # Two reductions, no temporary; NaN propagates through both.
            peaks.append(max(float(T.max()), -float(T.min())))
            if symmetric and not diagonal and not packed:
                # The mirror tile.  A ufunc writing through the transposed
                # view iterates in cache-friendly blocks: measured on a
                # 512 x 512 tile, 0.29 ms against 0.87 ms for an assignment
                # or a copy of T.T, which walk one side with a large stride.
                np.positive(T, out=K[j0:j1, i0:i1].T)

    # The panels are shared between the cores (kpca._threads.map_chunks):
    # the element-wise part (exp, power) is single-threaded in NumPy, so
    # without them one core would do it all.  NumPy releases the GIL in
    # BLAS and in the element-wise kernels, each panel writes its own
    # blocks, and its matrix products run on one BLAS thread.  A symmetric
    # matrix's panels shrink down the diagonal, so taken in order they come
    # largest first, and each thread takes the next when it is free (at
    # n = 2000, 4 + 1 and 3 + 2 tiles).
    panels = list(range(0, n, _TILE))
    map_chunks(lambda i: panel(panels[i]), len(panels))
    peak = float(np.max(peaks)) if peaks else 0.0  # NaN propagates
    if not np.isfinite(peak):
        raise ValueError(
            f"{what} overflows float64 (the largest |value| of the data is "
            f"{_largest(rows, columns):.3g}): scale the data"
        )
    if inner_products and peak < _SMALLEST and 0.0 < _largest(rows, columns):
        raise ValueError(
            f"{what} underflows: all its values are below {_SMALLEST:.0e}, "
            "where float64 has lost its digits (the largest |value| of the "
            f"data is {_largest(rows, columns):.3g}): scale the data"
        )
    return K


class _Rows:
    """Row blocks of a dense or sparse matrix, shifted by ``shift`` when given.

    A dense matrix is shifted once, up front; a sparse one keeps its
    sparsity and each block is made dense (and shifted) when it is read.
    """

    def __init__(self, M: Any, shift: np.ndarray | None) -> None:
        self.sparse = hasattr(M, "toarray")
        self.shift = shift if self.sparse else None
        if not self.sparse and shift is not None:
            M = M - shift
        self.M = M
        self.shape = M.shape

    def __getitem__(self, rows: slice) -> np.ndarray:
        block = self.M[rows]
        if not self.sparse:
            return block
        block = block.toarray()
        if self.shift is not None:
            block -= self.shift
        return block

    def squared_norms(self) -> np.ndarray:
        if not self.sparse:
            return np.einsum("ij,ij->i", self.M, self.M)
        parts = []
        for start in range(0, self.shape[0], _TILE):
            block = self[start : start + _TILE]
            parts.append(np.einsum("ij,ij->i", block, block))
        return np.concatenate(parts) if parts else np.zeros(0)


# Below this magnitude (2.2e-308 / 2.2e-16, about 1e-292) a float64 has
# fewer than 53 significant bits: a kernel whose values all lie below it has
# lost its digits to underflow.
_SMALLEST = np.finfo(float).tiny / np.finfo(float).eps


def _largest(rows: _Rows, columns: _Rows) -> float:
    """The largest |entry| of the (shifted) rows and columns, block by block.

    Only for error messages and the rare underflow test.
    """
    peak = 0.0
    for part in (rows, columns):
        for start in range(0, part.shape[0], _TILE):
            block = part[start : start + _TILE]
            peak = max(peak, float(np.max(np.abs(block), initial=0.0)))
    return peak


def _check_squared_norms(
    sq_x: np.ndarray,
    sq_y: np.ndarray,
    rows: _Rows,
    columns: _Rows,
    what: str,
) -> None:
    """Raise if squared distances between the (shifted) rows over- or underflow.

    ``|x - y|^2 <= 2 |x|^2 + 2 |y|^2``, and the tiles form
    ``|x|^2 + |y|^2 - 2 x.y``, whose terms are bounded by the same sum:
    twice the largest squared norms is the largest number computed.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        largest = max(
            float(np.max(sq_x, initial=0.0)), float(np.max(sq_y, initial=0.0))
        )
        bound = 4.0 * largest
    if not np.isfinite(bound):
        raise ValueError(
            f"{what} overflow float64: the points lie up to "
            f"{_largest(rows, columns):.3g} from their mean, and squared "
            "distances beyond 1.8e308 are infinite: scale the data"
        )
    if largest < _SMALLEST and _largest(rows, columns) > 0.0:
        raise ValueError(
            f"{what} underflow: the points lie at most "
            f"{_largest(rows, columns):.3g} from their mean, and squares "
            f"below {_SMALLEST:.0e} have lost their digits: scale the data"
        )


# Eigenvalues of a kernel matrix computed in float64 are uncertain by about
# eps ||K||_F (measured: 0.3 to 2 eps ||K||_F for polynomial and linear
# kernels of data near and far from the origin); ten times that is the
# round-off below which an eigenvalue is not resolved.
_ROUNDOFF_UNITS = 10.0


def _kernel_roundoff(K: np.ndarray | PackedSymmetric) -> float:
    """The round-off in the eigenvalues of the computed kernel matrix ``K`` (and of HKH).

    ``10 eps max(||K||_F, sum |K_ii|)``: on the scale of the uncentred
    matrix, since the centring subtracts its large common part exactly as
    computed, with its round-off.  Raises if that scale overflows.  Kernel
    PCA and the Nystroem landmarks leave out the eigenvalues below it.
    """
    with np.errstate(over="ignore"):
        norm = (
            K.frobenius_norm()
            if isinstance(K, PackedSymmetric)
            else float(np.linalg.norm(K))
        )
        scale = max(norm, float(np.abs(K.diagonal()).sum()))
    if not np.isfinite(scale):
        peak = (
            K.peak()
            if isinstance(K, PackedSymmetric)
            else max(float(K.max()), -float(K.min()))
        )
        raise ValueError(
            f"the kernel matrix is too large to decompose in float64: its "
            f"entries reach {peak:.3g} and its norm overflows: scale the data"
        )
    return _ROUNDOFF_UNITS * float(np.finfo(K.dtype).eps) * scale


def _to_squared_distances(
    T: np.ndarray,
    X_rows: np.ndarray,
    Y_rows: np.ndarray,
    sq_rows: np.ndarray,
    sq_cols: np.ndarray,
    diagonal: bool,
    *,
    exact_small: bool = False,
) -> None:
    T *= -2.0
    if diagonal:
        # Adding the two norms to each other first keeps a diagonal tile
        # exactly symmetric; a strip of rows at a time, so the temporary is
        # a strip, not a tile (2 MiB per thread at 512 x 512).
        for start in range(0, T.shape[0], _STRIP):
            stop = start + _STRIP
            T[start:stop] += sq_rows[start:stop, None] + sq_cols[None, :]
    else:
        # Elsewhere in place: no temporary of the tile's size.
        T += sq_rows[:, None]
        T += sq_cols[None, :]
    np.maximum(T, 0.0, out=T)
    if exact_small:
        limit = _CANCELLATION * (sq_rows.max() + sq_cols.max())
        if diagonal:
            np.fill_diagonal(T, np.inf)  # exact zeros, set below
        # One minimum per tile rules out most tiles; in the others the
        # candidates come first, against the tile's bound, then the exact
        # test of each against its own norms.
        if T.min() < limit:
            rows, cols = np.nonzero(T < limit)
            norms = sq_rows[rows] + sq_cols[cols]
            cancelled = T[rows, cols] < _CANCELLATION * norms
            rows, cols = rows[cancelled], cols[cancelled]
            if rows.size:
                diff = X_rows[rows] - Y_rows[cols]
                T[rows, cols] = np.einsum("ij,ij->i", diff, diff)
    if diagonal:
        np.fill_diagonal(T, 0.0)


# 2 sigma^2 must be a normal float64: below, it underflows (1 / (2 sigma^2)
# is infinite); above, it overflows.
_SIGMA_RANGE = (
    float(np.sqrt(np.finfo(float).tiny / 2.0)),
    float(np.sqrt(np.finfo(float).max / 2.0)),
)


def check_sigma(sigma: Any, name: str = "sigma") -> float:
    """Return the Gaussian width ``sigma`` as a float, raising unless usable.

    It must be a finite number > 0 whose ``2 * sigma**2`` neither
    underflows nor overflows: between about 1.1e-154 and 9.5e153.
    Internal to kpca.
    """
    sigma = check_positive_float(sigma, name)
    low, high = _SIGMA_RANGE
    if not low <= sigma <= high:
        raise ValueError(
            f"{name}={sigma!r} is out of range: 2*{name}**2 "
            f"{'underflows' if sigma < low else 'overflows'} float64; "
            f"{name} must lie between {low:.2g} and {high:.2g} "
            "(scale the data instead)"
        )
    return sigma


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
    return _tiled(X, Y, None, what="the linear kernel", inner_products=True)


def polynomial_kernel(
    X, Y=None, degree: int = 2, coef0: float = 1.0
) -> np.ndarray:
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

    def finish(T, X_rows, Y_rows, sq_rows, sq_cols, diagonal):
        T += coef0
        if degree != 1:
            np.power(T, degree, out=T)

    return _tiled(
        X, Y, finish, what="the polynomial kernel", inner_products=True
    )


def squared_distances(X, Y=None) -> np.ndarray:
    r"""Squared Euclidean distances :math:`\lVert x_i - y_j\rVert^2`.

    Computed as :math:`\lVert x\rVert^2 + \lVert y\rVert^2 - 2x^\top y` with
    BLAS after shifting the data by the mean of ``X`` (distances do not
    change, and points far from the origin lose no digits); entries that
    the subtraction would still cancel (below a hundredth of
    :math:`\lVert x\rVert^2 + \lVert y\rVert^2`) are recomputed from
    :math:`x - y`.  So every entry has a relative error of at most a few
    hundred units of round-off (about 1e-13), wherever the points lie; the
    matrix is exactly symmetric with a zero diagonal when ``Y`` is None.

    Parameters
    ----------
    X : array_like, shape (n_samples_X, n_features)
    Y : array_like, shape (n_samples_Y, n_features), optional
        Defaults to ``X``.

    Returns
    -------
    D2 : ndarray, shape (n_samples_X, n_samples_Y)
        :math:`(D2)_{ij} = \lVert x_i - y_j\rVert^2 \ge 0`.

    Examples
    --------
    >>> import numpy as np
    >>> squared_distances(np.array([[0.0, 0.0], [3.0, 4.0]]))
    array([[ 0., 25.],
           [25.,  0.]])
    """
    X, Y = _pair(X, Y)

    def finish(T, X_rows, Y_rows, sq_rows, sq_cols, diagonal):
        _to_squared_distances(
            T, X_rows, Y_rows, sq_rows, sq_cols, diagonal, exact_small=True
        )

    return _tiled(
        X, Y, finish, what="the squared distances", translation_invariant=True
    )


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
    sigma = check_sigma(sigma)
    X, Y = _pair(X, Y)
    scale = -1.0 / (2.0 * sigma * sigma)

    def finish(T, X_rows, Y_rows, sq_rows, sq_cols, diagonal):
        _to_squared_distances(
            T, X_rows, Y_rows, sq_rows, sq_cols, diagonal, exact_small=True
        )
        T *= scale
        np.exp(T, out=T)

    return _tiled(
        X,
        Y,
        finish,
        what="the distances of the Gaussian kernel",
        translation_invariant=True,
    )


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

    Parameters
    ----------
    kernel : {"linear", "polynomial", "gaussian"} or callable
        The kernel.
    sigma : float, default 1.0
        Width of the Gaussian kernel.
    degree : int, default 2
        Degree of the polynomial kernel.
    coef0 : float, default 1.0
        Constant of the polynomial kernel.

    Returns
    -------
    callable
        ``k(X, Y=None)`` returning the ``(len(X), len(Y))`` kernel matrix
        (``Y`` defaults to ``X``); a user's callable is wrapped so that its
        input and output are validated.

    Examples
    --------
    >>> import numpy as np
    >>> k = make_kernel("polynomial", degree=3, coef0=0.0)
    >>> k(np.array([[2.0]]), np.array([[1.0]]))
    array([[8.]])
    """
    if callable(kernel):

        def k(X, Y=None, _f=kernel):
            X, Y = _pair(X, Y, sparse=False)
            out = check_array(_f(X, X if Y is None else Y), "kernel(X, Y)")
            expected = (X.shape[0], (X if Y is None else Y).shape[0])
            if out.shape != expected:
                raise ValueError(
                    f"the callable kernel returned shape {out.shape}, expected {expected}"
                )
            return out

        return k
    if not isinstance(kernel, str):
        raise TypeError(
            f"kernel must be a string or a callable, got {kernel!r}"
        )
    if kernel == "linear":
        return linear_kernel
    if kernel == "polynomial":
        degree = check_nonnegative_int(degree, "degree")
        coef0 = check_real(coef0, "coef0")
        p, c = degree, coef0

        def polynomial(X: Any, Y: Any = None) -> np.ndarray:
            return polynomial_kernel(X, Y, degree=p, coef0=c)

        return polynomial
    if kernel == "gaussian":
        sigma = check_sigma(sigma)
        width = sigma

        def gaussian(X: Any, Y: Any = None) -> np.ndarray:
            return gaussian_kernel(X, Y, sigma=width)

        return gaussian
    raise ValueError(
        f"kernel must be 'linear', 'polynomial', 'gaussian', 'precomputed' or a callable, got {kernel!r}"
    )


_NAMED_KERNELS = frozenset({"linear", "polynomial", "gaussian"})


def kernel_diagonal(
    kernel: str | KernelFunction,
    X,
    *,
    sigma: float = 1.0,
    degree: int = 2,
    coef0: float = 1.0,
) -> np.ndarray:
    r"""The values :math:`k(x_i, x_i)` for each row of ``X``, without the matrix.

    Parameters
    ----------
    kernel : {"linear", "polynomial", "gaussian"} or callable
        As in :func:`make_kernel`.
    X : array_like, shape (n_samples, n_features)
    sigma, degree, coef0 : float, int, float
        The kernel's parameters, as in :func:`make_kernel`.

    Returns
    -------
    ndarray, shape (n_samples,)
        :math:`\lVert x_i\rVert^2` (linear),
        :math:`(c + \lVert x_i\rVert^2)^p` (polynomial), 1 (Gaussian); a
        callable is evaluated one row at a time, in :math:`O(n)` memory.

    Examples
    --------
    >>> import numpy as np
    >>> kernel_diagonal("polynomial", np.array([[1.0, 1.0], [2.0, 1.0]]))
    array([ 9., 36.])
    """
    X = check_array(X, "X")
    if not (isinstance(kernel, str) and kernel in _NAMED_KERNELS):
        # A callable, evaluated row by row; make_kernel raises for the rest.
        function = make_kernel(kernel)
        return np.array([float(function(row[None, :])[0, 0]) for row in X])
    if kernel == "gaussian":
        check_sigma(sigma)
        return np.ones(X.shape[0])
    squared_norms = np.einsum("ij,ij->i", X, X)
    if kernel == "linear":
        return squared_norms
    degree = check_nonnegative_int(degree, "degree")  # polynomial
    coef0 = check_real(coef0, "coef0")
    return (coef0 + squared_norms) ** degree


def sigmoid_kernel(
    X, Y=None, gamma: float | None = None, coef0: float = 1.0
) -> np.ndarray:
    r"""Sigmoid kernel :math:`k(x, y) = \tanh(\gamma\, x^\top y + c)`.

    The kernel of a neural network's hidden unit.  It is *not* positive
    semi-definite in general (for :math:`c > 0` it never is for all
    :math:`\gamma`), so kernel PCA with it may meet negative eigenvalues; see
    :class:`kpca.NonEuclideanWarning`.

    Parameters
    ----------
    X : array_like, shape (n_samples_X, n_features)
    Y : array_like, shape (n_samples_Y, n_features), optional
        Defaults to ``X``.
    gamma : float, optional
        The slope :math:`\gamma`; ``1 / n_features`` when None (as in
        scikit-learn).
    coef0 : float, default 1.0
        The offset :math:`c`.

    Returns
    -------
    K : ndarray, shape (n_samples_X, n_samples_Y)
        Values in :math:`(-1, 1)`.

    Examples
    --------
    >>> import numpy as np
    >>> sigmoid_kernel(np.array([[1.0], [-1.0]]), gamma=1.0, coef0=0.0).round(4)
    array([[ 0.7616, -0.7616],
           [-0.7616,  0.7616]])
    """
    X, Y = _pair(X, Y)
    slope = 1.0 / X.shape[1] if gamma is None else check_real(gamma, "gamma")
    offset = check_real(coef0, "coef0")

    def finish(T, X_rows, Y_rows, sq_rows, sq_cols, diagonal):
        T *= slope
        T += offset
        np.tanh(T, out=T)

    return _tiled(X, Y, finish, what="the sigmoid kernel")


def cosine_kernel(X, Y=None) -> np.ndarray:
    r"""Cosine kernel :math:`k(x, y) = x^\top y / (\lVert x\rVert\,\lVert y\rVert)`.

    The linear kernel of the rows scaled to unit length; a zero row has
    kernel 0 with every row (as in scikit-learn).

    Parameters
    ----------
    X : array_like, shape (n_samples_X, n_features)
    Y : array_like, shape (n_samples_Y, n_features), optional
        Defaults to ``X``.

    Returns
    -------
    K : ndarray, shape (n_samples_X, n_samples_Y)
        Values in :math:`[-1, 1]`, ones on the diagonal (for non-zero rows)
        when ``Y`` is None.

    Examples
    --------
    >>> import numpy as np
    >>> cosine_kernel(np.array([[3.0, 4.0], [0.0, 2.0]]))
    array([[1. , 0.8],
           [0.8, 1. ]])
    """
    X, Y = _pair(X, Y)

    def unit_rows(A: np.ndarray) -> np.ndarray:
        # Scaled by the largest magnitude first, so that no square
        # overflows or underflows.
        scale = np.max(np.abs(A), axis=1, keepdims=True)
        scale[scale == 0] = 1.0
        A = A / scale
        norms = np.sqrt(np.einsum("ij,ij->i", A, A))[:, None]
        norms[norms == 0] = 1.0
        return A / norms

    return _tiled(
        unit_rows(X),
        None if Y is None else unit_rows(Y),
        None,
        what="the cosine kernel",
    )
