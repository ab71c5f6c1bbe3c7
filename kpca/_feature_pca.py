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

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg

from ._base import BaseEstimator, check_is_fitted, check_n_features
from ._dask import is_dask_array
from ._spectrum import components_to_keep, symmetrize
from ._threads import one_blas_thread
from ._tuning import DENSE_UP_TO
from ._validation import check_n_components, random_seed
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


class _FeatureMap:
    """The fixed part of a fit: the raw features g, the matrix W, the attributes.

    An object (not a closure) so that a dask worker in another process can
    receive it: it travels with the block tasks.
    """

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

    def accumulate(self, moments: _FeatureMoments, chunk: np.ndarray) -> None:
        """Add the features of ``chunk`` (and their round-off) to ``moments``."""
        moments.update(_check_features(self.raw(chunk)))
        if self.error_scale is not None:
            moments.error_scale += self.error_scale(chunk)

    def new_moments(self) -> _FeatureMoments:
        return _FeatureMoments()


class _FeatureMoments(StreamingMoments):
    """The moments of the features, and the round-off scale they carry.

    ``error_scale`` (see ``_FeatureMap``) is a sum over the rows, so the
    merge of two parts adds it.
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


# A sampler of landmark rows from the data being fitted: (size, finish) ->
# finish(the keyed uniform sample of `size` rows), or the sample itself
# when finish is None.  The NumPy, dask and partial_fit paths each give one.
Sampler = Callable[
    [int, Callable[[np.ndarray], np.ndarray] | None], np.ndarray
]


@dataclass
class _ChunkedFit:
    """PCA of the features, from their moments: what every fit path sets."""

    raw_mean: np.ndarray
    eigenvalues: np.ndarray
    A: np.ndarray
    V: np.ndarray
    n_samples: int


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


class _ChunkedFeaturePCA(BaseEstimator):
    """Shared ``fit``/``partial_fit``/``transform`` of :class:`~kpca.NystroemKernelPCA`
    and :class:`~kpca.RandomFourierKernelPCA`; subclasses provide the feature map."""

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
        self, n_features: int, params: dict[str, Any], sample: Sampler
    ) -> _FeatureMap:  # pragma: no cover
        raise NotImplementedError

    def _raw_features(
        self, chunk: np.ndarray
    ) -> np.ndarray:  # pragma: no cover
        """g(chunk) from the fitted attributes."""
        raise NotImplementedError

    def _fitted_W(self) -> np.ndarray | None:
        """W of the fitted feature map (None: the identity)."""
        return None

    def _fitted_error_scale(self) -> Callable[[np.ndarray], float] | None:
        """The fitted feature map's round-off scale (see ``_FeatureMap``)."""
        return None

    def _fitted_map(self) -> _FeatureMap:
        """The feature map of the fit, from the fitted attributes."""
        return _FeatureMap(
            self._raw_features,
            self._fitted_W(),
            {},
            self._fitted_error_scale(),
        )

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
        if self.n_components is not None and (
            isinstance(self.n_components, bool)
            or not isinstance(self.n_components, numbers.Integral)
        ):
            raise TypeError(
                f"n_components must be None or a positive integer, got {self.n_components!r}"
            )
        if self.n_components is not None and self.n_components < 1:
            raise ValueError(
                f"n_components must be None or a positive integer, got {self.n_components!r}"
            )
        if self.chunk_size is not None:
            _check_chunk_size(self.chunk_size)
        return {"seed": random_seed(self.random_state)}

    def _chunk_rows(self, width: int) -> int:
        if self.chunk_size is not None:
            return int(self.chunk_size)
        return max(1, _CHUNK_ENTRIES // max(width, 1))

    # -- API ----------------------------------------------------------------------
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

        The data are read twice (once to fit, once for the scores), so ``X``
        cannot be a one-shot iterator: pass an array or a list of chunks, or
        call ``fit`` and ``transform`` with a fresh iterator each.  For a
        dask array the scores are a lazy dask array (see ``transform``).
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
        seed = params["seed"]
        if is_dask_array(X):
            from . import _dask

            X = _dask.row_blocks(X)
            n_features = X.shape[1]

            def sample(size, finish):
                return _dask.sample_landmarks(X, size, seed, finish)

            feature_map = self._build(n_features, params, sample)
            rows = self._chunk_rows(self._width(params))
            moments = _dask.moments(X, feature_map, rows)
            return self._set_fit(
                feature_map, moments, n_features, names, fitted_params
            )
        if is_one_shot(X) and self._needs_pass_before_fit(params):
            raise TypeError(
                f"{type(self).__name__} with these parameters reads X twice (a pass to "
                "choose the landmarks, one to fit), but X is a one-shot iterator (a "
                "generator?): pass an array or a list of chunks, or give the landmarks"
            )
        rows = self._chunk_rows(self._width(params))
        first, chunks = _peek(iter_chunks(X, rows))
        feature_map = self._build(
            first.shape[1], params, _array_sampler(X, rows, seed)
        )
        moments = _FeatureMoments()
        for chunk in chunks:
            feature_map.accumulate(moments, chunk)
        return self._set_fit(
            feature_map, moments, first.shape[1], names, fitted_params
        )

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
        params = self._check_params()
        if is_one_shot(X):
            raise TypeError(
                "partial_fit takes one chunk as an array, not an iterator: "
                "call partial_fit once per chunk"
            )
        first_call = not hasattr(self, "_moments")
        names = self._check_feature_names(X, reset=first_call)
        seed = params["seed"]
        rows = self._chunk_rows(self._width(params))
        dask_chunk = is_dask_array(X)
        if dask_chunk:
            from . import _dask

            X = _dask.row_blocks(X)
        n_features = X.shape[1] if dask_chunk else None
        if first_call:
            if n_features is None:
                n_features = next(iter_chunks(X, rows)).shape[1]
            if dask_chunk:

                def sample(size, finish):
                    return _dask.sample_landmarks(X, size, seed, finish)

            else:
                sample = _array_sampler(X, rows, seed)
            feature_map = self._build(n_features, params, sample)
            before = _FeatureMoments()
            fitted_params = self.get_params()
        else:
            feature_map = self._fitted_map()
            before = self._moments
            n_features = self.n_features_in_
            fitted_params = self._fitted_params
        if dask_chunk:
            if X.shape[1] != n_features:
                raise ValueError(
                    f"X has {X.shape[1]} features, but {type(self).__name__} "
                    f"is expecting {n_features} features as input"
                )
            added = _dask.moments(X, feature_map, rows)
        else:
            added = _FeatureMoments()
            for chunk in iter_chunks(X, rows):
                if chunk.shape[1] != n_features:
                    raise ValueError(
                        f"X has {chunk.shape[1]} features, but "
                        f"{type(self).__name__} is expecting {n_features} "
                        "features as input"
                    )
                feature_map.accumulate(added, chunk)
        moments = before.merge(added)
        if not first_call:
            names = getattr(self, "feature_names_in_", None)
        return self._set_fit(
            feature_map, moments, n_features, names, fitted_params
        )

    def _set_fit(self, feature_map, moments, n_features, names, params):
        """Solve the small eigenproblem, then set every fitted attribute."""
        result = _pca_of_moments(
            moments, feature_map.W, self.n_components, stacklevel=4
        )
        attributes = dict(feature_map.attributes)
        attributes.update(
            self._fitted_attributes(
                result.raw_mean, result.A, result.V, feature_map.W
            )
        )
        mu, n = result.eigenvalues, result.n_samples
        attributes.update(
            eigenvalues_=mu,
            explained_variance_=mu / n,
            n_components_=mu.shape[0],
            n_samples_=n,
        )
        for name, value in attributes.items():
            setattr(self, name, value)
        # What partial_fit continues from (with the fitted feature map), and
        # what transform uses, whatever set_params does after the fit.
        self._moments = moments
        self._fitted_params = params
        self._set_n_features(n_features, names)
        return self

    def transform(self, X):
        r"""Scores :math:`A^\top(g(x) - \bar g)` of new rows, shape (n_samples, k).

        ``X`` is read once, in chunks, in any form ``fit`` accepts.  For a
        dask array the result is a lazy dask array with the same row blocks
        (``map_blocks``): nothing is computed until it is.
        """
        check_is_fitted(self, "eigenvalues_")
        self._check_feature_names(X, reset=False)
        dtype = (
            np.float32 if getattr(X, "dtype", None) == np.float32 else float
        )
        raw_mean, A = self._score_parts()
        if is_dask_array(X):
            from . import _dask

            X = _dask.row_blocks(X)
            check_n_features(self, X)
            return _dask.map_rows(X, self._transform_rows, A.shape[1], dtype)
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

    def _transform_rows(self, block: np.ndarray) -> np.ndarray:
        """The scores of one block of a dask array (runs on a worker)."""
        return self.transform(block)


def _array_sampler(X: Any, rows: int, seed: int) -> Sampler:
    """The landmark sampler of data read by :func:`iter_chunks` (one pass)."""

    def sample(size, finish):
        points, _ = _uniform_sample(iter_chunks(X, rows), size, seed)
        return points if finish is None else finish(points)

    return sample
