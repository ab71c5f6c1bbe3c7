r"""Centred PCA of an explicit, finite feature map, streamed over chunks of rows.

Both approximate kernel PCAs of :mod:`kpca` replace the implicit feature map
:math:`\phi` by an explicit one, :math:`f(x) = W^\top g(x) \in \mathbb R^r`,
where :math:`g(x) \in \mathbb R^p` is cheap to evaluate for a chunk of rows:

* Nyström (:mod:`kpca.nystroem`): :math:`g(x) = (k(x, z_j))_{j\le m}`, the
  kernel values against :math:`m` landmarks, and :math:`W = U_r\Lambda_r^{-1/2}`
  from the eigendecomposition of the landmarks' kernel matrix;
* random Fourier features (:mod:`kpca.random_features`): :math:`g = f`,
  :math:`W = I`.

Kernel PCA with the approximate kernel :math:`\tilde k(x, y) = f(x)^\top f(y)`
is exactly linear PCA of the rows :math:`f(x_i)`: the centred kernel matrix
:math:`H\tilde KH = F_cF_c^\top` (with :math:`F_c` the features minus their
mean over the data) has the same non-zero eigenvalues :math:`\mu_i` as the
:math:`r\times r` scatter matrix

.. math::

    C_F = F_c^\top F_c = W^\top C_g W,\qquad
    C_g = \sum_i (g(x_i) - \bar g)(g(x_i) - \bar g)^\top,

and the scores of a point are :math:`z(x) = V_k^\top (f(x) - \bar f)
= A^\top (g(x) - \bar g)` with :math:`V_k` the top :math:`k` eigenvectors of
:math:`C_F` and :math:`A = WV_k`.  One pass over the chunks accumulates
:math:`\bar g` and :math:`C_g` (:class:`kpca.streaming.StreamingMoments`);
``transform`` computes the scores in a second pass.  Memory is
:math:`O(p^2 + \text{chunk}\cdot p)` plus the :math:`n\times k` scores.
``fit_transform`` of random features keeps the features of its one pass
for the scores while they take at most ``KEEP_FEATURES_UP_TO`` bytes
(1 GiB), and otherwise computes them a second time; Nyström kernel rows are
cheaper to recompute than to hold (``FeatureMap.keep_for_scores``).

The structure: a feature map is an object (:class:`FeatureMap`:
``features(chunk)``, ``W``, ``error_scale(chunk)``;
:class:`kpca.random_features.RandomFourierMap` and
:class:`kpca.nystroem.NystroemMap`); :func:`fit_feature_pca` is the one
chunked PCA, whatever the data (:class:`FitData`: an array, chunks, a dask
array) and for ``partial_fit`` (the moments so far merged with the new
ones); :func:`scores` gives the scores.  Each estimator's ``_fit`` makes
its feature map, calls :func:`fit_feature_pca` and sets its attributes.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

import numpy as np
import scipy.linalg

from ._base import BaseEstimator, check_is_fitted, check_n_features
from ._dask import is_dask_array
from ._spectrum import components_to_keep, symmetrize
from ._threads import available_cores, on_cores, one_blas_thread, slices
from ._tuning import DENSE_UP_TO
from ._validation import UNDERFLOW_SQUARES, check_n_components, random_seed
from .eigen import top_eigenpairs
from .eigen._signs import sign_flips
from .landmarks import _uniform_sample
from .streaming import (
    StreamingMoments,
    _check_chunk_size,
    _peek,
    is_one_shot,
    iter_chunks,
)

# Default chunk: about 2**21 entries (16 MB) of the n x p block g(X_chunk).
_CHUNK_ENTRIES = 2**21


def _descending_eigh(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All eigenpairs of the small symmetric ``A``, largest first.

    A full decomposition (LAPACK's divide and conquer): no subset driver that
    could return fewer pairs than asked.  On one BLAS thread
    (:mod:`kpca._threads`): its tridiagonal reduction is a long run of small
    BLAS calls.
    """
    with one_blas_thread():
        w, V = scipy.linalg.eigh(A, driver="evd", check_finite=False)
    return w[::-1], V[:, ::-1]


