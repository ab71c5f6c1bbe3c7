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
a second pass, in ``transform``, computes the scores.  Memory is
:math:`O(p^2 + \text{chunk}\cdot p)` plus the :math:`n\times k` scores.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from ._base import BaseEstimator, check_is_fitted, check_n_features
from ._spectrum import components_to_keep, symmetrize
from ._threads import one_blas_thread
from ._tuning import DENSE_UP_TO
from ._validation import check_n_components, check_positive_int, random_seed
from .eigen import top_eigenpairs
from .eigen._signs import sign_flips
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


def _scatter_eigenpairs(
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


class _FeatureMap:
    """What a subclass builds before the moments pass: g, W and its fitted attributes."""

    def __init__(
        self,
        raw: Callable[[np.ndarray], np.ndarray],
        W: np.ndarray | None,
        attributes: dict[str, Any],
        error_scale: Callable[[np.ndarray], float] | None = None,
    ) -> None:
        self.raw = raw
        self.W = W
        self.attributes = attributes
        # sum over the rows of a chunk of ||error of g(x)||^2 / eps^2, when
        # the round-off of g is not a unit of its own size (random features:
        # a unit of the size of their phases).
        self.error_scale = error_scale


class _ChunkedFeaturePCA(BaseEstimator):
    """Shared ``fit``/``transform`` of :class:`~kpca.NystroemKernelPCA` and
    :class:`~kpca.RandomFourierKernelPCA`; subclasses provide the feature map."""

    # float32 data give float32 scores (the work is in float64: its memory
    # is bounded by a chunk anyway); sparse data are read in dense chunks.
    _keeps_float32 = True
    _accepts_sparse = True

    # Parameters that every subclass's __init__ takes and stores.  Annotations
    # only: no class attribute, so get_params and the signature are unchanged.
    n_components: Any
    chunk_size: Any
    random_state: Any

    # -- what subclasses define -------------------------------------------------
    def _check_params(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _width(self, params: dict[str, Any]) -> int:  # pragma: no cover
        """p, the number of raw features per row (sets the default chunk size)."""
        raise NotImplementedError

    def _needs_pass_before_fit(self, params: dict[str, Any]) -> bool:
        """Whether building the feature map reads the data (then X is read twice)."""
        return False

    def _build(
        self, X: Any, first: np.ndarray, params: dict[str, Any], rows: int
    ) -> _FeatureMap:  # pragma: no cover
        raise NotImplementedError

    def _raw_features(
        self, chunk: np.ndarray
    ) -> np.ndarray:  # pragma: no cover
        """g(chunk) from the fitted attributes."""
        raise NotImplementedError

    def _score_parts(
        self,
    ) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
        """(mean of g over the training data, A) from the fitted attributes."""
        raise NotImplementedError

    def _fitted_attributes(
        self,
        raw_mean: np.ndarray,
        A: np.ndarray,
        V: np.ndarray,
        W: np.ndarray | None,
    ) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    # -- shared checks --------------------------------------------------------
    def _check_common(self) -> dict[str, Any]:
        if self.n_components is not None:
            # The upper bound is checked once n is known (in _fit).
            check_positive_int(self.n_components, "n_components")
        if self.chunk_size is not None:
            _check_chunk_size(self.chunk_size)
        return {"seed": random_seed(self.random_state)}

    def _chunk_rows(self, width: int) -> int:
        if self.chunk_size is not None:
            return int(self.chunk_size)
        return max(1, _CHUNK_ENTRIES // max(width, 1))

    # -- API ----------------------------------------------------------------------
    def fit(self, X, y=None):
        """Fit the model to ``X``: an array or an iterable of chunks of rows.

        Parameters
        ----------
        X : array-like, shape (n_samples, n_features), or iterable of 2-D chunks
            Anything :func:`kpca.streaming.iter_chunks` reads: an array (or a
            memmap, zarr, h5py or dask array, read by row slices), a list of
            chunks, or any iterable of chunks.  A one-shot iterator (a
            generator) is read once, which is enough unless the feature map
            itself needs a pass over the data (sampled Nyström landmarks).
            A ``scipy.sparse`` matrix is read in dense chunks.  The work is
            in float64 (its memory is a chunk's); ``transform`` returns
            float32 scores for float32 data.
        y : ignored

        Returns
        -------
        self
        """
        self._fit(X)
        return self

    def fit_transform(self, X, y=None) -> np.ndarray:
        """Fit, then return the scores of the training rows, shape (n_samples, k).

        The data are read twice (once to fit, once for the scores), so ``X``
        cannot be a one-shot iterator: pass an array or a list of chunks, or
        call ``fit`` and ``transform`` with a fresh iterator each.
        """
        if is_one_shot(X):
            raise TypeError(
                "fit_transform reads X twice, but X is a one-shot iterator (a generator?): "
                "pass an array or a list of chunks, or call fit(chunks) and then "
                "transform(new_chunks) with a fresh iterator"
            )
        return self._fit(X).transform(X)

    def _fit(self, X):
        params = self._check_params()
        names = self._check_feature_names(X, reset=True)
        # What transform will use, whatever set_params does after the fit.
        fitted_params = self.get_params()
        if is_one_shot(X) and self._needs_pass_before_fit(params):
            raise TypeError(
                f"{type(self).__name__} with these parameters reads X twice (a pass to "
                "choose the landmarks, one to fit), but X is a one-shot iterator (a "
                "generator?): pass an array or a list of chunks, or give the landmarks"
            )
        rows = self._chunk_rows(self._width(params))
        first, chunks = _peek(iter_chunks(X, rows))
        feature_map = self._build(X, first, params, rows)
        moments = StreamingMoments()
        error_scale = 0.0
        for chunk in chunks:
            moments.update(_check_features(feature_map.raw(chunk)))
            if feature_map.error_scale is not None:
                error_scale += feature_map.error_scale(chunk)
        n = moments.n_samples
        if n < 2:
            raise ValueError(
                f"X has {n} sample; kernel PCA needs at least 2 (n_samples = 1 has no variance)"
            )
        k = check_n_components(self.n_components, n)
        W = feature_map.W
        C = moments.scatter if W is None else W.T @ moments.scatter @ W
        C = symmetrize(C, inplace=W is not None)
        mu, V = _scatter_eigenpairs(C, k)
        if k is not None:  # the full decomposition gives them all
            mu, V = mu[:k], V[:, :k]
        keep = components_to_keep(
            mu,
            k,
            "centred approximate kernel matrix",
            "the approximate kernel matrix has no positive eigenvalue after "
            "centring: there is no component",
            stacklevel=3,
            roundoff=_scatter_roundoff(moments, W, error_scale),
            advice="centre or scale X first, or use fewer landmarks",
        )
        k = keep if k is None else min(k, keep)
        mu, V = mu[:k].copy(), V[:, :k].copy()
        A = V if W is None else W @ V
        # Signs: kpca.align_signs's convention on the coefficients of each
        # direction over g (A = W V does not depend on the signs eigh gave
        # the columns of W).
        signs = sign_flips(A)
        V *= signs
        A = V if W is None else A * signs
        attributes = dict(feature_map.attributes)
        attributes.update(self._fitted_attributes(moments.mean, A, V, W))
        attributes.update(
            eigenvalues_=mu,
            explained_variance_=mu / n,
            n_components_=k,
            n_samples_=n,
        )
        for name, value in attributes.items():
            setattr(self, name, value)
        self._set_n_features(first.shape[1], names)
        self._fitted_params = fitted_params
        return self

    def transform(self, X) -> np.ndarray:
        r"""Scores :math:`A^\top(g(x) - \bar g)` of new rows, shape (n_samples, k).

        ``X`` is read once, in chunks, in any form ``fit`` accepts.
        """
        check_is_fitted(self, "eigenvalues_")
        self._check_feature_names(X, reset=False)
        dtype = (
            np.float32 if getattr(X, "dtype", None) == np.float32 else float
        )
        raw_mean, A = self._score_parts()
        rows = self._chunk_rows(raw_mean.shape[0])
        shape = getattr(X, "shape", None)
        out: np.ndarray | None = None
        if shape is not None and len(shape) == 2:  # ndarrays have a shape
            out = np.empty((shape[0], A.shape[1]), dtype=dtype)
        parts = []
        start = 0
        for chunk in iter_chunks(X, rows):
            if start == 0:
                check_n_features(self, chunk)
            G = _check_features(self._raw_features(chunk))
            G -= raw_mean  # centre before the product: no cancellation afterwards
            scores = G @ A
            if out is not None:
                out[start : start + chunk.shape[0]] = scores
            else:
                parts.append(scores)
            start += chunk.shape[0]
        return out if out is not None else np.concatenate(parts).astype(dtype)
