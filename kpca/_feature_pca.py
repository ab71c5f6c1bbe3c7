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


class _FeatureMap:
    """What a subclass builds before the moments pass: g, W and its fitted attributes."""

    def __init__(
        self,
        raw: Callable[[np.ndarray], np.ndarray],
        W: np.ndarray | None,
        attributes: dict[str, Any],
    ) -> None:
        self.raw = raw
        self.W = W
        self.attributes = attributes


class _ChunkedFeaturePCA(BaseEstimator):
    """Shared ``fit``/``transform`` of :class:`~kpca.NystroemKernelPCA` and
    :class:`~kpca.RandomFourierKernelPCA`; subclasses provide the feature map."""

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
        for chunk in chunks:
            moments.update(feature_map.raw(chunk))
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
        keep = components_to_keep(
            mu,
            k,
            "centred approximate kernel matrix",
            "the approximate kernel matrix has no positive eigenvalue after "
            "centring: there is no component",
            stacklevel=3,
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
            n_features_in_=first.shape[1],
        )
        for name, value in attributes.items():
            setattr(self, name, value)
        return self

    def transform(self, X) -> np.ndarray:
        r"""Scores :math:`A^\top(g(x) - \bar g)` of new rows, shape (n_samples, k).

        ``X`` is read once, in chunks, in any form ``fit`` accepts.
        """
        check_is_fitted(self, "eigenvalues_")
        raw_mean, A = self._score_parts()
        rows = self._chunk_rows(raw_mean.shape[0])
        shape = getattr(X, "shape", None)
        out: np.ndarray | None = None
        if shape is not None and len(shape) == 2:  # ndarrays have a shape
            out = np.empty((shape[0], A.shape[1]))
        parts = []
        start = 0
        for chunk in iter_chunks(X, rows):
            if start == 0:
                check_n_features(self, chunk)
            G = self._raw_features(chunk)
            G -= raw_mean  # centre before the product: no cancellation afterwards
            scores = G @ A
            if out is not None:
                out[start : start + chunk.shape[0]] = scores
            else:
                parts.append(scores)
            start += chunk.shape[0]
        return out if out is not None else np.concatenate(parts)
