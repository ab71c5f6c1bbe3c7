r"""Kernel PCA with the Nyström approximation, streamed in chunks.

With landmarks :math:`z_1,\dots,z_m` (data points or k-means centres,
:mod:`kpca.landmarks`), let :math:`K_{nm}` hold the kernel values
:math:`k(x_i, z_j)` and :math:`K_{mm}` those among the landmarks.  The
Nyström approximation of the kernel matrix is

.. math::

    K \approx \tilde K = K_{nm} K_{mm}^{+} K_{mn}.

Write :math:`K_{mm} = U\Lambda U^\top` and keep the :math:`r` eigenvalues
above ``RANK_RTOL`` times the largest and above the round-off of
:math:`K_{mm}` as computed, as :class:`kpca.KernelPCA` does (the
pseudo-inverse with a rank cut).  Then :math:`\tilde K = FF^\top` with the
explicit :math:`r`-dimensional features

.. math::

    F = K_{nm} W,\qquad W = U_r\Lambda_r^{-1/2},

the coordinates of the orthogonal projection of :math:`\phi(x_i)` onto the
span of the :math:`\phi(z_j)`.  Kernel PCA of :math:`\tilde K` centres it in
*that* feature space, with the mean of the :math:`f(x_i)` over the data:
:math:`H\tilde KH = F_cF_c^\top`, :math:`F_c = HF`.  So it is linear PCA of
the rows of :math:`F`: the :math:`r\times r` scatter
:math:`C_F = F_c^\top F_c = W^\top C_K W`, with :math:`C_K` the centred
scatter of the rows of :math:`K_{nm}`, accumulated chunk by chunk.
Centring :math:`K_{mm}` (the landmarks' own mean) or the columns of
:math:`K_{nm}` alone would not give :math:`H\tilde KH`.

With every data point a landmark (:math:`m=n`), :math:`\tilde K = K` up to
the rank cut, and the result is exact kernel PCA.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ._feature_pca import _ChunkedFeaturePCA, _descending_eigh, _FeatureMap
from ._spectrum import symmetrize
from ._validation import (
    check_array,
    check_choice,
    check_positive_int,
    check_symmetric,
)
from .eigen import numerical_rank
from .kernels import _kernel_roundoff, make_kernel
from .landmarks import (
    LANDMARK_METHODS,
    _kmeans,
)

__all__ = ["NystroemKernelPCA"]


def _kernel_rows(kernel, points: np.ndarray, chunk: np.ndarray) -> np.ndarray:
    """g(chunk): the kernel values of the rows against the landmarks."""
    return kernel(chunk, points)


_NAMED_KERNELS = ("linear", "polynomial", "gaussian")


class NystroemKernelPCA(_ChunkedFeaturePCA):
    r"""Approximate kernel PCA from :math:`m` landmarks (the Nyström method).

    The model is exact kernel PCA of the approximate kernel matrix
    :math:`\tilde K = K_{nm}K_{mm}^+K_{mn}`, centred in its feature space
    (see the module docstring).  ``fit`` reads the data in chunks: one pass
    to choose the landmarks (unless they are given), one to accumulate the
    :math:`m\times m` scatter :math:`C_K` of the kernel rows; ``transform``
    (and so ``fit_transform``) one more for the scores.  Time
    :math:`O(nmd + nm^2 + m^3)`; memory :math:`O(m^2 + \text{chunk}\cdot m)`
    plus the :math:`n\times k` scores, never :math:`O(nm)`.

    Parameters
    ----------
    n_components : int, optional
        Number :math:`k` of components; None keeps every eigenvalue above
        ``RANK_RTOL`` (``1e-10``) times the largest and above the round-off
        of the scatter as computed (ten units of round-off of the raw
        features' scatter, magnified by :math:`\lVert W\rVert^2 =
        1/\lambda_r`), so that the number kept does not depend on how the
        data are cut into chunks.  If fewer than ``k`` remain, a warning
        says so and ``n_components_`` is the number kept.
    kernel : {"linear", "polynomial", "gaussian"} or callable, default "gaussian"
        As in :class:`kpca.KernelPCA` (``"precomputed"`` is not possible: the
        kernel rows are computed chunk by chunk).
    sigma : float, default 1.0
        Width of the Gaussian kernel :math:`\exp(-\lVert x-y\rVert^2/(2\sigma^2))`.
    degree : int, default 2
        Degree :math:`p` of the polynomial kernel :math:`(c + x^\top y)^p`.
    coef0 : float, default 1.0
        The constant :math:`c` of the polynomial kernel.
    n_landmarks : int, default 100
        Number :math:`m` of landmarks to choose (at most ``n_samples``);
        ignored when ``landmarks`` is an array.
    landmarks : {"uniform", "kmeans"} or array-like of shape (m, n_features), default "uniform"
        ``"uniform"``: data points drawn uniformly without replacement;
        ``"kmeans"``: k-means centres (k-means++ seeding, at most 10 of
        Lloyd's iterations) of a uniform sample of :math:`10m` rows
        (:mod:`kpca.landmarks`); an array: these points.
    chunk_size : int, optional
        Rows per chunk; by default about :math:`2^{21}/m` (16 MB blocks).
        The result does not depend on it beyond round-off.
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the landmark choice (0 when None, so fits are reproducible).

    Notes
    -----
    **Dask arrays.**  ``fit`` of a ``dask.array.Array`` runs on the active
    dask scheduler as one graph per pass over the row blocks, each block
    computed once per pass where it lives; only :math:`m\times m` moments
    reach the client (:mod:`kpca._dask`).  Passes: given landmarks need one
    (the moments); ``"uniform"`` needs two, because the kernel rows of a
    block need the landmarks, which are known only after every block has
    offered its candidates (the keyed sampler makes the sample independent
    of the blocks, so it equals the NumPy fit's); ``"kmeans"`` needs two
    as well, since k-means runs on the sample of :math:`10m` rows, in one
    task on a worker, not on the data (k-means on all the data would cost
    a pass per Lloyd iteration).  ``transform`` of a dask array is lazy.

    **partial_fit.**  The first call fixes the landmarks: given ones, or the
    rule applied to the first chunk alone (its keyed uniform sample of
    :math:`m` rows, or k-means on a sample of it), so the first chunk should
    be representative and have at least :math:`m` rows (fewer give fewer
    landmarks).  Later chunks only add to the moments.  The model then
    equals ``fit`` on all the chunks with ``landmarks=landmarks_``.

    Attributes
    ----------
    eigenvalues_ : ndarray, shape (k,)
        :math:`\mu_1\ge\dots\ge\mu_k>0`, eigenvalues of :math:`H\tilde KH`
        (:math:`n` times the variances).
    explained_variance_ : ndarray, shape (k,)
        :math:`\mu_i/n`.
    components_ : ndarray, shape (k, r)
        Principal directions :math:`v_i` in the :math:`r` Nyström feature
        coordinates.
    alphas_ : ndarray, shape (m, k)
        :math:`A = WV_k`: the principal directions as combinations
        :math:`\sum_j A_{ji}\,\phi(z_j)` of the landmarks' features; the
        largest entry of each column is positive.
    kernel_col_means_ : ndarray, shape (m,)
        :math:`\bar g_j = \frac1n\sum_i k(x_i, z_j)`.  A point scores
        :math:`z(x) = A^\top(k(Z, x) - \bar g)`.
    landmarks_ : ndarray, shape (m, n_features)
    normalization_ : ndarray, shape (m, r)
        :math:`W = U_r\Lambda_r^{-1/2}`.
    landmark_rank_ : int
        :math:`r`, the numerical rank of :math:`K_{mm}`.
    n_components_ : int
    n_samples_ : int
    n_features_in_ : int

    References
    ----------
    C. K. I. Williams and M. Seeger, "Using the Nyström method to speed up
    kernel machines", *Advances in Neural Information Processing Systems
    13*, 682-688, 2001.

    P. Drineas and M. W. Mahoney, "On the Nyström method for approximating a
    Gram matrix for improved kernel-based learning", *Journal of Machine
    Learning Research* 6, 2153-2175, 2005.

    Examples
    --------
    With every point a landmark, Nyström kernel PCA is exact kernel PCA:

    >>> import numpy as np
    >>> from kpca import KernelPCA
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> approx = NystroemKernelPCA(3, sigma=1.0, n_landmarks=40).fit(X)
    >>> exact = KernelPCA(3, sigma=1.0).fit(X)
    >>> bool(np.allclose(approx.eigenvalues_, exact.eigenvalues_, rtol=1e-8))
    True

    With 20 of the 40 points as landmarks, every eigenvalue is
    underestimated (:math:`\tilde K \preceq K`):

    >>> half = NystroemKernelPCA(3, sigma=1.0, n_landmarks=20).fit(X)
    >>> bool(np.all(half.eigenvalues_ <= exact.eigenvalues_))
    True

    Fed in chunks, in any order, the model equals ``fit`` with the
    landmarks the first chunk gave:

    >>> model = NystroemKernelPCA(3, sigma=1.0, n_landmarks=10)
    >>> for chunk in (X[20:], X[:20]):
    ...     model = model.partial_fit(chunk)
    >>> same = NystroemKernelPCA(3, sigma=1.0, landmarks=model.landmarks_)
    >>> bool(np.allclose(model.eigenvalues_, same.fit(X).eigenvalues_))
    True
    """

    # Fitted attributes, set together at the end of a fit (the loop of
    # _ChunkedFeaturePCA._fit); declared so that type checkers know them.
    landmarks_: np.ndarray
    normalization_: np.ndarray
    kernel_col_means_: np.ndarray
    alphas_: np.ndarray
    components_: np.ndarray

    def __init__(
        self,
        n_components: int | None = None,
        *,
        kernel: str | Callable = "gaussian",
        sigma: float = 1.0,
        degree: int = 2,
        coef0: float = 1.0,
        n_landmarks: int = 100,
        landmarks: str | np.ndarray = "uniform",
        chunk_size: int | None = None,
        random_state: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks
        self.chunk_size = chunk_size
        self.random_state = random_state

    def kernel_function(self):
        """The kernel ``k(X, Y=None)`` this model uses."""
        if isinstance(self.kernel, str):
            if self.kernel == "precomputed":
                raise ValueError(
                    "kernel='precomputed' is not possible for NystroemKernelPCA: it computes "
                    "the kernel rows of the data chunk by chunk; use kpca.KernelPCA"
                )
            check_choice(self.kernel, "kernel", _NAMED_KERNELS)
        return make_kernel(
            self.kernel, sigma=self.sigma, degree=self.degree, coef0=self.coef0
        )

    # -- hooks of _ChunkedFeaturePCA -------------------------------------------------
    def _check_params(self) -> dict[str, Any]:
        params = self._check_common()
        params["kernel"] = self.kernel_function()
        if isinstance(self.landmarks, str):
            check_choice(self.landmarks, "landmarks", LANDMARK_METHODS)
            params["m"] = check_positive_int(self.n_landmarks, "n_landmarks")
            params["points"] = None
        else:
            points = check_array(self.landmarks, "landmarks")
            params["m"] = points.shape[0]
            params["points"] = points
        return params

    def _width(self, params):
        return params["m"]

    def _needs_pass_before_fit(self, params):
        return params["points"] is None

    def _build(self, n_features, params, sample) -> _FeatureMap:
        kernel = params["kernel"]
        points = params["points"]
        if points is None:
            m, seed = params["m"], params["seed"]
            if self.landmarks == "uniform":
                points = sample(m, None)
            else:
                # k-means runs on the sample (where the sample is: a dask
                # worker for a dask array), not on the data.
                points = sample(
                    10 * m,
                    partial(
                        _kmeans, n_landmarks=m, random_state=seed, max_iter=10
                    ),
                )
        elif points.shape[1] != n_features:
            raise ValueError(
                f"landmarks has {points.shape[1]} features, but X has {n_features}"
            )
        else:
            points = points.copy()
        K_mm = kernel(points)
        if callable(self.kernel):
            check_symmetric(K_mm, "kernel(landmarks, landmarks)")
            K_mm = symmetrize(K_mm, inplace=True)
        roundoff = _kernel_roundoff(K_mm)
        lam, U = _descending_eigh(K_mm)
        r = numerical_rank(lam)
        if r == 0:
            raise ValueError(
                "the kernel matrix of the landmarks has no positive eigenvalue: "
                "the landmarks carry no feature"
            )
        # Eigenvalues below the round-off of K_mm as computed are noise,
        # which W = U / sqrt(lambda) would magnify.
        r = int(np.count_nonzero(lam[:r] > roundoff))
        if r == 0:
            raise ValueError(
                "the kernel matrix of the landmarks is lost in round-off: its "
                f"largest eigenvalue {lam[0]:.3g} is below the round-off "
                f"{roundoff:.3g} of the matrix as computed: scale X"
            )
        W = U[:, :r] / np.sqrt(lam[:r])
        return _FeatureMap(
            raw=partial(_kernel_rows, kernel, points),
            W=W,
            attributes=dict(
                landmarks_=points, normalization_=W, landmark_rank_=r
            ),
        )

    def _fitted_attributes(self, raw_mean, A, V, W):
        return dict(kernel_col_means_=raw_mean, alphas_=A, components_=V.T)

    def _raw_features(self, chunk):
        # The kernel of the last fit, whatever set_params did since.
        kernel = type(self)(**self._fitted_params).kernel_function()
        return kernel(chunk, self.landmarks_)

    def _fitted_W(self):
        return self.normalization_

    def _score_parts(self):
        return self.kernel_col_means_, self.alphas_