def _top_eigenpairs(
    C: np.ndarray, k: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` largest eigenpairs of the r x r scatter (all when ``k`` is None), largest first.

    A few components of a large scatter come from ``kpca.eigen.top_eigenpairs``
    (where its ``"auto"`` picks block Lanczos, to a 1e-10 relative residual,
    with its exact fallback): a full eigh of a 1000 x 1000 matrix takes longer
    than a streamed fit of 10^4 points.
    """
    r = C.shape[0]
    if k is not None and r > DENSE_UP_TO and k <= r // 10:
        return top_eigenpairs(C, k, solver="auto", random_state=0)
    return _descending_eigh(C)


def _check_features(G: np.ndarray) -> np.ndarray:
    """Raise unless the raw features of a chunk are finite."""
    if not np.all(np.isfinite(G)):
        raise ValueError(
            "the features of X overflow float64 (X holds values too large "
            "for the feature map): scale X"
        )
    return G


# Eigenvalues of the scatter of features computed in float64 are uncertain
# by about eps times the scale of the scatter as computed (see
# _scatter_roundoff); ten times that is the round-off below which an
# eigenvalue is not resolved, as for kernel PCA's kernel matrix.
_ROUNDOFF_UNITS = 10.0


def _scatter_roundoff(
    moments: StreamingMoments, W: np.ndarray | None, error_scale: float
) -> float:
    r"""The round-off in the eigenvalues of :math:`C_F = W^\top C_g W`.

    An error :math:`\delta g_i` of each raw feature row changes the scatter
    by about :math:`2\sum_i \lVert\delta g_i\rVert\,\lVert g_i - \bar g\rVert
    \le 2\sqrt{\sum_i\lVert\delta g_i\rVert^2 \operatorname{tr} C_g}`, with
    :math:`\lVert\delta g_i\rVert` a unit of round-off of :math:`g_i` (not of
    its centred part: :math:`\sum_i\lVert g_i\rVert^2`), or of what
    ``error_scale`` says; and :math:`W` multiplies it by at most
    :math:`\lVert W\rVert^2` (:math:`1/\lambda_r` for Nystroem).  Measured
    on Nystroem fits in 300 random settings, eigenvalues moved between
    chunkings and orders of the rows by at most 5.5 times
    :math:`\varepsilon\sqrt{\operatorname{tr} C_g\sum_i\lVert g_i\rVert^2}
    /\lambda_r` (1.3 at the 99th percentile).
    """
    scatter, mean = moments.scatter, moments.mean
    assert scatter is not None and mean is not None
    centred = float(np.trace(scatter))
    uncentred = centred + moments.n_samples * float(mean @ mean)
    amplification = 1.0
    if W is not None:  # columns of norm 1/sqrt(lambda_j)
        amplification = float(np.max(np.einsum("ij,ij->j", W, W)))
    return (
        _ROUNDOFF_UNITS
        * np.finfo(float).eps
        * np.sqrt(centred * max(uncentred, error_scale))
        * amplification
    )


# Below this root mean square a feature's squares, and so its scatter,
# have lost digits to underflow (kpca._validation.UNDERFLOW_SQUARES).
_UNDERFLOW_SCALE = float(np.sqrt(UNDERFLOW_SQUARES))


def _check_squares_normal(
    scatter: np.ndarray, raw_mean: np.ndarray, n: int
) -> None:
    """Raise if the raw features are so small that their squares underflow.

    A linear or polynomial Nyström feature of data near 1e-80 is a kernel
    value near 1e-160, whose square is subnormal: the scatter keeps a few
    digits, and the eigenvalues came out wrong by up to 0.2 % with no sign
    of it.  Features that are exactly zero are left to the rank check.
    """
    with np.errstate(over="ignore"):  # huge features: other checks' turn
        mean_square = np.diag(scatter) / n + raw_mean.astype(float) ** 2
    scale = max(
        float(np.sqrt(np.max(mean_square, initial=0.0))),
        float(np.max(np.abs(raw_mean), initial=0.0)),
    )
    if 0.0 < scale < _UNDERFLOW_SCALE:
        raise ValueError(
            "the features are too small for float64: their squares "
            f"underflow (root mean square of the largest {scale:.3g}): "
            "scale X, or choose kernel parameters whose values are not "
            "this small"
        )


@dataclass
class _ChunkedFit:
    """PCA of the features, from their moments: what every fit path sets."""

    raw_mean: np.ndarray
    eigenvalues: np.ndarray
    A: np.ndarray
    V: np.ndarray
    n_samples: int
    # Set by fit_feature_pca: the moments the fit continues from
    # (partial_fit) and the features kept for the scores (fit_transform).
    moments: StreamingMoments | None = None
    kept: list[np.ndarray] | None = None


def _pca_of_moments(
    moments: StreamingMoments,
    W: np.ndarray | None,
    n_components: int | None,
    stacklevel: int,
) -> _ChunkedFit:
    r"""The top eigenpairs of :math:`W^\top C_g W`, signs fixed (module docstring).

    The one chunked-PCA routine: ``fit`` on arrays, chunk iterators and dask
    arrays, and ``partial_fit``, differ only in how they get the moments.
    """
    n = moments.n_samples
    if n < 2:
        raise ValueError(
            f"X has {n} sample; kernel PCA needs at least 2 (n_samples = 1 has no variance)"
        )
    k = check_n_components(n_components, n)
    scatter, raw_mean = moments.scatter, moments.mean
    assert scatter is not None and raw_mean is not None
    _check_squares_normal(scatter, raw_mean, n)
    C = scatter if W is None else W.T @ scatter @ W
    C = symmetrize(C, inplace=W is not None)
    mu, V = _top_eigenpairs(C, k)
    if k is not None:  # the full decomposition gives them all
        mu, V = mu[:k], V[:, :k]
    keep = components_to_keep(
        mu,
        k,
        "centred approximate kernel matrix",
        "the approximate kernel matrix has no positive eigenvalue after "
        "centring: there is no component",
        stacklevel=stacklevel + 1,
        roundoff=_scatter_roundoff(
            moments, W, getattr(moments, "error_scale", 0.0)
        ),
        advice="centre or scale X first, or use fewer landmarks",
    )
    k = keep if k is None else min(k, keep)
    mu, V = mu[:k].copy(), V[:, :k].copy()
    A = V if W is None else W @ V
    # Signs: kpca's rule (align_signs) on the coefficients of each direction
    # over g; A = W V does not depend on the signs eigh gave W's columns.
    signs = sign_flips(A)
    V *= signs
    A = V if W is None else A * signs
    return _ChunkedFit(raw_mean.copy(), mu, A, V, n)


class FeatureMap(Protocol):
    r"""What the chunked PCA needs of a feature map :math:`f = W^\top g`.

    :class:`kpca.random_features.RandomFourierMap` (:math:`W = I`) and
    :class:`kpca.nystroem.NystroemMap` are the two.  A feature map is a
    plain object of arrays (no closure), so that a dask worker in another
    process can receive it and a fitted estimator pickles.
    """

    @property
    def width(self) -> int:
        """p, the number of raw features of a row."""
        ...  # pragma: no cover

    @property
    def W(self) -> np.ndarray | None:
        """W, shape (p, r); None is the identity."""
        ...  # pragma: no cover

    @property
    def keep_for_scores(self) -> bool:
        """Whether ``fit_transform`` should keep the features, not recompute them.

        Measured at n = 100,000 and p = 1000 on the 2-core benchmark
        machine: random features (cosines) took 1.12 times as long
        recomputed as kept; Nyström kernel rows (a product with d terms and
        an exponential, on every core) 0.91 times, so they are recomputed.
        """
        ...  # pragma: no cover

    def features(self, chunk: np.ndarray) -> np.ndarray:
        """g(chunk), shape (rows, p): finite float64, a new array."""
        ...  # pragma: no cover

    def error_scale(self, chunk: np.ndarray) -> float:
        """Sum over the rows of ||round-off of g(x)||^2 / eps^2.

        0 when the round-off of g is a unit of its own size (the scale the
        scatter's round-off bound assumes by default, ``_scatter_roundoff``);
        random features err by a unit of the size of their phases.
        """
        ...  # pragma: no cover


class _FeatureMoments(StreamingMoments):
    """The moments of the features, and the round-off scale they carry.

    ``error_scale`` (see :meth:`FeatureMap.error_scale`) is a sum over the
    rows, so the merge of two parts adds it.
    """

    def __init__(self, n_columns: int | None = None) -> None:
        super().__init__(n_columns)
        self.error_scale = 0.0

    def merge(self, other: StreamingMoments) -> _FeatureMoments:
        merged = super().merge(other)
        out = _FeatureMoments()
        out.__dict__.update(merged.__dict__)
        out.error_scale = self.error_scale + getattr(other, "error_scale", 0.0)
        return out


class _LaneMoments(_FeatureMoments):
    r"""The moments of one lane's rows, updated in place (see ``_moments``).

    The arithmetic of :meth:`kpca.streaming.StreamingMoments.update`: rows
    shifted by the first row, each slice centred on its own mean, and the
    slices combined by Chan, Golub and LeVeque's pairwise formula.  The
    slice's scatter and the formula's rank-one term
    :math:`\tfrac{n_a n_b}{n}\delta\delta^\top` come from one product:
    the centred slice is made in a buffer with the weighted :math:`\delta`
    as its last row.  That buffer and the product's are the lane's own,
    reused by every slice; ``update`` allocates three arrays of the
    scatter's or the slice's size per slice, and its outer product takes
    a pass of its own (in the peer benchmark, ``benchmarks/README.md``,
    kpca's median times of random features at n = 100,000 fell by
    1.5-5.5 %, and of Nystroem by 2-11 %).
    """

    def __init__(self) -> None:
        super().__init__()
        self._rows: np.ndarray | None = None
        self._square: np.ndarray | None = None

    def update(self, G: np.ndarray) -> _LaneMoments:
        """Add the rows of the features ``G`` (float64, shape (rows, p))."""
        rows, p = G.shape
        if rows == 0:
            return self
        self._check_columns(p)
        if self.shift is None:
            self.shift = G[0].astype(float)
        if self._rows is None or self._rows.shape[0] < rows + 1:
            self._rows = np.empty((rows + 1, p))
        centred = self._rows[:rows]
        np.subtract(G, self.shift, out=centred)
        chunk_mean = centred.mean(axis=0)
        centred -= chunk_mean
        used = rows
        if self.n_samples:
            weighted, self._shifted_mean = self._pairwise(rows, chunk_mean)
            self._rows[rows] = weighted
            used = rows + 1
        else:
            self._shifted_mean = chunk_mean
        self.n_samples += rows
        # NumPy runs B.T @ B as one BLAS syrk and mirrors its triangle, so
        # the scatter stays exactly symmetric.
        B = self._rows[:used]
        if self.scatter is None:
            self.scatter = B.T @ B
            return self
        if self._square is None:
            self._square = np.empty((p, p))
        np.matmul(B.T, B, out=self._square)
        self.scatter += self._square
        return self

    def moments(self) -> _LaneMoments:
        """The lane's moments; its buffers go now, before the lanes merge."""
        self._rows = self._square = None
        return self


def accumulate(
    feature_map: FeatureMap, moments: _FeatureMoments, chunk: np.ndarray
) -> np.ndarray:
    """Add the features of ``chunk`` (and their round-off) to ``moments``.

    Returns the features g(chunk), untouched (``fit_transform`` may keep
    them for the scores).
    """
    G = feature_map.features(chunk)
    moments.update(G)
    moments.error_scale += feature_map.error_scale(chunk)
    return G


def chunk_rows(chunk_size: int | None, width: int) -> int:
    """Rows per chunk: ``chunk_size``, or about 2**21 raw features."""
    if chunk_size is not None:
        return int(chunk_size)
    return max(1, _CHUNK_ENTRIES // max(width, 1))


def check_common(n_components: Any, chunk_size: Any, random_state: Any) -> int:
    """Check the parameters both estimators share; returns the integer seed."""
    if n_components is not None and (
        isinstance(n_components, bool)
        or not isinstance(n_components, numbers.Integral)
    ):
        raise TypeError(
            "n_components must be None or a positive integer, got "
            f"{n_components!r}"
        )
    if n_components is not None and n_components < 1:
        raise ValueError(
            "n_components must be None or a positive integer, got "
            f"{n_components!r}"
        )
    if chunk_size is not None:
        _check_chunk_size(chunk_size)
    return random_seed(random_state)


class FitData:
    """``X`` as a fit reads it: a dask array, or anything ``iter_chunks`` reads.

    ``rows``: rows per chunk.  ``n_features``: the number of columns every
    chunk must have (``partial_fit`` after the first call), or None.
    """

    def __init__(
        self,
        X: Any,
        rows: int,
        n_features: int | None = None,
        owner: str = "the model",
    ) -> None:
        self.is_dask = is_dask_array(X)
        if self.is_dask:
            from . import _dask

            X = _dask.row_blocks(X)
        self.X = X
        self.rows = rows
        self.one_shot = not self.is_dask and is_one_shot(X)
        self._expected = n_features
        self._owner = owner
        self._peeked: Iterator[np.ndarray] | None = None
        self._n_features: int | None = None

    @property
    def n_features(self) -> int:
        """The number of columns (a one-shot iterator keeps its first chunk)."""
        if self._n_features is None:
            if self.is_dask:
                self._n_features = int(self.X.shape[1])
            else:
                first, self._peeked = _peek(iter_chunks(self.X, self.rows))
                self._n_features = first.shape[1]
        return self._n_features

    @property
    def n_rows(self) -> int | None:
        """The number of rows, if ``X`` says it before a pass (an array does)."""
        if self.is_dask or self.one_shot:
            return None
        shape = getattr(self.X, "shape", None)
        return int(shape[0]) if shape is not None and len(shape) == 2 else None

    def check_width(self, n_columns: int) -> None:
        """Raise unless a chunk has the columns the model expects."""
        if self._expected is not None and n_columns != self._expected:
            raise ValueError(
                f"X has {n_columns} features, but {self._owner} is expecting "
                f"{self._expected} features as input"
            )

    def chunks(self) -> Iterator[np.ndarray]:
        """A pass over the chunks of rows (not for a dask array)."""
        if self._peeked is not None:
            chunks, self._peeked = self._peeked, None
            return chunks
        return iter_chunks(self.X, self.rows)

    def sample(
        self,
        size: int,
        seed: int,
        finish: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> np.ndarray:
        """One pass: the keyed uniform sample of ``size`` rows, then ``finish``.

        For a dask array the sample (and ``finish``, k-means say) is made
        on the workers, in one graph (:func:`kpca._dask.sample_landmarks`).
        """
        if self.is_dask:
            from . import _dask

            return _dask.sample_landmarks(self.X, size, seed, finish)
        points, _ = _uniform_sample(iter_chunks(self.X, self.rows), size, seed)
        return points if finish is None else finish(points)


def _moments(
    feature_map: FeatureMap, data: FitData, keep_bytes: int
) -> tuple[_FeatureMoments, list[np.ndarray] | None]:
    """One pass: the moments of g over ``data``, and the features if kept.

    The features of the chunks are kept (for ``fit_transform``) while they
    take at most ``keep_bytes`` together; past that they are dropped and
    None is returned for them.
    """
    if data.is_dask:
        from . import _dask

        moments = _dask.moments(data.X, feature_map, data.rows)
        assert isinstance(moments, _FeatureMoments)
        return moments, None
    # One lane of moments per core: each chunk is split into one slice of
    # rows per lane, whose features and rank update run on one BLAS thread
    # (kpca._threads.on_cores), and the lanes merge in order at the end.  A
    # pass that alternated features on kpca's threads with updates on the
    # BLAS library's own ran slower than either part alone (the BLAS
    # threads spin for a while after each call, and took cores from the
    # next chunk's features).  A pass still holds one chunk's features at
    # a time, on any number of cores; another number of cores sums the rows
    # in another order (a difference of round-off).
    lanes = [_LaneMoments() for _ in range(available_cores())]
    n_rows = data.n_rows
    if n_rows is not None and n_rows * feature_map.width * 8 > keep_bytes:
        # Features that will not all fit are not kept even for a while
        # (when the rows are known before the pass): a fit of 300,000 rows
        # and 1000 random features had peaked at the 1 GiB it then dropped.
        keep_bytes = 0
    kept: list[np.ndarray] | None = [] if keep_bytes > 0 else None
    size = 0
    for chunk in data.chunks():
        data.check_width(chunk.shape[1])
        parts = _slices(chunk, len(lanes))
        if len(parts) == 1:
            features = [accumulate(feature_map, lanes[0], chunk)]
        else:
            features = on_cores(
                [
                    (accumulate, feature_map, lane, part)
                    for lane, part in zip(lanes, parts, strict=False)
                ]
            )
        if kept is not None:
            size += sum(G.nbytes for G in features)
            if size <= keep_bytes:
                kept.extend(features)
            else:
                kept = None
        # Not held while the next chunk's features are made.
        del features
    moments = lanes[0].moments()
    for lane in lanes[1:]:
        if lane.n_samples:
            moments = moments.merge(lane.moments())
    return moments, kept


# A chunk is split between the cores only if each slice has at least this
# many rows: below it the threads cost more than they save.
_SLICE_ROWS = 256


def _slices(chunk: np.ndarray, lanes: int) -> list[np.ndarray]:
    """The chunk as consecutive slices of rows, one per lane (or itself whole)."""
    count = min(lanes, chunk.shape[0] // _SLICE_ROWS)
    return [chunk] if count < 2 else slices(chunk, count)


def fit_feature_pca(
    feature_map: FeatureMap,
    data: FitData,
    n_components: int | None,
    *,
    before: _FeatureMoments | None = None,
    keep_bytes: int = 0,
    stacklevel: int = 2,
) -> _ChunkedFit:
    r"""The chunked PCA of :math:`f = W^\top g` over ``data``: one pass.

    The one routine behind ``fit`` on arrays, chunk iterators and dask
    arrays, and ``partial_fit`` (``before``: the moments of the chunks seen
    so far, merged with those of ``data``).  ``keep_bytes``: how much of the
    features of ``data`` may be kept for the scores (``fit_transform``);
    they are in ``kept`` when they all fit.
    """
    if not feature_map.keep_for_scores:
        keep_bytes = 0
    added, kept = _moments(feature_map, data, keep_bytes)
    moments = added if before is None else before.merge(added)
    result = _pca_of_moments(
        moments, feature_map.W, n_components, stacklevel=stacklevel + 1
    )
    result.moments = moments
    result.kept = kept
    return result


def _centred_scores(
    G: np.ndarray, raw_mean: np.ndarray, A: np.ndarray
) -> np.ndarray:
    G -= raw_mean  # centre before the product: no cancellation afterwards
    return G @ A


def _scores_of_chunks(
    feature_map: FeatureMap,
    raw_mean: np.ndarray,
    A: np.ndarray,
    chunks: Iterable[np.ndarray],
    n_rows: int | None,
    dtype: Any,
    check: Callable[[np.ndarray], None] | None = None,
    features_given: bool = False,
) -> np.ndarray:
    """The scores of the rows (or of their features, ``features_given``)."""
    out = None if n_rows is None else np.empty((n_rows, A.shape[1]), dtype)
    parts = []
    start = 0
    for chunk in chunks:
        if check is not None and start == 0:
            check(chunk)
        G = chunk if features_given else feature_map.features(chunk)
        scores = _centred_scores(G, raw_mean, A)
        if out is not None:
            out[start : start + chunk.shape[0]] = scores
        else:
            parts.append(scores)
        start += chunk.shape[0]
    return out if out is not None else np.concatenate(parts).astype(dtype)


def _block_scores(
    feature_map: FeatureMap,
    raw_mean: np.ndarray,
    A: np.ndarray,
    dtype: Any,
    rows: int,
    block: np.ndarray,
) -> np.ndarray:
    """The scores of one block of a dask array (runs on a worker)."""
    return _scores_of_chunks(
        feature_map,
        raw_mean,
        A,
        iter_chunks(block, rows),
        block.shape[0],
        dtype,
    )


def scores(
    feature_map: FeatureMap,
    raw_mean: np.ndarray,
    A: np.ndarray,
    X: Any,
    rows: int,
    check: Callable[[np.ndarray], None],
    kept: list[np.ndarray] | None = None,
) -> Any:
    r"""The scores :math:`A^\top(g(x) - \bar g)` of the rows of ``X``.

    ``kept``: the features of the rows of ``X`` from the fit's pass, used
    (and overwritten) instead of computing them again.  A dask array gives
    a lazy dask array with its row blocks (``map_blocks``); ``check``
    validates the first chunk (its number of features).
    """
    dtype = np.float32 if getattr(X, "dtype", None) == np.float32 else float
    if is_dask_array(X):
        from . import _dask

        X = _dask.row_blocks(X)
        check(X)
        block = partial(_block_scores, feature_map, raw_mean, A, dtype, rows)
        return _dask.map_rows(X, block, A.shape[1], dtype)
    shape = getattr(X, "shape", None)
    n_rows = shape[0] if shape is not None and len(shape) == 2 else None
    if kept is not None:
        return _scores_of_chunks(
            feature_map, raw_mean, A, kept, n_rows, dtype, features_given=True
        )
    return _scores_of_chunks(
        feature_map, raw_mean, A, iter_chunks(X, rows), n_rows, dtype, check
    )


# fit_transform keeps the raw features of the training rows for their
# scores, instead of computing them a second time, while they take at most
# this many bytes (2**30: n = 134,217 rows of 1000 features): scikit-learn's
# pipelines (RBFSampler or Nystroem, then PCA) hold them whole at every n.
KEEP_FEATURES_UP_TO = 2**30


class _FeaturePCA(BaseEstimator):
    """``fit``, ``fit_transform``, ``partial_fit`` and ``transform`` of both feature PCAs.

    Not a template with hooks: each estimator's own ``_fit`` reads top to
    bottom (check the parameters, make its feature map, call
    :func:`fit_feature_pca`, set its attributes) and records the feature
    map, the moments and the score parts (mean of g, A) that the methods
    here use.
    """

    # float32 data give float32 scores (the work is in float64: its memory
    # is bounded by a chunk anyway); sparse data are read in dense chunks.
    _keeps_float32 = True
    _accepts_sparse = True

    # Parameters that every subclass's __init__ takes and stores.  Annotations
    # only: no class attribute, so get_params and the signature are unchanged.
    n_components: Any
    chunk_size: Any
    random_state: Any
    # Fitted state behind the public attributes.
    _feature_map: FeatureMap
    _moments: _FeatureMoments
    _score_parts: tuple[np.ndarray, np.ndarray]

    def _fit(
        self,
        X: Any,
        *,
        partial: bool = False,
        keep_bytes: int = 0,
        stacklevel: int = 4,
    ) -> _ChunkedFit:  # pragma: no cover - each estimator has its own
        raise NotImplementedError

    def _pass_data(
        self, X: Any, partial: bool, width: int
    ) -> tuple[FitData, _FeatureMoments | None, Any]:
        """The data of this fit's pass, the moments it continues, and the feature names.

        ``partial_fit`` after a fit continues that model: its feature map's
        width and its number of features; the moments are None for a fresh
        fit, whose chunks hold ``width`` raw features per row.
        """
        continuing = partial and hasattr(self, "_moments")
        names = self._check_feature_names(X, reset=not continuing)
        if not continuing:
            return FitData(X, chunk_rows(self.chunk_size, width)), None, names
        data = FitData(
            X,
            chunk_rows(self.chunk_size, self._feature_map.width),
            self.n_features_in_,
            type(self).__name__,
        )
        return data, self._moments, getattr(self, "feature_names_in_", None)

    def _run_pass(
        self,
        feature_map: FeatureMap,
        data: FitData,
        before: _FeatureMoments | None,
        keep_bytes: int,
        stacklevel: int,
    ) -> _ChunkedFit:
        """The chunked PCA of ``feature_map`` over ``data`` (after ``before``).

        ``stacklevel`` of the warnings, counted from here: 4 reaches the
        caller of ``fit`` and ``partial_fit`` (through ``_fit``), 5 that of
        ``fit_transform``, whose output wrapper adds a frame.
        """
        if data.is_dask:
            data.check_width(data.n_features)
        return fit_feature_pca(
            feature_map,
            data,
            self.n_components,
            before=before,
            keep_bytes=keep_bytes,
            stacklevel=stacklevel,
        )

    def _record(
        self,
        feature_map: FeatureMap,
        result: _ChunkedFit,
        n_features: int,
        names: Any,
    ) -> None:
        """Set the attributes every feature PCA has (end of ``_fit``)."""
        mu, n = result.eigenvalues, result.n_samples
        self.eigenvalues_ = mu
        self.explained_variance_ = mu / n
        self.n_components_ = mu.shape[0]
        self.n_samples_ = n
        # What partial_fit continues from, and what transform uses,
        # whatever set_params does after the fit.
        assert isinstance(result.moments, _FeatureMoments)
        self._feature_map = feature_map
        self._moments = result.moments
        self._score_parts = (result.raw_mean, result.A)
        self._set_n_features(n_features, names)

    def fit(self, X, y=None):
        r"""Fit the model to ``X``: an array, a dask array or an iterable of chunks of rows.

        Parameters
        ----------
        X : array-like, shape (n_samples, n_features), dask array, or iterable of 2-D chunks
            Anything :func:`kpca.streaming.iter_chunks` reads: an array (or a
            memmap, zarr or h5py array, read by row slices), a list of
            chunks, or any iterable of chunks.  A one-shot iterator (a
            generator) is read once, which is enough unless the feature map
            itself needs a pass over the data (sampled Nyström landmarks).
            A ``scipy.sparse`` matrix is read in dense chunks.  The work is
            in float64 (its memory is a chunk's); ``transform`` returns
            float32 scores for float32 data.

            A ``dask.array.Array`` is fitted by the active dask scheduler
            (threads, processes or a ``distributed.Client``) as a map-reduce
            over its row blocks (:mod:`kpca._dask`): each block's moments
            are computed where the block lives, a tree of
            :meth:`~kpca.streaming.StreamingMoments.merge` calls combines
            them, and only the :math:`p\times p` result reaches the
            client.  Each pass computes each block once.
        y : ignored

        Returns
        -------
        self
        """
        self._fit(X)
        return self

    def fit_transform(self, X, y=None):
        """Fit, then return the scores of the training rows, shape (n_samples, k).

        Random features are computed once: the pass that makes their
        moments keeps them for the scores while they take at most
        ``KEEP_FEATURES_UP_TO`` bytes (1 GiB, the n x p block that
        scikit-learn's pipelines hold at every size); beyond that, and for
        Nyström's kernel rows (cheaper to recompute), the data are read a
        second time for the scores.  So ``X`` cannot be a
        one-shot iterator: pass an array or a list of chunks, or call
        ``fit`` and ``transform`` with a fresh iterator each.  For a dask
        array the scores are a lazy dask array (see ``transform``).
        """
        if is_one_shot(X):
            raise TypeError(
                "fit_transform reads X twice, but X is a one-shot iterator "
                "(a generator?): pass an array or a list of chunks, or call "
                "fit(chunks) and then transform(new_chunks) with a fresh "
                "iterator"
            )
        result = self._fit(X, keep_bytes=KEEP_FEATURES_UP_TO, stacklevel=5)
        return self._scores(X, result.kept)

    def partial_fit(self, X, y=None):
        r"""Update the model with one more chunk of rows.

        After ``partial_fit`` on chunks :math:`X_1, \dots, X_t`, in any
        order, the model equals ``fit`` on their concatenation (to
        round-off) with the same feature map: the moments of the chunks
        merge exactly (:meth:`~kpca.streaming.StreamingMoments.merge`).  The
        feature map is fixed by the first call (or by a preceding ``fit``,
        which ``partial_fit`` then continues); see the estimator's notes for
        what that means for its landmarks or frequencies.  The model is
        usable after every call.  If a call raises, the model is left as it
        was.

        Parameters
        ----------
        X : array-like, shape (n_rows, n_features), or dask array
            The chunk (a ``scipy.sparse`` matrix is read in dense chunks; a
            dask array is reduced on the active scheduler, as in ``fit``).
        y : ignored

        Returns
        -------
        self
        """
        if is_one_shot(X):
            raise TypeError(
                "partial_fit takes one chunk as an array, not an iterator: "
                "call partial_fit once per chunk"
            )
        self._fit(X, partial=True)
        return self

    def transform(self, X):
        r"""Scores :math:`A^\top(g(x) - \bar g)` of new rows, shape (n_samples, k).

        ``X`` is read once, in chunks, in any form ``fit`` accepts.  For a
        dask array the result is a lazy dask array with the same row blocks
        (``map_blocks``): nothing is computed until it is.
        """
        check_is_fitted(self, "eigenvalues_")
        self._check_feature_names(X, reset=False)
        return self._scores(X, None)

    def _scores(self, X: Any, kept: list[np.ndarray] | None) -> Any:
        raw_mean, A = self._score_parts
        rows = chunk_rows(self.chunk_size, self._feature_map.width)
        return scores(
            self._feature_map,
            raw_mean,
            A,
            X,
            rows,
            partial(check_n_features, self),
            kept,
        )
