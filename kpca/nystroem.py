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

from ._feature_pca import (
    FitData,
    _check_features,
    _ChunkedFit,
    _descending_eigh,
    _FeaturePCA,
    check_common,
)
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


class NystroemMap:
    r"""The Nyström feature map: :math:`g(x) = (k(x, z_j))_{j\le m}`, :math:`W = U_r\Lambda_r^{-1/2}`.

    Holds the kernel's parameters (not a closure, so that it pickles and
    travels to dask workers), the landmarks and :math:`W`.
    """

    def __init__(
        self,
        kernel_params: dict[str, Any],
        landmarks: np.ndarray,
        W: np.ndarray,
    ) -> None:
        self.kernel_params = kernel_params
        self.landmarks = landmarks
        self.W = W
        self.width = int(landmarks.shape[0])
        # Kernel rows are cheaper to compute again than to hold (FeatureMap).
        self.keep_for_scores = False

    def kernel(self) -> Callable:
        return make_kernel(**self.kernel_params)

    @classmethod
    def from_landmarks(
        cls, kernel_params: dict[str, Any], points: np.ndarray
    ) -> NystroemMap:
        """W from the eigendecomposition of the landmarks' kernel matrix.

        Keeps the :math:`r` eigenvalues above ``RANK_RTOL`` times the
        largest and above the round-off of :math:`K_{mm}` as computed.
        """
        K_mm = make_kernel(**kernel_params)(points)
        if callable(kernel_params["kernel"]):
            check_symmetric(K_mm, "kernel(landmarks, landmarks)")
            K_mm = symmetrize(K_mm, inplace=True)
        roundoff = _kernel_roundoff(K_mm)
        lam, U = _descending_eigh(K_mm)
        r = numerical_rank(lam)
        if r == 0:
            raise ValueError(
                "the kernel matrix of the landmarks has no positive "
                "eigenvalue: the landmarks carry no feature"
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
        return cls(kernel_params, points, U[:, :r] / np.sqrt(lam[:r]))

    def features(self, chunk: np.ndarray) -> np.ndarray:
        """The kernel values of the rows against the landmarks."""
        return _check_features(self.kernel()(chunk, self.landmarks))

    def error_scale(self, chunk: np.ndarray) -> float:
        return 0.0  # a unit of round-off of the kernel values' own size


_NAMED_KERNELS = ("linear", "polynomial", "gaussian")


class NystroemKernelPCA(_FeaturePCA):
    r"""Approximate kernel PCA from :math:`m` landmarks (the Nyström method).

    The model is exact kernel PCA of the approximate kernel matrix
    :math:`\tilde K = K_{nm}K_{mm}^+K_{mn}`, centred in its feature space
    (see the module docstring).  ``fit`` reads the data in chunks: one pass
    to choose the landmarks (unless they are given), one to accumulate the
    :math:`m\times m` scatter :math:`C_K` of the kernel rows; ``transform``
    one more for the scores.  Time :math:`O(nmd + nm^2 + m^3)`; memory
    :math:`O(m^2 + \text{chunk}\cdot m)` plus the :math:`n\times k` scores.
    ``fit_transform`` reads the data twice as well: the kernel rows are
    cheaper to compute again than to hold (:math:`8nm` bytes), so its
    memory stays :math:`O(m^2 + \text{chunk}\cdot m)` plus the scores.

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

    # Fitted attributes, set at the end of _fit.
    landmarks_: np.ndarray
    normalization_: np.ndarray
    landmark_rank_: int
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

    def _kernel_params(self) -> dict[str, Any]:
        self.kernel_function()  # checks the kernel
        return dict(
            kernel=self.kernel,
            sigma=self.sigma,
            degree=self.degree,
            coef0=self.coef0,
        )

    def _choose_landmarks(
        self, data: FitData, m: int, seed: int
    ) -> np.ndarray:
        """The landmarks by the rule ``landmarks`` names: one pass over ``data``."""
        if self.landmarks == "uniform":
            return data.sample(m, seed)
        # k-means runs on the sample (where the sample is: a dask worker
        # for a dask array), not on the data.
        return data.sample(
            10 * m,
            seed,
            partial(_kmeans, n_landmarks=m, random_state=seed, max_iter=10),
        )

    def _fit(
        self,
        X: Any,
        *,
        partial: bool = False,
        keep_bytes: int = 0,
        stacklevel: int = 4,
    ) -> _ChunkedFit:
        """Choose the landmarks (or reuse them), then the chunked PCA."""
        seed = check_common(
            self.n_components, self.chunk_size, self.random_state
        )
        kernel_params = self._kernel_params()
        if isinstance(self.landmarks, str):
            check_choice(self.landmarks, "landmarks", LANDMARK_METHODS)
            m = check_positive_int(self.n_landmarks, "n_landmarks")
            given = None
        else:
            given = check_array(self.landmarks, "landmarks")
            m = given.shape[0]
        data, before, names = self._pass_data(X, partial, m)
        if before is not None:
            feature_map = self._feature_map
        else:
            if given is None and data.one_shot:
                raise TypeError(
                    f"{type(self).__name__} with these parameters reads X "
                    "twice (a pass to choose the landmarks, one to fit), but "
                    "X is a one-shot iterator (a generator?): pass an array "
                    "or a list of chunks, or give the landmarks"
                )
            if given is None:
                points = self._choose_landmarks(data, m, seed)
            elif given.shape[1] != data.n_features:
                raise ValueError(
                    f"landmarks has {given.shape[1]} features, but X has "
                    f"{data.n_features}"
                )
            else:
                points = given.copy()
            feature_map = NystroemMap.from_landmarks(kernel_params, points)
        result = self._run_pass(
            feature_map, data, before, keep_bytes, stacklevel
        )
        assert isinstance(feature_map, NystroemMap)
        self.landmarks_ = feature_map.landmarks
        self.normalization_ = feature_map.W
        self.landmark_rank_ = feature_map.W.shape[1]
        self.kernel_col_means_ = result.raw_mean
        self.alphas_ = result.A
        self.components_ = result.V.T
        self._record(
            feature_map, result, feature_map.landmarks.shape[1], names
        )
        return result
